/* test_rigid.c — rigid bodies: quaternions, the free body's and the
 * symmetric top's exact solutions against independent integrations (GSL's
 * rk8pd, and mpmath at 30 digits through tests/rigid_mpmath.h), the
 * rigid-model table, and the flip and tumble analysis (docs/rigid.md).
 * The methods are tested in test_rigid_methods.c. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_ellint.h>

#include "free_body_solution.h"
#include "quaternion.h"
#include "rigid.h"
#include "rigid_analysis.h"
#include "test_rigid.h"
#include "unit.h"

#include "rigid_mpmath.h"

static const double IDENTITY[4] = {1.0, 0.0, 0.0, 0.0};
/* a turn of 120 degrees about (1, -1, 1): no axis of the body along the
 * world's, so a frame mistake cannot hide */
static const double TILTED[4] = {0.5, 0.5, -0.5, 0.5};

/* ---- the reference: rk8pd on (q, w) ---- */

static int free_body_rhs(double t, const double y[], double dy[], void *params)
{
    (void)t;
    const double *I = params;
    double pw[4] = {0.0, y[4], y[5], y[6]};
    vb_quat_mul(y, pw, dy);
    for (int i = 0; i < 4; i++)
        dy[i] *= 0.5;
    double L[3] = {I[0] * y[4], I[1] * y[5], I[2] * y[6]}, c[3];
    vb_vec3_cross(L, y + 4, c);
    for (int i = 0; i < 3; i++)
        dy[4 + i] = c[i] / I[i];
    return GSL_SUCCESS;
}

struct test_rk8pd {
    gsl_odeiv2_system sys;
    gsl_odeiv2_driver *d;
    double I[3], y[7], t;
};

test_rk8pd *test_rk8pd_new(const double I[3], const double q0[4], const double w0[3])
{
    test_rk8pd *r = calloc(1, sizeof *r);
    if (!r)
        exit(2);
    memcpy(r->I, I, sizeof r->I);
    memcpy(r->y, q0, 4 * sizeof *q0);
    memcpy(r->y + 4, w0, 3 * sizeof *w0);
    r->sys = (gsl_odeiv2_system){free_body_rhs, NULL, 7, r->I};
    r->d = gsl_odeiv2_driver_alloc_y_new(&r->sys, gsl_odeiv2_step_rk8pd, 1e-3, RK8PD_TOL,
                                         RK8PD_TOL);
    if (!r->d)
        exit(2);
    return r;
}

int test_rk8pd_to(test_rk8pd *r, double t, double q[4], double w[3])
{
    int rc = gsl_odeiv2_driver_apply(r->d, &r->t, t, r->y);
    memcpy(q, r->y, 4 * sizeof *q);
    memcpy(w, r->y + 4, 3 * sizeof *w);
    return rc;
}

void test_rk8pd_free(test_rk8pd *r)
{
    if (r)
        gsl_odeiv2_driver_free(r->d);
    free(r);
}

/* ---- quaternions ---- */

static void test_quaternion_algebra(void)
{
    /* Hamilton: i j = k, j k = i, k i = j, i i = -1: exact */
    double i[4] = {0, 1, 0, 0}, j[4] = {0, 0, 1, 0}, k[4] = {0, 0, 0, 1}, r[4];
    vb_quat_mul(i, j, r);
    CHECK(r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 1, "i j = k");
    vb_quat_mul(j, k, r);
    CHECK(r[0] == 0 && r[1] == 1 && r[2] == 0 && r[3] == 0, "j k = i");
    vb_quat_mul(k, i, r);
    CHECK(r[0] == 0 && r[1] == 0 && r[2] == 1 && r[3] == 0, "k i = j");
    vb_quat_mul(i, i, r);
    CHECK(r[0] == -1 && r[1] == 0 && r[2] == 0 && r[3] == 0, "i i = -1");

    /* a quarter turn about z takes x to y; the exponential map of
     * (0, 0, pi/2) is (cos pi/4, 0, 0, sin pi/4).  A few ulps of 1. */
    double rz[3] = {0.0, 0.0, M_PI / 2}, q[4], x[3] = {1, 0, 0}, y[3];
    vb_quat_exp(rz, q);
    CHECK_ABS(q[0], sqrt(0.5), 2e-16, "exp: w");
    CHECK_ABS(q[3], sqrt(0.5), 2e-16, "exp: z");
    vb_quat_rotate(q, x, y);
    CHECK_ABS(y[0], 0.0, 4e-16, "rotate x: x");
    CHECK_ABS(y[1], 1.0, 4e-16, "rotate x: y");
    vb_quat_rotate_inv(q, y, y);
    CHECK_ABS(y[0], 1.0, 4e-16, "rotate back: x");
    double zero[3] = {0, 0, 0};
    vb_quat_exp(zero, q);
    CHECK(q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0, "exp(0) = 1 exactly");

    /* matrix and back, on random unit quaternions: the same rotation to
     * a few ulps (the angle between them) */
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 42);
    double worst = 0.0;
    for (int n = 0; n < 1000; n++) {
        double a[4], m[9], b[4];
        for (int c = 0; c < 4; c++)
            a[c] = gsl_rng_uniform(rng) - 0.5;
        vb_quat_normalise(a);
        vb_quat_to_matrix(a, m);
        vb_quat_from_matrix(m, b);
        double v[3] = {0.3, -0.7, 0.2}, va[3], vm[3];
        vb_quat_rotate(a, v, va);
        for (int r0 = 0; r0 < 3; r0++)
            vm[r0] = m[3 * r0] * v[0] + m[3 * r0 + 1] * v[1] + m[3 * r0 + 2] * v[2];
        double d[3] = {va[0] - vm[0], va[1] - vm[1], va[2] - vm[2]};
        worst = max_or_nan(worst, max_or_nan(vb_quat_angle_between(a, b), vb_vec3_norm(d)));
    }
    gsl_rng_free(rng);
    CHECK(worst <= 2e-15, "matrix round trip and rotation off by %.3g", worst);
}

