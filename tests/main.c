/* main.c — the unit-test runner. */
#include <gsl/gsl_errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simulate.h"
#include "unit.h"

static int passed, failed, current_failed;
static const char *filter;

void unit_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "    %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    current_failed++;
}

void unit_note(const char *fmt, ...)
{
    va_list ap;
    fputs("    note: ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
}

/* The models test_model made: owned here and freed after each test, so a
 * test may keep copies of a model by value without freeing any. */
#define MAX_TEST_MODELS 4096
static vb_model made[MAX_TEST_MODELS];
static size_t n_made;

static void free_test_models(void)
{
    for (size_t i = 0; i < n_made; i++)
        vb_model_free(&made[i]);
    n_made = 0;
}

void unit_run(const char *name, void (*fn)(void))
{
    if (filter && !strstr(name, filter))
        return;
    current_failed = 0;
    fn();
    free_test_models();
    if (current_failed) {
        failed++;
        printf("FAIL %s\n", name);
    } else {
        passed++;
        printf("ok   %s\n", name);
    }
    fflush(stdout);
}

vb_model test_model(const char *name, const char *const *sets)
{
    vb_model m;
    char err[512];
    const vb_model_type *type = vb_model_find(name);
    if (!type) {
        fprintf(stderr, "test bug: no model %s\n", name);
        exit(2);
    }
    vb_model_defaults(&m, type);
    for (; sets && *sets; sets++) {
        char key[64];
        const char *eq = strchr(*sets, '=');
        size_t n = (size_t)(eq - *sets);
        memcpy(key, *sets, n);
        key[n] = '\0';
        if (vb_model_set(&m, key, eq + 1, err, sizeof err) != 0) {
            fprintf(stderr, "test bug: %s\n", err);
            exit(2);
        }
    }
    if (vb_model_setup(&m, err, sizeof err) != 0) {
        fprintf(stderr, "test bug: %s\n", err);
        exit(2);
    }
    if (n_made == MAX_TEST_MODELS) {
        fprintf(stderr, "test bug: more than %d models in one test\n", MAX_TEST_MODELS);
        exit(2);
    }
    made[n_made++] = m;
    return m;
}

const vb_integrator *test_integrator(const char *name)
{
    const vb_integrator *g = vb_integrator_find(name);
    if (!g) {
        fprintf(stderr, "test bug: no integrator %s\n", name);
        exit(2);
    }
    return g;
}

size_t test_trajectory(const vb_integrator *integ, const vb_model *model,
                       const vb_plan_spec *spec, double *ts, double *xs, double *vs,
                       size_t capacity)
{
    size_t dim = model->n;
    void *state = calloc(1, integ->state_size(dim));
    double *x = malloc(2 * dim * sizeof *x), *v = x ? x + dim : NULL;
    vb_force f = vb_model_force(model);
    vb_plan plan;
    double h, t = 0.0, tn;
    size_t n = 0;

    if (!state || !x || vb_plan_begin(&plan, spec) != 0)
        exit(2);
    model->type->initial(model->self, x, v);
    if (ts)
        ts[0] = 0.0;
    for (size_t i = 0; i < dim; i++) {
        xs[i] = x[i];
        if (vs)
            vs[i] = v[i];
    }
    if (vb_plan_next(&plan, &h, &tn)) {
        integ->start(state, &f, t, x, v, h);
        do {
            integ->step(state, &f, t, h);
            t = tn;
            n++;
            if (n >= capacity) {
                fprintf(stderr, "test bug: trajectory longer than %zu\n", capacity);
                exit(2);
            }
            integ->observe(state, x, v);
            if (ts)
                ts[n] = t;
            for (size_t i = 0; i < dim; i++) {
                xs[n * dim + i] = x[i];
                if (vs)
                    vs[n * dim + i] = v[i];
            }
        } while (vb_plan_next(&plan, &h, &tn));
    }
    vb_plan_end(&plan);
    free(state);
    free(x);
    return n;
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    if (argc > 1)
        filter = argv[1];
    suite_integrators();
    suite_models();
    suite_plans();
    suite_simulate();
    suite_sweep();
    suite_constrain();
    suite_contact();
    suite_contact_handlers();
    suite_rigid();
    suite_rigid_methods();
    suite_options();
    suite_schema();
    suite_can_fail();
    suite_rolling();
    suite_body_solvers();
    suite_bodyrun();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
