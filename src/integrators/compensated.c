/* compensated.c — Kahan-compensated kicks and drifts (compensated.h) of the
 * schemes of splitting.h.
 *
 * A sum s += y is made as Kahan's
 *     y' = y - e;  t = s + y';  e = (t - s) - y';  s = t,
 * e the part of the last addition that was rounded away (-ffp-contract=off
 * keeps the compiler from fusing it into nothing).  In exact arithmetic
 * each method is its file's, stage for stage. */
#include "compensated.h"
#include "splitting.h"
#include "xvstate.h"

#include <stddef.h>
#include <string.h>

/* vectors of the state: x, v, a, the errors of x and v */
enum { X, V, A, EX, EV, N_VEC };

static size_t state_size(size_t n) { return vb_xv_size(n, N_VEC - 2); }

/* s[i] += y[i] c, compensated */
static void add(double *restrict sum, double *restrict err, const double *restrict y, double c,
                size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double yi = y[i] * c - err[i];
        double t = sum[i] + yi;
        err[i] = (t - sum[i]) - yi;
        sum[i] = t;
    }
}

static void begin(const vb_split *sc, void *st, vb_force *f, double t, const double *x,
                  const double *v, double h)
{
    vb_xv_state *s = st;
    vb_xv_start(s, f, t, x, v, h);
    memset(vb_xv_vec(s, EX), 0, 2 * s->n * sizeof(double));
    if (sc->carry)
        vb_force_eval(f, t, vb_xv_vec(s, X), vb_xv_vec(s, V), vb_xv_vec(s, A));
}

static void run(const vb_split *sc, void *st, vb_force *f, double t, double h)
{
    vb_xv_state *s = st;
    double *x = vb_xv_vec(s, X), *v = vb_xv_vec(s, V), *a = vb_xv_vec(s, A);
    double tau = 0.0;
    for (unsigned k = 0; k < sc->n; k++) {
        double c = sc->coef[k];
        if (sc->kind[k] == 'f') {
            vb_force_eval(f, t + tau * h, x, v, a);
        } else if (sc->kind[k] == 'k') {
            add(v, vb_xv_vec(s, EV), a, c * h, s->n);
        } else {
            add(x, vb_xv_vec(s, EX), v, c * h, s->n);
            tau += c;
        }
    }
}

/* A reversed run goes back along -v; the errors belong to the sums. */
static void reverse(void *st)
{
    vb_xv_state *s = st;
    double *v = vb_xv_vec(s, V), *ev = vb_xv_vec(s, EV);
    for (size_t i = 0; i < s->n; i++) {
        v[i] = -v[i];
        ev[i] = -ev[i];
    }
}

extern const vb_integrator vb_integrator_euler_semi;
extern const vb_integrator vb_integrator_velocity_verlet;
extern const vb_integrator vb_integrator_yoshida4;
extern const vb_integrator vb_integrator_pefrl;

#define METHOD(ID, BASE)                                                                           \
    static void start_##ID(void *st, vb_force *f, double t, const double *x, const double *v,     \
                           double h)                                                               \
    {                                                                                              \
        begin(vb_split_of(&BASE), st, f, t, x, v, h);                                              \
    }                                                                                              \
    static void step_##ID(void *st, vb_force *f, double t, double h)                              \
    {                                                                                              \
        run(vb_split_of(&BASE), st, f, t, h);                                                      \
    }
METHOD(euler_semi, vb_integrator_euler_semi)
METHOD(vv, vb_integrator_velocity_verlet)
METHOD(yoshida4, vb_integrator_yoshida4)
METHOD(pefrl, vb_integrator_pefrl)

#define COMPENSATED(NAME, ID, ORDER)                                                              \
    {                                                                                              \
        .name = NAME "-kahan", .summary = NAME " with Kahan-compensated x and v updates",          \
        .order = ORDER, .flags = VB_SYMPLECTIC, .state_size = state_size, .start = start_##ID,    \
        .step = step_##ID, .observe = vb_xv_observe, .reverse = reverse,                           \
    }

static const vb_integrator *const bases[] = {
    &vb_integrator_euler_semi, &vb_integrator_velocity_verlet, &vb_integrator_yoshida4,
    &vb_integrator_pefrl,
};
static const vb_integrator compensated[] = {
    COMPENSATED("euler-semi", euler_semi, 1),
    COMPENSATED("velocity-verlet", vv, 2),
    COMPENSATED("yoshida4", yoshida4, 4),
    COMPENSATED("pefrl", pefrl, 4),
};

const vb_integrator *vb_integrator_compensated(const vb_integrator *g)
{
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
        if (bases[i] == g)
            return &compensated[i];
    return NULL;
}

const char *vb_integrator_compensated_names(void)
{
    return "euler-semi, velocity-verlet, yoshida4, pefrl";
}
