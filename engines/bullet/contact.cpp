/* Bullet 3 (Debian's libbullet-dev, float32: its default build) as a
 * verletbench engine of a rigid body on the ground, protocol 4 with a body
 * (docs/real-engines.md §6.5): the ball of roll or the cube of box-incline on
 * its inclined plane; and of a stack of boxes on the ground (model stack,
 * protocol 5, §7), the same world with n boxes.  Source lines are bullet3 tag
 * 3.24's (Debian 3.24+dfsg-2), src/....
 *
 * The scene, fair and stated (issue 54.2):
 *   - the ground is a static btStaticPlaneShape n.x = offset (ground=plane),
 *     or a btBoxShape 1 m thick turned onto the normal, its top face the
 *     plane, 10 m either side or the first power of ten beyond twice the
 *     run's reach (ground=box); the body a btSphereShape of radius R or a
 *     btBoxShape of the half-edges (its collision margin, 0.04 m by default,
 *     is inside the box's extents: btBoxShape.h), at x0 and q0;
 *   - friction: Bullet combines two bodies' coefficients as their product
 *     f0 f1, clamped to [-10, 10] (btManifoldResult.cpp:56-66,
 *     calculateCombinedFriction), restitution as the product e0 e1 (:68-71):
 *     the ground gets friction 1 and restitution 1, the body mu and e, so
 *     the contact's are mu and e.  A stack's boxes touch each other too,
 *     where the product would be mu^2: a stack gives every object (the
 *     ground too) mu and e and sets Bullet's own hooks for the rule,
 *     gCalculateCombinedFrictionCallback and ...RestitutionCallback
 *     (btManifoldResult.cpp:23-24, called at :136-137), to the smaller of
 *     the two, so that every pair's is mu and e; a body on the ground
 *     keeps the product.  Rolling and spinning friction stay 0 on
 *     both (btRigidBody.h:151-152; combined r0 f1 + r1 f0, :31-53): no
 *     rolling resistance.  Bullet has one coefficient: mu_s != mu_k is
 *     refused;
 *   - inertia: the request's principal moments in the construction info
 *     (btSphereShape's own, calculateLocalInertia, is the solid 2/5 m R^2;
 *     btBoxShape's m (b^2 + c^2)/12);
 *   - damping 0 (its default, btRigidBody.h:148-149), no sleeping
 *     (DISABLE_DEACTIVATION; by default slower than 0.8 m/s and 1 rad/s for
 *     2 s sleeps, :154-155); the turn of one step is capped at pi/4
 *     (ANGULAR_MOTION_THRESHOLD, btTransformUtil.h:19), not switchable
 *     (a ball rolling at 14 rad/s turns 0.24 rad a step at 60 Hz: the cap
 *     does not act here);
 *   - its defaults otherwise: 10 iterations, erp2 0.2, split impulse on
 *     below -0.04 m, warm starting (SOLVER_USE_WARMSTARTING, factor 0.85),
 *     restitution above 0.2 m/s (btContactSolverInfo.h:85-108), the
 *     implicit gyroscopic flag BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY
 *     (btRigidBody.cpp:91), one internal step a step.
 * Options: ground=plane|box, iterations= (m_numIterations, 10: one count for
 * the velocity and the split-impulse position passes), split=on|off
 * (m_splitImpulse), warm=on|off (SOLVER_USE_WARMSTARTING in m_solverMode,
 * btContactSolverInfo.h:102), substeps=N (N internal steps of h/N a step, as
 * stepSimulation(h, N, h/N) takes them, btDiscreteDynamicsWorld.cpp:424-441,
 * but counted exactly: N calls of stepSimulation(h/N, 0), each one
 * applyGravity, one internalSingleStepSimulation and clearForces, :399-443;
 * the engine's own count, int(m_localTime / fixedTimeStep) in float (:395),
 * may take N - 1 and carry the rest), multipoint=on
 * (setPlaneConvexMultipointIterations(3, 3),
 * btDefaultCollisionConfiguration.h:108: a box on a btStaticPlaneShape gets
 * one new contact point a step by default, the deepest vertex
 * (btConvexPlaneCollisionAlgorithm.cpp:81-126), since the default CreateFunc's
 * threshold of 0 points (btConvexPlaneCollisionAlgorithm.h:61-64) never lets
 * the perturbed queries run (:132)). */
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../lib/vbengine.h"

#ifndef VB_ENGINE_VERSION
#define VB_ENGINE_VERSION "unknown"
#endif
#ifdef BT_USE_DOUBLE_PRECISION
#define VB_NAME "bullet-float64-contact"
#define VB_PRECISION "float64"
#else
#define VB_NAME "bullet-contact"
#define VB_PRECISION "float32"
#endif

