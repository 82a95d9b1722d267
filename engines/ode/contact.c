/* ODE (Debian's libode-dev 2:0.16.2, double precision on amd64) as a
 * verletbench engine of a rigid body on the ground, protocol 4 with a body
 * (docs/real-engines.md §6.5): the ball of roll or the cube of box-incline
 * on its inclined plane.
 *
 * The scene, fair and stated (issue 54.2):
 *   - the ground is a plane geom n.x = offset (dCreatePlane, no body); the
 *     body a sphere or box geom on a body at x0 and q0, in a simple space;
 *   - friction: ODE has no materials and no combine rule: the near callback
 *     writes each contact's surface, so mu is the case's.  Its mode is
 *     dContactApprox1 (friction = mu times the normal force, a pyramid, the
 *     Coulomb friction the case means); without it ODE's mu is a force limit
 *     in newtons whatever the normal force (ODE's manual, "Contact"), which
 *     friction=force keeps (ODE's default surface mode 0) to measure it
 *     (dxJointContact::getInfo2, ode/src/joints/contact.cpp: the friction
 *     rows' lo and hi are -+surface.mu, scaled by the normal force only
 *     through findex, which dContactApprox1 sets);
 *     restitution dContactBounce with bounce = e, bounce_vel 0, when e > 0;
 *     no rolling friction (dContactRolling is not set);
 *   - inertia: the request's moments (dMassSetParameters; dMassSetSphereTotal
 *     would give the solid 2/5 m R^2);
 *   - no damping, auto-disable or angular speed cap by default
 *     (objects.cpp:93-99): nothing to switch off;
 *   - its defaults otherwise: ERP 0.2, CFM 1e-10 in double (the world's,
 *     objects.cpp), at most 4 contacts a pair, dWorldStep.
 * Options: stepper=step|quick (dWorldStep, dWorldQuickStep with its 20
 * iterations), friction=coulomb|force. */
#include <ode/ode.h>

#include <stdio.h>
#include <string.h>

#include "../lib/vbengine.h"

#ifndef VB_ENGINE_VERSION
#define VB_ENGINE_VERSION "unknown"
#endif

static vb_option options[] = {
    {"stepper", "step|quick", NULL},
    {"friction", "coulomb|force", NULL},
    {NULL, NULL, NULL},
};

enum { MAX_CONTACTS = 4 };

typedef struct {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    dGeomID ground, shape;
    dBodyID body;
    double mu, e;
    int quick, approx;
} world;

static void near(void *data, dGeomID a, dGeomID b)
{
    world *w = data;
    dContact c[MAX_CONTACTS];
    int n = dCollide(a, b, MAX_CONTACTS, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; i++) {
        c[i].surface.mode = (w->approx ? dContactApprox1 : 0) | (w->e > 0 ? dContactBounce : 0);
        c[i].surface.mu = w->mu;
        c[i].surface.bounce = w->e;
        c[i].surface.bounce_vel = 0;
        dJointID j = dJointCreateContact(w->world, w->contacts, &c[i]);
        dJointAttach(j, dGeomGetBody(c[i].geom.g1), dGeomGetBody(c[i].geom.g2));
    }
}

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    static world w;
    const vb_body *b = &req->body;
    const vb_contact *c = &req->contact;
    if (c->friction_kinetic != c->friction_static) {
        snprintf(err, errlen, "the request's contact has mu_s = %g and mu_k = %g: ODE has one "
                              "friction coefficient", c->friction_static, c->friction_kinetic);
        return NULL;
    }
    w.mu = c->friction;
    w.e = c->restitution;
    w.quick = !strcmp(vb_opt(options, "stepper"), "quick");
    w.approx = !strcmp(vb_opt(options, "friction"), "coulomb");
    w.world = dWorldCreate();
    w.space = dSimpleSpaceCreate(0);
    w.contacts = dJointGroupCreate(0);
    dWorldSetGravity(w.world, b->gravity[0], b->gravity[1], b->gravity[2]);
    w.ground = dCreatePlane(w.space, c->normal[0], c->normal[1], c->normal[2], c->offset);
    w.body = dBodyCreate(w.world);
    dMass m;
    dMassSetParameters(&m, b->mass, 0, 0, 0, b->inertia[0], b->inertia[1], b->inertia[2], 0, 0, 0);
    dBodySetMass(w.body, &m);
    w.shape = c->box ? dCreateBox(w.space, c->edges[0], c->edges[1], c->edges[2])
                     : dCreateSphere(w.space, c->radius);
    dGeomSetBody(w.shape, w.body);
    dBodySetPosition(w.body, b->x0[0], b->x0[1], b->x0[2]);
    dQuaternion q = {b->q0[0], b->q0[1], b->q0[2], b->q0[3]}; /* w, x, y, z */
    dBodySetQuaternion(w.body, q);
    dBodySetLinearVel(w.body, b->v0[0], b->v0[1], b->v0[2]);
    dBodySetAngularVel(w.body, b->w0_world[0], b->w0_world[1], b->w0_world[2]);
    return &w;
}

static int step(void *wp, double h, double s[13], char *err, size_t errlen)
{
    world *w = wp;
    dSpaceCollide(w->space, w, near);
    int ok = w->quick ? dWorldQuickStep(w->world, h) : dWorldStep(w->world, h);
    dJointGroupEmpty(w->contacts);
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
    dGeomDestroy(w->shape);
    dGeomDestroy(w->ground);
    dBodyDestroy(w->body);
    dJointGroupDestroy(w->contacts);
    dSpaceDestroy(w->space);
    dWorldDestroy(w->world);
}

int main(int argc, char **argv)
{
    dInitODE2(0);
    vb_adapter a = {
        .name = "ode-contact",
        .engine = "ode@" VB_ENGINE_VERSION,
        .make = make,
        .destroy = destroy,
        .step_body = step,
        .angvel = "world",
        .body_contact = 1,
    };
    int rc = vb_main(&a, argc, argv, options);
    dCloseODE();
    return rc;
}
