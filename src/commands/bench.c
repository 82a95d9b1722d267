/* commands/bench.c — `verletbench bench`: what a step costs, as ratios against a
 * fused hand-written loop timed in the same process. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_engine.h"
#include "cli.h"
#include "clock.h"
#include "integrator.h"
#include "lanes.h"
#include "model.h"
#include "outfile.h"
#include "plugin.h"
#include "provenance.h"
#include "simulate.h"
#include "truth.h"

#define CMD "bench"

static void help(void)
{
    puts("Usage: verletbench bench [--model M [--set KEY=VALUE]...] [--integrator I[,I...]]\n"
         "                         [--steps N] [--repeat R] [--out FILE]\n"
         "                         [--plugin FILE]... [--plugin-timeout S]\n"
         "       verletbench bench --engine CMD [--model M [--set KEY=VALUE]...] [--steps N]\n"
         "                         [--out FILE]\n\n"
         "Times the integrators on a system and prints CSV:\n"
         "  model,integrator,mode,steps,ns_per_step,ratio_to_fused,particles,\n"
         "  ns_per_particle_step,fused_on\n"
         "Modes (ns per step of one run; the median of R repeats):\n"
         "  fused      a hand-written velocity Verlet loop for the system, every\n"
         "             function inlined: the reference the ratios are taken against\n"
         "             (for the orbit at e = 0.5, the 64-mass chain and the three-body\n"
         "             problem; a system without one is compared with the orbit's)\n"
         "  single     the integrator from the table, stepping the model's force through\n"
         "             function pointers: what the method itself costs here\n"
         "  sim        a whole `sim` run: the step plus the exact solution (for the orbit,\n"
         "             a Kepler solve; for a model without one, its own reference) and\n"
         "             every metric, at every step\n"
         "  batch      8 independent runs in lockstep lanes (the batched entry points):\n"
         "             ns per run-step (built-in integrators)\n"
         "  gsl        GSL's gsl_odeiv2_driver_apply_fixed_step with its rk4 (rk4 only)\n"
         "  reference  (models without an exact solution) the reference solution alone,\n"
         "             GSL's rk8pd with the second run that measures its error, landing\n"
         "             at every step of a fixed grid of 20000 steps over the model's\n"
         "             natural time: ns per grid point (integrator column: rk8pd)\n"
         "  grid       the same grid run by every integrator in the table, as `run`\n"
         "             does,\n"
         "             sharing that reference: ns per grid point for all of them together\n"
         "             (integrator column: the number of integrators)\n"
         "ratio_to_fused is ns_per_step / the fused loop's, both per particle-step: the\n"
         "median over R of each timing against one of the fused loop taken just before\n"
         "it; fused_on names the system of that loop.\n\n"
         "Options:\n"
         "  --model M          one system, built-in or plugin; default: the orbit (e = 0.5),\n"
         "                     the chain of 64 masses and the figure-eight three-body problem\n"
         "  --set KEY=VALUE    a parameter of --model (repeat); 'verletbench list' shows them\n"
         "  --integrator I     default velocity-verlet,rk4; a method with parameters as\n"
         "                     NAME:KEY=VALUE (jakobsen:sweeps=10)\n"
         "  --steps N          particle-steps per timed run (default 2000000): a system of\n"
         "                     n particles takes N/n steps (at least 1000); dt = 1e-5\n"
         "  --repeat R         timed repeats, median reported (default 5)\n"
         "  --out FILE         also write the CSV to FILE (temporary file, renamed)\n"
         "  --engine CMD       instead: what the external-engine protocol costs\n"
         "                     (docs/engines.md).  On --model (default: the spring), 100000\n"
         "                     fixed steps of 1e-3 (--steps), three runs through sim: the\n"
         "                     built-in velocity-verlet (mode sim), an engine that only echoes\n"
         "                     a finished trajectory (engine-echo: the protocol's cost is its\n"
         "                     time minus sim's), and CMD itself (engine);\n"
         "                     ratio_to_fused is then against sim\n"
         VB_PLUGIN_HELP
         "  --help             this text\n\n"
         "A benchmark, not a test: the ratios depend on the machine (make bench).");
}

/* the sink every timed loop writes its result to, so none is optimised away */
static volatile double sink;

