/* integrators/velocity_verlet.c — velocity Verlet in kick-drift-kick form:
 * v_{n+1/2} = v_n + a_n h/2;  x_{n+1} = x_n + v_{n+1/2} h;  a_{n+1};
 * v_{n+1} = v_{n+1/2} + a_{n+1} h/2.  In exact arithmetic this is docs/method.md §2's
 * x_n + v_n h + a_n h^2/2 and v_n + (a_n + a_{n+1}) h/2; a velocity-dependent
 * force sees the half-step velocity. */
#include "xvstate.h"

typedef struct {
    vb_xv_state xv; /* first, so the shared observe and reverse apply */
    double a[VB_MAX_DIM];
} vv_state;

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    vv_state *s = st;
    vb_xv_start(&s->xv, f, t, x, v, h);
    vb_force_eval(f, t, s->xv.x, s->xv.v, s->a);
}

static void step(void *st, vb_force *f, double t, double h)
{
    vv_state *s = st;
    double half = 0.5 * h;
    for (unsigned i = 0; i < s->xv.dim; i++) {
        s->xv.v[i] += s->a[i] * half;
        s->xv.x[i] += s->xv.v[i] * h;
    }
    vb_force_eval(f, t + h, s->xv.x, s->xv.v, s->a);
    for (unsigned i = 0; i < s->xv.dim; i++)
        s->xv.v[i] += s->a[i] * half;
}

typedef struct {
    vb_xv_lanes xv; /* first, so the shared observe applies */
    vb_lane_vec a;
} vv_lanes;

static void load(void *lanes, size_t i, const void *scalar_state)
{
    vv_lanes *l = lanes;
    const vv_state *s = scalar_state;
    vb_xv_load(&l->xv, i, &s->xv);
    for (unsigned d = 0; d < s->xv.dim; d++)
        l->a[d][i] = s->a[d];
}

static void step_lanes(void *restrict st, vb_force_lanes *restrict f, const double *restrict t,
                       const double *restrict h)
{
    vv_lanes *s = st;
    double half[VB_LANES], th[VB_LANES];
    for (size_t i = 0; i < VB_LANES; i++) {
        half[i] = 0.5 * h[i];
        th[i] = t[i] + h[i];
    }
    for (unsigned d = 0; d < f->dim; d++)
        for (size_t i = 0; i < VB_LANES; i++) {
            s->xv.v[d][i] += s->a[d][i] * half[i];
            s->xv.x[d][i] += s->xv.v[d][i] * h[i];
        }
    vb_force_lanes_eval(f, th, s->xv.x, s->xv.v, s->a);
    for (unsigned d = 0; d < f->dim; d++)
        for (size_t i = 0; i < VB_LANES; i++)
            s->xv.v[d][i] += s->a[d][i] * half[i];
}

const vb_integrator_lanes vb_integrator_velocity_verlet_lanes = {
    .state_size = sizeof(vv_lanes),
    .load = load,
    .step = step_lanes,
    .observe = vb_xv_observe_lanes,
};

const vb_integrator vb_integrator_velocity_verlet = {
    .name = "velocity-verlet",
    .summary = "velocity Verlet: kick a h/2, drift v h, new a, kick a h/2",
    .order = 2,
    .flags = VB_SYMPLECTIC,
    .state_size = sizeof(vv_state),
    .start = start,
    .start_history = NULL,
    .step = step,
    .observe = vb_xv_observe,
    .reverse = vb_xv_reverse,
};
