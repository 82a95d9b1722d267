/* rigidcontact/solver_soft.c — soft: Box2D v3's soft step (box2d v3.1.1,
 * 8c66146), in 3-D:
 *
 *   the step (solver.c:731-739, 992-1093): prepare the contacts once; then
 *   for each of `substeps` sub-steps h = dt/substeps: integrate velocities,
 *   warm start, solve with the soft bias (ITERATIONS = 1, solver.c:26),
 *   integrate positions, relax without it (RELAX_ITERATIONS = 1, :27);
 *   after the sub-steps, restitution, and store the impulses.
 *   prepare (contact_solver.c:24-156): anchors r fixed in the body for
 *     the whole step, the base separation, the masses, and the relative
 *     normal velocity before the step for restitution; the impulses warm
 *     started from the last step's (scale 1, or 0 with warm starting off).
 *   solve (contact_solver.c:227-378): the current separation
 *       s = s0 + n.(dp + rot(dq, r) - r)     (the anchor carried by the
 *                                              body's motion since prepare)
 *     s > 0: bias s/h (speculative, rigid);  else with the bias:
 *     bias = max(biasRate s, -pushout), massScale, impulseScale of the
 *     soft constraint;  impulse = -m_n massScale (v_n + bias)
 *     - impulseScale lambda, lambda clamped >= 0; then friction, clamped
 *     to +- mu lambda.  relax: the same with no bias where s <= 0.
 *   softness (solver.h:140-175): omega = 2 pi hertz, a1 = 2 zeta + h omega,
 *     a2 = h omega a1, biasRate = omega / a1, massScale = a2 / (1 + a2),
 *     impulseScale = 1 / (1 + a2); a static contact gets twice the
 *     contact hertz, which is min(contactHertz, 0.125 / h) (world.c:762-765).
 *   restitution (contact_solver.c:382-478): where the stored relative
 *     velocity < -threshold and the point pushed: impulse =
 *     -m_n (v_n + e v_rel), the total clamped >= 0.
 *   defaults (types.c:15-18): restitution threshold 1 m/s, pushout 3 m/s,
 *     contactHertz 30, damping ratio 10; 4 sub-steps ("Usually 4",
 *     include/box2d/box2d.h:38); speculative distance 4 * 0.005 m
 *     (constants.h:23, 38).
 *
 * Box2D is 2-D, with one tangent row a point; here a point's two tangent
 * rows are solved together and their accumulated impulse clamped to the
 * disc of radius mu lambda, as Jolt clamps its two
 * (ContactConstraintManager.cpp:1725-1731 at 3b47ec3).  Rolling
 * resistance (contact_solver.c:361-371) is 0 by default and left out.
 *
 * A world of several bodies (issue 55's stacks): every stage goes over
 * every body and every contact of the world, as Box2D's stages go over
 * the awake set (solver.c:992-1093): the points the world's (contacts.h:
 * box on ground, box on box), prepared once a step; each sub-step
 * integrates every body's velocities, warm-starts every point, solves
 * manifold by manifold (a manifold's normal rows, then its friction rows,
 * as b2SolveContact, contact_solver.c:273-324, 326-378), integrates every
 * body's positions, relaxes, and after the sub-steps restitution and the
 * impulses stored.  A point's current separation carries both anchors
 * with their bodies: s = s0 + n.(d_a - d_b), d the anchor's move since
 * prepare (contact_solver.c:282-285: ds = dp + rot(dqB, rB) - rot(dqA,
 * rA), baseSeparation = separation - n.(rB - rA)); the ground's d_b = 0.
 * A contact with the (static) ground is twice as stiff as one between two
 * bodies (contact_solver.c:101-108: staticSoftness where either body is
 * static, else contactSoftness; world.c:764-765: 2 contactHertz and
 * contactHertz).  A point of two boxes is warm-started from the nearest
 * of the pair's last points (vb_points_recall, as pgs); Box2D matches by
 * feature id, which two turned boxes' crossings of edges do not keep.
 * One body on the ground: the same arithmetic in the same order as the
 * one-body solver was (its bits).
 *
 * At rest (docs/contact.md, "Stacks"): the impulse a point carries is
 * lambda = -m_n massScale/impulseScale biasRate s = -m_n h omega^2 s, a
 * spring of stiffness m_n omega^2 whatever the damping ratio and h, so a
 * point under the load F rests at s = -F / (m_n omega^2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contacts.h"
#include "quaternion.h"

static void defaults(vb_solver_params *p)
{
    p->substeps = 4;
    p->iterations = 1;
    p->relax_iterations = 1;
    p->hertz = 30.0;
    p->damping_ratio = 10.0;
    p->pushout = 3.0;
    p->margin = 0.02;
    p->warm_start = 1.0;
    p->threshold = 1.0;
}

typedef struct softness {
    double bias_rate, mass_scale, impulse_scale;
} softness;

typedef struct soft_point {
    vb_contact_point pt;  /* its anchors ra, rb fixed at prepare */
    double t[2][3];       /* its tangents */
    double s0;            /* separation at prepare */
    double m_n, m_t[2];
    double rel;           /* normal velocity at prepare, for restitution */
    double ln, lt[2];
    double total;         /* the sum of the normal impulses of every pass */
    const softness *soft; /* the ground's (static) or two bodies' */
} soft_point;

