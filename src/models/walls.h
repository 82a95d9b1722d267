/* walls.h — the models with a contact (docs/contact.md): the bounce, the
 * slide and the tunnel, and what a contact handler needs of them: the wall
 * as data (contact/geometry.h) and the exact solution its measures are
 * held to.  A model without a contact has none: a handler cannot run on it. */
#ifndef VB_WALLS_H
#define VB_WALLS_H

#include "bounce.h"
#include "geometry.h"
#include "model.h"
#include "slide.h"
#include "tunnel.h"

typedef enum { VB_WALL_NONE, VB_WALL_BOUNCE, VB_WALL_SLIDE, VB_WALL_TUNNEL } vb_wall_kind;

/* The body an engine builds to move against the wall (protocol 4, the
 * request's "contact", docs/real-engines.md §6): its shape, and where the
 * shape's centre is from the model's point, the point x0 and every row
 * give (the ball's lowest point, the block's bottom, the ball's centre).
 * The handlers read none of it: to them the model's point and the
 * geometry's radius are the body. */
typedef enum { VB_ENGINE_BALL, VB_ENGINE_BOX } vb_engine_shape;

typedef struct vb_engine_body {
    vb_engine_shape kind;
    double radius;                     /* a ball's (a circle in 2-D, a sphere in 3-D) */
    double edges[VB_CONTACT_MAX_DIM];  /* a box's full edges, along the model's axes */
    double centre[VB_CONTACT_MAX_DIM]; /* the shape's centre minus the model's point */
} vb_engine_body;

typedef struct vb_model_wall {
    vb_wall_kind kind;
    vb_contact_geometry geom; /* the wall, the ball, e, vth, mu */
    /* gravity's acceleration towards the wall along its normal (the
     * bounce's and the slide's g cos alpha; 0 for the tunnel) */
    double g_normal;
    /* gravity, the model's one force, in its coordinates (geom.dim of them) */
    double gravity[VB_CONTACT_MAX_DIM];
    /* what an engine builds to move (the handlers never read it) */
    vb_engine_body body;
    /* the exact solution: the one of kind, the others NULL */
    const vb_bounce *bounce;
    const vb_slide *slide;
    const vb_tunnel *tunnel;
} vb_model_wall;

/* 1 and *w filled when the set-up model m has a contact, else 0. */
int vb_model_wall_of(const vb_model *m, vb_model_wall *w);
/* 1 when a model of this type has a contact (before it is set up) */
int vb_model_type_has_wall(const vb_model_type *t);

/* each contact model's part (its own file) */
void vb_bounce_model_wall(const void *self, vb_model_wall *w);
void vb_slide_model_wall(const void *self, vb_model_wall *w);
void vb_tunnel_model_wall(const void *self, vb_model_wall *w);

#endif
