/* jobs.h — a sweep's jobs: planned, every integrator at dt, dt/2, ...
 * under the fixed plan, `seeds` random plans and the trace; and run.  The
 * runs of one plan (a kind, a level, a seed) go together, every integrator
 * on the same step times, so the truth is computed once for all of them
 * (simulate.h); plans are independent tasks, each writing only its own
 * slots, so they can go in any order or in parallel and the tables come
 * out the same. */
#ifndef VB_JOBS_H
#define VB_JOBS_H

#include "plans.h"
#include "results.h"

/* Refuse a case whose plan needs more than max_steps steps in a run, before
 * anything is written or run: 0 or VB_SWEEP_USAGE with a message. */
int vb_sweep_check(const vb_case *c, double max_steps, char *err, size_t errlen);

/* The plans one integrator of the case runs, in the sweep's order (kind,
 * level, seed); malloc'd, *n of them; NULL when out of memory. */
vb_plan_spec *vb_sweep_plans(const vb_case *c, size_t *n);

/* The plans one integrator of the case runs, in the sweep's order (kind,
 * level, seed); malloc'd, *n of them; NULL when out of memory. */
vb_plan_spec *vb_sweep_plans(const vb_case *c, size_t *n);

/* vb_sweep_plan_for: plans.h */

/* The frame-rate table's frames ([loop] rates, rates.h): fixed; random
 * when the case has jitter; its trace when it has one.  The kinds into
 * kinds[], their count. */
int vb_sweep_rate_kinds(const vb_case *c, vb_plan_kind kinds[3]);
/* The frames of display rate `rate` (Hz) of a kind (docs/method.md §9):
 * fixed, N = ceil(t_end rate) of t_end/N; random, dt (1 + jitter u) of
 * dt = 1/rate, seed 1; trace, the case's trace scaled to a mean frame of
 * 1/rate and replayed from the start as it runs out. */
vb_plan_spec vb_sweep_rate_plan(const vb_case *c, double rate, vb_plan_kind kind);

/* Check the case against the step limit and plan every job, their
 * results still empty.  0, VB_SWEEP_USAGE or -1 with a message. */
int vb_sweep_begin(const vb_case *c, vb_sweep *s, double max_steps, char *err, size_t errlen);

/* Called after each finished job with (done, total): for a progress line. */
typedef void vb_progress_fn(void *ctx, size_t done, size_t total);

/* Run the jobs (a shard's only, when sharded) on `threads` threads (1: in
 * this thread): every job owns its slot, so the results are the same bytes
 * for any number; progress is called from the workers, one at a time.  0,
 * or -1 with a message naming the first job in plan order that failed. */
int vb_sweep_compute(const vb_case *c, vb_sweep *s, unsigned threads, vb_progress_fn *progress,
                     void *ctx, char *err, size_t errlen);

#endif
