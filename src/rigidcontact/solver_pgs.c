/* rigidcontact/solver_pgs.c — pgs: sequential impulses (projected
 * Gauss-Seidel on the contact rows), accumulated and clamped, with
 * Baumgarte's position correction in the normal rows' bias: Bullet's
 * btSequentialImpulseConstraintSolver, the family of Box2D 2.4's and Jolt's
 * velocity solvers (bullet3 6c888f4):
 *
 *   setupContactConstraint (btSequentialImpulseConstraintSolver.cpp:898-969):
 *     penetration = distance + m_linearSlop                        (899)
 *     restitution = restitutionCurve(rel_vel, e, threshold):
 *                   0 if |rel_vel| < threshold, else -e rel_vel    (494-501, 913)
 *       rel_vel from the body's velocity before this step's gravity
 *     warm start: lambda = the point's last impulse * m_warmstartingFactor,
 *                 applied at once                                  (921-928)
 *     velocityError = restitution - rel_vel(with gravity's kick);
 *     penetration > 0 (apart):   velocityError -= penetration / dt  (949-954)
 *     else: positionalError = -penetration * erp2 / dt             (956)
 *     rhs = (positionalError + velocityError) / (J M^-1 J')         (959-966)
 *   solveSingleIteration (1645-1682): every contact row, lambda clamped
 *     >= 0; then every friction row, clamped to +- friction times its
 *     point's normal lambda, skipped while that is 0.
 *   defaults (btContactSolverInfo.h): m_numIterations 10 (85), m_erp2 0.2
 *     (87), m_linearSlop 0 (98), m_warmstartingFactor 0.85 (99),
 *     m_restitutionVelocityThreshold 0.2 m/s (108); contacts are kept up
 *     to gContactBreakingThreshold 0.02 m apart (btPersistentManifold.cpp:26).
 *
 * In terms of this file: each point has a target normal velocity
 *     target = e u_rest + (s > 0 ? -s/h : -beta s/h),  s = separation + slop,
 * and each iteration sets lambda_n <- max(0, lambda_n + m_n (target - v_n)),
 * then lambda_tj <- clamp(lambda_tj - m_tj v_tj, +- mu lambda_n).
 *
 * What differs from Bullet's defaults, and why: Bullet's default solver
 * mode has one friction row per point, along the tangential velocity at
 * set-up (or btPlaneSpace1's first tangent when that is 0); here each
 * point has two rows along the ground's fixed tangents, as Bullet with
 * SOLVER_USE_2_FRICTION_DIRECTIONS, so that a body at rest on a slope is
 * held along the slope and not only across it.  Bullet's split impulse
 * (on by default, m_splitImpulse, btContactSolverInfo.h:95) acts only
 * below m_splitImpulsePenetrationThreshold = -0.04 m (96, cpp:962): deeper
 * than any contact here, which follow the non-split path above. */
#include <math.h>
#include <string.h>

#include "bodyops.h"

static void defaults(vb_solver_params *p)
{
    p->iterations = 10;
    p->baumgarte = 0.2;
    p->slop = 0.0;
    p->margin = 0.02;
    p->warm_start = 0.85;
    p->threshold = 0.2;
}

typedef struct row_point {
    vb_body_point pt;
    double m_n, m_t[2]; /* effective masses */
    double target;      /* the normal velocity the row drives towards */
    double ln, lt[2];   /* accumulated impulses */
} row_point;

