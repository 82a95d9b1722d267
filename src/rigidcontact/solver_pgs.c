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
 * than any contact here, which follow the non-split path above.
 *
 * Every point of the world is a row (contacts.h: a body on the ground, a
 * box on a box), and each iteration goes over all of them, as Bullet's
 * solveSingleIteration goes over every contact of the island: a stack's
 * contacts pass their impulses up and down through the iterations.  A
 * point on the ground is warm-started by its feature (the body's corner);
 * a point of two boxes by the nearest of the pair's points of last step,
 * within `margin` on the incident box (contacts.h: vb_points_recall, as
 * Bullet's persistent manifold matches a new point to its cache), so that
 * a point that moves from a corner to a crossing of two edges as a box
 * turns by round-off keeps its impulse.
 * `substeps` (1 by default, Bullet's) splits the step into that many
 * whole solver steps of dt/substeps, each with its own contacts and warm
 * start: the sub-stepping of Macklin et al. 2019 applied to this solver,
 * for issue 55's comparison at equal cost. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contacts.h"

static void defaults(vb_solver_params *p)
{
    p->iterations = 10;
    p->substeps = 1;
    p->baumgarte = 0.2;
    p->slop = 0.0;
    p->margin = 0.02;
    p->warm_start = 0.85;
    p->threshold = 0.2;
}

typedef struct row_point {
    vb_contact_point pt;
    double t[2][3];     /* the contact's tangents */
    double m_n, m_t[2]; /* effective masses */
    double target;      /* the normal velocity the row drives towards */
    double ln, lt[2];   /* accumulated impulses */
} row_point;

/* the rows of the points, warm-started into vel with the fraction
 * warm_start of last step's impulses (pre: the velocities before
 * gravity's kick, for restitution) */
static void make_rows(const vb_contact_world *w, const vb_point_impulse *last,
                      const vb_solver_params *p, double h, const vb_body_vel *pre,
                      vb_body_vel *vel, row_point *rows, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        row_point *rp = &rows[k];
        const double *nrm = rp->pt.n;
        vb_ground_tangents(nrm, rp->t[0], rp->t[1]);
        rp->m_n = 1.0 / vb_point_inv_mass(vel, &rp->pt, nrm);
        for (int j = 0; j < 2; j++)
            rp->m_t[j] = 1.0 / vb_point_inv_mass(vel, &rp->pt, rp->t[j]);
        double vp[3];
        vb_point_vel(pre, &rp->pt, vp);
        double rel = vb_dot3(nrm, vp), rest = 0.0;
        if (!(fabs(rel) < p->threshold))
            rest = -w->restitution * rel;
        if (rest < 0.0)
            rest = 0.0;
        double pen = rp->pt.separation + p->slop;
        rp->target = rest + (pen > 0.0 ? -pen / h : -pen * p->baumgarte / h);
        rp->ln = p->warm_start * last[k].n;
        vb_point_apply(vel, &rp->pt, nrm, rp->ln);
        for (int j = 0; j < 2; j++) {
            rp->lt[j] = p->warm_start * last[k].t[j];
            vb_point_apply(vel, &rp->pt, rp->t[j], rp->lt[j]);
        }
    }
}

/* solveSingleIteration: every normal row, then every friction row */
static void iterate(const vb_contact_world *w, vb_body_vel *vel, row_point *rows, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        row_point *rp = &rows[k];
        double vp[3];
        vb_point_vel(vel, &rp->pt, vp);
        double ln = rp->ln + rp->m_n * (rp->target - vb_dot3(rp->pt.n, vp));
        if (ln < 0.0)
            ln = 0.0;
        vb_point_apply(vel, &rp->pt, rp->pt.n, ln - rp->ln);
        rp->ln = ln;
    }
    for (size_t k = 0; k < n; k++) {
        row_point *rp = &rows[k];
        if (!(rp->ln > 0.0))
            continue;
        double limit = w->mu_s * rp->ln;
        for (int j = 0; j < 2; j++) {
            double vp[3];
            vb_point_vel(vel, &rp->pt, vp);
            double lt = rp->lt[j] - rp->m_t[j] * vb_dot3(rp->t[j], vp);
            lt = lt < -limit ? -limit : lt > limit ? limit : lt;
            vb_point_apply(vel, &rp->pt, rp->t[j], lt - rp->lt[j]);
            rp->lt[j] = lt;
        }
    }
}

/* one whole solver step of h; work: the world's velocities, rows, points
 * and their impulses */
static int solve(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                 vb_body_step_fn *method, double h, vb_body_vel *vel, row_point *rows,
                 vb_contact_point *pts, vb_point_impulse *imp)
{
    size_t nb = w->n, n = vb_world_points(w, p->margin, pts);
    vb_body_vel *pre = vel, *free_vel = vel + nb, *bv = vel + 2 * nb;
    for (size_t i = 0; i < nb; i++) {
        vb_body_vel_now(&w->body[i], &pre[i]);
        if (vb_body_vel_free(&w->body[i], method, h, &free_vel[i]) != VB_BODY_OK)
            return VB_BODY_DIVERGED;
        bv[i] = free_vel[i];
    }
    for (size_t k = 0; k < n; k++)
        rows[k].pt = pts[k];
    vb_points_recall(c, pts, n, p->margin, imp);
    make_rows(w, imp, p, h, pre, bv, rows, n);
    for (int it = 0; it < p->iterations; it++)
        iterate(w, bv, rows, n);
    for (size_t k = 0; k < n; k++)
        imp[k] = (vb_point_impulse){rows[k].ln, {rows[k].lt[0], rows[k].lt[1]}};
    vb_points_remember(c, pts, n, imp);
    for (size_t i = 0; i < nb; i++) {
        vb_contact_body *b = &w->body[i];
        int touched = 0;
        for (size_t k = 0; k < n && !touched; k++)
            touched = rows[k].pt.a == (int)i || rows[k].pt.b == (int)i;
        if (!touched) {
            method(&b->s, &b->p, h);
            if (!vb_body_finite(b))
                return VB_BODY_DIVERGED;
            continue;
        }
        if (vb_body_commit(b, method, h, vb_body_kick_share(b, method, h), &free_vel[i],
                           &bv[i]) != VB_BODY_OK)
            return VB_BODY_DIVERGED;
    }
    return VB_BODY_OK;
}

static int step(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                vb_body_step_fn *method, double dt)
{
    size_t cap = vb_world_points_cap(w->n);
    vb_body_vel *vel = malloc(3 * (w->n ? w->n : 1) * sizeof *vel);
    row_point *rows = malloc(cap * sizeof *rows);
    vb_contact_point *pts = malloc(cap * sizeof *pts);
    vb_point_impulse *imp = malloc(cap * sizeof *imp);
    int rc = vel && rows && pts && imp ? VB_BODY_OK : VB_BODY_DIVERGED;
    int subs = p->substeps > 0 ? p->substeps : 1;
    for (int s = 0; s < subs && rc == VB_BODY_OK; s++)
        rc = solve(w, c, p, method, subs == 1 ? dt : dt / subs, vel, rows, pts, imp);
    free(imp);
    free(vel);
    free(rows);
    free(pts);
    return rc;
}

const vb_body_solver vb_solver_pgs = {
    .name = "pgs",
    .summary = "sequential impulses, friction clamped to mu lambda_n, warm-started, Baumgarte "
               "bias (Bullet's defaults)",
    .source = "bullet3 6c888f4 btSequentialImpulseConstraintSolver.cpp:494-501,898-969,"
              "1645-1682; btContactSolverInfo.h:85-108; btPersistentManifold.cpp:26",
    .keys = VB_KEY_ITERATIONS | VB_KEY_SUBSTEPS | VB_KEY_BAUMGARTE | VB_KEY_SLOP |
            VB_KEY_MARGIN | VB_KEY_WARM_START | VB_KEY_THRESHOLD,
    .flags = VB_SOLVER_BODIES,
    .defaults = defaults,
    .step = step,
};
