/* rigid.h — a rigid body that rotates: its state, its properties, and the
 * table of rigid-body models (docs/rigid.md).
 *
 * The particle models (model.h) are d x n point masses; a rigid body is a
 * state of another kind, so it has a table of its own, built the same way:
 * one model a file (src/models/free_body.c, symmetric_top.c) defining one
 * const vb_rigid_model_type, and rigid_models.c holding the table.  A
 * runner drives any of them through this header alone.
 *
 * Frames, said once for every file that uses these types:
 *  - x, v: the centre of mass and its velocity, WORLD frame.
 *  - q = (w, x, y, z): the unit quaternion of the attitude, world from
 *    body: a vector with body components b has world components q b q*.
 *  - w: the angular velocity in the BODY frame, along the principal axes
 *    (so the angular momentum in the body frame is I w componentwise, and
 *    in the world q (I w) q*).
 * The body axes are the principal axes of inertia, with moments I[0..2]. */
#ifndef VB_RIGID_H
#define VB_RIGID_H

#include <stddef.h>

#include "body_contact.h" /* vb_body_contact */
#include "verletbench.h"  /* vb_param_spec */

typedef struct vb_rigid_state {
    double x[3]; /* centre of mass, world */
    double q[4]; /* attitude (w, x, y, z), world from body */
    double v[3]; /* velocity of the centre of mass, world */
    double w[3]; /* angular velocity, BODY frame */
} vb_rigid_state;

/* The components of a state in a fixed order, for tables and tests:
 * x0 x1 x2 qw qx qy qz v0 v1 v2 w0 w1 w2. */
#define VB_RIGID_COMPONENTS 13

typedef struct vb_rigid_props {
    double inertia[3]; /* principal moments I1, I2, I3 (> 0) */
    double mass;       /* m > 0 */
    /* the acceleration of gravity on the centre of mass, world frame: it
     * moves the centre of mass and exerts no torque about it */
    double gravity[3];
} vb_rigid_props;

/* ---- what every rigid body has (rigid_models.c) ---- */

/* The energy: rotational (1/2) w . I w, translational (1/2) m |v|^2, and
 * the potential -m g . x, which is zero where the centre of mass is at the
 * world origin (every model starts it there). */
double vb_rigid_energy(const vb_rigid_props *p, const vb_rigid_state *s);
/* The angular momentum about the centre of mass in the WORLD frame,
 * q (I w) q*: conserved, since gravity on the centre of mass exerts no
 * torque about it.  (The orbital part m x cross v is another matter.) */
void vb_rigid_angmom(const vb_rigid_props *p, const vb_rigid_state *s, double L[3]);
/* The same in the body frame: I w, componentwise. */
void vb_rigid_angmom_body(const vb_rigid_props *p, const double w[3], double L[3]);
/* Time reversal: v -> -v, w -> -w; x and q stay.  Stepping the reversed
 * state retraces the run (exactly, for a reversible method). */
void vb_rigid_reverse(vb_rigid_state *s);
/* The centre of mass of a projectile: x(t) = x0 + v0 t + g t^2 / 2,
 * v(t) = v0 + g t, exact for every model here. */
void vb_rigid_projectile(const double x0[3], const double v0[3], const double g[3], double t,
                         double x[3], double v[3]);
/* The state as VB_RIGID_COMPONENTS numbers (see above), and back. */
void vb_rigid_pack(const vb_rigid_state *s, double out[VB_RIGID_COMPONENTS]);
void vb_rigid_unpack(const double in[VB_RIGID_COMPONENTS], vb_rigid_state *s);
/* All thirteen components finite */
int vb_rigid_finite(const vb_rigid_state *s);

/* ---- the model table ---- */

enum {
    /* the exact solution is the torque-free motion (L fixed in the world) */
    VB_RIGID_TORQUE_FREE = 1u
};

