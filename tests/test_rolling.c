/* test_rolling.c — the exact roll and the block with mu_s and mu_k
 * (contact/roll.h, contact/box_slide.h) and the models made of them
 * (models/roll_model.c, box_incline.c), each held to a derivation written
 * here and to a fine integration of the 3-D equations of a rigid body at a
 * contact, by GSL's rk8pd with the slip's events located by Brent's method
 * (docs/contact.md, "3D: rolling and resting bodies"). */
#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "box_slide.h"
#include "incline.h"
#include "rigid.h"
#include "roll.h"
#include "unit.h"

#define DEG (M_PI / 180.0)

/* ---- a fine integration of the 3-D equations ----------------------------------
 * A ball of radius R (R = 0: a block that does not turn) and moment k R^2
 * per unit mass on the plane through the origin with normal n: centre x,
 * velocity v, world angular velocity om, theta the angle about the axis.
 * The normal force per unit mass N = -n.g keeps n.a = 0.  The contact
 * point r = -R n moves at vc = v + om x r; while its tangential part is not
 * 0, kinetic friction -mu_k N dir acts there, with the torque r x F, dir
 * the direction of vc_t at the slipping segment's start (vc_t keeps it to
 * the segment's end: here every force lies in the plane of d and n, and
 * held fixed it lets vc_t pass through 0 at the event instead of
 * chattering about it in the trial steps).  Rolling (or sticking), the friction F is what keeps the contact
 * point's tangential acceleration 0: a + alpha x r = 0 with a = g + N n +
 * F and alpha = r x F / (k R^2), solved as the 3 x 3 system
 *     F + ((r.r) F - (r.F) r) / (k R^2) = -g_t
 * by Cramer's rule (no 1-D formula of roll.h is used), and the contact
 * holds while |F| <= mu_s N. */
typedef struct {
    double R, k, mu_s, mu_k, g;
    double n[3], d[3], axis[3];
    int stuck;      /* rolling or sticking */
    double dir[3];  /* the slip's direction where vc_t is 0 (just after an event) */
} fine_body;

static void cross3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double det3(const double m[3][3])
{
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/* the friction force that keeps the contact point still */
static void sticking_friction(const fine_body *b, double F[3])
{
    double gv[3] = {0.0, 0.0, -b->g}, gt[3], r[3], M[3][3];
    double gn = dot3(gv, b->n);
    for (int i = 0; i < 3; i++) {
        gt[i] = gv[i] - gn * b->n[i];
        r[i] = -b->R * b->n[i];
    }
    double c = b->R > 0.0 ? 1.0 / (b->k * b->R * b->R) : 0.0, rr = dot3(r, r);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            M[i][j] = (i == j ? 1.0 + c * rr : 0.0) - c * r[i] * r[j];
    double D = det3(M);
    for (int col = 0; col < 3; col++) {
        double Mc[3][3];
        memcpy(Mc, M, sizeof M);
        for (int i = 0; i < 3; i++)
            Mc[i][col] = -gt[i];
        F[col] = det3(Mc) / D;
    }
}

static void contact_velocity(const fine_body *b, const double *y, double vt[3])
{
    double r[3], w_r[3];
    for (int i = 0; i < 3; i++)
        r[i] = -b->R * b->n[i];
    cross3(y + 6, r, w_r);
    double vc[3];
    for (int i = 0; i < 3; i++)
        vc[i] = y[3 + i] + w_r[i];
    double vn = dot3(vc, b->n);
    for (int i = 0; i < 3; i++)
        vt[i] = vc[i] - vn * b->n[i];
}

static int fine_rhs(double t, const double *y, double *dy, void *params)
{
    (void)t;
    const fine_body *b = params;
    double gv[3] = {0.0, 0.0, -b->g}, F[3], r[3], rF[3];
    double N = -dot3(gv, b->n);
    if (b->stuck) {
        sticking_friction(b, F);
    } else {
        for (int i = 0; i < 3; i++)
            F[i] = -b->mu_k * N * b->dir[i];
    }
    for (int i = 0; i < 3; i++)
        r[i] = -b->R * b->n[i];
    cross3(r, F, rF);
    double c = b->R > 0.0 ? 1.0 / (b->k * b->R * b->R) : 0.0;
    for (int i = 0; i < 3; i++) {
        dy[i] = y[3 + i];
        dy[3 + i] = gv[i] + N * b->n[i] + F[i];
        dy[6 + i] = c * rF[i];
    }
    dy[9] = dot3(y + 6, b->axis);
    return GSL_SUCCESS;
}

/* y over tau, fresh: rk8pd in 8 fixed steps.  Between events the motion
 * is a polynomial of degree 2, which it follows to round-off; across an
 * event (a trial step, only its sign read) it is merely finite. */
static void fine_advance(fine_body *b, double *y, double tau)
{
    if (!(tau > 0.0))
        return;
    gsl_odeiv2_system sys = {fine_rhs, NULL, 10, b};
    gsl_odeiv2_driver *drv =
        gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, tau / 8.0, 1e-14, 1e-14);
    double t = 0.0;
    gsl_odeiv2_driver_apply_fixed_step(drv, &t, tau / 8.0, 8, y);
    gsl_odeiv2_driver_free(drv);
}

