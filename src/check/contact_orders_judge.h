/* contact_orders_judge.h — a case's contact_orders.csv
 * (output/contact_orders_table.c) against the baseline's: each contact
 * measure's fitted order in dt judged as orders.csv's are (docs/check.md,
 * "Contact handlers"). */
#ifndef VB_CONTACT_ORDERS_JUDGE_H
#define VB_CONTACT_ORDERS_JUDGE_H

#include <stddef.h>

#include "baseline.h"
#include "changes.h"

/* Compare the baseline's contact_orders.csv with the one made now, each
 * beside the runs.csv written with it.  Every column of the writer's
 * schema must be there once and no other, every cell what the writer
 * prints (a measure of contact.csv's body view, a verdict a fit with no
 * label can have, an order blank exactly when the verdict has none, its
 * standard error and interval with three points or more), the '#' lines
 * those of its runs.csv and the same on both sides, a row a key (a header
 * alone is refused).  Rows pair by integrator, plan and measure; a row
 * only one side has is an entry's runs only one side has, which judge.c
 * counts.  Worse: a verdict of a lower rank (vb_verdict_rank: exact, then
 * a power law or a trend, then not converging), or an order lower by more
 * than tol->order_tol; better the other way.  0, or VB_COMPARE_BAD (file,
 * line and column said in err) or VB_COMPARE_OOM. */
int vb_compare_contact_orders(const char *name, vb_text base, vb_text now, vb_text base_runs,
                              vb_text now_runs, const vb_tolerance *tol, unsigned flags,
                              vb_changes *out, char *err, size_t errlen);

#endif
