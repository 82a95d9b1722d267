/* bullet_stack.cpp — the reference for tests/test_stack.c's pgs stacks:
 * Bullet 3 itself (Debian's libbullet-dev, 3.24) on model `stack`'s scene,
 * its solver at its defaults, so that the lab's pgs (Bullet's
 * btSequentialImpulseConstraintSolver, src/rigidcontact/solver_pgs.c) is
 * held to the engine it follows, not to its own output.
 *
 *   g++ -O2 $(pkg-config --cflags bullet) tests/reference/bullet_stack.cpp \
 *       $(pkg-config --libs bullet) -o bullet_stack && ./bullet_stack
 *   (bullet-float64 for Debian's double-precision build)
 *
 * The scene: n equal boxes of 1 kg and edge a, centres at (k + 1/2) a on a
 * static btBoxShape ground (its top face z = 0), gravity 9.81, friction
 * 0.5 between every two surfaces (Bullet multiplies the two bodies'
 * coefficients, btManifoldResult.cpp calculateCombinedFriction: each gets
 * sqrt(0.5)), no restitution, no sleeping (DISABLE_DEACTIVATION), one
 * internal step of 1/60 s a frame, 10 s.  Its defaults otherwise:
 * 10 iterations, erp2 0.2, warm starting 0.85, split impulse on
 * (btContactSolverInfo.h).  Measures as stackrun.h's: drift_max the largest
 * displacement of a box's centre, t_collapse the first time one has moved
 * half its edge.
 *
 * Its output (float32 / float64 build), drift_max in m:
 *   a 1 m,   2 boxes: warm 0.0106 / 0.00983   cold 0.0520 / 0.0309
 *   a 1 m,   5 boxes: warm 0.0122 / 0.00836   cold 0.0666 / 0.0657
 *   a 0.1 m, 2 boxes: warm 0.00273 / 0.00708  cold 0.0457 / 0.0264
 *   a 0.1 m, 5 boxes: warm falls at 2.47 / 2.58 s, cold at 0.65 / 0.87 s
 * (a 0.1 m box is barely bigger than Bullet's 0.04 m collision margin). */
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>

static void run(int n, double a, bool warm)
{
    const double mu = 0.5, g = 9.81, h = 1.0 / 60.0;
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
    world.setGravity(btVector3(0, 0, -g));
    if (!warm)
        world.getSolverInfo().m_solverMode &= ~SOLVER_USE_WARMSTARTING;
    btBoxShape ground_shape(btVector3(10, 10, 0.5));
    btRigidBody::btRigidBodyConstructionInfo gi(0, nullptr, &ground_shape);
    gi.m_startWorldTransform.setOrigin(btVector3(0, 0, -0.5));
    gi.m_friction = std::sqrt(mu);
    btRigidBody ground(gi);
    world.addRigidBody(&ground);
    btBoxShape box(btVector3(a / 2, a / 2, a / 2));
    btRigidBody *b[16];
    btVector3 x0[16];
    for (int k = 0; k < n; k++) {
        btVector3 inertia;
        box.calculateLocalInertia(1.0, inertia);
        btRigidBody::btRigidBodyConstructionInfo ci(1.0, nullptr, &box, inertia);
        x0[k] = btVector3(0, 0, (k + 0.5) * a);
        ci.m_startWorldTransform.setOrigin(x0[k]);
        ci.m_friction = std::sqrt(mu);
        b[k] = new btRigidBody(ci);
        b[k]->setActivationState(DISABLE_DEACTIVATION);
        world.addRigidBody(b[k]);
    }
    double drift = 0.0, t_collapse = NAN;
    for (int s = 1; s <= 600; s++) {
        world.stepSimulation(h, 0, h);
        for (int k = 0; k < n; k++) {
            double d = (b[k]->getCenterOfMassPosition() - x0[k]).length();
            drift = d > drift ? d : drift;
            if (!(d < a / 2) && std::isnan(t_collapse))
                t_collapse = s * h;
        }
    }
    std::printf("a %g m, %d boxes, warm start %s: drift_max %.3g t_collapse %.3g\n", a, n,
                warm ? "on" : "off", drift, t_collapse);
    for (int k = 0; k < n; k++) {
        world.removeRigidBody(b[k]);
        delete b[k];
    }
    world.removeRigidBody(&ground);
}

int main()
{
    const double sizes[] = {1.0, 0.1};
    const int ns[] = {2, 5};
    for (double a : sizes)
        for (int n : ns)
            for (int warm = 1; warm >= 0; warm--)
                run(n, a, warm != 0);
    return 0;
}
