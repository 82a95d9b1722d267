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
