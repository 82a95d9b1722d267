/* test_sweep.c — sweeps: fitted orders, verdicts, one-step exponents and
 * reversibility against what theory says they must be. */
#include <float.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "casefile.h"
#include "integrator.h"
#include "sweep.h"
#include "unit.h"

static vb_case load(const char *text)
{
    vb_case c;
    char err[1024];
    if (vb_case_parse("test.case", text, strlen(text), &c, err, sizeof err) != 0) {
        fprintf(stderr, "test bug: %s\n", err);
        exit(2);
    }
    return c;
}

static void sweep(const vb_case *c, vb_sweep *s)
{
    char err[512];
    if (vb_sweep_run(c, s, 1e9, 0, 1, NULL, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "test bug: %s\n", err);
        exit(2);
    }
}

static const vb_order_row *order(const vb_sweep *s, const char *integ, vb_plan_kind kind,
                                 vb_norm norm)
{
    for (size_t k = 0; k < s->n_orders; k++)
        if (!strcmp(s->c->integ[s->orders[k].integ]->name, integ) && s->orders[k].kind == kind &&
            s->orders[k].norm == norm)
            return &s->orders[k];
    fprintf(stderr, "test bug: no order row for %s\n", integ);
    exit(2);
}

static const vb_onestep_row *onestep(const vb_sweep *s, const char *integ, int ratio)
{
    for (size_t k = 0; k < s->n_onestep; k++)
        if (!strcmp(s->c->integ[s->onestep[k].integ]->name, integ) && s->onestep[k].ratio == ratio)
            return &s->onestep[k];
    fprintf(stderr, "test bug: no one-step row for %s\n", integ);
    exit(2);
}

/* A generic start and end: at t_end = T the phase error drops out of x
 * (sin wT = 0) and the final-position error superconverges; from rest
 * (v0 = 0) symplectic Euler's O(h) velocity offset a0 h/2 and its phase
 * error cancel, leaving a second-order velocity error. */
static const char spring_case[] = "[case]\nmodel = spring\nv0 = 0.7\nt_end = 7.3\n"
                                  "[steps]\ndt = 0.05\nhalvings = 6\njitter = 0.5\nseeds = 8\n"
                                  "[integrators]\nuse = all\n";

/* ---- the fit itself, on errors whose order is known exactly ------------- */

static void test_fit_recovers_exact_power_laws(void)
{
    double dt[8], err[8], scale[8];
    for (int p = 1; p <= 5; p++) {
        for (int k = 0; k < 8; k++) {
            dt[k] = 0.1 * ldexp(1.0, -k);
            err[k] = 0.03 * pow(dt[k], p);
            scale[k] = 1.0;
        }
        vb_fit fit;
        vb_fit_order(dt, err, scale, NULL, NULL, 8, &fit);
        /* points under 1e3 eps are dropped: p = 5 keeps fewer */
        CHECK_ABS(fit.order, p, 1e-9, "order of c dt^p");
        CHECK(fit.range == VB_RANGE_ASYMPTOTIC, "range %s", vb_range_name(fit.range));
        for (int k = fit.first; k <= fit.last; k++)
            CHECK(err[k] > 1e3 * DBL_EPSILON, "a point at round-off was fitted: %g", err[k]);
    }
}

static void test_fit_drops_floor_and_transient(void)
{
    /* a pre-asymptotic start (error falls like dt^2), then dt^1, then
     * round-off: the order is the 1 of the fine end, over those points */
    double dt[8], scale[8], err[8] = {0.05, 0.0125, 0.003125, 0.0015625, 0.00078125, 0.000390625,
                                      1e-14, 2e-14};
    for (int k = 0; k < 8; k++) {
        dt[k] = ldexp(1.0, -k);
        scale[k] = 1.0;
    }
    vb_fit fit;
    vb_fit_order(dt, err, scale, NULL, NULL, 8, &fit);
    CHECK_ABS(fit.order, 1.0, 1e-9, "order of the settled points");
    CHECK(fit.first == 2 && fit.last == 5, "fitted points %d..%d, want 2..5", fit.first, fit.last);
    CHECK(vb_fit_verdict(&fit, 1) == VB_VERDICT_AS_EXPECTED, "verdict");
    CHECK(vb_fit_verdict(&fit, 2) == VB_VERDICT_BELOW, "verdict against a label of 2");
}