/* b2MakeSoft */
static softness make_soft(double hertz, double zeta, double h)
{
    if (hertz == 0.0)
        return (softness){0.0, 0.0, 0.0};
    double omega = 2.0 * M_PI * hertz, a1 = 2.0 * zeta + h * omega, a2 = h * omega * a1,
           a3 = 1.0 / (1.0 + a2);
    return (softness){omega / a1, a2 * a3, a3};
}

/* The bodies' poses at prepare, whose moves carry the anchors. */
typedef struct pose {
    double x[3], q[4];
} pose;

/* the move of body b's point at r since prepare: dp + rot(dq, r) - r */
static void anchor_move(const vb_contact_body *b, const pose *at, const double r[3], double d[3])
{
    double qc[4], dq[4], rr[3];
    vb_quat_conj(at->q, qc);
    vb_quat_mul(b->s.q, qc, dq);
    vb_quat_rotate(dq, r, rr);
    for (int i = 0; i < 3; i++)
        d[i] = b->s.x[i] - at->x[i] + rr[i] - r[i];
}

/* the separation of a point now: s0 + n.(d_a - d_b) */
static double separation_now(const vb_contact_world *w, const pose *at, const soft_point *sp)
{
    double ds[3];
    anchor_move(&w->body[sp->pt.a], &at[sp->pt.a], sp->pt.ra, ds);
    if (sp->pt.b >= 0) {
        double db[3];
        anchor_move(&w->body[sp->pt.b], &at[sp->pt.b], sp->pt.rb, db);
        for (int i = 0; i < 3; i++)
            ds[i] -= db[i];
    }
    return sp->s0 + vb_dot3(ds, sp->pt.n);
}

/* a manifold's normal rows (b2SolveContact): solve (use_bias) or relax */
static void normal_rows(const vb_contact_world *w, const pose *at, soft_point *pts, size_t n,
                        vb_body_vel *bv, const vb_solver_params *p, double inv_h, int use_bias)
{
    for (size_t k = 0; k < n; k++) {
        soft_point *sp = &pts[k];
        const double *nrm = sp->pt.n;
        double s = separation_now(w, at, sp);
        double bias = 0.0, mass_scale = 1.0, impulse_scale = 0.0;
        if (s > 0.0) {
            bias = s * inv_h;
        } else if (use_bias) {
            bias = fmax(sp->soft->bias_rate * s, -p->pushout);
            mass_scale = sp->soft->mass_scale;
            impulse_scale = sp->soft->impulse_scale;
        }
        double vp[3];
        vb_point_vel(bv, &sp->pt, vp);
        double vn = vb_dot3(nrm, vp);
        double impulse = -sp->m_n * mass_scale * (vn + bias) - impulse_scale * sp->ln;
        double ln = fmax(sp->ln + impulse, 0.0);
        vb_point_apply(bv, &sp->pt, nrm, ln - sp->ln);
        sp->ln = ln;
        sp->total += ln;
    }
}

/* a manifold's friction rows: the two tangents together, clamped to the
 * disc mu lambda */
static void friction_rows(const vb_contact_world *w, soft_point *pts, size_t n, vb_body_vel *bv)
{
    for (size_t k = 0; k < n; k++) {
        soft_point *sp = &pts[k];
        double vp[3], lt[2];
        vb_point_vel(bv, &sp->pt, vp);
        for (int j = 0; j < 2; j++)
            lt[j] = sp->lt[j] - sp->m_t[j] * vb_dot3(sp->t[j], vp);
        double len = sqrt(lt[0] * lt[0] + lt[1] * lt[1]), cap = w->mu_s * sp->ln;
        if (len > cap) {
            lt[0] *= cap / len;
            lt[1] *= cap / len;
        }
        for (int j = 0; j < 2; j++) {
            vb_point_apply(bv, &sp->pt, sp->t[j], lt[j] - sp->lt[j]);
            sp->lt[j] = lt[j];
        }
    }
}

