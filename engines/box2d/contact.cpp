// Box2D 2.4 (Debian's libbox2d-dev, float32) at a contact: the bounce, the
// slide and the tunnel of issue 44 posed with Box2D's own shapes, restitution,
// friction, restitution threshold and bullet setting, stepped by b2World::Step
// (the poses: engines/lib/vbcontact.h; what was measured: docs/contact.md).
#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "../lib/vbcontact.h"
#include "../lib/vbengine.h"

#ifndef VB_ENGINE_VERSION
#define VB_ENGINE_VERSION "unknown"
#endif

static vb_option options[] = {
    // b2FixtureDef::restitutionThreshold, 1 m/s by default (b2_fixture.h:69),
    // mixed per contact as the smaller of the two (b2_contact.h:55): both fixtures
    {"vth", nullptr, "1"},
    // continuous physics: on by default (b2_world.cpp:55), TOI against static bodies
    {"continuous", "on|off", nullptr},
    // the moving body's bullet flag (b2_body.h:66, false by default)
    {"bullet", "off|on", nullptr},
    {"viter", nullptr, "8"}, // velocity iterations of Step (the testbed's 8)
    {"piter", nullptr, "3"}, // position iterations of Step (the testbed's 3)
    {nullptr, nullptr, nullptr},
};

struct World {
    vb_pose p;
    b2World world{b2Vec2(0.0f, 0.0f)};
    b2Body *body = nullptr;
};

static void *make(const vb_request *req, void *, char *err, size_t errlen)
{
    World *w = new World;
    vb_pose &p = w->p;
    if (vb_pose_read(req, &p, err, errlen) != 0) {
        delete w;
        return nullptr;
    }
    w->world.SetGravity(b2Vec2(0.0f, (float)p.gravity));
    w->world.SetContinuousPhysics(std::string(vb_opt(options, "continuous")) == "on");
    // sleeping stays the engine's (on): a ball at rest may sleep, as in a game
    float mu = p.model == VB_SLIDE ? (float)p.mu : 0.0f, e = p.model == VB_SLIDE ? 0.0f : (float)p.e;
    float vth = (float)vb_opt_num(options, "vth");
    b2BodyDef gd; // static
    gd.position.Set((float)p.gcx, (float)p.gcy);
    b2Body *ground = w->world.CreateBody(&gd);
    b2PolygonShape gbox;
    gbox.SetAsBox((float)p.ghx, (float)p.ghy);
    // friction mixes as sqrt(f1 f2), restitution as max (b2_contact.h:42-52):
    // the same value on both fixtures gives it
    b2FixtureDef gf;
    gf.shape = &gbox;
    gf.friction = mu;
    gf.restitution = e;
    gf.restitutionThreshold = vth;
    ground->CreateFixture(&gf);
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position.Set((float)p.c0[0], (float)p.c0[1]);
    def.linearVelocity.Set((float)p.u0[0], (float)p.u0[1]);
    def.bullet = std::string(vb_opt(options, "bullet")) == "on";
    def.fixedRotation = p.model == VB_SLIDE;
    w->body = w->world.CreateBody(&def);
    b2PolygonShape box;
    b2CircleShape ball;
    b2FixtureDef f;
    if (p.model == VB_SLIDE) {
        box.SetAsBox((float)(p.size / 2), (float)(p.size / 2));
        f.shape = &box;
        f.density = (float)(p.mass / (p.size * p.size));
    } else {
        ball.m_radius = (float)p.r;
        f.shape = &ball;
        f.density = (float)(p.mass / (M_PI * p.r * p.r));
    }
    f.friction = mu;
    f.restitution = e;
    f.restitutionThreshold = vth;
    w->body->CreateFixture(&f);
    return w;
}

static int step(void *wp, double h, double *x, double *v, char *, size_t)
{
    World *w = static_cast<World *>(wp);
    w->world.Step((float)h, (int)vb_opt_num(options, "viter"), (int)vb_opt_num(options, "piter"));
    b2Vec2 c = w->body->GetPosition(), u = w->body->GetLinearVelocity();
    x[0] = c.x, x[1] = (double)c.y - w->p.lift;
    v[0] = u.x, v[1] = u.y;
    return VB_STEP_OK;
}

static void destroy(void *wp) { delete static_cast<World *>(wp); }

int main(int argc, char **argv)
{
    vb_adapter a = {};
    a.name = "box2d-contact";
    a.engine = "box2d@" VB_ENGINE_VERSION;
    a.precision = "float32";
    a.make = make;
    a.step = step;
    a.destroy = destroy;
    a.poses = 1;
    return vb_main(&a, argc, argv, options);
}
