/* test_integrators.c — each method against a hand computation, against the
 * closed forms of its discrete solution, and against the facts of SPEC §2. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "adaptive.h"
#include "engine.h"
#include "simulate.h"
#include "stepmatrix.h"
#include "unit.h"

/* A handful of operations on O(1) numbers round to within a few 1e-16;
 * 1e-14 allows for the order of operations, and is ten orders below the
 * smallest coefficient error it guards (h^2/2 vs h^2 at h = 0.1). */
#define HAND_TOL 1e-14

static const char *const hand_spring[] = {"k=4", "x0=1", "v0=0.5", NULL};

typedef struct {
    _Alignas(max_align_t) unsigned char state[TEST_STATE_BYTES];
    vb_force f;
    const vb_integrator *g;
    vb_model m;
    double t;
} stepper;

static void stepper_start(stepper *s, const char *integ, double h0)
{
    double x[1], v[1];
    memset(s->state, 0, sizeof s->state); /* the harness hands out zeroed state */
    s->g = test_integrator(integ);
    if (s->g->set_tolerance)
        s->g->set_tolerance(s->state, 1e-8);
    s->m = test_model("spring", hand_spring);
    s->f = vb_model_force(&s->m);
    s->t = 0.0;
    s->m.type->initial(s->m.self, x, v);
    s->g->start(s->state, &s->f, 0.0, x, v, h0);
}

static void stepper_end(stepper *s)
{
    if (s->g->finish)
        s->g->finish(s->state);
}

static void stepper_step(stepper *s, double h, double *x, double *v)
{
    s->g->step(s->state, &s->f, s->t, h);
    s->t += h;
    s->g->observe(s->state, x, v);
}

/* One step of h = 0.1 from x0 = 1, v0 = 0.5 on x'' = -4x (a0 = -4), worked
 * by hand from the formulas of SPEC §2. */
static void hand_step_one(const char *name, double want_x, double want_v)
{
    stepper s;
    double x, v;
    char what[64];
    stepper_start(&s, name, 0.1);
    stepper_step(&s, 0.1, &x, &v);
    snprintf(what, sizeof what, "%s x1", name);
    CHECK_REL(x, want_x, HAND_TOL, what);
    snprintf(what, sizeof what, "%s v1", name);
    CHECK_REL(v, want_v, HAND_TOL, what);
}

static void test_hand_step_euler(void)
{
    /* x1 = 1 + 0.5(0.1); v1 = 0.5 - 4(0.1) */
    hand_step_one("euler", 1.05, 0.1);
}

static void test_hand_step_euler_semi(void)
{
    /* v1 = 0.5 - 0.4 = 0.1; x1 = 1 + 0.1(0.1) */
    hand_step_one("euler-semi", 1.01, 0.1);
}

static void test_hand_step_velocity_verlet(void)
{
    /* x1 = 1 + 0.05 - 4(0.01)/2 = 1.03; a1 = -4.12; v1 = 0.5 + (-4 - 4.12)(0.05) */
    hand_step_one("velocity-verlet", 1.03, 0.094);
}

/* velocity_verlet.c makes a step's second kick at the start of the next
 * step (or in observe, or reverse): the same operations in the same order
 * as kick, drift, force, kick written out here, so every reported number
 * must be the same to the bit.  Steps of changing h (the pending kick is
 * the last step's h/2, not this one's), observe after each, a reverse in
 * the middle, on the damped spring (its force reads the half-kicked v) and
 * the orbit (two components). */
static void kdk_by_hand(const char *model, const char *const *sets)
{
    vb_model m = test_model(model, sets);
    const vb_integrator *g = test_integrator("velocity-verlet");
    _Alignas(max_align_t) unsigned char state[TEST_STATE_BYTES] = {0};
    vb_force f = vb_model_force(&m);
    size_t n = m.n;
    double x[4], v[4], a[4], xs[4], vs[4], t = 0.0;
    CHECK(n <= 4, "%s has %zu components", model, n);
    m.type->initial(m.self, x, v);
    g->start(state, &f, 0.0, x, v, 0.01);
    m.type->accel(m.self, 0.0, x, v, a);
    int same = 1;
    for (int k = 0; k < 40; k++) {
        if (k == 20) {
            g->reverse(state);
            for (size_t i = 0; i < n; i++)
                v[i] = -v[i];
        }
        double h = 0.01 * (1.0 + 0.5 * sin(k)), half = 0.5 * h;
        for (size_t i = 0; i < n; i++) {
            v[i] += a[i] * half;
            x[i] += v[i] * h;
        }
        m.type->accel(m.self, t + h, x, v, a);
        for (size_t i = 0; i < n; i++)
            v[i] += a[i] * half;
        g->step(state, &f, t, h);
        t += h;
        g->observe(state, xs, vs);
        for (size_t i = 0; i < n; i++)
            if (xs[i] != x[i] || vs[i] != v[i]) {
                if (same)
                    unit_fail(__FILE__, __LINE__, "%s step %d component %zu: x %.17g v %.17g, "
                              "by hand %.17g, %.17g", model, k, i, xs[i], vs[i], x[i], v[i]);
                same = 0;
            }
    }
    CHECK(f.evals == 41, "%s: %llu force evaluations, want 41", model, f.evals);
}

