/* contact/stepper.c — an integrator of the table as a handler's step. */
#include "stepper.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int vb_contact_stepper_init(vb_contact_stepper *s, const vb_integrator *method, vb_force *force,
                            const double *params, double tol, char *err, size_t errlen)
{
    *s = (vb_contact_stepper){.method = method, .force = force, .tol = tol};
    if (method->flags & VB_HISTORY) {
        snprintf(err, errlen,
                 "%s: a multistep method (it keeps x_{n-1}) cannot be restarted at every "
                 "step a contact handler takes",
                 method->name);
        return -1;
    }
    if (method->flags & VB_CONSTRAINED) {
        snprintf(err, errlen, "%s: a constrained method; a contact is not a rod", method->name);
        return -1;
    }
    if ((method->flags & VB_ADAPTIVE) && !(tol > 0.0)) {
        snprintf(err, errlen, "%s: an adaptive method needs a tolerance > 0", method->name);
        return -1;
    }
    if (method->n_params > VB_MAX_INTEGRATOR_PARAMS) {
        snprintf(err, errlen, "%s: %u parameters, more than %d", method->name, method->n_params,
                 VB_MAX_INTEGRATOR_PARAMS);
        return -1;
    }
    for (unsigned i = 0; i < method->n_params; i++)
        s->params[i] = params ? params[i] : method->params[i].def;
    /* calloc: zeroed, and malloc's alignment is good for doubles */
    s->state = calloc(1, method->state_size(force->n));
    if (!s->state) {
        snprintf(err, errlen, "%s: out of memory for its state", method->name);
        return -1;
    }
    return 0;
}

void vb_contact_stepper_free(vb_contact_stepper *s)
{
    free(s->state);
    s->state = NULL;
}

int vb_contact_stepper_step(void *ctx, double *x, double *v, double t, double h)
{
    vb_contact_stepper *s = ctx;
    const vb_integrator *m = s->method;
    if (m->set_params)
        m->set_params(s->state, s->params);
    if (m->set_tolerance)
        m->set_tolerance(s->state, s->tol);
    s->force->stopped = NULL;
    m->start(s->state, s->force, t, x, v, h);
    m->step(s->state, s->force, t, h);
    m->observe(s->state, x, v);
    if (m->finish)
        m->finish(s->state);
    s->calls++;
    for (size_t i = 0; i < s->force->n; i++)
        if (!isfinite(x[i]) || !isfinite(v[i]))
            return 1;
    return 0;
}
