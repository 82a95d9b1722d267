/* Bullet 3 (Debian's libbullet-dev) as a verletbench engine of one rigid body,
 * protocol 3.  Built twice by engines/Makefile: engines/build/bullet against
 * the float libraries (Bullet's default, what `pkg-config bullet` links) and
 * engines/build/bullet-f64 against Debian's -float64 ones
 * (-DBT_USE_DOUBLE_PRECISION).  engines/bullet/README.md says how the request
 * maps onto the engine; docs/real-engines.md, "Adapting a 3D engine", what the
 * step is, with Bullet's source lines (bullet 3.24+dfsg-2, src/...). */
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "../lib/vbengine.h"

#ifndef VB_ENGINE_VERSION
#define VB_ENGINE_VERSION "unknown"
#endif
#ifdef BT_USE_DOUBLE_PRECISION
#define VB_NAME "bullet-float64"
#define VB_PRECISION "float64"
#else
#define VB_NAME "bullet"
#define VB_PRECISION "float32"
#endif

static vb_option options[] = {
    /* btRigidBody's m_rigidbodyFlags: BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY is
     * its default (btRigidBody.cpp:91) */
    {"gyro", "implicit-body|implicit-world|explicit|none", NULL},
    /* off: no sleeping (DISABLE_DEACTIVATION) and no cap on the explicit
     * gyroscopic torque (m_maxGyroscopicForce, 100 by default,
     * btContactSolverInfo.h:105); engine: Bullet's defaults */
    {"defaults", "off|engine", NULL},
    {NULL, NULL, NULL},
};

struct World {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    btCollisionShape *shape = nullptr;
    btRigidBody *body = nullptr;
    double t = 0.0; /* the time of the state held, for messages */
};

static int gyro_flags(const char *g)
{
    if (!strcmp(g, "implicit-body"))
        return BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY;
    if (!strcmp(g, "implicit-world"))
        return BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_WORLD;
    if (!strcmp(g, "explicit"))
        return BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT;
    return 0;
}

static void *make(const vb_request *req, void *ctx, char *err, size_t errlen)
{
    (void)ctx, (void)err, (void)errlen;
    const vb_body &b = req->body;
    World *w = new World;
    w->world.setGravity(btVector3(b.gravity[0], b.gravity[1], b.gravity[2]));
    /* The shape is only for collisions, and the body is alone: a box of the
     * request's edges where it has one, else a unit sphere.  Its inertia is
     * not taken from the shape (calculateLocalInertia): the principal moments
     * go into the construction info as they are, and setMassProps stores their
     * reciprocals as the body's diagonal (btRigidBody.cpp:237-240); the body's
     * axes are its principal axes. */
    if (b.has_box)
        w->shape = new btBoxShape(btVector3(b.box[0] / 2, b.box[1] / 2, b.box[2] / 2));
    else
        w->shape = new btSphereShape(1);
    btTransform start;
    start.setOrigin(btVector3(b.x0[0], b.x0[1], b.x0[2]));
    start.setRotation(btQuaternion(b.q0[1], b.q0[2], b.q0[3], b.q0[0])); /* x, y, z, w */
    btRigidBody::btRigidBodyConstructionInfo info(
        b.mass, nullptr, w->shape, btVector3(b.inertia[0], b.inertia[1], b.inertia[2]));
    info.m_startWorldTransform = start;
    /* linear and angular damping are 0 and m_additionalDamping false by default
     * (btRigidBody.h:148-156) */
    w->body = new btRigidBody(info);
    w->body->setLinearVelocity(btVector3(b.v0[0], b.v0[1], b.v0[2]));
    w->body->setAngularVelocity(btVector3(b.w0_world[0], b.w0_world[1], b.w0_world[2]));
    w->body->setFlags(gyro_flags(vb_opt(options, "gyro")));
    if (!strcmp(vb_opt(options, "defaults"), "off")) {
        /* a body slower than 0.8 m/s and 1 rad/s for 2 s sleeps (btRigidBody.h:154-155,
         * gDeactivationTime) */
        w->body->setActivationState(DISABLE_DEACTIVATION);
        w->world.getSolverInfo().m_maxGyroscopicForce = BT_LARGE_FLOAT;
    }
    w->world.addRigidBody(w->body);
    return w;
}

