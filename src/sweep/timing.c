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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "integrator.h"
#include "isolate.h"
#include "plugin.h"

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

typedef struct {
    vb_sweep *s;
    vb_timing_row *rows;
    size_t *slot; /* job k's row */
} timing_ctx;

/* in a worker: the times of runs of a plugin's code */
static int iso_times(void *ctx, const size_t *units, size_t n, vb_isolate_out *out, char *err,
                     size_t errlen)
{
    const timing_ctx *t = ctx;
    for (size_t k = 0; k < n; k++) {
        vb_timing_row row;
        if (time_job(t->s->c, &t->s->jobs[units[k]], &row) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (vb_isolate_put(out, units[k], &row, sizeof row) != 0) {
            snprintf(err, errlen, "cannot send a result to verletbench");
            return -1;
        }
    }
    return 0;
}

static int iso_times_done(void *ctx, size_t k, const void *bytes, size_t len, const char *why)
{
    const timing_ctx *t = ctx;
    vb_timing_row *row = &t->rows[t->slot[k]];
    if (bytes && len == sizeof *row) {
        memcpy(row, bytes, len);
        row->job = &t->s->jobs[k];
        return 0;
    }
    row->job = NULL; /* left out, said */
    return vb_sweep_plugin_failed(t->s, t->s->jobs[k].integ, "its timing (run --timing)",
                                  bytes ? "a worker's result of the wrong size" : why);
}

int vb_timing_run(vb_sweep *s, vb_timing_row **out, size_t *n_out)
{
    const vb_case *c = s->c;
    size_t n_jobs = s->n_jobs;
    *out = calloc(n_jobs ? n_jobs : 1, sizeof **out);
    *n_out = 0;
    size_t room = n_jobs ? n_jobs : 1, n_here = 0;
    timing_ctx t = {s, *out, calloc(room, sizeof *t.slot)};
    size_t *timed = malloc(room * sizeof *timed), *entry = malloc(room * sizeof *entry);
    size_t *here = malloc(room * sizeof *here), *iso = malloc(room * sizeof *iso), n_iso = 0;
    int rc = *out && t.slot && timed && entry && here && iso ? 0 : -1;
    for (size_t k = 0; rc == 0 && k < n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        /* an engine's time is its process's, not a step's; a run that did
         * not finish has no cost to compare */
        if ((j->kind == VB_PLAN_RANDOM && j->seed != 1) || !vb_sweep_caps(c, j->integ).timed ||
            j->res.status != VB_STATUS_OK)
            continue;
        t.slot[k] = *n_out;
        entry[*n_out] = j->integ;
        timed[(*n_out)++] = k;
    }
    /* a plugin's in a worker, below */
    if (rc == 0)
        n_iso = vb_profile_split(&c->profile, timed, entry, *n_out, here, &n_here, iso);
    for (size_t q = 0; rc == 0 && q < n_here; q++)
        rc = time_job(c, &s->jobs[here[q]], &(*out)[t.slot[here[q]]]);
    char err[256];
    if (rc == 0 && n_iso)
        rc = vb_isolate_units(iso, n_iso, vb_plugin_timeout(), iso_times, iso_times_done, NULL,
                              &t, err, sizeof err);
    /* the rows of a plugin that failed, left out */
    size_t kept = 0;
    for (size_t r = 0; rc == 0 && r < *n_out; r++)
        if ((*out)[r].job)
            (*out)[kept++] = (*out)[r];
    if (rc == 0)
        *n_out = kept;
    free(t.slot);
    free(timed);
    free(entry);
    free(here);
    free(iso);
    return rc;
}
