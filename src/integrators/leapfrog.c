/* integrators/leapfrog.c — leapfrog with a staggered velocity w at half steps,
 * the textbook loop: start w = v_0 + a_0 h_0/2; step x += w h, a = a(x),
 * w += a h.  The velocity it reports at t_{n+1} is w - a_{n+1} h/2. */
#include "lanes.h"
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

/* lanes: N, h per lane, then rows of x, w, a */
typedef struct {
    size_t n;
    double h[VB_LANES];
    vb_lane_row rows[];
} leapfrog_lanes;

static vb_lane_row *rows(leapfrog_lanes *s, int k) { return s->rows + (size_t)k * s->n; }

static size_t lanes_size(size_t n)
{
    return sizeof(leapfrog_lanes) + N_VECTORS * n * sizeof(vb_lane_row);
}

static void load(void *lanes, size_t i, const void *scalar_state)
{
    leapfrog_lanes *l = lanes;
    const leapfrog_state *s = scalar_state;
    l->n = s->n;
    for (int k = X; k < N_VECTORS; k++) {
        vb_lane_row *row = rows(l, k);
        const double *src = s->data + (size_t)k * s->n;
        for (size_t c = 0; c < s->n; c++)
            row[c][i] = src[c];
    }
    l->h[i] = s->h;
}

static void step_lanes(void *restrict st, vb_force_lanes *restrict f, const double *restrict t,
                       const double *restrict h)
{
    leapfrog_lanes *s = st;
    vb_lane_row *x = rows(s, X), *w = rows(s, W), *a = rows(s, A);
    double th[VB_LANES];
    for (size_t i = 0; i < VB_LANES; i++)
        th[i] = t[i] + h[i];
    for (size_t c = 0; c < f->n; c++)
        for (size_t i = 0; i < VB_LANES; i++)
            x[c][i] += w[c][i] * h[i];
    vb_force_lanes_eval(f, th, x, w, a);
    for (size_t c = 0; c < f->n; c++)
        for (size_t i = 0; i < VB_LANES; i++)
            w[c][i] += a[c][i] * h[i];
    for (size_t i = 0; i < VB_LANES; i++)
        s->h[i] = h[i];
}

static void observe_lanes(const void *st, size_t used, vb_lane_row *x, vb_lane_row *v)
{
    const leapfrog_lanes *s = st;
    const vb_lane_row *lx = s->rows, *w = s->rows + s->n, *a = s->rows + 2 * s->n;
    for (size_t c = 0; c < s->n; c++)
        for (size_t i = 0; i < used; i++) {
            x[c][i] = lx[c][i];
            v[c][i] = w[c][i] - 0.5 * a[c][i] * s->h[i];
        }
}

const vb_integrator_lanes vb_integrator_leapfrog_lanes = {
    .state_size = lanes_size,
    .load = load,
    .step = step_lanes,
    .observe = observe_lanes,
};

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
