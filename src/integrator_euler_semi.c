/* integrator_euler_semi.c — symplectic Euler: v += a h, then x += v h with the
 * new velocity.  The "Euler" of the time-corrected Verlet article (seed 002). */
#include "xvstate.h"

static void step(void *st, vb_force *f, double t, double h)
{
    vb_xv_state *s = st;
    double a[VB_MAX_DIM];
    vb_force_eval(f, t, s->x, s->v, a);
    for (unsigned i = 0; i < s->dim; i++) {
        s->v[i] += a[i] * h;
        s->x[i] += s->v[i] * h;
    }
}

const vb_integrator vb_integrator_euler_semi = {
    .name = "euler-semi",
    .summary = "symplectic Euler v += a h; x += v h (the article's \"Euler\")",
    .order = 1,
    .flags = VB_SYMPLECTIC,
    .state_size = sizeof(vb_xv_state),
    .start = vb_xv_start,
    .start_history = NULL,
    .step = step,
    .observe = vb_xv_observe,
    .reverse = vb_xv_reverse,
};
