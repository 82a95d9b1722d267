/* rundir.h — the results directory of a run, merge or check --save as a
 * whole: every directory it will replace checked before anything is
 * computed, then every case and grid and DIR/summary.md written at once,
 * and the same tables on the terminal. */
#ifndef VB_RUNDIR_H
#define VB_RUNDIR_H

#include <stdio.h>

#include "casefile.h"
#include "grid.h"
#include "outdir.h"
#include "results.h"

/* Every case's directory (each point of a grid's), then every grid's, may
 * be replaced in the results directory o (vb_casedir_check).  0, or
 * VB_OUTDIR_USAGE or VB_OUTDIR_FAIL with why. */
int vb_rundir_check(const vb_outdir *o, const vb_case_set *set, char *err, size_t errlen);

/* Where `verletbench draw` puts the charts of a results directory: plots
 * for results (make's layout: the charts beside their scripts), RESULTS/plots
 * for any other.  0, or -1 when the path does not fit buf. */
int vb_charts_dir(const char *results, char *buf, size_t size);

/* Every sweep's directory and grid's (vb_sweep_write_all), and DIR/summary.md
 * when summary is set, written with SIGINT, SIGTERM and SIGHUP held back
 * (well under a second): each directory is swapped in whole, and a failure
 * before the swaps (a full disk) changes nothing.  With summary.md, what an
 * earlier draw made of the tables replaced goes too: DIR/REPORT.md and the
 * written cases' charts (vb_charts_dir), which would disagree with them.
 * 0, or VB_OUTDIR_USAGE / VB_OUTDIR_FAIL with why. */
int vb_rundir_write(const vb_outdir *o, const char *dir, const vb_sweep *sweeps, size_t n,
                    const vb_grid *grids, size_t n_grids, int summary, char *err, size_t errlen);

/* Each case's table in the order given, a grid's own tables before its
 * first point's: DIR/summary.md's, and what run prints. */
void vb_rundir_print(FILE *f, const vb_sweep *sweeps, size_t n, const vb_grid *grids,
                     size_t n_grids);

#endif