static vb_option options[] = {
    {"ground", "plane|box", NULL},
    {"iterations", NULL, "10"},
    {"split", "on|off", NULL},
    {"warm", "on|off", NULL},
    {"substeps", NULL, "1"},
    /* on: setPlaneConvexMultipointIterations() (3, 3), the perturbed
     * queries that give a box on a btStaticPlaneShape several new contact
     * points a step; off (Bullet's default): one, the deepest vertex */
    {"multipoint", "off|on", NULL},
    {NULL, NULL, NULL},
};

struct World {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    btCollisionShape *ground_shape = nullptr, *shape = nullptr;
    btRigidBody *ground = nullptr;
    btRigidBody *bodies[VB_STACK_MAX_BODIES] = {}; /* body 1 (the bottom) first */
    size_t n = 0;
    int substeps = 1;
};

/* a stack's combine rule: every object has the same coefficient, so the
 * smaller of the two is every pair's (btManifoldResult.cpp:23-24) */
static btScalar smaller_friction(const btCollisionObject *a, const btCollisionObject *b)
{
    return btMin(a->getFriction(), b->getFriction());
}
static btScalar smaller_restitution(const btCollisionObject *a, const btCollisionObject *b)
{
    return btMin(a->getRestitution(), b->getRestitution());
}

/* the rotation that turns the z axis onto the unit n */
static btQuaternion z_to(const double n[3])
{
    if (n[2] <= -1.0 + 1e-15)
        return btQuaternion(1, 0, 0, 0);
    double q[4] = {1.0 + n[2], -n[1], n[0], 0.0}; /* w, x, y, z */
    double s = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    return btQuaternion(q[1] / s, q[2] / s, q[3] / s, q[0] / s);
}

/* 10 m, or the first power of ten beyond twice as far as the run could carry
 * the body along the ground (vbcontact.js's rule) */
static double reach_of(const vb_request *req, const vb_body &b)
{
    const double *n = req->contact.normal;
    double T = 0.0, gn = 0.0, pull = 0.0, v = 0.0;
    for (size_t k = 0; k < req->steps; k++)
        T += req->h[k];
    for (int i = 0; i < 3; i++)
        gn += b.gravity[i] * n[i];
    for (int i = 0; i < 3; i++) {
        double t = b.gravity[i] - gn * n[i];
        pull += t * t;
        v += b.v0[i] * b.v0[i];
    }
    double need = 2.0 * (std::sqrt(v) * T + 0.5 * std::sqrt(pull) * T * T), reach = 10.0;
    while (reach < need)
        reach *= 10.0;
    return reach;
}

/* a whole option >= 1 (iterations, substeps): 0, or -1 with err */
static int whole_option(const char *key, double *out, char *err, size_t errlen)
{
    double v = vb_opt_num(options, key);
    if (!(v >= 1 && v == std::floor(v) && v <= 1e6)) {
        snprintf(err, errlen, "%s=%s: want a whole number >= 1", key, vb_opt(options, key));
        return -1;
    }
    *out = v;
    return 0;
}

/* the ground, static: a plane or a box (ground=); its friction and
 * restitution f and e */
static void add_ground(World *w, const vb_request *req, const vb_body *bs, size_t n, btScalar f,
                       btScalar e)
{
    const vb_contact &c = req->contact;
    btTransform at;
    at.setIdentity();
    const double *nv = c.normal;
    if (!strcmp(vb_opt(options, "ground"), "plane")) {
        w->ground_shape = new btStaticPlaneShape(btVector3(nv[0], nv[1], nv[2]), btScalar(c.offset));
    } else {
        double reach = 10.0;
        for (size_t k = 0; k < n; k++)
            reach = std::max(reach, reach_of(req, bs[k]));
        w->ground_shape = new btBoxShape(btVector3(reach, reach, 1));
        at.setRotation(z_to(nv));
        at.setOrigin(btVector3(nv[0] * (c.offset - 1), nv[1] * (c.offset - 1), nv[2] * (c.offset - 1)));
    }
    btRigidBody::btRigidBodyConstructionInfo gi(0, nullptr, w->ground_shape);
    gi.m_startWorldTransform = at;
    gi.m_friction = f;
    gi.m_restitution = e;
    w->ground = new btRigidBody(gi);
    w->world.addRigidBody(w->ground);
}

