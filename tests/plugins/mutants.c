/* mutants.c — integrators under test for the regression check, built as
 * plugins in one correct and several mutated variants (-DVARIANT=...):
 *
 *   good         vv-ut (velocity Verlet), vvar-ut (variable-step
 *                Störmer–Verlet), pv-ut (position Verlet), as SPEC §2
 *   vv_swapped   vv-ut drifts with x + v h/2 + a h^2: the ½ on the wrong
 *                term, the bug Boost.Odeint shipped (odeint-v2 issue #150)
 *   vvar_h2      vvar-ut with a h^2 in place of a h (h + h')/2
 *   pv_no_half   pv-ut starts with x1 = x0 + v0 h + a0 h^2 (no ½)
 *   roundoff     all three with their additions reordered: the same
 *                methods in exact arithmetic, different round-off
 *
 * The test builds a baseline from "good" and checks every variant against
 * it: each real mutant must fail the check and the round-off one pass.
 * Written apart from src/ on purpose: plain x_{n-1} storage, not the
 * harness's summed form. */
#include <string.h>

#include <verletbench.h>

/* a test plugin for small systems: fixed arrays of MAXN components */
#define MAXN 8

#define GOOD 0
#define VV_SWAPPED 1
#define VVAR_H2 2
#define PV_NO_HALF 3
#define ROUNDOFF 4
#ifndef VARIANT
#define VARIANT GOOD
#endif

/* ---- velocity Verlet ---- */
typedef struct {
    double x[MAXN], v[MAXN], a[MAXN];
    unsigned dim;
} vv_state;

static size_t size_of_vv_state(size_t n)
{
    (void)n;
    return sizeof(vv_state);
}

static void vv_start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    vv_state *s = st;
    (void)h;
    s->dim = f->n;
    memcpy(s->x, x, f->n * sizeof *x);
    memcpy(s->v, v, f->n * sizeof *v);
    vb_force_eval(f, t, s->x, s->v, s->a);
}

static void vv_step(void *st, vb_force *f, double t, double h)
{
    vv_state *s = st;
    double anew[MAXN];
    for (unsigned i = 0; i < s->dim; i++) {
#if VARIANT == VV_SWAPPED
        s->x[i] = s->x[i] + 0.5 * h * s->v[i] + h * h * s->a[i];
#elif VARIANT == ROUNDOFF
        s->x[i] = s->x[i] + (h * s->v[i] + h * (0.5 * h) * s->a[i]);
#else
        s->x[i] = s->x[i] + h * s->v[i] + 0.5 * h * h * s->a[i];
#endif
    }
    vb_force_eval(f, t + h, s->x, s->v, anew);
    for (unsigned i = 0; i < s->dim; i++) {
#if VARIANT == ROUNDOFF
        s->v[i] = s->v[i] + 0.5 * h * s->a[i] + 0.5 * h * anew[i];
#else
        s->v[i] = s->v[i] + 0.5 * h * (s->a[i] + anew[i]);
#endif
        s->a[i] = anew[i];
    }
}

static void vv_observe(const void *st, double *x, double *v)
{
    const vv_state *s = st;
    memcpy(x, s->x, s->dim * sizeof *x);
    memcpy(v, s->v, s->dim * sizeof *v);
}

static void vv_reverse(void *st)
{
    vv_state *s = st;
    for (unsigned i = 0; i < s->dim; i++)
        s->v[i] = -s->v[i];
}

/* ---- the position-Verlet family: x_n, x_{n-1}, a_n, h_{n-1} ---- */
typedef struct {
    double x[MAXN], xp[MAXN], a[MAXN], v0[MAXN];
    double hp;
    unsigned dim;
    int stepped;
} pv_state;

static size_t size_of_pv_state(size_t n)
{
    (void)n;
    return sizeof(pv_state);
}

static void pv_start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    pv_state *s = st;
    (void)h;
    s->dim = f->n;
    s->stepped = 0;
    s->hp = 0.0;
    memcpy(s->x, x, f->n * sizeof *x);
    memcpy(s->xp, x, f->n * sizeof *x);
    memcpy(s->v0, v, f->n * sizeof *v);
    vb_force_eval(f, t, s->x, s->v0, s->a);
}

