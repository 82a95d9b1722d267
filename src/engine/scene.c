/* scene.c — a body at a contact in the engine protocol, version 4
 * (docs/real-engines.md §6; scene.h): the request's contact object, and
 * which engines may take it. */
#include "scene.h"

#include <math.h>

#include "engine.h"
#include "capability.h"
#include "process.h"
#include "rigid.h"
#include "walls.h"

/* a rigid body on the ground (roll, box-incline), its contact into c */
static int body_on_ground(const vb_model *m, vb_body_contact *c)
{
    const vb_rigid_body *b = m->self ? vb_rigid_body_of(m) : NULL;
    return b && vb_rigid_model_contact(&b->model, c);
}

int vb_engine_at_contact(const vb_model *m)
{
    vb_body_contact c;
    return m->self && (vb_model_type_has_wall(m->type) || body_on_ground(m, &c));
}

static void json_vec(FILE *f, const char *key, const double *a, unsigned n)
{
    fprintf(f, "\"%s\":[", key);
    for (unsigned i = 0; i < n; i++) /* + 0.0: no "-0" */
        fprintf(f, "%s%.17g", i ? "," : "", a[i] + 0.0);
    fputc(']', f);
}

/* A rigid body on the ground (§6.2): the plane as the wall (a half-space,
 * its normal as the model has it, inclined or not), gravity, the
 * coefficients (friction the static one; friction_static and
 * friction_kinetic both, for an engine of two), and the shape in the
 * body's axes, its centre the centre of mass. */
void vb_engine_write_ground_contact(FILE *f, const vb_body_contact *c, const double gravity[3])
{
    fputs("\"contact\":{\"wall\":{", f);
    json_vec(f, "normal", c->plane.normal, 3);
    fprintf(f, ",\"offset\":%.17g},", c->plane.offset + 0.0);
    json_vec(f, "gravity", gravity, 3);
    fprintf(f,
            ",\"restitution\":%.17g,\"threshold\":0,\"friction\":%.17g,"
            "\"friction_static\":%.17g,\"friction_kinetic\":%.17g,",
            c->restitution, c->mu_s, c->mu_s, c->mu_k);
    if (c->shape.kind == VB_SHAPE_SPHERE) {
        fprintf(f, "\"shape\":{\"kind\":\"ball\",\"radius\":%.17g},", c->shape.radius);
    } else {
        double edges[3];
        for (int i = 0; i < 3; i++)
            edges[i] = 2.0 * c->shape.half[i];
        fputs("\"shape\":{\"kind\":\"box\",", f);
        json_vec(f, "edges", edges, 3);
        fputs("},", f);
    }
    static const double centre[3] = {0.0, 0.0, 0.0};
    json_vec(f, "centre", centre, 3);
    fputc('}', f);
}

void vb_engine_write_contact(FILE *f, const vb_model *m)
{
    vb_body_contact bc;
    if (body_on_ground(m, &bc)) {
        vb_engine_write_ground_contact(f, &bc, vb_rigid_body_of(m)->model.props.gravity);
        return;
    }
    vb_model_wall w;
    vb_model_wall_of(m, &w);
    const vb_contact_geometry *g = &w.geom;
    unsigned d = g->dim;
    fputs("\"contact\":{\"wall\":{", f);
    json_vec(f, "normal", g->normal, d);
    fprintf(f, ",\"offset\":%.17g", g->offset + 0.0);
    /* a half-space (a floor) has no thickness: JSON has no infinity */
    if (isfinite(g->thickness))
        fprintf(f, ",\"thickness\":%.17g", g->thickness);
    fputs("},", f);
    json_vec(f, "gravity", w.gravity, d);
    fprintf(f, ",\"restitution\":%.17g,\"threshold\":%.17g,\"friction\":%.17g,", g->restitution,
            g->threshold, g->friction);
    if (w.body.kind == VB_ENGINE_BALL) {
        fprintf(f, "\"shape\":{\"kind\":\"ball\",\"radius\":%.17g},", w.body.radius);
    } else {
        fputs("\"shape\":{\"kind\":\"box\",", f);
        json_vec(f, "edges", w.body.edges, d);
        fputs("},", f);
    }
    json_vec(f, "centre", w.body.centre, d);
    fputc('}', f);
}

int vb_engine_contact_protocol(vb_engine_run *r, const vb_engine_caps *c)
{
    if (!vb_engine_at_contact(r->m))
        return 0;
    if (!c || c->protocol < VB_ENGINE_PROTOCOL_CONTACT) {
        char says[64];
        vb_engine_caps_says(c, says, sizeof says);
        vb_body_contact bc;
        vb_engine_set_why(r,
                          "the request is a body at a contact (model '%s': %s the engine "
                          "builds); this engine takes none (%s; a contact needs protocol=%d: "
                          "docs/real-engines.md §6)",
                          r->m->type->name, body_on_ground(r->m, &bc) ? "a ground" : "a wall",
                          says, VB_ENGINE_PROTOCOL_CONTACT);
        return -1;
    }
    if (c->velocity == VB_VELOCITY_NONE) {
        vb_engine_set_why(r,
                          "its capability line says velocity=none, but the rows of a body at a "
                          "contact carry its velocity: the bounce's and the slide's measures "
                          "read it (velocity=state or derived: docs/real-engines.md §6.1)");
        return -1;
    }
    return 0;
}