/* one body of the request, at its start, with its own gravity */
static btRigidBody *add_body(World *w, const vb_body &b, const vb_contact &c)
{
    btTransform start;
    start.setOrigin(btVector3(b.x0[0], b.x0[1], b.x0[2]));
    start.setRotation(btQuaternion(b.q0[1], b.q0[2], b.q0[3], b.q0[0])); /* x, y, z, w */
    btRigidBody::btRigidBodyConstructionInfo info(
        b.mass, nullptr, w->shape, btVector3(b.inertia[0], b.inertia[1], b.inertia[2]));
    info.m_startWorldTransform = start;
    info.m_friction = btScalar(c.friction);
    info.m_restitution = btScalar(c.restitution);
    info.m_rollingFriction = 0;
    info.m_spinningFriction = 0;
    btRigidBody *body = new btRigidBody(info);
    body->setLinearVelocity(btVector3(b.v0[0], b.v0[1], b.v0[2]));
    body->setAngularVelocity(btVector3(b.w0_world[0], b.w0_world[1], b.w0_world[2]));
    body->setActivationState(DISABLE_DEACTIVATION);
    w->world.addRigidBody(body); /* gives it the world's gravity: then its own */
    body->setGravity(btVector3(b.gravity[0], b.gravity[1], b.gravity[2]));
    return body;
}

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx;
    const vb_contact &c = req->contact;
    const int stack = req->has_stack;
    const vb_body *bs = stack ? req->bodies : &req->body;
    const size_t n = stack ? req->nbodies : 1;
    if (c.friction_kinetic != c.friction_static) {
        snprintf(err, errlen, "the request's contact has mu_s = %g and mu_k = %g: Bullet has one "
                              "friction coefficient", c.friction_static, c.friction_kinetic);
        return nullptr;
    }
    double iters, substeps;
    if (whole_option("iterations", &iters, err, errlen) != 0 ||
        whole_option("substeps", &substeps, err, errlen) != 0)
        return nullptr;
    World *w = new World;
    w->substeps = (int)substeps;
    if (!strcmp(vb_opt(options, "multipoint"), "on"))
        w->config.setPlaneConvexMultipointIterations();
    w->world.setGravity(btVector3(bs[0].gravity[0], bs[0].gravity[1], bs[0].gravity[2]));
    btContactSolverInfo &si = w->world.getSolverInfo();
    si.m_numIterations = (int)iters;
    si.m_splitImpulse = !strcmp(vb_opt(options, "split"), "on");
    if (!strcmp(vb_opt(options, "warm"), "off"))
        si.m_solverMode &= ~SOLVER_USE_WARMSTARTING;
    /* a body on the ground: the ground's friction 1 and restitution 1, so
     * the products are the body's; a stack: every object's mu and e, and
     * the smaller of the two every pair's (the hooks are global: set for
     * every request) */
    gCalculateCombinedFrictionCallback =
        stack ? smaller_friction : btManifoldResult::calculateCombinedFriction;
    gCalculateCombinedRestitutionCallback =
        stack ? smaller_restitution : btManifoldResult::calculateCombinedRestitution;
    add_ground(w, req, bs, n, stack ? btScalar(c.friction) : 1,
               stack ? btScalar(c.restitution) : 1);
    if (c.box)
        w->shape = new btBoxShape(btVector3(c.edges[0] / 2, c.edges[1] / 2, c.edges[2] / 2));
    else
        w->shape = new btSphereShape(btScalar(c.radius));
    for (size_t k = 0; k < n; k++)
        w->bodies[w->n++] = add_body(w, bs[k], c);
    return w;
}

/* the world advanced by exactly h: substeps internal steps of h/N
 * (maxSubSteps 0: exactly one internalSingleStepSimulation(h/N) a call,
 * btDiscreteDynamicsWorld.cpp:399-414) */
static void advance(World *w, double h)
{
    for (int i = 0; i < w->substeps; i++)
        w->world.stepSimulation(btScalar(h / w->substeps), 0);
}

/* body k's 13 numbers into s */
static void state_of(const btRigidBody *body, double *s)
{
    const btTransform &t = body->getCenterOfMassTransform();
    btQuaternion q = t.getRotation();
    const btVector3 &p = t.getOrigin(), &v = body->getLinearVelocity(),
                    &a = body->getAngularVelocity(); /* world frame */
    double out[13] = {p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z(),
                      v.x(), v.y(), v.z(), a.x(), a.y(), a.z()};
    memcpy(s, out, sizeof out);
}

static int step(void *wp, double h, double s[13], char *err, size_t errlen)
{
    (void)err, (void)errlen;
    World *w = static_cast<World *>(wp);
    advance(w, h);
    state_of(w->bodies[0], s);
    return VB_STEP_OK;
}

static int step_stack(void *wp, double h, double *s, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    World *w = static_cast<World *>(wp);
    advance(w, h);
    for (size_t k = 0; k < w->n; k++)
        state_of(w->bodies[k], s + 13 * k);
    return VB_STEP_OK;
}

static void destroy(void *wp)
{
    World *w = static_cast<World *>(wp);
    for (size_t k = 0; k < w->n; k++) {
        w->world.removeRigidBody(w->bodies[k]);
        delete w->bodies[k];
    }
    w->world.removeRigidBody(w->ground);
    delete w->ground;
    delete w->shape;
    delete w->ground_shape;
    delete w;
}

int main(int argc, char **argv)
{
    vb_adapter a = {};
    a.name = VB_NAME;
    a.engine = "bullet@" VB_ENGINE_VERSION;
    a.precision = VB_PRECISION;
    a.make = make;
    a.destroy = destroy;
    a.step_body = step;
    a.angvel = "world";
    a.body_contact = 1;
    a.stack = 1;
    a.step_stack = step_stack;
    return vb_main(&a, argc, argv, options);
}
