/* integrators/euler_semi.c — symplectic Euler: v += a h, then x += v h with the
 * new velocity.  The "Euler" of the time-corrected Verlet article (Dummer 2005). */
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

static void step_lanes(void *restrict st, vb_force_lanes *restrict f, const double *restrict t,
                       const double *restrict h)
{
    vb_xv_lanes *s = st;
    vb_lane_vec a;
    vb_force_lanes_eval(f, t, s->x, s->v, a);
    for (unsigned d = 0; d < f->dim; d++)
        for (size_t i = 0; i < VB_LANES; i++) {
            s->v[d][i] += a[d][i] * h[i];
            s->x[d][i] += s->v[d][i] * h[i];
        }
}

const vb_integrator_lanes vb_integrator_euler_semi_lanes = {
    .state_size = sizeof(vb_xv_lanes),
    .load = vb_xv_load,
    .step = step_lanes,
    .observe = vb_xv_observe_lanes,
};

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