static void test_velocity_verlet_is_kdk_to_the_bit(void)
{
    const char *const damped[] = {"c=0.5", NULL};
    kdk_by_hand("damped-spring", damped);
    kdk_by_hand("orbit", NULL);
}

static void test_hand_step_leapfrog(void)
{
    /* w = 0.5 - 4(0.05) = 0.3; x1 = 1.03; a1 = -4.12; w = 0.3 - 0.412 = -0.112;
     * reported v1 = w - a1 h/2 = -0.112 + 0.206 */
    hand_step_one("leapfrog", 1.03, 0.094);
}

static void test_hand_step_rk4(void)
{
    /* k1 = (0.5, -4); stage 2 at (1.025, 0.3): a = -4.1; stage 3 at (1.015, 0.295):
     * a = -4.06; stage 4 at (1.0295, 0.094): a = -4.118;
     * x1 = 1 + (0.1/6)(0.5 + 0.6 + 0.59 + 0.094) = 1 + 1.784/60
     * v1 = 0.5 + (0.1/6)(-4 - 8.2 - 8.12 - 4.118) = 0.5 - 24.438/60 */
    hand_step_one("rk4", 1.0 + 1.784 / 60.0, 0.0927);
}

static void test_hand_step_verlet(void)
{
    /* Taylor start: x1 = 1 + 0.05 - 0.02 = 1.03; a1 = -4.12;
     * v1 = (1.03 - 1)/0.1 + a1 (0.05) = 0.3 - 0.206 */
    hand_step_one("verlet", 1.03, 0.094);
    /* then h = 0.2, ignoring the change: x2 = 2(1.03) - 1 + a1 (0.04) = 0.8952;
     * a2 = -3.5808; v2 = (0.8952 - 1.03)/0.2 + a2 (0.1) = -0.674 - 0.35808 */
    stepper s;
    double x, v;
    stepper_start(&s, "verlet", 0.1);
    stepper_step(&s, 0.1, &x, &v);
    stepper_step(&s, 0.2, &x, &v);
    CHECK_REL(x, 0.8952, HAND_TOL, "verlet x2");
    CHECK_REL(v, -1.03208, HAND_TOL, "verlet v2");
}

static void test_hand_step_verlet_naive(void)
{
    /* x_-1 = 1 - 0.05: x1 = 2 - 0.95 - 0.04 = 1.01; a1 = -4.04;
     * v1 = (1.01 - 1)/0.1 + a1 (0.05) = 0.1 - 0.202 */
    hand_step_one("verlet-naive", 1.01, -0.102);
}

static void test_hand_step_tcv(void)
{
    /* x2 = x1 + (x1 - x0)(0.2/0.1) + a1 (0.2)^2 = 1.03 + 0.06 - 0.1648 */
    stepper s;
    double x, v;
    hand_step_one("tcv", 1.03, 0.094);
    stepper_start(&s, "tcv", 0.1);
    stepper_step(&s, 0.1, &x, &v);
    stepper_step(&s, 0.2, &x, &v);
    CHECK_REL(x, 0.9252, HAND_TOL, "tcv x2");
}

static void test_hand_step_verlet_var(void)
{
    /* x2 = x1 + (x1 - x0)(0.2/0.1) + a1 (0.2)(0.2 + 0.1)/2 = 1.09 - 0.1236;
     * velocity Verlet over the same steps: 1.03 + 0.094(0.2) - 4.12(0.02) = 0.9664 */
    stepper s;
    double x, v;
    hand_step_one("verlet-var", 1.03, 0.094);
    stepper_start(&s, "verlet-var", 0.1);
    stepper_step(&s, 0.1, &x, &v);
    stepper_step(&s, 0.2, &x, &v);
    CHECK_REL(x, 0.9664, HAND_TOL, "verlet-var x2");
    stepper_start(&s, "velocity-verlet", 0.1);
    stepper_step(&s, 0.1, &x, &v);
    stepper_step(&s, 0.2, &x, &v);
    CHECK_REL(x, 0.9664, HAND_TOL, "velocity-verlet x2");
}

/* ---- closed forms of the discrete solutions on x'' = -w^2 x ------------- */

#define CF_STEPS 100000
#define CF_H 0.05

/* Round-off in a neutrally stable recurrence adds at most one ulp a step, so
 * after N steps the worst case is N eps (amplified by 1/sin(theta) for the
 * two-step form).  A wrong coefficient shows at O(h^2) = 2.5e-3: seven
 * orders above these bounds. */
static double roundoff_bound(double amplification)
{
    return (double)CF_STEPS * DBL_EPSILON * amplification;
}

static void test_closed_form_verlet(void)
{
    /* x_n = x0 cos(n theta) + (v0 h / sin theta) sin(n theta), sin(theta/2) = w h/2 */
    const char *const sets[] = {"k=1", "m=1", "x0=1", "v0=0.4", NULL};
    vb_model m = test_model("spring", sets);
    vb_force f = vb_model_force(&m);
    const vb_integrator *g = test_integrator("verlet");
    _Alignas(max_align_t) unsigned char st[TEST_STATE_BYTES];
    double x[1] = {1.0}, v[1] = {0.4}, h = CF_H;
    double theta = 2.0 * asin(0.5 * h), worst = 0.0;
    g->start(st, &f, 0.0, x, v, h);
    for (int n = 1; n <= CF_STEPS; n++) {
        g->step(st, &f, (n - 1) * h, h);
        g->observe(st, x, v);
        double want = cos(n * theta) + (0.4 * h / sin(theta)) * sin(n * theta);
        worst = max_or_nan(worst, fabs(x[0] - want));
    }
    CHECK(worst <= roundoff_bound(1.0 / sin(theta)),
          "verlet strays %.3g from its closed form over %d steps (bound %.3g)", worst,
          CF_STEPS, roundoff_bound(1.0 / sin(theta)));
    unit_note("verlet vs closed form over 1e5 steps: %.2e", worst);
}

