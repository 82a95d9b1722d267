/* modes.c — one timed run of each mode of the benchmark (the harness's own
 * stepping, a whole sim run, GSL's driver, a reference
 * solution and the runs it serves), and the timing of a mode against a
 * fused loop, pair by pair. */
#define _POSIX_C_SOURCE 200809L
#include "modes.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "integrator.h"
#include "simulate.h"
#include "truth.h"

/* the sink every timed loop writes its result to, so none is optimised away */
static volatile double sink;

/* ---- the harness's own stepping, no metrics ---- */

static int single_run(const vb_integrator *g, const vb_model *m, double h, unsigned long steps)
{
    void *state = calloc(1, g->state_size(m->n));
    double *x = malloc(2 * m->n * sizeof *x);
    if (!state || !x) {
        free(state);
        free(x);
        return -1;
    }
    double *v = x + m->n;
    vb_force f = vb_model_force(m);
    m->type->initial(m->self, x, v);
    if (g->set_tolerance) /* an adaptive method: frames of h at the default tolerance */
        g->set_tolerance(state, VB_DEFAULT_TOL);
    vb_integrator_set_params(g, state);
    g->start(state, &f, 0.0, x, v, h);
    double t = 0.0;
    for (unsigned long s = 0; s < steps; s++) {
        g->step(state, &f, t, h);
        t += h;
    }
    g->observe(state, x, v);
    sink = x[0] + v[0];
    if (g->finish)
        g->finish(state);
    free(state);
    free(x);
    return 0;
}

/* ---- GSL's driver with its rk4 ---- */

static int gsl_rhs(double t, const double y[], double dydt[], void *params)
{
    const vb_model *m = params;
    size_t d = m->n;
    m->type->accel(m->self, t, y, y + d, dydt + d);
    memcpy(dydt, y + d, d * sizeof *y);
    return GSL_SUCCESS;
}

static int gsl_run(const vb_model *m, double h, unsigned long steps)
{
    size_t d = m->n;
    gsl_odeiv2_system sys = {gsl_rhs, NULL, 2 * d, (void *)m};
    gsl_odeiv2_driver *drv = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk4, h, 1e-6, 0);
    double *y = malloc(2 * d * sizeof *y), t = 0.0;
    if (!drv || !y) {
        if (drv)
            gsl_odeiv2_driver_free(drv);
        free(y);
        return -1;
    }
    m->type->initial(m->self, y, y + d);
    int rc = gsl_odeiv2_driver_apply_fixed_step(drv, &t, h, steps, y);
    gsl_odeiv2_driver_free(drv);
    sink = y[0];
    free(y);
    return rc == GSL_SUCCESS ? 0 : -1;
}

/* ---- a reference solution, alone and with the runs it serves ---- */

static double ref_grid_t_end(const vb_model *m)
{
    double T = m->type->natural_time ? m->type->natural_time(m->self) : 1.0;
    return isfinite(T) && T > 0 ? T : 1.0;
}

/* the reference at every grid point, as the runs of a grid ask for it */
static int reference_run(const vb_model *m)
{
    vb_truth *tr = vb_truth_alloc_reference(m);
    double *x = malloc(2 * m->n * sizeof *x);
    int rc = tr && x ? 0 : -1;
    double T = ref_grid_t_end(m);
    for (unsigned long k = 1; rc == 0 && k <= VB_REF_GRID; k++)
        rc = vb_truth_at(tr, T * (double)k / VB_REF_GRID, x, x + m->n);
    if (rc == 0)
        sink = x[0] + vb_truth_err_pos(tr);
    free(x);
    vb_truth_free(tr);
    return rc;
}

