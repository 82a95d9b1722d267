/* rigidcontact/solver_xpbd.c — xpbd: Müller, Macklin, Chentanez, Jeschke
 * and Kim 2020, "Detailed Rigid Body Simulation with Extended Position
 * Based Dynamics" (Computer Graphics Forum 39(8), 101-112), its Algorithm 2
 * with the contacts of its section 3.5:
 *
 *   for each of `substeps` sub-steps h = dt / substeps:
 *     x_prev, q_prev <- x, q;  predict x, q, v, w by the step of h;
 *     `iterations` times, for each contact point with penetration
 *       d = -(n.p1 - offset) > 0 (the point of the body now):
 *         the normal correction dlambda_n = d / w_n (compliance 0),
 *           w_n = 1/m + (r x n).I^-1 (r x n)                     (eq. 2, 4)
 *         applied as the positional impulse p = dlambda_n n at r:
 *           x += p/m,  q += (1/2) (I^-1 (r x p), 0) q, normalised  (eq. 6-9)
 *         static friction: the point's motion in the sub-step, dp =
 *           p1 - p1_prev (the same body point at x_prev, q_prev), its
 *           tangential part dp_t corrected by dlambda_t = |dp_t| / w_t the
 *           same way, if lambda_t + dlambda_t < mu_s lambda_n;
 *     velocities from the positions: v = (x - x_prev)/h,
 *       w = 2 vec(q q_prev^-1)/h (its sign for a positive scalar part);
 *     for each point that was corrected in the sub-step (lambda_n > 0):
 *       dynamic friction: the impulse mu_k h |f_n| against the slip v_t,
 *         at most |v_t| / w_t (the one that stops it),
 *         f_n = lambda_n / h^2                                     (eq. 30)
 *       restitution dv = n (-v_n + max(-e v~_n, 0)), v~_n the normal
 *         velocity before the sub-step, e = 0 where |v_n| <= 2 |g| h,
 *         as the impulse dv / w_n                                  (eq. 33)
 *       the two impulses from the same velocities, applied together at r.
 *
 * Eq. 30 as printed caps the velocity change at h mu_d |f_n|, which is an
 * impulse; it is read here as Coulomb's bound on the impulse that makes
 * the change, as bevy_xpbd 0.5.0 does (src/utils.rs:55-68: "handled
 * differently from the XPBD paper because it treated mass incorrectly")
 * and Erin Catto's solver2d (d178a56 src/solve_xpbd.c:312-322: "wrong in
 * the paper, fixed here").  As printed the kinetic friction would fall
 * with w m: 3.5 times too weak on a solid ball, 4 on a cube's corner.
 *
 * Friction and restitution are two velocity updates, each turned into an
 * impulse by eq. 33 through the generalized inverse mass along its own
 * direction: w_t along the slip, w_n along n, as bevy_xpbd 0.5.0 src/plugins/solver.rs:485-515 and
 * solver2d src/solve_xpbd.c:249-331 do.  Summed into one dv first and
 * pushed through the inverse mass along the sum, a cube's corner, whose
 * slip and normal directions couple through its turn, took up to 1.6
 * times Coulomb's friction and kept part of its normal velocity: a
 * 30-degree cube at mu 0.2 was 24 % slow after a second, one at mu 0.7
 * slid away under kick-drift-kick (test_xpbd_landing_by_hand).
 *
 * What the algorithm does to a cube that must stick (docs/contact.md,
 * "xpbd on a cube"): a corner's own normal correction dlambda n at
 * r = (+-a, +-a, -a) turns the cube by I^-1 (r x n) dlambda and swings
 * the corner sideways, out along its diagonal, by 3 sqrt(2)/8 of the
 * correction; its static test lambda_t < mu_s lambda_n (w_t = 2.5/m along
 * the diagonal, w_n = 4/m) then needs mu_s > 3 sqrt(2)/5 = 0.849 even on
 * the flat, more with the slope's drift and the cube's rocking.  Where no
 * corner's static friction holds, the normal corrections (along n) leave
 * the centre's move along the slope h v + h^2 g sin(alpha), and only the
 * velocity pass holds the cube: it creeps, first order in h.
 *
 * The paper predicts with its own symplectic Euler, for which
 * (x - x_prev)/h is v_pred + (x - x_pred)/h.  Composed with any method the
 * velocities here are the method's predicted ones plus the correction's
 * impulse, which moved x as the method's kick would: v = v_pred +
 * (x - x_pred)/(share h), share the part of a kick a step drifts with
 * (1 for symplectic Euler: the paper's numbers; 1/2 for kick-drift-kick,
 * which otherwise gains half of g h at each sub-step of rest), and w
 * likewise.  The paper takes both mu_s (static, positional) and mu_k
 * (dynamic, on velocities).  It sets no default number of sub-steps; 20
 * with 1 iteration here (the paper argues for many sub-steps of one
 * iteration). */