/* The attitude error keeps its digits at tiny angles: 2 acos(|qe . q|)
 * returns 0 (or 2e-8) for any angle below ~1e-8, since 1 - cos rounds
 * away; 2 atan2 keeps the relative precision of the angle.  Also blind to
 * q -> -q and to the norm. */
static void test_attitude_error_small_angles(void)
{
    for (double delta = 1e-3; delta > 1e-15; delta /= 100.0) {
        double r[3] = {delta * 0.6, -delta * 0.8, 0.0}, e[4], q[4];
        vb_quat_exp(r, e);
        /* from the identity: a few ulps of the angle itself */
        CHECK_REL(vb_quat_angle_between(IDENTITY, e), delta, 1e-14, "angle of exp(r)");
        double neg[4] = {-2 * e[0], -2 * e[1], -2 * e[2], -2 * e[3]};
        CHECK_REL(vb_quat_angle_between(IDENTITY, neg), delta, 1e-14, "angle of -2 exp(r)");
        /* from a tilted attitude: q = TILTED e is rounded to ~eps in each
         * component, which moves the angle by a few eps absolute */
        vb_quat_mul(TILTED, e, q);
        double a = vb_quat_angle_between(TILTED, q);
        CHECK_ABS(a, delta, 1e-14 * delta + 8 * DBL_EPSILON, "angle from a tilted attitude");
        double acos_angle = 2.0 * acos(fmin(1.0, fabs(vb_vec3_dot(TILTED + 1, q + 1) +
                                                     TILTED[0] * q[0])));
        if (delta < 1e-9)
            CHECK(!(fabs(acos_angle - delta) <= 1e-14 * delta + 8 * DBL_EPSILON),
                  "acos keeps the angle %g: the test would not show the difference", delta);
    }
    CHECK(vb_quat_angle_between(TILTED, TILTED) == 0.0, "angle to itself is 0");
}

/* ---- the free body's exact solution ---- */

typedef struct {
    const char *what;
    double I[3], w0[3];
    const double *q0;
    double periods; /* how long to compare */
    double tol;     /* with its reason at the table */
} body_case;

/* rk8pd at 1e-14 on a well-conditioned top makes round-off errors of
 * ~3e-14 in q and w over a few periods (measured against mpmath's 30
 * digits, which the closed form meets to ~1e-14: test below); 1e-12 leaves
 * 30 times that.  A wrong sign, branch or constant in the closed form
 * moves it by 1e-3 or more. */
#define REF_TOL 1e-12
/* Near the separatrix the reference's round-off is amplified by the
 * instability of the intermediate axis (e^(lambda t) on each approach,
 * 1/k' ~ 70 for the default); 1.3e-11 was measured over 2.6 periods of the
 * default, against mpmath.  1e-10 leaves 8 times that. */
#define REF_TOL_NEAR_SEPARATRIX 1e-10

static const body_case CASES[] = {
    {"major-axis branch (D > 0)", {1, 2, 3}, {0.3, 0.2, 1.0}, IDENTITY, 4, REF_TOL},
    {"minor-axis branch (D < 0)", {1, 2, 3}, {1.0, 0.2, 0.3}, TILTED, 4, REF_TOL},
    {"minor-axis branch, w negative", {1, 2, 3}, {-1.0, -0.2, 0.3}, TILTED, 4, REF_TOL},
    {"moments out of order", {2, 3, 1.5}, {-0.4, 0.7, 0.2}, TILTED, 4, REF_TOL},
    {"moments reversed (3 2 1)", {3, 2, 1}, {0.3, -0.5, 0.7}, TILTED, 4, REF_TOL},
    {"moments 2 1 3, D < 0", {2, 1, 3}, {0.8, 0.5, -0.1}, IDENTITY, 4, REF_TOL},
    {"symmetric, I1 = I2", {2, 2, 3}, {0.4, 0.1, 1.0}, TILTED, 3, REF_TOL},
    {"symmetric, I2 = I3", {2, 3, 3}, {0.4, 0.1, 1.0}, TILTED, 2, REF_TOL},
    {"w1 = 0 exactly", {1, 2, 3}, {0.0, 0.5, 0.4}, TILTED, 3, REF_TOL},
    {"the default, near the separatrix", {1, 2, 3}, {0.01, 1, 0.01}, IDENTITY, 2,
     REF_TOL_NEAR_SEPARATRIX},
};

