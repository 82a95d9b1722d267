/* integrators/rigid_euler.c — explicit Euler on Euler's equations and on
 * the quaternion, normalised: the textbook first attempt.
 *
 *     w_{n+1} = w_n + h I^-1 ((I w_n) x w_n)
 *     q_{n+1} = normalise(q_n + (h/2) q_n (0, w_n))
 *     x_{n+1} = x_n + h v_n,  v_{n+1} = v_n + h g
 *
 * Everything from the old state: first order.  Euler's equations pump
 * energy in at every step (|w_{n+1}|^2 gains h^2 |w x I w|^2-ish terms),
 * so |L| and T grow without bound. */
#include "rigid_method.h"

static void step(vb_rigid_state *s, const vb_rigid_props *p, double h)
{
    double dw[3], w_old[3] = {s->w[0], s->w[1], s->w[2]};
    vb_rigid_euler_rhs(p, s->w, dw);
    for (int i = 0; i < 3; i++)
        s->w[i] += h * dw[i];
    vb_rigid_rotate_first_order(s->q, w_old, h);
    vb_rigid_translate(s, p, h, VB_TRANSLATE_EULER);
}

const vb_rigid_method vb_rigid_euler = {
    .name = "rigid-euler",
    .summary = "explicit Euler on Euler's equations and q' = q w / 2, normalised",
    .order = 1,
    .flags = 0,
    .quaternion = VB_QUAT_FIRST_ORDER,
    .translation = VB_TRANSLATE_EULER,
    .source = "textbook: Euler's equations (Landau & Lifshitz §36) stepped by explicit Euler",
    .step = step,
};
