/* match.h — the rows of a baseline paired with the rows made now
 * (match.c). */
#ifndef VB_MATCH_H
#define VB_MATCH_H

#include "baseline.h"

/* Each run made now paired with the same run of the baseline (partner),
 * after the baseline's counts are held to the plan and its metrics to the
 * case's; *shared: the finest level both sides have (with
 * VB_COMPARE_SHARED_LEVELS; else every level).  0, or VB_COMPARE_BAD with
 * why. */
int vb_match_runs(const vb_table *bt, vb_run_set *base, vb_run_set *now, unsigned flags,
                  int *shared, char *err, size_t errlen);

/* Each order fitted now paired with the baseline's of the same
 * integrator, plan and norm (partner), after the baseline's orders are
 * held to its header's list of integrators, each with the same plans and
 * norms.  0, or VB_COMPARE_BAD with why. */
int vb_match_orders(const vb_table *bt, vb_order_rec *b, vb_order_rec *n, size_t nn, char *err,
                    size_t errlen);

#endif