/* q (every component: the exact q is continuous and starts as the
 * reference does, so it is the same quaternion, not only the same
 * attitude) and w against rk8pd at 200 times a period */
static void test_free_body_against_rk8pd(void)
{
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const body_case *bc = &CASES[c];
        vb_free_body_solution s;
        char err[256];
        if (vb_free_body_init(&s, bc->I, bc->w0, bc->q0, err, sizeof err) != 0) {
            CHECK(0, "%s: %s", bc->what, err);
            continue;
        }
        CHECK(s.kind == VB_FREE_BODY_ELLIPTIC, "%s: kind %d", bc->what, (int)s.kind);
        double T = bc->periods * vb_free_body_period(&s);
        int n = (int)(200 * bc->periods);
        test_rk8pd *r = test_rk8pd_new(bc->I, bc->q0, bc->w0);
        double worst_q = 0.0, worst_w = 0.0;
        for (int i = 1; i <= n; i++) {
            double t = T * i / n, qr[4], wr[3], q[4], w[3];
            CHECK(test_rk8pd_to(r, t, qr, wr) == GSL_SUCCESS, "%s: rk8pd failed", bc->what);
            CHECK(vb_free_body_at(&s, t, q, w) == 0, "%s: closed form failed", bc->what);
            for (int k = 0; k < 4; k++)
                worst_q = max_or_nan(worst_q, fabs(q[k] - qr[k]));
            for (int k = 0; k < 3; k++)
                worst_w = max_or_nan(worst_w, fabs(w[k] - wr[k]));
        }
        test_rk8pd_free(r);
        CHECK(worst_q <= bc->tol, "%s: q off rk8pd by %.3g", bc->what, worst_q);
        CHECK(worst_w <= bc->tol, "%s: w off rk8pd by %.3g", bc->what, worst_w);
    }
}

/* Exactly on the separatrix (I = (3, 4, 6), w1 = 2 w3: L^2 = 2 T I2 in
 * exact arithmetic, and in doubles): the limit m = 1.  The reference's
 * round-off grows like e^(lambda t) as the body creeps up to the
 * intermediate axis (lambda = 0.84 here: 2e-14 at t = 10, 9e-11 at
 * t = 20, measured); at t <= 10 REF_TOL holds. */
static void test_free_body_separatrix(void)
{
    const double I[3] = {3, 4, 6}, w0[3] = {2, 0.5, 1};
    vb_free_body_solution s;
    char err[256];
    CHECK(vb_free_body_init(&s, I, w0, TILTED, err, sizeof err) == 0, "%s", err);
    CHECK(s.kind == VB_FREE_BODY_SEPARATRIX, "kind %d, D = %g", (int)s.kind, s.D);
    CHECK(isinf(vb_free_body_period(&s)), "period %g", vb_free_body_period(&s));
    test_rk8pd *r = test_rk8pd_new(I, TILTED, w0);
    double worst = 0.0;
    for (int i = 1; i <= 500; i++) {
        double t = 10.0 * i / 500, qr[4], wr[3], q[4], w[3];
        test_rk8pd_to(r, t, qr, wr);
        vb_free_body_at(&s, t, q, w);
        for (int k = 0; k < 4; k++)
            worst = max_or_nan(worst, fabs(q[k] - qr[k]));
        for (int k = 0; k < 3; k++)
            worst = max_or_nan(worst, fabs(w[k] - wr[k]));
    }
    test_rk8pd_free(r);
    CHECK(worst <= REF_TOL, "separatrix: off rk8pd by %.3g", worst);
}

/* Against mpmath's 30-digit integration (tests/rigid_mpmath.h), where the
 * reference's own error is nothing: what is left is the closed form's
 * round-off.  It is evaluated at the phase u = lambda t + u0, which
 * carries a rounding of a few eps |u|; that turns the body by
 * |w| eps |u| / lambda <= |w| eps (|t| + |u0|/lambda) rad (u0_time =
 * |u0|/lambda, computed by mpmath from the moments), and moves w less.
 * The tolerance is MPMATH_ULPS times that scale; the rows, needles of
 * I1 = 1e-12 and nearly symmetric bodies included, measure up to 0.52 of
 * it.  The two large cancelling terms of the needle's precession angle
 * (issue 50) gave 140 (I1 = 1e-4) to 4e11 (I1 = 1e-12) times it, and the
 * moments of 1e150 a NaN, which fails here (!(e <= tol)).  Near the
 * separatrix (k' = 1.4e-5 down to 1e-25) cn and dn taken to 1e-16
 * absolute where they are pulses gave 20 to 1.5e13 times it (k' = 1e-300
 * at t = 30, before its flip, was within it), and unscaled moments of
 * 1e155 to 1e307 and 1e-320 and w of 1e-158 to 1e150 7e8 to 4e149 times
 * it (attack round 6, items 2 and 3). */
#define MPMATH_ULPS 16.0

