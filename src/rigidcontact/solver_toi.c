/* rigidcontact/solver_toi.c — toi: event location, the reference.  Where
 * the body touches the ground the contact force is found as the exact
 * answer has it, and each event (an impact, the moment a slipping ball
 * rolls or a sliding box stops) is located inside the step, which is split
 * there.  Composed with a method exact under a constant force and for a
 * turn about a fixed axis (the splittings: rigid-splitting,
 * rigid-splitting4, rigid-no-squish; rigid-rk4 is exact on the centre of
 * mass only, its attitude a polynomial in h w) it is the exact motion of
 * roll and box-incline to round-off.
 *
 *   in flight: the step is tried; when its end lies below the plane, the
 *     time of impact is the root of the lowest point's separation after a
 *     step of tau, a quadratic through tau = 0, h/2, h for a method exact
 *     on a parabola (bisection where that misses by more than round-off);
 *   an impact at approach speed u: the normal impulse (1 + e) u (u alone
 *     where e = 0: it rests), and Coulomb's impulse at the contact point:
 *     the one that stops its slip if that is within mu_s times the normal
 *     impulse, else mu_k times it against the slip;
 *   resting on the plane, a ball: the normal force N = -m g.n; the slip u
 *     of the contact point; rolling (u = 0) needs the friction that keeps
 *     the contact point still, -g_t / K_t (K_t = 1/m + R^2/I its inverse
 *     mass along the plane), kept iff within mu_s N; slipping, mu_k N
 *     against u, and |u| falls at the constant rate K_t mu_k N - g_t.u^,
 *     so the moment it reaches 0 is located and the step split there;
 *   resting on a face, a box (flat, not turning): the same with K_t = 1/m
 *     and no turn (the normal force's spread over the face balances the
 *     friction's moment);
 *   a constant force F and torque over a step of tau is half its kick
 *     before the method's step and half after: for a method exact under a
 *     constant force this is that method on gravity plus F (kick-drift-kick
 *     with the summed kicks), and a turn about a fixed axis by
 *     tau (w + alpha tau/2), exact.  Then the body is put back on the
 *     plane and its normal velocity removed (round-off only).
 * The slip keeps its direction where the pull along the plane is along it
 * (every case here); a slip that turns is followed step by step.
 * Not resolved exactly, and refused with VB_BODY_UNSUPPORTED: a box that
 * meets the plane on an edge or a corner, or turning, and a ball whose
 * moments differ. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "bodyops.h"
#include "quaternion.h"

#define MAX_EVENTS 64

static void defaults(vb_solver_params *p)
{
    (void)p; /* toi has no keys: it is the exact answer */
}

typedef struct toi_ctx {
    const vb_contact_world *w;
    vb_contact_body *b;
    vb_body_step_fn *method;
} toi_ctx;

/* the lowest point's separation, and its reach below the centre along n */
static double lowest(const toi_ctx *c, const vb_rigid_state *s, double *reach)
{
    const vb_contact_body *b = c->b;
    const double *n = c->w->ground.normal;
    double centre = vb_plane_separation(&c->w->ground, s->x), r = 0.0;
    if (b->shape.kind == VB_SHAPE_SPHERE) {
        r = b->shape.radius;
    } else {
        double nb[3];
        vb_quat_rotate_inv(s->q, n, nb);
        for (int i = 0; i < 3; i++)
            r += fabs(nb[i]) * b->shape.half[i];
    }
    if (reach)
        *reach = r;
    return centre - r;
}

static double touch_tol(const toi_ctx *c, const vb_rigid_state *s)
{
    double reach;
    lowest(c, s, &reach);
    return 8.0 * DBL_EPSILON *
           (fabs(vb_dot3(c->w->ground.normal, s->x)) + fabs(c->w->ground.offset) + reach);
}

/* flat on a face: the body axis nearest the normal within round-off of it,
 * and not turning */
static int box_flat(const toi_ctx *c, const vb_rigid_state *s)
{
    double nb[3], amax = 0.0;
    vb_quat_rotate_inv(s->q, c->w->ground.normal, nb);
    for (int i = 0; i < 3; i++)
        amax = fmax(amax, fabs(nb[i]));
    double wn = sqrt(vb_dot3(s->w, s->w));
    return fabs(amax - 1.0) <= 64.0 * DBL_EPSILON && wn == 0.0;
}

