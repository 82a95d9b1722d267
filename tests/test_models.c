/* test_models.c — the exact solutions: they satisfy their differential
 * equations and conserve what they should; Kepler's equation holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_ellint.h>
#include <gsl/gsl_sf_elljac.h>

#include "elliptic.h"
#include "kepler.h"
#include "linkage.h"
#include "metrics.h"
#include "plan.h"
#include "truth.h"
#include "reduce.h"
#include "integrator.h"
#include "simulate.h"
#include "unit.h"

/* ---- Kepler's equation ------------------------------------------------- */

/* The issue asks 1e-15: the residual E - e sin E - M, evaluated in long
 * double so that the check's own rounding does not count. */
#define KEPLER_TOL 1e-15

static long double kepler_residual(double E, double e, double M)
{
    return (long double)E - (long double)e * sinl((long double)E) - (long double)M;
}

static void test_kepler_cold_start(void)
{
    static const double es[] = {0.0, 0.1, 0.5, 0.9, 0.99, 0.999};
    vb_kepler *k = vb_kepler_alloc();
    double worst = 0.0;
    int most_iter = 0;
    for (size_t i = 0; i < sizeof es / sizeof es[0]; i++)
        for (int j = -20000; j <= 20000; j++) {
            /* a grid that also probes the hard corner near M = 0 */
            double M = j * (M_PI / 20000.0);
            if (j > -50 && j < 50)
                M = j * 1e-9;
            double E;
            int rc = vb_kepler_solve(k, es[i], M, NAN, &E, NULL, NULL);
            CHECK(rc == 0, "no convergence at e=%g M=%g", es[i], M);
            double r = (double)fabsl(kepler_residual(E, es[i], M));
            worst = max_or_nan(worst, r);
            if (vb_kepler_iterations(k) > most_iter)
                most_iter = vb_kepler_iterations(k);
        }
    vb_kepler_free(k);
    CHECK(worst <= KEPLER_TOL, "largest Kepler residual %.3g", worst);
    unit_note("Kepler, cold start, e up to 0.999: residual <= %.2e, at most %d iterations", worst,
              most_iter);
}

/* vb_remainder must be remainder() bit for bit, signed zeros included: at
 * the boundaries of its shortcut (y/2, the tie at 3y/2 where IEEE rounds
 * the quotient to even, y itself) and their neighbours, and on a grid. */
static void test_remainder_same_bits(void)
{
    const double ys[] = {2.0 * M_PI, 4.0 * 1.8540746773013719, 1.0, 3.0};
    size_t bad = 0, n = 0;
    for (size_t i = 0; i < sizeof ys / sizeof ys[0]; i++) {
        double y = ys[i];
        double edges[] = {0.0, 0.5 * y, y, 1.5 * y, 2.0 * y, 2.5 * y, 0.5 * y + y};
        for (size_t j = 0; j < sizeof edges / sizeof edges[0]; j++)
            for (int sgn = -1; sgn <= 1; sgn += 2) {
                double x = sgn * edges[j];
                double probe[] = {x, nextafter(x, INFINITY), nextafter(x, -INFINITY)};
                for (int p = 0; p < 3; p++, n++) {
                    double a = vb_remainder(probe[p], y), b = remainder(probe[p], y);
                    if (memcmp(&a, &b, sizeof a) != 0 && bad++ < 5)
                        CHECK(0, "vb_remainder(%a, %a) = %a, remainder gives %a", probe[p], y,
                              a, b);
                }
            }
        for (int k = -100000; k <= 100000; k++, n++) {
            double x = k * (2.5 * y / 100000.0);
            double a = vb_remainder(x, y), b = remainder(x, y);
            if (memcmp(&a, &b, sizeof a) != 0 && bad++ < 5)
                CHECK(0, "vb_remainder(%a, %a) = %a, remainder gives %a", x, y, a, b);
        }
    }
    double a = vb_remainder(NAN, 1.0), b = vb_remainder(INFINITY, 1.0);
    CHECK(isnan(a) && isnan(b), "NaN and inf give NaN: %g %g", a, b);
    CHECK(bad == 0, "%zu of %zu differ from remainder()", bad, n);
}

/* Along an orbit, as the exact solution uses it: warm starts from the
 * previous solution, 1000 periods of e = 0.99. */
static void test_kepler_along_many_periods(void)
{
    const char *const sets[] = {"e=0.99", NULL};
    vb_model m = test_model("orbit", sets);
    void *work = m.type->work_alloc(m.self);
    vb_kepler *k = vb_kepler_alloc();
    double worst = 0.0, T = 2.0 * M_PI;
    for (int i = 0; i <= 1000000; i++) {
        double t = i * (1000.0 * T / 1000000.0) * (1.0 + 0.3 * sin(i)); /* uneven steps */
        double x[2], v[2], E;
        CHECK(m.type->exact(m.self, work, t, x, v) == 0, "exact failed at t=%g", t);
        double M = vb_kepler_reduce(t);
        vb_kepler_solve(k, 0.99, M, NAN, &E, NULL, NULL);
        double r = (double)fabsl(kepler_residual(E, 0.99, M));
        worst = max_or_nan(worst, r);
        /* the position must be the ellipse point of that E */
        double want_x = cos(E) - 0.99;
        if (!(fabs(x[0] - want_x) <= 1e-13))
            CHECK(0, "t=%g: x=%.17g, the cold solve gives %.17g", t, x[0], want_x);
    }
    vb_kepler_free(k);
    m.type->work_free(work);
    CHECK(worst <= KEPLER_TOL, "largest residual %.3g over 1000 periods", worst);
}

/* ---- the exact solutions against their equations ------------------------ */

/* Richardson-extrapolated central differences: truncation O(d^4), and with
 * d = 2e-3 the round-off is ~ eps |x| / d^2 ~ 1e-10.  1e-7 relative to the
 * size of the acceleration leaves a margin of 1000 on both, and is still
 * far below any error in a formula (a wrong sign, a k for an m). */
