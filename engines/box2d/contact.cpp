// Box2D 2.4 (Debian's libbox2d-dev, float32) at a contact (protocol 4): the
// request's scene (the bounce, the slide, the tunnel, or any body of a case at
// a wall) built with Box2D's own shapes, restitution, friction, restitution
// threshold and bullet setting, stepped by b2World::Step (the scene:
// engines/lib/vbcontact.h; what was measured: docs/contact.md).
//
// And a stack of boxes on the ground (model stack, protocol 5, issue 55;
// docs/real-engines.md §7) in 2D: the model's x-z plane is Box2D's x-y (its
// out-of-plane axis x × z = -y), each box a rectangle of edges a_x, a_z with
// the request's mass and its moment about the model's y axis (m a^2/6 for a
// cube: b2Body::SetMassData), the ground a static box 1 m deep and 10 m
// either side, its top face the plane.  The rows are the model's: y = 0,
// the quaternion of a turn about y by minus Box2D's angle, w = (0, -omega,
// 0).  A request Box2D cannot build in 2D is refused: any y offset or
// velocity, a turn or spin off the y axis, gravity or a ground normal with
// a y component, bodies whose gravity differs, mu_s != mu_k (one
// coefficient).  Every fixture has mu and e: Box2D mixes friction as
// sqrt(f1 f2) (b2_contact.h:42-45; sqrt(mu mu) is mu in IEEE float) and
// restitution as the larger (:49-52), so every pair has mu and e.  No
// sleeping (b2BodyDef::allowSleep false), damping 0 (b2BodyDef's default);
// not switchable, compiled in: a step moves a body at most 2 m and turns it
// at most pi/2 (b2_maxTranslation, b2_maxRotation, b2_common.h:95-101), and
// every polygon has a skin of b2_polygonRadius = 0.01 m (:74), so boxes
// rest that far apart less b2_linearSlop 0.005 m (:65) of overlap (b2_contact_solver.cpp:639-660,
// :723 at v2.4.1).
// Options: viter (velocity iterations, 8) and piter (position iterations,
// 3): b2World::Step has no default, these are the testbed's; warm=on|off
// (b2World::SetWarmStarting, b2_world.h:154; on by default, b2_world.cpp:54); Box2D 2.4 has
// no substeps.
#include <box2d/box2d.h>

#include <algorithm>
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
    // warm starting (on by default, b2_world.cpp:54)
    {"warm", "on|off", nullptr},
    {nullptr, nullptr, nullptr},
};

struct World {
    vb_scene s;
    b2World world{b2Vec2(0.0f, 0.0f)};
    b2Body *body = nullptr;
    b2Body *boxes[VB_STACK_MAX_BODIES] = {}; // a stack's, body 1 (the bottom) first
    size_t n = 0;
};

// ---- a stack in the model's x-z plane (protocol 5) ----

// why body b (its place k from 1) cannot be built in 2D, or nullptr
static const char *off_plane(const vb_body &b, const vb_body &first)
{
    if (b.x0[1] != 0 || b.v0[1] != 0)
        return "has a y offset or velocity";
    if (b.q0[1] != 0 || b.q0[3] != 0 || b.w0_world[0] != 0 || b.w0_world[2] != 0)
        return "has a turn or a spin off the y axis";
    if (b.gravity[1] != 0)
        return "has gravity along y";
    if (b.gravity[0] != first.gravity[0] || b.gravity[2] != first.gravity[2])
        return "has gravity other than body 1's (Box2D's is the world's)";
    return nullptr;
}

