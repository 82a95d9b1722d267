#!/usr/bin/env node
// cannon-es 0.20.0 (doubles) as a verletbench engine of a rigid body on the
// ground, protocol 4 with a body (docs/real-engines.md §6.5): the ball of roll
// or the cube of box-incline on its inclined plane.  Source lines are
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
"use strict";
const CANNON = require("cannon-es");
const vb = require("../lib/vbengine.js");
const { zTo } = require("../lib/vbcontact.js");

vb.main({
  name: "cannon-es-body-contact",
  engine: vb.npmEngine("cannon-es"),
  angvel: "world", // Body.angularVelocity is in the world frame (:3919-3921)
  bodyContact(req) {
    const c = req.contact, b = req.body, [I1, I2, I3] = b.inertia;
    if (c.friction_kinetic !== c.friction_static)
      throw new vb.RequestError(`the request's contact has mu_s = ${c.friction_static} and mu_k = ` +
        `${c.friction_kinetic}: cannon-es has one friction coefficient`);
    const world = new CANNON.World({ gravity: new CANNON.Vec3(b.gravity[0], b.gravity[1], b.gravity[2]) });
    world.defaultContactMaterial.friction = c.friction;
    world.defaultContactMaterial.restitution = c.restitution;
    const n = c.wall.normal, gq = zTo(n);
    const ground = new CANNON.Body({ mass: 0 });
    ground.addShape(new CANNON.Plane());
    ground.quaternion.set(gq[1], gq[2], gq[3], gq[0]); // x, y, z, w
    ground.position.set(n[0] * c.wall.offset, n[1] * c.wall.offset, n[2] * c.wall.offset);
    world.addBody(ground);
    const body = new CANNON.Body({
      mass: b.mass,
      position: new CANNON.Vec3(b.x0[0], b.x0[1], b.x0[2]),
      velocity: new CANNON.Vec3(b.v0[0], b.v0[1], b.v0[2]),
      quaternion: new CANNON.Quaternion(b.q0[1], b.q0[2], b.q0[3], b.q0[0]),
      angularVelocity: new CANNON.Vec3(b.w0_world[0], b.w0_world[1], b.w0_world[2]),
      linearDamping: 0,
      angularDamping: 0,
    });
    body.addShape(c.shape.kind === "ball" ? new CANNON.Sphere(c.shape.radius)
      : new CANNON.Box(new CANNON.Vec3(c.shape.edges[0] / 2, c.shape.edges[1] / 2, c.shape.edges[2] / 2)));
    body.inertia.set(I1, I2, I3);
    body.invInertia.set(1 / I1, 1 / I2, 1 / I3);
    body.updateInertiaWorld(true);
    world.addBody(body);
    return {
      step(h) {
        world.step(h); // one argument: one internalStep(h), no accumulator (:12519)
        const p = body.position, q = body.quaternion, v = body.velocity, w = body.angularVelocity;
        return [p.x, p.y, p.z, q.w, q.x, q.y, q.z, v.x, v.y, v.z, w.x, w.y, w.z];
      },
    };
  },
});
