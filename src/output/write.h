/* write.h — a sweep's files, into a case directory of the results
 * directory (outdir.h), or as text (check compares it with a baseline). */
#ifndef VB_WRITE_H
#define VB_WRITE_H

#include <stddef.h>

#include "grid.h"
#include "outdir.h"
#include "results.h"

/* Write {runs,orders,bands,onestep,onestep_orders,reverse}.csv, the chart
 * data {convergence,timeseries,paths}.csv (unless tables_only) and
 * summary.md into DIR, a new empty directory (vb_casedir_begin makes it). */
int vb_sweep_write(const vb_sweep *s, const char *dir, char *err, size_t errlen);

/* Write every sweep into the results directory DIR/NAME, and every grid
 * (grid.h) into DIR/ITS-NAME, each directory replaced whole, all of them
 * written before any is swapped in (a write that fails changes nothing).
 * 0, or VB_OUTDIR_USAGE or VB_OUTDIR_FAIL (outdir.h) with a message. */
int vb_sweep_write_all(const vb_outdir *o, const vb_sweep *sweeps, size_t n,
                       const vb_grid *grids, size_t n_grids, char *err, size_t errlen);

/* The text one of those files would have ("runs.csv", ...), in a buffer
 * to free.  0, or -1 (out of memory, or no such file in this sweep). */
int vb_sweep_table_text(const vb_sweep *s, const char *file, char **text, size_t *len);

#endif
