/* integrators/velocity_verlet.c — velocity Verlet in kick-drift-kick form:
 * v_{n+1/2} = v_n + a_n h/2;  x_{n+1} = x_n + v_{n+1/2} h;  a_{n+1};
 * v_{n+1} = v_{n+1/2} + a_{n+1} h/2.  In exact arithmetic this is docs/method.md §2's
 * x_n + v_n h + a_n h^2/2 and v_n + (a_n + a_{n+1}) h/2; a velocity-dependent
 * force sees the half-step velocity.
 *
 * A step ends with the force, and makes the last step's second kick at its
 * start, in the same pass as its own first kick and drift; observe and
 * reverse make that kick when it is still pending.  The same operations in
 * the same order as three passes (vb_xv_kdk, which Yoshida's sub-steps use):
 * the same bits.  Why: the state lives in memory between calls, so each
 * value the next step needs from this one passes through a store and a load
 * (a few cycles each) on the path from one force to the next.  Ending the
 * step at the force leaves two such hops a step (a out of the force, x into
 * it) where ending it after the second kick made three (v too): measured
 * on the orbit, 24.6 -> 22.0 ns a step (README, Speed). */
#include "verletbench.h"

#include <string.h>

typedef struct {
    size_t n;
    double half;  /* h/2 of the last step, when its second kick is pending */
    int pending;  /* 1 after a step, until observe's copy or reverse makes it */
    double data[]; /* x[n]; v[n], a kick of a * half short while pending; a[n] at x */
} vv_state;

static size_t state_size(size_t n) { return sizeof(vv_state) + 3 * n * sizeof(double); }

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    (void)h;
    vv_state *s = st;
    size_t n = f->n;
    s->n = n;
    s->half = 0.0;
    s->pending = 0;
    memcpy(s->data, x, n * sizeof *x);
    memcpy(s->data + n, v, n * sizeof *v);
    vb_force_eval(f, t, s->data, s->data + n, s->data + 2 * n);
}

static void step(void *st, vb_force *f, double t, double h)
{
    vv_state *s = st;
    size_t n = s->n;
    double *restrict x = s->data, *restrict v = x + n, *restrict a = v + n;
    double half = 0.5 * h;
    if (s->pending) {
        double last = s->half;
        for (size_t i = 0; i < n; i++) {
            double vi = v[i] + a[i] * last; /* v_n: the last step's second kick */
            vi = vi + a[i] * half;          /* v_{n+1/2} */
            v[i] = vi;
            x[i] += vi * h;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            v[i] += a[i] * half;
            x[i] += v[i] * h;
        }
    }
    vb_force_eval(f, t + h, x, v, a);
    s->half = half;
    s->pending = 1;
}

static void observe(const void *st, double *x, double *v)
{
    const vv_state *s = st;
    size_t n = s->n;
    const double *sv = s->data + n, *a = sv + n;
    memcpy(x, s->data, n * sizeof *x);
    if (!s->pending) {
        memcpy(v, sv, n * sizeof *v);
        return;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = sv[i] + a[i] * s->half;
}

static void reverse(void *st)
{
    vv_state *s = st;
    size_t n = s->n;
    double *v = s->data + n, *a = v + n;
    for (size_t i = 0; i < n; i++)
        v[i] = -(s->pending ? v[i] + a[i] * s->half : v[i]);
    s->pending = 0;
}

const vb_integrator vb_integrator_velocity_verlet = {
    .name = "velocity-verlet",
    .summary = "velocity Verlet: kick a h/2, drift v h, new a, kick a h/2",
    .order = 2,
    .flags = VB_SYMPLECTIC,
    .state_size = state_size,
    .start = start,
    .start_history = NULL,
    .step = step,
    .observe = observe,
    .reverse = reverse,
};
