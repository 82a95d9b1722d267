/* integrators/rigid_splitting4.c — the fourth-order composition of
 * rigid-splitting: Yoshida's triple jump (Phys. Lett. A 150, 262, 1990)
 *     S(g1 h) S(g0 h) S(g1 h),  g1 = 1 / (2 - 2^(1/3)),  g0 = 1 - 2 g1,
 * of the symmetric second-order step S (rigid_splitting.c).  Fourth order
 * (g1^3 + g0^3 + g1^3 = 0 cancels S's h^3 error), still symplectic,
 * reversible and exact in the world L; the middle step goes back in time
 * (g0 < 0), as every such composition must.  Three steps' cost: 15
 * principal rotations. */
#include "quaternion.h"
#include "rigid_method.h"

#include <math.h>

static void step(vb_rigid_state *s, const vb_rigid_props *p, double h)
{
    static const int axes[3] = {0, 1, 2};
    const double g1 = 1.0 / (2.0 - cbrt(2.0)), g0 = 1.0 - 2.0 * g1;
    const double *I = p->inertia;
    double L[3] = {I[0] * s->w[0], I[1] * s->w[1], I[2] * s->w[2]};
    vb_rigid_strang(s->q, L, I, axes, g1 * h);
    vb_rigid_strang(s->q, L, I, axes, g0 * h);
    vb_rigid_strang(s->q, L, I, axes, g1 * h);
    vb_quat_normalise(s->q);
    for (int i = 0; i < 3; i++)
        s->w[i] = L[i] / I[i];
    vb_rigid_translate(s, p, h, VB_TRANSLATE_KICK_DRIFT_KICK);
}

const vb_rigid_method vb_rigid_splitting4 = {
    .name = "rigid-splitting4",
    .summary = "Yoshida's fourth-order triple jump of rigid-splitting",
    .order = 4,
    .flags = VB_RIGID_SYMPLECTIC | VB_RIGID_REVERSIBLE | VB_RIGID_KEEPS_ANGMOM |
             VB_RIGID_KEEPS_ANGMOM_NORM,
    .quaternion = VB_QUAT_PRINCIPAL_ROTATIONS,
    .translation = VB_TRANSLATE_KICK_DRIFT_KICK,
    .source = "Yoshida 1990 composition of the splitting of McLachlan 1993",
    .step = step,
};
