/* flips_judge.h — a rigid body's case's flips.csv (output/tables.c)
 * against the baseline's: the flips of its intermediate axis, their period
 * and a stable spin's tumble (docs/check.md, "A rigid body's flips"). */
#ifndef VB_FLIPS_JUDGE_H
#define VB_FLIPS_JUDGE_H

#include <stddef.h>

#include "baseline.h"
#include "changes.h"

/* Compare the baseline's flips.csv with the one made now, each beside the
 * runs.csv written with it, as vb_compare_contact compares contact.csv:
 * every column of the writer's schema once and no other, every cell what
 * the writer prints there (and blank exactly where it leaves one), the '#'
 * lines those of its runs.csv, a row a run of its runs.csv in its order
 * with the same key, dt, t_end and status (none deleted, none moved; a
 * header alone is refused), the exact motion's count and period the same
 * on both sides.  Rows pair by integrator, plan, dt and seed; a row only
 * one side has is a run only one side's runs.csv has, named and counted
 * by judge.c.  0, or VB_COMPARE_BAD (file, line and column said in err)
 * or VB_COMPARE_OOM. */
int vb_compare_flips(const char *name, vb_text base, vb_text now, vb_text base_runs,
                     vb_text now_runs, const vb_tolerance *tol, unsigned flags,
                     vb_changes *out, char *err, size_t errlen);

#endif
