/* commands/bench_engine.c — what the engine protocol costs (`bench --engine`).
 *
 * Three runs of the same plan, each through vb_simulate, so the exact
 * solution and the metrics cost the same in all three:
 *   sim          the built-in velocity-verlet;
 *   engine-echo  an engine that only echoes a finished trajectory (`cat` of
 *                the engine's own output, captured once beforehand): what
 *                the protocol costs, spawning, reading and checking rows;
 *   engine       the engine itself, computing.
 * The protocol's cost per step is echo - sim; the engine's own work is
 * engine - echo. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_engine.h"
#include "engine.h"
#include "integrator.h"
#include "simulate.h"

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

/* one run through vb_simulate: its time in ns, or -1 (err says why) */
static double timed_run(const vb_integrator *g, const vb_model *m, const vb_plan_spec *plan,
                        char *err, size_t errlen)
{
    vb_run_spec spec = {.integ = g, .model = m, .plan = *plan};
    vb_run_result res;
    double t0 = now_ns();
    if (vb_simulate(&spec, &res, err, errlen) != 0)
        return -1.0;
    double t = now_ns() - t0;
    if (res.status != VB_STATUS_OK) {
        snprintf(err, errlen, "%s: the run ended %s%s%s", g->name, vb_status_name(res.status),
                 res.failure[0] ? ": " : "", res.failure);
        return -1.0;
    }
    return t;
}

int vb_bench_engine(const char *command, const vb_model *m, unsigned long steps, int repeat,
                    double ns[VB_BENCH_ENGINE_MODES], char *err, size_t errlen)
{
    vb_plan_spec plan = {.kind = VB_PLAN_FIXED, .dt = 1e-3, .t_end = 1e-3 * (double)steps};
    snprintf(plan.id, sizeof plan.id, "sim");
    char req_path[] = "/tmp/verletbench-bench-req-XXXXXX";
    char traj_path[] = "/tmp/verletbench-bench-traj-XXXXXX";
    int rfd = mkstemp(req_path), tfd = rfd >= 0 ? mkstemp(traj_path) : -1;
    int rc = -1;
    vb_engine *engine = NULL, *echo = NULL;
    double *times = calloc((size_t)repeat * VB_BENCH_ENGINE_MODES, sizeof *times);
    if (tfd >= 0)
        close(tfd);
    if (rfd < 0 || tfd < 0 || !times) {
        if (rfd >= 0)
            close(rfd);
        snprintf(err, errlen, "a temporary file in /tmp: cannot create it");
        goto done;
    }
    FILE *req = fdopen(rfd, "w");
    if (!req)
        close(rfd);
    if (!req || vb_engine_write_request(req, m, &plan) != 0 || fputc('\n', req) == EOF ||
        fclose(req) != 0) {
        snprintf(err, errlen, "%s: cannot write the request", req_path);
        goto done;
    }
    /* the echo replays the engine's own bytes: the same text to read */
    size_t len = strlen(command) + 2 * sizeof req_path + 32;
    char *capture = malloc(len), *cat = malloc(len);
    if (!capture || !cat) {
        free(capture), free(cat);
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    snprintf(capture, len, "(%s) < %s > %s", command, req_path, traj_path);
    snprintf(cat, len, "cat %s", traj_path);
    int st = system(capture);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(err, errlen, "the engine '%s' failed on the benchmark's run (status %d)",
                 command, st);
        free(capture), free(cat);
        goto done;
    }
    engine = vb_engine_new("engine", 2, command, NULL, NULL, VB_ENGINE_TIMEOUT, err, errlen);
    echo = vb_engine_new("echo", 2, cat, NULL, NULL, VB_ENGINE_TIMEOUT, err, errlen);
    free(capture), free(cat);
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
    for (int k = 0; k < VB_BENCH_ENGINE_MODES; k++) {
        double *a = times + k * repeat;
        qsort(a, (size_t)repeat, sizeof *a, cmp_double);
        ns[k] = repeat % 2 ? a[repeat / 2] : 0.5 * (a[repeat / 2 - 1] + a[repeat / 2]);
    }
    rc = 0;
done:
    vb_engine_free(engine);
    vb_engine_free(echo);
    free(times);
    if (rfd >= 0)
        unlink(req_path);
    if (tfd >= 0)
        unlink(traj_path);
    return rc;
}
