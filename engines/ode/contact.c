/* ODE (Debian's libode-dev 2:0.16.2, double precision on amd64) as a
 * verletbench engine of a rigid body on the ground, protocol 4 with a body
 * (docs/real-engines.md §6.5): the ball of roll or the cube of box-incline
 * on its inclined plane; and of a stack of boxes on the ground (model stack,
 * protocol 5, §7), the same world with n boxes, every pair of touching geoms
 * (box-ground and box-box) given the same surface by the near callback.
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
 *     objects.cpp:37-42), at most 4 contacts a pair, dWorldStep.
 * Options: stepper=step|quick (dWorldStep, dWorldQuickStep),
 * iterations=N (dWorldSetQuickStepNumIterations: quick's only; its default
 * 20, objects.h:458 of Debian's headers), friction=coulomb|force.  ODE has
 * no warm starting to switch (quickstep.cpp:47-51: WARM_STARTING is left
 * undefined, "it appears to hurt with high-friction contacts") and no
 * substeps (a step of dWorldStep is one solve: a substep is a step of
 * h/N, the case's finer rate). */
#include <ode/ode.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../lib/vbengine.h"

#ifndef VB_ENGINE_VERSION
#define VB_ENGINE_VERSION "unknown"
#endif

static vb_option options[] = {
    {"stepper", "step|quick", NULL},
    {"friction", "coulomb|force", NULL},
    /* dWorldQuickStep's iterations; 0: ODE's own (20) */
    {"iterations", NULL, "0"},
    {NULL, NULL, NULL},
};

enum { MAX_CONTACTS = 4 };

typedef struct {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    dGeomID ground;
    dGeomID shapes[VB_STACK_MAX_BODIES]; /* body 1 (the bottom) first */
    dBodyID bodies[VB_STACK_MAX_BODIES];
    size_t n;
    double mu, e;
    int quick, approx;
} world;

static void destroy(void *wp);

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

/* one body of the request, a geom of the contact's shape, at its start */
static void add_body(world *w, const vb_body *b, const vb_contact *c)
{
    dBodyID body = dBodyCreate(w->world);
    dMass m;
    dMassSetParameters(&m, b->mass, 0, 0, 0, b->inertia[0], b->inertia[1], b->inertia[2], 0, 0, 0);
    dBodySetMass(body, &m);
    dGeomID shape = c->box ? dCreateBox(w->space, c->edges[0], c->edges[1], c->edges[2])
                           : dCreateSphere(w->space, c->radius);
    dGeomSetBody(shape, body);
    dBodySetPosition(body, b->x0[0], b->x0[1], b->x0[2]);
    dQuaternion q = {b->q0[0], b->q0[1], b->q0[2], b->q0[3]}; /* w, x, y, z */
    dBodySetQuaternion(body, q);
    dBodySetLinearVel(body, b->v0[0], b->v0[1], b->v0[2]);
    dBodySetAngularVel(body, b->w0_world[0], b->w0_world[1], b->w0_world[2]);
    w->bodies[w->n] = body;
    w->shapes[w->n++] = shape;
}

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    static world w;
    const vb_body *bs = req->has_stack ? req->bodies : &req->body;
    const size_t n = req->has_stack ? req->nbodies : 1;
    const vb_contact *c = &req->contact;
    if (c->friction_kinetic != c->friction_static) {
        snprintf(err, errlen, "the request's contact has mu_s = %g and mu_k = %g: ODE has one "
                              "friction coefficient", c->friction_static, c->friction_kinetic);
        return NULL;
    }
    double iters = vb_opt_num(options, "iterations");
    w.quick = !strcmp(vb_opt(options, "stepper"), "quick");
    if (!(iters >= 0 && iters == floor(iters) && iters <= 1e6) || (iters > 0 && !w.quick)) {
        snprintf(err, errlen, "iterations=%s: want a whole number >= 1, with stepper=quick (dWorldStep "
                              "has no iterations)", vb_opt(options, "iterations"));
        return NULL;
    }
    w.mu = c->friction;
    w.e = c->restitution;
    w.approx = !strcmp(vb_opt(options, "friction"), "coulomb");
    /* dWorldQuickStep reorders the constraints at random every 8 of its
     * iterations (quickstep.cpp, RANDOMLY_REORDER_CONSTRAINTS) from ODE's
     * one global seed (misc.cpp dRandInt): left alone, a run's answer
     * depends on the runs its worker stepped before (the cube's creep at
     * mu 0.6, 60 Hz: 108 mm after other runs, 118 mm in a fresh process).
     * Every run starts from the seed a fresh process has. */
    dRandSetSeed(0);
    w.world = dWorldCreate();
    if (iters > 0)
        dWorldSetQuickStepNumIterations(w.world, (int)iters);
    w.space = dSimpleSpaceCreate(0);
    w.contacts = dJointGroupCreate(0);
    dWorldSetGravity(w.world, bs[0].gravity[0], bs[0].gravity[1], bs[0].gravity[2]);
    w.ground = dCreatePlane(w.space, c->normal[0], c->normal[1], c->normal[2], c->offset);
    w.n = 0;
    for (size_t k = 0; k < n; k++) {
        /* ODE's gravity is the world's: a body with another is not this world */
        if (bs[k].gravity[0] != bs[0].gravity[0] || bs[k].gravity[1] != bs[0].gravity[1] ||
            bs[k].gravity[2] != bs[0].gravity[2]) {
            snprintf(err, errlen, "the request's bodies[%zu] 'gravity' is not body 1's: ODE's gravity "
                                  "is the world's", k + 1);
            destroy(&w);
            return NULL;
        }
        add_body(&w, &bs[k], c);
    }
    return &w;
}

