/* integrators/leapfrog.c — leapfrog with a staggered velocity w at half steps,
 * the textbook loop: start w = v_0 + a_0 h_0/2; step x += w h, a = a(x),
 * w += a h.  The velocity it reports at t_{n+1} is w - a_{n+1} h/2. */
#include "verletbench.h"

/* N, the last step h (to bring w back to whole steps), then x, w, a */
typedef struct {
    size_t n;
    double h;
    double data[];
} leapfrog_state;

enum { X, W, A, N_VECTORS };

static double *vec(leapfrog_state *s, int k) { return s->data + (size_t)k * s->n; }

static size_t state_size(size_t n) { return sizeof(leapfrog_state) + N_VECTORS * n * sizeof(double); }

static void start(void *st, vb_force *f, double t, const double *x0, const double *v0, double h)
{
    leapfrog_state *s = st;
    s->n = f->n;
    s->h = h;
    double *x = vec(s, X), *w = vec(s, W), *a = vec(s, A);
    vb_force_eval(f, t, x0, v0, a);
    for (size_t i = 0; i < s->n; i++) {
        x[i] = x0[i];
        w[i] = v0[i] + 0.5 * a[i] * h;
    }
}

static void step(void *st, vb_force *f, double t, double h)
{
    leapfrog_state *s = st;
    double *x = vec(s, X), *w = vec(s, W), *a = vec(s, A);
    for (size_t i = 0; i < s->n; i++)
        x[i] += w[i] * h;
    vb_force_eval(f, t + h, x, w, a);
    for (size_t i = 0; i < s->n; i++)
        w[i] += a[i] * h;
    s->h = h;
}

static void observe(const void *st, double *x, double *v)
{
    const leapfrog_state *s = st;
    const double *sx = s->data, *w = s->data + s->n, *a = s->data + 2 * s->n;
    for (size_t i = 0; i < s->n; i++) {
        x[i] = sx[i];
        v[i] = w[i] - 0.5 * a[i] * s->h;
    }
}

/* w becomes minus the half-step velocity before the last kick, so the
 * reported velocity turns into -v and the next drift retraces the last one */
static void reverse(void *st)
{
    leapfrog_state *s = st;
    double *w = vec(s, W), *a = vec(s, A);
    for (size_t i = 0; i < s->n; i++)
        w[i] = -(w[i] - a[i] * s->h);
}

const vb_integrator vb_integrator_leapfrog = {
    .name = "leapfrog",
    .summary = "leapfrog: staggered w = v + a h/2; x += w h; w += a h",
    .order = 2,
    .flags = VB_SYMPLECTIC,
    .state_size = state_size,
    .start = start,
    .start_history = NULL,
    .step = step,
    .observe = observe,
    .reverse = reverse,
};
