/* improved.c — one integrator, "tcv-ut", built in two variants for the
 * regression check's false-alarm test (-DVARIANT=...):
 *
 *   TCV    Dummer's time-corrected Verlet:
 *          x+ = x + (x - x-) h/h' + a h^2             (first order under random steps)
 *   VAR    the variable-step Stormer-Verlet it becomes when a h^2 is
 *          replaced by a h (h + h')/2                  (second order under any steps)
 *
 * A baseline made with TCV and checked with VAR is an improvement: every
 * error of the random and trace plans falls, the orders rise from 1 to 2.
 * The check must pass and list it, even though the final-time errors (which
 * oscillate) and one coarse step size got worse.  Plain x_{n-1} storage,
 * apart from src/ on purpose. */
#include <verletbench.h>

/* a test plugin for small systems: fixed arrays of MAXN components */
#define MAXN 8

#define TCV 0
#define VAR 1
#ifndef VARIANT
#define VARIANT TCV
#endif

typedef struct {
    double x[MAXN], xp[MAXN], a[MAXN], hp;
    unsigned dim;
} state;

static size_t size_of_state(size_t n)
{
    (void)n;
    return sizeof(state);
}

/* v for a velocity-dependent force: the backward difference */
static void accel(state *s, vb_force *f, double t)
{
    double v[MAXN];
    for (unsigned i = 0; i < s->dim; i++)
        v[i] = (s->x[i] - s->xp[i]) / s->hp;
    vb_force_eval(f, t, s->x, v, s->a);
}

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    state *s = st;
    s->dim = f->n;
    s->hp = h;
    vb_force_eval(f, t, x, v, s->a);
    for (unsigned i = 0; i < s->dim; i++) {
        s->x[i] = x[i];
        s->xp[i] = x[i] - v[i] * h + 0.5 * s->a[i] * h * h; /* the Taylor start */
    }
}

static void start_history(void *st, vb_force *f, double t, const double *x, const double *v,
                          const double *x_prev, double h_prev, double h)
{
    state *s = st;
    (void)v, (void)h;
    s->dim = f->n;
    s->hp = h_prev;
    for (unsigned i = 0; i < s->dim; i++) {
        s->x[i] = x[i];
        s->xp[i] = x_prev[i];
    }
    accel(s, f, t);
}

static void step(void *st, vb_force *f, double t, double h)
{
    state *s = st;
    for (unsigned i = 0; i < s->dim; i++) {
#if VARIANT == VAR
        double xn = s->x[i] + (s->x[i] - s->xp[i]) * (h / s->hp) + s->a[i] * h * (h + s->hp) / 2;
#else
        double xn = s->x[i] + (s->x[i] - s->xp[i]) * (h / s->hp) + s->a[i] * h * h;
#endif
        s->xp[i] = s->x[i];
        s->x[i] = xn;
    }
    s->hp = h;
    accel(s, f, t + h);
}

static void observe(const void *st, double *x, double *v)
{
    const state *s = st;
    for (unsigned i = 0; i < s->dim; i++) {
        x[i] = s->x[i];
        v[i] = (s->x[i] - s->xp[i]) / s->hp + 0.5 * s->a[i] * s->hp;
    }
}

static void reverse(void *st)
{
    state *s = st;
    for (unsigned i = 0; i < s->dim; i++)
        s->xp[i] = 2 * s->x[i] - s->xp[i] + s->a[i] * s->hp * s->hp;
}

static const vb_integrator tcv_ut = {
    .name = "tcv-ut",
    .summary = "time-corrected Verlet under test (VAR: made variable-step Stormer-Verlet)",
    .order = 2,
    .flags = VB_SYMPLECTIC | VB_HISTORY,
    .state_size = size_of_state,
    .start = start,
    .start_history = start_history,
    .step = step,
    .observe = observe,
    .reverse = reverse,
};

static const vb_integrator *const list[] = {&tcv_ut};
const vb_plugin verletbench_plugin = {VB_ABI_VERSION, 1, list, 0, NULL};
