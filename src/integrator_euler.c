/* integrator_euler.c — explicit (forward) Euler: x += v h, v += a h, both from
 * the old state.  The baseline every other method should beat. */
#include "xvstate.h"

static void step(void *st, vb_force *f, double t, double h)
{
    vb_xv_state *s = st;
    double a[VB_MAX_DIM];
    vb_force_eval(f, t, s->x, s->v, a);
    for (unsigned i = 0; i < s->dim; i++) {
        s->x[i] += s->v[i] * h;
        s->v[i] += a[i] * h;
    }
}

const vb_integrator vb_integrator_euler = {
    .name = "euler",
    .summary = "explicit Euler x += v h; v += a h (both from the old state)",
    .order = 1,
    .flags = 0,
    .state_size = sizeof(vb_xv_state),
    .start = vb_xv_start,
    .start_history = NULL,
    .step = step,
    .observe = vb_xv_observe,
    .reverse = vb_xv_reverse,
};
