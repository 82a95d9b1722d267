/* fuzz_header.c — libFuzzer target: what `score FILE` reads of a
 * trajectory, on arbitrary bytes.  The input's first line is the header
 * (vb_engine_parse_header: the model, its parameters, the plan); when it
 * names a run, the whole input is then read as that run's trajectory, as
 * score does (a file engine: every row's columns and time checked, each
 * '# verletbench run=' line compared with the run's key by key).  Any
 * input must be measured or refused with a message, never crash, leak,
 * hang or trip UBSan.  Runs over 20 000 steps are not measured (the
 * reader's work is a row a step; a long run only costs time).  The seeds
 * in tests/fuzz/header/ are trajectories of `verletbench problem`'s
 * requests, written by examples/engines/python/engine.py.
 *   make fuzz FUZZ_SECONDS=N */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine.h"
#include "model.h"
#include "plan.h"
#include "simulate.h"

static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fd = memfd_create("trajectory.csv", 0);
    if (fd < 0)
        abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the first line, as score_file cuts it */
    size_t n = 0;
    while (n < size && n < 4095 && data[n] != '\n' && data[n] != '\r' && data[n] != '\0')
        n++;
    char line[4096];
    memcpy(line, data, n);
    line[n] = '\0';
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = '\0';
    vb_model m;
    memset(&m, 0, sizeof m);
    vb_plan_spec plan;
    vb_trace trace;
    char err[1024] = "";
    if (vb_engine_parse_header(line, &m, &plan, &trace, err, sizeof err) != 0) {
        if (!memchr(err, '\0', sizeof err) || !err[0])
            __builtin_trap(); /* a refusal must say why */
        vb_model_free(&m);
        return 0;
    }
    if (plan.kind == VB_PLAN_TRACE)
        plan.trace = &trace;
    if (vb_plan_max_steps(&plan) <= 20000 && ftruncate(fd, 0) == 0 &&
        pwrite(fd, data, size, 0) == (ssize_t)size) {
        vb_engine *e = vb_engine_new("fuzzed", 2, NULL, path, NULL, 10.0, err, sizeof err);
        if (!e || !(e->file = strdup(path)))
            abort();
        vb_run_spec spec = {.integ = &e->integ, .model = &m, .plan = plan};
        vb_run_result res;
        if (vb_simulate(&spec, &res, err, sizeof err) != 0)
            abort(); /* only the machine fails a run: memory */
        if (res.status == VB_STATUS_ENGINE_FAILED && !vb_run_failure(&res)[0])
            __builtin_trap(); /* a failed read must say why */
        vb_run_result_clear(&res);
        vb_engine_free(e);
    }
    vb_trace_free(&trace);
    vb_model_free(&m);
    return 0;
}
