/* scene.h — protocol 4 (docs/real-engines.md §6): a body at a contact,
 * for request.c and trajectory.c.  Inside engine/ only.  A model with a
 * wall (walls.h: the bounce, the slide, the tunnel) is sent to an engine
 * as the scene the engine must build: the wall, gravity, the contact's
 * restitution, threshold and friction, and the body's shape; the body's
 * state stays version 2's particles (or version 3's body), in the model's
 * coordinates, and so do the rows.  What a run at a contact is measured
 * by is the driver's (driver/contactrun.c), never this file's. */
#ifndef VB_SCENE_H
#define VB_SCENE_H

#include <stdio.h>

#include "model.h"

struct vb_engine_run;
struct vb_engine_caps;

/* 1 when a run of m is a body at a contact (its model has a wall). */
int vb_engine_at_contact(const vb_model *m);

/* The request's "contact" object (§6.2), after a comma the caller wrote:
 * wall (normal, offset, thickness unless a half-space), gravity,
 * restitution, threshold, friction, shape, centre; every number with 17
 * significant digits.  m has a wall. */
void vb_engine_write_contact(FILE *f, const vb_model *m);

/* The contact object of bodies on a ground (§6.5, and a stack's, §7):
 * the plane as the wall, gravity, restitution, threshold 0, friction (the
 * static coefficient) with friction_static and friction_kinetic, the shape
 * in the body's axes, its centre the centre of mass. */
struct vb_body_contact;
void vb_engine_write_ground_contact(FILE *f, const struct vb_body_contact *c,
                                    const double gravity[3]);

/* A run at a contact goes only to an engine whose capability line (c;
 * NULL: none, protocol 1) says protocol=4, with velocities in its rows
 * (the contact's measures read them).  0, or -1 with the run's why set. */
int vb_engine_contact_protocol(struct vb_engine_run *r, const struct vb_engine_caps *c);

#endif
