/* walls.c — which models have a contact, and their walls. */
#include "walls.h"

#include <string.h>

extern const vb_model_type vb_model_bounce, vb_model_slide, vb_model_tunnel;

int vb_model_type_has_wall(const vb_model_type *t)
{
    return t == &vb_model_bounce || t == &vb_model_slide || t == &vb_model_tunnel;
}

int vb_model_wall_of(const vb_model *m, vb_model_wall *w)
{
    memset(w, 0, sizeof *w);
    if (!m->self || !vb_model_type_has_wall(m->type))
        return 0;
    vb_contact_geometry_defaults(&w->geom);
    if (m->type == &vb_model_bounce)
        vb_bounce_model_wall(m->self, w);
    else if (m->type == &vb_model_slide)
        vb_slide_model_wall(m->self, w);
    else
        vb_tunnel_model_wall(m->self, w);
    return 1;
}
