/* timing.c — the wall time of a sweep's runs (run --timing), for work
 * against precision in seconds as well as in force evaluations.
 *
 * A run is timed alone, after the sweep, on one thread: its steps are
 * generated first (so the generator is not timed) and the integrator steps
 * through them on the model's force, with no truth and no metrics: what the
 * method costs a user, not what measuring it costs.  A short run is
 * repeated until the repeats add up to VB_TIMING_MIN_NS (at least
 * VB_TIMING_MIN_REPEATS, at most VB_TIMING_MAX_REPEATS) and the median is
 * kept; a run of VB_TIMING_LONG_NS or more is timed once.  Only the jobs of seed 1 of the random plans are timed: seeds
 * differ in their steps, not their cost.  The times go to timing.csv alone;
 * every other file stays the same bytes on any machine. */
#include "timing.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine.h"
#include "integrator.h"
#include "sweep.h"

/* what the optimiser must not drop */
static volatile double sink;

/* one run through the steps h[0..n-1] */
static double one_run(const vb_integrator *g, const vb_model *m, const double *h, size_t n,
                      double tol, void *state, size_t state_bytes, double *xv)
{
    size_t N = m->n;
    memset(state, 0, state_bytes);
    vb_force f = vb_model_force(m);
    double t0 = vb_now_ns();
    m->type->initial(m->self, xv, xv + N);
    if (g->set_tolerance)
        g->set_tolerance(state, tol > 0.0 ? tol : VB_DEFAULT_TOL);
    vb_integrator_set_params(g, state);
    g->start(state, &f, 0.0, xv, xv + N, n ? h[0] : 0.0);
    double t = 0.0;
    for (size_t k = 0; k < n; k++) {
        g->step(state, &f, t, h[k]);
        t += h[k];
    }
    g->observe(state, xv, xv + N);
    double ns = vb_now_ns() - t0;
    if (g->finish)
        g->finish(state);
    sink = xv[0];
    return ns;
}

static int time_job(const vb_case *c, const vb_sweep_job *job, vb_timing_row *row)
{
    const vb_integrator *g = c->integ[job->integ];
    vb_plan p;
    if (vb_plan_begin(&p, &job->plan) != 0)
        return -1;
    size_t cap = 1024, n = 0;
    double *h = malloc(cap * sizeof *h), step, tn;
    int rc = h ? 0 : -1;
    while (rc == 0 && vb_plan_next(&p, &step, &tn)) {
        if (n == cap) {
            double *more = realloc(h, 2 * cap * sizeof *h);
            if (!more) {
                rc = -1;
                break;
            }
            h = more;
            cap *= 2;
        }
        h[n++] = step;
    }
    vb_plan_end(&p);
    size_t bytes = g->state_size(c->model.n);
    void *state = malloc(bytes);
    double *xv = malloc(2 * c->model.n * sizeof *xv);
    double times[VB_TIMING_MAX_REPEATS];
    int reps = 0;
    if (rc == 0 && state && xv) {
        double total = 0.0;
        while (reps < VB_TIMING_MAX_REPEATS &&
               (reps < VB_TIMING_MIN_REPEATS || total < VB_TIMING_MIN_NS)) {
            times[reps] = one_run(g, &c->model, h, n, job->plan.tol, state, bytes, xv);
            total += times[reps++];
            if (reps == 1 && total >= VB_TIMING_LONG_NS)
                break; /* long enough alone */
        }
    } else {
        rc = -1;
    }
    free(h);
    free(state);
    free(xv);
    if (rc != 0)
        return -1;
    row->integ = job->integ;
    row->kind = job->kind;
    row->level = job->level;
    row->job = job;
    row->repeats = reps;
    row->seconds = vb_median_sort(times, reps) * 1e-9;
    return 0;
}

int vb_timing_run(const vb_case *c, const vb_sweep_job *jobs, size_t n_jobs, vb_timing_row **out,
                  size_t *n_out)
{
    *out = calloc(n_jobs ? n_jobs : 1, sizeof **out);
    *n_out = 0;
    if (!*out)
        return -1;
    for (size_t k = 0; k < n_jobs; k++) {
        const vb_sweep_job *j = &jobs[k];
        /* an engine's time is its process's, not a step's; a run that did
         * not finish has no cost to compare */
        if ((j->kind == VB_PLAN_RANDOM && j->seed != 1) || vb_engine_of(c->integ[j->integ]) ||
            j->res.status != VB_STATUS_OK)
            continue;
        if (time_job(c, j, &(*out)[*n_out]) != 0)
            return -1;
        (*n_out)++;
    }
    return 0;
}
