/* compensated.c — Kahan-compensated kicks and drifts (compensated.h).
 *
 * Each method is a sequence of stages, a drift x += v (c h) or a kick
 * v += a(x) (d h), with the force evaluated at the current x before a kick
 * unless x has not moved since it was last evaluated (velocity Verlet's and
 * Yoshida's first-same-as-last).  A sum s += y is made as Kahan's
 *     y' = y - e;  t = s + y';  e = (t - s) - y';  s = t,
 * e the part of the last addition that was rounded away (-ffp-contract=off
 * keeps the compiler from fusing it into nothing).  The force needs no
 * velocity: these methods run only on velocity-independent models
 * (the long-run command refuses the others). */
#include "compensated.h"
#include "xvstate.h"

#include <stddef.h>
#include <string.h>

#define MAX_STAGES 20

typedef struct {
    const vb_integrator *base;
    unsigned n_stages;
    /* kind 'd' (drift) or 'k' (kick), and its coefficient of h */
    char kind[MAX_STAGES];
    double coef[MAX_STAGES];
} scheme;

/* vectors of the state: x, v, a, the errors of x and v, and a flag block
 * (one double: 1 when a is the force at the current x) */
enum { X, V, A, EX, EV, FRESH, N_VEC };

static size_t state_size(size_t n) { return vb_xv_size(n, N_VEC - 2); }

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    (void)f, (void)t, (void)h;
    vb_xv_state *s = st;
    vb_xv_start(s, f, t, x, v, h);
    memset(vb_xv_vec(s, EX), 0, 2 * s->n * sizeof(double));
    vb_xv_vec(s, FRESH)[0] = 0.0;
}

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

static void run(const scheme *sc, void *st, vb_force *f, double t, double h)
{
    vb_xv_state *s = st;
    double *x = vb_xv_vec(s, X), *v = vb_xv_vec(s, V), *a = vb_xv_vec(s, A);
    double *fresh = vb_xv_vec(s, FRESH);
    double tau = 0.0;
    for (unsigned k = 0; k < sc->n_stages; k++) {
        if (sc->kind[k] == 'd') {
            add(x, vb_xv_vec(s, EX), v, sc->coef[k] * h, s->n);
            tau += sc->coef[k];
            fresh[0] = 0.0;
        } else {
            if (fresh[0] == 0.0) {
                vb_force_eval(f, t + tau * h, x, v, a);
                fresh[0] = 1.0;
            }
            add(v, vb_xv_vec(s, EV), a, sc->coef[k] * h, s->n);
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

#define CBRT2 1.2599210498948731648 /* as yoshida4.c */
#define W1 (1.0 / (2.0 - CBRT2))
#define W0 (1.0 - 2.0 * W1)
#define XI 0.1786178958448091 /* as pefrl.c */
#define LAMBDA (-0.2123418310626054)
#define CHI (-0.06626458266981849)

extern const vb_integrator vb_integrator_euler_semi;
extern const vb_integrator vb_integrator_velocity_verlet;
extern const vb_integrator vb_integrator_yoshida4;
extern const vb_integrator vb_integrator_pefrl;

static const scheme schemes[] = {
    {&vb_integrator_euler_semi, 2, {'k', 'd'}, {1.0, 1.0}},
    {&vb_integrator_velocity_verlet, 3, {'k', 'd', 'k'}, {0.5, 1.0, 0.5}},
    {&vb_integrator_yoshida4,
     9,
     {'k', 'd', 'k', 'k', 'd', 'k', 'k', 'd', 'k'},
     {0.5 * W1, W1, 0.5 * W1, 0.5 * W0, W0, 0.5 * W0, 0.5 * W1, W1, 0.5 * W1}},
    {&vb_integrator_pefrl,
     9,
     {'d', 'k', 'd', 'k', 'd', 'k', 'd', 'k', 'd'},
     {XI, 0.5 * (1.0 - 2.0 * LAMBDA), CHI, LAMBDA, 1.0 - 2.0 * (CHI + XI), LAMBDA, CHI,
      0.5 * (1.0 - 2.0 * LAMBDA), XI}},
};

static void step_euler_semi(void *st, vb_force *f, double t, double h)
{
    run(&schemes[0], st, f, t, h);
}
static void step_vv(void *st, vb_force *f, double t, double h) { run(&schemes[1], st, f, t, h); }
static void step_yoshida4(void *st, vb_force *f, double t, double h)
{
    run(&schemes[2], st, f, t, h);
}
static void step_pefrl(void *st, vb_force *f, double t, double h)
{
    run(&schemes[3], st, f, t, h);
}

#define COMPENSATED(NAME, STEP, ORDER)                                                            \
    {                                                                                              \
        .name = NAME "-kahan", .summary = NAME " with Kahan-compensated x and v updates",          \
        .order = ORDER, .flags = VB_SYMPLECTIC, .state_size = state_size, .start = start,          \
        .step = STEP, .observe = vb_xv_observe, .reverse = reverse,                                \
    }

static const vb_integrator compensated[] = {
    COMPENSATED("euler-semi", step_euler_semi, 1),
    COMPENSATED("velocity-verlet", step_vv, 2),
    COMPENSATED("yoshida4", step_yoshida4, 4),
    COMPENSATED("pefrl", step_pefrl, 4),
};

const vb_integrator *vb_integrator_compensated(const vb_integrator *g)
{
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
        if (schemes[i].base == g)
            return &compensated[i];
    return NULL;
}

const char *vb_integrator_compensated_names(void)
{
    return "euler-semi, velocity-verlet, yoshida4, pefrl";
}
