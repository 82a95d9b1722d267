/* rigid_method.h — the table of rotation methods for rigid bodies
 * (docs/rigid.md §5): the schemes physics engines and molecular dynamics
 * codes step a body's attitude and angular velocity with, one a file
 * (src/integrators/rigid_*.c), each one const vb_rigid_method.
 *
 * A method is a one-step map of the whole state (models/rigid.h: centre of
 * mass and velocity in the world, attitude world from body, angular
 * velocity in the BODY frame) over a step h, with the body's moments, mass
 * and gravity: no history, no force law to evaluate (the body is torque
 * free; gravity acts on the centre of mass).  Engines that keep the
 * angular velocity in the world frame are written here in the body frame,
 * which is the same map (each file says why), and the tests hold each to
 * the engine's own formula written out in the world frame.
 *
 * What decides "=" against an engine is written in the entry: how the
 * quaternion is updated and how the centre of mass is stepped. */
#ifndef VB_RIGID_METHOD_H
#define VB_RIGID_METHOD_H

#include <stddef.h>

#include "rigid.h"

/* Flags */
enum {
    /* symplectic on the free rigid body (a Lie-Poisson integrator) */
    VB_RIGID_SYMPLECTIC = 1u,
    /* time-symmetric: a step of -h undoes a step of h, so stepping the
     * reversed state (vb_rigid_reverse) retraces a run to round-off */
    VB_RIGID_REVERSIBLE = 2u,
    /* keeps the world angular momentum q (I w) q* to round-off */
    VB_RIGID_KEEPS_ANGMOM = 4u,
    /* keeps |L| to round-off (not its direction in the world) */
    VB_RIGID_KEEPS_ANGMOM_NORM = 8u,
    /* no gyroscopic term w x I w: the world angular velocity holds
     * without torque.  Converges only where that is the truth, a spin
     * about a principal axis; on a tumbling body it converges to another
     * motion (order 0) */
    VB_RIGID_NO_GYROSCOPIC = 16u
};

/* How the attitude is advanced over a step, given an angular velocity */
typedef enum {
    /* q <- q exp(h w_body) = exp(h w_world) q, then normalised: the
     * rotation by the angle h|w| about w, exact for that w (Jolt's
     * AddRotationStep, Bullet's integrateTransform) */
    VB_QUAT_EXPONENTIAL,
    /* q <- (q + (h/2) q (0, w_body)) / |...| = (1 + (h/2) w_world) q
     * normalised: first order, the angle 2 atan(h|w|/2) instead of h|w|
     * (cannon-es's Quaternion.integrate, Rapier's integrate_linearized) */
    VB_QUAT_FIRST_ORDER,
    /* RK4's four stages on q' = q (0, w)/2 together with w, normalised
     * once at the end of the step */
    VB_QUAT_RK4,
    /* a product of exact rotations about the body's principal axes, each
     * exp(tau L_k / I_k e_k): no normalisation needed (done anyway) */
    VB_QUAT_PRINCIPAL_ROTATIONS,
    /* the same rotations on (q, p), p = 2 q (0, L_body), q never
     * normalised (NO_SQUISH, Miller et al. 2002) */
    VB_QUAT_NO_SQUISH
} vb_quat_update;

/* How the centre of mass is stepped under gravity g */
typedef enum {
    /* x += h v; v += h g: first order, as explicit Euler is everywhere */
    VB_TRANSLATE_EULER,
    /* v += h g; x += h v: first order (x off by h t g/2), what every
     * engine does (Jolt's "Symplectic Euler" in PhysicsSystem.cpp, Bullet,
     * Rapier, cannon-es's "leap frog") */
    VB_TRANSLATE_SYMPLECTIC_EULER,
    /* v += h g/2; x += h v; v += h g/2: exact for uniform gravity */
    VB_TRANSLATE_KICK_DRIFT_KICK,
    /* RK4 on (x, v): exact for uniform gravity */
    VB_TRANSLATE_RK4
} vb_translate;