/* Run `name` for CF_STEPS steps and return the largest relative change of
 * the quadratic form q(x, v). */
static double invariant_drift(const char *name, double (*q)(double, double))
{
    const char *const sets[] = {"k=1.69", "m=1", "x0=1", "v0=0.4", NULL}; /* w = 1.3 */
    vb_model m = test_model("spring", sets);
    vb_force f = vb_model_force(&m);
    const vb_integrator *g = test_integrator(name);
    _Alignas(max_align_t) unsigned char st[TEST_STATE_BYTES];
    double x[1] = {1.0}, v[1] = {0.4}, worst = 0.0;
    double q0 = q(x[0], v[0]);
    g->start(st, &f, 0.0, x, v, CF_H);
    for (int n = 1; n <= CF_STEPS; n++) {
        g->step(st, &f, (n - 1) * CF_H, CF_H);
        g->observe(st, x, v);
        double d = fabs(q(x[0], v[0]) - q0) / q0;
        worst = max_or_nan(worst, d);
    }
    return worst;
}

#define W2 1.69
static double q_vv(double x, double v) { return 0.5 * v * v + 0.5 * W2 * (1 - W2 * CF_H * CF_H / 4) * x * x; }
static double q_semi(double x, double v) { return 0.5 * (v * v + W2 * x * x - W2 * CF_H * v * x); }
static double q_plain(double x, double v) { return 0.5 * (v * v + W2 * x * x); }

static void test_closed_form_velocity_verlet(void)
{
    /* velocity Verlet conserves 1/2 v^2 + 1/2 w^2 (1 - w^2 h^2/4) x^2 exactly */
    double d = invariant_drift("velocity-verlet", q_vv);
    CHECK(d <= roundoff_bound(4.0), "velocity-verlet's invariant drifts %.3g (bound %.3g)", d,
          roundoff_bound(4.0));
    /* ... and not the plain energy, which oscillates at O(w^2 h^2) */
    double plain = invariant_drift("velocity-verlet", q_plain);
    CHECK(plain > 1e-4, "the plain energy of velocity-verlet should oscillate, drift %.3g", plain);
    unit_note("velocity-verlet modified energy drift %.2e, plain energy %.2e", d, plain);
}

static void test_closed_form_euler_semi(void)
{
    /* symplectic Euler conserves 1/2 (v^2 + w^2 x^2 - w^2 h v x) exactly */
    double d = invariant_drift("euler-semi", q_semi);
    CHECK(d <= roundoff_bound(4.0), "euler-semi's invariant drifts %.3g (bound %.3g)", d,
          roundoff_bound(4.0));
    unit_note("euler-semi modified energy drift %.2e", d);
}

/* ---- SPEC §2 facts -------------------------------------------------------- */

#define MAX_POINTS 20001

typedef struct {
    size_t n;
    double *t, *x;
} path;

static path run_path(const char *integ, const vb_model *m, const vb_plan_spec *plan)
{
    path p;
    p.t = malloc(MAX_POINTS * sizeof *p.t);
    p.x = malloc(MAX_POINTS * m->n * sizeof *p.x);
    if (!p.t || !p.x)
        exit(2);
    p.n = test_trajectory(test_integrator(integ), m, plan, p.t, p.x, NULL, MAX_POINTS);
    return p;
}

static void path_free(path *p)
{
    free(p->t);
    free(p->x);
}

static double path_gap(const path *a, const path *b, size_t dim)
{
    double worst = 0.0;
    if (a->n != b->n)
        return INFINITY;
    for (size_t i = 0; i < (a->n + 1) * dim; i++)
        worst = max_or_nan(worst, fabs(a->x[i] - b->x[i]));
    return worst;
}

/* The same positions in exact arithmetic: in floating point the paths part
 * by round-off, which a smooth problem amplifies at most linearly in time
 * (phase drift), so a gap of "a few ulps times N" is allowed: 16 N eps scale. */
static double same_bound(size_t n, double scale) { return 16.0 * (double)n * DBL_EPSILON * scale; }

static double path_scale(const path *p, size_t dim)
{
    double s = 0.0;
    for (size_t i = 0; i < (p->n + 1) * dim; i++)
        s = max_or_nan(s, fabs(p->x[i]));
    return s;
}

static void same_positions(const char *model, const char *const *sets, const vb_plan_spec *plan,
                           const char *const *names)
{
    vb_model m = test_model(model, sets);
    path ref = run_path(names[0], &m, plan);
    for (const char *const *n = names + 1; *n; n++) {
        path p = run_path(*n, &m, plan);
        double gap = path_gap(&ref, &p, m.n);
        double bound = same_bound(ref.n, path_scale(&ref, m.n));
        CHECK(gap <= bound, "%s: %s and %s part by %.3g over %zu steps (bound %.3g)", model,
              names[0], *n, gap, ref.n, bound);
        path_free(&p);
    }
    path_free(&ref);
}

