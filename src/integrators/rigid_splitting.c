/* integrators/rigid_splitting.c — the symmetric splitting of the free
 * rigid body into exact rotations about its principal axes (McLachlan
 * 1993, "Explicit Lie-Poisson integration and the Euler equations", Phys.
 * Rev. Lett. 71, 3043; Touma & Wisdom 1994, Astron. J. 107, 1189;
 * Dullweber, Leimkuhler & McLachlan 1997, J. Chem. Phys. 107, 5840).
 *
 * H = L1^2/(2 I1) + L2^2/(2 I2) + L3^2/(2 I3), each term's flow exact: a
 * turn of the body about axis k at the constant rate L_k / I_k
 * (vb_rigid_principal_rotation).  A step is
 *     R1(h/2) R2(h/2) R3(h) R2(h/2) R1(h/2)
 * over the body axes in their order 1, 2, 3 (DLM's ordering; the error
 * constant depends on which axis is in the middle, the order does not),
 * and the centre of mass by kick-drift-kick (exact for uniform gravity;
 * it commutes with the rotation, which feels no torque).
 *
 * Second order (a symmetric composition of exact flows), symplectic
 * (each flow is the exact flow of a Hamiltonian on the Lie-Poisson
 * manifold) and reversible.  Every sub-step turns q and the body-frame L
 * by the same rotation, so the world L = q L q* is kept to round-off at
 * every step, and |L| too; the energy is not kept, but its error stays
 * bounded (O(h^2)) for exponentially long times. */
#include "quaternion.h"
#include "rigid_method.h"

static void step(vb_rigid_state *s, const vb_rigid_props *p, double h)
{
    static const int axes[3] = {0, 1, 2};
    const double *I = p->inertia;
    double L[3] = {I[0] * s->w[0], I[1] * s->w[1], I[2] * s->w[2]};
    vb_rigid_strang(s->q, L, I, axes, h);
    vb_quat_normalise(s->q);
    for (int i = 0; i < 3; i++)
        s->w[i] = L[i] / I[i];
    vb_rigid_translate(s, p, h, VB_TRANSLATE_KICK_DRIFT_KICK);
}

const vb_rigid_method vb_rigid_splitting = {
    .name = "rigid-splitting",
    .summary = "symmetric splitting into exact rotations about the principal axes "
               "R1 R2 R3 R2 R1",
    .order = 2,
    .flags = VB_RIGID_SYMPLECTIC | VB_RIGID_REVERSIBLE | VB_RIGID_KEEPS_ANGMOM |
             VB_RIGID_KEEPS_ANGMOM_NORM,
    .quaternion = VB_QUAT_PRINCIPAL_ROTATIONS,
    .translation = VB_TRANSLATE_KICK_DRIFT_KICK,
    .source = "McLachlan 1993; Touma & Wisdom 1994; Dullweber, Leimkuhler & McLachlan 1997",
    .step = step,
};
