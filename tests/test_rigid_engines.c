/* test_rigid_engines.c — each engine-style method against a few steps of
 * the engine's own formulas, written out here from its source as the
 * engine runs them: in the WORLD frame (the engines keep the angular
 * velocity there), quaternions as (x, y, z, w) with each engine's product
 * and rotation, in double where the engine has float.  The methods of
 * src/integrators/ keep the body-frame w and share the repository's
 * quaternion code; the two agree only if the body-frame rewriting is the
 * same map.  Six steps of 1/60 s from a tilted tumbling body thrown under
 * gravity: position, velocity, quaternion and world w to 1e-14 (a few
 * ulps a step of quantities of order 1, in another order of operations).
 * And what a stable spin does under these schemes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quaternion.h"
#include "rigid.h"
#include "rigid_analysis.h"
#include "rigid_method.h"
#include "unit.h"

#define ENGINE_TOL 1e-14
#define STEPS 6
#define DT (1.0 / 60.0)

typedef struct {
    double x[3], v[3], q[4] /* x y z w */, w[3] /* world */;
} engine_body;

static const double I[3] = {1.0, 2.0, 3.0};
static const double G[3] = {0.0, 0.0, -9.81};

/* The start: the body-frame state for the method, and the same in the
 * engines' world frame */
static void start(vb_rigid_state *s, engine_body *e)
{
    static const vb_rigid_state s0 = {
        {0.1, -0.2, 0.3}, {0.5, 0.5, -0.5, 0.5}, {1.0, 2.0, 3.0}, {0.9, 1.7, -1.2}};
    *s = s0;
    memcpy(e->x, s0.x, sizeof e->x);
    memcpy(e->v, s0.v, sizeof e->v);
    e->q[0] = s0.q[1];
    e->q[1] = s0.q[2];
    e->q[2] = s0.q[3];
    e->q[3] = s0.q[0];
    vb_quat_rotate(s0.q, s0.w, e->w);
}