/* ---- the references: velocity Verlet by hand, one loop per system ---- */

/* the Kepler orbit (mu) from the given state */
__attribute__((noinline)) static void fused_vv_orbit(double mu, double x, double y, double vx,
                                                     double vy, double h, unsigned long steps)
{
    double r2 = x * x + y * y, k = -mu / (r2 * sqrt(r2));
    double ax = k * x, ay = k * y, half = 0.5 * h;
    for (unsigned long s = 0; s < steps; s++) {
        vx += ax * half;
        vy += ay * half;
        x += vx * h;
        y += vy * h;
        r2 = x * x + y * y;
        k = -mu / (r2 * sqrt(r2));
        ax = k * x;
        ay = k * y;
        vx += ax * half;
        vy += ay * half;
    }
    sink = x + y + vx + vy;
}

/* a chain of n masses between fixed walls, w2 = k/m: what a rope or cloth
 * engine's inner loop looks like, the force folded into the drift */
__attribute__((noinline)) static int fused_vv_chain(size_t n, double w2, const double *x0,
                                                    const double *v0, double h,
                                                    unsigned long steps)
{
    double *x = n ? malloc(3 * n * sizeof *x) : NULL;
    if (!x)
        return -1;
    double *v = x + n, *a = v + n, half = 0.5 * h;
    memcpy(x, x0, n * sizeof *x);
    memcpy(v, v0, n * sizeof *v);
    /* the walls (x = 0) outside the loops, which then vectorise */
#define CHAIN_ACCEL(i, left, right) (w2 * (((left) - x[i]) + ((right) - x[i])))
    a[0] = CHAIN_ACCEL(0, 0.0, n > 1 ? x[1] : 0.0);
    for (size_t i = 1; i + 1 < n; i++)
        a[i] = CHAIN_ACCEL(i, x[i - 1], x[i + 1]);
    if (n > 1)
        a[n - 1] = CHAIN_ACCEL(n - 1, x[n - 2], 0.0);
    for (unsigned long s = 0; s < steps; s++) {
        for (size_t i = 0; i < n; i++) {
            v[i] += a[i] * half;
            x[i] += v[i] * h;
        }
        /* the force and the second kick in one pass */
        a[0] = CHAIN_ACCEL(0, 0.0, n > 1 ? x[1] : 0.0);
        v[0] += a[0] * half;
        for (size_t i = 1; i + 1 < n; i++) {
            a[i] = CHAIN_ACCEL(i, x[i - 1], x[i + 1]);
            v[i] += a[i] * half;
        }
        if (n > 1) {
            a[n - 1] = CHAIN_ACCEL(n - 1, x[n - 2], 0.0);
            v[n - 1] += a[n - 1] * half;
        }
    }
#undef CHAIN_ACCEL
    sink = x[0] + v[n - 1];
    free(x);
    return 0;
}

/* three equal masses in the plane, G = m = 1: each pair once, written out */
static inline void three_body_pair(const double *x, double *a, int i, int j)
{
    double dx = x[2 * j] - x[2 * i], dy = x[2 * j + 1] - x[2 * i + 1];
    double r2 = dx * dx + dy * dy, k = 1.0 / (r2 * sqrt(r2));
    a[2 * i] += k * dx;
    a[2 * i + 1] += k * dy;
    a[2 * j] -= k * dx;
    a[2 * j + 1] -= k * dy;
}

static inline void three_body_accel(const double *x, double *a)
{
    a[0] = a[1] = a[2] = a[3] = a[4] = a[5] = 0.0;
    three_body_pair(x, a, 0, 1);
    three_body_pair(x, a, 0, 2);
    three_body_pair(x, a, 1, 2);
}

