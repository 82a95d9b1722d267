/* sweep.h — a case's whole plan (docs/method.md §5): every integrator at
 * dt, dt/2, ... under the fixed plan, `seeds` random plans and the trace
 * (jobs.h), then what the runs mean: fitted orders, random-plan bands,
 * one-step errors, and whether a run retraces itself backwards.  What a
 * command calls; what a sweep holds is results.h. */
#ifndef VB_SWEEP_H
#define VB_SWEEP_H

#include "jobs.h"
#include "results.h"
#include "shards.h"

/* Flags of vb_sweep_run. */
enum {
    /* only the tables: no long runs or paths for the charts (check, baseline) */
    VB_SWEEP_TABLES_ONLY = 1u,
    /* also time the runs, alone and on one thread, into timing.csv */
    VB_SWEEP_TIMING = 2u,
    /* the charts' long runs and paths at every step, not reduced to the
     * charts' pixels (series.h) */
    VB_SWEEP_FULL_CHART_DATA = 4u
};

/* `threads` runs jobs in parallel (1: in this thread); the results are the
 * same bytes whatever it is, since every job owns its slot and everything
 * after the jobs runs in one thread in a fixed order.  progress is then
 * called from the workers, one at a time. */
int vb_sweep_run(const vb_case *c, vb_sweep *s, double max_steps, unsigned flags,
                 unsigned threads, vb_progress_fn *progress, void *ctx, char *err,
                 size_t errlen);

/* The same in parts, for shards (run --shard K/N, merge): begin plans the
 * jobs; vb_sweep_shard says which shard computes each (over a group of
 * sweeps: the points of one case file's grid, jointly, or its one case)
 * and makes them shard_k's; compute runs the jobs (a shard's only); finish
 * works out what the filled jobs mean and runs the rest (one-step,
 * reversal, the charts' long runs), which makes the sweep whole.  A merge
 * fills every job from the shards between begin and finish: the files then
 * equal vb_sweep_run's. */
int vb_sweep_finish(const vb_case *c, vb_sweep *s, double max_steps, unsigned flags,
                    unsigned threads, char *err, size_t errlen);

#endif
