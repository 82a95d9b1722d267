/* integrators/leapfrog.c — leapfrog with a staggered velocity w at half steps,
 * the textbook loop: start w = v_0 + a_0 h_0/2; step x += w h, a = a(x),
 * w += a h.  The velocity it reports at t_{n+1} is w - a_{n+1} h/2. */
#include "lanes.h"
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

typedef struct {
    vb_lane_vec x, w, a;
    double h[VB_LANES];
} leapfrog_lanes;

static void load(void *lanes, size_t i, const void *scalar_state)
{
    leapfrog_lanes *l = lanes;
    const leapfrog_state *s = scalar_state;
    for (unsigned d = 0; d < s->dim; d++) {
        l->x[d][i] = s->x[d];
        l->w[d][i] = s->w[d];
        l->a[d][i] = s->a[d];
    }
    l->h[i] = s->h;
}

static void step_lanes(void *restrict st, vb_force_lanes *restrict f, const double *restrict t,
                       const double *restrict h)
{
    leapfrog_lanes *s = st;
    double th[VB_LANES];
    for (size_t i = 0; i < VB_LANES; i++)
        th[i] = t[i] + h[i];
    for (unsigned d = 0; d < f->dim; d++)
        for (size_t i = 0; i < VB_LANES; i++)
            s->x[d][i] += s->w[d][i] * h[i];
    vb_force_lanes_eval(f, th, s->x, s->w, s->a);
    for (unsigned d = 0; d < f->dim; d++)
        for (size_t i = 0; i < VB_LANES; i++)
            s->w[d][i] += s->a[d][i] * h[i];
    for (size_t i = 0; i < VB_LANES; i++)
        s->h[i] = h[i];
}

static void observe_lanes(const void *st, size_t n, vb_lane_vec x, vb_lane_vec v)
{
    const leapfrog_lanes *s = st;
    for (unsigned d = 0; d < VB_MAX_DIM; d++)
        for (size_t i = 0; i < n; i++) {
            x[d][i] = s->x[d][i];
            v[d][i] = s->w[d][i] - 0.5 * s->a[d][i] * s->h[i];
        }
}

const vb_integrator_lanes vb_integrator_leapfrog_lanes = {
    .state_size = sizeof(leapfrog_lanes),
    .load = load,
    .step = step_lanes,
    .observe = observe_lanes,
};

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
