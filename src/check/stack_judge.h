/* stack_judge.h — a stack case's stacks.csv (output/stack_table.c) against
 * the baseline's: each solver's (and engine's) run on a stack of boxes,
 * its measures judged by their distance from the exact answer, no box
 * moves (docs/check.md, "A stack"). */
#ifndef VB_STACK_JUDGE_H
#define VB_STACK_JUDGE_H

#include <stddef.h>

#include "baseline.h"
#include "changes.h"

/* Compare the baseline's stacks.csv with the one made now, each beside the
 * runs.csv written with it, as vb_compare_flips compares flips.csv: every
 * column of the writer's schema once and no other, every cell what the
 * writer prints there, the '#' lines those of its runs.csv, a row a run of
 * its runs.csv in its order (none deleted, none moved; a header alone is
 * refused), a run's iterations and substeps the same on both sides (the
 * case's [contact] keys, not the solver's result).  Rows pair by
 * integrator, plan, dt and their run's seed; a row only one side has is a
 * run only one side's runs.csv has, named and counted by judge.c.  A
 * stack that stood in the baseline and collapses now is worse; drift_max,
 * speed_rms and depth_max (all 0 exactly) are worse when they grow by more
 * than 1 + rtol above the round-off floor.  0, or VB_COMPARE_BAD (file,
 * line and column said in err) or VB_COMPARE_OOM. */
int vb_compare_stacks(const char *name, vb_text base, vb_text now, vb_text base_runs,
                      vb_text now_runs, const vb_tolerance *tol, unsigned flags,
                      vb_changes *out, char *err, size_t errlen);

#endif