/* one pass over every manifold of the world (a run of points of one
 * cache slot): its normal rows, then its friction rows */
static void solve_pass(const vb_contact_world *w, const pose *at, soft_point *pts, size_t n,
                       vb_body_vel *bv, const vb_solver_params *p, double inv_h, int use_bias)
{
    for (size_t first = 0, last; first < n; first = last) {
        for (last = first + 1; last < n && pts[last].pt.slot == pts[first].pt.slot; last++)
            ;
        normal_rows(w, at, pts + first, last - first, bv, p, inv_h, use_bias);
        friction_rows(w, pts + first, last - first, bv);
    }
}

/* prepare (b2PrepareContacts): anchors, base separation, masses, the
 * normal velocity for restitution, the warm start's impulses */
static void prepare(vb_contact_cache *c, const vb_solver_params *p,
                    const softness soft[2], const vb_contact_point *raw, size_t n,
                    vb_point_impulse *imp, const vb_body_vel *bv, soft_point *pts)
{
    vb_points_recall(c, raw, n, p->margin, imp);
    for (size_t k = 0; k < n; k++) {
        soft_point *sp = &pts[k];
        const double *nrm = raw[k].n;
        sp->pt = raw[k];
        sp->soft = &soft[raw[k].b < 0 ? 0 : 1];
        vb_ground_tangents(nrm, sp->t[0], sp->t[1]);
        sp->s0 = raw[k].separation;
        sp->m_n = 1.0 / vb_point_inv_mass(bv, &sp->pt, nrm);
        for (int j = 0; j < 2; j++)
            sp->m_t[j] = 1.0 / vb_point_inv_mass(bv, &sp->pt, sp->t[j]);
        double vp[3];
        vb_point_vel(bv, &sp->pt, vp);
        sp->rel = vb_dot3(nrm, vp);
        sp->ln = p->warm_start * imp[k].n;
        sp->lt[0] = p->warm_start * imp[k].t[0];
        sp->lt[1] = p->warm_start * imp[k].t[1];
        sp->total = 0.0;
    }
}

/* one sub-step of h: integrate velocities, warm start, solve, integrate
 * positions, relax (solver.c:992-1093) */
static int substep(vb_contact_world *w, const pose *at, soft_point *pts, size_t n,
                   vb_body_vel *bv, vb_body_vel *free_vel, const vb_solver_params *p,
                   vb_body_step_fn *method, double h, double inv_h)
{
    for (size_t i = 0; i < w->n; i++) {
        if (vb_body_vel_free(&w->body[i], method, h, &free_vel[i]) != VB_BODY_OK)
            return VB_BODY_DIVERGED;
        bv[i] = free_vel[i];
    }
    for (size_t k = 0; k < n; k++) { /* warm start */
        vb_point_apply(bv, &pts[k].pt, pts[k].pt.n, pts[k].ln);
        for (int j = 0; j < 2; j++)
            vb_point_apply(bv, &pts[k].pt, pts[k].t[j], pts[k].lt[j]);
    }
    for (int it = 0; it < p->iterations; it++)
        solve_pass(w, at, pts, n, bv, p, inv_h, 1);
    for (size_t i = 0; i < w->n; i++) {
        vb_contact_body *b = &w->body[i];
        if (vb_body_commit(b, method, h, vb_body_kick_share(b, method, h), &free_vel[i],
                           &bv[i]) != VB_BODY_OK)
            return VB_BODY_DIVERGED;
        vb_body_vel_now(b, &bv[i]);
    }
    for (int it = 0; it < p->relax_iterations; it++)
        solve_pass(w, at, pts, n, bv, p, inv_h, 0);
    for (size_t i = 0; i < w->n; i++)
        vb_body_vel_store(&w->body[i], &bv[i]);
    return VB_BODY_OK;
}

