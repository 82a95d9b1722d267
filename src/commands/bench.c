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

#include "cli.h"
#include "integrator.h"
#include "lanes.h"
#include "model.h"
#include "outfile.h"
#include "plugin.h"
#include "simulate.h"

#define CMD "bench"

static void help(void)
{
    puts("Usage: verletbench bench [--model M] [--integrator I[,I...]] [--steps N]\n"
         "                         [--repeat R] [--out FILE] [--plugin FILE]...\n\n"
         "Times the integrators on a model and prints CSV:\n"
         "  model,integrator,mode,steps,ns_per_step,ratio_to_fused\n"
         "Modes (ns per step of one run; the median of R repeats):\n"
         "  fused   a hand-written velocity Verlet loop on the orbit: the reference\n"
         "  single  the integrator from the table, stepping the model's force through\n"
         "          function pointers: what the method itself costs here\n"
         "  sim     a whole `sim` run: the step plus the exact solution (for the orbit,\n"
         "          a Kepler solve) and every metric, at every step\n"
         "  batch   8 independent runs in lockstep lanes (the batched entry points\n"
         "          `run` uses): ns per run-step (built-in integrators)\n"
         "  gsl     GSL's gsl_odeiv2_driver_apply_fixed_step with its rk4 (rk4 only)\n"
         "ratio_to_fused is ns_per_step / fused, taken in this run.\n\n"
         "Options:\n"
         "  --model M          default orbit (e = 0.5); any model\n"
         "  --integrator I     default velocity-verlet,rk4\n"
         "  --steps N          steps per timed run (default 2000000), dt = 1e-5\n"
         "  --repeat R         timed repeats, median reported (default 5)\n"
         "  --out FILE         also write the CSV to FILE (temporary file, renamed)\n"
         VB_PLUGIN_HELP
         "  --help             this text\n\n"
         "A benchmark, not a test: the ratios depend on the machine (make bench).");
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the sink every timed loop writes its result to, so none is optimised away */
static volatile double sink;

/* ---- the reference: velocity Verlet on the Kepler orbit, by hand ---- */

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
    g->start(state, &f, 0.0, x, v, h);
    double t = 0.0;
    for (unsigned long s = 0; s < steps; s++) {
        g->step(state, &f, t, h);
        t += h;
    }
    g->observe(state, x, v);
    sink = x[0] + v[0];
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

typedef enum { M_FUSED, M_SINGLE, M_SIM, M_BATCH, M_GSL } mode;

/* median ns per step (per run-step for the batch) over `repeat` timings */
static double time_mode(mode md, const vb_integrator *g, const vb_model *m, double mu,
                        unsigned long steps, int repeat)
{
    double best[64];
    const double h = 1e-5;
    for (int r = 0; r < repeat; r++) {
        double t0 = now_ns();
        int rc = 0;
        double per = (double)steps;
        switch (md) {
        case M_FUSED: {
            /* always the orbit at e = 0.5 from periapsis, whatever the model:
             * the fixed reference every ratio is taken against */
            double e = 0.5, vy = sqrt(mu * (1.0 + e) / (1.0 - e));
            fused_vv_orbit(mu, 1.0 - e, 0.0, 0.0, vy, h, steps);
            break;
        }
        case M_SINGLE:
            rc = single_run(g, m, h, steps);
            break;
        case M_SIM: {
            vb_run_spec spec = {.integ = g, .model = m};
            spec.plan.kind = VB_PLAN_FIXED;
            spec.plan.dt = h;
            spec.plan.t_end = h * (double)steps;
            vb_run_result res;
            char err[256];
            rc = vb_simulate(&spec, &res, err, sizeof err);
            sink = res.err_pos_max;
            break;
        }
        case M_BATCH:
            rc = batch_run(g, m, h, steps);
            per = (double)steps * VB_LANES;
            break;
        case M_GSL:
            rc = gsl_run(m, h, steps);
            break;
        }
        if (rc != 0)
            return NAN;
        best[r] = (now_ns() - t0) / per;
    }
    qsort(best, (size_t)repeat, sizeof best[0], cmp_double);
    return best[repeat / 2];
}

static const char *const mode_name[] = {"fused", "single", "sim", "batch", "gsl"};

int vb_cmd_bench(int argc, char **argv)
{
    enum { O_MODEL = 256, O_INTEG, O_STEPS, O_REPEAT, O_OUT, O_HELP };
    static const struct option opts[] = {
        {"model", required_argument, NULL, O_MODEL},
        {"integrator", required_argument, NULL, O_INTEG},
        {"steps", required_argument, NULL, O_STEPS},
        {"repeat", required_argument, NULL, O_REPEAT},
        {"out", required_argument, NULL, O_OUT},
        VB_OPTION_PLUGIN,
        {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    const char *model_name = "orbit", *integs = "velocity-verlet,rk4", *out = NULL;
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
        case O_INTEG:
            integs = optarg;
            break;
        case O_STEPS:
            if (vb_opt_ulong(CMD, "--steps", optarg, &steps) != 0)
                return VB_EXIT_USAGE;
            if (steps < 1000 || steps > 1000000000UL)
                return vb_usage_error(CMD, "--steps: %s must be in 1000..1e9", optarg);
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

    char err[1024], names[512];
    const vb_model_type *mt = vb_model_find(model_name);
    if (!mt) {
        vb_model_names_text(names, sizeof names);
        return vb_usage_error(CMD, "--model: unknown model '%s' (valid: %s)", model_name, names);
    }
    /* the reference always runs on the orbit */
    vb_model orbit, model;
    vb_model_defaults(&orbit, vb_model_find("orbit"));
    vb_model_defaults(&model, mt);
    if (vb_model_setup(&orbit, err, sizeof err) != 0 || vb_model_setup(&model, err, sizeof err) != 0)
        return vb_usage_error(CMD, "%s", err);
    double mu = orbit.p[0]; /* orbit parameters: mu, a, e */

    const vb_integrator *list[32];
    size_t n = 0;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", integs);
    for (char *tok = strtok(copy, ", "); tok; tok = strtok(NULL, ", ")) {
        const vb_integrator *g = vb_integrator_find(tok);
        if (!g) {
            vb_integrator_names(names, sizeof names);
            return vb_usage_error(CMD, "--integrator: unknown integrator '%s' (valid: %s)", tok,
                                  names);
        }
        if (n < 32)
            list[n++] = g;
    }

    /* rows: text kept until the end, so --out gets the whole table or nothing */
    char rows[64][160];
    size_t nrows = 0;
    double fused = time_mode(M_FUSED, NULL, &orbit, mu, steps, (int)repeat);
    snprintf(rows[nrows++], sizeof rows[0], "orbit,velocity-verlet,fused,%lu,%.3f,1.000", steps,
             fused);
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
        for (size_t k = 0; k < nm && nrows < 64; k++) {
            double ns = time_mode(modes[k], g, &model, mu, steps, (int)repeat);
            if (!isfinite(ns)) {
                vb_error(CMD, "%s %s on %s failed", mode_name[modes[k]], g->name, mt->name);
                return VB_EXIT_FAIL;
            }
            snprintf(rows[nrows++], sizeof rows[0], "%s,%s,%s,%lu,%.3f,%.3f", mt->name, g->name,
                     mode_name[modes[k]], modes[k] == M_BATCH ? steps * VB_LANES : steps, ns,
                     ns / fused);
        }
    }

    FILE *f = stdout;
    vb_outfile o;
    for (int pass = 0; pass < (out ? 2 : 1); pass++) {
        if (pass == 1) {
            if (vb_outfile_open(&o, out, err, sizeof err) != 0) {
                vb_error(CMD, "--out: %s", err);
                return VB_EXIT_USAGE;
            }
            f = o.f;
            fprintf(f, "# verletbench %s: bench, dt = 1e-5, median of %lu repeats, %d "
                       "lanes in batch\n",
                    vb_version_text(), repeat, VB_LANES);
        }
        fputs("model,integrator,mode,steps,ns_per_step,ratio_to_fused\n", f);
        for (size_t r = 0; r < nrows; r++)
            fprintf(f, "%s\n", rows[r]);
    }
    if (out && vb_outfile_commit(&o, err, sizeof err) != 0) {
        vb_error(CMD, "%s", err);
        return VB_EXIT_FAIL;
    }
    return VB_EXIT_OK;
}