static void test_fit_exact_and_saturated(void)
{
    double dt[4] = {1, 0.5, 0.25, 0.125}, scale[4] = {1, 1, 1, 1};
    double tiny[4] = {1e-15, 3e-16, 0, 2e-15};
    vb_fit fit;
    vb_fit_order(dt, tiny, scale, NULL, NULL, 4, &fit);
    CHECK(fit.exact && vb_fit_verdict(&fit, 2) == VB_VERDICT_EXACT, "round-off everywhere is exact");
    /* an error that never falls below the size of the solution: no power
     * law; the trend (order 0) says the error does not converge */
    double flat[4] = {0.9, 1.1, 0.95, 1.0};
    vb_fit_order(dt, flat, scale, NULL, NULL, 4, &fit);
    CHECK(fit.range == VB_RANGE_ALL, "range %s", vb_range_name(fit.range));
    CHECK(fabs(fit.order) < 0.1 && vb_fit_verdict(&fit, 2) == VB_VERDICT_NOT_CONVERGING,
          "order %g, verdict %s", fit.order, vb_verdict_name(vb_fit_verdict(&fit, 2)));
}

/* A trend over all points never earns as-expected (nor above or below the
 * label): an error that falls like dt at first and then saturates at 0.43
 * of a solution of size 0.62 (the damped spring under verlet-naive on a
 * frame trace) has a trend of about 1 over its points, and a label of 1;
 * it is not converging.  One that falls ever faster towards its label but
 * is still above a tenth of the solution has reached no asymptotic range. */
static void test_trend_never_earns_the_label(void)
{
    double dt[6] = {0.05, 0.025, 0.0125, 0.00625, 0.003125, 0.0015625};
    double scale[6] = {0.62, 0.62, 0.62, 0.62, 0.62, 0.62};
    double saturating[6] = {16, 4.0, 1.0, 0.44, 0.4301, 0.43};
    vb_fit fit;
    vb_fit_order(dt, saturating, scale, NULL, NULL, 6, &fit);
    CHECK(fit.range == VB_RANGE_ALL && fabs(fit.order - 1.0) < 0.25,
          "the trend is about 1: range %s, order %g", vb_range_name(fit.range), fit.order);
    CHECK(vb_fit_verdict(&fit, 1) == VB_VERDICT_NOT_CONVERGING, "saturating: verdict %s",
          vb_verdict_name(vb_fit_verdict(&fit, 1)));
    /* local orders 0.6, 0.7, 0.8, 0.9, 0.95, every error above 0.1 scale */
    double approaching[6];
    static const double p[5] = {0.6, 0.7, 0.8, 0.9, 0.95};
    approaching[0] = 40.0;
    for (int k = 0; k < 5; k++)
        approaching[k + 1] = approaching[k] / pow(2.0, p[k]);
    vb_fit_order(dt, approaching, scale, NULL, NULL, 6, &fit);
    CHECK(fit.range == VB_RANGE_ALL, "approaching: range %s", vb_range_name(fit.range));
    CHECK(vb_fit_verdict(&fit, 1) == VB_VERDICT_NO_ASYMPTOTIC, "approaching: verdict %s",
          vb_verdict_name(vb_fit_verdict(&fit, 1)));
}

