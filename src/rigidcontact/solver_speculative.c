/* rigidcontact/solver_speculative.c — speculative: Jolt's contact
 * constraints (JoltPhysics 3b47ec3, Jolt/Physics/Constraints/
 * ContactConstraintManager.cpp), contacts made up to a margin before the
 * surfaces touch:
 *
 *   contacts: found at the step's start positions, within the margin
 *     (mSpeculativeContactDistance: the broad phase's expansion and the
 *     narrow phase's mMaxSeparationDistance, PhysicsSystem.cpp:967, 1101;
 *     907, 1032 at v5.3.0), nothing for the motion to come: a body that
 *     starts a step farther up than the margin and ends it below the
 *     surface makes its first contact sunk (JoltPhysics#2121's own drop at
 *     60 Hz: 64.6 mm up, then 17.1 mm sunk, which the slop keeps);
 *   the points (1244-1253): p1 on the body, p2 on the ground, and both
 *     rows' application point the midpoint p = (p1 + p2) / 2 (46-49): for
 *     a separation s a sphere's lever arm is R + s/2 (R - |s|/2 sunk in);
 *   non-penetration (39-137): the bias max(0, s / dt) (75): the normal
 *     velocity >= -s / dt, a speculative contact; restitution where e > 0
 *     and the normal velocity (after gravity's kick: the contacts are
 *     made after ApplyGravity, PhysicsSystem.cpp:347-355) < -1 m/s
 *     (mMinVelocityForRestitution) and past the speculative bias: the
 *     target -e (v_n - min(0, g_n dt)), gravity's kick taken back (79-119);
 *   friction (141-190): one pair of rows at the average of the points
 *     p (`friction_point`, 147-150), along the normal's tangents
 *     (ContactConstraintManager.h:460-465), and with two or more points a
 *     row about the normal (175-180), each point's distance from the centre
 *     in the plane its lever (156-161);
 *   a velocity iteration (1683-1760): friction first, its limit mu times
 *     the points' normal impulses of the iteration before (1704-1716), the
 *     pair clamped together to that disc (1722-1731), the turn to mu times
 *     the sum of distance times impulse; then each point's normal row,
 *     its total clamped >= 0;
 *   position steps (1881-1940): with the positions integrated, each
 *     point's separation from its anchors carried by the body,
 *     max(s + slop, -max_correction), corrected where < 0 by
 *     baumgarte * -separation with the effective mass at the midpoint
 *     (AxisConstraintPart.h:321-331), moving x and turning q;
 *   warm start: a point's normal impulse kept when both its anchors are
 *     within 1 cm of last step's (1262-1271; mContactPointPreserveLambda
 *     MaxDistSq, PhysicsSettings.h), the manifold's friction kept
 *     (1284-1296), times the step ratio, 1 at a fixed step
 *     (PhysicsSystem.cpp:1397);
 *   defaults (PhysicsSettings.h): mBaumgarte 0.2 (45),
 *     mSpeculativeContactDistance 0.02 (50), mPenetrationSlop 0.02 (53),
 *     mMaxPenetrationDistance 0.2 (65), mNumVelocitySteps 10 (84),
 *     mNumPositionSteps 2 (87), mMinVelocityForRestitution 1 (92),
 *     mConstraintWarmStart true (111).
 *
 * The key `lever`: midpoint (the default, Jolt 3b47ec3) puts the friction
 * rows at the midpoints, so that a sliding speculative impact at
 * separation s turns a ball with the lever R + s/2 (JoltPhysics#2121);
 * body puts them at the body's own points (PR #2123), the non-penetration
 * rows staying at the midpoint (their Jacobian is the same there). */
#include <math.h>
#include <string.h>

#include "bodyops.h"
#include "quaternion.h"

static void defaults(vb_solver_params *p)
{
    p->iterations = 10;
    p->position_iterations = 2;
    p->baumgarte = 0.2;
    p->margin = 0.02;
    p->slop = 0.02;
    p->max_correction = 0.2;
    p->threshold = 1.0;
    p->warm_start = 1.0;
    p->jolt_lever = 1;
}

typedef struct spec_point {
    vb_body_point pt;
    double p2[3];      /* its point on the ground */
    double r_mid[3];   /* the midpoint less x */
    double m_n, target; /* the normal row: the midpoint's v_n >= target */
    double ln;
    double dist;       /* from the friction centre, in the plane */
} spec_point;

static double dist2(const double a[3], const double b[3])
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return vb_dot3(d, d);
}

