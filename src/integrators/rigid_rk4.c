/* integrators/rigid_rk4.c — classical RK4 on y = (q, w), body-frame w:
 *
 *     q' = q (0, w) / 2,   w' = I^-1 ((I w) x w),
 *
 * all seven components through the four stages together, and q normalised
 * once at the end of the step (the stages see the unnormalised q, as a
 * generic ODE solver would).  Fourth order: RK4 on a smooth ODE, and the
 * normalisation moves q by the O(h^5) its norm drifted in the step.  Not
 * symplectic: energy and |L| drift like h^4 t.  The centre of mass by RK4
 * on x'' = g, which is exact there (vb_rigid_translate). */
#include "quaternion.h"
#include "rigid_method.h"

/* y' = f(y), y = (q[4], w[3]) */
static void rhs(const vb_rigid_props *p, const double y[7], double dy[7])
{
    double pw[4] = {0.0, y[4], y[5], y[6]};
    vb_quat_mul(y, pw, dy);
    for (int i = 0; i < 4; i++)
        dy[i] *= 0.5;
    vb_rigid_euler_rhs(p, y + 4, dy + 4);
}

static void step(vb_rigid_state *s, const vb_rigid_props *p, double h)
{
    double y[7] = {s->q[0], s->q[1], s->q[2], s->q[3], s->w[0], s->w[1], s->w[2]};
    double k1[7], k2[7], k3[7], k4[7], t[7];
    rhs(p, y, k1);
    for (int i = 0; i < 7; i++)
        t[i] = y[i] + 0.5 * h * k1[i];
    rhs(p, t, k2);
    for (int i = 0; i < 7; i++)
        t[i] = y[i] + 0.5 * h * k2[i];
    rhs(p, t, k3);
    for (int i = 0; i < 7; i++)
        t[i] = y[i] + h * k3[i];
    rhs(p, t, k4);
    for (int i = 0; i < 7; i++)
        y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    for (int i = 0; i < 4; i++)
        s->q[i] = y[i];
    vb_quat_normalise(s->q);
    for (int i = 0; i < 3; i++)
        s->w[i] = y[4 + i];
    vb_rigid_translate(s, p, h, VB_TRANSLATE_RK4);
}

const vb_rigid_method vb_rigid_rk4 = {
    .name = "rigid-rk4",
    .summary = "classical RK4 on (q, w) with w in the body, q normalised after each step",
    .order = 4,
    .flags = 0,
    .quaternion = VB_QUAT_RK4,
    .translation = VB_TRANSLATE_RK4,
    .source = "classical Runge-Kutta on q' = q w / 2 and Euler's equations",
    .step = step,
};
