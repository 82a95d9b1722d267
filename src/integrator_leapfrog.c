/* integrator_leapfrog.c — leapfrog with a staggered velocity w at half steps,
 * seed 003's loop: start w = v_0 + a_0 h_0/2; step x += w h, a = a(x),
 * w += a h.  The velocity it reports at t_{n+1} is w - a_{n+1} h/2. */
#include "verletbench.h"

typedef struct {
    unsigned dim;
    double x[VB_MAX_DIM], w[VB_MAX_DIM], a[VB_MAX_DIM];
    double h; /* the last step, to bring w back to whole steps */
} leapfrog_state;

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    leapfrog_state *s = st;
    s->dim = f->dim;
    s->h = h;
    vb_force_eval(f, t, x, v, s->a);
    for (unsigned i = 0; i < s->dim; i++) {
        s->x[i] = x[i];
        s->w[i] = v[i] + 0.5 * s->a[i] * h;
    }
}

static void step(void *st, vb_force *f, double t, double h)
{
    leapfrog_state *s = st;
    for (unsigned i = 0; i < s->dim; i++)
        s->x[i] += s->w[i] * h;
    vb_force_eval(f, t + h, s->x, s->w, s->a);
    for (unsigned i = 0; i < s->dim; i++)
        s->w[i] += s->a[i] * h;
    s->h = h;
}

static void observe(const void *st, double *x, double *v)
{
    const leapfrog_state *s = st;
    for (unsigned i = 0; i < s->dim; i++) {
        x[i] = s->x[i];
        v[i] = s->w[i] - 0.5 * s->a[i] * s->h;
    }
}

/* w becomes minus the half-step velocity before the last kick, so the
 * reported velocity turns into -v and the next drift retraces the last one */
static void reverse(void *st)
{
    leapfrog_state *s = st;
    for (unsigned i = 0; i < s->dim; i++)
        s->w[i] = -(s->w[i] - s->a[i] * s->h);
}

const vb_integrator vb_integrator_leapfrog = {
    .name = "leapfrog",
    .summary = "leapfrog: staggered w = v + a h/2; x += w h; w += a h",
    .order = 2,
    .flags = VB_SYMPLECTIC,
    .state_size = sizeof(leapfrog_state),
    .start = start,
    .start_history = NULL,
    .step = step,
    .observe = observe,
    .reverse = reverse,
};
