/* The C helper's own test engine: symplectic Euler (v += a h, then x += v h,
 * as src/integrators/euler_semi.c) on the helper's force law.  Its
 * trajectories must be the built-in euler-semi's to the bit on every model
 * (check/persistent.py).  Not an engine to measure: a test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/vbengine.h"

static vb_option options[] = {{"fail", "none|make|step", NULL}, {NULL, NULL, NULL}};

typedef struct {
    const vb_request *req;
    double *x, *v, *a;
    int k;
} state;

static int asked(const vb_request *req, const char *what)
{
    char run[16];
    snprintf(run, sizeof run, "fail-%s", what);
    return !strcmp(vb_opt(options, "fail"), what) || !strcmp(req->run, run);
}

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    if (asked(req, "make")) {
        snprintf(err, errlen, "asked to fail (make)");
        return NULL;
    }
    state *s = calloc(1, sizeof *s);
    s->req = req;
    s->x = malloc(3 * req->n * sizeof *s->x);
    s->v = s->x + req->n, s->a = s->v + req->n;
    memcpy(s->x, req->x0, req->n * sizeof *s->x);
    memcpy(s->v, req->v0, req->n * sizeof *s->v);
    return s;
}

static int step(void *st, double h, double *x, double *v, char *err, size_t errlen)
{
    state *s = st;
    if (++s->k == 3 && asked(s->req, "step")) {
        snprintf(err, errlen, "asked to fail (step 3)");
        return VB_STEP_FAILED;
    }
    vb_accel(s->req, s->x, s->v, s->a);
    for (size_t i = 0; i < s->req->n; i++) {
        s->v[i] += s->a[i] * h;
        s->x[i] += s->v[i] * h;
    }
    memcpy(x, s->x, s->req->n * sizeof *x);
    memcpy(v, s->v, s->req->n * sizeof *v);
    return VB_STEP_OK;
}

static void destroy(void *st)
{
    free(((state *)st)->x);
    free(st);
}

int main(int argc, char **argv)
{
    vb_adapter a = {.name = "vb-euler-semi-c", .make = make, .step = step, .destroy = destroy};
    return vb_main(&a, argc, argv, options);
}