typedef struct {
    fine_body *b;
    const double *y0;
    double sign;
} slip_root;

/* the slip along its first direction after tau */
static double slip_after(double tau, void *p)
{
    slip_root *s = p;
    double y[10], vt[3];
    memcpy(y, s->y0, sizeof y);
    fine_advance(s->b, y, tau);
    contact_velocity(s->b, y, vt);
    return s->sign * dot3(vt, s->b->d);
}

/* The state at each time of ts (increasing), from y0 at 0: the slip's sign
 * changes located to 4 ulps by Brent's method between samples 1e-3 apart. */
static void fine_run(fine_body *b, const double y0[10], const double *ts, int nt, double (*ys)[10])
{
    double y[10], t = 0.0;
    memcpy(y, y0, sizeof y);
    double vt[3];
    contact_velocity(b, y, vt);
    double u = dot3(vt, b->d);
    double F[3], N = b->g * dot3(b->n, (double[3]){0.0, 0.0, 1.0});
    sticking_friction(b, F);
    int can_stick = sqrt(dot3(F, F)) <= b->mu_s * N;
    b->stuck = u == 0.0 && can_stick;
    double sign = u > 0.0 || (u == 0.0 && !can_stick) ? 1.0 : -1.0;
    for (int i = 0; i < 3; i++)
        b->dir[i] = sign * b->d[i];
    for (int k = 0; k < nt; k++) {
        while (t < ts[k]) {
            double step = fmin(1e-3, ts[k] - t);
            double yn[10];
            memcpy(yn, y, sizeof y);
            contact_velocity(b, y, vt);
            /* an event only from a slip of the sign it had: not from the
             * round-off left at an event it slips on from */
            int before = sign * dot3(vt, b->d) > 0.0;
            fine_advance(b, yn, step);
            contact_velocity(b, yn, vt);
            if (!b->stuck && before && sign * dot3(vt, b->d) <= 0.0) {
                slip_root sr = {b, y, sign};
                gsl_function f = {slip_after, &sr};
                gsl_root_fsolver *rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
                gsl_root_fsolver_set(rs, &f, 0.0, step);
                double lo = 0.0, hi = step;
                for (int it = 0; it < 200; it++) {
                    gsl_root_fsolver_iterate(rs);
                    lo = gsl_root_fsolver_x_lower(rs);
                    hi = gsl_root_fsolver_x_upper(rs);
                    if (gsl_root_test_interval(lo, hi, 0.0, 4.0 * DBL_EPSILON) == GSL_SUCCESS)
                        break;
                }
                gsl_root_fsolver_free(rs);
                double tau = 0.5 * (lo + hi);
                fine_advance(b, y, tau);
                t += tau;
                if (can_stick) {
                    b->stuck = 1;
                } else { /* it slips on, down the slope */
                    sign = 1.0;
                    for (int i = 0; i < 3; i++)
                        b->dir[i] = b->d[i];
                }
                continue;
            }
            memcpy(y, yn, sizeof y);
            t += step;
        }
        memcpy(ys[k], y, sizeof y);
    }
}

/* ---- the roll ----------------------------------------------------------------- */