static void test_free_body_against_mpmath(void)
{
    size_t n = sizeof rigid_mpmath / sizeof rigid_mpmath[0];
    CHECK(n >= 44, "rigid_mpmath.h has %zu rows", n);
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        vb_free_body_solution s;
        char err[256];
        double q[4], w[3];
        if (vb_free_body_init(&s, rigid_mpmath[i].I, rigid_mpmath[i].w0, IDENTITY, err,
                              sizeof err) != 0 ||
            vb_free_body_at(&s, rigid_mpmath[i].t, q, w) != 0) {
            CHECK(0, "%s: %s", rigid_mpmath[i].what, err);
            continue;
        }
        double spin = max_or_nan(vb_vec3_norm(rigid_mpmath[i].w0), vb_vec3_norm(rigid_mpmath[i].w));
        double scale = DBL_EPSILON * (1.0 + spin * (fabs(rigid_mpmath[i].t) +
                                                    rigid_mpmath[i].u0_time));
        double e = 0.0;
        for (int k = 0; k < 4; k++)
            e = max_or_nan(e, fabs(q[k] - rigid_mpmath[i].q[k]));
        /* w in units of |w| where that is below 1 (a w of 1e-158 would
         * pass any absolute bound) or far above it (a w of 1e150 is 1e134
         * off in its last bit); the rows with |w| in [1, 4] keep the
         * absolute bound they had */
        double unit = spin > 4.0 ? spin : fmin(spin, 1.0);
        for (int k = 0; k < 3; k++)
            e = max_or_nan(e, fabs(w[k] - rigid_mpmath[i].w[k]) / unit);
        CHECK(e <= MPMATH_ULPS * scale,
              "%s, t = %g: off mpmath by %.3g, %.3g times its round-off scale %.3g",
              rigid_mpmath[i].what, rigid_mpmath[i].t, e, e / scale, scale);
        worst = max_or_nan(worst, e / scale);
    }
    unit_note("free body against mpmath (30 digits): up to %.2g times the round-off scale "
              "eps (1 + |w| |u| / lambda)",
              worst);
}

/* What the exact solution must conserve, at any t: the energy and the
 * world angular momentum q (I w) q*.  The second ties the attitude to w
 * without any integration: a wrong precession angle turns L.  Both to
 * round-off of the evaluation at |u| up to ~250 (10 periods): 64 eps
 * (1 + |u|) relative. */