/* Why a trend (issue 51.9): errors above 0.1 of the solution's size are
 * saturated and left out of a power law, and where that rule is why no
 * range was found, the fit says so.  Local orders 1.006, 1.004, 1.002,
 * 1.001 from 0.8: three errors above 0.1, two below, no window of three;
 * with the saturated ones in, one power law.  Errors below 0.1 whose
 * local orders scatter (a random plan's median: 2.4, 3.7, 1.8, 3.9, 0.8)
 * have no range for the other reason, and none is saturated. */
static void test_trend_says_saturation(void)
{
    double dt[6] = {0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125}, scale[6] = {1, 1, 1, 1, 1, 1};
    double err[6];
    static const double p[5] = {1.006, 1.004, 1.002, 1.001, 1.001};
    err[0] = 0.8;
    for (int k = 0; k < 5; k++)
        err[k + 1] = err[k] / pow(2.0, p[k]);
    vb_fit fit;
    vb_fit_order(dt, err, scale, NULL, NULL, 5, &fit);
    CHECK(fit.range == VB_RANGE_ALL && vb_fit_verdict(&fit, 1) == VB_VERDICT_NO_ASYMPTOTIC,
          "slopes of 1.00 through 0.1: range %s, verdict %s", vb_range_name(fit.range),
          vb_verdict_name(vb_fit_verdict(&fit, 1)));
    CHECK(fit.saturated == 3 && fit.saturation_hid_range,
          "three saturated errors hid the power law: %d, %d", fit.saturated,
          fit.saturation_hid_range);
    /* one step finer: three unsaturated points, the range found */
    vb_fit_order(dt, err, scale, NULL, NULL, 6, &fit);
    CHECK(fit.range == VB_RANGE_ASYMPTOTIC && fit.saturated == 3 && !fit.saturation_hid_range,
          "with a sixth step: range %s, saturated %d, hid %d", vb_range_name(fit.range),
          fit.saturated, fit.saturation_hid_range);
    static const double q[5] = {2.4, 3.7, 1.8, 3.9, 0.8};
    err[0] = 0.05;
    for (int k = 0; k < 5; k++)
        err[k + 1] = err[k] / pow(2.0, q[k]);
    vb_fit_order(dt, err, scale, NULL, NULL, 6, &fit);
    CHECK(fit.range == VB_RANGE_ALL && fit.saturated == 0 && !fit.saturation_hid_range,
          "scattered local orders below 0.1: range %s, saturated %d, hid %d",
          vb_range_name(fit.range), fit.saturated, fit.saturation_hid_range);
}

/* docs/method.md §5: not-converging reads the local orders between the
 * trend's points, and the trend ends where the error is last above its
 * floor.  Here the finest step's error is at round-off (1e-17 of a
 * solution of 0.62) and takes no part: the trend is 16 ... 0.43, whose two
 * finest local orders are log2(0.44/0.4301) = 0.033 and log2(0.4301/0.43)
 * = 0.0003, mean 0.017 < 0.5: not converging.  (The two finest step sizes'
 * local orders would be 0.0003 and log2(0.43/1e-17) = 55, mean 27: an
 * error that falls, which it does not: it saturated, and the last point
 * is round-off.) */
static void test_not_converging_reads_the_trends_points(void)
{
    double dt[7] = {0.05, 0.025, 0.0125, 0.00625, 0.003125, 0.0015625, 0.00078125};
    double scale[7] = {0.62, 0.62, 0.62, 0.62, 0.62, 0.62, 0.62};
    double err[7] = {16, 4.0, 1.0, 0.44, 0.4301, 0.43, 1e-17};
    vb_fit fit;
    vb_fit_order(dt, err, scale, NULL, NULL, 7, &fit);
    CHECK(fit.range == VB_RANGE_ALL && fit.first == 0 && fit.last == 5,
          "the trend is the points above the floor: range %s, %d..%d", vb_range_name(fit.range),
          fit.first, fit.last);
    CHECK(vb_fit_verdict(&fit, 1) == VB_VERDICT_NOT_CONVERGING,
          "a trend flat at its own finest points: verdict %s",
          vb_verdict_name(vb_fit_verdict(&fit, 1)));
}

