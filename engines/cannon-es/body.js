#!/usr/bin/env node
// cannon-es (doubles) as a verletbench engine of one rigid body, protocol 3
// (docs/real-engines.md, "Adapting a 3D engine").  adapter.js beside it drives
// particles (protocol 2); this one a tumbling body alone in its world.
"use strict";
const CANNON = require("cannon-es");
const vb = require("../lib/vbengine.js");

vb.main({
  name: "cannon-es-body",
  engine: vb.npmEngine("cannon-es"),
  angvel: "world", // Body.angularVelocity is in the world frame (dist/cannon-es.cjs.js:3919-3921)
  options: { defaults: ["off", "engine"] },
  body(req, o) {
    const b = req.body, [I1, I2, I3] = b.inertia;
    // The world's allowSleep is false by default (:12188), so no body sleeps.
    const world = new CANNON.World({ gravity: new CANNON.Vec3(b.gravity[0], b.gravity[1], b.gravity[2]) });
    // linearDamping and angularDamping default to 0.01 a body (:3398, :3441),
    // applied as v *= (1 - d)^h every step (:12820-12830); defaults=off sets
    // them to 0, and (1 - 0)^h is 1 exactly.
    const damping = o.defaults === "engine" ? {} : { linearDamping: 0, angularDamping: 0 };
    const body = new CANNON.Body({
      mass: b.mass,
      position: new CANNON.Vec3(b.x0[0], b.x0[1], b.x0[2]),
      velocity: new CANNON.Vec3(b.v0[0], b.v0[1], b.v0[2]),
      quaternion: new CANNON.Quaternion(b.q0[1], b.q0[2], b.q0[3], b.q0[0]), // x, y, z, w
      angularVelocity: new CANNON.Vec3(b.w0_world[0], b.w0_world[1], b.w0_world[2]),
      ...damping,
    });
    // No shape: the body is alone and never collides.  Inertia from shapes is
    // a box around their world AABB at the time of addShape (Body.updateMassProperties,
    // :3856-3866), which is not the box's own when the body is turned; the
    // principal moments are set here instead, and the body's axes are its
    // principal axes.  (Without torque cannon's rotation does not use them:
    // Body.integrate changes w only by invInertiaWorld * torque, :3919-3921.)
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
