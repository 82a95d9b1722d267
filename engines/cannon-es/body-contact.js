#!/usr/bin/env node
// cannon-es 0.20.0 (doubles) as a verletbench engine of a rigid body on the
// ground, protocol 4 with a body (docs/real-engines.md §6.5): the ball of roll
// or the cube of box-incline on its inclined plane; and of a stack of boxes on
// the ground, protocol 5 (model 'stack', §7).  Source lines are
// dist/cannon-es.cjs.js's, the file node loads.
//
// The scene, fair and stated (issue 54.2):
//   - the ground is a static body with a Plane shape (its normal +z) turned
//     onto the request's normal, through n offset; the body a Sphere or a Box
//     of the half-edges at x0, q0;
//   - friction: cannon-es takes a pair's ContactMaterial, else the world's
//     default one (:12684), and only without either the product of the two
//     bodies' materials' coefficients (:10455-10458): the default contact
//     material gets mu and e, so the contact's are mu and e.  cannon has one
//     coefficient (mu_s != mu_k is refused) and no rolling resistance;
//   - inertia: the request's moments set after addShape (whose
//     updateMassProperties puts a box round the shape's world AABB,
//     :3856-3866: a Sphere's 2/5 m R^2, a Box's own when unturned);
//   - damping 0 (its default 0.01 both, :3398, :3441), no sleeping (the
//     world's allowSleep is false, :12188), no speed cap;
//   - its defaults otherwise: the GSSolver's 10 iterations, contact
//     stiffness 1e7 and relaxation 3, friction stiffness 1e7 and relaxation 3
//     (:12221-12230).
// What its friction is: a friction equation's bound is mu |g| m a contact
// point (:10463-10475), whatever the normal force, and the solver clamps its
// lambda, an impulse, with that force (:9948-9952) (tests/real_engines_contact.py,
// item 4).
//
// A stack: the same world with n Boxes, every pair's contact material the
// default one (friction mu, restitution 0), each box's friction bound
// mu |g| m_a m_b / (m_a + m_b) a point (:10463-10476: the pair's reduced
// mass, not the weight the contact carries).  Option iterations=N: the
// GSSolver's iterations (10, :9882; it stops earlier when the iteration's
// sum of |delta lambda| is under its tolerance 1e-7, :9883, :9965).  cannon
// has no warm starting (the solver starts every equation's lambda at 0 each
// step, :9923) and no substeps (world.step(h) is one internalStep(h),
// :12519; its three-argument form is a fixed-step accumulator, :12523-12533):
// neither option is offered.
"use strict";
const CANNON = require("cannon-es");
const vb = require("../lib/vbengine.js");
const { zTo } = require("../lib/vbcontact.js");

// the world of a request's contact: gravity, the default contact material's
// mu and e, the solver's iterations, a static Plane turned onto the normal
function groundWorld(c, gravity, o) {
  if (c.friction_kinetic !== c.friction_static)
    throw new vb.RequestError(`the request's contact has mu_s = ${c.friction_static} and mu_k = ` +
      `${c.friction_kinetic}: cannon-es has one friction coefficient`);
  if (!(Number.isInteger(o.iterations) && o.iterations >= 1))
    throw new vb.RequestError(`iterations=${o.iterations}: want a whole number >= 1`);
  const world = new CANNON.World({ gravity: new CANNON.Vec3(gravity[0], gravity[1], gravity[2]) });
  world.solver.iterations = o.iterations;
  world.defaultContactMaterial.friction = c.friction;
  world.defaultContactMaterial.restitution = c.restitution;
  const n = c.wall.normal, gq = zTo(n);
  const ground = new CANNON.Body({ mass: 0 });
  ground.addShape(new CANNON.Plane());
  ground.quaternion.set(gq[1], gq[2], gq[3], gq[0]); // x, y, z, w
  ground.position.set(n[0] * c.wall.offset, n[1] * c.wall.offset, n[2] * c.wall.offset);
  world.addBody(ground);
  return world;
}

// a request's body (version 3's object) of the contact's shape, added to the world
function addBody(world, b, shape) {
  const [I1, I2, I3] = b.inertia;
  const body = new CANNON.Body({
    mass: b.mass,
    position: new CANNON.Vec3(b.x0[0], b.x0[1], b.x0[2]),
    velocity: new CANNON.Vec3(b.v0[0], b.v0[1], b.v0[2]),
    quaternion: new CANNON.Quaternion(b.q0[1], b.q0[2], b.q0[3], b.q0[0]),
    angularVelocity: new CANNON.Vec3(b.w0_world[0], b.w0_world[1], b.w0_world[2]),
    linearDamping: 0,
    angularDamping: 0,
  });
  body.addShape(shape.kind === "ball" ? new CANNON.Sphere(shape.radius)
    : new CANNON.Box(new CANNON.Vec3(shape.edges[0] / 2, shape.edges[1] / 2, shape.edges[2] / 2)));
  body.inertia.set(I1, I2, I3);
  body.invInertia.set(1 / I1, 1 / I2, 1 / I3);
  body.updateInertiaWorld(true);
  world.addBody(body);
  return body;
}

// a body's 13 numbers: x, q (w first), v, w (world frame)
function state(body) {
  const p = body.position, q = body.quaternion, v = body.velocity, w = body.angularVelocity;
  return [p.x, p.y, p.z, q.w, q.x, q.y, q.z, v.x, v.y, v.z, w.x, w.y, w.z];
}

vb.main({
  name: "cannon-es-body-contact",
  engine: vb.npmEngine("cannon-es"),
  angvel: "world", // Body.angularVelocity is in the world frame (:3919-3921)
  options: { iterations: "10" },
  bodyContact(req, o) {
    const world = groundWorld(req.contact, req.body.gravity, o);
    const body = addBody(world, req.body, req.contact.shape);
    return {
      step(h) {
        world.step(h); // one argument: one internalStep(h), no accumulator (:12519)
        return state(body);
      },
    };
  },
  stack(req, o) {
    const c = req.contact;
    const world = groundWorld(c, c.gravity, o);
    const bodies = req.bodies.map((b) => addBody(world, b, c.shape));
    return {
      step(h) {
        world.step(h);
        return bodies.flatMap(state);
      },
    };
  },
});
