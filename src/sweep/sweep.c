/* sweep.c — a case's whole sweep: its jobs planned and run (jobs.c), then
 * what they mean (analysis.c, contact_orders.c, onestep.c, reversal.c), timed on request
 * (timing.c), and the charts' long runs recorded (series.c). */
#include "sweep.h"

#include <stdio.h>

#include "analysis.h"
#include "contact_orders.h"
#include "onestep.h"
#include "rates.h"
#include "reversal.h"
#include "timing.h"

int vb_sweep_run(const vb_case *c, vb_sweep *s, double max_steps, unsigned flags,
                 unsigned threads, vb_progress_fn *progress, void *ctx, char *err,
                 size_t errlen)
{
    int rc = vb_sweep_begin(c, s, max_steps, err, errlen);
    if (rc == 0 && (rc = vb_sweep_compute(c, s, threads, progress, ctx, err, errlen)) == 0)
        rc = vb_sweep_finish(c, s, max_steps, flags, threads, err, errlen);
    /* the engines' persistent workers are done with this case: ended now,
     * not when the case is freed, or a run of many cases would keep every
     * case's workers (a node process each) until the last */
    for (size_t i = 0; i < c->n_integ; i++)
        vb_runner_release(c->integ[i]);
    return rc;
}

int vb_sweep_finish(const vb_case *c, vb_sweep *s, double max_steps, unsigned flags,
                    unsigned threads, char *err, size_t errlen)
{
    char label[4096];
    const char *name = vb_case_label(c, label, sizeof label);
    s->tables_only = (flags & VB_SWEEP_TABLES_ONLY) != 0;
    s->shard_n = s->shard_k = 0; /* a merged sweep is whole */
    if (vb_sweep_analyse_orders(s) != 0 || vb_sweep_contact_orders(s) != 0 ||
        vb_sweep_analyse_same(s) != 0 ||
        vb_sweep_onestep(s) != 0 || vb_sweep_reversal(s) != 0) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    if ((flags & VB_SWEEP_TIMING) &&
        vb_timing_run(s, &s->timing, &s->n_timing) != 0) {
        snprintf(err, errlen, "%s: out of memory for the timing", name);
        return -1;
    }
    s->timed = (flags & VB_SWEEP_TIMING) != 0;
    char why[256];
    if (vb_sweep_rates(s, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: the frame-rate table: %s", name, why);
        return -1;
    }
    if (!s->tables_only &&
        vb_series_run(c, max_steps, threads, (flags & VB_SWEEP_FULL_CHART_DATA) != 0, &s->series,
                      why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: recording the charts' runs: %s", name, why);
        return -1;
    }
    return 0;
}
