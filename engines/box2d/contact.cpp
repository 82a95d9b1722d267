// Box2D 2.4 (Debian's libbox2d-dev, float32) at a contact (protocol 4): the
// request's scene (the bounce, the slide, the tunnel, or any body of a case at
// a wall) built with Box2D's own shapes, restitution, friction, restitution
// threshold and bullet setting, stepped by b2World::Step (the scene:
// engines/lib/vbcontact.h; what was measured: docs/contact.md).
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
    // continuous physics: on by default (b2_world.cpp:55), TOI against static bodies
    {"continuous", "on|off", nullptr},
    // the moving body's bullet flag (b2_body.h:66, false by default)
    {"bullet", "off|on", nullptr},
    {"viter", nullptr, "8"}, // velocity iterations of Step (the testbed's 8)
    {"piter", nullptr, "3"}, // position iterations of Step (the testbed's 3)
    {nullptr, nullptr, nullptr},
};

struct World {
    vb_scene s;
    b2World world{b2Vec2(0.0f, 0.0f)};
    b2Body *body = nullptr;
};

static void *make(const vb_request *req, void *, char *err, size_t errlen)
{
    World *w = new World;
    vb_scene &s = w->s;
    if (vb_scene_make(req, &s, err, errlen) != 0) {
        delete w;
        return nullptr;
    }
    w->world.SetGravity(b2Vec2((float)s.gravity[0], (float)s.gravity[1]));
    w->world.SetContinuousPhysics(std::string(vb_opt(options, "continuous")) == "on");
    // sleeping stays the engine's (on): a ball at rest may sleep, as in a game
    float mu = (float)s.friction, e = (float)s.restitution;
    // the contact's threshold: each fixture's restitutionThreshold (1 m/s by
    // default, b2_fixture.h:69), mixed per contact as the smaller of the two
    // (b2_contact.h:55): both fixtures
    float vth = (float)s.threshold;
    b2BodyDef gd; // static
    gd.position.Set((float)s.wall_c[0], (float)s.wall_c[1]);
    b2Body *ground = w->world.CreateBody(&gd);
    b2PolygonShape gbox;
    gbox.SetAsBox((float)s.wall_h[0], (float)s.wall_h[1]);
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
    def.position.Set((float)s.c0[0], (float)s.c0[1]);
    def.linearVelocity.Set((float)s.u0[0], (float)s.u0[1]);
    def.bullet = std::string(vb_opt(options, "bullet")) == "on";
    def.fixedRotation = s.lock_rotation;
    w->body = w->world.CreateBody(&def);
    b2PolygonShape box;
    b2CircleShape ball;
    b2FixtureDef f;
    if (!s.ball) {
        box.SetAsBox((float)s.half[0], (float)s.half[1]);
        f.shape = &box;
        f.density = (float)(s.mass / ((2 * s.half[0]) * (2 * s.half[1])));
    } else {
        ball.m_radius = (float)s.radius;
        f.shape = &ball;
        f.density = (float)(s.mass / (M_PI * s.radius * s.radius));
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
    double cw[2] = {c.x, c.y}, uw[2] = {u.x, u.y};
    vb_scene_row(&w->s, cw, uw, x, v);
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
    a.contact = 1;
    return vb_main(&a, argc, argv, options);
}
