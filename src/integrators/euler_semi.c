/* integrators/euler_semi.c — symplectic Euler: v += a h, then x += v h with the
 * new velocity.  The "Euler" of the time-corrected Verlet article (Dummer 2005). */
#include "xvstate.h"

/* x, v, and a for the acceleration */
static size_t state_size(size_t n) { return vb_xv_size(n, 1); }

static void step(void *st, vb_force *f, double t, double h)
{
    vb_xv_state *s = st;
    double *x = vb_xv_vec(s, 0), *v = vb_xv_vec(s, 1), *a = vb_xv_vec(s, 2);
    vb_force_eval(f, t, x, v, a);
    for (size_t i = 0; i < s->n; i++) {
        v[i] += a[i] * h;
        x[i] += v[i] * h;
    }
}

const vb_integrator vb_integrator_euler_semi = {
    .name = "euler-semi",
    .summary = "symplectic Euler v += a h; x += v h (the article's \"Euler\")",
    .order = 1,
    .flags = VB_SYMPLECTIC,
    .state_size = state_size,
    .start = vb_xv_start,
    .start_history = NULL,
    .step = step,
    .observe = vb_xv_observe,
    .reverse = vb_xv_reverse,
};
