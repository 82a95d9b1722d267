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
 * resistance (contact_solver.c:361-371) is 0 by default and left out. */
#include <math.h>
#include <string.h>

#include "bodyops.h"
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

typedef struct soft_point {
    vb_body_point pt;
    double s0;          /* separation at prepare */
    double m_n, m_t[2];
    double rel;         /* normal velocity at prepare, for restitution */
    double ln, lt[2];
    double total;       /* the sum of the normal impulses of every pass */
} soft_point;

typedef struct softness {
    double bias_rate, mass_scale, impulse_scale;
} softness;

/* b2MakeSoft */
static softness make_soft(double hertz, double zeta, double h)
{
    if (hertz == 0.0)
        return (softness){0.0, 0.0, 0.0};
    double omega = 2.0 * M_PI * hertz, a1 = 2.0 * zeta + h * omega, a2 = h * omega * a1,
           a3 = 1.0 / (1.0 + a2);
    return (softness){omega / a1, a2 * a3, a3};
}

/* the separation of point k now: s0 + n.(dp + rot(dq, r) - r) */
static double separation_now(const vb_contact_body *b, const double x0[3], const double q0[4],
                             const soft_point *sp, const double n[3])
{
    double q0c[4], dq[4], rr[3], ds[3];
    vb_quat_conj(q0, q0c);
    vb_quat_mul(b->s.q, q0c, dq);
    vb_quat_rotate(dq, sp->pt.r, rr);
    for (int i = 0; i < 3; i++)
        ds[i] = b->s.x[i] - x0[i] + rr[i] - sp->pt.r[i];
    return sp->s0 + vb_dot3(ds, n);
}

/* one pass over the points: solve (use_bias) or relax */
static void solve_pass(const vb_contact_world *w, const vb_contact_body *b, const double x0[3],
                       const double q0[4], soft_point *pts, int n, const double t[2][3],
                       vb_body_vel *bv, const softness *soft, const vb_solver_params *p,
                       double inv_h, int use_bias)
{
    const double *nrm = w->ground.normal;
    for (int k = 0; k < n; k++) {
        soft_point *sp = &pts[k];
        double s = separation_now(b, x0, q0, sp, nrm);
        double bias = 0.0, mass_scale = 1.0, impulse_scale = 0.0;
        if (s > 0.0) {
            bias = s * inv_h;
        } else if (use_bias) {
            bias = fmax(soft->bias_rate * s, -p->pushout);
            mass_scale = soft->mass_scale;
            impulse_scale = soft->impulse_scale;
        }
        double vp[3];
        vb_vel_at(bv, sp->pt.r, vp);
        double vn = vb_dot3(nrm, vp);
        double impulse = -sp->m_n * mass_scale * (vn + bias) - impulse_scale * sp->ln;
        double ln = fmax(sp->ln + impulse, 0.0);
        vb_vel_apply_along(bv, sp->pt.r, nrm, ln - sp->ln);
        sp->ln = ln;
        sp->total += ln;
    }
    for (int k = 0; k < n; k++) {
        soft_point *sp = &pts[k];
        double vp[3], lt[2];
        vb_vel_at(bv, sp->pt.r, vp);
        for (int j = 0; j < 2; j++)
            lt[j] = sp->lt[j] - sp->m_t[j] * vb_dot3(t[j], vp);
        double len = sqrt(lt[0] * lt[0] + lt[1] * lt[1]), cap = w->mu_s * sp->ln;
        if (len > cap) {
            lt[0] *= cap / len;
            lt[1] *= cap / len;
        }
        for (int j = 0; j < 2; j++) {
            vb_vel_apply_along(bv, sp->pt.r, t[j], lt[j] - sp->lt[j]);
            sp->lt[j] = lt[j];
        }
    }
}