static void compare(const char *who, const vb_rigid_state *s, const engine_body *e)
{
    double d = 0.0, ww[3];
    vb_quat_rotate(s->q, s->w, ww);
    for (int i = 0; i < 3; i++) {
        d = max_or_nan(d, fabs(s->x[i] - e->x[i]));
        d = max_or_nan(d, fabs(s->v[i] - e->v[i]));
        d = max_or_nan(d, fabs(ww[i] - e->w[i]));
    }
    d = max_or_nan(d, fabs(s->q[0] - e->q[3]));
    for (int i = 0; i < 3; i++)
        d = max_or_nan(d, fabs(s->q[1 + i] - e->q[i]));
    CHECK(d <= ENGINE_TOL, "%s: the method and the engine's formulas differ by %.3g", who, d);
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ---- Jolt (JoltPhysics 3b47ec3) ---- */

/* Quat::operator * (Quat), Jolt/Math/Quat.inl:73-86 */
static void jolt_mul(const double l[4], const double r[4], double out[4])
{
    double a = l[0], b = l[1], c = l[2], d = l[3], x = r[0], y = r[1], z = r[2], w = r[3];
    double o[4] = {(a * w + b * z) + (d * x - c * y), (b * w + c * x) + (d * y - a * z),
                   (c * w + a * y) + (d * z - b * x), -(a * x + b * y) + (d * w - c * z)};
    memcpy(out, o, sizeof o);
}

/* Quat::operator * (Vec3), Quat.inl:383-405: p + 2 (w xyz x p + xyz x (xyz x p));
 * InverseRotate (407-416) the same with xyz negated */
static void jolt_rotate(const double q[4], const double p[3], int inverse, double out[3])
{
    double xyz[3] = {q[0], q[1], q[2]}, qp[3], qqp[3];
    if (inverse)
        for (int i = 0; i < 3; i++)
            xyz[i] = -xyz[i];
    cross(xyz, p, qp);
    cross(xyz, qp, qqp);
    for (int i = 0; i < 3; i++) {
        double v = q[3] * qp[i] + qqp[i];
        out[i] = p[i] + (v + v);
    }
}

static void normalized(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
}

static void jolt_step(engine_body *b)
{
    /* MotionProperties.inl:105-124, ApplyGyroscopicForceInternal (mInertiaRotation = 1) */
    double lw[3], lm[3], c[3], nm[3];
    jolt_rotate(b->q, b->w, 1, lw);
    for (int i = 0; i < 3; i++)
        lm[i] = I[i] * lw[i];
    cross(lw, lm, c);
    for (int i = 0; i < 3; i++)
        nm[i] = lm[i] - DT * c[i];
    double len_sq = dot(nm, nm), f = len_sq > 0.0 ? sqrt(dot(lm, lm) / len_sq) : 0.0;
    for (int i = 0; i < 3; i++)
        nm[i] = nm[i] * f / I[i];
    jolt_rotate(b->q, nm, 0, b->w);
    /* MotionProperties.inl:134: v += dt g */
    for (int i = 0; i < 3; i++)
        b->v[i] += DT * G[i];
    /* PhysicsSystem.cpp:1641 and Body.inl:92-97: AddRotationStep(w dt) */
    double r[3] = {b->w[0] * DT, b->w[1] * DT, b->w[2] * DT};
    double len = sqrt(dot(r, r));
    if (len > 1.0e-6) {
        /* Quat::sRotation(axis, angle), Quat.inl:160-167 */
        double s = sin(0.5 * len);
        double rot[4] = {r[0] / len * s, r[1] / len * s, r[2] / len * s, cos(0.5 * len)};
        jolt_mul(rot, b->q, b->q);
        normalized(b->q);
    }
    /* PhysicsSystem.cpp:1644: x += v dt */
    for (int i = 0; i < 3; i++)
        b->x[i] += b->v[i] * DT;
}

static void test_jolt_by_hand(void)
{
    vb_rigid_state s;
    engine_body e;
    vb_rigid_props p = {{I[0], I[1], I[2]}, 1.0, {G[0], G[1], G[2]}};
    start(&s, &e);
    const vb_rigid_method *g = vb_rigid_method_find("rigid-explicit-gyro");
    for (int k = 0; k < STEPS; k++) {
        g->step(&s, &p, DT);
        jolt_step(&e);
    }
    compare("Jolt", &s, &e);
}

/* ---- Rapier (v0.35.2) ---- */

static void rapier_step(engine_body *b)
{
    /* worker.rs:243-248: the velocity increments (gravity) first */
    for (int i = 0; i < 3; i++)
        b->v[i] += DT * G[i];
    /* rigid_body.rs:2033-2045, gyroscopic_corrected_angvel; principal
     * frame = body frame.  glam's rotations are the same algebra as
     * Jolt's: q v q*, and the inverse with q* */
    double w[3], curr[3], c[3], total[3];
    jolt_rotate(b->q, b->w, 1, w);
    for (int i = 0; i < 3; i++)
        curr[i] = I[i] * w[i];
    cross(w, curr, c);
    for (int i = 0; i < 3; i++)
        total[i] = curr[i] + (-c[i] * DT);
    double tsq = dot(total, total);
    if (tsq != 0.0) {
        double f = sqrt(dot(curr, curr) / tsq), capped[3];
        for (int i = 0; i < 3; i++)
            capped[i] = total[i] * f / I[i];
        jolt_rotate(b->q, capped, 0, b->w);
    }
    /* rigid_body_components.rs:892-897, integrate_linearized */
    double hang[3] = {b->w[0] * (DT * 0.5), b->w[1] * (DT * 0.5), b->w[2] * (DT * 0.5)};
    double id_plus_hang[4] = {hang[0], hang[1], hang[2], 1.0};
    jolt_mul(id_plus_hang, b->q, b->q);
    normalized(b->q);
    for (int i = 0; i < 3; i++)
        b->x[i] += b->v[i] * DT;
}

static void test_rapier_by_hand(void)
{
    vb_rigid_state s;
    engine_body e;
    vb_rigid_props p = {{I[0], I[1], I[2]}, 1.0, {G[0], G[1], G[2]}};
    start(&s, &e);
    const vb_rigid_method *g = vb_rigid_method_find("rigid-explicit-gyro-linear");
    for (int k = 0; k < STEPS; k++) {
        g->step(&s, &p, DT);
        rapier_step(&e);
    }
    compare("Rapier", &s, &e);
}

/* ---- Bullet (bullet3 3.27, 6c888f4) ---- */

/* btQuaternion::operator*=, btQuaternion.h:327-331 */
static void bt_mul(const double a[4], const double q[4], double out[4])
{
    double o[4] = {a[3] * q[0] + a[0] * q[3] + a[1] * q[2] - a[2] * q[1],
                   a[3] * q[1] + a[1] * q[3] + a[2] * q[0] - a[0] * q[2],
                   a[3] * q[2] + a[2] * q[3] + a[0] * q[1] - a[1] * q[0],
                   a[3] * q[3] - a[0] * q[0] - a[1] * q[1] - a[2] * q[2]};
    memcpy(out, o, sizeof o);
}

/* quatRotate, btQuaternion.h:926-936: (q * v) * q.inverse() */
static void bt_rotate(const double q[4], const double v[3], double out[3])
{
    double p[4] = {v[0], v[1], v[2], 0.0}, qi[4] = {-q[0], -q[1], -q[2], q[3]}, r[4];
    bt_mul(q, p, r);
    bt_mul(r, qi, r);
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
}

/* getSkewSymmetricMatrix, btVector3.h:665-667, as rows */
static void bt_skew(const double v[3], double m[9])
{
    double s[9] = {0.0, -v[2], v[1], v[2], 0.0, -v[0], -v[1], v[0], 0.0};
    memcpy(m, s, sizeof s);
}

static void bullet_step(engine_body *b)
{
    /* the solver's external impulse of gravity (btSequentialImpulseConstraintSolver.cpp:477,
     * written back at 1820-1822) */
    for (int i = 0; i < 3; i++)
        b->v[i] += G[i] * DT;
    /* btRigidBody.cpp:299-333, computeGyroscopicImpulseImplicit_Body */
    double qinv[4] = {-b->q[0], -b->q[1], -b->q[2], b->q[3]}, omegab[3], ibo[3], f[3];
    bt_rotate(qinv, b->w, omegab);
    for (int i = 0; i < 3; i++)
        ibo[i] = I[i] * omegab[i];
    cross(omegab, ibo, f);
    for (int i = 0; i < 3; i++)
        f[i] *= DT;
    double skew0[9], skew1[9], J[9];
    bt_skew(omegab, skew0);
    bt_skew(ibo, skew1);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) /* Ib + (skew0 * Ib - skew1) * step */
            J[3 * r + c] =
                (r == c ? I[r] : 0.0) + (skew0[3 * r + c] * I[c] - skew1[3 * r + c]) * DT;
    /* solve33, btMatrix3x3.h:648-664 */
    double c1[3] = {J[0], J[3], J[6]}, c2[3] = {J[1], J[4], J[7]}, c3[3] = {J[2], J[5], J[8]};
    double t[3], x[3];
    cross(c2, c3, t);
    double det = dot(c1, t);
    if (fabs(det) > DBL_EPSILON)
        det = 1.0 / det;
    x[0] = det * dot(f, t);
    cross(f, c3, t);
    x[1] = det * dot(c1, t);
    cross(c2, f, t);
    x[2] = det * dot(c1, t);
    for (int i = 0; i < 3; i++)
        omegab[i] -= x[i];
    double omega2[3];
    bt_rotate(b->q, omegab, omega2);
    memcpy(b->w, omega2, sizeof omega2); /* omega1 + (omega2 - omega1) */
    /* btTransformUtil.h:34-72, integrateTransform */
    for (int i = 0; i < 3; i++)
        b->x[i] += b->v[i] * DT;
    double fAngle2 = dot(b->w, b->w), fAngle = 0.0, axis[3];
    if (fAngle2 > DBL_EPSILON)
        fAngle = sqrt(fAngle2);
    if (fAngle * DT > 0.5 * M_PI / 2)
        fAngle = 0.5 * M_PI / 2 / DT;
    for (int i = 0; i < 3; i++)
        axis[i] = fAngle < 0.001
                      ? b->w[i] * (0.5 * DT - (DT * DT * DT) * 0.020833333333 * fAngle * fAngle)
                      : b->w[i] * (sin(0.5 * fAngle * DT) / fAngle);
    double dorn[4] = {axis[0], axis[1], axis[2], cos(fAngle * DT * 0.5)};
    bt_mul(dorn, b->q, b->q);
    normalized(b->q);
}

