/* integrators/euler.c — explicit (forward) Euler: x += v h, v += a h, both from
 * the old state.  The baseline every other method should beat. */
#include "xvstate.h"

/* x, v, and a for the acceleration */
static size_t state_size(size_t n) { return vb_xv_size(n, 1); }

static void step(void *st, vb_force *f, double t, double h)
{
    vb_xv_state *s = st;
    double *x = vb_xv_vec(s, 0), *v = vb_xv_vec(s, 1), *a = vb_xv_vec(s, 2);
    vb_force_eval(f, t, x, v, a);
    for (size_t i = 0; i < s->n; i++) {
        x[i] += v[i] * h;
        v[i] += a[i] * h;
    }
}

const vb_integrator vb_integrator_euler = {
    .name = "euler",
    .summary = "explicit Euler x += v h; v += a h (both from the old state)",
    .order = 1,
    .flags = 0,
    .state_size = state_size,
    .start = vb_xv_start,
    .start_history = NULL,
    .step = step,
    .observe = vb_xv_observe,
    .reverse = vb_xv_reverse,
};
