/* body.h — protocol 3 (docs/real-engines.md §4): a rigid body's request
 * and rows, for request.c and trajectory.c.  Inside engine/ only.  It is
 * the protocol's side of a body: the frames and the quaternion's sign an
 * engine writes in, turned into the state the rigid-body models keep
 * (rigid.h: w in the body frame); what a body's run is measured by is the
 * driver's (driver/rigid_metrics.c), never this file's. */
#ifndef VB_BODY_H
#define VB_BODY_H

#include <stdio.h>

#include "model.h"
#include "rigid.h"

struct vb_engine_run;

/* The rigid body a run's model is (a rigid model's face, rigid.h), or
 * NULL for a model of particles. */
const vb_rigid_body *vb_engine_body_of(const vb_model *m);

/* The request's "body" object (§4.2), after a comma the caller wrote:
 * mass, inertia, box (when one fits), x0, v0, q0, w0_body, w0_world,
 * gravity, every number with 17 significant digits. */
void vb_engine_write_body(FILE *f, const vb_rigid_body *b);

/* A body object (§4.2, and each of a stack's 'bodies', §7): mass, inertia,
 * box (edges when not NULL, else the uniform box of the moments when one
 * fits), x0, v0, q0, w0_body, w0_world (R(q0) w0_body), gravity; the
 * object alone, "{...}". */
void vb_engine_write_body_object(FILE *f, const vb_rigid_props *props,
                                 const vb_rigid_state *start, const double *edges);

/* What a rigid body's run and a stack's ask of an engine's capability
 * line (c; NULL: none, protocol 1): protocol=need or more, else why is
 * "REFUSED (its capability line says protocol=P; WHAT needs
 * protocol=NEED: docs/real-engines.md §S)", S the first character of
 * section; velocity=state, else "... velocity=V, but ROWS: velocity=state
 * (docs/real-engines.md §SECTION)".  Then r->angvel its frame.  0, or -1
 * with the run's why set. */
struct vb_engine_caps;
int vb_engine_rigid_caps(struct vb_engine_run *r, const struct vb_engine_caps *c, int need,
                         const char *refused, const char *what, const char *rows,
                         const char *section);

/* The name of column col (1..13) of a body's rows: x, y, z, qw, qx, qy,
 * qz, vx, vy, vz, wx, wy, wz (§4.3). */
const char *vb_engine_body_column(size_t col);
#define VB_BODY_POSITIONS 7  /* x, y, z and the quaternion: a face's x */
#define VB_BODY_VELOCITIES 6 /* v and w: a face's v but its last, 0 */

/* Row 0 (x: the face's 7, v: 6 in the declared frame) against the
 * request: x0, q0, v0 and w0_body or w0_world as angvel says, to the
 * digits they were sent with.  0, or -1 with the run's why set. */
int vb_engine_body_row0(struct vb_engine_run *r, const double *x, const double *v);
/* A row read (x: 7, v: 6; t, its time as read) into the face's packed
 * state: q's sign continued from the previous row's (q and -q are one
 * attitude), w turned into the body frame with the row's own quaternion
 * when angvel=world, v[6] = 0.  0, or -1 with the run's why set: a finite
 * q whose |q| is not 1 to 1e-5 (body.c says why that much), named with
 * its row and |q|; a q with a NaN or an infinity is left to the driver
 * (a run that diverged). */
int vb_engine_body_row(struct vb_engine_run *r, double t, double *x, double *v);

/* The two above for any body's 13 numbers (x: x, q; v: v, w), row 0 held
 * to start, q's sign continued from q_prev[4] (which they update), k the
 * body's number from 1 in a stack's messages (x3, |q3|), 0 for the run's
 * one body.  The row's turns w into the body frame in place (v[3..5]) and
 * writes nothing past v[5]. */
int vb_engine_state_row0(struct vb_engine_run *r, const vb_rigid_state *start, const double *x,
                         const double *v, double q_prev[4], int k);
int vb_engine_state_row(struct vb_engine_run *r, double t, double *x, double *v, double q_prev[4],
                        int k);

#endif
