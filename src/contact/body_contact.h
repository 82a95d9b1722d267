/* contact/body_contact.h — a rigid body's contact with the ground, as data:
 * what a 3D contact solver needs from a model (docs/contact.md, "3D:
 * rolling and resting bodies").
 *
 * The ground is the plane n.x = offset, n its unit normal pointing out of
 * the ground (towards the body); the half-space n.x < offset is solid.  The
 * body's shape is given in its own frame (the principal axes of
 * models/rigid.h): a sphere of radius R about its centre of mass, or a box
 * of half-extents (hx, hy, hz) along its axes, centred on its centre of
 * mass.  The contact's material: Coulomb friction with a static coefficient
 * mu_s (the largest |tangential force| / normal force while the contact
 * point sticks) and a kinetic one mu_k (the ratio while it slips),
 * 0 <= mu_k <= mu_s, and the restitution e of the normal velocity.
 *
 * `along` is the unit direction in the plane that the model's measures
 * read (down the slope); `axis` = n x along is the rolling axis: a body
 * rolling along `along` at speed v without slipping turns about `axis` at
 * v / R.
 *
 * Pure numbers: this file knows no model, no rigid state and no solver;
 * models fill it (models/rigid.h, the type's `contact`), the solvers of
 * rigidcontact/ read it. */
#ifndef VB_BODY_CONTACT_H
#define VB_BODY_CONTACT_H

#include <stddef.h>

typedef enum { VB_SHAPE_SPHERE = 1, VB_SHAPE_BOX = 2 } vb_shape_kind;

typedef struct vb_body_shape {
    vb_shape_kind kind;
    double radius;  /* sphere: R > 0 */
    double half[3]; /* box: half-extents along the body axes, each > 0 */
} vb_body_shape;

typedef struct vb_plane {
    double normal[3]; /* unit, out of the ground */
    double offset;    /* the plane is normal.x = offset */
} vb_plane;

typedef struct vb_body_contact {
    vb_plane plane;
    vb_body_shape shape;
    double mu_s, mu_k;  /* Coulomb: static and kinetic, 0 <= mu_k <= mu_s */
    double restitution; /* e in [0, 1] */
    double along[3];    /* unit, in the plane: the direction the measures read */
} vb_body_contact;

/* What the exact motion of a body at a contact is, for the measures of a
 * run (contact.csv): a round body slips, then rolls at t_roll (roll.h), a
 * block slides, or sticks (box_slide.h).  Read from the model's exact
 * solution (models/rigid.h, the type's `answer`). */
typedef struct vb_contact_answer {
    int round; /* 1: it can roll (t_roll, s_roll, v_roll apply); 0 a block */
    /* round: when the slip u = v - w R first reaches 0 and the body rolls
     * (0 when it rolls from the start, INFINITY when it never does), the
     * distance down the slope and the speed there (NAN where never) */
    double t_roll, s_roll, v_roll;
    /* a block: it is at rest from t_stop on for ever (0: from the start),
     * so any displacement after t_stop is creep */
    int sticks;
    double t_stop;
    /* the last phase, from t_last on: its acceleration along `along`
     * (rolling, sliding, or 0 stuck) */
    double t_last, accel;
} vb_contact_answer;

/* 0, or -1 with a message that starts with the field's name
 * ("mu_k: 0.8 is more than mu_s = 0.5"): the normal and `along` unit to
 * 1e-12 and orthogonal to 1e-12, the shape's sizes finite and > 0, the
 * coefficients finite and ordered, e in [0, 1]. */
int vb_body_contact_check(const vb_body_contact *c, char *err, size_t errlen);

/* The rolling axis n x along (unit when the contact checks). */
void vb_body_contact_axis(const vb_body_contact *c, double axis[3]);

/* For the exact solutions' init: 0, or -1 with "NAME: VALUE is not ..."
 * into err when x is not a finite number > lo (strict) or >= lo. */
int vb_check_at_least(const char *name, double x, double lo, int strict, char *err,
                      size_t errlen);
/* g > 0 and alpha in [0, pi/2): 0, or -1 naming the one that is not */
int vb_check_incline(double g, double alpha, char *err, size_t errlen);

/* The separation of a body point p (world) from the plane: n.p - offset
 * (< 0: below the ground's surface). */
double vb_plane_separation(const vb_plane *pl, const double p[3]);

#endif