#define FD_STEP 2e-3
#define FD_TOL 1e-7

/* a state of up to 128 components: the largest built-in system (a chain of
 * 64) has 64 */
#define POINT_MAX 128
typedef struct {
    double x[POINT_MAX], v[POINT_MAX];
} point;

static point at(const vb_model *m, void *work, double t)
{
    point p;
    if (m->type->exact(m->self, work, t, p.x, p.v) != 0)
        memset(&p, 0xff, sizeof p); /* NaN: fails every check */
    return p;
}

static void check_ode(const char *model, const char *const *sets, double t_max, double a_scale)
{
    vb_model m = test_model(model, sets);
    void *work = m.type->work_alloc ? m.type->work_alloc(m.self) : NULL;
    size_t dim = m.n;
    CHECK(dim <= POINT_MAX, "test bug: %zu components", dim);
    double worst_a = 0.0, worst_v = 0.0;
    for (int i = 0; i <= 200; i++) {
        double t = t_max * i / 200.0 + 0.0123;
        double d = FD_STEP;
        point c = at(&m, work, t);
        point p1 = at(&m, work, t + d), m1 = at(&m, work, t - d);
        point p2 = at(&m, work, t + d / 2), m2 = at(&m, work, t - d / 2);
        double a[POINT_MAX];
        m.type->accel(m.self, t, c.x, c.v, a);
        for (size_t k = 0; k < dim; k++) {
            double D1 = (p1.x[k] - 2 * c.x[k] + m1.x[k]) / (d * d);
            double D2 = (p2.x[k] - 2 * c.x[k] + m2.x[k]) / (d * d / 4);
            double acc = (4 * D2 - D1) / 3;
            double V1 = (p1.x[k] - m1.x[k]) / (2 * d), V2 = (p2.x[k] - m2.x[k]) / d;
            double vel = (4 * V2 - V1) / 3;
            worst_a = max_or_nan(worst_a, fabs(acc - a[k]));
            worst_v = max_or_nan(worst_v, fabs(vel - c.v[k]));
        }
    }
    if (work)
        m.type->work_free(work);
    CHECK(worst_a <= FD_TOL * a_scale, "%s: x'' differs from the force law by %.3g", model, worst_a);
    CHECK(worst_v <= FD_TOL * a_scale, "%s: v differs from dx/dt by %.3g", model, worst_v);
}

static void test_exact_spring_satisfies_ode(void)
{
    const char *const sets[] = {"k=3", "m=0.7", "x0=0.4", "v0=-1.1", NULL};
    check_ode("spring", sets, 30.0, 5.0);
}

static void test_exact_damped_spring_satisfies_ode(void)
{
    const char *const sets[] = {"k=3", "m=0.7", "c=0.5", "x0=0.4", "v0=-1.1", NULL};
    check_ode("damped-spring", sets, 30.0, 5.0);
}

static void test_exact_projectile_satisfies_ode(void)
{
    check_ode("projectile", NULL, 3.0, 10.0);
}

static void test_exact_pendulum_satisfies_ode(void)
{
    /* theta'' = -(g/L) sin theta, also near the top and after many periods */
    const char *const small[] = {"theta0=0.1", NULL};
    const char *const big[] = {"theta0=3.0", NULL};
    const char *const other[] = {"g=2", "L=3", "theta0=2", NULL};
    check_ode("pendulum", NULL, 200.0, 10.0);
    check_ode("pendulum", small, 20.0, 10.0);
    check_ode("pendulum", big, 200.0, 10.0);
    check_ode("pendulum", other, 200.0, 1.0);
}

static void test_exact_orbit_satisfies_ode(void)
{
    const char *const e5[] = {"e=0.5", NULL};
    const char *const e0[] = {"e=0", "a=2", "mu=3", NULL};
    check_ode("orbit", e5, 40.0, 8.0);
    check_ode("orbit", e0, 40.0, 1.0);
}

static void test_exact_chain_and_pair_satisfy_ode(void)
{
    const char *const chain8[] = {"N=8", "k=3", "amp=0.5", NULL};
    const char *const chain64[] = {"N=64", NULL};
    const char *const pair[] = {"m1=2", "m2=0.3", "e=0.6", NULL};
    check_ode("chain", chain8, 30.0, 5.0);
    check_ode("chain", chain64, 30.0, 1.0);
    check_ode("two-body", pair, 20.0, 10.0);
}

/* Energy and angular momentum are constant along the exact orbit.  At
 * e = 0.99 the terms of v^2/2 - mu/r reach (1+e)/(1-e) = 199 and cancel to
 * -1/2: round-off of 400 eps / 0.5 ~ 2e-13 is the floor; allow 1e-12. */
static void test_exact_orbit_conserves_invariants(void)
{
    static const char *const ecc[] = {"e=0", "e=0.5", "e=0.9", "e=0.99"};
    for (size_t i = 0; i < 4; i++) {
        const char *const sets[] = {ecc[i], NULL};
        vb_model m = test_model("orbit", sets);
        void *work = m.type->work_alloc(m.self);
        double x[2], v[2];
        m.type->initial(m.self, x, v);
        double E0 = m.type->energy(m.self, x, v), L0;
        vb_angmom(&m, x, v, &L0);
        CHECK_REL(E0, -0.5, 1e-12, "orbit energy is -mu/2a");
        double worst_e = 0.0, worst_l = 0.0;
        for (int k = 0; k <= 100000; k++) {
            double t = k * 0.0628318 * 3.1; /* ~ 100 periods, no commensurability */
            point p = at(&m, work, t);
            double de = fabs(m.type->energy(m.self, p.x, p.v) - E0) / 0.5;
            double l;
            vb_angmom(&m, p.x, p.v, &l);
            double dl = fabs(l - L0) / L0;
            worst_e = max_or_nan(worst_e, de);
            worst_l = max_or_nan(worst_l, dl);
        }
        m.type->work_free(work);
        CHECK(worst_e <= 1e-12, "%s: exact energy changes by %.3g", ecc[i], worst_e);
        CHECK(worst_l <= 1e-12, "%s: exact angular momentum changes by %.3g", ecc[i], worst_l);
    }
}