__attribute__((noinline)) static void fused_vv_three_body(const double *x0, const double *v0,
                                                          double h, unsigned long steps)
{
    double x[6], v[6], a[6], half = 0.5 * h;
    memcpy(x, x0, sizeof x);
    memcpy(v, v0, sizeof v);
    three_body_accel(x, a);
    for (unsigned long s = 0; s < steps; s++) {
        for (int i = 0; i < 6; i++) {
            v[i] += a[i] * half;
            x[i] += v[i] * h;
        }
        three_body_accel(x, a);
        for (int i = 0; i < 6; i++)
            v[i] += a[i] * half;
    }
    sink = x[0] + v[5];
}

/* The systems with a fused loop, by model name. */
typedef enum { F_NONE, F_ORBIT, F_CHAIN, F_THREE_BODY } fused_kind;

static fused_kind fused_of(const vb_model *m)
{
    const char *name = m->type->name;
    if (!strcmp(name, "chain") && vb_model_find("chain") == m->type)
        return F_CHAIN;
    if (!strcmp(name, "figure-eight") && vb_model_find("figure-eight") == m->type)
        return F_THREE_BODY;
    return F_NONE;
}

/* one timed fused run on m (F_ORBIT: always e = 0.5 from periapsis) */
static int fused_run(fused_kind k, const vb_model *m, double mu, double h, unsigned long steps)
{
    switch (k) {
    case F_ORBIT: {
        double e = 0.5, vy = sqrt(mu * (1.0 + e) / (1.0 - e));
        fused_vv_orbit(mu, 1.0 - e, 0.0, 0.0, vy, h, steps);
        return 0;
    }
    case F_CHAIN:
    case F_THREE_BODY: {
        double *x = malloc(2 * m->n * sizeof *x);
        if (!x)
            return -1;
        m->type->initial(m->self, x, x + m->n);
        int rc = 0;
        if (k == F_CHAIN) {
            /* k/m from the model's own force law: a lone unit displacement
             * of the first mass is pulled back at 2 k/m */
            double *probe = calloc(3 * m->n, sizeof *probe);
            if (!probe) {
                free(x);
                return -1;
            }
            probe[0] = 1.0;
            m->type->accel(m->self, 0.0, probe, probe + m->n, probe + 2 * m->n);
            double w2 = -probe[2 * m->n] / 2.0;
            free(probe);
            rc = fused_vv_chain(m->n, w2, x, x + m->n, h, steps);
        } else {
            fused_vv_three_body(x, x + m->n, h, steps);
        }
        free(x);
        return rc;
    }
    case F_NONE:
        break;
    }
    return -1;
}

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

/* ---- the batch: VB_LANES runs in lockstep lanes, each with a slightly different step ---- */

static int batch_run(const vb_integrator *g, const vb_model *m, double h, unsigned long steps)
{
    const size_t lanes = VB_LANES, n = m->n;
    const vb_integrator_lanes *gl = vb_integrator_lanes_of(g);
    void *state = gl ? calloc(1, gl->state_size(n)) : NULL;
    void *scalar = calloc(1, g->state_size(n));
    double *x = malloc(5 * n * sizeof *x);
    vb_lane_row *X = malloc(2 * n * sizeof *X);
    int rc = -1;
    if (!state || !scalar || !x || !X)
        goto done;
    double *v = x + n, t[VB_LANES], hs[VB_LANES];
    m->type->initial(m->self, x, v);
    for (size_t i = 0; i < lanes; i++) {
        vb_force f = vb_model_force(m);
        t[i] = 0.0;
        hs[i] = h * (1.0 + 0.01 * (double)i); /* independent runs, not copies */
        g->start(scalar, &f, 0.0, x, v, hs[i]);
        gl->load(state, i, scalar);
    }
    vb_force_lanes f = {m->accel_lanes, m->type->accel, m->self, n, lanes, 0, x + 2 * n};
    for (unsigned long s = 0; s < steps; s++) {
        gl->step(state, &f, t, hs);
        for (size_t i = 0; i < lanes; i++)
            t[i] += hs[i];
    }
    gl->observe(state, lanes, X, X + n);
    sink = X[0][0] + X[n][lanes - 1];
    rc = 0;
done:
    free(state);
    free(scalar);
    free(x);
    free(X);
    return rc;
}

