/* pverlet.py on the C helper: position Verlet as the textbook states it,
 * x_1 = x_0 + v_0 h + a_0 h^2 / 2 (the Taylor start), then
 * x_{n+1} = 2 x_n - x_{n-1} + a_n h^2, the same operations in the same order.
 * It keeps no velocity, so it declares velocity=none and its rows are t and
 * the positions (docs/real-engines.md §1.7): tests/velocity_none.py holds
 * it to the built-in verlet.  Not an engine to measure: a test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/vbengine.h"

typedef struct {
    const vb_request *req;
    double *x, *prev, *a;
    int started;
} state;

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    if (!strcmp(req->model, "damped-spring")) {
        snprintf(err, errlen, "its force reads v, and position Verlet keeps none");
        return NULL;
    }
    state *s = calloc(1, sizeof *s);
    if (s)
        s->x = malloc(3 * req->n * sizeof *s->x);
    if (!s || !s->x) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->req = req;
    s->prev = s->x + req->n;
    s->a = s->prev + req->n;
    memcpy(s->x, req->x0, req->n * sizeof *s->x);
    return s;
}

static int step(void *st, double h, double *x, double *v, char *err, size_t errlen)
{
    (void)v, (void)err, (void)errlen;
    state *s = st;
    const vb_request *r = s->req;
    vb_accel(r, s->x, NULL, s->a);
    for (size_t i = 0; i < r->n; i++) {
        x[i] = s->started ? 2.0 * s->x[i] - s->prev[i] + s->a[i] * h * h
                          : s->x[i] + r->v0[i] * h + s->a[i] * h * h / 2.0;
        s->prev[i] = s->x[i];
        s->x[i] = x[i];
    }
    s->started = 1;
    return VB_STEP_OK;
}

static void destroy(void *st)
{
    free(((state *)st)->x);
    free(st);
}

int main(int argc, char **argv)
{
    vb_adapter a = {.name = "vb-pverlet-c",
                    .engine = "pverlet-test@1.0",
                    .velocity = "none",
                    .make = make,
                    .step = step,
                    .destroy = destroy};
    return vb_main(&a, argc, argv, NULL);
}
