/* integrator_velocity_verlet.c — velocity Verlet in kick-drift-kick form:
 * v_{n+1/2} = v_n + a_n h/2;  x_{n+1} = x_n + v_{n+1/2} h;  a_{n+1};
 * v_{n+1} = v_{n+1/2} + a_{n+1} h/2.  In exact arithmetic this is SPEC's
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