/* onto the plane, the normal velocity removed */
static void hold(const toi_ctx *c)
{
    vb_rigid_state *s = &c->b->s;
    const double *n = c->w->ground.normal;
    double sep = lowest(c, s, NULL), vn = vb_dot3(n, s->v);
    for (int i = 0; i < 3; i++) {
        s->x[i] -= sep * n[i];
        s->v[i] -= vn * n[i];
    }
}

/* a constant contact force F and torque T (world) over tau */
static int constant_step(const toi_ctx *c, const double F[3], const double T[3], double tau)
{
    vb_contact_body *b = c->b;
    vb_body_vel bv;
    for (int half = 0; half < 2; half++) {
        vb_body_vel_now(b, &bv);
        double dth[3];
        vb_mat3_vec(bv.inv_I, T, dth);
        for (int i = 0; i < 3; i++) {
            bv.v[i] += 0.5 * tau * F[i] * bv.inv_m;
            bv.om[i] += 0.5 * tau * dth[i];
        }
        vb_body_vel_store(b, &bv);
        if (half == 0) {
            c->method(&b->s, &b->p, tau);
            if (!vb_body_finite(b))
                return VB_BODY_DIVERGED;
        }
    }
    hold(c);
    return VB_BODY_OK;
}

/* the contact point's velocity in the plane, and its offset from x */
static double slip(const toi_ctx *c, double u[3], double r[3])
{
    const double *n = c->w->ground.normal;
    vb_body_vel bv;
    vb_body_vel_now(c->b, &bv);
    double reach;
    lowest(c, &c->b->s, &reach);
    for (int i = 0; i < 3; i++)
        r[i] = -reach * n[i];
    if (c->b->shape.kind == VB_SHAPE_BOX)
        memset(bv.om, 0, sizeof bv.om); /* flat and not turning */
    vb_vel_at(&bv, r, u);
    double un = vb_dot3(u, n);
    for (int i = 0; i < 3; i++)
        u[i] -= un * n[i];
    return sqrt(vb_dot3(u, u));
}

/* K_t, the contact point's inverse mass along the plane (isotropic there) */
static double k_t(const toi_ctx *c)
{
    const vb_contact_body *b = c->b;
    double K = 1.0 / b->p.mass;
    if (b->shape.kind == VB_SHAPE_SPHERE)
        K += b->shape.radius * b->shape.radius / b->p.inertia[0];
    return K;
}

/* resting on the plane for up to rem: how long it went */
static int rest_step(const toi_ctx *c, double rem, double *went)
{
    const double *n = c->w->ground.normal, *g = c->b->p.gravity;
    double m = c->b->p.mass, N = -m * vb_dot3(g, n), gt[3];
    for (int i = 0; i < 3; i++)
        gt[i] = g[i] - vb_dot3(g, n) * n[i];
    double u[3], r[3], speed = slip(c, u, r), K = k_t(c), gts = sqrt(vb_dot3(gt, gt));
    double utol = 8.0 * DBL_EPSILON * (sqrt(vb_dot3(c->b->s.v, c->b->s.v)) + gts * rem);
    double F[3], T[3] = {0.0, 0.0, 0.0}, tau = rem;
    int stops = 0;
    if (speed <= utol) {
        if (gts / K <= c->w->mu_s * N) { /* it rolls, or sticks */
            for (int i = 0; i < 3; i++)
                F[i] = -gt[i] / K;
            if (c->b->shape.kind == VB_SHAPE_BOX) {
                /* held by static friction: nothing moves */
                memset(c->b->s.v, 0, sizeof c->b->s.v);
                *went = rem;
                return VB_BODY_OK;
            }
        } else { /* it starts to slip down the pull */
            for (int i = 0; i < 3; i++)
                F[i] = -c->w->mu_k * N * gt[i] / gts;
        }
    } else {
        double rate = 0.0;
        for (int i = 0; i < 3; i++) {
            F[i] = -c->w->mu_k * N * u[i] / speed;
            rate += u[i] / speed * gt[i];
        }
        rate -= K * c->w->mu_k * N; /* d|u|/dt */
        if (rate < 0.0 && speed / -rate < rem) {
            tau = speed / -rate;
            stops = 1;
        }
    }
    if (c->b->shape.kind == VB_SHAPE_SPHERE)
        vb_cross3(r, F, T);
    double Fc[3];
    for (int i = 0; i < 3; i++)
        Fc[i] = F[i] + N * n[i];
    int rc = constant_step(c, Fc, T, tau);
    if (rc != VB_BODY_OK)
        return rc;
    if (stops) { /* the slip is 0 there: remove its round-off */
        double u2[3], r2[3];
        slip(c, u2, r2);
        if (c->b->shape.kind == VB_SHAPE_BOX) {
            for (int i = 0; i < 3; i++)
                c->b->s.v[i] -= u2[i];
        } else { /* by the spin alone: dw x r = -u, dw = -(r x u)/|r|^2 */
            vb_body_vel bv;
            vb_body_vel_now(c->b, &bv);
            double ru[3], rr = vb_dot3(r2, r2);
            vb_cross3(r2, u2, ru);
            for (int i = 0; i < 3; i++)
                bv.om[i] -= ru[i] / rr;
            vb_body_vel_store(c->b, &bv);
        }
    }
    *went = tau;
    return VB_BODY_OK;
}

