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
 * iteration).
 *
 * A world of several bodies (issue 55's stacks): Algorithm 2 over every
 * body and contact, each stage over all of them before the next (predict
 * every body; `iterations` passes over every contact; every body's
 * velocities from its positions; the velocity pass over every contact).
 * A body's corners against the ground are as above; two boxes' points
 * (contacts.h: the incident box's points against the reference face) are
 * made once a step within 0.02 m, their anchors fixed in the incident box
 * and their face in the reference box, and re-measured from the states at
 * each use, as solver2d d178a56 does (solve_xpbd.c: s2PrepareContacts_XPBD
 * :18-86 once before the sub-steps, :388; the separation from both
 * bodies' moves, :126-134).  A correction is eq. 2-9 for two bodies:
 * dlambda = d / (w_a + w_b) along n, +p on the point's box and -p on the
 * face's, each at its own lever; static friction the two points' relative
 * motion in the sub-step (eq. 27-28: the incident box's point against the
 * reference box's point that is there now); the velocity pass on the
 * relative velocity, its impulses +-P.  One body on the ground: the same
 * arithmetic in the same order as before (its bits).
 *
 * `compliance` alpha (m/N, 0 by default: the paper's contacts, and
 * solver2d's baseCompliance 0 at :96) makes a contact eq. 4's compliant
 * constraint: dlambda = (d - alpha~ lambda) / (w + alpha~), alpha~ =
 * alpha / h^2, lambda the contact's sum in the sub-step, kept >= 0.
 * Solved to convergence a contact then rests at d = alpha~ lambda: at rest
 * each sub-step's lambda is its load times h^2, so d = alpha F, the
 * compliance times the load (0 when alpha = 0). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contacts.h"
#include "quaternion.h"

/* two boxes' points are made within this of the face, once a step (the
 * other solvers' margin: Bullet's breaking threshold, Box2D's
 * speculative distance) */
#define PAIR_REACH 0.02

static void defaults(vb_solver_params *p)
{
    p->substeps = 20;
    p->iterations = 1;
    p->compliance = 0.0;
}

/* eq. 4's correction of a contact with generalized inverse mass w, its
 * sum lambda in the sub-step, alpha~ = compliance / h^2; lambda + the
 * correction stays >= 0 */
static double normal_correction(double d, double w, double alpha, double lambda)
{
    if (alpha == 0.0)
        return d / w; /* the paper's contact (the one-body bits) */
    double dl = (d - alpha * lambda) / (w + alpha);
    return dl < -lambda ? -lambda : dl;
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

/* the part of dp across n, its length c; u = that part / c where c > 0 */
static double across(double dp[3], const double n[3], double u[3])
{
    double dn = vb_dot3(dp, n);
    for (int i = 0; i < 3; i++)
        dp[i] -= dn * n[i];
    double c = sqrt(vb_dot3(dp, dp));
    if (c > 0.0)
        for (int i = 0; i < 3; i++)
            u[i] = dp[i] / c;
    return c;
}

/* the positional pass over every feature */
static void solve_positions(const vb_contact_world *w, vb_contact_body *b,
                            const vb_rigid_state *prev, int nf, double ln[], double lt[],
                            double alpha)
{
    const double *n = w->ground.normal;
    for (int f = 0; f < nf; f++) {
        double p1[3], r[3];
        feature_point(b, &w->ground, f, p1, r);
        double d = -vb_plane_separation(&w->ground, p1);
        if (!(d > 0.0))
            continue;
        double dl = normal_correction(d, inv_mass_now(b, r, n), alpha, ln[f]);
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
        double u[3], c = across(dp, n, u);
        if (!(c > 0.0))
            continue;
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

/* Two boxes' point pt: its normal correction and static friction (eq.
 * 2-9, 27-28 for two bodies), prev the bodies' states at the sub-step's
 * start */
static void pair_positions(vb_contact_world *w, const vb_rigid_state *prev, vb_contact_point *pt,
                           double *ln, double *lt, double alpha)
{
    vb_contact_body *A = &w->body[pt->a], *B = &w->body[pt->b];
    vb_point_update(w, pt);
    double d = -pt->separation;
    if (!(d > 0.0))
        return;
    const double *n = pt->n;
    double wn = inv_mass_now(A, pt->ra, n) + inv_mass_now(B, pt->rb, n);
    double dl = normal_correction(d, wn, alpha, *ln);
    double P[3] = {dl * n[0], dl * n[1], dl * n[2]}, Q[3] = {-P[0], -P[1], -P[2]};
    move(A, pt->ra, P);
    move(B, pt->rb, Q);
    *ln += dl;
    /* static friction: a's point and b's point where it is now, each
     * carried back to the sub-step's start; their relative motion */
    vb_point_update(w, pt);
    double rbb[3], ra0[3], rb0[3], dp[3];
    vb_quat_rotate_inv(B->s.q, pt->rb, rbb);
    vb_quat_rotate(prev[pt->a].q, pt->r_body, ra0);
    vb_quat_rotate(prev[pt->b].q, rbb, rb0);
    for (int i = 0; i < 3; i++) /* (p - p_a0) - (p - p_b0) */
        dp[i] = (prev[pt->b].x[i] + rb0[i]) - (prev[pt->a].x[i] + ra0[i]);
    double u[3], c = across(dp, n, u);
    if (!(c > 0.0))
        return;
    double dlt = c / (inv_mass_now(A, pt->ra, u) + inv_mass_now(B, pt->rb, u));
    if (*lt + dlt < w->mu_s * *ln) {
        double Pt[3] = {-dlt * u[0], -dlt * u[1], -dlt * u[2]}, Qt[3] = {-Pt[0], -Pt[1], -Pt[2]};
        move(A, pt->ra, Pt);
        move(B, pt->rb, Qt);
        *lt += dlt;
    }
}

/* Two boxes' point pt in the velocity pass: as solve_velocities on the
 * relative velocity, +P on a and -P on b (before: every body's
 * velocities at the sub-step's start; vel: work for every body) */
static void pair_velocities(vb_contact_world *w, const vb_body_vel *before, vb_body_vel *vel,
                            vb_contact_point *pt, double ln, double h, double share)
{
    vb_contact_body *A = &w->body[pt->a], *B = &w->body[pt->b];
    vb_point_update(w, pt);
    vb_body_vel_now(A, &vel[pt->a]);
    vb_body_vel_now(B, &vel[pt->b]);
    const double *n = pt->n;
    double g = sqrt(vb_dot3(A->p.gravity, A->p.gravity));
    double vp[3], vt[3], P[3] = {0.0, 0.0, 0.0};
    vb_point_vel(vel, pt, vp);
    double vn = vb_dot3(n, vp);
    for (int i = 0; i < 3; i++)
        vt[i] = vp[i] - vn * n[i];
    double st = sqrt(vb_dot3(vt, vt));
    if (st > 0.0) { /* eq. 30 on the impulse, as for the ground */
        double u[3] = {vt[0] / st, vt[1] / st, vt[2] / st};
        double fn = ln / (share * h * h);
        double Jt = fmin(h * w->mu_k * fabs(fn), st / vb_point_inv_mass(vel, pt, u));
        for (int i = 0; i < 3; i++)
            P[i] -= Jt * u[i];
    }
    double v0[3];
    vb_point_vel(before, pt, v0);
    double e = fabs(vn) <= 2.0 * g * h ? 0.0 : w->restitution;
    double Jn = (-vn + fmax(-e * vb_dot3(n, v0), 0.0)) / vb_point_inv_mass(vel, pt, n);
    double Q[3];
    for (int i = 0; i < 3; i++) {
        P[i] += Jn * n[i];
        Q[i] = -P[i];
    }
    vb_vel_apply(&vel[pt->a], pt->ra, P);
    vb_vel_apply(&vel[pt->b], pt->rb, Q);
    vb_body_vel_store(A, &vel[pt->a]);
    vb_body_vel_store(B, &vel[pt->b]);
}

/* What a step keeps: per body its state at the sub-step's start, its
 * prediction, velocities before, kick share, the ground corners' sums;
 * the pairs' points of the step and their sums. */
typedef struct xpbd_work {
    vb_rigid_state *prev, *pred;
    vb_body_vel *before, *vel;
    double *share, *ln, *lt; /* ln, lt: VB_BODY_FEATURES a body */
    vb_contact_point *pts;
    double *pln, *plt;
    size_t np;
} xpbd_work;

/* every body: v = v_pred + (x - x_pred)/(share h), w likewise: the
 * correction's impulse entered the drift as the method's kick does */
static void velocities_from_positions(vb_contact_body *b, const vb_rigid_state *pred,
                                      double share, double h)
{
    double om[3], qc[4], dq[4];
    vb_quat_rotate(pred->q, pred->w, om);
    vb_quat_conj(pred->q, qc);
    vb_quat_mul(b->s.q, qc, dq);
    double sgn = dq[0] < 0.0 ? -1.0 : 1.0;
    vb_body_vel bv;
    vb_body_vel_now(b, &bv);
    for (int i = 0; i < 3; i++) {
        bv.v[i] = pred->v[i] + (b->s.x[i] - pred->x[i]) / (share * h);
        bv.om[i] = om[i] + sgn * 2.0 * dq[1 + i] / (share * h);
    }
    vb_body_vel_store(b, &bv);
}

static int features(const vb_contact_body *b)
{
    return b->shape.kind == VB_SHAPE_SPHERE ? 1 : VB_BODY_FEATURES;
}

/* one sub-step of Algorithm 2 over the world */
static int substep(vb_contact_world *w, const xpbd_work *k, const vb_solver_params *p,
                   vb_body_step_fn *method, double h)
{
    size_t nb = w->n;
    double alpha = p->compliance / (h * h);
    for (size_t i = 0; i < nb; i++) {
        vb_contact_body *b = &w->body[i];
        k->prev[i] = b->s;
        k->share[i] = vb_body_kick_share(b, method, h);
        if (!(k->share[i] > 0.0))
            k->share[i] = 1.0; /* explicit Euler: the paper's (x - x_prev)/h */
        vb_body_vel_now(b, &k->before[i]);
        method(&b->s, &b->p, h);
        if (!vb_body_finite(b))
            return VB_BODY_DIVERGED;
        k->pred[i] = b->s;
    }
    memset(k->ln, 0, nb * VB_BODY_FEATURES * sizeof *k->ln);
    memset(k->lt, 0, nb * VB_BODY_FEATURES * sizeof *k->lt);
    memset(k->pln, 0, k->np * sizeof *k->pln);
    memset(k->plt, 0, k->np * sizeof *k->plt);
    for (int it = 0; it < p->iterations; it++) {
        for (size_t i = 0; i < nb; i++)
            solve_positions(w, &w->body[i], &k->prev[i], features(&w->body[i]),
                            k->ln + i * VB_BODY_FEATURES, k->lt + i * VB_BODY_FEATURES, alpha);
        for (size_t q = 0; q < k->np; q++)
            pair_positions(w, k->prev, &k->pts[q], &k->pln[q], &k->plt[q], alpha);
    }
    for (size_t i = 0; i < nb; i++)
        velocities_from_positions(&w->body[i], &k->pred[i], k->share[i], h);
    for (size_t i = 0; i < nb; i++)
        solve_velocities(w, &w->body[i], &k->before[i], features(&w->body[i]),
                         k->ln + i * VB_BODY_FEATURES, h, k->share[i]);
    for (size_t q = 0; q < k->np; q++)
        if (k->pln[q] > 0.0)
            pair_velocities(w, k->before, k->vel, &k->pts[q], k->pln[q], h,
                            k->share[k->pts[q].a]);
    for (size_t i = 0; i < nb; i++)
        if (!vb_body_finite(&w->body[i]))
            return VB_BODY_DIVERGED;
    return VB_BODY_OK;
}

/* the pairs' points of the step: the world's, less those on the ground */
static size_t pair_points_of_step(const vb_contact_world *w, vb_contact_point *pts)
{
    size_t n = vb_world_points(w, PAIR_REACH, pts), np = 0;
    for (size_t q = 0; q < n; q++)
        if (pts[q].b >= 0)
            pts[np++] = pts[q];
    return np;
}

static int step(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                vb_body_step_fn *method, double dt)
{
    (void)c; /* xpbd carries nothing between steps */
    size_t nb = w->n ? w->n : 1, cap = vb_world_points_cap(w->n), nf = nb * VB_BODY_FEATURES;
    xpbd_work k = {malloc(nb * sizeof *k.prev), malloc(nb * sizeof *k.pred),
                   malloc(nb * sizeof *k.before), malloc(nb * sizeof *k.vel),
                   malloc(nb * sizeof *k.share), malloc(nf * sizeof *k.ln),
                   malloc(nf * sizeof *k.lt), malloc(cap * sizeof *k.pts),
                   malloc(cap * sizeof *k.pln), malloc(cap * sizeof *k.plt), 0};
    int rc = k.prev && k.pred && k.before && k.vel && k.share && k.ln && k.lt && k.pts &&
                     k.pln && k.plt
                 ? VB_BODY_OK
                 : VB_BODY_DIVERGED;
    if (rc == VB_BODY_OK)
        k.np = pair_points_of_step(w, k.pts);
    /* the sub-steps outside the bodies' loops, as Algorithm 2 */
    for (int s = 0; s < p->substeps && rc == VB_BODY_OK; s++)
        rc = substep(w, &k, p, method, dt / p->substeps);
    void *all[] = {k.prev, k.pred, k.before, k.vel, k.share, k.ln, k.lt, k.pts, k.pln, k.plt};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
    return rc;
}

const vb_body_solver vb_solver_xpbd = {
    .name = "xpbd",
    .summary = "extended position based dynamics: sub-steps, positional contacts and static "
               "friction, dynamic friction and restitution on velocities",
    .source = "Mueller, Macklin, Chentanez, Jeschke, Kim 2020, Computer Graphics Forum 39(8) "
              "101-112: Algorithm 2, section 3.5, eq. 2-9, 27-28, 30",
    .keys = VB_KEY_SUBSTEPS | VB_KEY_ITERATIONS | VB_KEY_COMPLIANCE,
    .flags = VB_SOLVER_TWO_MU | VB_SOLVER_BODIES,
    .defaults = defaults,
    .step = step,
};
