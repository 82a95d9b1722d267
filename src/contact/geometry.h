/* contact/geometry.h — a contact as data: a wall (a half-space, or a slab of
 * thickness w), a ball of radius r, and the contact's restitution e,
 * restitution threshold vth, Coulomb friction mu and speculative distance.
 * The handlers (handler.h) read it; they keep no state of their own.
 *
 * The wall.  Its front face is the plane n.x = offset, n the unit normal
 * pointing out of the wall, towards the side the ball comes from.  With
 * thickness w = INFINITY the wall is the half-space n.x <= offset (a floor:
 * n = (0, 1), offset 0 is the ground y <= 0).  With a finite w it is the
 * slab offset - w <= n.x <= offset, whose back face is n.x = offset - w
 * with the outward normal -n.
 *
 * The face a ball is held to is the nearest one: its centre's depth
 * p = n.x - offset is in front of the slab's mid-plane (p >= -w/2) -> the
 * front face, else the back face.  That is what a discrete narrow phase
 * does, Box2D 2.4.1's circle against a polygon for one: the face of largest
 * separation (b2_collide_circle.cpp:74-106 at v2.4.1, docs/contact.md), so a
 * ball whose centre a step carries past the middle of a thin wall is pushed
 * out through the back.
 *
 * The separation s is the distance from the ball's surface to that face:
 * s = p - r (front) or -w - p - r (back); s < 0 is an overlap of -s. */
#ifndef VB_CONTACT_GEOMETRY_H
#define VB_CONTACT_GEOMETRY_H

#include <stddef.h>

#define VB_CONTACT_MAX_DIM 3

typedef struct vb_contact_geometry {
    unsigned dim;          /* d: 1, 2 or 3 components of x and v */
    double normal[VB_CONTACT_MAX_DIM]; /* n: the front face's outward unit normal */
    double offset;         /* the front face is the plane n.x = offset */
    double thickness;      /* w > 0, or INFINITY for a half-space (a floor) */
    double radius;         /* r >= 0 (0: a point) */
    double restitution;    /* e in [0, 1]: the normal speed leaves as e times it came */
    /* vth >= 0: an impact slower than vth (approach speed u < vth) does not
     * bounce: the normal velocity is set to 0 and the ball stays on the
     * face.  u >= vth bounces, as Box2D v3 decides (contact_solver.c:436 at
     * v3.1.1: restitution is skipped when relativeVelocity > -threshold);
     * Box2D 2.4.1 bounces only when u > vth (b2_contact_solver.cpp:217). */
    double threshold;
    double friction;       /* mu >= 0: |tangential impulse| <= mu * normal impulse */
    /* >= 0: the impulse handler sees the wall when the separation at a
     * step's start is at most this (a speculative contact); 0 sees it once
     * the ball touches or overlaps.  Box2D v3 uses 4 linear slops, 0.02 m
     * (constants.h:38 at v3.1.1).  project and toi do not read it. */
    double speculative;
} vb_contact_geometry;

/* The face a ball is held to, at its position. */
typedef struct vb_contact_face {
    double separation;                 /* s: < 0 is an overlap */
    double plane;                      /* the face is the plane normal.x = plane */
    double normal[VB_CONTACT_MAX_DIM]; /* the face's outward normal: n, or -n at the back */
} vb_contact_face;

/* A geometry with the defaults: d = 1, the floor n = (1), offset 0, a
 * half-space, a point, e = 1, no threshold, no friction, speculative 0. */
void vb_contact_geometry_defaults(vb_contact_geometry *g);

/* 0, or -1 with a message naming the field ("restitution: 1.5 is not in
 * [0, 1]") into err: every field finite where it must be, n of unit length
 * to 1e-12. */
int vb_contact_geometry_check(const vb_contact_geometry *g, char *err, size_t errlen);

/* The nearest face to a ball at x (the file's top says which). */
void vb_contact_nearest_face(const vb_contact_geometry *g, const double *x, vb_contact_face *f);

/* The separation of a ball at x from the plane of the face f, on f's side:
 * normal.x - plane - r (negative past it, whichever face is nearer there). */
double vb_contact_face_separation(const vb_contact_geometry *g, const vb_contact_face *f,
                                  const double *x);

static inline double vb_contact_dot(unsigned d, const double *a, const double *b)
{
    double s = 0.0;
    for (unsigned i = 0; i < d; i++)
        s += a[i] * b[i];
    return s;
}

#endif
