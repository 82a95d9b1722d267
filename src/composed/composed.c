/* composed.c — METHOD+HANDLER entries of a case's list. */
#include "composed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "integrator.h"

int vb_composed_allows(const vb_integrator *method, char *err, size_t errlen)
{
    if (method->flags & VB_HISTORY) {
        snprintf(err, errlen, "%s is a multistep method (it keeps x_{n-1}): a contact handler "
                              "restarts the method at every step it takes",
                 method->name);
        return -1;
    }
    if (method->flags & VB_CONSTRAINED) {
        snprintf(err, errlen, "%s is a constrained method: it holds rods, not walls",
                 method->name);
        return -1;
    }
    if (method->flags & VB_ADAPTIVE) {
        snprintf(err, errlen, "%s chooses its own steps: a handler splits the plan's steps "
                              "itself",
                 method->name);
        return -1;
    }
    if (!method->start || !method->step || !method->observe) {
        snprintf(err, errlen, "%s is not a one-step method of the table", method->name);
        return -1;
    }
    return 0;
}

vb_composed *vb_composed_new(const vb_integrator *inner, const vb_contact_handler *handler)
{
    vb_composed *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    size_t len = strlen(inner->name) + 1 + strlen(handler->name) + 1;
    if (!(c->name = malloc(len))) {
        free(c);
        return NULL;
    }
    snprintf(c->name, len, "%s+%s", inner->name, handler->name);
    c->inner = inner;
    c->handler = handler;
    /* the entry itself holds no state: the run holds the method's */
    c->integ = vb_integrator_wrapper(inner, c->name, inner->flags | VB_COMPOSED_FLAG);
    return c;
}

void vb_composed_free(vb_composed *c)
{
    if (c)
        free(c->name);
    free(c);
}