static void test_exact_pendulum_period_and_energy(void)
{
    vb_model m = test_model("pendulum", NULL);
    double T = m.type->natural_time(m.self), x0[1], v0[1];
    m.type->initial(m.self, x0, v0);
    /* the period of a 1 rad pendulum: 4 K(k)/w, k = sin 0.5, K = 1.674993916092613
     * (mpmath.ellipk(sin(0.5)**2), 30 digits) */
    CHECK_REL(T, 4.0 * 1.674993916092613 / sqrt(9.81), 1e-14, "pendulum period");
    point p = at(&m, NULL, 50 * T);
    CHECK_ABS(p.x[0], 1.0, 1e-12, "theta after 50 periods");
    double E0 = m.type->energy(m.self, x0, v0), worst = 0.0;
    for (int k = 0; k < 10000; k++) {
        point q = at(&m, NULL, k * 0.0371);
        double d = fabs(m.type->energy(m.self, q.x, q.v) - E0) / E0;
        worst = max_or_nan(worst, d);
    }
    CHECK(worst <= 1e-13, "exact pendulum energy changes by %.3g", worst);
}

/* The elliptic functions from k and k' (elliptic.h) against GSL's, which
 * take m = k^2, where m is far enough from 1 for GSL to be accurate; and
 * the identities sn^2 + cn^2 = 1, dn^2 + k^2 sn^2 = 1 near the top, where
 * GSL cannot go.  16 ulps against GSL: GSL's own error reaches 13 ulps at
 * k = 0.9, |u| ~ 5 (against mpmath at 40 digits, where ours stays within
 * 4: the pendulum test measures ours against mpmath directly); 8 ulps for
 * the identities, each a dozen roundings deep. */
static void test_jacobi_functions(void)
{
    static const double ks[] = {0.0, 0.1, 0.5, 0.9, 0.99};
    const double gsl_tol = 16 * DBL_EPSILON, tol = 8 * DBL_EPSILON;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        double k = ks[i], kc = sqrt((1 - k) * (1 + k));
        CHECK_REL(vb_ellint_K(kc), gsl_sf_ellint_Kcomp(k, GSL_PREC_DOUBLE), gsl_tol, "K");
        for (double u = -7.0; u <= 7.0; u += 0.37) {
            double sn, cn, dn, gs, gc, gd;
            CHECK(vb_jacobi(u, k, kc, &sn, &cn, &dn) == 0, "vb_jacobi");
            gsl_sf_elljac_e(u, k * k, &gs, &gc, &gd);
            CHECK_ABS(sn, gs, gsl_tol, "sn");
            CHECK_ABS(cn, gc, gsl_tol, "cn");
            CHECK_ABS(dn, gd, gsl_tol, "dn");
        }
    }
    /* theta0 = pi - 1e-12: k' = 5e-13, where m = k^2 is 1 to 25 digits */
    double half = 0.5 * (M_PI - 1e-12), k = sin(half), kc = cos(half), K = vb_ellint_K(kc);
    CHECK_REL(K, log(4.0 / kc), 1e-12, "K ~ ln(4/k') near k = 1 (error O(k'^2 ln k'))");
    for (double u = -K; u <= K; u += K / 16) {
        double sn, cn, dn;
        vb_jacobi(u, k, kc, &sn, &cn, &dn);
        CHECK_ABS(sn * sn + cn * cn, 1.0, tol, "sn^2 + cn^2");
        CHECK_ABS(dn * dn + k * k * sn * sn, 1.0, tol, "dn^2 + k^2 sn^2");
    }
    double sn, cn, dn;
    vb_jacobi(K, k, kc, &sn, &cn, &dn);
    /* dn(K) = k', where the textbook cos(phi_0)/cos(phi_1 - phi_0) is 0/0;
     * off only by cn(K)^2/(2 k') ~ 4e-21 (cos of the double nearest pi/2
     * is 6e-17), which moves theta by as much: far below its ulp */
    CHECK_ABS(dn, kc, 1e-19, "dn(K) = k'");
}

/* The reference solution (truth.c: GSL's rk8pd at 1e-14) against the exact
 * solutions it does not need, at every step time of fixed and random plans
 * of T/100 .. T/10000, on five models and the 64-mass chain:
 *  - it agrees with them to 1e-12 of the size of the state, in position
 *    and in velocity each (docs/method.md §3; measured: 4.6e-13; at a
 *    tolerance of 1e-13 it was 1.8e-12, which is why the tolerance is
 *    1e-14);
 *  - its estimate of its own error (the distance to a second reference ten
 *    times tighter) does not understate the true error by more than the
 *    ratio of the two tolerances, 10 (measured: 1.8), so that an error
 *    fitted above VB_REF_RESOLUTION = 100 times the estimate is ten times
 *    the reference's own at least. */
