#!/usr/bin/env node
// Rapier 2-D (@dimforge/rapier2d-compat, float32) at a contact (protocol 4): the
// request's scene built with Rapier's own colliders, restitution, friction and
// CCD setting, stepped by World.step (the scene: engines/lib/vbcontact.js; what
// was measured: docs/contact.md).  Rapier has no restitution threshold: a new
// contact bounces, a persisting one does not (unless e >= 1; is_bouncy,
// src/geometry/contact_pair.rs:756-779 at v0.35.2): a threshold above 0 is refused.
"use strict";
// Liftoff alone computes the same bytes as TurboFan, in a fifth of the time
// (engines/rapier/adapter.js)
if (!process.argv.includes("compile=turbofan")) require("v8").setFlagsFromString("--liftoff-only");
const RAPIER = require("@dimforge/rapier2d-compat");
const vb = require("../lib/vbengine.js");
const vc = require("../lib/vbcontact.js");
let ready = null;

vb.main({
  name: "rapier-contact",
  engine: vb.npmEngine("@dimforge/rapier2d-compat"),
  precision: "float32",
  // ccd: the moving body's ccd_enabled (off by default,
  // src/dynamics/rigid_body.rs:1572 at v0.35.2; RigidBodyDesc.setCcdEnabled)
  options: { ccd: ["off", "on"], compile: ["liftoff", "turbofan"] },
  async contact(req, o) {
    if (!ready) ready = RAPIER.init(); // compiles the wasm: once a process
    await ready;
    const s = vc.scene(req, 2);
    vc.noThreshold(s, "Rapier");
    const world = new RAPIER.World({ x: s.gravity[0], y: s.gravity[1] });
    const w = s.wall;
    // friction and restitution combine by their average by default
    // (CoefficientCombineRule.Average): the same value on both gives it
    const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(w.centre[0], w.centre[1]));
    world.createCollider(RAPIER.ColliderDesc.cuboid(w.half[0], w.half[1]).setFriction(s.friction)
      .setRestitution(s.restitution), ground);
    let desc = RAPIER.RigidBodyDesc.dynamic().setTranslation(s.c0[0], s.c0[1]).setLinvel(s.u0[0], s.u0[1])
      .setCcdEnabled(o.ccd === "on");
    if (s.lockRotation) desc = desc.lockRotations();
    const body = world.createRigidBody(desc);
    const shape = s.ball ? RAPIER.ColliderDesc.ball(s.radius) : RAPIER.ColliderDesc.cuboid(s.boxHalf[0], s.boxHalf[1]);
    world.createCollider(shape.setFriction(s.friction).setRestitution(s.restitution).setMass(s.mass), body);
    return {
      step(h) {
        world.timestep = h; // stored as f32: the step taken is f32(h)
        world.step();
        const c = body.translation(), v = body.linvel();
        return s.row([c.x, c.y], [v.x, v.y]);
      },
      free() { world.free(); },
    };
  },
});