#include <math.h>
#include <string.h>

#include "bodyops.h"
#include "quaternion.h"

static void defaults(vb_solver_params *p)
{
    p->substeps = 20;
    p->iterations = 1;
}

/* the body's point of feature f now, and its offset from the centre */
static void feature_point(const vb_contact_body *b, const vb_plane *g, int f, double p[3],
                          double r[3])
{
    if (b->shape.kind == VB_SHAPE_SPHERE) {
        for (int i = 0; i < 3; i++)
            r[i] = -b->shape.radius * g->normal[i];
    } else {
        double rb[3];
        for (int i = 0; i < 3; i++)
            rb[i] = (f >> i & 1) ? b->shape.half[i] : -b->shape.half[i];
        vb_quat_rotate(b->s.q, rb, r);
    }
    for (int i = 0; i < 3; i++)
        p[i] = b->s.x[i] + r[i];
}

/* a positional impulse P at r (eq. 6-9) */
static void move(vb_contact_body *b, const double r[3], const double P[3])
{
    vb_body_vel bv;
    vb_body_vel_now(b, &bv);
    double rP[3], dth[3], dq[4], pq[4];
    vb_cross3(r, P, rP);
    vb_mat3_vec(bv.inv_I, rP, dth);
    double th[4] = {0.0, dth[0], dth[1], dth[2]};
    vb_quat_mul(th, b->s.q, pq);
    for (int i = 0; i < 3; i++)
        b->s.x[i] += bv.inv_m * P[i];
    for (int i = 0; i < 4; i++)
        dq[i] = b->s.q[i] + 0.5 * pq[i];
    memcpy(b->s.q, dq, sizeof dq);
    vb_quat_normalise(b->s.q);
}

static double inv_mass_now(const vb_contact_body *b, const double r[3], const double u[3])
{
    vb_body_vel bv;
    vb_body_vel_now(b, &bv);
    return vb_vel_inv_mass(&bv, r, u);
}

/* the positional pass over every feature */
static void solve_positions(const vb_contact_world *w, vb_contact_body *b,
                            const vb_rigid_state *prev, int nf, double ln[], double lt[])
{
    const double *n = w->ground.normal;
    for (int f = 0; f < nf; f++) {
        double p1[3], r[3];
        feature_point(b, &w->ground, f, p1, r);
        double d = -vb_plane_separation(&w->ground, p1);
        if (!(d > 0.0))
            continue;
        double dl = d / inv_mass_now(b, r, n);
        double P[3] = {dl * n[0], dl * n[1], dl * n[2]};
        move(b, r, P);
        ln[f] += dl;
        /* static friction: the point's motion since the sub-step began */
        feature_point(b, &w->ground, f, p1, r);
        double rb[3], rprev[3], dp[3];
        vb_quat_rotate_inv(b->s.q, r, rb);
        vb_quat_rotate(prev->q, rb, rprev);
        for (int i = 0; i < 3; i++)
            dp[i] = p1[i] - (prev->x[i] + rprev[i]);
        double dn = vb_dot3(dp, n);
        for (int i = 0; i < 3; i++)
            dp[i] -= dn * n[i];
        double c = sqrt(vb_dot3(dp, dp));
        if (!(c > 0.0))
            continue;
        double u[3] = {dp[0] / c, dp[1] / c, dp[2] / c};
        double dlt = c / inv_mass_now(b, r, u);
        if (lt[f] + dlt < w->mu_s * ln[f]) {
            double Pt[3] = {-dlt * u[0], -dlt * u[1], -dlt * u[2]};
            move(b, r, Pt);
            lt[f] += dlt;
        }
    }
}

/* the velocity pass (eq. 30 and restitution) over the corrected features:
 * each update is an impulse along its own direction through that
 * direction's generalized inverse mass (eq. 33), the friction's along the
 * slip with w_t, the normal one along n with w_n, both from the same
 * velocities and applied together (bevy_xpbd 0.5.0 solver.rs:485-515) */