static void test_bullet_by_hand(void)
{
    vb_rigid_state s;
    engine_body e;
    vb_rigid_props p = {{I[0], I[1], I[2]}, 1.0, {G[0], G[1], G[2]}};
    start(&s, &e);
    const vb_rigid_method *g = vb_rigid_method_find("rigid-implicit-gyro");
    for (int k = 0; k < STEPS; k++) {
        g->step(&s, &p, DT);
        bullet_step(&e);
    }
    compare("Bullet", &s, &e);
}

/* ---- cannon-es (0.20.0) ---- */

static void cannon_step(engine_body *b)
{
    /* Body.ts:959-962 (force = m g), 969-971 (no torque), 974-976 */
    for (int i = 0; i < 3; i++) {
        b->v[i] += G[i] * DT;
        b->x[i] += b->v[i] * DT;
    }
    /* Quaternion.ts:399-412, integrate; then normalize (Body.ts:980-985) */
    double ax = b->w[0], ay = b->w[1], az = b->w[2];
    double bx = b->q[0], by = b->q[1], bz = b->q[2], bw = b->q[3], half_dt = DT * 0.5;
    b->q[0] += half_dt * (ax * bw + ay * bz - az * by);
    b->q[1] += half_dt * (ay * bw + az * bx - ax * bz);
    b->q[2] += half_dt * (az * bw + ax * by - ay * bx);
    b->q[3] += half_dt * (-ax * bx - ay * by - az * bz);
    normalized(b->q);
}