/* the fine integration of a ball against vb_roll at 12 times to 1e-9 */
static void check_roll_fine(double R, double k, double alpha_deg, double mu, double v0,
                            double w0)
{
    char err[256];
    vb_roll r;
    double alpha = alpha_deg * DEG;
    CHECK(vb_roll_init(&r, R, k, alpha, mu, 9.81, v0, w0, err, sizeof err) == 0, "%s", err);
    fine_body b = {.R = R, .k = k, .mu_s = mu, .mu_k = mu, .g = 9.81};
    vb_incline_frame(alpha, b.n, b.d, b.axis);
    double y0[10] = {0};
    for (int i = 0; i < 3; i++) {
        y0[3 + i] = v0 * b.d[i];
        y0[6 + i] = w0 * b.axis[i];
    }
    double tend = isfinite(r.t_roll) && r.t_roll > 0.0 ? 2.0 * r.t_roll : 1.0;
    double ts[12], ys[12][10];
    for (int i = 0; i < 12; i++)
        ts[i] = tend * (i + 1) / 12.0;
    fine_run(&b, y0, ts, 12, ys);
    for (int i = 0; i < 12; i++) {
        vb_roll_point p;
        vb_roll_at(&r, ts[i], &p);
        char what[128];
        snprintf(what, sizeof what, "k %g alpha %g mu %g v0 %g w0 %g t %g: x", k, alpha_deg, mu,
                 v0, w0, ts[i]);
        /* 1e-9: the bound on a fine integration; the integration
         * is exact between events, which Brent's method puts to 4 ulps */
        CHECK_ABS(p.x, dot3(ys[i], b.d), 1e-9, what);
        CHECK_ABS(p.v, dot3(ys[i] + 3, b.d), 1e-9, "v");
        CHECK_ABS(p.w, dot3(ys[i] + 6, b.axis), 1e-9, "w");
        CHECK_ABS(p.theta, ys[i][9], 1e-9, "theta");
        CHECK_ABS(dot3(ys[i], b.n), 0.0, 1e-12, "the fine ball left the plane");
    }
}

static void test_roll_against_fine_integration(void)
{
    check_roll_fine(0.1, 0.4, 0.0, 0.5, 2.0, 0.0);    /* the flat slide-to-roll */
    check_roll_fine(0.1, 0.4, 30.0, 0.5, 2.0, 0.0);   /* the incline, rolls */
    check_roll_fine(0.1, 0.4, 30.0, 0.1, 2.0, 0.0);   /* slips for ever */
    check_roll_fine(0.2, 2.0 / 3.0, 10.0, 0.3, 1.0, -20.0); /* back-spin, a shell */
    check_roll_fine(0.1, 0.5, 20.0, 0.2, 0.0, 40.0);  /* top-spin past rolling: u0 < 0 */
    check_roll_fine(0.1, 0.4, 30.0, 0.1, 0.0, -30.0); /* back-spin, then slips on */
}