/* every integrator of the table on the grid, sharing one truth, as `run` does */
static int grid_run(const vb_model *m, size_t *n_integ)
{
    size_t n = 0;
    const vb_integrator *list[64];
    /* as a case's 'all' does: on rods the methods that keep them, elsewhere
     * the rest (a constrained method without rods is its base method) */
    int rods = vb_model_constrained(m);
    for (size_t i = 0; i < vb_integrator_count() && n < 64; i++) {
        const vb_integrator *g = vb_integrator_at(i);
        if (!(g->flags & VB_CONSTRAINED) == !rods)
            list[n++] = g;
    }
    *n_integ = n;
    vb_run_result *res = calloc(n, sizeof *res);
    if (!res)
        return -1;
    vb_grid_spec spec = {.model = m, .integ = list, .n_integ = n};
    spec.plan.kind = VB_PLAN_FIXED;
    spec.plan.t_end = ref_grid_t_end(m);
    spec.plan.dt = spec.plan.t_end / VB_REF_GRID;
    char err[256];
    int rc = vb_simulate_grid(&spec, res, err, sizeof err);
    if (rc == 0)
        sink = res[0].err_pos_max;
    for (size_t k = 0; rc == 0 && k < n; k++)
        vb_run_result_clear(&res[k]); /* why a run diverged, when it says */
    free(res);
    return rc;
}

const char *const vb_bench_mode_name[VB_N_BENCH_MODES] = {"fused", "single",    "sim",
                                                          "gsl",   "reference", "grid"};

/* one run of a mode: 0 or -1; *per is what it counts (steps, run-steps,
 * grid points) */
static int run_mode(vb_bench_mode md, vb_fused_kind fk, const vb_integrator *g, const vb_model *m,
                    double mu, double h, unsigned long steps, size_t *n_integ, double *per)
{
    *per = (double)steps;
    switch (md) {
    case VB_BENCH_FUSED:
        return vb_fused_run(fk, m, mu, h, steps);
    case VB_BENCH_SINGLE:
        return single_run(g, m, h, steps);
    case VB_BENCH_SIM: {
        vb_run_spec spec = {.integ = g, .model = m};
        spec.plan.kind = VB_PLAN_FIXED;
        spec.plan.dt = h;
        spec.plan.t_end = h * (double)steps;
        vb_run_result res;
        char err[256];
        int rc = vb_simulate(&spec, &res, err, sizeof err);
        sink = res.err_pos_max;
        if (rc == 0)
            vb_run_result_clear(&res);
        return rc;
    }
    case VB_BENCH_GSL:
        return gsl_run(m, h, steps);
    case VB_BENCH_REFERENCE:
        *per = VB_REF_GRID;
        return reference_run(m);
    case VB_BENCH_GRID:
        *per = VB_REF_GRID;
        return grid_run(m, n_integ);
    }
    return -1;
}

int vb_timer_init(vb_timer *t)
{
    double per, t0 = vb_cpu_ns();
    if (run_mode(t->md, t->fk, t->g, t->m, t->mu, t->h > 0 ? t->h : VB_BENCH_DT, t->steps,
                 t->n_integ, &per) != 0)
        return -1;
    double once = vb_cpu_ns() - t0;
    t->runs = once >= MIN_TIMING_NS ? 1 : (unsigned long)ceil(MIN_TIMING_NS / fmax(once, 1.0));
    if (t->runs > 100000)
        t->runs = 100000;
    return 0;
}

/* one timing: ns per step (per grid point for the reference and the
 * grid), or NAN */
static double timer_once(vb_timer *t)
{
    double per = 1.0, t0 = vb_cpu_ns();
    for (unsigned long k = 0; k < t->runs; k++)
        if (run_mode(t->md, t->fk, t->g, t->m, t->mu, t->h > 0 ? t->h : VB_BENCH_DT, t->steps,
                     t->n_integ, &per) != 0)
            return NAN;
    return (vb_cpu_ns() - t0) / (per * (double)t->runs);
}

int vb_time_paired(vb_timer *t, vb_timer *f, double np, double nf, int repeat, double *ns,
                   double *ratio)
{
    double a[64], r[64];
    for (int k = 0; k < repeat; k++) {
        double fk = f ? timer_once(f) : 1.0, x = timer_once(t);
        if (!isfinite(fk) || !isfinite(x))
            return -1;
        a[k] = x;
        r[k] = f ? (x / np) / (fk / nf) : (double)NAN;
    }
    *ns = vb_median_sort(a, repeat);
    *ratio = f ? vb_median_sort(r, repeat) : (double)NAN;
    return 0;
}