static void test_cannon_by_hand(void)
{
    vb_rigid_state s;
    engine_body e;
    vb_rigid_props p = {{I[0], I[1], I[2]}, 1.0, {G[0], G[1], G[2]}};
    start(&s, &e);
    const vb_rigid_method *g = vb_rigid_method_find("rigid-no-gyro");
    for (int k = 0; k < STEPS; k++) {
        g->step(&s, &p, DT);
        cannon_step(&e);
    }
    compare("cannon-es", &s, &e);
}

/* ---- the textbook step ---- */

/* rigid-euler, written out from Euler's equations in components
 * (I1 w1' = (I2 - I3) w2 w3, ...) and q' = q (0, w) / 2 by components,
 * everything from the old state, then normalised; x with the old v */
static void test_euler_by_hand(void)
{
    vb_rigid_state s, e;
    engine_body unused;
    vb_rigid_props p = {{I[0], I[1], I[2]}, 1.0, {G[0], G[1], G[2]}};
    start(&s, &unused);
    e = s;
    const vb_rigid_method *g = vb_rigid_method_find("rigid-euler");
    for (int k = 0; k < STEPS; k++) {
        g->step(&s, &p, DT);
        double *w = e.w, *q = e.q;
        double w1 = w[0] + DT * (I[1] - I[2]) * w[1] * w[2] / I[0];
        double w2 = w[1] + DT * (I[2] - I[0]) * w[2] * w[0] / I[1];
        double w3 = w[2] + DT * (I[0] - I[1]) * w[0] * w[1] / I[2];
        double qn[4] = {q[0] + 0.5 * DT * (-q[1] * w[0] - q[2] * w[1] - q[3] * w[2]),
                        q[1] + 0.5 * DT * (q[0] * w[0] + q[2] * w[2] - q[3] * w[1]),
                        q[2] + 0.5 * DT * (q[0] * w[1] + q[3] * w[0] - q[1] * w[2]),
                        q[3] + 0.5 * DT * (q[0] * w[2] + q[1] * w[1] - q[2] * w[0])};
        double n = sqrt(qn[0] * qn[0] + qn[1] * qn[1] + qn[2] * qn[2] + qn[3] * qn[3]);
        for (int i = 0; i < 4; i++)
            q[i] = qn[i] / n;
        w[0] = w1;
        w[1] = w2;
        w[2] = w3;
        for (int i = 0; i < 3; i++) {
            e.x[i] += DT * e.v[i];
            e.v[i] += DT * G[i];
        }
    }
    double a[VB_RIGID_COMPONENTS], b[VB_RIGID_COMPONENTS], d = 0.0;
    vb_rigid_pack(&s, a);
    vb_rigid_pack(&e, b);
    for (int c = 0; c < VB_RIGID_COMPONENTS; c++)
        d = max_or_nan(d, fabs(a[c] - b[c]));
    /* the same arithmetic up to the order of the additions */
    CHECK(d <= ENGINE_TOL, "rigid-euler and its formulas differ by %.3g", d);
}

