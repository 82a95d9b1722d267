/* Chipmunk2D 7 (Debian's libchipmunk-dev, double) as a verletbench engine.
 * engines/chipmunk/README.md says how the request maps onto the engine, and why. */
#define _POSIX_C_SOURCE 200809L /* sigsetjmp */
#include <chipmunk/chipmunk.h>

#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../lib/vbengine.h"

#ifndef VB_ENGINE_VERSION
#define VB_ENGINE_VERSION "unknown"
#endif

static vb_option options[] = {
    /* before: cpBodySetForce before cpSpaceStep; callback: in the body's velocity_func */
    {"force", "before|callback", NULL},
    {"gravity", "engine|force", NULL}, /* projectile, rod: the space's gravity, or m a */
    {"iters", NULL, "10"},             /* cpSpaceSetIterations (the default, cpSpace.c:131) */
    {"bias", "default|off", NULL},     /* rod: the pin joint's drift correction */
    {NULL, NULL, NULL},
};

typedef struct {
    const vb_request *req;
    cpSpace *space;
    cpBody *body;
    cpConstraint *rod;
    int own_gravity;
} world;

/* the force of the body's position now, set as its force */
static void set_force(cpBody *body, const vb_request *req)
{
    double x[2] = {0.0, 0.0}, v[2] = {0.0, 0.0}, a[2] = {0.0, 0.0};
    cpVect p = cpBodyGetPosition(body), u = cpBodyGetVelocity(body);
    x[0] = p.x, x[1] = p.y, v[0] = u.x, v[1] = u.y;
    vb_accel(req, x, v, a);
    double m = req->masses[0];
    cpBodySetForce(body, cpv(m * a[0], req->dim > 1 ? m * a[1] : 0.0));
}

/* cpSpaceStep calls this after it moved the positions (cpSpaceStep.c:366
 * before :403): the force is then a(x_n+1) */
static void velocity_callback(cpBody *body, cpVect gravity, cpFloat damping, cpFloat dt)
{
    set_force(body, ((world *)cpBodyGetUserData(body))->req);
    cpBodyUpdateVelocity(body, gravity, damping, dt);
}

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    if (req->particles != 1 || req->dim > 2 ||
        (vb_has_rods(req) && (req->nrods != 1 || req->rods[0].j != -1))) {
        snprintf(err, errlen, "this adapter drives one particle in 1-D or 2-D (one rod to a pivot)");
        return NULL;
    }
    static world w;
    memset(&w, 0, sizeof w);
    w.req = req;
    w.own_gravity = !isnan(vb_gravity(req)) && !strcmp(vb_opt(options, "gravity"), "engine");
    /* Debian's build keeps its debug code (no -DNDEBUG): the first cpSpaceNew
     * prints a two-line banner with printf (cpSpace.c:122-128), on stdout,
     * where the trajectory goes.  It is sent to stderr. */
    fflush(stdout);
    int saved = dup(1);
    dup2(2, 1);
    w.space = cpSpaceNew();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    cpSpaceSetIterations(w.space, (int)vb_opt_num(options, "iters"));
    if (w.own_gravity)
        cpSpaceSetGravity(w.space, cpv(0.0, vb_gravity(req)));
    /* damping 1 and sleeping off (sleepTimeThreshold INFINITY) are the defaults
     * (cpSpace.c:131-155); no speed clamp in cpBodyUpdateVelocity */
    w.body = cpSpaceAddBody(w.space, cpBodyNew(req->masses[0], INFINITY)); /* a point: no rotation */
    cpBodySetUserData(w.body, &w);
    cpBodySetPosition(w.body, cpv(req->x0[0], req->dim > 1 ? req->x0[1] : 0.0));
    cpBodySetVelocity(w.body, cpv(req->v0[0], req->dim > 1 ? req->v0[1] : 0.0));
    if (!w.own_gravity && !strcmp(vb_opt(options, "force"), "callback"))
        cpBodySetVelocityUpdateFunc(w.body, velocity_callback);
    if (vb_has_rods(req)) {
        cpVect pivot = cpv(req->rods[0].pivot[0], req->rods[0].pivot[1]);
        w.rod = cpSpaceAddConstraint(
            w.space, cpPinJointNew(cpSpaceGetStaticBody(w.space), w.body, pivot, cpvzero));
        if (!strcmp(vb_opt(options, "bias"), "off"))
            cpConstraintSetErrorBias(w.rod, 1.0); /* bias coefficient 1 - pow(1, dt) = 0 */
    }
    return &w;
}

/* Debian's Chipmunk aborts on a body that is no longer finite
 * (cpBodySanityCheck, cpBody.c:104-127), inside cpSpaceStep.  To verletbench
 * that is a run that diverged, not a crash: the abort is caught and the step
 * says so (VB_STEP_ABORTED: NaN rows, and this process serves no more runs). */
static sigjmp_buf in_step;
static void on_abort(int sig)
{
    (void)sig;
    siglongjmp(in_step, 1);
}

static int step(void *wp, double h, double *x, double *v, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    world *w = wp;
    if (sigsetjmp(in_step, 1) != 0) {
        signal(SIGABRT, SIG_DFL);
        return VB_STEP_ABORTED;
    }
    signal(SIGABRT, on_abort);
    if (!w->own_gravity && !strcmp(vb_opt(options, "force"), "before"))
        set_force(w->body, w->req);
    cpSpaceStep(w->space, h);
    signal(SIGABRT, SIG_DFL);
    cpVect p = cpBodyGetPosition(w->body), u = cpBodyGetVelocity(w->body);
    x[0] = p.x, v[0] = u.x;
    if (w->req->dim > 1)
        x[1] = p.y, v[1] = u.y;
    return VB_STEP_OK;
}

static void destroy(void *wp)
{
    world *w = wp;
    /* cpSpaceFree frees neither bodies nor joints (cpSpace.c cpSpaceDestroy) */
    if (w->rod) {
        cpSpaceRemoveConstraint(w->space, w->rod);
        cpConstraintFree(w->rod);
    }
    cpSpaceRemoveBody(w->space, w->body);
    cpBodyFree(w->body);
    cpSpaceFree(w->space);
}

int main(int argc, char **argv)
{
    vb_adapter a = {
        .name = "chipmunk",
        .engine = "chipmunk@" VB_ENGINE_VERSION,
        .make = make,
        .step = step,
        .destroy = destroy,
    };
    return vb_main(&a, argc, argv, options);
}