/* ---- sweeps ----------------------------------------------------------------- */

/* On the spring with fixed steps every method reaches its label in the
 * position and velocity norms (energy can do better: rk4's is 5). */
static void test_spring_fixed_orders_match_labels(void)
{
    vb_case c = load(spring_case);
    vb_sweep s;
    sweep(&c, &s);
    static const vb_norm norms[] = {VB_NORM_POS_FINAL, VB_NORM_POS_MAX, VB_NORM_POS_RMS,
                                    VB_NORM_VEL_FINAL, VB_NORM_VEL_MAX};
    for (size_t i = 0; i < c.n_integ; i++)
        for (size_t n = 0; n < 5; n++) {
            const vb_order_row *r = order(&s, c.integ[i]->name, VB_PLAN_FIXED, norms[n]);
            CHECK(r->fit.range == VB_RANGE_ASYMPTOTIC && r->fit.points >= 3 &&
                      fabs(r->fit.order - c.integ[i]->order) <= 0.1,
                  "%s %s: order %.3f over %d points (%s), label %d", c.integ[i]->name,
                  vb_norm_name(norms[n]), r->fit.order, r->fit.points,
                  vb_range_name(r->fit.range), c.integ[i]->order);
            CHECK(r->verdict == VB_VERDICT_AS_EXPECTED, "%s %s: %s", c.integ[i]->name,
                  vb_norm_name(norms[n]), vb_verdict_name(r->verdict));
        }
    vb_sweep_free(&s);
    vb_case_free(&c);
}

/* SPEC §2: on constant acceleration the position-Verlet family is exact with
 * fixed steps; under random steps only verlet-var (with velocity Verlet and
 * rk4) stays exact. */
static void test_projectile_exactness_verdicts(void)
{
    vb_case c = load("[case]\nmodel = projectile\nt_end = 2.883\n"
                     "[steps]\ndt = 0.05\nhalvings = 5\njitter = 0.5\nseeds = 8\n"
                     "[integrators]\nuse = verlet, tcv, verlet-var, velocity-verlet, leapfrog, rk4\n");
    vb_sweep s;
    sweep(&c, &s);
    const char *const exact_fixed[] = {"verlet", "tcv", "verlet-var", "velocity-verlet",
                                       "leapfrog", "rk4"};
    for (size_t i = 0; i < 6; i++) {
        const vb_order_row *r = order(&s, exact_fixed[i], VB_PLAN_FIXED, VB_NORM_POS_MAX);
        CHECK(r->verdict == VB_VERDICT_EXACT, "%s fixed: %s", exact_fixed[i],
              vb_verdict_name(r->verdict));
    }
    const char *const exact_random[] = {"verlet-var", "velocity-verlet", "rk4"};
    for (size_t i = 0; i < 3; i++) {
        const vb_order_row *r = order(&s, exact_random[i], VB_PLAN_RANDOM, VB_NORM_POS_MAX);
        CHECK(r->verdict == VB_VERDICT_EXACT, "%s random: %s", exact_random[i],
              vb_verdict_name(r->verdict));
    }
    /* tcv and leapfrog fall to first order; plain Verlet, blind to the
     * changing step, does not converge at all */
    const char *const lose[] = {"tcv", "leapfrog"};
    for (size_t i = 0; i < 2; i++) {
        const vb_order_row *r = order(&s, lose[i], VB_PLAN_RANDOM, VB_NORM_POS_MAX);
        CHECK(r->verdict == VB_VERDICT_BELOW, "%s random: %s (order %.3f)", lose[i],
              vb_verdict_name(r->verdict), r->fit.order);
    }
    const vb_order_row *v = order(&s, "verlet", VB_PLAN_RANDOM, VB_NORM_POS_MAX);
    CHECK(v->verdict == VB_VERDICT_NOT_CONVERGING, "verlet random: %s (order %.3f)",
          vb_verdict_name(v->verdict), v->fit.order);
    vb_sweep_free(&s);
    vb_case_free(&c);
}