/* variable: 1 = h(h+h')/2 weighting (verlet-var), 0 = a h^2 (verlet) */
static void pv_advance(pv_state *s, vb_force *f, double t, double h, int variable)
{
    double next[MAXN], vb[MAXN];
    for (unsigned i = 0; i < s->dim; i++) {
        if (!s->stepped) {
#if VARIANT == PV_NO_HALF
            next[i] = s->x[i] + s->v0[i] * h + s->a[i] * h * h;
#elif VARIANT == ROUNDOFF
            next[i] = s->x[i] + (s->v0[i] * h + 0.5 * s->a[i] * h * h);
#else
            next[i] = s->x[i] + s->v0[i] * h + 0.5 * s->a[i] * h * h;
#endif
        } else {
            double w = variable ? h * (h + s->hp) / 2.0 : h * h;
#if VARIANT == VVAR_H2
            if (variable)
                w = h * h;
#endif
#if VARIANT == ROUNDOFF
            next[i] = variable ? s->x[i] + ((s->x[i] - s->xp[i]) * (h / s->hp) + s->a[i] * w)
                               : s->x[i] + ((s->x[i] - s->xp[i]) + s->a[i] * w);
#else
            next[i] = variable ? s->x[i] + (s->x[i] - s->xp[i]) * h / s->hp + s->a[i] * w
                               : s->x[i] + (s->x[i] - s->xp[i]) + s->a[i] * w;
#endif
        }
    }
    for (unsigned i = 0; i < s->dim; i++) {
        s->xp[i] = s->x[i];
        s->x[i] = next[i];
        vb[i] = (s->x[i] - s->xp[i]) / h; /* SPEC: the backward difference */
    }
    s->hp = h;
    s->stepped = 1;
    vb_force_eval(f, t + h, s->x, vb, s->a);
}

static void pv_step(void *st, vb_force *f, double t, double h) { pv_advance(st, f, t, h, 0); }
static void vvar_step(void *st, vb_force *f, double t, double h) { pv_advance(st, f, t, h, 1); }

static void pv_observe(const void *st, double *x, double *v)
{
    const pv_state *s = st;
    for (unsigned i = 0; i < s->dim; i++) {
        x[i] = s->x[i];
        v[i] = s->stepped ? (s->x[i] - s->xp[i]) / s->hp + s->a[i] * s->hp / 2.0 : s->v0[i];
    }
}

/* the point one step back in reversed time: d' = -(d + a h'^2) (SPEC) */
static void pv_reverse(void *st)
{
    pv_state *s = st;
    for (unsigned i = 0; i < s->dim; i++) {
        if (!s->stepped) {
            s->v0[i] = -s->v0[i];
            continue;
        }
        double d = s->x[i] - s->xp[i];
        s->xp[i] = s->x[i] + (d + s->a[i] * s->hp * s->hp);
    }
}

static const vb_integrator vv_ut = {
    .name = "vv-ut", .summary = "velocity Verlet under test", .order = 2,
    .flags = VB_SYMPLECTIC, .state_size = size_of_vv_state, .start = vv_start,
    .step = vv_step, .observe = vv_observe, .reverse = vv_reverse,
};
static const vb_integrator vvar_ut = {
    .name = "vvar-ut", .summary = "variable-step Stormer-Verlet under test", .order = 2,
    .flags = VB_SYMPLECTIC, .state_size = size_of_pv_state, .start = pv_start,
    .step = vvar_step, .observe = pv_observe, .reverse = pv_reverse,
};
static const vb_integrator pv_ut = {
    .name = "pv-ut", .summary = "position Verlet under test", .order = 2,
    .flags = VB_SYMPLECTIC, .state_size = size_of_pv_state, .start = pv_start,
    .step = pv_step, .observe = pv_observe, .reverse = pv_reverse,
};

static const vb_integrator *const all[] = {&vv_ut, &vvar_ut, &pv_ut};

const vb_plugin verletbench_plugin = {VB_ABI_VERSION, 3, all, 0, NULL};