static int step_body(vb_contact_world *w, vb_contact_body *b, vb_manifold_memory *mem,
                     const vb_solver_params *p, vb_body_step_fn *method, double dt)
{
    const double *nrm = w->ground.normal;
    vb_body_point raw[VB_BODY_FEATURES];
    int n = vb_body_points(b, &w->ground, p->margin, raw);
    double h = dt / p->substeps, inv_h = p->substeps / dt;
    double hertz = fmin(p->hertz, 0.125 * inv_h);
    softness soft = make_soft(2.0 * hertz, p->damping_ratio, h); /* a static contact */
    double t[2][3];
    vb_ground_tangents(nrm, t[0], t[1]);
    double x0[3], q0[4];
    memcpy(x0, b->s.x, sizeof x0);
    memcpy(q0, b->s.q, sizeof q0);
    vb_body_vel bv;
    vb_body_vel_now(b, &bv);
    soft_point pts[VB_BODY_FEATURES];
    for (int k = 0; k < n; k++) {
        soft_point *sp = &pts[k];
        sp->pt = raw[k];
        sp->s0 = raw[k].separation;
        sp->m_n = 1.0 / vb_vel_inv_mass(&bv, sp->pt.r, nrm);
        for (int j = 0; j < 2; j++)
            sp->m_t[j] = 1.0 / vb_vel_inv_mass(&bv, sp->pt.r, t[j]);
        double vp[3];
        vb_vel_at(&bv, sp->pt.r, vp);
        sp->rel = vb_dot3(nrm, vp);
        int f = sp->pt.feature;
        sp->ln = p->warm_start * mem->normal[f];
        sp->lt[0] = p->warm_start * mem->tangent[f][0];
        sp->lt[1] = p->warm_start * mem->tangent[f][1];
        sp->total = 0.0;
    }
    for (int sub = 0; sub < p->substeps; sub++) {
        vb_body_vel free_vel;
        if (vb_body_vel_free(b, method, h, &free_vel) != VB_BODY_OK)
            return VB_BODY_DIVERGED;
        bv = free_vel;
        for (int k = 0; k < n; k++) { /* warm start */
            vb_vel_apply_along(&bv, pts[k].pt.r, nrm, pts[k].ln);
            for (int j = 0; j < 2; j++)
                vb_vel_apply_along(&bv, pts[k].pt.r, t[j], pts[k].lt[j]);
        }
        for (int it = 0; it < p->iterations; it++)
            solve_pass(w, b, x0, q0, pts, n, t, &bv, &soft, p, inv_h, 1);
        if (vb_body_commit(b, method, h, vb_body_kick_share(b, method, h), &free_vel, &bv) != VB_BODY_OK)
            return VB_BODY_DIVERGED;
        vb_body_vel_now(b, &bv);
        for (int it = 0; it < p->relax_iterations; it++)
            solve_pass(w, b, x0, q0, pts, n, t, &bv, &soft, p, inv_h, 0);
        vb_body_vel_store(b, &bv);
    }
    if (w->restitution > 0.0) {
        vb_body_vel_now(b, &bv);
        for (int k = 0; k < n; k++) {
            soft_point *sp = &pts[k];
            if (sp->rel > -p->threshold || sp->total == 0.0)
                continue;
            double vp[3];
            vb_vel_at(&bv, sp->pt.r, vp);
            double impulse = -sp->m_n * (vb_dot3(nrm, vp) + w->restitution * sp->rel);
            double ln = fmax(sp->ln + impulse, 0.0);
            vb_vel_apply_along(&bv, sp->pt.r, nrm, ln - sp->ln);
            sp->ln = ln;
        }
        vb_body_vel_store(b, &bv);
    }
    memset(mem, 0, sizeof *mem);
    for (int k = 0; k < n; k++) {
        int f = pts[k].pt.feature;
        mem->normal[f] = pts[k].ln;
        mem->tangent[f][0] = pts[k].lt[0];
        mem->tangent[f][1] = pts[k].lt[1];
    }
    return vb_body_finite(b) ? VB_BODY_OK : VB_BODY_DIVERGED;
}

static int step(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                vb_body_step_fn *method, double h)
{
    return vb_body_each(w, c, p, method, h, step_body);
}

const vb_body_solver vb_solver_soft = {
    .name = "soft",
    .summary = "Box2D v3's soft step: sub-steps, a soft contact with a relax pass, restitution "
               "at the end",
    .source = "box2d v3.1.1 src/solver.c:26-27,731-739,992-1093; src/contact_solver.c:24-156,"
              "227-378,382-478; src/solver.h:140-175; src/world.c:762-765; src/types.c:15-18",
    .keys = VB_KEY_SUBSTEPS | VB_KEY_ITERATIONS | VB_KEY_RELAX | VB_KEY_SOFTNESS |
            VB_KEY_MARGIN | VB_KEY_WARM_START | VB_KEY_THRESHOLD,
    .flags = 0,
    .defaults = defaults,
    .step = step,
};
