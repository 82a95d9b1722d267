// Box2D 2.4 (Debian's libbox2d-dev, float32) as a verletbench engine.
// engines/box2d/README.md says how the request maps onto the engine, and why.
#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "../lib/vbengine.h"

#ifndef VB_ENGINE_VERSION
#define VB_ENGINE_VERSION "unknown"
#endif

static vb_option options[] = {
    {"gravity", "engine|force", nullptr}, // projectile, rod: the world's gravity, or m a as a force
    {"viter", nullptr, "8"},              // velocity iterations of Step (the testbed's 8)
    {"piter", nullptr, "3"},              // position iterations of Step (the testbed's 3)
    {nullptr, nullptr, nullptr},
};

struct World {
    const vb_request *req;
    b2World world{b2Vec2(0.0f, 0.0f)};
    b2Body *body = nullptr;
    bool own_gravity = false;
};

static void *make(const vb_request *req, void *, char *err, size_t errlen)
{
    if (req->particles != 1 || req->dim > 2 || (vb_has_rods(req) && (req->nrods != 1 || req->rods[0].j != -1))) {
        snprintf(err, errlen, "this adapter drives one particle in 1-D or 2-D (one rod to a pivot)");
        return nullptr;
    }
    World *w = new World;
    w->req = req;
    w->own_gravity = !std::isnan(vb_gravity(req)) && std::string(vb_opt(options, "gravity")) == "engine";
    if (w->own_gravity)
        w->world.SetGravity(b2Vec2(0.0f, (float)vb_gravity(req)));
    // sleeping is on by default (b2_world.cpp:60, b2_body.h bodyDef.allowSleep): off
    w->world.SetAllowSleeping(false);
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position.Set((float)req->x0[0], req->dim > 1 ? (float)req->x0[1] : 0.0f);
    def.linearVelocity.Set((float)req->v0[0], req->dim > 1 ? (float)req->v0[1] : 0.0f);
    def.linearDamping = 0.0f; // the default (b2_body.h:61), named so the reader sees it
    def.allowSleep = false;
    w->body = w->world.CreateBody(&def);
    // no fixtures: a point particle of the request's mass, no rotational inertia
    b2MassData md;
    md.mass = (float)req->masses[0];
    md.center.SetZero();
    md.I = 0.0f;
    w->body->SetMassData(&md);
    if (vb_has_rods(req)) {
        b2BodyDef gd; // static
        b2Body *ground = w->world.CreateBody(&gd);
        b2DistanceJointDef jd; // min = max = length, stiffness 0: a rigid rod
        jd.Initialize(ground, w->body, b2Vec2((float)req->rods[0].pivot[0], (float)req->rods[0].pivot[1]),
                      w->body->GetPosition());
        w->world.CreateJoint(&jd);
    }
    return w;
}

static int step(void *world, double h, double *x, double *v, char *, size_t)
{
    World *w = static_cast<World *>(world);
    const vb_request *req = w->req;
    if (!w->own_gravity) { // the force of the position before the step, as a game sets it
        b2Vec2 p = w->body->GetPosition(), u = w->body->GetLinearVelocity();
        double xs[2] = {p.x, p.y}, vs[2] = {u.x, u.y}, a[2] = {0.0, 0.0};
        vb_accel(req, xs, vs, a);
        double m = req->masses[0];
        w->body->ApplyForceToCenter(b2Vec2((float)(m * a[0]), req->dim > 1 ? (float)(m * a[1]) : 0.0f), true);
    }
    w->world.Step((float)h, (int)vb_opt_num(options, "viter"), (int)vb_opt_num(options, "piter"));
    b2Vec2 p = w->body->GetPosition(), u = w->body->GetLinearVelocity();
    x[0] = p.x, v[0] = u.x;
    if (req->dim > 1)
        x[1] = p.y, v[1] = u.y;
    return VB_STEP_OK;
}

static void destroy(void *world) { delete static_cast<World *>(world); }

int main(int argc, char **argv)
{
    vb_adapter a = {};
    a.name = "box2d";
    a.engine = "box2d@" VB_ENGINE_VERSION;
    a.precision = "float32";
    a.make = make;
    a.step = step;
    a.destroy = destroy;
    return vb_main(&a, argc, argv, options);
}