typedef struct vb_rigid_model_type {
    const char *name;    /* a-z 0-9 - _, as typed */
    const char *summary; /* one line */
    const vb_param_spec *params;
    unsigned n_params; /* at most VB_MAX_MODEL_PARAMS */
    unsigned flags;

    /* An instance from parameter values, each already in its range; NULL
     * with a message for a combination that is not allowed (moments that
     * break the triangle inequality, I1 != I2 for a symmetric top). */
    void *(*create)(const double *p, char *err, size_t errlen);
    void (*destroy)(void *self);
    /* the body's moments, mass and gravity */
    void (*props)(const void *self, vb_rigid_props *p);
    /* the state at t = 0 */
    void (*initial)(const void *self, vb_rigid_state *s);
    /* The exact state at t >= 0: 0, or -1 if it could not be computed.
     * work is per-run scratch from work_alloc (both NULL when exact needs
     * none); the calls of one run come in increasing t, so it may
     * warm-start.  The quaternion is continuous in t (no jumps to -q). */
    int (*exact)(const void *self, void *work, double t, vb_rigid_state *s);
    void *(*work_alloc)(const void *self);
    void (*work_free)(void *work);
    /* A natural length of run: the period of w(t) where it has one, else
     * a time scale (a steady spin: the time of one turn).  Finite, > 0. */
    double (*natural_time)(const void *self);
    /* The period of the body-frame angular velocity w(t), after which w
     * (not the attitude: the body has turned about L by an angle of its
     * own) is back where it started: 4K/lambda for a free body, the flip
     * period when the body flips (docs/rigid.md §4).  0 where w is
     * constant, INFINITY where it never returns (the separatrix). */
    double (*w_period)(const void *self);
    /* The body's contact with the ground (its plane, shape, friction and
     * restitution) for a contact solver (rigidcontact/): 0 with *c filled.
     * NULL for a body that touches nothing (free-body, symmetric-top). */
    int (*contact)(const void *self, vb_body_contact *c);
    /* What its exact motion at the contact is (body_contact.h): set where
     * contact is. */
    void (*answer)(const void *self, vb_contact_answer *a);
} vb_rigid_model_type;

size_t vb_rigid_model_count(void);
const vb_rigid_model_type *vb_rigid_model_at(size_t i);
const vb_rigid_model_type *vb_rigid_model_find(const char *name);
/* "free-body, symmetric-top" */
void vb_rigid_model_names(char *buf, size_t len);
/* An entry complete and sane: 0, or -1 with a message. */
int vb_rigid_model_validate(const vb_rigid_model_type *t, char *err, size_t errlen);

/* An instance: a type, its parameter values and what create made of them. */
typedef struct vb_rigid_model {
    const vb_rigid_model_type *type;
    double p[VB_MAX_MODEL_PARAMS];
    void *self; /* NULL until vb_rigid_model_setup */
    /* its moments, mass and gravity (type->props), asked once by
     * vb_rigid_model_setup: every measure, method and engine request of
     * the body reads them here */
    vb_rigid_props props;
} vb_rigid_model;

void vb_rigid_model_defaults(vb_rigid_model *m, const vb_rigid_model_type *type);
/* One parameter from text: 0; -1 for an unknown key, -2 for a value that
 * is not a finite number in range; err says which and what is allowed. */
int vb_rigid_model_set(vb_rigid_model *m, const char *key, const char *value, char *err,
                       size_t errlen);
/* Make the instance once the parameters are set: 0, or -1 with err. */
int vb_rigid_model_setup(vb_rigid_model *m, char *err, size_t errlen);
void vb_rigid_model_free(vb_rigid_model *m);
/* What is conserved, of any state (not only the exact one), from the
 * model's props alone (m->props): the energy (vb_rigid_energy) and the
 * world angular momentum about the centre of mass (vb_rigid_angmom). */
double vb_rigid_model_energy(const vb_rigid_model *m, const vb_rigid_state *s);
void vb_rigid_model_angmom(const vb_rigid_model *m, const vb_rigid_state *s, double L[3]);
/* 1 and *c filled when the set-up model has a contact (its type's
 * `contact`), else 0. */
int vb_rigid_model_contact(const vb_rigid_model *m, vb_body_contact *c);
/* 1 and *a filled when the set-up model has a contact, else 0. */
int vb_rigid_model_answer(const vb_rigid_model *m, vb_contact_answer *a);