typedef struct vb_rigid_method {
    const char *name;    /* as typed: a-z 0-9 - */
    const char *summary; /* one line */
    /* The expected global order of the attitude and angular velocity
     * errors on a tumbling body at fixed steps; 0 for a method that does
     * not converge there (VB_RIGID_NO_GYROSCOPIC) */
    int order;
    unsigned flags;
    vb_quat_update quaternion;
    vb_translate translation;
    /* where the scheme comes from: the engine's file and lines, or the
     * paper */
    const char *source;
    /* Advance s by h (> 0, or < 0 for a reversible method stepping back). */
    void (*step)(vb_rigid_state *s, const vb_rigid_props *p, double h);
} vb_rigid_method;

size_t vb_rigid_method_count(void);
const vb_rigid_method *vb_rigid_method_at(size_t i);
const vb_rigid_method *vb_rigid_method_find(const char *name);
/* "rigid-euler, rigid-no-gyro, ..." */
void vb_rigid_method_names(char *buf, size_t len);

/* The quaternion update and the translation in words, for tables */
const char *vb_quat_update_text(vb_quat_update u);
const char *vb_translate_text(vb_translate t);
/* The order of a translation scheme's centre-of-mass error under uniform
 * gravity: 1, or 0 for one that is exact there */
int vb_translate_order(vb_translate t);

/* ---- what the method files share (rigid_methods.c) ---- */

/* The centre of mass over h by scheme t (RK4's is kick-drift-kick: both
 * are exact for uniform gravity, and give the same bits up to round-off) */
void vb_rigid_translate(vb_rigid_state *s, const vb_rigid_props *p, double h, vb_translate t);
/* Euler's equations without torque: dw/dt = I^-1 ((I w) x w), body frame */
void vb_rigid_euler_rhs(const vb_rigid_props *p, const double w[3], double dw[3]);
/* q <- normalise(q exp(h w)), body-frame w */
void vb_rigid_rotate_exp(double q[4], const double w[3], double h);
/* q <- normalise(q + (h/2) q (0, w)), body-frame w */
void vb_rigid_rotate_first_order(double q[4], const double w[3], double h);
/* Jolt's and Rapier's gyroscopic step in the body frame: L = I w,
 * L' = L - h w x L, L' *= |L| / |L'|, w <- I^-1 L' (rigid_explicit_gyro.c) */
void vb_rigid_explicit_gyro_velocity(const vb_rigid_props *p, double w[3], double h);
/* The exact flow of H_k = L_k^2 / (2 I_k) for a time tau: the body turns
 * about its principal axis k (0, 1, 2) by alpha = tau L_k / I_k,
 * q <- q (cos(alpha/2), sin(alpha/2) e_k), and the body-frame L, the same
 * world vector seen from the turned body, by -alpha (rigid_splitting.c) */
void vb_rigid_principal_rotation(double q[4], double L[3], const double I[3], int k, double tau);
/* The symmetric composition a(h/2) b(h/2) c(h) b(h/2) a(h/2) of those
 * flows about axes = {a, b, c}: second order, symplectic, reversible */
void vb_rigid_strang(double q[4], double L[3], const double I[3], const int axes[3], double h);

/* ---- the methods as entries of the integrator table's kind
 * (rigid_entries.c) ----
 * Each method as a vb_integrator of its name, summary and order, that runs
 * on a rigid model's face (rigid.h) and reports the packed state there;
 * vb_integrator_find finds them, vb_integrator_at does not list them. */
struct vb_integrator;
size_t vb_rigid_entry_count(void);
const struct vb_integrator *vb_rigid_entry_at(size_t i);
const struct vb_integrator *vb_rigid_entry_find(const char *name);
/* The rigid method an entry of this table steps with, or NULL for any
 * other integrator (an instance's: vb_integrator_rigid_method of
 * integrator.h, which knows the instances: this file does not call back
 * into integrators.c). */
const vb_rigid_method *vb_rigid_entry_method(const struct vb_integrator *type);

#endif