static const char *const verlet_five[] = {"verlet", "tcv", "verlet-var", "velocity-verlet",
                                          "leapfrog", NULL};

static void test_fact_fixed_steps_same_positions(void)
{
    const char *const e5[] = {"e=0.5", NULL};
    vb_plan_spec plan = {.kind = VB_PLAN_FIXED, .t_end = 2 * M_PI, .dt = 2 * M_PI / 2000};
    same_positions("orbit", e5, &plan, verlet_five);
    plan.t_end = 20.0;
    plan.dt = 0.01;
    same_positions("spring", NULL, &plan, verlet_five);
    same_positions("pendulum", NULL, &plan, verlet_five);
    same_positions("projectile", NULL, &plan, verlet_five);
}

static void test_fact_euler_semi_is_naive_verlet(void)
{
    const char *const pair[] = {"euler-semi", "verlet-naive", NULL};
    const char *const e5[] = {"e=0.5", NULL};
    vb_plan_spec plan = {.kind = VB_PLAN_FIXED, .t_end = 2 * M_PI, .dt = 2 * M_PI / 2000};
    same_positions("orbit", e5, &plan, pair);
    plan.t_end = 20.0;
    plan.dt = 0.01;
    same_positions("spring", NULL, &plan, pair);
    same_positions("projectile", NULL, &plan, pair);
}

static void test_fact_verlet_var_is_velocity_verlet_under_any_steps(void)
{
    const char *const pair[] = {"verlet-var", "velocity-verlet", NULL};
    const char *const e9[] = {"e=0.9", NULL};
    for (unsigned long seed = 1; seed <= 3; seed++) {
        vb_plan_spec plan = {.kind = VB_PLAN_RANDOM, .t_end = 2 * M_PI, .dt = 2 * M_PI / 4000,
                             .jitter = 0.9, .seed = seed};
        same_positions("orbit", e9, &plan, pair);
        plan.t_end = 20.0;
        plan.dt = 0.01;
        same_positions("spring", NULL, &plan, pair);
        same_positions("pendulum", NULL, &plan, pair);
    }
}

/* Largest position error on the projectile. */
static double projectile_error(const char *integ, const vb_plan_spec *plan)
{
    vb_model m = test_model("projectile", NULL);
    path p = run_path(integ, &m, plan);
    double worst = 0.0, xe[2], ve[2];
    for (size_t n = 0; n <= p.n; n++) {
        m.type->exact(m.self, NULL, p.t[n], xe, ve);
        double d = hypot(p.x[2 * n] - xe[0], p.x[2 * n + 1] - xe[1]);
        worst = max_or_nan(worst, d);
    }
    path_free(&p);
    return worst;
}

/* The projectile spans ~40 m; "exact" means round-off: a few ulps of 40 m per
 * step, summed over the 289 steps of the flight (N eps scale, doubled). */
#define PROJECTILE_SCALE 40.0

static void test_fact_projectile_exactness(void)
{
    vb_plan_spec fixed = {.kind = VB_PLAN_FIXED, .t_end = 2.8834, .dt = 0.01};
    vb_plan_spec rnd = {.kind = VB_PLAN_RANDOM, .t_end = 2.8834, .dt = 0.01, .jitter = 0.5,
                        .seed = 7};
    double bound = 2.0 * 300 * DBL_EPSILON * PROJECTILE_SCALE;
    const char *const exact_fixed[] = {"verlet", "tcv", "verlet-var", "velocity-verlet",
                                       "leapfrog", "rk4"};
    for (size_t i = 0; i < 6; i++) {
        double e = projectile_error(exact_fixed[i], &fixed);
        CHECK(e <= bound, "%s, fixed steps: projectile error %.3g, not round-off (%.3g)",
              exact_fixed[i], e, bound);
    }
    const char *const exact_random[] = {"verlet-var", "velocity-verlet", "rk4"};
    for (size_t i = 0; i < 3; i++) {
        double e = projectile_error(exact_random[i], &rnd);
        CHECK(e <= bound, "%s, random steps: projectile error %.3g, not round-off (%.3g)",
              exact_random[i], e, bound);
    }
    /* the others lose exactness under random steps: their error is a
     * truncation error of order g h^2 ~ 1e-4, far above round-off */
    const char *const inexact_random[] = {"verlet", "tcv", "leapfrog"};
    for (size_t i = 0; i < 3; i++) {
        double e = projectile_error(inexact_random[i], &rnd);
        CHECK(e > 1e6 * bound, "%s, random steps: projectile error %.3g should not be round-off",
              inexact_random[i], e);
    }
}