static void test_reference_accuracy(void)
{
    static const char *const n64[] = {"N=64", NULL};
    static const struct {
        const char *model;
        const char *const *sets;
    } cases[] = {
        {"orbit", NULL},    {"spring", NULL}, {"two-body", NULL},
        {"pendulum", NULL}, {"chain", NULL},  {"chain", n64},
    };
    double worst = 0.0, worst_abs = 0.0;
    for (size_t mi = 0; mi < sizeof cases / sizeof cases[0]; mi++) {
        const char *name = cases[mi].model;
        vb_model m = test_model(name, cases[mi].sets);
        double T = m.type->natural_time(m.self);
        size_t n = m.n;
        /* the size of the state: the largest |x| and |v| of the exact one */
        double size_x = 0.0, size_v = 0.0;
        static const double fractions[] = {100, 1000, 10000};
        for (int k = 0; k < 3; k++)
            for (int kind = 0; kind < 2; kind++) {
                vb_plan_spec ps = {.kind = kind ? VB_PLAN_RANDOM : VB_PLAN_FIXED, .t_end = T,
                                   .dt = T / fractions[k], .jitter = 0.5, .seed = 3};
                vb_plan p;
                CHECK(vb_plan_begin(&p, &ps) == 0, "plan");
                vb_truth *ref = vb_truth_alloc_reference(&m), *ex = vb_truth_alloc(&m);
                double *a = malloc(4 * n * sizeof *a), h, t, err_x = 0.0, err_v = 0.0;
                CHECK(ref && ex && a, "out of memory");
                while (vb_plan_next(&p, &h, &t)) {
                    CHECK(vb_truth_at(ref, t, a, a + n) == 0 && vb_truth_at(ex, t, a + 2 * n,
                                                                            a + 3 * n) == 0,
                          "%s: a solution failed at t = %g", name, t);
                    err_x = max_or_nan(err_x, vb_distance(a, a + 2 * n, n));
                    err_v = max_or_nan(err_v, vb_distance(a + n, a + 3 * n, n));
                    size_x = max_or_nan(size_x, vb_magnitude(a + 2 * n, n));
                    size_v = max_or_nan(size_v, vb_magnitude(a + 3 * n, n));
                }
                double est_x = vb_truth_err_pos(ref), est_v = vb_truth_err_vel(ref);
                CHECK(err_x <= 1e-12 * size_x && err_v <= 1e-12 * size_v,
                      "%s (%zu components), dt = T/%g %s: the reference is off by %.3g of %.3g "
                      "(velocity %.3g of %.3g): more than 1e-12 of the state",
                      name, n, fractions[k], kind ? "random" : "fixed", err_x, size_x, err_v,
                      size_v);
                CHECK(est_x > 0 && err_x <= 10.0 * est_x && err_v <= 10.0 * est_v,
                      "%s (%zu components), dt = T/%g %s: the reference is off by %.3g "
                      "(velocity %.3g), its estimate says %.3g (%.3g)",
                      name, n, fractions[k], kind ? "random" : "fixed", err_x, err_v, est_x,
                      est_v);
                worst = max_or_nan(worst, err_x / est_x);
                worst_abs = max_or_nan(worst_abs, max_or_nan(err_x / size_x, err_v / size_v));
                vb_truth_free(ref);
                vb_truth_free(ex);
                vb_plan_end(&p);
                free(a);
            }
    }
    unit_note("the reference against the exact solutions: at most %.2g of the state; its true "
              "error over its estimate: at most %.2f",
              worst_abs, worst);
}

/* The figure-eight returns to its start after one period, under rk4 at
 * small steps: an independent check of the initial conditions, the period
 * and the force law (a wrong sign or a missing pair never closes the
 * figure).  rk4 at T/20000 is off by ~(3e-4)^4 ~ 1e-14 over the period,
 * so what is left is how near the 8-digit initial conditions and period
 * (Simó's) lie to the periodic orbit: an error of 1e-8 in them, grown over
 * one period, stays below 1e-6.  The reference solution must close it as
 * well (it is the truth every run is measured against), and the two agree
 * with each other far better. */
static void test_figure_eight_returns(void)
{
    vb_model m = test_model("figure-eight", NULL);
    double T = m.type->natural_time(m.self);
    vb_run_spec spec = {.integ = vb_integrator_find("rk4"), .model = &m};
    spec.plan.kind = VB_PLAN_FIXED;
    spec.plan.t_end = T;
    spec.plan.dt = T / 20000;
    vb_run_result r;
    char err[256];
    CHECK(vb_simulate(&spec, &r, err, sizeof err) == 0, "%s", err);
    CHECK(r.has_return && r.err_return <= 1e-6,
          "rk4 at T/20000: %.3g from the start after one period (bound 1e-6)", r.err_return);
    /* the reference at T */
    size_t n = m.n;
    double x0[12], v0[12], x[12], v[12];
    m.type->initial(m.self, x0, v0);
    vb_truth *tr = vb_truth_alloc(&m);
    CHECK(tr && vb_truth_at(tr, T, x, v) == 0, "the reference failed");
    double ref_return = vb_distance(x, x0, n);
    CHECK(ref_return <= 1e-6, "the reference: %.3g from the start after one period", ref_return);
    CHECK(fabs(ref_return - r.err_return) <= 1e-9,
          "rk4 and the reference close the orbit differently: %.3g and %.3g", r.err_return,
          ref_return);
    unit_note("figure-eight after one period: rk4 %.3g, reference %.3g from the start",
              r.err_return, ref_return);
    vb_truth_free(tr);
}

/* The reference conserves Henon-Heiles' energy to its tolerance: at every
 * time asked for over 10 natural times (20 pi), at the regular energy 1/12
 * and the chaotic 1/6, |E - E0| / E0 stays below 100 times VB_REF_TOL.
 * Each step may err by the tolerance in every component, and the energy
 * error of an 8th-order method does not drift systematically at this size;
 * 100x is room for the ~10^3 steps' errors adding up as a random walk
 * (sqrt(1000) ~ 30), not for a wrong force, which drifts by 1e-6 or more. */
static void test_reference_conserves_henon_heiles_energy(void)
{
    static const char *const regular[] = {"E=0.083333333333333333", NULL};
    static const char *const chaotic[] = {"E=0.16666666666666667", NULL};
    const char *const *sets[] = {regular, chaotic};
    for (int c = 0; c < 2; c++) {
        vb_model m = test_model("henon-heiles", sets[c]);
        double x[2], v[2];
        m.type->initial(m.self, x, v);
        double E0 = m.type->energy(m.self, x, v), worst = 0.0;
        vb_truth *tr = vb_truth_alloc(&m);
        CHECK(tr && vb_truth_is_reference(tr), "Henon-Heiles has no exact solution");
        double T = 10.0 * m.type->natural_time(m.self);
        for (int k = 1; k <= 20000; k++) {
            double t = T * k / 20000.0;
            CHECK(vb_truth_at(tr, t, x, v) == 0, "the reference failed at t = %g", t);
            worst = max_or_nan(worst, fabs(m.type->energy(m.self, x, v) - E0) / fabs(E0));
        }
        CHECK(worst <= 100.0 * VB_REF_TOL, "E = %.4g: energy off by %.3g of itself (bound %.3g)",
              E0, worst, 100.0 * VB_REF_TOL);
        unit_note("Henon-Heiles at E = %.4g: the reference's energy within %.2g of itself", E0,
                  worst);
        vb_truth_free(tr);
    }
}