/* Parameters every rigid model shares, in this order after its own: the
 * mass, gravity (its magnitude g, pulling along -z of the world) and the
 * initial velocity of the centre of mass (world).  A model's table lists
 * them by VB_RIGID_COMMON_PARAMS; vb_rigid_common_read reads them from
 * p[first]. */
#define VB_RIGID_COMMON_PARAMS                                                                   \
    {"m", 1.0, 0.0, INFINITY, 1, 0, "mass", 0},                                                  \
    {"g", 0.0, 0.0, INFINITY, 0, 0, "gravity on the centre of mass, pulling along -z (world)", 0}, \
    {"vx", 0.0, -INFINITY, INFINITY, 0, 0, "initial velocity of the centre of mass, world x", 0}, \
    {"vy", 0.0, -INFINITY, INFINITY, 0, 0, "initial velocity of the centre of mass, world y", 0}, \
    {"vz", 0.0, -INFINITY, INFINITY, 0, 0, "initial velocity of the centre of mass, world z", 0}
#define VB_RIGID_N_COMMON 5
typedef struct vb_rigid_common {
    double mass, gravity[3], v0[3];
} vb_rigid_common;
void vb_rigid_common_read(const double *p, vb_rigid_common *c);

/* For create: the moments (I1, I2, I3) are those of a body when each is
 * at most the sum of the other two (the triangle inequality of principal
 * moments, with equality for a flat body).  0, or -1 with a message. */
int vb_rigid_check_moments(const double I[3], char *err, size_t errlen);

/* ---- a rigid body: a model's instance as a state of its own ----
 * What a run of the body, its measures (driver/rigid_metrics.h), its chart
 * data and an engine's request need of it besides its state, each made
 * once, when its model is set up (rigid_face.c): the instance (its props
 * among it), and of its start and its exact motion the world angular
 * momentum, the polhode's ellipsoid and sphere, and w's period. */
typedef struct vb_rigid_body {
    vb_rigid_model model; /* type, parameters, instance, props */
    vb_rigid_state start; /* the state at t = 0 (type->initial) */
    double L0[3], L0_norm; /* the world angular momentum of the start, and |L0| */
    /* of the exact start's body-frame w (type->exact at t = 0): 2T = sum
     * I_i w_i^2 and L^2 = sum I_i^2 w_i^2, the energy ellipsoid and the L
     * sphere the polhode lies on */
    double two_T, L2;
    /* the period of w(t) (type->w_period): 0 where w is constant, INFINITY
     * where it never returns */
    double w_period;
} vb_rigid_body;

/* ---- a rigid model as a particle model's entry (rigid_face.c) ----
 * A case file, a sweep and every table hold a vb_model; a rigid model is
 * there as its face: a vb_model_type of the same name and parameters,
 * vb_model_find finds it (vb_model_at does not list it), whose instance is
 * the vb_rigid_body, and whose state is the rigid state packed as
 * x[VB_RIGID_FACE_N] = (x, q) and v[VB_RIGID_FACE_N] = (v, w, 0):
 * vb_rigid_pack's thirteen numbers and a zero.  Its exact solution, energy
 * and natural time are the rigid model's; its accel is vb_rigid_face_accel
 * (zero), by which a rigid method's entry knows from its vb_force that it
 * runs on a rigid body.  Only driver/ and the rigid methods' entries look
 * through it: the layers above read the body from a case's description
 * (driver/profile.h). */
#define VB_RIGID_FACE_N 7
size_t vb_rigid_face_count(void);
const vb_model_type *vb_rigid_face_at(size_t i);
const vb_model_type *vb_rigid_face_find(const char *name);
void vb_rigid_face_accel(const void *model, double t, const double *x, const double *v,
                         double *a);
/* The rigid body a model's instance is (m: a vb_model of model.h), or
 * NULL for a particle model. */
struct vb_model;
const vb_rigid_body *vb_rigid_body_of(const struct vb_model *m);
/* The props of the rigid body a force is of: 0, or -1 when it is not a
 * face's. */
int vb_rigid_face_props(const vb_force *f, vb_rigid_props *p);
void vb_rigid_face_pack(const vb_rigid_state *s, double *x, double *v);
void vb_rigid_face_unpack(const double *x, const double *v, vb_rigid_state *s);

#endif