/* restitution (contact_solver.c:382-478): after the sub-steps */
static void restitution(vb_contact_world *w, soft_point *pts, size_t n, vb_body_vel *bv,
                        const vb_solver_params *p)
{
    for (size_t i = 0; i < w->n; i++)
        vb_body_vel_now(&w->body[i], &bv[i]);
    for (size_t k = 0; k < n; k++) {
        soft_point *sp = &pts[k];
        if (sp->rel > -p->threshold || sp->total == 0.0)
            continue;
        double vp[3];
        vb_point_vel(bv, &sp->pt, vp);
        double impulse = -sp->m_n * (vb_dot3(sp->pt.n, vp) + w->restitution * sp->rel);
        double ln = fmax(sp->ln + impulse, 0.0);
        vb_point_apply(bv, &sp->pt, sp->pt.n, ln - sp->ln);
        sp->ln = ln;
    }
    for (size_t i = 0; i < w->n; i++)
        vb_body_vel_store(&w->body[i], &bv[i]);
}

/* work: bodies' poses and velocities, the points, their rows and impulses */
typedef struct soft_work {
    pose *at;
    vb_body_vel *bv, *free_vel;
    vb_contact_point *raw;
    soft_point *pts;
    vb_point_impulse *imp;
} soft_work;

static int solve(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                 vb_body_step_fn *method, double dt, const soft_work *wk)
{
    size_t n = vb_world_points(w, p->margin, wk->raw);
    double h = dt / p->substeps, inv_h = p->substeps / dt;
    double hertz = fmin(p->hertz, 0.125 * inv_h);
    /* [0] a static contact's (twice the hertz), [1] two bodies' */
    softness soft[2] = {make_soft(2.0 * hertz, p->damping_ratio, h),
                        make_soft(hertz, p->damping_ratio, h)};
    for (size_t i = 0; i < w->n; i++) {
        memcpy(wk->at[i].x, w->body[i].s.x, sizeof wk->at[i].x);
        memcpy(wk->at[i].q, w->body[i].s.q, sizeof wk->at[i].q);
        vb_body_vel_now(&w->body[i], &wk->bv[i]);
    }
    prepare(c, p, soft, wk->raw, n, wk->imp, wk->bv, wk->pts);
    for (int sub = 0; sub < p->substeps; sub++) {
        int rc = substep(w, wk->at, wk->pts, n, wk->bv, wk->free_vel, p, method, h, inv_h);
        if (rc != VB_BODY_OK)
            return rc;
    }
    if (w->restitution > 0.0)
        restitution(w, wk->pts, n, wk->bv, p);
    for (size_t k = 0; k < n; k++)
        wk->imp[k] = (vb_point_impulse){wk->pts[k].ln, {wk->pts[k].lt[0], wk->pts[k].lt[1]}};
    vb_points_remember(c, wk->raw, n, wk->imp);
    for (size_t i = 0; i < w->n; i++)
        if (!vb_body_finite(&w->body[i]))
            return VB_BODY_DIVERGED;
    return VB_BODY_OK;
}

static int step(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                vb_body_step_fn *method, double dt)
{
    size_t nb = w->n ? w->n : 1, cap = vb_world_points_cap(w->n);
    soft_work wk = {malloc(nb * sizeof *wk.at), malloc(nb * sizeof *wk.bv),
                    malloc(nb * sizeof *wk.free_vel), malloc(cap * sizeof *wk.raw),
                    malloc(cap * sizeof *wk.pts), malloc(cap * sizeof *wk.imp)};
    int rc = wk.at && wk.bv && wk.free_vel && wk.raw && wk.pts && wk.imp
                 ? solve(w, c, p, method, dt, &wk)
                 : VB_BODY_DIVERGED;
    free(wk.at);
    free(wk.bv);
    free(wk.free_vel);
    free(wk.raw);
    free(wk.pts);
    free(wk.imp);
    return rc;
}
const vb_body_solver vb_solver_soft = {
    .name = "soft",
    .summary = "Box2D v3's soft step: sub-steps, a soft contact with a relax pass, restitution "
               "at the end",
    .source = "box2d v3.1.1 src/solver.c:26-27,731-739,992-1093; src/contact_solver.c:24-156,"
              "227-378,382-478; src/solver.h:140-175; src/world.c:762-765; src/types.c:15-18",
    .keys = VB_KEY_SUBSTEPS | VB_KEY_ITERATIONS | VB_KEY_RELAX | VB_KEY_SOFTNESS |
            VB_KEY_MARGIN | VB_KEY_WARM_START | VB_KEY_THRESHOLD,
    .flags = VB_SOLVER_BODIES,
    .defaults = defaults,
    .step = step,
};
