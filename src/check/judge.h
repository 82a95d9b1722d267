/* judge.h — what changed, judged (judge.c): the runs of a case and its
 * fitted orders against the baseline's. */
#ifndef VB_JUDGE_H
#define VB_JUDGE_H

#include "baseline.h"
#include "changes.h"

/* The signal of each (integrator, plan, metric): whether its errors rise
 * above round-off before and after (an order fitted to round-off alone is
 * noise, and a series now at round-off is as good as exact). */
typedef struct {
    const char *integ, *plan;
    int m;
    int before, after;
} vb_signal_rec;

typedef struct {
    vb_signal_rec *v;
    size_t n, cap;
} vb_signal_set;

/* The runs: status by status, and each metric's series over the step
 * sizes; the signal of each series recorded for the orders. */
int vb_judge_runs(const vb_table *bt, const vb_table *nt, const char *name, const vb_tolerance *tol,
                  unsigned flags, vb_changes *out, vb_signal_set *signal, char *err, size_t errlen);
/* The fitted orders and verdicts, where a series has a signal. */
int vb_judge_orders(const vb_table *bt, const vb_table *nt, const char *name,
                    const vb_tolerance *tol, vb_changes *out, const vb_signal_set *signal,
                    char *err, size_t errlen);

#endif
