/* protocol.c — what the external-engine protocol costs (`bench --engine`).
 *
 * Three runs of the same plan, each through vb_simulate, so the exact
 * solution and the metrics cost the same in all three:
 *   sim          the built-in velocity-verlet;
 *   engine-echo  an engine that only echoes a finished trajectory (`cat` of
 *                the built-in's, written beforehand with 17 digits): what
 *                the protocol costs, spawning, reading and checking rows;
 *   engine       the engine itself, computing.
 * The protocol's cost per step is echo - sim; the engine's own work is
 * engine - echo. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol.h"
#include "clock.h"
#include "columns.h"
#include "engine.h"
#include "integrator.h"
#include "outfile.h"
#include "plan.h"
#include "simulate.h"

/* one run through vb_simulate: its time in ns, or -1 (err says why) */
static double timed_run(const vb_integrator *g, const vb_model *m, const vb_plan_spec *plan,
                        char *err, size_t errlen)
{
    vb_run_spec spec = {.integ = g, .model = m, .plan = *plan};
    vb_run_result res;
    double t0 = vb_now_ns();
    if (vb_simulate(&spec, &res, err, errlen) != 0)
        return -1.0;
    double t = vb_now_ns() - t0;
    if (res.status != VB_STATUS_OK) {
        snprintf(err, errlen, "%s: the run ended %s%s%s", g->name, vb_status_name(res.status),
                 res.failure ? ": " : "", vb_run_failure(&res));
        vb_run_result_clear(&res);
        return -1.0;
    }
    return t;
}

/* The trajectory a correct engine would write for the run (the built-in
 * velocity Verlet's, 17 digits), into o: what the echo replays. */
static int write_echo(vb_outfile *o, const vb_model *m, const vb_plan_spec *plan, char *err,
                      size_t errlen)
{
    const vb_integrator *g = vb_integrator_find("velocity-verlet");
    size_t n = m->n;
    void *state = calloc(1, g->state_size(n));
    double *x = malloc(2 * n * sizeof *x);
    vb_plan p;
    int began = 0, rc = -1;
    if (!state || !x || vb_plan_begin(&p, plan) != 0) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    began = 1;
    double *v = x + n;
    char line[2048];
    vb_engine_header(line, sizeof line, m, plan);
    fprintf(o->f, "%s\nt", line);
    for (int vel = 0; vel < 2; vel++)
        for (size_t i = 0; i < n; i++) {
            vb_state_column(line, sizeof line, m, vel, i);
            fprintf(o->f, ",%s", line);
        }
    vb_force f = vb_model_force(m);
    m->type->initial(m->self, x, v);
    double h, tn, t = 0.0;
    int first = 1;
    for (;;) {
        fprintf(o->f, "\n%.17g", t);
        for (size_t i = 0; i < 2 * n; i++)
            fprintf(o->f, ",%.17g", x[i]);
        if (!vb_plan_next(&p, &h, &tn))
            break;
        if (first)
            g->start(state, &f, 0.0, x, v, h);
        first = 0;
        g->step(state, &f, t, h);
        g->observe(state, x, v);
        t = tn;
    }
    if (fputc('\n', o->f) == EOF || fflush(o->f) != 0) {
        snprintf(err, errlen, "%s: %s", o->tmp ? o->tmp : o->path, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (began)
        vb_plan_end(&p);
    free(state);
    free(x);
    return rc;
}

int vb_bench_engine(const char *command, const vb_model *m, unsigned long steps, int repeat,
                    double ns[VB_BENCH_ENGINE_MODES], char *err, size_t errlen)
{
    vb_plan_spec plan = {.kind = VB_PLAN_FIXED, .dt = 1e-3, .t_end = 1e-3 * (double)steps};
    snprintf(plan.id, sizeof plan.id, "sim");
    int rc = -1, open = 0;
    vb_engine *engine = NULL, *echo = NULL;
    double *times = calloc((size_t)repeat * VB_BENCH_ENGINE_MODES, sizeof *times);
    /* a temporary of verletbench's own: removed at the end, and by the
     * signal handler on an interrupt */
    char path[64], cat[128];
    snprintf(path, sizeof path, "/tmp/verletbench-bench-echo-%ld.csv", (long)getpid());
    vb_outfile o;
    if (!times) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (vb_outfile_open(&o, path, err, errlen) != 0)
        goto done;
    open = 1;
    if (!o.tmp) {
        snprintf(err, errlen, "%s: not a regular file", path);
        goto done;
    }
    if (write_echo(&o, m, &plan, err, errlen) != 0)
        goto done;
    snprintf(cat, sizeof cat, "cat '%s'", o.tmp);
    engine = vb_engine_new("engine", 2, command, NULL, NULL, VB_ENGINE_TIMEOUT, err, errlen);
    echo = engine ? vb_engine_new("echo", 2, cat, NULL, NULL, VB_ENGINE_TIMEOUT, err, errlen)
                  : NULL;
    if (!engine || !echo)
        goto done;
    const vb_integrator *g[VB_BENCH_ENGINE_MODES] = {vb_integrator_find("velocity-verlet"),
                                                     &echo->integ, &engine->integ};
    /* interleaved, so a machine that slows down slows all three */
    for (int r = 0; r < repeat; r++)
        for (int k = 0; k < VB_BENCH_ENGINE_MODES; k++) {
            double t = timed_run(g[k], m, &plan, err, errlen);
            if (t < 0)
                goto done;
            times[k * repeat + r] = t / (double)steps;
        }
    for (int k = 0; k < VB_BENCH_ENGINE_MODES; k++)
        ns[k] = vb_median_sort(times + k * repeat, repeat);
    rc = 0;
done:
    if (open)
        vb_outfile_abort(&o);
    vb_engine_free(engine);
    vb_engine_free(echo);
    free(times);
    return rc;
}
