/* rigidcontact/rigidcontact.h — contact solvers for rigid bodies on the
 * ground, composed with a rotation method of integrators/rigid_method.h
 * (docs/contact.md, "3D: rolling and resting bodies").
 *
 * The composition.  Engines step a body in three stages: integrate the
 * velocities under the forces, solve the velocity constraints, integrate
 * the positions with the solved velocities.  A rotation method of the
 * table is one whole step, step(state, props, h) (the signature of
 * vb_rigid_method.step, so `method->step` is passed as it is).  A solver
 * gets the stages from it:
 *   - the velocities after "integrate velocities" are those of a trial
 *     step on a copy (v + h g, w after the method's gyroscopic update);
 *   - the velocity constraints are solved on those;
 *   - the impulses found are applied to the state at the step's start and
 *     the step is taken: the positions move with the solved velocities.
 * For a method that steps the centre of mass by symplectic Euler and
 * turns q by the new w (the engines' own: rigid-explicit-gyro, ...) this
 * is the engine's step to round-off: v' = v + J/m + h g, x' = x + h v',
 * and on a body whose moments are equal (the ball, the cube) the
 * gyroscopic term is 0, so w' = w + I^-1 (r x J) and q' = q exp(h w').
 * Under another method the impulse is applied as that method applies
 * gravity's kick, found by a probe step at rest: all of it before a
 * method that kicks then drifts (symplectic Euler), half before and half
 * after one that kicks, drifts and kicks (kick-drift-kick, RK4), all after
 * explicit Euler, which drifts first.  So a contact that cancels gravity
 * cancels it in x as in v, whatever the method: a body at rest stays.
 * A solver that sub-steps (soft, xpbd) does this at each sub-step; xpbd
 * moves the positions itself after the method's prediction and takes the
 * velocities from the positions (its file says how).  The `props` a solver
 * passes may differ from the body's: toi passes gravity plus the constant
 * contact force, so that a method exact under a constant force is exact.
 *
 * State.  A solver step is a pure function of the world (every body's
 * state) and of the cache, the one thing a solver carries from a step to
 * the next: the impulses it warm-starts from, per body and feature (the
 * sphere's one point, the box's eight corners).  The caller owns both;
 * the same inputs give the same bits.  Bodies touch only the ground now,
 * and each solver goes body by body (vb_body_each; xpbd with its
 * sub-steps outside that loop).  A body against a body (issue 55's
 * stacks) is a manifold of two dynamic bodies: its rows are the same, the
 * loops then over manifolds, and soft's sub-steps outside them. */
#ifndef VB_RIGIDCONTACT_H
#define VB_RIGIDCONTACT_H

#include <stddef.h>

#include "body_contact.h"
#include "rigid.h"

/* A rotation method's step: vb_rigid_method.step */
typedef void vb_body_step_fn(vb_rigid_state *s, const vb_rigid_props *p, double h);

/* the features of a body: the sphere's lowest point is 0; a box's corner
 * i is at (+-hx, +-hy, +-hz) with bit 0, 1, 2 of i set for the + sign */
#define VB_BODY_FEATURES 8
/* the points a manifold remembers: a body's corners against the ground
 * (by feature), or two boxes' points (at most 4, contacts.h) */
#define VB_MANIFOLD_FEATURES (2 * VB_BODY_FEATURES)

typedef struct vb_contact_body {
    vb_rigid_state s;    /* stepped in place */
    vb_rigid_props p;    /* its moments, mass and gravity */
    vb_body_shape shape; /* in its own frame */
} vb_contact_body;

/* Bodies on one static ground of one material. */
typedef struct vb_contact_world {
    size_t n;
    vb_contact_body *body;
    vb_plane ground;
    double mu_s, mu_k, restitution;
} vb_contact_world;

/* What a solver carries between steps, per manifold: a body against the
 * ground, or two bodies against each other. */
typedef struct vb_manifold_memory {
    double normal[VB_MANIFOLD_FEATURES];     /* accumulated normal impulse */
    double tangent[VB_MANIFOLD_FEATURES][2]; /* along the contact's tangents t1, t2 */
    double friction[2];                  /* a manifold's friction at its centre (Jolt) */
    double twist;                        /* a manifold's friction about the normal (Jolt) */
    int has_friction;                    /* the manifold existed last step (Jolt keeps its friction) */
    /* each point's anchor on the body (body frame) and on the ground
     * (world) where it was made: Jolt warm-starts a point only when both
     * are within 1 cm of last step's */
    double anchor[VB_MANIFOLD_FEATURES][3], ground_point[VB_MANIFOLD_FEATURES][3];
    /* two boxes (pgs): the points of last step, normal[k], tangent[k] and
     * anchor[k] (on the incident box, its frame) for k < kept */
    int kept;
} vb_manifold_memory;

/* The manifolds of a world of `bodies` bodies: m[i] body i's against the
 * ground (i < bodies), then one for each pair i < j. */
typedef struct vb_contact_cache {
    size_t n;              /* manifolds: bodies + bodies (bodies - 1) / 2 */
    vb_manifold_memory *m; /* n, zeroed by init */
} vb_contact_cache;

/* For a world of `bodies` bodies: 0, or -1 when out of memory */
int vb_contact_cache_init(vb_contact_cache *c, size_t bodies);
void vb_contact_cache_free(vb_contact_cache *c);

/* ---- the solvers' keys ---- */

typedef enum { VB_CONE_PYRAMIDAL = 0, VB_CONE_ELLIPTIC = 1 } vb_cone;