/* verlet-naive, like euler, is off by |g| h t/2 on the projectile */
static void test_fact_naive_projectile_error(void)
{
    const char *const names[] = {"verlet-naive", "euler"};
    vb_model m = test_model("projectile", NULL);
    vb_plan_spec plan = {.kind = VB_PLAN_FIXED, .t_end = 2.8834, .dt = 0.01};
    for (size_t k = 0; k < 2; k++) {
        path p = run_path(names[k], &m, &plan);
        double h = plan.t_end / (double)p.n, worst = 0.0;
        for (size_t n = 1; n <= p.n; n++) {
            double xe[2], ve[2];
            m.type->exact(m.self, NULL, p.t[n], xe, ve);
            double err = hypot(p.x[2 * n] - xe[0], p.x[2 * n + 1] - xe[1]);
            double want = 9.81 * h * p.t[n] / 2.0;
            double rel = fabs(err - want) / want;
            worst = max_or_nan(worst, rel);
        }
        /* err ~ 1e-2 against round-off ~ 1e-13 in positions of ~40: 1e-9 is loose */
        CHECK(worst <= 1e-9, "%s: error differs from g h t/2 by %.3g relative", names[k], worst);
        path_free(&p);
    }
}

/* ---- rk4 against GSL's engine -------------------------------------------- */

static int gsl_spring(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    double w2 = *(const double *)params;
    dydt[0] = y[1];
    dydt[1] = -w2 * y[0];
    return GSL_SUCCESS;
}

/* gsl_odeiv2_step_rk4 estimates its error by step doubling: its step of h is
 * two classical steps of h/2.  So two of ours must reproduce it. */
static void test_rk4_matches_gsl_step_doubling(void)
{
    double w2 = 4.0;
    gsl_odeiv2_system sys = {gsl_spring, NULL, 2, &w2};
    gsl_odeiv2_step *s = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk4, 2);
    double y[2] = {1.0, 0.5}, yerr[2];
    int rc = gsl_odeiv2_step_apply(s, 0.0, 0.2, y, yerr, NULL, NULL, &sys);
    gsl_odeiv2_step_free(s);
    CHECK(rc == GSL_SUCCESS, "gsl step failed");
    stepper st;
    double x, v;
    stepper_start(&st, "rk4", 0.1);
    stepper_step(&st, 0.1, &x, &v);
    stepper_step(&st, 0.1, &x, &v);
    CHECK_REL(x, y[0], HAND_TOL, "rk4 x after two steps of h/2 vs GSL");
    CHECK_REL(v, y[1], HAND_TOL, "rk4 v after two steps of h/2 vs GSL");
    CHECK(st.f.evals == 8, "rk4 used %llu force evaluations for two steps, want 8", st.f.evals);
}

/* ---- force evaluations ------------------------------------------------------ */

static void test_force_evaluation_counts(void)
{
    /* one per step; the methods that carry a_n also evaluate a_0 at the start */
    static const struct {
        const char *name;
        unsigned long long start, per_step;
    } want[] = {{"euler", 0, 1},        {"euler-semi", 0, 1},      {"verlet", 1, 1},
                {"verlet-naive", 1, 1}, {"tcv", 1, 1},             {"verlet-var", 1, 1},
                {"velocity-verlet", 1, 1}, {"leapfrog", 1, 1},     {"rk4", 0, 4},
                /* Beeman: a_0 and a_{-1} at the start; Yoshida: a_0, then
                 * first-same-as-last over 3 sub-steps; PEFRL: 4 kicks */
                {"beeman", 2, 1},       {"yoshida4", 1, 3},        {"pefrl", 0, 4}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        stepper s;
        double x, v;
        stepper_start(&s, want[i].name, 0.1);
        CHECK(s.f.evals == want[i].start, "%s: %llu evaluations to start", want[i].name, s.f.evals);
        for (int n = 0; n < 10; n++)
            stepper_step(&s, 0.1, &x, &v);
        CHECK(s.f.evals == want[i].start + 10 * want[i].per_step,
              "%s: %llu evaluations for 10 steps", want[i].name, s.f.evals);
    }
}

/* ---- reversal ------------------------------------------------------------- */

/* reverse() keeps the position, negates the reported velocity, and for a
 * symmetric method a step back over the same h retraces the step. */
static void test_reverse_retraces_symmetric_methods(void)
{
    for (size_t i = 0; i < vb_integrator_count(); i++) {
        const vb_integrator *g = vb_integrator_at(i);
        stepper s;
        double x0, v0, x1, v1, xr, vr, xb, vb;
        stepper_start(&s, g->name, 0.1);
        s.g->observe(s.state, &x0, &v0);
        stepper_step(&s, 0.1, &x1, &v1);
        stepper_step(&s, 0.1, &x1, &v1);
        g->reverse(s.state);
        g->observe(s.state, &xr, &vr);
        CHECK(xr == x1, "%s: reverse moved x from %.17g to %.17g", g->name, x1, xr);
        CHECK_REL(vr, -v1, HAND_TOL, g->name);
        stepper_step(&s, 0.1, &xb, &vb);
        stepper_step(&s, 0.1, &xb, &vb);
        /* an adaptive method's steps back are not its steps out, and at
         * its tolerance it may come back as close as a symmetric one: no
         * claim either way.  Beeman's positions are Verlet's, whose step
         * back the extrapolated history (2 a_n - a_{n-1}) retraces. */
        if (g->flags & VB_ADAPTIVE) {
            stepper_end(&s);
            continue;
        }
        int symmetric = strcmp(g->name, "euler") && strcmp(g->name, "euler-semi") &&
                        strcmp(g->name, "rk4");
        double miss = fabs(xb - x0);
        if (symmetric)
            CHECK(miss <= 8 * DBL_EPSILON, "%s: two steps back miss the start by %.3g", g->name,
                  miss);
        else
            CHECK(miss > 1e-9, "%s is not symmetric, yet returned to %.3g", g->name, miss);
        stepper_end(&s);
    }
}

