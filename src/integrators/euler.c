/* integrators/euler.c — explicit (forward) Euler: x += v h, v += a h, both from
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

static void step_lanes(void *restrict st, vb_force_lanes *restrict f, const double *restrict t,
                       const double *restrict h)
{
    vb_xv_lanes *s = st;
    vb_lane_vec a;
    vb_force_lanes_eval(f, t, s->x, s->v, a);
    for (unsigned d = 0; d < f->dim; d++)
        for (size_t i = 0; i < VB_LANES; i++) {
            s->x[d][i] += s->v[d][i] * h[i];
            s->v[d][i] += a[d][i] * h[i];
        }
}

const vb_integrator_lanes vb_integrator_euler_lanes = {
    .state_size = sizeof(vb_xv_lanes),
    .load = vb_xv_load,
    .step = step_lanes,
    .observe = vb_xv_observe_lanes,
};

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