/* ---- the chain's exact solution against its closed form --------------------
 *
 * Mode j of the chain moves mass i as sin(i j pi/(N+1)) at w_j = 2
 * sqrt(k/m) sin(j pi/(2(N+1))), so the pluck's modal coordinates q_j(t) =
 * 2/(N+1) sum_i x_i(t) sin(i j pi/(N+1)) move as q_j(0) cos(w_j t), each
 * one as a pure mode j pluck would, and q_j' as -q_j(0) w_j sin(w_j t).
 * Computed here in long double from the closed form, independently of the
 * model's FFT and its rotated phases. */
typedef struct {
    size_t n;
    size_t stride; /* the modes compared: j = 1, 1 + stride, ..., and N */
    long double *sines; /* sin(r pi/(N+1)), r = 0 .. 2N + 1 */
    long double *q0, *w;
    long double w_max, norm; /* norm: |q(0)|_2 */
} chain_ref;

static chain_ref chain_ref_make(const vb_model *m)
{
    /* every mode up to N = 4096; beyond, about 64 of them, the slowest
     * and the fastest among them (each costs O(N) here) */
    chain_ref r = {.n = m->n, .stride = m->n > 4096 ? m->n / 64 : 1};
    size_t n = r.n, len = 2 * (n + 1);
    r.sines = malloc(len * sizeof *r.sines);
    r.q0 = malloc(n * sizeof *r.q0);
    r.w = malloc(n * sizeof *r.w);
    double *x0 = malloc(2 * n * sizeof *x0);
    m->type->initial(m->self, x0, x0 + n);
    for (size_t k = 0; k < len; k++)
        r.sines[k] = sinl((long double)k * (long double)M_PI / (long double)(n + 1));
    long double w1 = sqrtl((long double)m->p[1] / (long double)m->p[2]);
    for (size_t j = 1; j <= n; j++) {
        long double q = 0.0L;
        r.w[j - 1] = 2.0L * w1 * sinl((long double)j * (long double)M_PI / (2.0L * (long double)(n + 1)));
        if ((j - 1) % r.stride == 0 || j == n)
            for (size_t i = 1; i <= n; i++)
                q += (long double)x0[i - 1] * r.sines[(i * j) % len];
        r.q0[j - 1] = 2.0L * q / (long double)(n + 1);
    }
    /* |q(0)|_2 by Parseval: the modes sqrt(2/(N+1)) sin(i j pi/(N+1)) are
     * orthonormal */
    for (size_t i = 0; i < n; i++)
        r.norm += (long double)x0[i] * (long double)x0[i];
    r.norm = sqrtl(2.0L * r.norm / (long double)(n + 1));
    r.w_max = r.w[n - 1];
    free(x0);
    return r;
}

static void chain_ref_free(chain_ref *r)
{
    free(r->sines);
    free(r->q0);
    free(r->w);
}

/* the modal coordinates of a state: q_j, and q_j' / w_max */
static void chain_modes(const chain_ref *r, const double *x, const double *v, long double *q,
                        long double *qd)
{
    size_t n = r->n, len = 2 * (n + 1);
    for (size_t j = 1; j <= n; j++) {
        if ((j - 1) % r->stride != 0 && j != n)
            continue;
        long double sq = 0.0L, sqd = 0.0L;
        for (size_t i = 1; i <= n; i++) {
            long double s = r->sines[(i * j) % len];
            sq += (long double)x[i - 1] * s;
            sqd += (long double)v[i - 1] * s;
        }
        q[j - 1] = sq * 2.0L / (long double)(n + 1);
        qd[j - 1] = sqd * 2.0L / (long double)(n + 1) / r->w_max;
    }
}

/* the largest error of a state x, v at t in modal coordinates: |q_j - q_j(0)
 * cos w_j t| and |q_j' + q_j(0) w_j sin w_j t| / w_max; with a second
 * state y (x then v), the largest modal difference of the two instead */
static double chain_mode_error(const chain_ref *r, double t, const double *x, const double *v,
                               const double *y)
{
    size_t n = r->n;
    long double *q = malloc(4 * n * sizeof *q), *qd = q + n, *p = q + 2 * n, *pd = q + 3 * n;
    chain_modes(r, x, v, q, qd);
    if (y)
        chain_modes(r, y, y + n, p, pd);
    double worst = 0.0;
    for (size_t j = 0; j < n; j++) {
        if (j % r->stride != 0 && j + 1 != n)
            continue;
        long double ph = r->w[j] * (long double)t;
        long double want = y ? p[j] : r->q0[j] * cosl(ph);
        long double want_d = y ? pd[j] : -r->q0[j] * r->w[j] * sinl(ph) / r->w_max;
        worst = max_or_nan(worst, max_or_nan((double)fabsl(q[j] - want), (double)fabsl(qd[j] - want_d)));
    }
    free(q);
    return worst;
}

/* What the model's truth may miss the closed form by, in modal coordinates
 * (chain.c, "the phases"): the phases, rotated or by libm, within 3 u (w_j
 * t + 1) of cos and sin, and w_j itself within 4 u of its value (sqrt, sin
 * and three roundings), 4 u w_j t more: |q_j(0)| u (7 w_j t + 3) at most.
 * The two sine transforms (the pluck's amplitudes at set-up, the state at
 * t), each an FFT within 2 u log2(M) of the norm of what it transforms
 * (normwise, as the error of Cooley-Tukey's and Rader's algorithms grows
 * with log M), and the norm of
 * the modal coordinates is that of the state up to sqrt((N+1)/2): 4 u
 * log2(M) |q(0)|_2.  Summed over the worst mode. */
