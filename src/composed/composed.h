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
#include "verletbench.h"

/* In a composed entry's vb_integrator.flags (plugins cannot set it:
 * vb_integrator_validate refuses unknown flags). */
#define VB_COMPOSED_FLAG (1u << 28)

typedef struct vb_composed {
    vb_integrator integ; /* first: what the sweep and the tables see */
    const vb_integrator *inner;
    const vb_contact_handler *handler;
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

#endif
