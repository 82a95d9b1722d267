/* composed.c — METHOD+HANDLER entries of a case's list. */
#include "composed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "integrator.h"
#include "model.h"
#include "rigid.h"
#include "rigid_method.h"
#include "walls.h"

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

/* inner's entry named INNER+what (the contact set by the caller) */
static vb_composed *entry_new(const vb_integrator *inner, const char *what)
{
    vb_composed *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    size_t len = strlen(inner->name) + 1 + strlen(what) + 1;
    if (!(c->name = malloc(len))) {
        free(c);
        return NULL;
    }
    snprintf(c->name, len, "%s+%s", inner->name, what);
    c->inner = inner;
    /* the entry itself holds no state: the run holds the method's */
    c->integ = vb_integrator_wrapper(inner, c->name, inner->flags | VB_COMPOSED_FLAG);
    return c;
}

vb_composed *vb_composed_new(const vb_integrator *inner, const vb_contact_handler *handler)
{
    vb_composed *c = entry_new(inner, handler->name);
    if (c)
        c->handler = handler;
    return c;
}

void vb_composed_free(vb_composed *c)
{
    if (c)
        free(c->name);
    free(c);
}

int vb_composed_allows_solver(const vb_integrator *method, char *err, size_t errlen)
{
    const vb_rigid_method *m = vb_rigid_entry_method(method);
    if (!m || !m->step) {
        snprintf(err, errlen, "%s is not a rotation method of the rigid table: a contact solver "
                              "steps a rigid body by one",
                 method->name);
        return -1;
    }
    return 0;
}

vb_composed *vb_composed_new_solver(const vb_integrator *inner, const vb_body_solver *solver,
                                    const vb_solver_params *params)
{
    vb_composed *c = entry_new(inner, solver->name);
    if (c) {
        c->solver = solver;
        c->params = *params;
    }
    return c;
}

vb_contact_of vb_composed_contact_of(const vb_model *m)
{
    if (vb_stack_of(m))
        return VB_CONTACT_BODY;
    const vb_rigid_body *b = vb_rigid_body_of(m);
    vb_body_contact c;
    if (b)
        return vb_rigid_model_contact(&b->model, &c) ? VB_CONTACT_BODY : VB_CONTACT_NONE;
    return vb_model_type_has_wall(m->type) ? VB_CONTACT_WALL : VB_CONTACT_NONE;
}

int vb_composed_body_world(const vb_model *m, vb_body_contact *c, vb_contact_body *body,
                           vb_contact_world *w)
{
    const vb_rigid_body *b = vb_rigid_body_of(m);
    if (!b || !vb_rigid_model_contact(&b->model, c))
        return -1;
    *body = (vb_contact_body){.s = b->start, .p = b->model.props, .shape = c->shape};
    *w = (vb_contact_world){.n = 1,
                            .body = body,
                            .ground = c->plane,
                            .mu_s = c->mu_s,
                            .mu_k = c->mu_k,
                            .restitution = c->restitution};
    return 0;
}

int vb_composed_stack_world(const vb_stack *s, vb_contact_world *w)
{
    vb_contact_body *b = calloc((size_t)s->n, sizeof *b);
    if (!b)
        return -1;
    for (int k = 0; k < s->n; k++) {
        vb_stack_exact(s, k, 0.0, &b[k].s);
        vb_stack_props(s, k, &b[k].p);
        vb_stack_shape(s, &b[k].shape);
    }
    *w = (vb_contact_world){.n = (size_t)s->n, .body = b, .mu_s = s->mu, .mu_k = s->mu,
                            .restitution = 0.0};
    vb_stack_ground(s, &w->ground);
    return 0;
}

int vb_composed_solver_accepts(const vb_body_solver *solver, const vb_model *m, char *err,
                               size_t errlen)
{
    const vb_stack *stack = vb_stack_of(m);
    if (stack) {
        vb_contact_world sw;
        if (vb_composed_stack_world(stack, &sw) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        int rc = vb_body_solver_accepts(solver, &sw, err, errlen);
        free(sw.body);
        return rc;
    }
    vb_body_contact c;
    vb_contact_body body;
    vb_contact_world w;
    if (vb_composed_body_world(m, &c, &body, &w) != 0) {
        snprintf(err, errlen, "the model %s has no body on the ground", m->type->name);
        return -1;
    }
    return vb_body_solver_accepts(solver, &w, err, errlen);
}