static double chain_bound(const chain_ref *r, double t)
{
    double u = DBL_EPSILON / 2.0, m = (double)(2 * (r->n + 1));
    double phases = 0.0;
    for (size_t j = 0; j < r->n; j++)
        phases = max_or_nan(phases, (double)fabsl(r->q0[j]) * u * (7.0 * (double)r->w[j] * fabs(t) + 3.0));
    return phases + 4.0 * u * log2(m) * (double)r->norm;
}

/* Steady steps (the phases rotated, re-anchored as t grows) of the pluck
 * against each mode's closed form, for N below and beyond the old limit of
 * 512 (set by an O(N^3) eigensolver) up to the new one, with M = 2(N+1)
 * smooth, with large prime factors (2 257, 2 4093, 2 65537: Rader's FFT)
 * and on the plain sum (N = 8). */
static void test_chain_modes_move_as_closed_form(void)
{
    static const char *const sets8[] = {"N=8", "k=2", "m=0.5", "amp=0.3", NULL};
    static const char *const sets64[] = {"N=64", NULL};
    static const char *const sets256[] = {"N=256", "k=3", NULL};
    static const char *const sets512[] = {"N=512", NULL};
    static const char *const sets1000[] = {"N=1000", "m=2", NULL};
    static const char *const sets4092[] = {"N=4092", NULL};
    static const char *const sets65536[] = {"N=65536", NULL};
    const char *const *sets[] = {sets8, sets64, sets256, sets512, sets1000, sets4092, sets65536};
    static const double h[] = {0.01, 0.01, 0.005, 0.01, 0.02, 0.02, 0.02};
    static const int steps[] = {20000, 20000, 4000, 3000, 1000, 200, 50};
    for (int c = 0; c < 7; c++) {
        vb_model m = test_model("chain", sets[c]);
        chain_ref r = chain_ref_make(&m);
        size_t n = m.n;
        double *x = malloc(2 * n * sizeof *x), worst = 0.0, worst_ratio = 0.0;
        void *work = m.type->work_alloc(m.self);
        CHECK(work && x, "chain of %zu: no work", n);
        for (int s = 1; s <= steps[c] && work && x; s++) {
            double t = (double)s * h[c];
            CHECK(m.type->exact(m.self, work, t, x, x + n) == 0, "chain of %zu: no exact state", n);
            if (s % (steps[c] / 10) != 0)
                continue;
            double e = chain_mode_error(&r, t, x, x + n, NULL), b = chain_bound(&r, t);
            CHECK(e <= b, "chain of %zu at t = %g: a mode off its closed form by %.3g (bound %.3g)",
                  n, t, e, b);
            worst = max_or_nan(worst, e);
            worst_ratio = max_or_nan(worst_ratio, e / b);
        }
        unit_note("chain of %zu, %d steady steps: modes within %.2e of their closed form (%.2f of "
                  "the bound)",
                  n, steps[c], worst, worst_ratio);
        m.type->work_free(work);
        free(x);
        chain_ref_free(&r);
    }
}

/* The same times reached in steady steps, in jumps (each call alone: the
 * phases by libm), and by a seeded random walk of steps from a few sizes,
 * forward and back (rotations by steps seen before, anchors between): all
 * three within the bound of the closed form at every time, and of each
 * other. */
static void test_chain_steady_steps_jumps_and_walks_agree(void)
{
    static const char *const sets[] = {"N=64", NULL};
    vb_model m = test_model("chain", sets);
    chain_ref r = chain_ref_make(&m);
    size_t n = m.n;
    double *a = malloc(6 * n * sizeof *a), *b = a + 2 * n, *c = a + 4 * n;
    void *steady = m.type->work_alloc(m.self), *walk = m.type->work_alloc(m.self);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    double h = 0.004, worst = 0.0, t_walk = 0.0;
    static const double sizes[] = {0.004, -0.004, 0.008, 0.0123};
    for (int s = 1; s <= 50000; s++) {
        double t = (double)s * h;
        CHECK(m.type->exact(m.self, steady, t, a, a + n) == 0, "no steady state at %g", t);
        t_walk += sizes[gsl_rng_uniform_int(rng, 4)];
        CHECK(m.type->exact(m.self, walk, t_walk, c, c + n) == 0, "no walk state at %g", t_walk);
        if (s % 5000 == 0)
            CHECK(chain_mode_error(&r, t_walk, c, c + n, NULL) <= chain_bound(&r, t_walk),
                  "the walk at t = %g: a mode off its closed form by %.3g", t_walk,
                  chain_mode_error(&r, t_walk, c, c + n, NULL));
        if (s % 5000 != 0)
            continue;
        void *jump = m.type->work_alloc(m.self);
        CHECK(m.type->exact(m.self, jump, t, b, b + n) == 0, "no jump state at %g", t);
        m.type->work_free(jump);
        double bound = chain_bound(&r, t);
        CHECK(chain_mode_error(&r, t, a, a + n, NULL) <= bound, "steady at t = %g: off by %.3g", t,
              chain_mode_error(&r, t, a, a + n, NULL));
        CHECK(chain_mode_error(&r, t, b, b + n, NULL) <= bound, "jump at t = %g: off by %.3g", t,
              chain_mode_error(&r, t, b, b + n, NULL));
        /* each within the bound of the closed form: within twice it of
         * each other, mode by mode */
        double d = chain_mode_error(&r, t, a, a + n, b);
        CHECK(d <= 2.0 * bound, "steady and jump differ by %.3g in a mode at t = %g", d, t);
        worst = max_or_nan(worst, d);
    }
    unit_note("chain of 64, 50000 steps of %g: steady and jump states within %.2e in modes", h,
              worst);
    gsl_rng_free(rng);
    m.type->work_free(steady);
    m.type->work_free(walk);
    free(a);
    chain_ref_free(&r);
}

