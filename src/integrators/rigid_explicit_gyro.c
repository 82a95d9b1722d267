/* integrators/rigid_explicit_gyro.c — an explicit Euler step of the body's
 * angular momentum, rescaled to its old length, then the attitude by the
 * exponential map: Jolt's scheme with mApplyGyroscopicForce (JoltPhysics
 * 3b47ec3):
 *
 *   Jolt/Physics/Body/MotionProperties.inl:99-125, ApplyGyroscopicForceInternal:
 *     local_angular_velocity = inertia_space_to_world_space.InverseRotate(w)   (113)
 *     local_momentum = local_inertia * local_angular_velocity                  (114)
 *     new_local_momentum = local_momentum
 *                          - dt * local_angular_velocity.Cross(local_momentum) (119)
 *     new_local_momentum *= Sqrt(|local_momentum|^2 / |new_local_momentum|^2) (120-121)
 *     w = inertia_space_to_world_space * (inv_inertia * new_local_momentum)    (124)
 *   called before gravity (ApplyForceTorqueAndDragInternal, MotionProperties.inl:
 *   134, v += dt g) in PhysicsSystem.cpp:783-786, with the rotation at the
 *   start of the step; then PhysicsSystem.cpp:1641 and Body.inl:81-98,
 *   AddRotationStep: q = (Quat::sRotation(w dt / |w dt|, |w dt|) * q).Normalized(),
 *   and x += v dt ("Symplectic Euler", PhysicsSystem.cpp:1613-1615, 1644).
 *
 * In the body frame: L' = I w - h w x (I w), L' *= |I w| / |L'|,
 * w_{n+1} = I^-1 L', q_{n+1} = normalise(q_n exp(h w_{n+1})).  The
 * world-frame exp(h w_world) q of Jolt is the same rotation, and since it
 * turns about w_world itself the new body-frame w is w_{n+1} again.  Jolt
 * skips the rotation when |w dt| <= 1e-6 (a float32 guard); here it is
 * taken at every step, which changes nothing at the steps measured.
 *
 * First order: Euler's equations by explicit Euler, projected back onto
 * the sphere |L| = const (a projection keeps the order), and the attitude
 * with the new w.  The rescale keeps |L| but not the energy: T grows, and
 * a spin about the major axis (the least T for its |L|) is drawn towards
 * the separatrix and turns over, long before D's sign changes where
 * round-off takes it (docs/rigid.md §4, §6). */
#include "rigid_method.h"

static void step(vb_rigid_state *s, const vb_rigid_props *p, double h)
{
    vb_rigid_explicit_gyro_velocity(p, s->w, h);
    vb_rigid_translate(s, p, h, VB_TRANSLATE_SYMPLECTIC_EULER);
    vb_rigid_rotate_exp(s->q, s->w, h);
}

const vb_rigid_method vb_rigid_explicit_gyro = {
    .name = "rigid-explicit-gyro",
    .summary = "L -= h w x L in the body, rescaled to the old |L|; exponential map (Jolt)",
    .order = 1,
    .flags = VB_RIGID_KEEPS_ANGMOM_NORM,
    .quaternion = VB_QUAT_EXPONENTIAL,
    .translation = VB_TRANSLATE_SYMPLECTIC_EULER,
    .source = "JoltPhysics 3b47ec3 Jolt/Physics/Body/MotionProperties.inl:99-125, "
              "Body.inl:81-98, PhysicsSystem.cpp:783-786,1641",
    .step = step,
};
