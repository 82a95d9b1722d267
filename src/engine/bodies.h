/* bodies.h — protocol 5 (docs/real-engines.md §7): a stack of bodies on
 * the ground (model `stack`, models/stack.h), for request.c and
 * trajectory.c.  Inside engine/ only.  The request's 'bodies' (each
 * version 3's body object, body 1 the bottom) and 'contact' (the ground,
 * one friction for every pair of touching surfaces, every box's shape);
 * the rows' 1 + 13 n columns (t, then x1 .. wz1, x2, ..., body k's 13
 * numbers with k appended), row 0 held to the request, each row turned
 * into the bodies' states and the model's face (their centres).  What a
 * stack's run is measured by is the driver's (driver/stackrun.c), never
 * this file's. */
#ifndef VB_BODIES_H
#define VB_BODIES_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"

struct vb_engine_run;
struct vb_engine_caps;

/* 1 when a run of m is a stack of bodies (protocol 5) */
int vb_engine_is_stack(const vb_model *m);

/* The request's "bodies" and "contact" (§7), after a comma the caller
 * wrote; m is a stack. */
void vb_engine_write_stack(FILE *f, const vb_model *m);

/* The name of column col (1 .. 13 n) of a stack's rows into buf: "x1",
 * "qw1", ..., "wz5". */
void vb_engine_stack_column(char *buf, size_t len, size_t col);

/* A stack goes only to an engine whose capability line (c; NULL: none,
 * protocol 1) says protocol=5, with velocity=state (its measures read the
 * bodies' speeds).  0, or -1 with the run's why set. */
int vb_engine_stack_protocol(struct vb_engine_run *r, const struct vb_engine_caps *c);

/* The run's buffers for a stack's rows (r->stack set): 0, or -1 out of
 * memory (why set).  Freed by vb_engine_stack_free. */
int vb_engine_stack_alloc(struct vb_engine_run *r);
void vb_engine_stack_free(struct vb_engine_run *r);

/* Row 0 (r->stack_row, as read) against the request's bodies.  0, or -1
 * with why set. */
int vb_engine_stack_row0(struct vb_engine_run *r);
/* A row read (r->stack_row) into the bodies' states and the face: x[3 n]
 * the centres, v[3 n] their velocities, a body's x NaN where any of its
 * 13 numbers is not finite (a run that diverged, which the driver says).
 * 0, or -1 with why set (a finite q that is no rotation's). */
int vb_engine_stack_row(struct vb_engine_run *r, double t, double *x, double *v);

#endif