/* Round-off grows with the steps (orders.h, docs/method.md §5): the
 * Verlet family and RK4 are exact on a constant force (their updates
 * reproduce x0 + v0 t + a t^2/2), so every error they make there is
 * round-off, however many steps.  The drop of cases/drop.case (from rest:
 * E_0 = 0, an absolute energy error of terms up to 48 J/kg) and a
 * projectile at 7 000 to 58 000 steps, where round-off passes a thousand
 * ulps (0.37 N ulps measured), must both be exact, never fitted as errors
 * that do not converge (the flat floor called the drop's energy
 * not-converging, and run --strict failed it). */
static void test_roundoff_floor_grows_with_steps(void)
{
    vb_case c = load("[case]\nmodel = projectile\nspeed = 0\nangle = 90\nt_end = 1\n"
                     "[steps]\ndt = 0.02\nhalvings = 4\n"
                     "[integrators]\nuse = tcv, velocity-verlet, rk4\n");
    vb_sweep s;
    sweep(&c, &s);
    const char *const exact[] = {"tcv", "velocity-verlet", "rk4"};
    for (size_t i = 0; i < 3; i++) {
        const vb_order_row *r = order(&s, exact[i], VB_PLAN_FIXED, VB_NORM_ENERGY_MAX);
        CHECK(r->verdict == VB_VERDICT_EXACT, "drop, %s energy: %s (order %.2f)", exact[i],
              vb_verdict_name(r->verdict), r->fit.order);
    }
    vb_sweep_free(&s);
    vb_case_free(&c);
    c = load("[case]\nmodel = projectile\nt_end = 2.883\n"
             "[steps]\ndt = 0.0004\nhalvings = 4\n"
             "[integrators]\nuse = velocity-verlet, pefrl\n");
    sweep(&c, &s);
    for (size_t i = 0; i < 2; i++) {
        const char *name = i ? "pefrl" : "velocity-verlet";
        const vb_order_row *r = order(&s, name, VB_PLAN_FIXED, VB_NORM_POS_MAX);
        CHECK(r->verdict == VB_VERDICT_EXACT, "projectile at %.0f steps, %s: %s (order %.2f)",
              2.883 / r->dt[r->fit.n - 1], name, vb_verdict_name(r->verdict), r->fit.order);
        r = order(&s, name, VB_PLAN_FIXED, VB_NORM_ENERGY_MAX);
        CHECK(r->verdict == VB_VERDICT_EXACT, "projectile, %s energy: %s", name,
              vb_verdict_name(r->verdict));
    }
    vb_sweep_free(&s);
    vb_case_free(&c);
    /* the floor itself: max(1e3, N) ulps of the scale */
    double dt[4] = {0.1, 0.05, 0.025, 0.0125}, scale[4] = {2, 2, 2, 2};
    double steps[4] = {4000, 8000, 16000, 32000}, err[4];
    for (int k = 0; k < 4; k++)
        err[k] = 0.9 * steps[k] * DBL_EPSILON * scale[k];
    vb_fit fit;
    vb_fit_order(dt, err, scale, steps, NULL, 4, &fit);
    CHECK(fit.exact, "0.9 N ulps of the scale at N = 4000 ... 32000: round-off");
    for (int k = 0; k < 4; k++)
        err[k] = 1.1 * steps[k] * DBL_EPSILON * scale[k];
    vb_fit_order(dt, err, scale, steps, NULL, 4, &fit);
    CHECK(!fit.exact && fit.range == VB_RANGE_ASYMPTOTIC && fabs(fit.order + 1.0) < 1e-9,
          "1.1 N ulps: above the floor, fitted (order %g)", fit.order);
    CHECK(vb_fit_floor(DBL_EPSILON, 10, 1) == 1e3 * DBL_EPSILON, "below 1000 steps: 1e3 ulps");
}