/* one velocity iteration: friction, then the points' normal rows */
static void iterate(const vb_contact_world *w, spec_point *sp, int n, const double t[2][3],
                    const double r_f[3], const double m_t[2], double m_tw, double lf[2],
                    double *ltw, vb_body_vel *bv)
{
    const double *nrm = w->ground.normal;
    double max_lin = 0.0, max_ang = 0.0;
    for (int k = 0; k < n; k++) {
        max_lin += sp[k].ln;
        max_ang += sp[k].dist * sp[k].ln;
    }
    max_lin *= w->mu_s;
    max_ang *= w->mu_s;
    double vp[3], l[2];
    vb_vel_at(bv, r_f, vp);
    for (int j = 0; j < 2; j++)
        l[j] = lf[j] - m_t[j] * vb_dot3(t[j], vp);
    double sq = l[0] * l[0] + l[1] * l[1];
    if (sq > max_lin * max_lin) {
        double scale = max_lin / sqrt(sq);
        l[0] *= scale;
        l[1] *= scale;
    }
    for (int j = 0; j < 2; j++) {
        vb_vel_apply_along(bv, r_f, t[j], l[j] - lf[j]);
        lf[j] = l[j];
    }
    if (n > 1) {
        double ltw_new = *ltw - m_tw * vb_dot3(nrm, bv->om);
        ltw_new = ltw_new < -max_ang ? -max_ang : ltw_new > max_ang ? max_ang : ltw_new;
        double L[3] = {(ltw_new - *ltw) * nrm[0], (ltw_new - *ltw) * nrm[1],
                       (ltw_new - *ltw) * nrm[2]};
        vb_vel_apply_angular(bv, L);
        *ltw = ltw_new;
    }
    for (int k = 0; k < n; k++) {
        vb_vel_at(bv, sp[k].r_mid, vp);
        double ln = fmax(sp[k].ln + sp[k].m_n * (sp[k].target - vb_dot3(nrm, vp)), 0.0);
        vb_vel_apply_along(bv, sp[k].r_mid, nrm, ln - sp[k].ln);
        sp[k].ln = ln;
    }
}

/* Jolt's position steps, on the integrated positions */
static void position_steps(const vb_contact_world *w, vb_contact_body *b, const spec_point *sp,
                           int n, const vb_solver_params *p)
{
    const double *nrm = w->ground.normal;
    for (int it = 0; it < p->position_iterations; it++)
        for (int k = 0; k < n; k++) {
            double p1[3], r[3];
            vb_quat_rotate(b->s.q, sp[k].pt.r_body, r);
            for (int i = 0; i < 3; i++)
                p1[i] = b->s.x[i] + r[i];
            double d[3] = {p1[0] - sp[k].p2[0], p1[1] - sp[k].p2[1], p1[2] - sp[k].p2[2]};
            double sep = fmax(vb_dot3(d, nrm) + p->slop, -p->max_correction);
            if (!(sep < 0.0))
                continue;
            vb_body_vel bv;
            vb_body_vel_now(b, &bv);
            double rm[3];
            for (int i = 0; i < 3; i++)
                rm[i] = 0.5 * (p1[i] + sp[k].p2[i]) - b->s.x[i];
            double lambda = -p->baumgarte * sep / vb_vel_inv_mass(&bv, rm, nrm);
            double rn[3], dth[3], e[4];
            vb_cross3(rm, nrm, rn);
            vb_mat3_vec(bv.inv_I, rn, dth);
            for (int i = 0; i < 3; i++) {
                b->s.x[i] += lambda * bv.inv_m * nrm[i];
                dth[i] *= lambda;
            }
            vb_quat_exp(dth, e);
            vb_quat_mul(e, b->s.q, b->s.q);
            vb_quat_normalise(b->s.q);
        }
}

