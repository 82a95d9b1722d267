/* integrators/rigid_explicit_gyro_linear.c — Jolt's gyroscopic step
 * (rigid_explicit_gyro.c) with the first-order quaternion update instead
 * of the exponential map: Rapier's staged solver (rapier v0.35.2):
 *
 *   src/dynamics/rigid_body.rs:2023-2046, gyroscopic_corrected_angvel:
 *     w = principal_axes.inverse() * angvel                          (2033)
 *     curr_momentum = principal_inertia * w                          (2034)
 *     explicit_gyro_momentum = -w.cross(curr_momentum) * dt          (2035)
 *     total_momentum = curr_momentum + explicit_gyro_momentum        (2036)
 *     capped = total * sqrt(|curr|^2 / |total|^2)                    (2040-2041)
 *     principal_axes * (inv_principal_inertia * capped)              (2042)
 *   applied every substep after the velocity increments (gravity) in
 *   src/dynamics/solver/staged_island_solver/worker.rs:243-269, with the
 *   orientation of the previous substep; then worker.rs:605-615 and
 *   src/dynamics/rigid_body_components.rs:884-898, integrate_linearized:
 *     hang = angvel * (dt * 0.5)
 *     rotation = (Rotation::from_xyzw(hang.x, hang.y, hang.z, 1.0) * rotation).normalize()
 *     translation += linvel * dt
 *
 * Before v0.35 the same step was opt-in (gyroscopic_forces_enabled false
 * by default; v0.34.0 src/dynamics/rigid_body.rs:1443-1462, 1569, applied
 * once a step in solver/solver_body.rs:105-112), and Rapier's default was
 * then rigid-no-gyro's scheme: the world w kept, the same first-order
 * quaternion update as cannon-es's.
 *
 * (1, h w_world / 2) q normalised is q (1, h w_body / 2) normalised: a turn
 * about w by 2 atan(h|w|/2), which leaves the body-frame w as it is.
 * First order, like Jolt's; the two differ by O(h^2), never to round-off,
 * so an engine is "=" to one of them, not both. */
#include "rigid_method.h"

static void step(vb_rigid_state *s, const vb_rigid_props *p, double h)
{
    vb_rigid_explicit_gyro_velocity(p, s->w, h);
    vb_rigid_translate(s, p, h, VB_TRANSLATE_SYMPLECTIC_EULER);
    vb_rigid_rotate_first_order(s->q, s->w, h);
}

const vb_rigid_method vb_rigid_explicit_gyro_linear = {
    .name = "rigid-explicit-gyro-linear",
    .summary = "L -= h w x L in the body, rescaled to the old |L|; first-order q (Rapier)",
    .order = 1,
    .flags = VB_RIGID_KEEPS_ANGMOM_NORM,
    .quaternion = VB_QUAT_FIRST_ORDER,
    .translation = VB_TRANSLATE_SYMPLECTIC_EULER,
    .source = "rapier v0.35.2 src/dynamics/rigid_body.rs:2023-2046, rigid_body_components.rs:"
              "884-898, solver/staged_island_solver/worker.rs:243-269,605-615",
    .step = step,
};