static void test_roll_hand_values(void)
{
    char err[256];
    vb_roll r;
    double g = 9.81, mu = 0.5, v0 = 2.0;
    /* flat, solid sphere, w0 = 0: the textbook values */
    CHECK(vb_roll_init(&r, 0.1, 0.4, 0.0, mu, g, v0, 0.0, err, sizeof err) == 0, "%s", err);
    CHECK_REL(r.t_roll, 2.0 * v0 / (7.0 * mu * g), 1e-15, "t* = 2 v0/(7 mu g)");
    CHECK_REL(r.v_roll, 5.0 * v0 / 7.0, 1e-15, "v* = 5 v0/7");
    CHECK_REL(r.s_roll, 12.0 * v0 * v0 / (49.0 * mu * g), 1e-15, "s* = 12 v0^2/(49 mu g)");
    /* incline 30 deg, mu 0.5, sphere: u0 = v0; du/dt = g s - mu g c (1 + 1/k)
     * = 9.81 (0.5 - 0.5 * 0.8660254 * 3.5) = -9.9620..., so t* = v0/9.962 */
    double s = 0.5, c = sqrt(3.0) / 2.0;
    CHECK(vb_roll_init(&r, 0.1, 0.4, 30.0 * DEG, 0.5, g, v0, 0.0, err, sizeof err) == 0, "%s", err);
    double tstar = v0 / (0.5 * g * c * 3.5 - g * s);
    CHECK_REL(r.t_roll, tstar, 1e-14, "incline t*");
    CHECK_REL(r.v_roll, v0 + (g * s - 0.5 * g * c) * tstar, 1e-14, "incline v*");
    vb_roll_point p;
    vb_roll_at(&r, tstar + 1.0, &p);
    CHECK_REL(p.v - r.v_roll, g * s / 1.4, 1e-13, "rolling a = g sin/(1+k)");
    CHECK_ABS(p.u, 0.0, 1e-14, "rolling: u = 0");
    /* mu 0.1: tan 30 = 0.577 > 0.1 * 3.5 = 0.35: never rolls */
    CHECK(vb_roll_init(&r, 0.1, 0.4, 30.0 * DEG, 0.1, g, v0, 0.0, err, sizeof err) == 0, "%s", err);
    CHECK(isinf(r.t_roll) && !r.can_roll, "mu 0.1 at 30 deg rolls");
    /* the boundary tan alpha = mu (1+k)/k: from u0 > 0 du/dt = 0, it slips
     * for ever at u0; from u0 = 0 it rolls, the friction exactly mu N */
    double mu_b = tan(25.0 * DEG) * 0.4 / 1.4;
    CHECK(vb_roll_init(&r, 0.1, 0.4, 25.0 * DEG, mu_b * (1.0 + 1e-15), g, 1.0, 0.0, err,
                       sizeof err) == 0, "%s", err);
    CHECK(r.can_roll, "on the boundary (from above) it cannot roll");
    vb_roll_at(&r, 3.0, &p);
    CHECK_REL(p.u, 1.0, 1e-13, "on the boundary u stays u0");
    CHECK(vb_roll_init(&r, 0.1, 0.4, 25.0 * DEG, mu_b * (1.0 + 1e-15), g, 1.0, 10.0, err,
                       sizeof err) == 0 && r.t_roll == 0.0, "u0 = 0 on the boundary: t* = 0");
    /* back-spin on the flat: u0 = v0 - w0 R < 0: the ball slows, stops and
     * rolls back if |w0| R > v0 k: with k = 0.4, v0 = 1, w0 = -30, R = 0.1:
     * u0 = 4, du/dt = -mu g 3.5, t* = 4/(3.5 mu g), v* = 1 - mu g t*
     * = 1 - 4/3.5 = -1/7 (the angular momentum about the contact point,
     * v0 - k R |w0| = -0.2, is (1+k) v*: -0.2/1.4 = -1/7) */
    CHECK(vb_roll_init(&r, 0.1, 0.4, 0.0, 0.5, g, 1.0, -30.0, err, sizeof err) == 0, "%s", err);
    CHECK_REL(r.v_roll, -1.0 / 7.0, 1e-14, "back-spin: v* = -1/7");
    CHECK_REL(r.t_roll, 4.0 / (3.5 * 0.5 * g), 1e-14, "back-spin: t*");
    /* bad parameters name themselves */
    CHECK(vb_roll_init(&r, 0.0, 0.4, 0.0, 0.5, g, 1.0, 0.0, err, sizeof err) == -1 &&
              strncmp(err, "R:", 2) == 0, "R = 0: %s", err);
    CHECK(vb_roll_init(&r, 0.1, 0.4, M_PI / 2, 0.5, g, 1.0, 0.0, err, sizeof err) == -1 &&
              strncmp(err, "alpha:", 6) == 0, "alpha = 90: %s", err);
}

/* friction's work: e(t) = e(0) - mu g cos alpha slip(t), and the slip
 * distance is the integral of |u| (trapezoids on 20000 intervals: u is
 * linear on each segment, so exact but at the kink, within 1e-8) */
