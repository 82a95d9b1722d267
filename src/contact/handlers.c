/* contact/handlers.c — the table of contact handlers, and what they share:
 * the Coulomb impulse and the finiteness check. */
#include "handler.h"

#include <math.h>
#include <string.h>

static const vb_contact_handler *const table[] = {&vb_contact_project, &vb_contact_impulse,
                                                  &vb_contact_toi};

const vb_contact_handler *const *vb_contact_handlers(size_t *n)
{
    *n = sizeof table / sizeof table[0];
    return table;
}

const vb_contact_handler *vb_contact_handler_find(const char *name)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}

void vb_contact_friction(unsigned d, const double *n, double mu, double J, const double *ref,
                         double *dv)
{
    if (!(mu > 0.0) || !(J > 0.0))
        return;
    double rn = vb_contact_dot(d, n, ref), vt[VB_CONTACT_MAX_DIM], speed2 = 0.0;
    for (unsigned i = 0; i < d; i++) {
        vt[i] = ref[i] - rn * n[i];
        speed2 += vt[i] * vt[i];
    }
    double speed = sqrt(speed2), cut = mu * J;
    if (speed == 0.0)
        return;
    /* within the cone: the impulse stops the sliding exactly (static);
     * outside it: kinetic, mu J against the sliding direction */
    double scale = cut >= speed ? 1.0 : cut / speed;
    for (unsigned i = 0; i < d; i++)
        dv[i] -= vt[i] * scale;
}

int vb_contact_finite(unsigned d, const double *x, const double *v)
{
    for (unsigned i = 0; i < d; i++)
        if (!isfinite(x[i]) || !isfinite(v[i]))
            return 0;
    return 1;
}