static void solve_velocities(const vb_contact_world *w, vb_contact_body *b,
                             const vb_body_vel *before, int nf, const double ln[], double h,
                             double share)
{
    const double *n = w->ground.normal;
    double g = sqrt(vb_dot3(b->p.gravity, b->p.gravity));
    vb_body_vel bv;
    vb_body_vel_now(b, &bv);
    for (int f = 0; f < nf; f++) {
        if (!(ln[f] > 0.0))
            continue;
        double p1[3], r[3], vp[3], vt[3], P[3] = {0.0, 0.0, 0.0};
        feature_point(b, &w->ground, f, p1, r);
        vb_vel_at(&bv, r, vp);
        double vn = vb_dot3(n, vp);
        for (int i = 0; i < 3; i++)
            vt[i] = vp[i] - vn * n[i];
        double st = sqrt(vb_dot3(vt, vt));
        if (st > 0.0) {
            /* eq. 30's cap, h mu_k |f_n| (an impulse), on the impulse:
             * at most mu_k times the normal impulse h f_n, and at most
             * the one that stops the slip, |v_t| / w_t */
            double u[3] = {vt[0] / st, vt[1] / st, vt[2] / st};
            double fn = ln[f] / (share * h * h); /* the normal impulse over h */
            double Jt = fmin(h * w->mu_k * fabs(fn), st / vb_vel_inv_mass(&bv, r, u));
            for (int i = 0; i < 3; i++)
                P[i] -= Jt * u[i];
        }
        double vb4[3];
        vb_vel_at(before, r, vb4);
        double vn_before = vb_dot3(n, vb4);
        double e = fabs(vn) <= 2.0 * g * h ? 0.0 : w->restitution;
        double Jn = (-vn + fmax(-e * vn_before, 0.0)) / vb_vel_inv_mass(&bv, r, n);
        for (int i = 0; i < 3; i++)
            P[i] += Jn * n[i];
        vb_vel_apply(&bv, r, P);
    }
    vb_body_vel_store(b, &bv);
}

static int substep(vb_contact_world *w, vb_contact_body *b, vb_manifold_memory *mem,
                   const vb_solver_params *p, vb_body_step_fn *method, double h)
{
    (void)mem; /* xpbd carries nothing between steps */
    int nf = b->shape.kind == VB_SHAPE_SPHERE ? 1 : VB_BODY_FEATURES;
    vb_rigid_state prev = b->s;
    double share = vb_body_kick_share(b, method, h);
    if (!(share > 0.0))
        share = 1.0; /* explicit Euler: the paper's (x - x_prev)/h */
    vb_body_vel before;
    vb_body_vel_now(b, &before);
    method(&b->s, &b->p, h);
    if (!vb_body_finite(b))
        return VB_BODY_DIVERGED;
    vb_rigid_state pred = b->s;
    double ln[VB_BODY_FEATURES] = {0}, lt[VB_BODY_FEATURES] = {0};
    for (int it = 0; it < p->iterations; it++)
        solve_positions(w, b, &prev, nf, ln, lt);
    /* v = v_pred + (x - x_pred)/(share h), w likewise: the correction's
     * impulse entered the drift as the method's kick does */
    double om[3], qc[4], dq[4];
    vb_quat_rotate(pred.q, pred.w, om);
    vb_quat_conj(pred.q, qc);
    vb_quat_mul(b->s.q, qc, dq);
    double sgn = dq[0] < 0.0 ? -1.0 : 1.0;
    vb_body_vel bv;
    vb_body_vel_now(b, &bv);
    for (int i = 0; i < 3; i++) {
        bv.v[i] = pred.v[i] + (b->s.x[i] - pred.x[i]) / (share * h);
        bv.om[i] = om[i] + sgn * 2.0 * dq[1 + i] / (share * h);
    }
    vb_body_vel_store(b, &bv);
    solve_velocities(w, b, &before, nf, ln, h, share);
    return vb_body_finite(b) ? VB_BODY_OK : VB_BODY_DIVERGED;
}

static int step(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                vb_body_step_fn *method, double dt)
{
    /* the sub-steps outside the bodies' loop, as Algorithm 2 */
    for (int s = 0; s < p->substeps; s++) {
        int rc = vb_body_each(w, c, p, method, dt / p->substeps, substep);
        if (rc != VB_BODY_OK)
            return rc;
    }
    return VB_BODY_OK;
}

const vb_body_solver vb_solver_xpbd = {
    .name = "xpbd",
    .summary = "extended position based dynamics: sub-steps, positional contacts and static "
               "friction, dynamic friction and restitution on velocities",
    .source = "Mueller, Macklin, Chentanez, Jeschke, Kim 2020, Computer Graphics Forum 39(8) "
              "101-112: Algorithm 2, section 3.5, eq. 2-9, 30",
    .keys = VB_KEY_SUBSTEPS | VB_KEY_ITERATIONS,
    .flags = VB_SOLVER_TWO_MU,
    .defaults = defaults,
    .step = step,
};