/* ---- a reference solution, alone and with the runs it serves ---- */

/* the grid: REF_GRID fixed steps over the model's natural time */
#define REF_GRID 20000

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
    for (unsigned long k = 1; rc == 0 && k <= REF_GRID; k++)
        rc = vb_truth_at(tr, T * (double)k / REF_GRID, x, x + m->n);
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
    spec.plan.dt = spec.plan.t_end / REF_GRID;
    char err[256];
    int rc = vb_simulate_grid(&spec, res, err, sizeof err);
    if (rc == 0)
        sink = res[0].err_pos_max;
    for (size_t k = 0; rc == 0 && k < n; k++)
        vb_run_result_clear(&res[k]); /* why a run diverged, when it says */
    free(res);
    return rc;
}

typedef enum { M_FUSED, M_SINGLE, M_SIM, M_BATCH, M_GSL, M_REFERENCE, M_GRID } mode;
static const char *const mode_name[] = {"fused", "single", "sim",      "batch",
                                        "gsl",   "reference", "grid"};

/* one run of a mode: 0 or -1; *per is what it counts (steps, run-steps,
 * grid points) */
static int run_mode(mode md, fused_kind fk, const vb_integrator *g, const vb_model *m, double mu,
                    unsigned long steps, size_t *n_integ, double *per)
{
    const double h = 1e-5;
    *per = (double)steps;
    switch (md) {
    case M_FUSED:
        return fused_run(fk, m, mu, h, steps);
    case M_SINGLE:
        return single_run(g, m, h, steps);
    case M_SIM: {
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
    case M_BATCH:
        *per = (double)steps * VB_LANES;
        return batch_run(g, m, h, steps);
    case M_GSL:
        return gsl_run(m, h, steps);
    case M_REFERENCE:
        *per = REF_GRID;
        return reference_run(m);
    case M_GRID:
        *per = REF_GRID;
        return grid_run(m, n_integ);
    }
    return -1;
}

/* Each timing lasts at least this long (ns): runs are repeated back to back
 * until it does, so a cheap system (64 springs: 2 ms a run) is not timed
 * in the scheduler's noise. */
#define MIN_TIMING_NS 4e7

/* One mode on one system, ready to time: how many runs back to back make
 * one timing, from an untimed first run that also warms the caches. */
typedef struct {
    mode md;
    fused_kind fk;
    const vb_integrator *g;
    const vb_model *m;
    double mu;
    unsigned long steps, runs;
    size_t *n_integ;
} timer;

static int timer_init(timer *t)
{
    double per, t0 = vb_now_ns();
    if (run_mode(t->md, t->fk, t->g, t->m, t->mu, t->steps, t->n_integ, &per) != 0)
        return -1;
    double once = vb_now_ns() - t0;
    t->runs = once >= MIN_TIMING_NS ? 1 : (unsigned long)ceil(MIN_TIMING_NS / fmax(once, 1.0));
    if (t->runs > 100000)
        t->runs = 100000;
    return 0;
}

/* one timing: ns per step (per run-step for the batch, per grid point for
 * the reference and the grid), or NAN */
static double timer_once(timer *t)
{
    double per = 1.0, t0 = vb_now_ns();
    for (unsigned long k = 0; k < t->runs; k++)
        if (run_mode(t->md, t->fk, t->g, t->m, t->mu, t->steps, t->n_integ, &per) != 0)
            return NAN;
    return (vb_now_ns() - t0) / (per * (double)t->runs);
}


/* The median of `repeat` timings of t; with a fused loop f, also the
 * median of the ratios of each timing to a timing of f taken just before
 * it, per particle-step (np particles in t's system, nf in f's).  Paired,
 * because this machine's speed wanders between timings (a 64-spring loop
 * measured 76 ns in one process and 135 in the next): a drift then moves
 * both sides of a ratio, not one. */
static int time_paired(timer *t, timer *f, double np, double nf, int repeat, double *ns,
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

#define MAX_SETS 32
#define MAX_ROWS 128

typedef struct {
    char text[MAX_ROWS][224];
    size_t n;
} rows;

/* the rows of one system: its fused loop, then each integrator's modes,
 * each against the system's own fused loop (or the orbit's) */
static int bench_system(vb_model *m, timer *orbit_fused, const vb_integrator *const *list,
                        size_t n, unsigned long pp_steps, int repeat, rows *out)
{
    fused_kind fk = fused_of(m);
    size_t np = m->particles;
    unsigned long steps = pp_steps / np < 1000 ? 1000 : pp_steps / np;
    timer own = {.md = M_FUSED, .fk = fk, .m = m, .steps = steps};
    timer *fused = orbit_fused;
    double nf = 1.0;
    const char *fused_on = "orbit";
    if (fk != F_NONE) {
        double ns, unused;
        if (timer_init(&own) != 0 || time_paired(&own, NULL, 1, 1, repeat, &ns, &unused) != 0)
            return -1;
        fused = &own;
        nf = (double)np;
        fused_on = m->type->name;
        snprintf(out->text[out->n++], sizeof out->text[0],
                 "%s,velocity-verlet,fused,%lu,%.3f,1.000,%zu,%.3f,%s", m->type->name, steps, ns,
                 np, ns / (double)np, fused_on);
    }
    for (size_t i = 0; i < n; i++) {
        const vb_integrator *g = list[i];
        mode modes[4];
        size_t nm = 0;
        modes[nm++] = M_SINGLE;
        modes[nm++] = M_SIM;
        if (vb_integrator_lanes_of(g))
            modes[nm++] = M_BATCH;
        if (!strcmp(g->name, "rk4"))
            modes[nm++] = M_GSL;
        for (size_t k = 0; k < nm && out->n < MAX_ROWS; k++) {
            timer t = {.md = modes[k], .fk = fk, .g = g, .m = m, .steps = steps};
            double ns, ratio;
            if (timer_init(&t) != 0 ||
                time_paired(&t, fused, (double)np, nf, repeat, &ns, &ratio) != 0) {
                vb_error(CMD, "%s %s on %s failed", mode_name[modes[k]], g->name, m->type->name);
                return -1;
            }
            snprintf(out->text[out->n++], sizeof out->text[0], "%s,%s,%s,%lu,%.3f,%.3f,%zu,%.3f,%s",
                     m->type->name, g->name, mode_name[modes[k]],
                     modes[k] == M_BATCH ? steps * VB_LANES : steps, ns, ratio, np,
                     ns / (double)np, fused_on);
        }
    }
    if (!m->type->exact && out->n + 2 <= MAX_ROWS) {
        size_t n_integ = 0;
        timer ref = {.md = M_REFERENCE, .fk = fk, .m = m};
        timer grid = {.md = M_GRID, .fk = fk, .m = m, .n_integ = &n_integ};
        double ns_ref, ns_grid, r_ref, r_grid;
        if (timer_init(&ref) != 0 || timer_init(&grid) != 0 ||
            time_paired(&ref, fused, (double)np, nf, repeat, &ns_ref, &r_ref) != 0 ||
            time_paired(&grid, fused, (double)np, nf, repeat, &ns_grid, &r_grid) != 0) {
            vb_error(CMD, "the reference solution of %s failed", m->type->name);
            return -1;
        }
        snprintf(out->text[out->n++], sizeof out->text[0],
                 "%s,rk8pd,reference,%d,%.3f,%.3f,%zu,%.3f,%s", m->type->name, REF_GRID, ns_ref,
                 r_ref, np, ns_ref / (double)np, fused_on);
        snprintf(out->text[out->n++], sizeof out->text[0], "%s,%zu,grid,%d,%.3f,%.3f,%zu,%.3f,%s",
                 m->type->name, n_integ, REF_GRID, ns_grid, r_grid, np, ns_grid / (double)np,
                 fused_on);
    }
    return 0;
}

/* bench --engine: the protocol's cost beside a built-in and the engine */
static int bench_protocol(const char *command, const char *model_name, const char *const *sets,
                          size_t n_sets, unsigned long steps, unsigned long repeat,
                          const char *out)
{
    char err[1024], names[512];
    const vb_model_type *mt = vb_model_find(model_name ? model_name : "spring");
    if (!mt) {
        vb_model_names_text(names, sizeof names);
        return vb_usage_error(CMD, "--model: unknown model '%s' (valid: %s)", model_name, names);
    }
    vb_model m;
    vb_model_defaults(&m, mt);
    for (size_t k = 0; k < n_sets; k++)
        if (vb_opt_set_param(CMD, &m, sets[k]) != 0)
            return VB_EXIT_USAGE;
    if (vb_model_setup(&m, err, sizeof err) != 0)
        return vb_usage_error(CMD, "%s", err);
    vb_outfile o;
    if (out && vb_outfile_open(&o, out, err, sizeof err) != 0) {
        vb_model_free(&m);
        vb_error(CMD, "--out: %s", err);
        return VB_EXIT_USAGE;
    }
    double ns[VB_BENCH_ENGINE_MODES];
    if (vb_bench_engine(command, &m, steps, (int)repeat, ns, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        if (out)
            vb_outfile_abort(&o);
        vb_model_free(&m);
        return VB_EXIT_FAIL;
    }
    static const char *const who[] = {"velocity-verlet", "echo", "engine"};
    static const char *const mode_of[] = {"sim", "engine-echo", "engine"};
    size_t np = m.particles;
    for (int pass = 0; pass < (out ? 2 : 1); pass++) {
        FILE *f = pass ? o.f : stdout;
        if (pass)
            fprintf(f, "# verletbench %s: bench --engine '%s', dt = 1e-3, %lu steps a run, "
                       "median of %lu interleaved repeats; ratio_to_fused is against the "
                       "built-in's sim here (fused_on = sim)\n",
                    vb_version_text(), command, steps, repeat);
        fputs("model,integrator,mode,steps,ns_per_step,ratio_to_fused,particles,"
              "ns_per_particle_step,fused_on\n",
              f);
        for (int k = 0; k < VB_BENCH_ENGINE_MODES; k++)
            fprintf(f, "%s,%s,%s,%lu,%.3f,%.3f,%zu,%.3f,sim\n", mt->name, who[k], mode_of[k], steps,
                    ns[k], ns[k] / ns[0], np, ns[k] / (double)np);
    }
    vb_model_free(&m);
    if (out && vb_outfile_commit(&o, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        return VB_EXIT_FAIL;
    }
    return VB_EXIT_OK;
}

int vb_cmd_bench(int argc, char **argv)
{
    enum { O_MODEL = 256, O_SET, O_INTEG, O_STEPS, O_REPEAT, O_OUT, O_ENGINE, O_HELP };
    static const struct option opts[] = {
        {"model", required_argument, NULL, O_MODEL},
        {"set", required_argument, NULL, O_SET},
        {"integrator", required_argument, NULL, O_INTEG},
        {"steps", required_argument, NULL, O_STEPS},
        {"repeat", required_argument, NULL, O_REPEAT},
        {"out", required_argument, NULL, O_OUT},
        {"engine", required_argument, NULL, O_ENGINE},
        VB_OPTION_PLUGIN,
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    const char *model_name = NULL, *integs = "velocity-verlet,rk4", *out = NULL;
    const char *engine = NULL;
    int steps_given = 0;
    const char *sets[MAX_SETS];
    size_t n_sets = 0;
    unsigned long steps = 2000000, repeat = 5;
    vb_shared_opts so = vb_shared_opts_plain(); /* only --plugin applies */
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case O_MODEL:
            model_name = optarg;
            break;
        case O_SET:
            if (n_sets == MAX_SETS)
                return vb_usage_error(CMD, "--set: at most %d", MAX_SETS);
            sets[n_sets++] = optarg;
            break;
        case O_INTEG:
            integs = optarg;
            break;
        case O_STEPS:
            if (vb_opt_ulong(CMD, "--steps", optarg, &steps) != 0)
                return VB_EXIT_USAGE;
            if (steps < 1000 || steps > 1000000000UL)
                return vb_usage_error(CMD, "--steps: %s must be in 1000..1e9", optarg);
            steps_given = 1;
            break;
        case O_ENGINE:
            if (!optarg[0])
                return vb_usage_error(CMD, "--engine: an empty command");
            engine = optarg;
            break;
        case O_REPEAT:
            if (vb_opt_ulong(CMD, "--repeat", optarg, &repeat) != 0)
                return VB_EXIT_USAGE;
            if (repeat < 1 || repeat > 64)
                return vb_usage_error(CMD, "--repeat: %s must be in 1..64", optarg);
            break;
        case O_OUT:
            out = optarg;
            break;
        case O_HELP:
            help();
            return VB_EXIT_OK;
        default:
            if ((rc = vb_opt_shared(CMD, c, &so, argv)) != 0)
                return rc;
            break;
        }
    }
    if (optind < argc)
        return vb_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    if (n_sets && !model_name)
        return vb_usage_error(CMD, "--set needs --model: which system's parameter?");

    char err[1024], names[512];
    if (engine)
        return bench_protocol(engine, model_name, sets, n_sets, steps_given ? steps : 100000,
                              repeat, out);
    /* the systems: the user's one, or the default three */
    vb_model systems[3];
    size_t n_sys = 0;
    if (model_name) {
        const vb_model_type *mt = vb_model_find(model_name);
        if (!mt) {
            vb_model_names_text(names, sizeof names);
            return vb_usage_error(CMD, "--model: unknown model '%s' (valid: %s)", model_name,
                                  names);
        }
        vb_model_defaults(&systems[n_sys], mt);
        for (size_t k = 0; k < n_sets; k++)
            if (vb_opt_set_param(CMD, &systems[n_sys], sets[k]) != 0)
                return VB_EXIT_USAGE;
        n_sys++;
    } else {
        vb_model_defaults(&systems[n_sys++], vb_model_find("orbit"));
        vb_model_defaults(&systems[n_sys], vb_model_find("chain"));
        if (vb_model_set(&systems[n_sys++], "N", "64", err, sizeof err) != 0)
            return vb_usage_error(CMD, "%s", err);
        vb_model_defaults(&systems[n_sys++], vb_model_find("figure-eight"));
    }
    /* the orbit's fused loop: every ratio's fallback */
    vb_model orbit;
    vb_model_defaults(&orbit, vb_model_find("orbit"));
    if (vb_model_setup(&orbit, err, sizeof err) != 0)
        return vb_usage_error(CMD, "%s", err);
    for (size_t k = 0; k < n_sys; k++)
        if (vb_model_setup(&systems[k], err, sizeof err) != 0) {
            for (size_t j = 0; j < k; j++)
                vb_model_free(&systems[j]);
            vb_model_free(&orbit);
            return vb_usage_error(CMD, "%s", err);
        }
    double mu = orbit.p[0]; /* orbit parameters: mu, a, e */

    const vb_integrator *list[32];
    size_t n = 0;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", integs);
    int status = VB_EXIT_OK, have_out = 0;
    vb_outfile o;
    for (char *tok = strtok(copy, ", "); tok; tok = strtok(NULL, ", ")) {
        const vb_integrator *g = strchr(tok, ':') ? vb_integrator_lookup(tok, err, sizeof err)
                                                  : vb_integrator_find(tok);
        if (!g) {
            if (strchr(tok, ':')) {
                status = vb_usage_error(CMD, "--integrator: %s", err);
                goto done;
            }
            vb_integrator_names(names, sizeof names);
            status = vb_usage_error(CMD, "--integrator: unknown integrator '%s' (valid: %s)", tok,
                                    names);
            goto done;
        }
        for (size_t k = 0; k < n_sys; k++)
            if (vb_integrator_suits(g, &systems[k], err, sizeof err) != 0) {
                status = vb_usage_error(CMD, "--integrator: %s", err);
                goto done;
            }
        for (size_t k = 0; k < n; k++)
            if (list[k] == g) {
                status = vb_usage_error(CMD, "--integrator: '%s' named twice", tok);
                goto done;
            }
        if (n == 32) {
            status = vb_usage_error(CMD, "--integrator: at most 32 integrators");
            goto done;
        }
        list[n++] = g;
    }
    if (n == 0) {
        status = vb_usage_error(CMD, "--integrator: '%s' names no integrator", integs);
        goto done;
    }

    /* --out opened before the timing (a wrong path is said at once, not
     * after a minute); the rows are kept until the end, so it gets the whole
     * table or nothing */
    if (out) {
        if (vb_outfile_open(&o, out, err, sizeof err) != 0) {
            vb_error(CMD, "--out: %s", err);
            status = VB_EXIT_USAGE;
            goto done;
        }
        have_out = 1;
    }
    static rows table;
    table.n = 0;
    timer orbit_fused = {.md = M_FUSED, .fk = F_ORBIT, .m = &orbit, .mu = mu, .steps = steps};
    double fused, unused;
    if (timer_init(&orbit_fused) != 0 ||
        time_paired(&orbit_fused, NULL, 1, 1, (int)repeat, &fused, &unused) != 0) {
        status = VB_EXIT_FAIL;
        goto done;
    }
    snprintf(table.text[table.n++], sizeof table.text[0],
             "orbit,velocity-verlet,fused,%lu,%.3f,1.000,1,%.3f,orbit", steps, fused, fused);
    for (size_t k = 0; k < n_sys; k++)
        if (bench_system(&systems[k], &orbit_fused, list, n, steps, (int)repeat, &table) != 0) {
            status = VB_EXIT_FAIL;
            goto done;
        }

    FILE *f = stdout;
    for (int pass = 0; pass < (out ? 2 : 1); pass++) {
        if (pass == 1) {
            f = o.f;
            fprintf(f, "# verletbench %s: bench, dt = 1e-5, %lu particle-steps a run, median of "
                       "%lu repeats, %d lanes in batch, reference grid %d steps\n",
                    vb_version_text(), steps, repeat, VB_LANES, REF_GRID);
        }
        fputs("model,integrator,mode,steps,ns_per_step,ratio_to_fused,particles,"
              "ns_per_particle_step,fused_on\n",
              f);
        for (size_t r = 0; r < table.n; r++)
            fprintf(f, "%s\n", table.text[r]);
    }
    if (have_out) {
        have_out = 0;
        if (vb_outfile_commit(&o, err, sizeof err) != 0) {
            vb_error(CMD, "%s", err);
            status = VB_EXIT_FAIL;
        }
    }
done:
    if (have_out)
        vb_outfile_abort(&o); /* a timing failed: the old file stays */
    for (size_t k = 0; k < n_sys; k++)
        vb_model_free(&systems[k]);
    vb_model_free(&orbit);
    return status;
}