/* ---- the methods added for fairer comparisons (issue 18) ------------------------ */

/* A run of one frame is GSL's own evolve loop, written here from GSL's
 * manual: the same evaluations and the same end state.  Frames cut a run
 * into pieces the method must land on; they may cost some evaluations,
 * but must not make the control forget the step it chose (which made
 * fewer frames cost more).  Kepler orbit e = 0.9 over one period. */
static unsigned long long gsl_calls;

static int kepler_rhs(double t, const double y[], double dydt[], void *params)
{
    (void)t;
    (void)params;
    gsl_calls++;
    double r2 = y[0] * y[0] + y[1] * y[1], k = -1.0 / (r2 * sqrt(r2));
    dydt[0] = y[2];
    dydt[1] = y[3];
    dydt[2] = k * y[0];
    dydt[3] = k * y[1];
    return GSL_SUCCESS;
}

static void test_adaptive_one_frame_is_gsl_evolve(void)
{
    static const char *const orbit[] = {"e=0.9", NULL};
    vb_model m = test_model("orbit", orbit);
    double T = m.type->natural_time(m.self), tol = 1e-10;
    /* periapsis of a = 1, e = 0.9, mu = 1: r = 0.1, speed sqrt(1.9/0.1) */
    double y[4] = {0.1, 0.0, 0.0, sqrt(19.0)}, t = 0.0, h = T;
    gsl_odeiv2_system sys = {kepler_rhs, NULL, 4, NULL};
    gsl_odeiv2_step *st = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rkf45, 4);
    gsl_odeiv2_control *ct = gsl_odeiv2_control_y_new(tol, tol);
    gsl_odeiv2_evolve *ev = gsl_odeiv2_evolve_alloc(4);
    gsl_calls = 0;
    while (t < T)
        if (gsl_odeiv2_evolve_apply(ev, ct, st, &sys, &t, T, &h, y) != GSL_SUCCESS)
            break;
    gsl_odeiv2_evolve_free(ev);
    gsl_odeiv2_control_free(ct);
    gsl_odeiv2_step_free(st);

    unsigned long long evals[2];
    int frames[2] = {1, 63};
    for (int j = 0; j < 2; j++) {
        vb_run_spec spec = {.integ = test_integrator("rkf45"), .model = &m};
        spec.plan = (vb_plan_spec){.kind = VB_PLAN_FIXED, .t_end = T, .dt = T / frames[j],
                                   .tol = tol};
        vb_run_result r;
        char err[256];
        CHECK(vb_simulate(&spec, &r, err, sizeof err) == 0, "rkf45: %s", err);
        evals[j] = r.force_evals;
    }
    CHECK(evals[0] == gsl_calls, "rkf45 in one frame: %llu evaluations, GSL's loop %llu",
          evals[0], gsl_calls);
    CHECK(evals[0] <= evals[1], "rkf45: one frame costs %llu, 63 frames %llu", evals[0],
          evals[1]);
    /* landing on 63 frames costs at most one extra step (6 evaluations)
     * a frame, and in fact far less */
    CHECK(evals[1] <= evals[0] + 6 * 63, "rkf45: 63 frames cost %llu, one %llu", evals[1],
          evals[0]);
    unit_note("rkf45 e = 0.9 orbit at 1e-10: %llu evaluations in one frame (GSL: %llu), "
              "%llu in 63", evals[0], gsl_calls, evals[1]);
}

/* An adaptive run that reaches its cap of internal steps (a tolerance it
 * cannot meet in that many: the spring at k = 1e14 and tol 1e-12 takes
 * 1e8 of them in its second frame, 9 s) stops as diverged and says so, as
 * SHAKE's failure does: the cap and what to change, not only "diverged at
 * step 2".  The count is set just under the cap rather than reached. */
static void test_adaptive_cap_says_why(void)
{
    vb_model m = test_model("spring", NULL);
    const char *names[] = {"rkf45", "rk8pd"};
    for (int i = 0; i < 2; i++) {
        const vb_integrator *g = test_integrator(names[i]);
        _Alignas(max_align_t) unsigned char state[TEST_STATE_BYTES] = {0};
        CHECK(g->state_size(m.n) <= sizeof state, "%s: state of %zu bytes", names[i],
              g->state_size(m.n));
        vb_force f = vb_model_force(&m);
        double x = 1.0, v = 0.0, xo, vo;
        g->set_tolerance(state, 1e-12);
        g->start(state, &f, 0.0, &x, &v, 0.1);
        g->step(state, &f, 0.0, 0.1);
        g->observe(state, &xo, &vo);
        CHECK(isfinite(xo) && !f.stopped, "%s: a frame below the cap is a step", names[i]);
        ((vb_adaptive_state *)(void *)state)->taken = VB_ADAPTIVE_MAX_STEPS;
        g->step(state, &f, 0.1, 0.1);
        g->observe(state, &xo, &vo);
        CHECK(!isfinite(xo) && f.stopped && strstr(f.stopped, "cap of 1e8 internal steps") &&
                  strstr(f.stopped, "loosen tol"),
              "%s at its cap: stopped with NaN (x = %g) and the cap named: '%s'", names[i], xo,
              f.stopped ? f.stopped : "(nothing)");
        g->finish(state);
    }
}