static void test_free_body_conserves(void)
{
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const body_case *bc = &CASES[c];
        vb_free_body_solution s;
        char err[256];
        vb_free_body_init(&s, bc->I, bc->w0, bc->q0, err, sizeof err);
        vb_rigid_props p = {{bc->I[0], bc->I[1], bc->I[2]}, 1.0, {0, 0, 0}};
        vb_rigid_state st = {{0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        memcpy(st.q, bc->q0, sizeof st.q);
        memcpy(st.w, bc->w0, sizeof st.w);
        double E0 = vb_rigid_energy(&p, &st), L0[3], worst_E = 0.0, worst_L = 0.0;
        vb_rigid_angmom(&p, &st, L0);
        double T = 10.0 * vb_free_body_period(&s), L0n = vb_vec3_norm(L0);
        for (int i = 1; i <= 1000; i++) {
            double t = T * i / 1000, L[3];
            vb_free_body_at(&s, t, st.q, st.w);
            double u = fabs(s.lambda * t + s.u0);
            double E = vb_rigid_energy(&p, &st);
            vb_rigid_angmom(&p, &st, L);
            double d[3] = {L[0] - L0[0], L[1] - L0[1], L[2] - L0[2]};
            worst_E = max_or_nan(worst_E, fabs(E - E0) / E0 / (64 * DBL_EPSILON * (1 + u)));
            worst_L = max_or_nan(worst_L, vb_vec3_norm(d) / L0n / (64 * DBL_EPSILON * (1 + u)));
        }
        CHECK(worst_E <= 1.0, "%s: energy off by %.3g of its bound", bc->what, worst_E);
        CHECK(worst_L <= 1.0, "%s: world L off by %.3g of its bound", bc->what, worst_L);
    }
}

/* Over many periods.  w(t) has period T, so R(t + T) and R_L R(t), R_L =
 * R(T) R(0)^T a turn about L, solve the same equation from the same
 * start: q(t + n T) = (q(T) q0*)^n q(t), the turn by n times its angle
 * about its axis.  At n = 1000 the closed form unwraps the amplitude by
 * j = 2000 and its phase u = lambda t + u0 is ~2e4; its round-off, a few
 * ulps of u, bounds the difference: 64 eps (1 + |u|) rad (3e-10 for the
 * default; 1e-11 measured).  An unwrapping that breaks the period (a sign
 * of sn or cn, a lift of psi) is off by the order of one.  (The value of
 * G(K) is not tested here: it enters q(T) and q(nT) alike; rk8pd holds it.) */
static void test_free_body_many_periods(void)
{
    const double ws[2][3] = {{0.01, 1.0, 0.01}, {1.0, 0.2, 0.3}};
    const double I[3] = {1, 2, 3};
    for (int b = 0; b < 2; b++) {
        vb_free_body_solution s;
        char err[256];
        vb_free_body_init(&s, I, ws[b], TILTED, err, sizeof err);
        double T = vb_free_body_period(&s), q[4], w[3], qT[4], turn[4], c[4];
        vb_free_body_at(&s, T, qT, w);
        vb_quat_conj(TILTED, c);
        vb_quat_mul(qT, c, turn);
        /* the n-th power of a unit quaternion: n times its angle */
        double v = vb_vec3_norm(turn + 1), angle = 2.0 * atan2(v, turn[0]), n = 1000.0;
        double r[3] = {turn[1] / v * angle * n, turn[2] / v * angle * n, turn[3] / v * angle * n};
        double power[4];
        vb_quat_exp(r, power);
        double worst = 0.0, bound = 0.0;
        for (int k = 0; k < 5; k++) {
            double t = 0.2 * k * T, qt[4], want[4];
            vb_free_body_at(&s, t, qt, w);
            vb_quat_mul(power, qt, want);
            vb_free_body_at(&s, t + n * T, q, w);
            double u = fabs(s.lambda * (t + n * T) + s.u0);
            bound = 64 * DBL_EPSILON * (1 + u);
            worst = max_or_nan(worst, vb_quat_angle_between(want, q) / bound);
        }
        CHECK(worst <= 1.0, "w0 %d: after 1000 periods, %.3g of the bound %.2g rad off", b, worst,
              bound);
    }
}

/* Relabelled moments give the same w(t), relabelled: an even
 * (cyclic) permutation P takes a solution w(t) to P w(t); an odd one
 * reverses Euler's equations' sign, so it takes w(t) to P w(-t).  Each
 * relabelling goes through another canonical frame of the code, and the
 * odd ones through negative t.  A few ulps: 1e-14. */
static void test_free_body_orderings(void)
{
    static const int perms[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                    {1, 0, 2}, {0, 2, 1}, {2, 1, 0}};
    const double I[3] = {1.0, 2.0, 3.0};
    const double ws[2][3] = {{0.3, 0.2, 1.0}, {1.0, 0.2, -0.3}};
    for (int b = 0; b < 2; b++) {
        vb_free_body_solution base;
        char err[256];
        vb_free_body_init(&base, I, ws[b], IDENTITY, err, sizeof err);
        for (int k = 0; k < 6; k++) {
            const int *P = perms[k];
            int odd = k >= 3;
            double Ip[3], wp[3];
            for (int i = 0; i < 3; i++) {
                Ip[i] = I[P[i]];
                wp[i] = ws[b][P[i]];
            }
            vb_free_body_solution s;
            vb_free_body_init(&s, Ip, wp, IDENTITY, err, sizeof err);
            CHECK_REL(vb_free_body_period(&s), vb_free_body_period(&base), 1e-14,
                      "period of a relabelled body");
            double worst = 0.0;
            for (int n = 1; n <= 100; n++) {
                double t = 0.37 * n, q[4], w[3], qb[4], wb[3];
                vb_free_body_at(&s, t, q, w);
                vb_free_body_at(&base, odd ? -t : t, qb, wb);
                for (int i = 0; i < 3; i++)
                    worst = max_or_nan(worst, fabs(w[i] - wb[P[i]]));
            }
            CHECK(worst <= 1e-14, "relabelling %d%d%d (w0 %d): w off by %.3g", P[0] + 1,
                  P[1] + 1, P[2] + 1, b, worst);
        }
    }
}

/* Two closed forms that share no code: the free body at I = (2, 2, 1)
 * (the elliptic machinery at m = 0) and the symmetric top's regular
 * precession; and the symmetric top against rk8pd (REF_TOL, as above). */
static void test_symmetric_top(void)
{
    vb_rigid_model top, fb;
    char err[256];
    vb_rigid_model_defaults(&top, vb_rigid_model_find("symmetric-top"));
    vb_rigid_model_defaults(&fb, vb_rigid_model_find("free-body"));
    const char *sets[][2] = {{"I1", "2"}, {"I2", "2"}, {"I3", "1"},
                             {"w1", "0.3"}, {"w2", "0"}, {"w3", "2"}};
    for (size_t i = 0; i < 6; i++)
        CHECK(vb_rigid_model_set(&fb, sets[i][0], sets[i][1], err, sizeof err) == 0, "%s", err);
    CHECK(vb_rigid_model_setup(&top, err, sizeof err) == 0, "%s", err);
    CHECK(vb_rigid_model_setup(&fb, err, sizeof err) == 0, "%s", err);
    vb_rigid_state a, b;
    top.type->initial(top.self, &a);
    fb.type->initial(fb.self, &b);
    CHECK(memcmp(&a, &b, sizeof a) == 0, "the two start in the same state");
    const double I[3] = {2, 2, 1};
    test_rk8pd *r = test_rk8pd_new(I, a.q, a.w);
    double T = 3.0 * top.type->natural_time(top.self), worst_fb = 0.0, worst_ref = 0.0;
    for (int n = 1; n <= 600; n++) {
        double t = T * n / 600, qr[4], wr[3];
        top.type->exact(top.self, NULL, t, &a);
        fb.type->exact(fb.self, NULL, t, &b);
        test_rk8pd_to(r, t, qr, wr);
        for (int k = 0; k < 4; k++) {
            worst_fb = max_or_nan(worst_fb, fabs(a.q[k] - b.q[k]));
            worst_ref = max_or_nan(worst_ref, fabs(a.q[k] - qr[k]));
        }
        for (int k = 0; k < 3; k++) {
            worst_fb = max_or_nan(worst_fb, fabs(a.w[k] - b.w[k]));
            worst_ref = max_or_nan(worst_ref, fabs(a.w[k] - wr[k]));
        }
    }
    test_rk8pd_free(r);
    /* two closed forms, each a few ulps of angles up to ~20 rad */
    CHECK(worst_fb <= 1e-13, "symmetric top and free body differ by %.3g", worst_fb);
    CHECK(worst_ref <= REF_TOL, "symmetric top off rk8pd by %.3g", worst_ref);
    vb_rigid_model_free(&top);
    vb_rigid_model_free(&fb);
}

/* ---- flips and tumbles ---- */

/* The default's flip period, 4K/lambda, measured on the reference (rk8pd)
 * trajectory, which knows nothing of K: three periods sampled at T/1000,
 * six flips of the intermediate axis.  Each flip's time is a linear
 * interpolation of sn near its zero, where sn'' = 0: the error is O(h^3),
 * ~1e-9 of T here; 1e-7 relative bounds it.  And K against GSL's
 * gsl_sf_ellint_Kcomp, far from the separatrix where m loses nothing. */
static void test_flip_period(void)
{
    vb_rigid_model m;
    char err[256];
    vb_rigid_model_defaults(&m, vb_rigid_model_find("free-body"));
    CHECK(vb_rigid_model_setup(&m, err, sizeof err) == 0, "%s", err);
    vb_rigid_props p;
    m.type->props(m.self, &p);
    double T = m.type->w_period(m.self);
    CHECK(T == m.type->natural_time(m.self), "natural time is the flip period");
    vb_rigid_state s;
    m.type->initial(m.self, &s);
    test_rk8pd *r = test_rk8pd_new(p.inertia, s.q, s.w);
    int axis = vb_rigid_intermediate_axis(p.inertia);
    CHECK(axis == 1, "intermediate axis %d", axis);
    vb_flip_tracker ref, ex;
    vb_flip_tracker_start(&ref, axis, VB_FLIP_THRESHOLD);
    vb_flip_tracker_start(&ex, axis, VB_FLIP_THRESHOLD);
    vb_flip_tracker_add(&ref, &p, 0.0, &s);
    vb_flip_tracker_add(&ex, &p, 0.0, &s);
    for (int n = 1; n <= 3000; n++) {
        double t = 3.0 * T * n / 3000;
        test_rk8pd_to(r, t, s.q, s.w);
        vb_flip_tracker_add(&ref, &p, t, &s);
        m.type->exact(m.self, NULL, t, &s);
        vb_flip_tracker_add(&ex, &p, t, &s);
    }
    test_rk8pd_free(r);
    CHECK(ref.flips == 6, "reference: %zu flips in three periods", ref.flips);
    CHECK(ex.flips == 6, "exact: %zu flips in three periods", ex.flips);
    CHECK_REL(vb_flip_tracker_period(&ref), T, 1e-7, "flip period measured on rk8pd");
    CHECK_REL(vb_flip_tracker_period(&ex), T, 1e-7, "flip period measured on the closed form");
    vb_rigid_model_free(&m);

    /* K: the AGM against GSL's Carlson form, 4 ulps */
    const double I[3] = {1, 2, 3}, w0[3] = {0.3, 0.2, 1.0};
    vb_free_body_solution fs;
    vb_free_body_init(&fs, I, w0, IDENTITY, err, sizeof err);
    CHECK_REL(vb_free_body_period(&fs), 4.0 * gsl_sf_ellint_Kcomp(sqrt(fs.m), GSL_PREC_DOUBLE) /
                                            fs.lambda,
              1e-15, "4K/lambda with GSL's K");
}

/* A stable spin with a wobble, about the largest and the smallest axis:
 * the intermediate axis never turns over (its c stays below 1/2), so no
 * flip and no tumble, and D keeps its sign (it is conserved), over ten
 * periods of the closed form. */
static void test_stable_spins_do_not_flip(void)
{
    const char *spins[][3] = {{"0.05", "0.05", "5"}, {"5", "0.05", "0.05"}};
    for (int k = 0; k < 2; k++) {
        vb_rigid_model m;
        char err[256];
        vb_rigid_model_defaults(&m, vb_rigid_model_find("free-body"));
        vb_rigid_model_set(&m, "w1", spins[k][0], err, sizeof err);
        vb_rigid_model_set(&m, "w2", spins[k][1], err, sizeof err);
        vb_rigid_model_set(&m, "w3", spins[k][2], err, sizeof err);
        CHECK(vb_rigid_model_setup(&m, err, sizeof err) == 0, "%s", err);
        vb_rigid_props p;
        m.type->props(m.self, &p);
        vb_flip_tracker fl;
        vb_flip_tracker_start(&fl, 1, VB_FLIP_THRESHOLD);
        double T = 10 * m.type->w_period(m.self), D0 = NAN;
        int sign_kept = 1;
        for (int n = 0; n <= 2000; n++) {
            vb_rigid_state s;
            m.type->exact(m.self, NULL, T * n / 2000, &s);
            vb_flip_tracker_add(&fl, &p, T * n / 2000, &s);
            double D = vb_rigid_polhode_D(&p, s.w);
            if (n == 0)
                D0 = D;
            sign_kept &= D * D0 > 0.0;
        }
        CHECK(fl.flips == 0, "spin %d: %zu flips", k, fl.flips);
        CHECK(sign_kept, "spin %d: D changed sign", k);
        vb_rigid_model_free(&m);
    }
}

/* The tracker on made-up motions with known answers.  L = (0, cos t,
 * sin t)/..., so c = L_2/|L| = cos t: flips at pi/2 + j pi, period 2 pi;
 * sampled at 0.01 the interpolation error is O(h^3) (cos'' = 0 at its
 * zeros): 1e-6.  A wobble c = 0.3 cos t never reaches the band. */
static void test_trackers_on_known_motions(void)
{
    vb_rigid_props p = {{1, 2, 3}, 1, {0, 0, 0}};
    vb_rigid_state s = {{0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    vb_flip_tracker fl, wob;
    vb_flip_tracker_start(&fl, 1, VB_FLIP_THRESHOLD);
    vb_flip_tracker_start(&wob, 1, VB_FLIP_THRESHOLD);
    for (int n = 0; n <= 3000; n++) {
        double t = 0.01 * n;
        s.w[0] = 0.0;
        s.w[1] = cos(t) / 2.0;
        s.w[2] = sin(t) / 3.0;
        vb_flip_tracker_add(&fl, &p, t, &s);
        s.w[1] = 0.3 * cos(t) / 2.0;
        s.w[2] = sqrt(1 - 0.09 * cos(t) * cos(t)) / 3.0;
        vb_flip_tracker_add(&wob, &p, t, &s);
    }
    CHECK(fl.flips == 9, "cos t over 30: %zu flips", fl.flips); /* pi/2 + j pi < 30: j = 0..8 */
    CHECK_ABS(fl.first_flip, M_PI / 2, 1e-6, "first flip");
    CHECK_REL(vb_flip_tracker_period(&fl), 2 * M_PI, 1e-6, "period of cos t");
    CHECK(wob.flips == 0, "a wobble of 0.3: %zu flips", wob.flips);
    CHECK(isnan(vb_flip_tracker_period(&wob)), "no period without flips");
}

/* c = cos phi(t) flips where phi = pi/2 + j pi.  Regular (docs/rigid.md
 * §4): evenly spaced flips, none missing at the start or the end.  Each
 * motion here breaks one part of the rule by far more than its 25 %, as
 * ODE's did (gaps 8.15 s down to 4.93 s, then none for 50 s), or meets
 * it: the count is exact, so a rule that let these through, or a count of
 * the sign changes of w2, shows. */
static vb_flip_tracker track_phase(double (*phi)(double), double t_end)
{
    vb_rigid_props p = {{1, 2, 3}, 1, {0, 0, 0}};
    vb_rigid_state s = {{0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    vb_flip_tracker fl;
    vb_flip_tracker_start(&fl, 1, VB_FLIP_THRESHOLD);
    for (int n = 0; 0.01 * n <= t_end; n++) {
        double t = 0.01 * n;
        s.w[1] = cos(phi(t)) / 2.0;
        s.w[2] = sin(phi(t)) / 3.0;
        vb_flip_tracker_add(&fl, &p, t, &s);
    }
    return fl;
}

/* flips ever closer: the phase runs as t + t^2/20 (gaps pi / (1 + t/10)) */
static double phase_speeding(double t) { return t + t * t / 20.0; }
/* flips that stop: from t = 15 the phase stays at 5 pi (c = -1, turned) */
static double phase_stopping(double t) { return t < 5.0 * M_PI ? t : 5.0 * M_PI; }
/* flips that start late, as after a tumble: c = 1 until t = 20 */
static double phase_late(double t) { return t < 20.0 ? 0.0 : t - 20.0; }
/* even flips, pi apart */
static double phase_steady(double t) { return t; }

static void test_flips_regular(void)
{
    vb_flip_tracker fl = track_phase(phase_steady, 30.0);
    CHECK(fl.flips == 9 && vb_flip_tracker_regular(&fl), "cos t: %zu flips, regular %d",
          fl.flips, vb_flip_tracker_regular(&fl));
    fl = track_phase(phase_speeding, 30.0);
    /* phi(30) = 75: pi/2 + j pi < 75 for j = 0..23 */
    CHECK(fl.flips == 24 && !vb_flip_tracker_regular(&fl) &&
              isnan(vb_flip_tracker_period(&fl)),
          "flips four times closer at the end: %zu flips, no period (%g)", fl.flips,
          vb_flip_tracker_period(&fl));
    fl = track_phase(phase_stopping, 60.0);
    CHECK(fl.flips == 5 && !vb_flip_tracker_regular(&fl), "flips that stop at 15 s of 60: "
                                                          "%zu flips, regular %d",
          fl.flips, vb_flip_tracker_regular(&fl));
    fl = track_phase(phase_stopping, 17.0);
    CHECK(fl.flips == 5 && vb_flip_tracker_regular(&fl) &&
              fabs(vb_flip_tracker_period(&fl) - 2.0 * M_PI) <= 1e-6,
          "the same up to 17 s, 2 s past the last flip: regular, period %.9g",
          vb_flip_tracker_period(&fl));
    fl = track_phase(phase_late, 60.0);
    CHECK(fl.flips == 13 && !vb_flip_tracker_regular(&fl),
          "flips from 21.6 s of 60 (a tumble's): %zu flips, regular %d", fl.flips,
          vb_flip_tracker_regular(&fl));
}

/* ---- the table and its parameters ---- */

static void test_rigid_model_table(void)
{
    char names[256], err[512];
    vb_rigid_model_names(names, sizeof names);
    CHECK(strcmp(names, "free-body, symmetric-top, roll, box-incline") == 0, "names: %s", names);
    for (size_t i = 0; i < vb_rigid_model_count(); i++)
        CHECK(vb_rigid_model_validate(vb_rigid_model_at(i), err, sizeof err) == 0, "%s", err);
    CHECK(vb_rigid_model_find("nothing") == NULL, "no such model");

    vb_rigid_model m;
    vb_rigid_model_defaults(&m, vb_rigid_model_find("free-body"));
    CHECK(vb_rigid_model_set(&m, "I9", "1", err, sizeof err) == -1, "unknown key");
    CHECK(strstr(err, "unknown parameter 'I9'") && strstr(err, "I1, I2, I3, w1"), "%s", err);
    CHECK(vb_rigid_model_set(&m, "I1", "-1", err, sizeof err) == -2, "negative moment");
    CHECK(vb_rigid_model_set(&m, "w1", "x", err, sizeof err) == -2, "not a number");
    /* I3 = 4 > I1 + I2 = 3: no body has these moments */
    CHECK(vb_rigid_model_set(&m, "I3", "4", err, sizeof err) == 0, "%s", err);
    CHECK(vb_rigid_model_setup(&m, err, sizeof err) == -1, "triangle inequality refused");
    CHECK(strstr(err, "I3 = 4 is more than I1 + I2 = 3"), "%s", err);
    CHECK(m.self == NULL, "nothing half made");
    /* a flat plate is a body: I3 = I1 + I2 */
    CHECK(vb_rigid_model_set(&m, "I3", "3", err, sizeof err) == 0, "%s", err);
    CHECK(vb_rigid_model_setup(&m, err, sizeof err) == 0, "%s", err);
    /* gravity along -z, the potential m g z zero at the start */
    vb_rigid_model_set(&m, "g", "9.81", err, sizeof err);
    vb_rigid_model_set(&m, "vx", "3", err, sizeof err);
    vb_rigid_model_set(&m, "m", "2", err, sizeof err);
    CHECK(vb_rigid_model_setup(&m, err, sizeof err) == 0, "%s", err);
    vb_rigid_props p;
    m.type->props(m.self, &p);
    CHECK(p.gravity[0] == 0 && p.gravity[1] == 0 && p.gravity[2] == -9.81, "gravity along -z");
    vb_rigid_state s0, s;
    m.type->initial(m.self, &s0);
    m.type->exact(m.self, NULL, 1.5, &s);
    CHECK_ABS(s.x[0], 4.5, 1e-15, "projectile x");
    CHECK_ABS(s.x[2], -0.5 * 9.81 * 2.25, 1e-14, "projectile z");
    CHECK_ABS(s.v[2], -9.81 * 1.5, 1e-14, "projectile vz");
    CHECK_REL(vb_rigid_model_energy(&m, &s), vb_rigid_model_energy(&m, &s0), 1e-14,
              "energy with the potential m g z");
    vb_rigid_model_free(&m);

    vb_rigid_model_defaults(&m, vb_rigid_model_find("symmetric-top"));
    vb_rigid_model_set(&m, "I3", "5", err, sizeof err);
    CHECK(vb_rigid_model_setup(&m, err, sizeof err) == -1, "I3 = 5 > 2 I1 refused");
    vb_rigid_model_free(&m);
}

void suite_rigid(void)
{
    RUN(test_quaternion_algebra);
    RUN(test_attitude_error_small_angles);
    RUN(test_free_body_against_rk8pd);
    RUN(test_free_body_separatrix);
    RUN(test_free_body_against_mpmath);
    RUN(test_free_body_conserves);
    RUN(test_free_body_many_periods);
    RUN(test_free_body_orderings);
    RUN(test_symmetric_top);
    RUN(test_flip_period);
    RUN(test_stable_spins_do_not_flip);
    RUN(test_trackers_on_known_motions);
    RUN(test_flips_regular);
    RUN(test_rigid_model_table);
}
