/* integrators/rigid_no_gyro.c — no gyroscopic term: the world angular
 * velocity holds when there is no torque.  cannon-es's Body.integrate
 * (cannon-es 0.20.0, src/objects/Body.ts:939-992):
 *
 *     angularVelo += dt * invInertiaWorld * torque          (969-971; 0 here)
 *     pos += velo * dt                                      (974-976, after
 *                                                            velo += f/m dt)
 *     quat.integrate(angularVelocity, dt, ...)              (978)
 *     quat.normalize()                                      (980-985)
 *
 * with Quaternion.integrate (src/math/Quaternion.ts:398-415) adding
 * (dt/2) (0, w_world) q to q: a first-order step, normalised every step by
 * default (World.quatNormalizeSkip = 0, quatNormalizeFast = false,
 * src/world/World.ts:219-220).
 *
 * Kept in the world frame as cannon-es keeps it: w_world = q w_body q*
 * stays, and the body-frame w of the new attitude is q_{n+1}* w_world
 * q_{n+1}.  Without w x I w, a tumbling body turns steadily about a fixed
 * axis: it converges to that motion, not the true one (order 0).  Where the
 * truth is such a steady turn (a spin about a principal axis) the axis is
 * exact and only the angle 2 atan(h|w|/2) per step is off, by h^3|w|^3/12:
 * order 2 there. */
#include "quaternion.h"
#include "rigid_method.h"

static void step(vb_rigid_state *s, const vb_rigid_props *p, double h)
{
    double ww[3];
    vb_quat_rotate(s->q, s->w, ww);
    vb_rigid_translate(s, p, h, VB_TRANSLATE_SYMPLECTIC_EULER);
    /* (0, w_world) q, as Quaternion.integrate writes it out */
    double a[4] = {0.0, ww[0], ww[1], ww[2]}, d[4];
    vb_quat_mul(a, s->q, d);
    for (int i = 0; i < 4; i++)
        s->q[i] += 0.5 * h * d[i];
    vb_quat_normalise(s->q);
    vb_quat_rotate_inv(s->q, ww, s->w);
}

const vb_rigid_method vb_rigid_no_gyro = {
    .name = "rigid-no-gyro",
    .summary = "no gyroscopic term: the world w holds without torque (cannon-es Body.integrate)",
    .order = 0,
    .flags = VB_RIGID_NO_GYROSCOPIC,
    .quaternion = VB_QUAT_FIRST_ORDER,
    .translation = VB_TRANSLATE_SYMPLECTIC_EULER,
    .source = "cannon-es 0.20.0 src/objects/Body.ts:939-992, src/math/Quaternion.ts:398-415",
    .step = step,
};