/* The truth's energy over many rotated calls, against the pluck's: the
 * phases' magnitude (cos^2 + sin^2) drifts only by the rotations' rounding
 * since the last anchor, 5 u w_max L with L <= t/4 + 1/(8 w_max), and by
 * the final rounding, u; the energy is quadratic in them, so twice that,
 * plus the two transforms' (4 u log2 M, relative, twice for a square) and
 * the energy's own sums (N u each).  By libm (every call alone) the
 * magnitude is within 2 u at any t. */
static void test_chain_truth_conserves_energy(void)
{
    static const char *const sets[] = {"N=512", NULL};
    vb_model m = test_model("chain", sets);
    size_t n = m.n;
    double u = DBL_EPSILON / 2.0, logm = log2((double)(2 * (n + 1)));
    double *x = malloc(2 * n * sizeof *x), h = 0.01, worst_rot = 0.0, worst_dir = 0.0;
    m.type->initial(m.self, x, x + n);
    double E0 = m.type->energy(m.self, x, x + n), w_max = 2.0;
    void *work = m.type->work_alloc(m.self);
    for (int s = 1; s <= 30000; s++) {
        double t = (double)s * h;
        CHECK(m.type->exact(m.self, work, t, x, x + n) == 0, "no state at %g", t);
        double e = fabs(m.type->energy(m.self, x, x + n) - E0) / E0;
        double L = t / 4.0 + 1.0 / (8.0 * w_max);
        double bound = 2.0 * (5.0 * u * w_max * L + u) + 8.0 * u * logm + 2.0 * (double)n * u;
        CHECK(e <= bound, "rotated: energy off by %.3g of itself at t = %g (bound %.3g)", e, t,
              bound);
        worst_rot = max_or_nan(worst_rot, e);
        if (s % 1000 == 0) {
            void *alone = m.type->work_alloc(m.self);
            CHECK(m.type->exact(m.self, alone, t, x, x + n) == 0, "no state at %g", t);
            m.type->work_free(alone);
            e = fabs(m.type->energy(m.self, x, x + n) - E0) / E0;
            double direct = 2.0 * 2.0 * u + 8.0 * u * logm + 2.0 * (double)n * u;
            CHECK(e <= direct, "by libm: energy off by %.3g at t = %g (bound %.3g)", e, t, direct);
            worst_dir = max_or_nan(worst_dir, e);
        }
    }
    unit_note("chain of 512 to t = 300: the truth's energy within %.2e rotated, %.2e by libm",
              worst_rot, worst_dir);
    m.type->work_free(work);
    free(x);
}

/* ---- the linkage's equations of motion ------------------------------------ */

/* Lagrange's equations in the angles as linkage.h writes them, M theta'' =
 * f with M the dense mass matrix, solved by GSL's Cholesky: the truth the
 * model's O(n) tension solve must reproduce. */
static void linkage_dense(const vb_linkage *k, const double *q, const double *qd, double *qdd)
{
    size_t n = k->n;
    gsl_matrix *M = gsl_matrix_alloc(n, n);
    gsl_vector *f = gsl_vector_alloc(n), *x = gsl_vector_alloc(n);
    for (size_t i = 0; i < n; i++) {
        double fi = -k->g * k->l[i] * k->mu[i] * sin(q[i]);
        for (size_t j = 0; j < n; j++) {
            double w = k->l[i] * k->l[j] * k->mu[i > j ? i : j];
            gsl_matrix_set(M, i, j, w * cos(q[i] - q[j]));
            fi -= w * sin(q[i] - q[j]) * qd[j] * qd[j];
        }
        gsl_vector_set(f, i, fi);
    }
    CHECK(gsl_linalg_cholesky_decomp1(M) == 0, "dense mass matrix of %zu rods not positive", n);
    gsl_linalg_cholesky_solve(M, f, x);
    for (size_t i = 0; i < n; i++)
        qdd[i] = gsl_vector_get(x, i);
    gsl_vector_free(x);
    gsl_vector_free(f);
    gsl_matrix_free(M);
}

/* On random linkages (lengths and masses spread over a factor 10, angles
 * anywhere, angular velocities up to 3 rad/s) of 1 to 64 rods, the model's
 * accelerations against the dense solve.  Both are backward stable, so
 * they differ by round-off times the dense M's condition number, which
 * grows with n: measured 4.4e-14 of the largest acceleration up to 16 rods
 * (held to 1e-12) and 1.1e-12 up to 64 (held to 1e-11). */
static void test_linkage_tension_solve(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 32);
    static const size_t sizes[] = {1, 2, 3, 4, 7, 16, 33, 64};
    double worst16 = 0.0, worst64 = 0.0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        for (int trial = 0; trial < 20; trial++) {
            double l[VB_LINKAGE_MAX], m[VB_LINKAGE_MAX], th[VB_LINKAGE_MAX];
            double q[VB_LINKAGE_MAX], qd[VB_LINKAGE_MAX], a[VB_LINKAGE_MAX], b[VB_LINKAGE_MAX];
            for (size_t i = 0; i < n; i++) {
                l[i] = 0.1 + gsl_rng_uniform(r);
                m[i] = 0.1 + gsl_rng_uniform(r);
                th[i] = 0.0;
                q[i] = M_PI * (2.0 * gsl_rng_uniform(r) - 1.0);
                qd[i] = 3.0 * (2.0 * gsl_rng_uniform(r) - 1.0);
            }
            vb_linkage k;
            char err[256];
            CHECK(vb_linkage_init(&k, n, 9.81, l, m, th, err, sizeof err) == 0, "%s", err);
            vb_linkage_ref_accel(&k, 0.0, q, qd, a);
            linkage_dense(&k, q, qd, b);
            double big = 0.0, diff = 0.0;
            for (size_t i = 0; i < n; i++) {
                big = max_or_nan(big, fabs(b[i]));
                diff = max_or_nan(diff, fabs(a[i] - b[i]));
            }
            double rel = diff / big;
            if (n <= 16)
                worst16 = max_or_nan(worst16, rel);
            worst64 = max_or_nan(worst64, rel);
            CHECK(rel <= (n <= 16 ? 1e-12 : 1e-11),
                  "%zu rods, trial %d: tension solve vs dense Cholesky differ by %.3g of the largest",
                  n, trial, rel);
        }
    }
    gsl_rng_free(r);
    unit_note("linkage: O(n) tension solve vs dense Cholesky, up to 16 rods %.2e, up to 64 %.2e",
              worst16, worst64);
}