static void test_roll_energy_balance(void)
{
    char err[256];
    const double cases[][6] = {{0.1, 0.4, 0.0, 0.5, 2.0, 0.0}, {0.1, 0.4, 30.0, 0.5, 2.0, 0.0},
                               {0.1, 0.4, 30.0, 0.1, 2.0, 0.0}, {0.2, 0.5, 10.0, 0.3, 1.0, -20.0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const double *q = cases[c];
        vb_roll r;
        CHECK(vb_roll_init(&r, q[0], q[1], q[2] * DEG, q[3], 9.81, q[4], q[5], err, sizeof err) ==
                  0, "%s", err);
        vb_roll_point p0, p;
        vb_roll_at(&r, 0.0, &p0);
        double e0 = vb_roll_energy(&r, &p0), T = 1.0, integral = 0.0, prev = fabs(p0.u);
        for (int i = 1; i <= 20000; i++) {
            vb_roll_at(&r, T * i / 20000.0, &p);
            integral += 0.5 * (prev + fabs(p.u)) * (T / 20000.0);
            prev = fabs(p.u);
        }
        CHECK_ABS(p.slip, integral, 1e-8, "slip distance = integral of |u|");
        CHECK_ABS(vb_roll_energy(&r, &p), e0 - q[3] * 9.81 * cos(q[2] * DEG) * p.slip, 1e-12,
                  "e = e0 - mu g cos(alpha) slip");
    }
}

/* ---- the block ---------------------------------------------------------------- */

static void check_box_fine(double alpha_deg, double mu_s, double mu_k, double v0, double tend)
{
    char err[256];
    vb_box_slide bs;
    double alpha = alpha_deg * DEG;
    CHECK(vb_box_slide_init(&bs, v0, mu_s, mu_k, 9.81, alpha, err, sizeof err) == 0, "%s", err);
    fine_body b = {.R = 0.0, .k = 1.0, .mu_s = mu_s, .mu_k = mu_k, .g = 9.81};
    vb_incline_frame(alpha, b.n, b.d, b.axis);
    double y0[10] = {0}, ts[10], ys[10][10];
    for (int i = 0; i < 3; i++)
        y0[3 + i] = v0 * b.d[i];
    for (int i = 0; i < 10; i++)
        ts[i] = tend * (i + 1) / 10.0;
    fine_run(&b, y0, ts, 10, ys);
    for (int i = 0; i < 10; i++) {
        double x, v;
        vb_box_slide_state(&bs, ts[i], &x, &v);
        CHECK_ABS(x, dot3(ys[i], b.d), 1e-9, "block x");
        CHECK_ABS(v, dot3(ys[i] + 3, b.d), 1e-9, "block v");
    }
}

static void test_box_slide(void)
{
    char err[256];
    vb_box_slide b;
    double g = 9.81, s = 0.5, c = sqrt(3.0) / 2.0;
    /* 30 deg: tan = 0.577; mu_s 0.7 and 0.6 hold it, 0.2 does not */
    CHECK(vb_box_slide_init(&b, 0.0, 0.7, 0.7, g, 30 * DEG, err, sizeof err) == 0 && b.sticks &&
              b.t_stop == 0.0, "0.7 sticks");
    CHECK(vb_box_slide_init(&b, 0.0, 0.6, 0.6, g, 30 * DEG, err, sizeof err) == 0 && b.sticks,
          "0.6 sticks");
    CHECK(vb_box_slide_init(&b, 0.0, 0.2, 0.2, g, 30 * DEG, err, sizeof err) == 0 && !b.sticks,
          "0.2 slides");
    CHECK_REL(b.a, g * (s - 0.2 * c), 1e-15, "a = g (sin - mu_k cos)");
    /* mu_s 0.6 holds at rest, mu_k 0.5 < tan: launched it never stops */
    CHECK(vb_box_slide_init(&b, 1.0, 0.6, 0.5, g, 30 * DEG, err, sizeof err) == 0 && !b.sticks &&
              isinf(b.t_stop), "launched with mu_k < tan: slides for ever");
    /* mu_k 0.7 > tan: stops at v0/|a| */
    CHECK(vb_box_slide_init(&b, 1.0, 0.8, 0.7, g, 30 * DEG, err, sizeof err) == 0 && b.sticks,
          "decelerates and sticks");
    double a = g * (0.7 * c - s);
    CHECK_REL(b.t_stop, 1.0 / a, 1e-14, "t_stop");
    CHECK_REL(b.x_stop, 1.0 / (2.0 * a), 1e-14, "x_stop");
    CHECK(vb_box_slide_init(&b, 0.0, 0.5, 0.6, g, 0.0, err, sizeof err) == -1 &&
              strncmp(err, "mu_k:", 5) == 0, "mu_k > mu_s: %s", err);
    check_box_fine(30.0, 0.2, 0.2, 0.0, 1.0);
    check_box_fine(30.0, 0.8, 0.7, 1.0, 1.0);
    check_box_fine(30.0, 0.7, 0.7, 0.0, 1.0);
    check_box_fine(0.0, 0.5, 0.4, 2.0, 1.0);
}

/* ---- the models --------------------------------------------------------------- */

static void setup(vb_rigid_model *m, const char *name, const char *const *sets)
{
    char err[256];
    vb_rigid_model_defaults(m, vb_rigid_model_find(name));
    for (int i = 0; sets && sets[i]; i += 2)
        CHECK(vb_rigid_model_set(m, sets[i], sets[i + 1], err, sizeof err) == 0, "%s", err);
    CHECK(vb_rigid_model_setup(m, err, sizeof err) == 0, "%s: %s", name, err);
}

/* the model's state read back in the incline's frame is the closed form's,
 * on the plane, and its energy falls by friction's work alone */
static void test_roll_model_state(void)
{
    vb_rigid_model m;
    const char *sets[] = {"alpha", "30", "mu", "0.5", "v0", "2", "w0", "-5", NULL};
    setup(&m, "roll", sets);
    vb_body_contact c;
    char err[256];
    CHECK(vb_rigid_model_contact(&m, &c) == 1 && vb_body_contact_check(&c, err, sizeof err) == 0,
          "the roll's contact: %s", err);
    vb_roll r;
    vb_roll_init(&r, 0.1, 0.4, 30 * DEG, 0.5, 9.81, 2.0, -5.0, err, sizeof err);
    vb_rigid_state s0, s;
    m.type->initial(m.self, &s0);
    double E0 = vb_rigid_model_energy(&m, &s0);
    for (int i = 0; i <= 20; i++) {
        double t = 0.05 * i;
        CHECK(m.type->exact(m.self, NULL, t, &s) == 0, "exact");
        if (i == 0)
            for (int j = 0; j < 13; j++)
                CHECK(((double *)&s)[j] == ((double *)&s0)[j], "exact(0) is the initial state");
        vb_incline_reading rd;
        vb_incline_read(&c, &s, &rd);
        vb_roll_point p;
        vb_roll_at(&r, t, &p);
        CHECK_ABS(rd.along, p.x, 1e-14, "along");
        CHECK_ABS(rd.separation, 0.0, 1e-15, "on the plane");
        CHECK_ABS(rd.spin, p.w, 1e-13, "spin");
        CHECK_ABS(rd.slip, p.u, 1e-13, "slip");
        /* the energy of the 13 numbers, m = 1: e(t) + the start's, as the
         * closed form says: friction's work mu g cos(alpha) slip */
        CHECK_ABS(vb_rigid_model_energy(&m, &s), E0 - 0.5 * 9.81 * cos(30 * DEG) * p.slip, 1e-12,
                  "energy balance of the 3-D state");
    }
    vb_rigid_model_free(&m);
}

static void test_box_model_refuses_tipping(void)
{
    char err[256];
    vb_rigid_model m;
    vb_rigid_model_defaults(&m, vb_rigid_model_find("box-incline"));
    vb_rigid_model_set(&m, "alpha", "50", err, sizeof err);
    vb_rigid_model_set(&m, "mu_s", "1.5", err, sizeof err);
    vb_rigid_model_set(&m, "mu_k", "1.5", err, sizeof err);
    CHECK(vb_rigid_model_setup(&m, err, sizeof err) == -1 && strstr(err, "tips"),
          "held at 50 degrees: %s", err);
    vb_rigid_model_set(&m, "alpha", "30", err, sizeof err);
    vb_rigid_model_set(&m, "v0", "1", err, sizeof err);
    CHECK(vb_rigid_model_setup(&m, err, sizeof err) == -1 && strstr(err, "mu_k"),
          "sliding with mu_k 1.5: %s", err);
    vb_rigid_model_set(&m, "mu_k", "0.9", err, sizeof err);
    CHECK(vb_rigid_model_setup(&m, err, sizeof err) == 0, "mu_k 0.9: %s", err);
    vb_rigid_state s;
    m.type->exact(m.self, NULL, 0.3, &s);
    vb_body_contact c;
    vb_rigid_model_contact(&m, &c);
    CHECK_ABS(vb_body_separation(&c, &s), 0.0, 1e-15, "the cube's face on the plane");
    vb_rigid_model_free(&m);
}

void suite_rolling(void)
{
    RUN(test_roll_hand_values);
    RUN(test_roll_against_fine_integration);
    RUN(test_roll_energy_balance);
    RUN(test_box_slide);
    RUN(test_roll_model_state);
    RUN(test_box_model_refuses_tipping);
}
