/* rigidcontact/contacts.h — Inside rigidcontact/ only: the contact points
 * of a world, from two sources, and the rows a solver solves on them:
 *
 *   body-ground: a body's points within `margin` of the ground plane (the
 *     sphere's lowest point, the box's corners: vb_body_points);
 *   body-body: two boxes face on face (issue 55's stacks), an engine's
 *     face clipping: of the pair, the reference box is the lower-numbered,
 *     its face whose outward normal points most nearly at the other's
 *     centre the reference face, the incident face the other box's face
 *     turned most against that normal.  The points are those of the two
 *     faces' overlap seen along the normal, each a point of the incident
 *     box: its face's corners over the reference face, its face's points
 *     over the reference face's corners, and its face's edges where they
 *     cross the reference face's edges (the overlap's corners when the
 *     boxes are turned about the normal: an octagon of crossings for two
 *     equal boxes, no box corner over the other's face), less those that
 *     coincide, within `margin` of the reference face and not through its
 *     box's centre; more than 4 pruned to 4 as Jolt does
 *     (PruneContactPoints).  Not covered: edge on edge, a corner on an
 *     edge (faces far from parallel), a box on a sphere.
 *
 * A point is always a point of body `a` against a face of body `b` (b < 0:
 * the ground), its normal the face's outward normal, from b to a; its
 * separation the point's height over the face (< 0: inside).  So a row's
 * velocity is a's point's minus b's, its impulse +P on a and -P on b, and
 * the ground, static, takes nothing.  For a body on the ground alone the
 * operations and their order are those of the one-body solvers before
 * (bits unchanged). */
#ifndef VB_CONTACTS_H
#define VB_CONTACTS_H

#include "bodyops.h"

/* the most points a world of n bodies can have (a bound) */
size_t vb_world_points_cap(size_t n);

typedef struct vb_contact_point {
    int a, b;         /* body indices; b = -1 the ground */
    size_t slot;      /* its manifold's memory in the cache (vb_contact_cache) */
    int feature;      /* within the manifold: on the ground a's corner (the sphere's
                       * 0); of two boxes the point's place in the pair's list */
    int face;         /* b's face: 2 k + 1 for +axis k, 2 k for -axis k; -1 the ground */
    double r_body[3]; /* a's point in a's frame: its anchor */
    double n[3];      /* unit, from b to a */
    double p[3];      /* the point, world (on a) */
    double ra[3], rb[3]; /* p - x_a, p - x_b (rb 0 for the ground) */
    double separation;
} vb_contact_point;

/* Every point of w within margin, into pts (vb_world_points_cap(w->n) of
 * them): each body's against the ground in body order, then each pair's
 * (i < j in order).  Their number. */
size_t vb_world_points(const vb_contact_world *w, double margin, vb_contact_point *pts);

/* The same point from the states now (a's anchor, b's face): p, n, ra, rb
 * and the separation (xpbd's positions move between its corrections). */
void vb_point_update(const vb_contact_world *w, vb_contact_point *pt);

/* The velocities of the world's bodies as a solver changes them: vel[i]
 * body i's.  A row on a point: */
/* a's point velocity minus b's */
void vb_point_vel(const vb_body_vel *vel, const vb_contact_point *pt, double out[3]);
/* lambda u on a at ra, -lambda u on b at rb */
void vb_point_apply(vb_body_vel *vel, const vb_contact_point *pt, const double u[3],
                    double lambda);
/* the inverse of the effective mass along u: a's plus b's */
double vb_point_inv_mass(const vb_body_vel *vel, const vb_contact_point *pt, const double u[3]);

/* The manifold memory of a point (c may be NULL: none). */
vb_manifold_memory *vb_point_memory(vb_contact_cache *c, const vb_contact_point *pt);

/* A point's accumulated impulses: normal, and along its two tangents. */
typedef struct vb_point_impulse {
    double n, t[2];
} vb_point_impulse;

/* Last step's impulses of each point (c may be NULL: none, 0): a point on
 * the ground by its feature (the body's corner); a point of two boxes, as
 * Bullet's btPersistentManifold::getCacheEntry matches a new point to its
 * cache (bullet3 0326fa9 btPersistentManifold.cpp), by the nearest of the
 * pair's points of last step whose anchor on the incident box is within
 * reach (the breaking threshold) of its own, each taken at most once
 * (the points of one pair follow one another in pts). */
void vb_points_recall(vb_contact_cache *c, const vb_contact_point *pts, size_t n, double reach,
                      vb_point_impulse *out);
/* Every manifold's memory: this step's points alone, their impulses imp. */
void vb_points_remember(vb_contact_cache *c, const vb_contact_point *pts, size_t n,
                        const vb_point_impulse *imp);

/* Whether any point is between two bodies. */
int vb_points_between_bodies(const vb_contact_point *pts, size_t n);

#endif