static int step_body(vb_contact_world *w, vb_contact_body *b, vb_manifold_memory *mem,
                     const vb_solver_params *p, vb_body_step_fn *method, double h)
{
    vb_body_point pts[VB_BODY_FEATURES];
    int n = vb_body_points(b, &w->ground, p->margin, pts);
    vb_manifold_memory next;
    memset(&next, 0, sizeof next);
    if (n == 0) {
        *mem = next;
        method(&b->s, &b->p, h);
        return vb_body_finite(b) ? VB_BODY_OK : VB_BODY_DIVERGED;
    }
    const double *nrm = w->ground.normal;
    double t[2][3];
    vb_ground_tangents(nrm, t[0], t[1]);
    vb_body_vel pre, free_vel, bv;
    vb_body_vel_now(b, &pre);
    if (vb_body_vel_free(b, method, h, &free_vel) != VB_BODY_OK)
        return VB_BODY_DIVERGED;
    bv = free_vel;
    row_point rows[VB_BODY_FEATURES];
    for (int k = 0; k < n; k++) {
        row_point *rp = &rows[k];
        rp->pt = pts[k];
        const double *r = rp->pt.r;
        rp->m_n = 1.0 / vb_vel_inv_mass(&bv, r, nrm);
        for (int j = 0; j < 2; j++)
            rp->m_t[j] = 1.0 / vb_vel_inv_mass(&bv, r, t[j]);
        double vp[3];
        vb_vel_at(&pre, r, vp);
        double rel = vb_dot3(nrm, vp), rest = 0.0;
        if (!(fabs(rel) < p->threshold))
            rest = -w->restitution * rel;
        if (rest < 0.0)
            rest = 0.0;
        double pen = rp->pt.separation + p->slop;
        rp->target = rest + (pen > 0.0 ? -pen / h : -pen * p->baumgarte / h);
        int f = rp->pt.feature;
        rp->ln = p->warm_start * mem->normal[f];
        vb_vel_apply_along(&bv, r, nrm, rp->ln);
        for (int j = 0; j < 2; j++) {
            rp->lt[j] = p->warm_start * mem->tangent[f][j];
            vb_vel_apply_along(&bv, r, t[j], rp->lt[j]);
        }
    }
    for (int it = 0; it < p->iterations; it++) {
        for (int k = 0; k < n; k++) {
            row_point *rp = &rows[k];
            double vp[3];
            vb_vel_at(&bv, rp->pt.r, vp);
            double ln = rp->ln + rp->m_n * (rp->target - vb_dot3(nrm, vp));
            if (ln < 0.0)
                ln = 0.0;
            vb_vel_apply_along(&bv, rp->pt.r, nrm, ln - rp->ln);
            rp->ln = ln;
        }
        for (int k = 0; k < n; k++) {
            row_point *rp = &rows[k];
            if (!(rp->ln > 0.0))
                continue;
            double limit = w->mu_s * rp->ln;
            for (int j = 0; j < 2; j++) {
                double vp[3];
                vb_vel_at(&bv, rp->pt.r, vp);
                double lt = rp->lt[j] - rp->m_t[j] * vb_dot3(t[j], vp);
                lt = lt < -limit ? -limit : lt > limit ? limit : lt;
                vb_vel_apply_along(&bv, rp->pt.r, t[j], lt - rp->lt[j]);
                rp->lt[j] = lt;
            }
        }
    }
    for (int k = 0; k < n; k++) {
        int f = rows[k].pt.feature;
        next.normal[f] = rows[k].ln;
        next.tangent[f][0] = rows[k].lt[0];
        next.tangent[f][1] = rows[k].lt[1];
    }
    *mem = next;
    return vb_body_commit(b, method, h, vb_body_kick_share(b, method, h), &free_vel, &bv);
}

static int step(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                vb_body_step_fn *method, double h)
{
    return vb_body_each(w, c, p, method, h, step_body);
}

const vb_body_solver vb_solver_pgs = {
    .name = "pgs",
    .summary = "sequential impulses, friction clamped to mu lambda_n, warm-started, Baumgarte "
               "bias (Bullet's defaults)",
    .source = "bullet3 6c888f4 btSequentialImpulseConstraintSolver.cpp:494-501,898-969,"
              "1645-1682; btContactSolverInfo.h:85-108; btPersistentManifold.cpp:26",
    .keys = VB_KEY_ITERATIONS | VB_KEY_BAUMGARTE | VB_KEY_SLOP | VB_KEY_MARGIN |
            VB_KEY_WARM_START | VB_KEY_THRESHOLD,
    .flags = 0,
    .defaults = defaults,
    .step = step,
};
