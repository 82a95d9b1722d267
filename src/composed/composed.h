/* composed.h — a method of the table composed with a contact handler
 * (contact/handler.h) as an entry of a case's integrator list, as a frame
 * loop is (loop.h): named METHOD+HANDLER ("velocity-verlet+toi"), so that
 * every table has a row for each method x handler ([contact] handler =
 * ..., docs/contact.md).  The entry is never stepped as an integrator:
 * driver/runner.c runs the handler's step round the method's, and this
 * layer knows no truth and no metrics. */
#ifndef VB_COMPOSED_H
#define VB_COMPOSED_H

#include <stddef.h>

#include "handler.h"
#include "integrator.h"
#include "rigidcontact.h"
#include "stack.h"
#include "verletbench.h"

/* In a composed entry's vb_integrator.flags (plugins cannot set it:
 * vb_integrator_validate refuses unknown flags). */
#define VB_COMPOSED_FLAG (1u << 28)

/* An entry is one of two: a method of the table inside a handler of
 * contact/ on a model with a wall (handler set), or a rotation method of
 * the rigid table inside a contact solver of rigidcontact/ on a rigid body
 * with a contact (solver set, with its keys: METHOD+SOLVER, docs/contact.md,
 * "3D: rolling and resting bodies"). */
typedef struct vb_composed {
    vb_integrator integ; /* first: what the sweep and the tables see */
    const vb_integrator *inner;
    const vb_contact_handler *handler; /* or NULL */
    const vb_body_solver *solver;      /* or NULL */
    vb_solver_params params;           /* the solver's keys */
    char *name; /* METHOD+HANDLER (vb_composed_free frees it) */
} vb_composed;

static inline const vb_composed *vb_composed_of(const vb_integrator *g)
{
    return g && (g->flags & VB_COMPOSED_FLAG) ? (const vb_composed *)(const void *)g : NULL;
}

/* The method inside a composed entry, else g. */
static inline const vb_integrator *vb_composed_inner(const vb_integrator *g)
{
    const vb_composed *c = vb_composed_of(g);
    return c ? c->inner : g;
}

/* Whether method can run inside a handler: 0, or -1 with why into err (a
 * multistep method restarted at every call loses its history; a
 * constrained one holds rods, not walls; a frame loop or an engine is no
 * one-step method). */
int vb_composed_allows(const vb_integrator *method, char *err, size_t errlen);

/* inner inside handler; NULL out of memory.  vb_composed_free frees it. */
vb_composed *vb_composed_new(const vb_integrator *inner, const vb_contact_handler *handler);
void vb_composed_free(vb_composed *c);

/* Whether a method can run inside a contact solver: a rotation method of
 * the rigid table (its step is the solver's trial and real step). */
int vb_composed_allows_solver(const vb_integrator *method, char *err, size_t errlen);
/* inner inside solver with params; NULL out of memory. */
vb_composed *vb_composed_new_solver(const vb_integrator *inner, const vb_body_solver *solver,
                                    const vb_solver_params *params);

/* What contact a model has: a wall for a handler (bounce, slide, tunnel),
 * a rigid body's contact for a solver (roll, box-incline) or a stack's
 * boxes on the ground and on each other (a world for a solver), or none. */
typedef enum { VB_CONTACT_NONE, VB_CONTACT_WALL, VB_CONTACT_BODY } vb_contact_of;
vb_contact_of vb_composed_contact_of(const struct vb_model *m);
/* The one body of model m (a rigid body with a contact) on its ground:
 * its contact into *c, the body at its start into *body, and the world of
 * it alone into *w (w->body = body).  0, or -1 for a model without. */
int vb_composed_body_world(const struct vb_model *m, vb_body_contact *c, vb_contact_body *body,
                           vb_contact_world *w);
/* The world of stack s's boxes at their start on its ground (w->body
 * calloc'd: the caller frees it).  0, or -1 out of memory. */
int vb_composed_stack_world(const vb_stack *s, vb_contact_world *w);
/* Whether solver can run the body of model m (a model with a body
 * contact): 0, or -1 with why (vb_body_solver_accepts: one friction
 * coefficient where the solver has one). */
int vb_composed_solver_accepts(const vb_body_solver *solver, const struct vb_model *m, char *err,
                               size_t errlen);

#endif
