/* columns.c — the names of a model's state components, as trajectories,
 * engines' output and the charts' tables name them. */
#include "columns.h"

#include <stdio.h>

static const char *const axis[3] = {"x", "y", "z"};

void vb_state_component(char *buf, size_t len, const vb_model *m, const char *prefix, size_t c)
{
    unsigned dim = m->type->dim;
    if (m->particles == 1)
        snprintf(buf, len, "%s%s", prefix, dim == 1 && !prefix[0] ? "x" : axis[c]);
    else
        snprintf(buf, len, "%s%s%zu", prefix, axis[c % dim], c / dim + 1);
}

void vb_state_column(char *buf, size_t len, const vb_model *m, int velocity, size_t c)
{
    if (m->particles == 1 && m->type->dim == 1)
        snprintf(buf, len, "%s", velocity ? "v" : "x");
    else
        vb_state_component(buf, len, m, velocity ? "v" : "", c);
}