static int step_body(vb_contact_world *w, vb_contact_body *b, vb_manifold_memory *mem,
                     const vb_solver_params *p, vb_body_step_fn *method, double h)
{
    const double *nrm = w->ground.normal;
    vb_body_point raw[VB_BODY_FEATURES];
    int n = vb_body_points(b, &w->ground, p->margin, raw);
    if (n == 0) {
        memset(mem, 0, sizeof *mem);
        method(&b->s, &b->p, h);
        return vb_body_finite(b) ? VB_BODY_OK : VB_BODY_DIVERGED;
    }
    double t[2][3];
    vb_ground_tangents(nrm, t[0], t[1]);
    vb_body_vel free_vel, bv;
    if (vb_body_vel_free(b, method, h, &free_vel) != VB_BODY_OK)
        return VB_BODY_DIVERGED;
    bv = free_vel;
    spec_point sp[VB_BODY_FEATURES];
    double centre[3] = {0, 0, 0}, body_centre[3] = {0, 0, 0};
    double g_n = vb_dot3(b->p.gravity, nrm);
    vb_manifold_memory next;
    memset(&next, 0, sizeof next);
    for (int k = 0; k < n; k++) {
        spec_point *s = &sp[k];
        s->pt = raw[k];
        for (int i = 0; i < 3; i++) {
            s->p2[i] = s->pt.p[i] - s->pt.separation * nrm[i];
            s->r_mid[i] = 0.5 * (s->pt.p[i] + s->p2[i]) - b->s.x[i];
            centre[i] += (s->r_mid[i] + b->s.x[i]) / n;
            body_centre[i] += s->pt.p[i] / n;
        }
        s->m_n = 1.0 / vb_vel_inv_mass(&bv, s->r_mid, nrm);
        /* Jolt makes its contacts after gravity's kick (ApplyGravity runs
         * before FindCollisions, PhysicsSystem.cpp:347-355): v_n is the
         * free velocity's, whose kick the restitution target takes back */
        double vp[3];
        vb_vel_at(&free_vel, s->r_mid, vp);
        double vn = vb_dot3(nrm, vp), spec = fmax(0.0, s->pt.separation / h);
        s->target = -spec;
        if (w->restitution > 0.0 && vn < -p->threshold && vn < -spec)
            s->target = -w->restitution * (vn - fmin(0.0, g_n * h));
        int f = s->pt.feature;
        s->ln = 0.0;
        if (p->warm_start > 0.0 && dist2(mem->anchor[f], s->pt.r_body) <= 1e-4 &&
            dist2(mem->ground_point[f], s->p2) <= 1e-4)
            s->ln = p->warm_start * mem->normal[f];
        memcpy(next.anchor[f], s->pt.r_body, sizeof next.anchor[f]);
        memcpy(next.ground_point[f], s->p2, sizeof next.ground_point[f]);
    }
    double r_f[3], m_t[2];
    for (int i = 0; i < 3; i++)
        r_f[i] = (p->jolt_lever ? centre[i] : body_centre[i]) - b->s.x[i];
    for (int k = 0; k < n; k++) {
        double d[3];
        for (int i = 0; i < 3; i++)
            d[i] = sp[k].r_mid[i] + b->s.x[i] - centre[i];
        double dn = vb_dot3(d, nrm);
        for (int i = 0; i < 3; i++)
            d[i] -= dn * nrm[i];
        sp[k].dist = sqrt(vb_dot3(d, d));
    }
    for (int j = 0; j < 2; j++)
        m_t[j] = 1.0 / vb_vel_inv_mass(&bv, r_f, t[j]);
    double In[3];
    vb_mat3_vec(bv.inv_I, nrm, In);
    double m_tw = 1.0 / vb_dot3(nrm, In);
    double lf[2] = {0.0, 0.0}, ltw = 0.0;
    if (p->warm_start > 0.0 && mem->has_friction) {
        lf[0] = p->warm_start * mem->friction[0];
        lf[1] = p->warm_start * mem->friction[1];
        ltw = n > 1 ? p->warm_start * mem->twist : 0.0;
    }
    for (int j = 0; j < 2; j++) /* warm start */
        vb_vel_apply_along(&bv, r_f, t[j], lf[j]);
    double L[3] = {ltw * nrm[0], ltw * nrm[1], ltw * nrm[2]};
    vb_vel_apply_angular(&bv, L);
    for (int k = 0; k < n; k++)
        vb_vel_apply_along(&bv, sp[k].r_mid, nrm, sp[k].ln);
    for (int it = 0; it < p->iterations; it++)
        iterate(w, sp, n, t, r_f, m_t, m_tw, lf, &ltw, &bv);
    if (vb_body_commit(b, method, h, vb_body_kick_share(b, method, h), &free_vel, &bv) != VB_BODY_OK)
        return VB_BODY_DIVERGED;
    position_steps(w, b, sp, n, p);
    next.has_friction = 1;
    next.friction[0] = lf[0];
    next.friction[1] = lf[1];
    next.twist = ltw;
    for (int k = 0; k < n; k++)
        next.normal[sp[k].pt.feature] = sp[k].ln;
    *mem = next;
    return vb_body_finite(b) ? VB_BODY_OK : VB_BODY_DIVERGED;
}

static int step(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                vb_body_step_fn *method, double h)
{
    return vb_body_each(w, c, p, method, h, step_body);
}

const vb_body_solver vb_solver_speculative = {
    .name = "speculative",
    .summary = "Jolt's contacts: speculative within a margin, friction at the manifold's centre "
               "(the midpoint lever of JoltPhysics#2121 by default), position steps",
    .source = "JoltPhysics 3b47ec3 Jolt/Physics/Constraints/ContactConstraintManager.cpp:39-190,"
              "1244-1296,1683-1760,1881-1940; ConstraintPart/AxisConstraintPart.h:300-331; "
              "PhysicsSettings.h:45-111; PhysicsSystem.cpp:347-355",
    .keys = VB_KEY_ITERATIONS | VB_KEY_POSITION_ITERATIONS | VB_KEY_BAUMGARTE | VB_KEY_SLOP |
            VB_KEY_MARGIN | VB_KEY_MAX_CORRECTION | VB_KEY_THRESHOLD | VB_KEY_WARM_START |
            VB_KEY_LEVER,
    .flags = 0,
    .defaults = defaults,
    .step = step,
};
