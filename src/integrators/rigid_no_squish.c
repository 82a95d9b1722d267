/* integrators/rigid_no_squish.c — NO_SQUISH (Miller, Eleftheriou,
 * Pattnaik, Ndirango, Newns & Martyna, "Symplectic quaternion scheme for
 * biophysical molecular dynamics", J. Chem. Phys. 116, 8649, 2002): the
 * free rotor of a molecular-dynamics code, on the quaternion q and its
 * conjugate momentum p = 2 S(q) (0, I w) = 2 q (0, L_body).
 *
 * rotate(k, dt): zeta = p . P_k q / (4 I_k),
 *                q <- cos(zeta dt) q + sin(zeta dt) P_k q,
 *                p <- cos(zeta dt) p + sin(zeta dt) P_k p,
 * with P_k q = q e_k (P1 q = (-q1, q0, q3, -q2), P2 q = (-q2, -q3, q0, q1),
 * P3 q = (-q3, q2, -q1, q0)); a step is
 *     rotate(3, h/2) rotate(2, h/2) rotate(1, h) rotate(2, h/2) rotate(3, h/2)
 * and the centre of mass by velocity Verlet.  Since p . P_k q = 2 L_k |q|^2
 * each rotate is the exact flow of L_k^2 / (2 I_k), the same as
 * rigid-splitting's, in the order 3 2 1 2 3 instead of 1 2 3 2 1: the same
 * properties (second order, symplectic, reversible, world L to round-off)
 * and a different error constant.  q is never normalised: the rotations
 * keep |q| to round-off, and the body-frame L is read back as
 * vec(q* p) / (2 |q|^2). */
#include "quaternion.h"
#include "rigid_method.h"

#include <math.h>

static void rotate(double q[4], double p[4], const double I[3], int k, double dt)
{
    double e[4] = {0.0, 0.0, 0.0, 0.0}, Pq[4], Pp[4];
    e[1 + k] = 1.0;
    vb_quat_mul(q, e, Pq);
    vb_quat_mul(p, e, Pp);
    double zeta = (p[0] * Pq[0] + p[1] * Pq[1] + p[2] * Pq[2] + p[3] * Pq[3]) / (4.0 * I[k]);
    double c = cos(zeta * dt), s = sin(zeta * dt);
    for (int i = 0; i < 4; i++) {
        q[i] = c * q[i] + s * Pq[i];
        p[i] = c * p[i] + s * Pp[i];
    }
}

static void step(vb_rigid_state *s, const vb_rigid_props *pr, double h)
{
    const double *I = pr->inertia;
    double Lq[4] = {0.0, I[0] * s->w[0], I[1] * s->w[1], I[2] * s->w[2]}, p[4];
    vb_quat_mul(s->q, Lq, p);
    for (int i = 0; i < 4; i++)
        p[i] *= 2.0;
    rotate(s->q, p, I, 2, 0.5 * h);
    rotate(s->q, p, I, 1, 0.5 * h);
    rotate(s->q, p, I, 0, h);
    rotate(s->q, p, I, 1, 0.5 * h);
    rotate(s->q, p, I, 2, 0.5 * h);
    double qc[4], qp[4];
    vb_quat_conj(s->q, qc);
    vb_quat_mul(qc, p, qp);
    double n2 = s->q[0] * s->q[0] + s->q[1] * s->q[1] + s->q[2] * s->q[2] + s->q[3] * s->q[3];
    for (int i = 0; i < 3; i++)
        s->w[i] = qp[1 + i] / (2.0 * n2) / I[i];
    vb_rigid_translate(s, pr, h, VB_TRANSLATE_KICK_DRIFT_KICK);
}

const vb_rigid_method vb_rigid_no_squish = {
    .name = "rigid-no-squish",
    .summary = "NO_SQUISH: exact principal rotations R3 R2 R1 R2 R3 on (q, p), q not "
               "normalised",
    .order = 2,
    .flags = VB_RIGID_SYMPLECTIC | VB_RIGID_REVERSIBLE | VB_RIGID_KEEPS_ANGMOM |
             VB_RIGID_KEEPS_ANGMOM_NORM,
    .quaternion = VB_QUAT_NO_SQUISH,
    .translation = VB_TRANSLATE_KICK_DRIFT_KICK,
    .source = "Miller et al., J. Chem. Phys. 116, 8649 (2002)",
    .step = step,
};