static void *make_stack(const vb_request *req, char *err, size_t errlen)
{
    const vb_contact &c = req->contact;
    const vb_body *bs = req->bodies;
    if (c.friction_kinetic != c.friction_static) {
        snprintf(err, errlen, "the request's contact has mu_s = %g and mu_k = %g: Box2D has one "
                              "friction coefficient", c.friction_static, c.friction_kinetic);
        return nullptr;
    }
    if (c.normal[1] != 0) {
        snprintf(err, errlen, "the request's contact wall 'normal' has a y component: Box2D builds the "
                              "model's x-z plane");
        return nullptr;
    }
    for (size_t k = 0; k < req->nbodies; k++)
        if (const char *why = off_plane(bs[k], bs[0])) {
            snprintf(err, errlen, "the request's bodies[%zu] %s: Box2D builds the model's x-z plane "
                                  "(a stack in 2D)", k + 1, why);
            return nullptr;
        }
    World *w = new World;
    w->world.SetGravity(b2Vec2((float)bs[0].gravity[0], (float)bs[0].gravity[2]));
    w->world.SetWarmStarting(std::string(vb_opt(options, "warm")) == "on");
    float mu = (float)c.friction, e = (float)c.restitution;
    // the ground: a box 1 m deep, its top face n.x = offset (n in x-z)
    double nx = c.normal[0], ny = c.normal[2];
    b2BodyDef gd; // static
    gd.position.Set((float)(nx * (c.offset - 1)), (float)(ny * (c.offset - 1)));
    gd.angle = (float)std::atan2(-nx, ny); // turns Box2D's y onto the normal
    b2Body *ground = w->world.CreateBody(&gd);
    b2PolygonShape gbox;
    gbox.SetAsBox(10.0f, 1.0f);
    b2FixtureDef gf;
    gf.shape = &gbox;
    gf.friction = mu;
    gf.restitution = e;
    gf.restitutionThreshold = (float)c.threshold;
    ground->CreateFixture(&gf);
    b2PolygonShape box;
    box.SetAsBox((float)(c.edges[0] / 2), (float)(c.edges[2] / 2));
    for (size_t k = 0; k < req->nbodies; k++) {
        const vb_body &b = bs[k];
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.allowSleep = false;
        def.position.Set((float)b.x0[0], (float)b.x0[2]);
        // a turn about the model's y by phi is Box2D's angle -phi
        def.angle = (float)(-2.0 * std::atan2(b.q0[2], b.q0[0]));
        def.linearVelocity.Set((float)b.v0[0], (float)b.v0[2]);
        def.angularVelocity = (float)-b.w0_world[1];
        b2Body *body = w->world.CreateBody(&def);
        b2FixtureDef f;
        f.shape = &box;
        f.density = 1.0f; // replaced by the request's mass and moment below
        f.friction = mu;
        f.restitution = e;
        f.restitutionThreshold = (float)c.threshold;
        body->CreateFixture(&f);
        b2MassData md;
        md.mass = (float)b.mass;
        md.center.SetZero();
        md.I = (float)b.inertia[1]; // about the model's y: Box2D's out-of-plane axis
        body->SetMassData(&md);
        w->boxes[w->n++] = body;
    }
    return w;
}

static int step_stack(void *wp, double h, double *s, char *, size_t)
{
    World *w = static_cast<World *>(wp);
    w->world.Step((float)h, (int)vb_opt_num(options, "viter"), (int)vb_opt_num(options, "piter"));
    for (size_t k = 0; k < w->n; k++) {
        const b2Body *b = w->boxes[k];
        b2Vec2 p = b->GetPosition(), v = b->GetLinearVelocity();
        double half = -0.5 * (double)b->GetAngle(); // the model's turn about y is -angle
        double out[13] = {p.x, 0.0, p.y, std::cos(half), 0.0, std::sin(half), 0.0,
                          v.x, 0.0, v.y, 0.0, -(double)b->GetAngularVelocity(), 0.0};
        std::copy(out, out + 13, s + 13 * k);
    }
    return VB_STEP_OK;
}

static void *make(const vb_request *req, void *, char *err, size_t errlen)
{
    if (req->has_stack)
        return make_stack(req, err, errlen);
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
    a.stack = 1;
    a.step_stack = step_stack;
    a.angvel = "world";
    return vb_main(&a, argc, argv, options);
}