/* an impact at the lowest point */
static int impact(const toi_ctx *c)
{
    vb_contact_body *b = c->b;
    const double *n = c->w->ground.normal;
    if (b->shape.kind == VB_SHAPE_BOX && !box_flat(c, &b->s))
        return VB_BODY_UNSUPPORTED;
    double un = -vb_dot3(n, b->s.v), m = b->p.mass;
    double Jn = m * (1.0 + c->w->restitution) * un; /* impulse */
    double u[3], r[3], speed = slip(c, u, r), K = k_t(c), P[3];
    double stick = speed / K;
    for (int i = 0; i < 3; i++)
        P[i] = stick <= c->w->mu_s * Jn ? -u[i] / K
                                       : (speed > 0.0 ? -c->w->mu_k * Jn * u[i] / speed : 0.0);
    if (b->shape.kind == VB_SHAPE_BOX && sqrt(vb_dot3(P, P)) > Jn)
        return VB_BODY_UNSUPPORTED; /* the friction's moment would tip it */
    vb_body_vel bv;
    vb_body_vel_now(b, &bv);
    double Pn[3];
    for (int i = 0; i < 3; i++)
        Pn[i] = Jn * n[i];
    if (b->shape.kind == VB_SHAPE_SPHERE) {
        vb_vel_apply(&bv, r, P);
    } else {
        for (int i = 0; i < 3; i++)
            bv.v[i] += bv.inv_m * P[i];
    }
    for (int i = 0; i < 3; i++)
        bv.v[i] += bv.inv_m * Pn[i];
    vb_body_vel_store(b, &bv);
    if (c->w->restitution == 0.0) { /* it rests: the normal velocity exactly 0 */
        double vn = vb_dot3(n, b->s.v);
        for (int i = 0; i < 3; i++)
            b->s.v[i] -= vn * n[i];
    }
    return VB_BODY_OK;
}

/* the separation after a step of tau from s0 */
static double sep_after(const toi_ctx *c, const vb_rigid_state *s0, double tau,
                        vb_rigid_state *out)
{
    *out = *s0;
    if (tau > 0.0)
        c->method(out, &c->b->p, tau);
    return lowest(c, out, NULL);
}

/* the first tau in (0, h] where the separation, >= 0 at 0, is 0 */
static int locate(const toi_ctx *c, double f0, double h, double f_end, double *tau,
                  vb_rigid_state *at)
{
    vb_rigid_state s0 = c->b->s, tmp;
    double f_mid = sep_after(c, &s0, 0.5 * h, &tmp);
    double A = 2.0 * (f_end - 2.0 * f_mid + f0) / (h * h);
    double B = (4.0 * f_mid - 3.0 * f0 - f_end) / h, cand = NAN;
    if (A != 0.0) {
        double disc = B * B - 4.0 * A * f0;
        if (disc >= 0.0) {
            double q = -0.5 * (B + copysign(sqrt(disc), B));
            double r1 = q / A, r2 = q != 0.0 ? f0 / q : (double)NAN;
            double lo = fmin(r1, r2), hi = fmax(r1, r2);
            cand = lo > 0.0 && lo <= h ? lo : (hi > 0.0 && hi <= h ? hi : (double)NAN);
        }
    } else if (B != 0.0) {
        cand = -f0 / B;
    }
    double tol = 64.0 * DBL_EPSILON *
                 (fabs(f0) + fabs(f_mid) + fabs(f_end) + fabs(c->w->ground.offset) +
                  fabs(vb_dot3(c->w->ground.normal, s0.x)) + 1.0);
    if (cand == cand && cand > 0.0 && cand <= h && fabs(sep_after(c, &s0, cand, at)) <= tol) {
        *tau = cand;
        return VB_BODY_OK;
    }
    double lo = 0.0, hi = h; /* bisection: f(lo) >= 0 > f(hi) */
    for (int it = 0; it < 200 && hi - lo > 4.0 * DBL_EPSILON * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (sep_after(c, &s0, mid, &tmp) >= 0.0)
            lo = mid;
        else
            hi = mid;
    }
    if (!(hi > 0.0))
        return VB_BODY_NO_ROOT;
    *tau = hi;
    sep_after(c, &s0, hi, at);
    return VB_BODY_OK;
}