/* A method whose label overstates it must be caught: Euler labelled 2. */
static void test_wrong_label_is_below_label(void)
{
    vb_integrator liar = *vb_integrator_find("euler");
    liar.name = "euler-claiming-2";
    liar.order = 2;
    vb_case c = load(spring_case);
    const vb_integrator *only[1] = {&liar};
    free(c.integ);
    c.integ = malloc(sizeof only);
    memcpy(c.integ, only, sizeof only);
    c.n_integ = 1;
    vb_sweep s;
    sweep(&c, &s);
    const vb_order_row *r = order(&s, "euler-claiming-2", VB_PLAN_FIXED, VB_NORM_POS_MAX);
    CHECK(r->verdict == VB_VERDICT_BELOW, "verdict %s, order %.3f", vb_verdict_name(r->verdict),
          r->fit.order);
    r = order(&s, "euler-claiming-2", VB_PLAN_RANDOM, VB_NORM_POS_FINAL);
    CHECK(r->verdict == VB_VERDICT_BELOW, "random: verdict %s", vb_verdict_name(r->verdict));
    vb_sweep_free(&s);
    vb_case_free(&c);
}

/* One step from exact data on the spring.  Position Verlet's local error
 * is h^4 (the two-step recurrence cancels h^3) though its global error is
 * h^2; velocity Verlet from exact (x, v) makes h^3.  With a changing step
 * (h' = 1.5 h) original Verlet's one-step error falls to h^1, TCV's to
 * h^2, verlet-var's to h^3: Taylor expansion of each update. */
static void test_onestep_exponents(void)
{
    vb_case c = load(spring_case);
    vb_sweep s;
    sweep(&c, &s);
    static const struct {
        const char *name;
        double steady, changing;
    } want[] = {{"verlet", 4, 1},     {"verlet-naive", 4, 1}, {"tcv", 4, 2},
                {"verlet-var", 4, 3}, {"velocity-verlet", 3, 3}, {"leapfrog", 3, 3},
                {"euler", 2, 2},      {"euler-semi", 2, 2},   {"rk4", 5, 5}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const vb_onestep_row *a = onestep(&s, want[i].name, 0), *b = onestep(&s, want[i].name, 1);
        /* 0.1: the exponent is fitted over at least three halvings of h */
        CHECK(fabs(a->fit_pos.order - want[i].steady) <= 0.1 && a->fit_pos.points >= 3,
              "%s: one-step position exponent %.3f, want %g", want[i].name, a->fit_pos.order,
              want[i].steady);
        CHECK(fabs(b->fit_pos.order - want[i].changing) <= 0.1 && b->fit_pos.points >= 3,
              "%s, h' = 1.5h: exponent %.3f, want %g", want[i].name, b->fit_pos.order,
              want[i].changing);
    }
    vb_sweep_free(&s);
    vb_case_free(&c);
}

static const vb_reverse_row *reverse_row(const vb_sweep *s, const char *integ, vb_plan_kind kind)
{
    for (size_t k = 0; k < s->n_reverse; k++)
        if (!strcmp(s->c->integ[s->reverse[k].integ]->name, integ) && s->reverse[k].kind == kind)
            return &s->reverse[k];
    fprintf(stderr, "test bug: no reverse row for %s\n", integ);
    exit(2);
}

