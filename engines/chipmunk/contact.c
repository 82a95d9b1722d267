/* Chipmunk2D 7 (Debian's libchipmunk-dev, double) at a contact: the bounce, the
 * slide and the tunnel of issue 44 posed with Chipmunk's own shapes,
 * elasticity, friction, slop and bias, stepped by cpSpaceStep (the poses:
 * engines/lib/vbcontact.h; what was measured: docs/contact.md).  Chipmunk has
 * no restitution threshold and no continuous collision detection to set. */
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
    vb_pose p;
    cpSpace *space;
    cpBody *body;
    cpShape *ground, *shape;
} world;

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    static world w;
    memset(&w, 0, sizeof w);
    vb_pose *p = &w.p;
    if (vb_pose_read(req, p, err, errlen) != 0)
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
    cpSpaceSetGravity(w.space, cpv(0.0, p->gravity));
    /* slop 0.1, bias (1 - 0.1)^60 and sleeping off are the defaults (cpSpace.c:131-155) */
    double mu = p->model == VB_SLIDE ? p->mu : 0.0, e = p->model == VB_SLIDE ? 0.0 : p->e;
    /* elasticity and friction multiply (cpArbiter.c, cpArbiterUpdate: e = a->e * b->e,
     * u = a->u * b->u): the ground's are 1, the moving shape's the pose's */
    w.ground = cpSpaceAddShape(w.space, cpBoxShapeNew2(cpSpaceGetStaticBody(w.space),
                                                       cpBBNew(p->gcx - p->ghx, p->gcy - p->ghy,
                                                               p->gcx + p->ghx, p->gcy + p->ghy), 0.0));
    cpShapeSetElasticity(w.ground, 1.0);
    cpShapeSetFriction(w.ground, 1.0);
    double moment = p->model == VB_SLIDE ? INFINITY /* rotation locked */
                                         : cpMomentForCircle(p->mass, 0.0, p->r, cpvzero);
    w.body = cpSpaceAddBody(w.space, cpBodyNew(p->mass, moment));
    cpBodySetPosition(w.body, cpv(p->c0[0], p->c0[1]));
    cpBodySetVelocity(w.body, cpv(p->u0[0], p->u0[1]));
    w.shape = p->model == VB_SLIDE ? cpBoxShapeNew(w.body, p->size, p->size, 0.0)
                                   : cpCircleShapeNew(w.body, p->r, cpvzero);
    cpSpaceAddShape(w.space, w.shape);
    cpShapeSetElasticity(w.shape, e);
    cpShapeSetFriction(w.shape, mu);
    return &w;
}

static int step(void *wp, double h, double *x, double *v, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    world *w = wp;
    cpSpaceStep(w->space, h);
    cpVect c = cpBodyGetPosition(w->body), u = cpBodyGetVelocity(w->body);
    x[0] = c.x, x[1] = c.y - w->p.lift;
    v[0] = u.x, v[1] = u.y;
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
        .poses = 1,
    };
    return vb_main(&a, argc, argv, options);
}
