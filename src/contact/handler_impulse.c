/* contact/handler_impulse.c — impulse: Box2D's and Catto's sequential
 * impulse, in Box2D v3's order (docs/contact.md cites the lines), composed
 * with any method through its step.  At the step's start, from the nearest
 * face (separation s0, normal n):
 *
 *   if s0 > speculative: the wall is not seen; the step is taken as it is.
 *   u0 = -n.v                  the approach speed BEFORE gravity's kick
 *                              (v3 stores the relative normal velocity in its
 *                              prepare stage, before integrating velocities)
 *   (x1, v1) <- step(x, v, t, h)   a trial: what the step does alone
 *   s1 = the separation after it from the same face;  vn1 = n.v1
 *   J = -s1 / h                the normal impulse that ends the step on the
 *                              face (non-penetration, speculative when s0 > 0);
 *                              if J <= 0 the contact does not push: the trial
 *                              is the step.  Applied to the velocity before
 *                              the step, so before the kick, it moves the
 *                              step's end by J h (a kick or a drift adds the
 *                              same to v whatever v is, when the force does
 *                              not read v)
 *   Jn = max(0, -vn1)          the normal impulse the contact gives over the
 *                              step once relaxed (below): what cancels the
 *                              approach the kick leaves
 *   v <- v + J n, and the tangential velocity the trial ends with cut by at
 *        most mu Jn (Coulomb: |tangent impulse| <= mu normal impulse)
 *   (x, v) <- step(x, v, t, h), and x put on the face (round-off: J put
 *        it there, to the last bits)
 *   relax:       the normal velocity is set to max(vn1, 0): the push that
 *                put the ball on the face moved it, but is not kept as
 *                velocity (v3's relax iterations solve again without the
 *                bias, the accumulated impulse clamped >= 0)
 *   restitution: if u0 >= vth, the normal velocity is raised to e u0 (v3
 *                applies it after the relax, never lowering the velocity:
 *                the total impulse stays >= 0).
 *
 * Under symplectic Euler, -s1/h = -s0/h - vn1: the solve's speculative
 * constraint vn >= -s0/h.  A resting ball stays on the face with v = 0,
 * under symplectic Euler and velocity Verlet alike.
 *
 * At e = 1 a bounce gains or loses the flight energy g s0 of the state the
 * impulse starts from: the ball is put on the face and leaves it at u0, the
 * speed it had at s0.  With speculative = 0 that state is the first one
 * overlapping (s0 < 0: a gain, as project's, a step later); with a
 * speculative distance it can be the last one above (s0 > 0: a loss). */
#include "handler.h"

#include <string.h>

static int step(const vb_contact_geometry *g, vb_contact_step_fn *stepfn, void *ctx, double *x,
                double *v, double t, double h)
{
    unsigned d = g->dim;
    vb_contact_face f;
    vb_contact_nearest_face(g, x, &f);
    if (f.separation > g->speculative) {
        if (stepfn(ctx, x, v, t, h) != 0 || !vb_contact_finite(d, x, v))
            return VB_CONTACT_STEP_FAILED;
        return VB_CONTACT_OK;
    }
    double x1[VB_CONTACT_MAX_DIM], v1[VB_CONTACT_MAX_DIM];
    memcpy(x1, x, d * sizeof *x);
    memcpy(v1, v, d * sizeof *v);
    if (stepfn(ctx, x1, v1, t, h) != 0 || !vb_contact_finite(d, x1, v1))
        return VB_CONTACT_STEP_FAILED;
    double u0 = -vb_contact_dot(d, f.normal, v);
    double J = -vb_contact_face_separation(g, &f, x1) / h;
    if (!(J > 0.0)) {
        memcpy(x, x1, d * sizeof *x);
        memcpy(v, v1, d * sizeof *v);
        return VB_CONTACT_OK;
    }
    double vn1 = vb_contact_dot(d, f.normal, v1), Jn = vn1 < 0.0 ? -vn1 : 0.0;
    double dv[VB_CONTACT_MAX_DIM] = {0.0, 0.0, 0.0};
    vb_contact_friction(d, f.normal, g->friction, Jn, v1, dv);
    for (unsigned i = 0; i < d; i++)
        v[i] += J * f.normal[i] + dv[i];
    if (stepfn(ctx, x, v, t, h) != 0 || !vb_contact_finite(d, x, v))
        return VB_CONTACT_STEP_FAILED;
    /* on the face: J put it there up to round-off (exactly, had the step
     * been affine in v without rounding); a ball left a few ulps above
     * would not be seen at the next step and fall through a whole step */
    double off = vb_contact_face_separation(g, &f, x);
    for (unsigned i = 0; i < d; i++)
        x[i] -= off * f.normal[i];
    double want = vn1 > 0.0 ? vn1 : 0.0; /* relaxed */
    if (u0 >= g->threshold && g->restitution * u0 > want)
        want = g->restitution * u0;
    double vn = vb_contact_dot(d, f.normal, v);
    for (unsigned i = 0; i < d; i++)
        v[i] += (want - vn) * f.normal[i];
    return VB_CONTACT_OK;
}

static double blind(const vb_contact_geometry *g) { return g->speculative; }

const vb_contact_handler vb_contact_impulse = {
    .name = "impulse",
    .summary = "Box2D's impulse: land on the face (an impulse before the kick), then leave at "
               "e times the speed before the kick",
    .step = step,
    .blind = blind,
};