static void test_reversibility(void)
{
    vb_case c = load("[case]\nmodel = orbit\ne = 0.7\nt_end = 6.283185307179586\n"
                     "[steps]\ndt = 0.005\nhalvings = 2\njitter = 0.5\nseeds = 1\n"
                     "[integrators]\nuse = all\n");
    vb_sweep s;
    sweep(&c, &s);
    for (int kind = VB_PLAN_FIXED; kind <= VB_PLAN_RANDOM; kind++) {
        const vb_reverse_row *vv = reverse_row(&s, "velocity-verlet", (vb_plan_kind)kind);
        CHECK(vv->err_pos <= 1e-12, "velocity-verlet misses the start by %.3g", vv->err_pos);
        CHECK(vv->reversible, "velocity-verlet not reversible");
        const vb_reverse_row *e = reverse_row(&s, "euler", (vb_plan_kind)kind);
        CHECK(e->err_pos > 1e-3 && !e->reversible, "euler returns to within %.3g", e->err_pos);
    }
    /* TCV retraces fixed steps but not random ones: h/h' differs backwards */
    CHECK(reverse_row(&s, "tcv", VB_PLAN_FIXED)->reversible, "tcv, fixed steps");
    CHECK(!reverse_row(&s, "tcv", VB_PLAN_RANDOM)->reversible, "tcv, random steps");
    CHECK(reverse_row(&s, "verlet-var", VB_PLAN_RANDOM)->reversible, "verlet-var, random steps");
    vb_sweep_free(&s);
    vb_case_free(&c);
}

/* The band is the median and the 10th and 90th percentiles of the seeds. */
static void test_random_bands(void)
{
    vb_case c = load(spring_case);
    vb_sweep s;
    sweep(&c, &s);
    for (size_t k = 0; k < s.n_bands; k++) {
        const vb_band_row *b = &s.bands[k];
        if (b->norm != VB_NORM_POS_FINAL || b->level != 2 || strcmp(c.integ[b->integ]->name, "tcv"))
            continue;
        double v[8];
        int n = 0;
        for (size_t j = 0; j < s.n_jobs; j++)
            if (s.jobs[j].integ == b->integ && s.jobs[j].kind == VB_PLAN_RANDOM &&
                s.jobs[j].level == 2)
                v[n++] = s.jobs[j].res.err_pos_final;
        CHECK(n == 8, "%d seeds", n);
        /* sort, then the textbook definitions for 8 values */
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (v[j] < v[i]) {
                    double t = v[i];
                    v[i] = v[j];
                    v[j] = t;
                }
        CHECK_REL(b->median, 0.5 * (v[3] + v[4]), 1e-15, "median of 8");
        /* linear interpolation at (n-1) f: 0.7 and 6.3 */
        CHECK_REL(b->p10, v[0] + 0.7 * (v[1] - v[0]), 1e-14, "p10");
        CHECK_REL(b->p90, v[6] + 0.3 * (v[7] - v[6]), 1e-14, "p90");
        CHECK(b->p10 <= b->median && b->median <= b->p90, "band out of order");
    }
    vb_sweep_free(&s);
    vb_case_free(&c);
}

/* The "=" rule (sweep.h): two errors 2x apart are never the same, at any
 * size of the errors, any number of steps and any scale, even where both
 * lie far under the round-off floor (the orbit's energy errors, 1e-9 and
 * 2e-8 over 63 000 steps, under a floor of 5.6e-8, were "= rk4"); equal
 * errors always are; a difference of 1e-4 of the errors is, if within
 * the floor, and one beyond the floor never is. */
static void test_same_rule_is_relative(void)
{
    static const double steps[] = {1, 100, 63000, 1e6, 1e9};
    static const double scale[] = {1e-6, 1, 1e6};
    int tried = 0;
    for (int k = -300; k <= 5; k++)
        for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
            for (size_t j = 0; j < sizeof scale / sizeof *scale; j++) {
                double e = pow(10, k);
                tried++;
                CHECK(!vb_same_to_roundoff(e, 2 * e, steps[i], scale[j]) &&
                          !vb_same_to_roundoff(2 * e, e, steps[i], scale[j]),
                      "%g and %g called the same (%g steps, scale %g)", e, 2 * e, steps[i],
                      scale[j]);
                CHECK(vb_same_to_roundoff(e, e, steps[i], scale[j]), "%g not the same as itself", e);
                double floor = 16 * DBL_EPSILON * pow(steps[i], 1.5) * scale[j];
                double d = 1e-4 * e;
                CHECK(vb_same_to_roundoff(e, e + d, steps[i], scale[j]) == (d <= floor * (1 - 1e-12)) ||
                          fabs(d - floor) < 1e-9 * floor,
                      "%g and %g (floor %g)", e, e + d, floor);
            }
    CHECK(tried == 306 * 15, "%d cases", tried);
    /* the orbit's case, as the issue measured it */
    CHECK(!vb_same_to_roundoff(5.6e-9, 6.1e-10, 62832, 1.0), "yoshida4's and rk4's energy errors");
    CHECK(!vb_same_to_roundoff(0, 1e-300, 1, 1), "0 and a denormal-size error");
    CHECK(vb_same_to_roundoff(0, 0, 1, 1), "two exact zeros");
}