/* The explicit gyroscopic torque as Bullet computes it in the step about
 * to be taken, with Bullet's own products in btScalar
 * (computeGyroscopicForceExplicit, btRigidBody.cpp:283-295, called by the
 * solver for BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT,
 * btSequentialImpulseConstraintSolver.cpp:1384-1388), and whether its cap
 * (:290-293) would change it: 0, or -1 with err saying so.  The cap scales
 * ω × Iω to m_maxGyroscopicForce when |ω × Iω|² passes its square.  Bullet's
 * default cap is 100 (btContactSolverInfo.h:105), an engine's own rule
 * (defaults=engine); defaults=off sets BT_LARGE_FLOAT, 1e18 in float and
 * 1e30 in double (btScalar.h:312, :316), a cap still: one that acts means
 * the step is no longer explicit Euler.  And in float |ω × Iω|² overflows
 * to inf once |ω| passes about 1e9 rad/s: the cap then multiplies the
 * torque by 1/sqrt(inf) = 0, and the body spins on at a held ω (the float
 * build at 5 rad/s and 60 Hz: ω frozen at 1.04e10 rad/s from 29.45 s),
 * rows that are no method's.  Either fails the run, saying when. */
static int explicit_torque_capped(World *w, double h, char *err, size_t errlen)
{
    btRigidBody *b = w->body;
    if (!(b->getFlags() & BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT))
        return 0;
    btScalar cap = w->world.getSolverInfo().m_maxGyroscopicForce;
    const btMatrix3x3 &basis = b->getWorldTransform().getBasis();
    btMatrix3x3 inertia_world = basis.scaled(b->getLocalInertia()) * basis.transpose();
    const btVector3 &av = b->getAngularVelocity();
    btVector3 gf = av.cross(inertia_world * av);
    btScalar l2 = gf.length2();
    if (std::isnan((double)l2))
        return 0; /* the state is NaN already: a run that diverged, its rows say so */
    int overflow = std::isinf((double)l2);
    if (l2 <= cap * cap || (!overflow && cap < BT_LARGE_FLOAT))
        return 0; /* no cap acts, or the engine's own cap of 100 (defaults=engine) */
    if (overflow)
        snprintf(err, errlen,
                 "Bullet's explicit gyroscopic torque overflowed in its step from t = %.7g to "
                 "%.7g: |w x Iw|^2 is inf in %s at |w| = %.3g rad/s, and its cap "
                 "(btRigidBody.cpp:290-293) then scales the torque to 0: the body would spin on "
                 "at a held w, not the explicit step",
                 w->t, w->t + h, VB_PRECISION,
                 (double)av.length());
    else
        snprintf(err, errlen,
                 "Bullet's explicit gyroscopic torque |w x Iw| = %.3g passed its cap "
                 "BT_LARGE_FLOAT = %g in its step from t = %.7g to %.7g (|w| = %.3g rad/s): the "
                 "cap (btRigidBody.cpp:290-293) changes the step, which is then not explicit "
                 "Euler (defaults=off sets no smaller cap)",
                 (double)btSqrt(l2), (double)BT_LARGE_FLOAT, w->t, w->t + h, (double)av.length());
    return -1;
}

static int step(void *wp, double h, double s[13], char *err, size_t errlen)
{
    World *w = static_cast<World *>(wp);
    if (explicit_torque_capped(w, h, err, errlen) != 0)
        return VB_STEP_FAILED;
    w->t += h;
    /* maxSubSteps 0: a variable step, exactly one internalSingleStepSimulation(h)
     * (btDiscreteDynamicsWorld.cpp:400-414); with the default 1 it would be a
     * fixed 1/60 s accumulator */
    w->world.stepSimulation(btScalar(h), 0);
    const btTransform &t = w->body->getCenterOfMassTransform();
    btQuaternion q = t.getRotation(); /* from the basis matrix Bullet keeps */
    const btVector3 &p = t.getOrigin(), &v = w->body->getLinearVelocity(),
                    &a = w->body->getAngularVelocity(); /* world frame */
    double out[13] = {p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z(),
                      v.x(), v.y(), v.z(), a.x(), a.y(), a.z()};
    memcpy(s, out, sizeof out);
    return VB_STEP_OK;
}

static void destroy(void *wp)
{
    World *w = static_cast<World *>(wp);
    w->world.removeRigidBody(w->body);
    delete w->body;
    delete w->shape;
    delete w;
}

int main(int argc, char **argv)
{
    vb_adapter a = {};
    a.name = VB_NAME;
    a.engine = VB_NAME "@" VB_ENGINE_VERSION;
    a.precision = VB_PRECISION;
    a.make = make;
    a.destroy = destroy;
    a.step_body = step;
    a.angvel = "world";
    return vb_main(&a, argc, argv, options);
}