/* the world advanced by exactly h: its contacts found, one step; 0 or
 * VB_STEP_FAILED with err */
static int advance(world *w, double h, char *err, size_t errlen)
{
    dSpaceCollide(w->space, w, near);
    int ok = w->quick ? dWorldQuickStep(w->world, h) : dWorldStep(w->world, h);
    dJointGroupEmpty(w->contacts);
    if (!ok) {
        snprintf(err, errlen, "%s returned 0 (out of memory)", w->quick ? "dWorldQuickStep" : "dWorldStep");
        return VB_STEP_FAILED;
    }
    return VB_STEP_OK;
}

/* a body's 13 numbers into s */
static void state_of(dBodyID body, double *s)
{
    const dReal *p = dBodyGetPosition(body), *q = dBodyGetQuaternion(body);
    const dReal *v = dBodyGetLinearVel(body), *a = dBodyGetAngularVel(body);
    double out[13] = {p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], a[0], a[1], a[2]};
    memcpy(s, out, sizeof out);
}

static int step(void *wp, double h, double s[13], char *err, size_t errlen)
{
    world *w = wp;
    if (advance(w, h, err, errlen) != VB_STEP_OK)
        return VB_STEP_FAILED;
    state_of(w->bodies[0], s);
    return VB_STEP_OK;
}

static int step_stack(void *wp, double h, double *s, char *err, size_t errlen)
{
    world *w = wp;
    if (advance(w, h, err, errlen) != VB_STEP_OK)
        return VB_STEP_FAILED;
    for (size_t k = 0; k < w->n; k++)
        state_of(w->bodies[k], s + 13 * k);
    return VB_STEP_OK;
}

static void destroy(void *wp)
{
    world *w = wp;
    for (size_t k = 0; k < w->n; k++) {
        dGeomDestroy(w->shapes[k]);
        dBodyDestroy(w->bodies[k]);
    }
    w->n = 0;
    dGeomDestroy(w->ground);
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
        .stack = 1,
        .step_stack = step_stack,
    };
    int rc = vb_main(&a, argc, argv, options);
    dCloseODE();
    return rc;
}
