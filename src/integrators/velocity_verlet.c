/* integrators/velocity_verlet.c — velocity Verlet in kick-drift-kick form:
 * v_{n+1/2} = v_n + a_n h/2;  x_{n+1} = x_n + v_{n+1/2} h;  a_{n+1};
 * v_{n+1} = v_{n+1/2} + a_{n+1} h/2.  In exact arithmetic this is docs/method.md §2's
 * x_n + v_n h + a_n h^2/2 and v_n + (a_n + a_{n+1}) h/2; a velocity-dependent
 * force sees the half-step velocity. */
#include "xvstate.h"

/* x, v and a_n, kept from one step to the next */
static size_t state_size(size_t n) { return vb_xv_size(n, 1); }

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    vb_xv_state *s = st;
    vb_xv_start(s, f, t, x, v, h);
    vb_force_eval(f, t, vb_xv_vec(s, 0), vb_xv_vec(s, 1), vb_xv_vec(s, 2));
}

static void step(void *st, vb_force *f, double t, double h) { vb_xv_kdk(st, f, t, h); }

static size_t lanes_size(size_t n) { return vb_xv_lanes_size(n, 1); }

static void load(void *lanes, size_t i, const void *scalar_state)
{
    vb_xv_load_extra(lanes, i, scalar_state, 1);
}

static void step_lanes(void *restrict st, vb_force_lanes *restrict f, const double *restrict t,
                       const double *restrict h)
{
    vb_xv_lanes *s = st;
    vb_lane_row *x = vb_xv_rows(s, 0), *v = vb_xv_rows(s, 1), *a = vb_xv_rows(s, 2);
    double half[VB_LANES], th[VB_LANES];
    for (size_t i = 0; i < VB_LANES; i++) {
        half[i] = 0.5 * h[i];
        th[i] = t[i] + h[i];
    }
    for (size_t c = 0; c < f->n; c++)
        for (size_t i = 0; i < VB_LANES; i++) {
            v[c][i] += a[c][i] * half[i];
            x[c][i] += v[c][i] * h[i];
        }
    vb_force_lanes_eval(f, th, x, v, a);
    for (size_t c = 0; c < f->n; c++)
        for (size_t i = 0; i < VB_LANES; i++)
            v[c][i] += a[c][i] * half[i];
}

const vb_integrator_lanes vb_integrator_velocity_verlet_lanes = {
    .state_size = lanes_size,
    .load = load,
    .step = step_lanes,
    .observe = vb_xv_observe_lanes,
};

const vb_integrator vb_integrator_velocity_verlet = {
    .name = "velocity-verlet",
    .summary = "velocity Verlet: kick a h/2, drift v h, new a, kick a h/2",
    .order = 2,
    .flags = VB_SYMPLECTIC,
    .state_size = state_size,
    .start = start,
    .start_history = NULL,
    .step = step,
    .observe = vb_xv_observe,
    .reverse = vb_xv_reverse,
};