/* stepmatrix.h's M(z) is each method's own step: on the damped spring
 * (k = m = 1, c = 0.205, so omega = 1 and zeta = 0.1025), one step of h = z
 * from (x, v) = (0.3, -0.7), observed, is M applied to (x, v, a) with
 * a = -x - 2 zeta v, the force a method that carries one (velocity Verlet,
 * yoshida4) evaluates at its start.  The matrix is a product of the
 * stages' maps and the method a sequence of the same operations, so the
 * two differ by a few dozen roundings (1e-16 each) of the numbers in play:
 * 1e-13 of the result's size (yoshida4 at z = 3.8 reaches 216), or of 1. */
static void test_step_matrix_is_the_step(void)
{
    static const char *const sets[] = {"c=0.205", NULL};
    vb_model m = test_model("damped-spring", sets);
    const char *names[] = {"euler", "euler-semi", "velocity-verlet", "yoshida4", "pefrl", "rk4"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        for (double z = 0.5; z < 4.0; z += 1.1) {
            const vb_integrator *g = test_integrator(names[i]);
            _Alignas(max_align_t) unsigned char state[TEST_STATE_BYTES] = {0};
            vb_force f = vb_model_force(&m);
            double x = 0.3, v = -0.7, a = -x - 2.0 * 0.1025 * v, mat[3][3];
            CHECK(vb_step_matrix(g, z, 0.1025, mat) == 0, "%s has a step matrix", names[i]);
            g->start(state, &f, 0.0, &x, &v, z);
            g->step(state, &f, 0.0, z);
            double xo, vo;
            g->observe(state, &xo, &vo);
            char what[80];
            snprintf(what, sizeof what, "%s at z = %g: x", names[i], z);
            double wx = mat[0][0] * x + mat[0][1] * v + mat[0][2] * a,
                   wv = mat[1][0] * x + mat[1][1] * v + mat[1][2] * a;
            CHECK_ABS(xo, wx, 1e-13 * fmax(1.0, fabs(wx)), what);
            snprintf(what, sizeof what, "%s at z = %g: v", names[i], z);
            CHECK_ABS(vo, wv, 1e-13 * fmax(1.0, fabs(wv)), what);
        }
    double mat[3][3];
    CHECK(vb_step_matrix(test_integrator("beeman"), 1.0, 0.1, mat) != 0,
          "beeman has none here (its closed form is docs/stability.md §4's)");
}

/* Beeman's first step by hand (Beeman 1976) on x'' = -4x from x0 = 1,
 * v0 = 0.5, h = 0.1, with the documented start: a_{-1} = a(x0 - v0 h +
 * a0 h^2/2) (the spring's force ignores the velocity). */
static void test_hand_step_beeman(void)
{
    double h = 0.1, a0 = -4.0, am = -4.0 * (1.0 - 0.5 * h + 0.5 * a0 * h * h);
    double x1 = 1.0 + 0.5 * h + (4.0 * a0 - am) * h * h / 6.0, a1 = -4.0 * x1;
    double v1 = 0.5 + (2.0 * a1 + 5.0 * a0 - am) * h / 6.0;
    hand_step_one("beeman", x1, v1);
}

/* Eliminating v from Beeman's pair gives x_{n+1} - 2 x_n + x_{n-1} = a_n h^2:
 * its positions are Stormer-Verlet's (method.md §2), whatever its start. */
static void test_fact_beeman_positions_are_verlet(void)
{
    stepper s;
    double x[202], v;
    stepper_start(&s, "beeman", 0.05);
    s.g->observe(s.state, &x[0], &v);
    double worst = 0.0;
    for (int n = 1; n <= 200; n++)
        stepper_step(&s, 0.05, &x[n], &v);
    for (int n = 1; n < 200; n++)
        worst = max_or_nan(worst, fabs(x[n + 1] - 2.0 * x[n] + x[n - 1] - (-4.0 * x[n]) * 0.05 * 0.05));
    /* a few roundings of O(1) numbers a step: 1e-15; the h^3 term Beeman
     * would add if it were not Verlet is 1e-4 here */
    CHECK(worst < 1e-14, "beeman: x+ - 2x + x- - a h^2 = %.3g, not round-off", worst);
}

/* Global error at t = 2 (not a turning point, where the position error is
 * the square of a phase error) on x'' = -4x, at h and h/2: the ratio is
 * 2^p to within 6 % for a method of order p in its asymptotic range. */
static double spring_error_at_2(const char *name, int steps)
{
    stepper s;
    double x = 0.0, v = 0.0, h = 2.0 / steps;
    stepper_start(&s, name, h);
    for (int n = 0; n < steps; n++)
        stepper_step(&s, h, &x, &v);
    stepper_end(&s);
    /* x(t) = cos 2t + 0.25 sin 2t for x0 = 1, v0 = 0.5 */
    return fabs(x - (cos(4.0) + 0.25 * sin(4.0)));
}

static void test_orders_of_the_new_methods(void)
{
    static const struct {
        const char *name;
        int order;
    } want[] = {{"beeman", 2}, {"yoshida4", 4}, {"pefrl", 4}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        double e1 = spring_error_at_2(want[i].name, 80), e2 = spring_error_at_2(want[i].name, 160);
        double p = log(e1 / e2) / log(2.0);
        CHECK(fabs(p - want[i].order) < 0.09, "%s: order %.3f at h = 0.025, want %d", want[i].name,
              p, want[i].order);
    }
    /* PEFRL's reason to exist: the same order with a far smaller constant
     * (Omelyan et al. 2002 report two orders of magnitude against the
     * triple jump at equal h) */
    double ratio = spring_error_at_2("pefrl", 80) / spring_error_at_2("yoshida4", 80);
    CHECK(ratio < 0.05, "pefrl / yoshida4 error at equal h = %.3g, want well below 1", ratio);
}

/* The adaptive methods against the tolerance: on the Kepler orbit e = 0.5
 * over one period, in frames of T/8 (never the limit of their steps), the
 * error falls in proportion to the tolerance (exponent 1 within the
 * verdict's 0.25: GSL carries the higher-order solution, so the error of a
 * step is a power of tol above 1 and the number of steps a power below 0,
 * which add to 1), and costs more evaluations as it falls. */
static void test_adaptive_error_against_tolerance(void)
{
    static const char *const orbit[] = {"e=0.5", NULL};
    vb_model m = test_model("orbit", orbit);
    double T = m.type->natural_time(m.self);
    const char *names[] = {"rkf45", "rk8pd"};
    for (int k = 0; k < 2; k++) {
        double e[2], tol[2] = {1e-6, 1e-10};
        unsigned long long evals[2];
        for (int j = 0; j < 2; j++) {
            vb_run_spec spec = {.integ = test_integrator(names[k]), .model = &m};
            spec.plan = (vb_plan_spec){.kind = VB_PLAN_FIXED, .t_end = T, .dt = T / 8.0,
                                       .tol = tol[j]};
            vb_run_result r;
            char err[256];
            CHECK(vb_simulate(&spec, &r, err, sizeof err) == 0, "%s: %s", names[k], err);
            CHECK(r.status == VB_STATUS_OK, "%s at %g: %s", names[k], tol[j],
                  vb_status_name(r.status));
            CHECK(r.steps == 8, "%s: %llu frames, want 8", names[k], r.steps);
            e[j] = r.err_pos_max;
            evals[j] = r.force_evals;
        }
        double p = log(e[0] / e[1]) / log(tol[0] / tol[1]);
        CHECK(fabs(p - 1.0) < 0.25, "%s: error ~ tol^%.3f, want tol^1", names[k], p);
        unit_note("%s: error %.3g at tol 1e-6, %.3g at 1e-10: tol^%.3f", names[k], e[0], e[1], p);
        CHECK(evals[1] > evals[0], "%s: %llu evaluations at 1e-10, %llu at 1e-6", names[k],
              evals[1], evals[0]);
    }
}

/* A plugin's integrator that claims to be an external engine would be
 * handed to the engine reader as a struct it is not: refused. */
static void test_plugins_cannot_claim_to_be_engines(void)
{
    vb_integrator g = *vb_integrator_find("velocity-verlet");
    char err[256] = "";
    CHECK(vb_integrator_validate(&g, err, sizeof err) == 0, "velocity-verlet is valid: %s", err);
    g.flags |= VB_ENGINE_FLAG;
    CHECK(vb_integrator_validate(&g, err, sizeof err) != 0,
          "an integrator with the engine flag passes validation");
    CHECK(strstr(err, "unknown flags") != NULL, "the message names the flags: %s", err);
}

void suite_integrators(void)
{
    RUN(test_plugins_cannot_claim_to_be_engines);
    RUN(test_hand_step_euler);
    RUN(test_hand_step_euler_semi);
    RUN(test_hand_step_verlet);
    RUN(test_hand_step_verlet_naive);
    RUN(test_hand_step_tcv);
    RUN(test_hand_step_verlet_var);
    RUN(test_hand_step_velocity_verlet);
    RUN(test_velocity_verlet_is_kdk_to_the_bit);
    RUN(test_hand_step_leapfrog);
    RUN(test_hand_step_rk4);
    RUN(test_closed_form_verlet);
    RUN(test_closed_form_velocity_verlet);
    RUN(test_closed_form_euler_semi);
    RUN(test_fact_fixed_steps_same_positions);
    RUN(test_fact_euler_semi_is_naive_verlet);
    RUN(test_fact_verlet_var_is_velocity_verlet_under_any_steps);
    RUN(test_fact_projectile_exactness);
    RUN(test_fact_naive_projectile_error);
    RUN(test_rk4_matches_gsl_step_doubling);
    RUN(test_force_evaluation_counts);
    RUN(test_reverse_retraces_symmetric_methods);
    RUN(test_hand_step_beeman);
    RUN(test_fact_beeman_positions_are_verlet);
    RUN(test_orders_of_the_new_methods);
    RUN(test_adaptive_error_against_tolerance);
    RUN(test_adaptive_one_frame_is_gsl_evolve);
    RUN(test_adaptive_cap_says_why);
    RUN(test_step_matrix_is_the_step);
}
