/* contact_judge.h — a case's contact.csv (output/contact_table.c) against
 * the baseline's: each contact handler's measures judged by how far they
 * lie from their exact values (docs/check.md, "Contact handlers"). */
#ifndef VB_CONTACT_JUDGE_H
#define VB_CONTACT_JUDGE_H

#include <stddef.h>

#include "baseline.h"
#include "changes.h"

/* Compare the baseline's contact.csv with the one made now, each beside
 * the runs.csv written with it.  Every column of the writer's schema must
 * be there once and no other, every cell what the writer prints (a
 * number, inf, or blank), the '#' lines those of its runs.csv and the
 * same on both sides, a row a run of its runs.csv in the same order (none
 * deleted, none moved: a header alone is refused), the exact values the
 * same (they are fixed by the model, not the handler).  Rows pair by
 * integrator, plan, dt and their run's seed; a row only one side has is a
 * run only one side's runs.csv has, which judge.c names and counts
 * (missing, new, or at a step size only one side has): not counted again.
 * 0, or VB_COMPARE_BAD (file, line and column said in err) or
 * VB_COMPARE_OOM. */
int vb_compare_contact(const char *name, vb_text base, vb_text now, vb_text base_runs,
                       vb_text now_runs, const vb_tolerance *tol, unsigned flags,
                       vb_changes *out, char *err, size_t errlen);

#endif
