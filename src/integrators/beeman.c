/* integrators/beeman.c — Beeman's algorithm (Beeman 1976, J. Comput. Phys.
 * 20, 130), the molecular-dynamics classic:
 *     x_{n+1} = x_n + v_n h + (4 a_n - a_{n-1}) h^2/6
 *     v_{n+1} = v_n + (2 a_{n+1} + 5 a_n - a_{n-1}) h/6
 * One force evaluation a step; it keeps a_{n-1}, so it is a two-step method.
 *
 * Eliminating v shows x_{n+1} - 2 x_n + x_{n-1} = a_n h^2: the positions
 * are Stormer-Verlet's, so their global error is second order whatever the
 * one-step error (O(h^4)) suggests; what Beeman adds is a better velocity
 * (docs/method.md §2).
 *
 * Variable steps (h' the step before h): the h^3 term of the position is
 * written with the difference it approximates, and so is the velocity's
 * term beyond the trapezoid rule,
 *     x_{n+1} = x_n + v_n h + a_n h^2/2 + (a_n - a_{n-1})/h' h^3/6
 *     v_{n+1} = v_n + (a_{n+1} + a_n) h/2 - a''~ h^3/6,
 *     a''~ = 2 ((a_{n+1} - a_n)/h - (a_n - a_{n-1})/h') / (h + h'),
 * which is Beeman's pair when h = h' (the same values in exact arithmetic).
 * The position's h^3 term is Taylor's a' h^3/6; the velocity's a'' h^3/6
 * is Beeman's own (the trapezoid rule's error is a'' h^3/12), so its
 * one-step velocity error is a'' h^3/12, as with equal steps. */
#include <math.h>
#include <string.h>

#include "verletbench.h"

/* N, h', then x, v, a_n, a_{n-1}, the new a, and the start's scratch */
typedef struct {
    size_t n;
    double hp;
    double data[];
} beeman_state;

enum { X, V, A, AP, AN, SX, SV, N_VECTORS };

static double *vec(beeman_state *s, int k) { return s->data + (size_t)k * s->n; }

static size_t state_size(size_t n) { return sizeof(beeman_state) + N_VECTORS * n * sizeof(double); }

/* x_n, v_n and a_n (already in the state), then a_{n-1} at x_prev =
 * x(t - hp) with the velocity a first-order step back gives (exact when
 * the force does not read v) */
static void start_from(beeman_state *s, vb_force *f, double t, const double *x, const double *v,
                       const double *x_prev, double hp)
{
    size_t n = s->n;
    double *sv = vec(s, SV);
    const double *a = vec(s, A);
    memcpy(vec(s, X), x, n * sizeof *x);
    memcpy(vec(s, V), v, n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        sv[i] = v[i] - a[i] * hp;
    vb_force_eval(f, t - hp, x_prev, sv, vec(s, AP));
    s->hp = hp;
}

/* No history: x_{-1} from the Taylor step back x - v h + a h^2/2, right to
 * O(h^3), so that the first step keeps the method's one-step order
 * (setting a_{-1} = a_0, as some codes do, costs the first step a whole
 * power of h).  Two force evaluations: a_0 and a_{-1}. */
static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    beeman_state *s = st;
    s->n = f->n;
    size_t n = s->n;
    double *sx = vec(s, SX), *a = vec(s, A);
    vb_force_eval(f, t, x, v, a);
    for (size_t i = 0; i < n; i++)
        sx[i] = x[i] - v[i] * h + a[i] * (0.5 * h * h);
    start_from(s, f, t, x, v, sx, h);
}

static void start_history(void *st, vb_force *f, double t, const double *x, const double *v,
                          const double *x_prev, double h_prev, double h)
{
    (void)h;
    beeman_state *s = st;
    s->n = f->n;
    vb_force_eval(f, t, x, v, vec(s, A));
    start_from(s, f, t, x, v, x_prev, h_prev);
}

/* Steps whose powers cannot leave the doubles: |log2 h| < 64, so h^3 lies
 * within 2^(+-192) and an acceleration over h is no further from a position
 * than that.  Outside, step_scaled. */
static int ordinary(double h) { return h > 0x1p-64 && h < 0x1p64; }