static int step_body(vb_contact_world *w, vb_contact_body *b, vb_manifold_memory *mem,
                     const vb_solver_params *p, vb_body_step_fn *method, double h)
{
    (void)mem, (void)p; /* toi carries nothing and has no keys */
    toi_ctx c = {.w = w, .b = b, .method = method};
    const double *n = w->ground.normal;
    if (b->shape.kind == VB_SHAPE_SPHERE &&
        !(b->p.inertia[0] == b->p.inertia[1] && b->p.inertia[1] == b->p.inertia[2]))
        return VB_BODY_UNSUPPORTED;
    double rem = h;
    int events = 0;
    for (int guard = 0; rem > 0.0; guard++) {
        if (guard > 4 * MAX_EVENTS + 8)
            return VB_BODY_NO_ROOT;
        double sep = lowest(&c, &b->s, NULL), tol = touch_tol(&c, &b->s);
        double vn = vb_dot3(n, b->s.v);
        double vtol = 8.0 * DBL_EPSILON * sqrt(vb_dot3(b->s.v, b->s.v));
        double pressed = -vb_dot3(b->p.gravity, n);
        if (sep <= tol) {
            if (vn < -vtol) {
                if (++events > MAX_EVENTS)
                    return VB_BODY_NO_ROOT;
                int rc = impact(&c);
                if (rc != VB_BODY_OK)
                    return rc;
                continue;
            }
            if (vn <= vtol && pressed > 0.0) {
                if (b->shape.kind == VB_SHAPE_BOX && !box_flat(&c, &b->s))
                    return VB_BODY_UNSUPPORTED;
                double went;
                int rc = rest_step(&c, rem, &went);
                if (rc != VB_BODY_OK)
                    return rc;
                if (went < rem && ++events > MAX_EVENTS)
                    return VB_BODY_NO_ROOT;
                rem = went >= rem ? 0.0 : rem - went;
                continue;
            }
        }
        vb_rigid_state end;
        double f_end = sep_after(&c, &b->s, rem, &end);
        if (!vb_rigid_finite(&end))
            return VB_BODY_DIVERGED;
        if (!(f_end < 0.0)) {
            b->s = end;
            return VB_BODY_OK;
        }
        double tau;
        vb_rigid_state at;
        int rc = locate(&c, fmax(sep, 0.0), rem, f_end, &tau, &at);
        if (rc != VB_BODY_OK)
            return rc;
        b->s = at;
        double off = lowest(&c, &b->s, NULL);
        for (int i = 0; i < 3; i++)
            b->s.x[i] -= off * n[i];
        if (++events > MAX_EVENTS)
            return VB_BODY_NO_ROOT;
        rc = impact(&c);
        if (rc != VB_BODY_OK)
            return rc;
        rem = tau >= rem ? 0.0 : rem - tau;
    }
    return vb_body_finite(b) ? VB_BODY_OK : VB_BODY_DIVERGED;
}

static int step(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                vb_body_step_fn *method, double h)
{
    return vb_body_each(w, c, p, method, h, step_body);
}

const vb_body_solver vb_solver_toi = {
    .name = "toi",
    .summary = "event location: impacts, the start of rolling and the stop of a slide found "
               "inside the step; exact with a method exact under a constant force",
    .source = "the exact contact mechanics of docs/contact.md (3D); the 2-D toi's event "
              "location (src/contact/handler_toi.c)",
    .keys = 0,
    .flags = VB_SOLVER_TWO_MU,
    .defaults = defaults,
    .step = step,
};
