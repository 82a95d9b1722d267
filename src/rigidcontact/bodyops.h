/* rigidcontact/bodyops.h — Inside rigidcontact/ only: what the solvers
 * share: a body's contact points with the ground, the velocities being
 * solved and impulses on them, and the method's step split into the
 * engines' stages (rigidcontact.h says how). */
#ifndef VB_BODYOPS_H
#define VB_BODYOPS_H

#include "rigidcontact.h"

/* A point of a body near the ground. */
typedef struct vb_body_point {
    int feature;       /* 0 the sphere's lowest point; a box's corner index */
    double p[3];       /* the body's point, world */
    double r[3];       /* p - x, world */
    double r_body[3];  /* the same in the body's frame: its anchor */
    double separation; /* n.p - offset: < 0 below the ground's surface */
} vb_body_point;

/* The points of b within `margin` of the ground (separation <= margin):
 * the sphere's lowest point, or the box's corners, at most
 * VB_BODY_FEATURES; their number. */
int vb_body_points(const vb_contact_body *b, const vb_plane *g, double margin,
                   vb_body_point pts[VB_BODY_FEATURES]);

/* Two unit tangents of the ground, t1 x t2 = n: t1 along the world axis
 * least aligned with n, projected (on the incline: t1 = y, t2 = -d). */
void vb_ground_tangents(const double n[3], double t1[3], double t2[3]);

/* A body's velocities as a solver changes them: world v and om, its
 * inverse mass and world inverse inertia at the step's start. */
typedef struct vb_body_vel {
    double v[3], om[3];
    double inv_m, inv_I[9];
} vb_body_vel;

/* The velocities of the state now (and the inverse mass and inertia). */
void vb_body_vel_now(const vb_contact_body *b, vb_body_vel *out);
/* "Integrate velocities": the velocities after the method's step of h on a
 * copy of b; the inverse inertia of b's attitude now.  0, or
 * VB_BODY_DIVERGED when the trial is not finite. */
int vb_body_vel_free(const vb_contact_body *b, vb_body_step_fn *method, double h,
                     vb_body_vel *out);
/* The velocity of the body point at r. */
void vb_vel_at(const vb_body_vel *b, const double r[3], double out[3]);
/* An impulse P at r. */
void vb_vel_apply(vb_body_vel *b, const double r[3], const double P[3]);
/* An impulse lambda u at r (u a unit direction). */
void vb_vel_apply_along(vb_body_vel *b, const double r[3], const double u[3], double lambda);
/* An angular impulse L (world). */
void vb_vel_apply_angular(vb_body_vel *b, const double L[3]);
/* 1/m + (r x u).I^-1 (r x u): the inverse of the effective mass along u at r */
double vb_vel_inv_mass(const vb_body_vel *b, const double r[3], const double u[3]);
/* Write v and om into the state (w in the body frame of its attitude). */
void vb_body_vel_store(vb_contact_body *b, const vb_body_vel *v);

/* The share of gravity's kick that a step of h moves the centre of mass
 * by, found from a probe step at rest: x' - x = share h^2 g.  1 for a
 * method that kicks then drifts (symplectic Euler: the engines'), 1/2 for
 * kick-drift-kick and RK4, 0 for explicit Euler (it drifts first); 1 where
 * there is no gravity to tell. */
double vb_body_kick_share(const vb_contact_body *b, vb_body_step_fn *method, double h);

/* "Integrate positions": the solved velocities less the free ones, the
 * contact's impulse, applied as the method applies gravity's kick: the
 * share `share` of it before the method's step of h, the rest after.  0,
 * or VB_BODY_DIVERGED. */
int vb_body_commit(vb_contact_body *b, vb_body_step_fn *method, double h, double share,
                   const vb_body_vel *free_vel, const vb_body_vel *solved);

/* A solver's step that goes body by body: step_body on each body with its
 * cache entry, the first error returned. */
typedef int vb_body_step_one(vb_contact_world *w, vb_contact_body *b, vb_manifold_memory *mem,
                             const vb_solver_params *p, vb_body_step_fn *method, double h);
int vb_body_each(vb_contact_world *w, vb_contact_cache *c, const vb_solver_params *p,
                 vb_body_step_fn *method, double h, vb_body_step_one *step_body);

/* All thirteen numbers finite */
int vb_body_finite(const vb_contact_body *b);

/* small 3-vector helpers */
double vb_dot3(const double a[3], const double b[3]);
void vb_cross3(const double a[3], const double b[3], double out[3]);
void vb_mat3_vec(const double m[9], const double v[3], double out[3]);

#endif