typedef struct vb_solver_params {
    int iterations;          /* velocity iterations (a sub-step's, for soft and xpbd) */
    int position_iterations; /* speculative: Jolt's position steps */
    int substeps;            /* soft, xpbd */
    int relax_iterations;    /* soft */
    double baumgarte;        /* pgs: erp; speculative: position steps' fraction */
    double slop;             /* allowed penetration, m */
    double margin;           /* contacts are made up to this separation, m */
    double warm_start;       /* the fraction of last step's impulses applied first (0: off) */
    double threshold;        /* restitution only at an approach speed above this, m/s */
    double hertz, damping_ratio, pushout; /* soft: the contact's stiffness */
    double max_correction;   /* speculative: the most a position step corrects, m */
    int jolt_lever;          /* speculative: 1 friction at the midpoint (Jolt 3b47ec3), 0 at the body's point */
    double solref[2], solimp[5], impratio; /* regularized: MuJoCo's */
    vb_cone cone;            /* regularized */
    int refsafe;             /* regularized: MuJoCo's timeconst >= 2 h (on by default) */
    double compliance;       /* xpbd: a contact's compliance alpha, m/N (0: rigid, the paper's) */
} vb_solver_params;

/* key bits: which keys a solver reads */
enum {
    VB_KEY_ITERATIONS = 1u << 0,
    VB_KEY_POSITION_ITERATIONS = 1u << 1,
    VB_KEY_SUBSTEPS = 1u << 2,
    VB_KEY_RELAX = 1u << 3,
    VB_KEY_BAUMGARTE = 1u << 4,
    VB_KEY_SLOP = 1u << 5,
    VB_KEY_MARGIN = 1u << 6,
    VB_KEY_WARM_START = 1u << 7,
    VB_KEY_THRESHOLD = 1u << 8,
    VB_KEY_SOFTNESS = 1u << 9, /* hertz, damping_ratio, pushout */
    VB_KEY_MAX_CORRECTION = 1u << 10,
    VB_KEY_LEVER = 1u << 11,
    VB_KEY_MUJOCO = 1u << 12, /* solref, solimp, impratio, cone, refsafe */
    VB_KEY_COMPLIANCE = 1u << 13
};

/* ---- the table ---- */

enum {
    /* it takes mu_s and mu_k apart; the others have one coefficient, as
     * their engines do, and refuse a contact where they differ */
    VB_SOLVER_TWO_MU = 1u,
    /* it solves bodies against bodies too (contacts.h: a box on a box),
     * every contact of the world in each iteration; the others go body by
     * body against the ground and refuse a world of several bodies */
    VB_SOLVER_BODIES = 2u
};

/* What a solver step returns besides 0 (the run is then diverged) */
enum {
    VB_BODY_OK = 0,
    VB_BODY_DIVERGED = 1,    /* a state not finite */
    VB_BODY_UNSUPPORTED = 2, /* toi: an impact it cannot resolve exactly */
    VB_BODY_NO_ROOT = 3      /* toi: an event it could not locate */
};

typedef struct vb_body_solver {
    const char *name;    /* toi, pgs, soft, xpbd, speculative, regularized */
    const char *summary; /* one line */
    const char *source;  /* the engine's files and lines at a version, or the paper */
    unsigned keys;
    unsigned flags;
    void (*defaults)(vb_solver_params *p);
    int (*step)(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                vb_body_step_fn *method, double h);
} vb_body_solver;

size_t vb_body_solver_count(void);
const vb_body_solver *vb_body_solver_at(size_t i);
const vb_body_solver *vb_body_solver_find(const char *name);

/* The solver's defaults. */
void vb_body_solver_defaults(const vb_body_solver *s, vb_solver_params *p);
/* One key from text: 0; -1 a key this solver does not read (err lists the
 * ones it does); -2 a value out of range (err says the range).  Keys:
 * iterations, position_iterations, substeps, relax_iterations,
 * baumgarte, slop, margin, warm_start (a fraction in [0, 1], or yes: the
 * solver's default, no: 0), threshold, hertz, damping_ratio,
 * pushout, max_correction, lever (midpoint|body), solref (two numbers),
 * solimp (five), impratio, cone (pyramidal|elliptic), refsafe (yes|no),
 * compliance. */
int vb_body_solver_set(const vb_body_solver *s, vb_solver_params *p, const char *key,
                       const char *value, char *err, size_t errlen);
/* "iterations=10 baumgarte=0.2 ..." for provenance: the keys it reads */
void vb_body_solver_params_text(const vb_body_solver *s, const vb_solver_params *p, char *buf,
                                size_t len);
/* 0, or -1 with a message: the world is one this solver can run (one
 * friction coefficient where it has one; shapes it knows) */
int vb_body_solver_accepts(const vb_body_solver *s, const vb_contact_world *w, char *err,
                           size_t errlen);

/* One step of h > 0: an error of the enum above, or 0. */
int vb_body_solver_step(const vb_body_solver *s, vb_contact_world *w, vb_contact_cache *c,
                        const vb_solver_params *p, vb_body_step_fn *method, double h);

/* The deepest penetration of any contact of the world, body on ground or
 * body on body (contacts.h's points: -separation), 0 where none is below
 * its face; NAN when out of memory (contacts.c). */
double vb_world_depth(const vb_contact_world *w);

/* ---- the regularized contact's creep, in closed form (solver_regularized.c) ----
 * A cube of mass m, edge a, on a slope alpha with friction mu under
 * MuJoCo's soft contact moves at a steady speed where rigid Coulomb
 * friction holds it: the speed of that steady state, at step h (refsafe
 * takes timeconst >= 2 h), or NAN where no steady creep exists: the
 * friction it needs leaves a corner's cone (it slides), or, pyramidal, an
 * up-slope corner's damping alone would carry more than its share (it
 * cannot stay down: the cube rocks, as MuJoCo's does). */
double vb_regularized_creep(const vb_solver_params *p, double m, double edge, double alpha,
                            double mu, double g, double h);

#endif
