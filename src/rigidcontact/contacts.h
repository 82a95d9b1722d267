/* rigidcontact/contacts.h — Inside rigidcontact/ only: the contact points
 * of a world, from two sources, and the rows a solver solves on them:
 *
 *   body-ground: a body's points within `margin` of the ground plane (the
 *     sphere's lowest point, the box's corners: vb_body_points);
 *   body-body: two boxes face on face (issue 55's stacks): of the pair,
 *     the reference box is the one whose face the other lies on (the face
 *     of either whose outward normal points most nearly at the other's
 *     centre, the lower-numbered box's on a tie), the incident box the
 *     other; the incident box's corners within `margin` of the reference
 *     face and over it, against it, and the reference face's corners under
 *     the incident box's opposite face, against that face, less those that
 *     coincide with one already found.  For two boxes whose faces are
 *     parallel and whose overlap is a rectangle whose corners are corners
 *     of the two faces (aligned, or shifted along one edge) those points
 *     are the overlap's corners, the manifold an engine's face clipping
 *     makes.  Not covered: edge on edge, a corner on an edge, faces turned
 *     about their normal or shifted along both edges at once (an overlap
 *     corner where two edges cross is no box corner), a box on a sphere.
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

/* the most points a world of n bodies can have */
size_t vb_world_points_cap(size_t n);

typedef struct vb_contact_point {
    int a, b;         /* body indices; b = -1 the ground */
    size_t slot;      /* its manifold's memory in the cache (vb_contact_cache) */
    int feature;      /* within the manifold: a's corner (+ VB_BODY_FEATURES for the
                       * reference box's own corners), the sphere's 0 */
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

/* Whether any point is between two bodies. */
int vb_points_between_bodies(const vb_contact_point *pts, size_t n);

#endif