/* How many more halvings settle an uncertain verdict (orders.h): against
 * the same rule computed apart, in Python with mpmath's incomplete beta
 * for Student's t (the fewest m with t(0.975, n + m - 2) se
 * sqrt(n (n^2 - 1) / (k (k^2 - 1))) < |p - label| - 0.25, k = n + m):
 * 1.2836 / 0.086844 over 3 points is the spring's tcv on the 60 Hz trace
 * at 6 halvings. */
static void test_halvings_to_settle(void)
{
    static const struct {
        double order, se;
        int points, label, want;
    } c[] = {
        {1.2836, 0.086844, 3, 2, 1}, {1.5, 0.05, 3, 2, 1},   {1.1, 0.5, 3, 2, 3},
        {0.5, 0.3, 5, 1, 5},         {1.74, 0.01, 3, 2, 3},  {2.7, 0.3, 3, 2, 2},
        {2.26, 0.02, 3, 2, 6},       {1.749, 0.01, 3, 2, 19}, {1.7499, 0.01, 3, 2, VB_SETTLE_MAX + 1},
        /* not uncertain: below and above the label, and as expected */
        {1.6, 0.03, 4, 2, 0},        {2.6, 0.02, 3, 2, 0},   {1.9, 0.5, 3, 2, 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        vb_fit f = {0};
        f.n = 6;
        f.range = VB_RANGE_ASYMPTOTIC;
        f.points = c[i].points;
        f.first = f.n - c[i].points;
        f.last = f.n - 1;
        f.order = c[i].order;
        f.order_se = c[i].se;
        f.order_ci95 = gsl_cdf_tdist_Pinv(0.975, c[i].points - 2.0) * c[i].se;
        int m = vb_fit_halvings_to_settle(&f, c[i].label);
        CHECK(m == c[i].want, "order %g +- se %g over %d points, label %d: %d more halvings, want %d",
              c[i].order, c[i].se, c[i].points, c[i].label, m, c[i].want);
        /* a fit that stops short of the finest step gains no point from finer steps */
        f.first--;
        f.last--;
        m = vb_fit_halvings_to_settle(&f, c[i].label);
        CHECK(m == (c[i].want ? VB_SETTLE_NOT_BY_HALVING : 0), "the same, short of the finest step: %d", m);
    }
}

void suite_sweep(void)
{
    RUN(test_halvings_to_settle);
    RUN(test_same_rule_is_relative);
    RUN(test_fit_recovers_exact_power_laws);
    RUN(test_fit_drops_floor_and_transient);
    RUN(test_fit_exact_and_saturated);
    RUN(test_trend_never_earns_the_label);
    RUN(test_trend_says_saturation);
    RUN(test_not_converging_reads_the_trends_points);
    RUN(test_spring_fixed_orders_match_labels);
    RUN(test_projectile_exactness_verdicts);
    RUN(test_roundoff_floor_grows_with_steps);
    RUN(test_wrong_label_is_below_label);
    RUN(test_onestep_exponents);
    RUN(test_reversibility);
    RUN(test_random_bands);
}
