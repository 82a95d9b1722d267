/* Chipmunk2D 7 (Debian's libchipmunk-dev, double) at a contact (protocol 4):
 * the request's scene built with Chipmunk's own shapes, elasticity, friction,
 * slop and bias, stepped by cpSpaceStep (the scene: engines/lib/vbcontact.h;
 * what was measured: docs/contact.md).  Chipmunk has no restitution threshold
 * (a threshold above 0 is refused) and no continuous collision detection to
 * set. */
#include <chipmunk/chipmunk.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../lib/vbcontact.h"
#include "../lib/vbengine.h"

#ifndef VB_ENGINE_VERSION
#define VB_ENGINE_VERSION "unknown"
#endif

static vb_option options[] = {
    {"iters", NULL, "10"}, /* cpSpaceSetIterations (the default, cpSpace.c:131) */
    {NULL, NULL, NULL},
};

typedef struct {
    vb_scene s;
    cpSpace *space;
    cpBody *body;
    cpShape *ground, *shape;
} world;

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    static world w;
    memset(&w, 0, sizeof w);
    vb_scene *s = &w.s;
    if (vb_scene_make(req, s, err, errlen) != 0 ||
        vb_scene_no_threshold(s, "Chipmunk", err, errlen) != 0)
        return NULL;
    /* Debian's build prints a banner on stdout at the first cpSpaceNew
     * (cpSpace.c:122-128): sent to stderr, as adapter.c does */
    fflush(stdout);
    int saved = dup(1);
    dup2(2, 1);
    w.space = cpSpaceNew();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    cpSpaceSetIterations(w.space, (int)vb_opt_num(options, "iters"));
    cpSpaceSetGravity(w.space, cpv(s->gravity[0], s->gravity[1]));
    /* slop 0.1, bias (1 - 0.1)^60 and sleeping off are the defaults (cpSpace.c:131-155) */
    /* elasticity and friction multiply (cpArbiter.c, cpArbiterUpdate: e = a->e * b->e,
     * u = a->u * b->u): the ground's are 1, the moving shape's the contact's */
    w.ground = cpSpaceAddShape(w.space, cpBoxShapeNew2(cpSpaceGetStaticBody(w.space),
                                                       cpBBNew(s->wall_c[0] - s->wall_h[0],
                                                               s->wall_c[1] - s->wall_h[1],
                                                               s->wall_c[0] + s->wall_h[0],
                                                               s->wall_c[1] + s->wall_h[1]),
                                                       0.0));
    cpShapeSetElasticity(w.ground, 1.0);
    cpShapeSetFriction(w.ground, 1.0);
    double moment = s->lock_rotation ? INFINITY : cpMomentForCircle(s->mass, 0.0, s->radius, cpvzero);
    w.body = cpSpaceAddBody(w.space, cpBodyNew(s->mass, moment));
    cpBodySetPosition(w.body, cpv(s->c0[0], s->c0[1]));
    cpBodySetVelocity(w.body, cpv(s->u0[0], s->u0[1]));
    w.shape = s->ball ? cpCircleShapeNew(w.body, s->radius, cpvzero)
                      : cpBoxShapeNew(w.body, 2 * s->half[0], 2 * s->half[1], 0.0);
    cpSpaceAddShape(w.space, w.shape);
    cpShapeSetElasticity(w.shape, s->restitution);
    cpShapeSetFriction(w.shape, s->friction);
    return &w;
}

static int step(void *wp, double h, double *x, double *v, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    world *w = wp;
    cpSpaceStep(w->space, h);
    cpVect c = cpBodyGetPosition(w->body), u = cpBodyGetVelocity(w->body);
    double cw[2] = {c.x, c.y}, uw[2] = {u.x, u.y};
    vb_scene_row(&w->s, cw, uw, x, v);
    return VB_STEP_OK;
}

static void destroy(void *wp)
{
    world *w = wp;
    /* cpSpaceFree frees neither shapes nor bodies (cpSpace.c cpSpaceDestroy) */
    cpSpaceRemoveShape(w->space, w->shape);
    cpSpaceRemoveShape(w->space, w->ground);
    cpShapeFree(w->shape);
    cpShapeFree(w->ground);
    cpSpaceRemoveBody(w->space, w->body);
    cpBodyFree(w->body);
    cpSpaceFree(w->space);
}

int main(int argc, char **argv)
{
    vb_adapter a = {
        .name = "chipmunk-contact",
        .engine = "chipmunk@" VB_ENGINE_VERSION,
        .make = make,
        .step = step,
        .destroy = destroy,
        .contact = 1,
    };
    return vb_main(&a, argc, argv, options);
}