/* Closed forms: one rod is the pendulum, theta'' = -(g/l) sin theta; two
 * are the textbook double pendulum (angles from the downward vertical,
 * d = theta1 - theta2, D = 2 m1 + m2 - m2 cos 2d):
 *   theta1'' = (-g (2 m1 + m2) sin theta1 - m2 g sin(theta1 - 2 theta2)
 *               - 2 sin d m2 (theta2'^2 l2 + theta1'^2 l1 cos d)) / (l1 D),
 *   theta2'' = 2 sin d (theta1'^2 l1 (m1 + m2) + g (m1 + m2) cos theta1
 *               + theta2'^2 l2 m2 cos d) / (l2 D).
 * Each side a few roundings of terms of the size of the result: 1e-13. */
static void test_linkage_closed_forms(void)
{
    char err[256];
    vb_linkage k;
    const double g = 9.81, zero[2] = {0.0, 0.0};
    double l1 = 0.7, m1 = 1.3;
    CHECK(vb_linkage_init(&k, 1, g, &l1, &m1, zero, err, sizeof err) == 0, "%s", err);
    for (int s = -6; s <= 6; s++) {
        double q = 0.5 * s, qd = 1.0 - 0.3 * s, a;
        vb_linkage_ref_accel(&k, 0.0, &q, &qd, &a);
        CHECK_ABS(a, -(g / l1) * sin(q), 1e-13 * (g / l1), "one rod");
    }
    const double l[2] = {1.0, 0.7}, m[2] = {1.0, 0.5};
    CHECK(vb_linkage_init(&k, 2, g, l, m, zero, err, sizeof err) == 0, "%s", err);
    for (int s = 0; s < 25; s++) {
        double q[2] = {-2.0 + 0.17 * s, 1.5 - 0.23 * s}, qd[2] = {2.0 - 0.2 * s, -1.0 + 0.11 * s}, a[2];
        vb_linkage_ref_accel(&k, 0.0, q, qd, a);
        double d = q[0] - q[1], D = 2.0 * m[0] + m[1] - m[1] * cos(2.0 * d);
        double a1 = (-g * (2.0 * m[0] + m[1]) * sin(q[0]) - m[1] * g * sin(q[0] - 2.0 * q[1]) -
                     2.0 * sin(d) * m[1] * (qd[1] * qd[1] * l[1] + qd[0] * qd[0] * l[0] * cos(d))) /
                    (l[0] * D);
        double a2 = 2.0 * sin(d) *
                    (qd[0] * qd[0] * l[0] * (m[0] + m[1]) + g * (m[0] + m[1]) * cos(q[0]) +
                     qd[1] * qd[1] * l[1] * m[1] * cos(d)) /
                    (l[1] * D);
        double scale = fmax(fabs(a1), fabs(a2)) + g;
        CHECK_ABS(a[0], a1, 1e-13 * scale, "double pendulum theta1''");
        CHECK_ABS(a[1], a2, 1e-13 * scale, "double pendulum theta2''");
    }
}

/* ---- parameters ------------------------------------------------------------ */

static void test_model_parameters_are_checked(void)
{
    vb_model m;
    char err[512];
    vb_model_defaults(&m, vb_model_find("orbit"));
    CHECK(vb_model_set(&m, "e", "1", err, sizeof err) == -2, "e = 1 accepted");
    CHECK(strstr(err, "[0, 1)") != NULL, "message should give the range: %s", err);
    CHECK(vb_model_set(&m, "e", "-0.1", err, sizeof err) == -2, "e = -0.1 accepted");
    CHECK(vb_model_set(&m, "e", "nan", err, sizeof err) == -2, "e = nan accepted");
    CHECK(vb_model_set(&m, "e", "0.5x", err, sizeof err) == -2, "e = 0.5x accepted");
    CHECK(vb_model_set(&m, "e", "0.99", err, sizeof err) == 0, "e = 0.99 refused: %s", err);
    CHECK(vb_model_set(&m, "ecc", "0.5", err, sizeof err) == -1, "unknown key accepted");
    CHECK(strstr(err, "mu, a, e") != NULL, "message should list the keys: %s", err);
    vb_model_defaults(&m, vb_model_find("damped-spring"));
    CHECK(vb_model_set(&m, "c", "3", err, sizeof err) == 0, "c = 3 refused");
    CHECK(vb_model_setup(&m, err, sizeof err) != 0, "an over-damped spring was accepted");
}

void suite_models(void)
{
    RUN(test_kepler_cold_start);
    RUN(test_kepler_along_many_periods);
    RUN(test_remainder_same_bits);
    RUN(test_exact_spring_satisfies_ode);
    RUN(test_exact_damped_spring_satisfies_ode);
    RUN(test_exact_projectile_satisfies_ode);
    RUN(test_exact_pendulum_satisfies_ode);
    RUN(test_exact_orbit_satisfies_ode);
    RUN(test_exact_chain_and_pair_satisfy_ode);
    RUN(test_exact_orbit_conserves_invariants);
    RUN(test_exact_pendulum_period_and_energy);
    RUN(test_jacobi_functions);
    RUN(test_reference_accuracy);
    RUN(test_figure_eight_returns);
    RUN(test_reference_conserves_henon_heiles_energy);
    RUN(test_chain_modes_move_as_closed_form);
    RUN(test_chain_steady_steps_jumps_and_walks_agree);
    RUN(test_chain_truth_conserves_energy);
    RUN(test_linkage_tension_solve);
    RUN(test_linkage_closed_forms);
    RUN(test_model_parameters_are_checked);
}