/* ---- a stable spin under the engines' schemes ---- */

/* Seconds until the spin w = (wobble, wobble, spin) about the major axis
 * of I = (1, 2, 3) tumbles: its first flip (rigid_analysis.h), at most
 * t_max (NAN if it does not) */
static double tumble_time(const vb_rigid_method *g, double spin, double wobble, double h,
                          double t_max)
{
    vb_rigid_props p = {{1, 2, 3}, 1, {0, 0, 0}};
    vb_rigid_state s = {{0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0}, {wobble, wobble, spin}};
    vb_flip_tracker tr;
    vb_flip_tracker_start(&tr, 1, VB_FLIP_THRESHOLD);
    vb_flip_tracker_add(&tr, &p, 0.0, &s);
    long n = (long)ceil(t_max / h);
    for (long k = 1; k <= n && tr.flips == 0; k++) {
        g->step(&s, &p, h);
        vb_flip_tracker_add(&tr, &p, (double)k * h, &s);
    }
    return tr.first_flip;
}

/* The explicit gyroscopic step pumps energy in at fixed |L| (docs/rigid.md
 * §6: per step T grows by h^2 (u . I^-1 u / 2 - T |u|^2 / L^2), u = w x L,
 * which is >= 0 near the major axis), so a stable major-axis spin is drawn
 * towards the separatrix, D = L^2 - 2 T I2 falling by 2 I2 dT, at a rate
 * per second that goes like h (a first-order drift).  The body first flips
 * when D has fallen to where the polhode passes within 60 degrees of the
 * intermediate axis (docs/rigid.md §4), a fixed level for a given L: so
 * the time goes like 1/h, and halving the step doubles it, within 10 % at
 * 60 Hz and 120 Hz (the O(h) correction to 1/h at h w = 1/12).  The symmetric
 * splitting keeps T to a bounded O(h^2) and never tumbles: not in 50
 * times as long.  And the implicit step (Bullet) takes energy out, which
 * moves a major-axis spin away from the separatrix: no tumble either. */
static void test_stable_spin_tumbles(void)
{
    const vb_rigid_method *jolt = vb_rigid_method_find("rigid-explicit-gyro");
    double t60 = tumble_time(jolt, 5.0, 0.05, 1.0 / 60, 1000.0);
    double t120 = tumble_time(jolt, 5.0, 0.05, 1.0 / 120, 2000.0);
    CHECK(isfinite(t60) && isfinite(t120), "explicit gyro: tumbles at %g s and %g s", t60, t120);
    CHECK_REL(t120 / t60, 2.0, 0.1, "explicit gyro: tumble time against 1/h");
    unit_note("a 5 rad/s major-axis spin with a 0.05 rad/s wobble tumbles under "
              "rigid-explicit-gyro after %.2f s at 60 Hz, %.2f s at 120 Hz",
              t60, t120);
    double ts = tumble_time(vb_rigid_method_find("rigid-splitting"), 5.0, 0.05, 1.0 / 60,
                            50.0 * t60);
    CHECK(isnan(ts), "rigid-splitting tumbles at %g s", ts);
    double ti = tumble_time(vb_rigid_method_find("rigid-implicit-gyro"), 5.0, 0.05, 1.0 / 60,
                            50.0 * t60);
    CHECK(isnan(ti), "rigid-implicit-gyro tumbles at %g s", ti);
}

void suite_rigid_engines(void)
{
    RUN(test_jolt_by_hand);
    RUN(test_rapier_by_hand);
    RUN(test_bullet_by_hand);
    RUN(test_cannon_by_hand);
    RUN(test_euler_by_hand);
    RUN(test_stable_spin_tumbles);
}
