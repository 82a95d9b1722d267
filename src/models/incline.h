/* models/incline.h — the incline the models with a contact stand on (roll,
 * box-incline): its frame in the world, and a rigid state read in it.
 *
 * Gravity pulls along -z of the world (models/rigid.h).  The plane through
 * the origin's side, inclined at alpha about the world y axis, has
 *     normal n = (sin alpha, 0, cos alpha)   (out of the ground),
 *     down the slope d = (cos alpha, 0, -sin alpha),
 *     rolling axis n x d = (0, 1, 0),
 * so gravity is g sin alpha along d and -g cos alpha along n.  A body
 * starts with its centre of mass at the origin (the potential's zero), the
 * plane at n.x = -(the body's half height along n). */
#ifndef VB_INCLINE_H
#define VB_INCLINE_H

#include "body_contact.h"
#include "rigid.h"

/* n, d and the axis n x d for an inclination alpha (radians) */
void vb_incline_frame(double alpha, double n[3], double d[3], double axis[3]);

/* The attitude that turns the body's z axis onto n: a turn by alpha about
 * the world y axis, (cos(alpha/2), 0, sin(alpha/2), 0). */
void vb_incline_tilt(double alpha, double q[4]);

/* A contact on the incline: the plane n.x = -depth under a body of that
 * shape, `along` = d, and the material. */
void vb_incline_contact(double alpha, double depth, const vb_body_shape *shape, double mu_s,
                        double mu_k, double e, vb_body_contact *c);

/* The props of a body of mass m whose moments are all I, gravity g along
 * -z of the world. */
void vb_incline_props(double I, double m, double g, vb_rigid_props *p);

/* A rigid state read in the contact's frame. */
typedef struct vb_incline_reading {
    double along;      /* d.x: the centre's distance down the slope from the origin */
    double separation; /* of the body's lowest point from the plane (< 0: sunk in) */
    double v_along;    /* d.v */
    double v_normal;   /* n.v */
    double spin;       /* the world angular velocity about the rolling axis */
    /* the velocity along d of the body point nearest the plane, below the
     * centre at the depth of the shape (R, or the box's half height along
     * n): v_along - depth * spin; the slip u of roll.h */
    double slip;
} vb_incline_reading;

void vb_incline_read(const vb_body_contact *c, const vb_rigid_state *s, vb_incline_reading *r);

/* The separation of the shape's lowest point from the plane at state s:
 * for a sphere n.x - offset - R, for a box the least over its corners. */
double vb_body_separation(const vb_body_contact *c, const vb_rigid_state *s);

#endif
