/* report.h — what a sweep says on the terminal besides its tables
 * (report.c), as messages of the command cmd on f. */
#ifndef VB_REPORT_H
#define VB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* Say every engine run of the sweeps that failed (which engine, command,
 * run and why), and every run or part of a sweep a plugin's worker failed
 * (isolate.h: which plugin, what and why); the number of them. */
size_t vb_report_run_failures(FILE *f, const char *cmd, const vb_sweep *sweeps, size_t n);

/* run --strict: every verdict of the summary tables (the position error's,
 * err_pos_max, for each plan; the energy error's with fixed steps) that is
 * below-label or not-converging, a trend below the label, or undetermined
 * where runs did not finish, said one a line; with `mine`, only those of
 * methods that are not built in (a plugin's, an engine's: --strict=mine).
 * Their number, less those undetermined because an engine or a plugin
 * failed the runs: said as no verdict, not counted (the failures are
 * vb_report_run_failures', and fail the run). */
size_t vb_report_strict(FILE *f, const char *cmd, const vb_sweep *sweeps, size_t n, int mine);

#endif
