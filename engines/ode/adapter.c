/* ODE, the Open Dynamics Engine (Debian's libode-dev, double precision on
 * amd64), as a verletbench engine of one rigid body, protocol 3.
 * engines/ode/README.md says how the request maps onto the engine;
 * docs/real-engines.md, "Adapting a 3D engine", what the step is, with ODE's
 * source lines (ode 2:0.16.2-1, ode/src/...). */
#include <ode/ode.h>

#include <stdio.h>
#include <string.h>

#include "../lib/vbengine.h"

#ifndef VB_ENGINE_VERSION
#define VB_ENGINE_VERSION "unknown"
#endif

static vb_option options[] = {
    /* dBodySetGyroscopicMode: on by default (ode.cpp:281) */
    {"gyro", "on|off", NULL},
    /* dBodySetFiniteRotationMode: off by default, the first-order update
     * q += h/2 w q (util.cpp:651-656); finite: the exact rotation (:626-642) */
    {"rot", "infinitesimal|finite", NULL},
    /* dWorldStep (step.cpp) or dWorldQuickStep (quickstep.cpp) */
    {"stepper", "step|quick", NULL},
    {NULL, NULL, NULL},
};

typedef struct {
    dWorldID world;
    dBodyID body;
    int quick;
} world;

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    static world w;
    const vb_body *b = &req->body;
    w.world = dWorldCreate();
    w.quick = !strcmp(vb_opt(options, "stepper"), "quick");
    dWorldSetGravity(w.world, b->gravity[0], b->gravity[1], b->gravity[2]);
    /* No geom: the body is alone.  Its mass: the principal moments as the
     * diagonal of the inertia tensor about the centre of mass, so the body's
     * axes are its principal axes (dMassSetParameters, mass.cpp).  ODE's
     * world has no damping, no auto-disable and no angular speed cap by
     * default (objects.cpp:93-99): nothing to switch off. */
    w.body = dBodyCreate(w.world);
    dMass m;
    dMassSetParameters(&m, b->mass, 0, 0, 0, b->inertia[0], b->inertia[1], b->inertia[2], 0, 0, 0);
    dBodySetMass(w.body, &m);
    dBodySetPosition(w.body, b->x0[0], b->x0[1], b->x0[2]);
    dQuaternion q = {b->q0[0], b->q0[1], b->q0[2], b->q0[3]}; /* w, x, y, z */
    dBodySetQuaternion(w.body, q);
    dBodySetLinearVel(w.body, b->v0[0], b->v0[1], b->v0[2]);
    dBodySetAngularVel(w.body, b->w0_world[0], b->w0_world[1], b->w0_world[2]); /* world frame */
    dBodySetGyroscopicMode(w.body, !strcmp(vb_opt(options, "gyro"), "on"));
    dBodySetFiniteRotationMode(w.body, !strcmp(vb_opt(options, "rot"), "finite"));
    return &w;
}

static int step(void *wp, double h, double s[13], char *err, size_t errlen)
{
    world *w = wp;
    int ok = w->quick ? dWorldQuickStep(w->world, h) : dWorldStep(w->world, h);
    if (!ok) {
        snprintf(err, errlen, "%s returned 0 (out of memory)", w->quick ? "dWorldQuickStep" : "dWorldStep");
        return VB_STEP_FAILED;
    }
    const dReal *p = dBodyGetPosition(w->body), *q = dBodyGetQuaternion(w->body);
    const dReal *v = dBodyGetLinearVel(w->body), *a = dBodyGetAngularVel(w->body);
    double out[13] = {p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], a[0], a[1], a[2]};
    memcpy(s, out, sizeof out);
    return VB_STEP_OK;
}

static void destroy(void *wp)
{
    world *w = wp;
    dBodyDestroy(w->body);
    dWorldDestroy(w->world);
}

int main(int argc, char **argv)
{
    dInitODE2(0);
    vb_adapter a = {
        .name = "ode",
        .engine = "ode@" VB_ENGINE_VERSION,
        .make = make,
        .destroy = destroy,
        .step_body = step,
        .angvel = "world",
    };
    int rc = vb_main(&a, argc, argv, options);
    dCloseODE();
    return rc;
}