static void step_plain(beeman_state *s, vb_force *f, double t, double h)
{
    size_t n = s->n;
    double *restrict x = vec(s, X), *restrict v = vec(s, V), *restrict a = vec(s, A),
                     *restrict ap = vec(s, AP), *restrict an = vec(s, AN);
    double hp = s->hp, h2 = 0.5 * h * h, h3 = h * h * h / (6.0 * hp);
    /* a velocity-dependent force sees the second-order (Adams-Bashforth)
     * velocity v + a h + (a - a-)/h' h^2/2 at the new point */
    double *restrict vp = vec(s, SV), g = 0.5 * h * h / hp;
    for (size_t i = 0; i < n; i++) {
        x[i] += v[i] * h + a[i] * h2 + (a[i] - ap[i]) * h3;
        vp[i] = v[i] + a[i] * h + (a[i] - ap[i]) * g;
    }
    vb_force_eval(f, t + h, x, vp, an);
    double half = 0.5 * h, k = h * h * h / (3.0 * (h + hp));
    for (size_t i = 0; i < n; i++) {
        double curv = (an[i] - a[i]) / h - (a[i] - ap[i]) / hp;
        v[i] += (an[i] + a[i]) * half - curv * k;
        ap[i] = a[i];
        a[i] = an[i];
    }
    s->hp = h;
}

/* The same step where h is far from 1 (omega h = 2 on a spring of k =
 * 1e-250 takes h = 1e125): h^3 overflows (or, at k = 1e250, underflows to
 * 0), and so does an acceleration's difference over h, although every term
 * the step adds is a position's or a velocity's size.  h and h' are scaled
 * by the power of two 2^-e that brings h to [1/2, 1), each h^3 term is
 * formed from the scaled steps and scaled back by 2^(2e), and the
 * curvature term (a difference over h, times h^3) by 2^e.  A power of two
 * scales a product or a quotient exactly, so wherever step_plain's numbers
 * are normal doubles this gives its bits; elsewhere it gives the step that
 * step_plain's algebra means.  The two agree bit for bit on every step
 * either can take (docs/stability.md §1, "Scale"). */
static void step_scaled(beeman_state *s, vb_force *f, double t, double h)
{
    size_t n = s->n;
    double *restrict x = vec(s, X), *restrict v = vec(s, V), *restrict a = vec(s, A),
                     *restrict ap = vec(s, AP), *restrict an = vec(s, AN);
    double hp = s->hp;
    int e;
    (void)frexp(h, &e);
    double hs = ldexp(h, -e), hps = ldexp(hp, -e);
    double h2 = 0.5 * h * h, h3 = ldexp(hs * hs * hs / (6.0 * hps), 2 * e);
    double *restrict vp = vec(s, SV), g = ldexp(0.5 * hs * hs / hps, e);
    for (size_t i = 0; i < n; i++) {
        x[i] += v[i] * h + a[i] * h2 + (a[i] - ap[i]) * h3;
        vp[i] = v[i] + a[i] * h + (a[i] - ap[i]) * g;
    }
    vb_force_eval(f, t + h, x, vp, an);
    double half = 0.5 * h, ks = hs * hs * hs / (3.0 * (hs + hps));
    for (size_t i = 0; i < n; i++) {
        double curv = (an[i] - a[i]) / hs - (a[i] - ap[i]) / hps;
        v[i] += (an[i] + a[i]) * half - ldexp(curv * ks, e);
        ap[i] = a[i];
        a[i] = an[i];
    }
    s->hp = h;
}

static void step(void *st, vb_force *f, double t, double h)
{
    beeman_state *s = st;
    if (ordinary(h) && ordinary(s->hp))
        step_plain(s, f, t, h);
    else
        step_scaled(s, f, t, h);
}

static void observe(const void *st, double *x, double *v)
{
    const beeman_state *s = st;
    memcpy(x, s->data + X * s->n, s->n * sizeof *x);
    memcpy(v, s->data + V * s->n, s->n * sizeof *v);
}

/* Backwards in time the previous acceleration is the next one, which the
 * state does not hold: it is extrapolated linearly, a_next ~ 2 a_n - a_{n-1}
 * (right to O(h^2) when the steps are equal), so a run back is close to
 * the run out but not its exact mirror (docs/method.md §7). */
static void reverse(void *st)
{
    beeman_state *s = st;
    double *v = vec(s, V), *a = vec(s, A), *ap = vec(s, AP);
    for (size_t i = 0; i < s->n; i++) {
        v[i] = -v[i];
        ap[i] = 2.0 * a[i] - ap[i];
    }
}

const vb_integrator vb_integrator_beeman = {
    .name = "beeman",
    .summary = "Beeman: x += v h + (4a - a-) h^2/6; v += (2a+ + 5a - a-) h/6; 1 eval",
    .order = 2,
    .flags = VB_HISTORY,
    .state_size = state_size,
    .start = start,
    .start_history = start_history,
    .step = step,
    .observe = observe,
    .reverse = reverse,
};
