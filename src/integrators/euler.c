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

static size_t lanes_size(size_t n) { return vb_xv_lanes_size(n, 1); }

static void step_lanes(void *restrict st, vb_force_lanes *restrict f, const double *restrict t,
                       const double *restrict h)
{
    vb_xv_lanes *s = st;
    vb_lane_row *x = vb_xv_rows(s, 0), *v = vb_xv_rows(s, 1), *a = vb_xv_rows(s, 2);
    vb_force_lanes_eval(f, t, x, v, a);
    for (size_t c = 0; c < f->n; c++)
        for (size_t i = 0; i < VB_LANES; i++) {
            x[c][i] += v[c][i] * h[i];
            v[c][i] += a[c][i] * h[i];
        }
}

const vb_integrator_lanes vb_integrator_euler_lanes = {
    .state_size = lanes_size,
    .load = vb_xv_load,
    .step = step_lanes,
    .observe = vb_xv_observe_lanes,
};

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
