#!/usr/bin/env node
// Rapier 2-D (@dimforge/rapier2d-compat, float32) at a contact: the bounce, the
// slide and the tunnel of issue 44 posed with Rapier's own colliders,
// restitution, friction and CCD setting, stepped by World.step (the poses:
// engines/lib/vbcontact.js; what was measured: docs/contact.md).  Rapier has
// no restitution threshold: a new contact bounces, a persisting one does not
// (unless e >= 1; is_bouncy, src/geometry/contact_pair.rs:756-779 at v0.35.2).
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
  async make(req, o) {
    if (!ready) ready = RAPIER.init(); // compiles the wasm: once a process
    await ready;
    const p = vc.pose(req);
    const world = new RAPIER.World({ x: 0, y: p.gravity });
    const gb = vc.groundBox(req, p);
    // friction and restitution combine by their average by default
    // (CoefficientCombineRule.Average): the same value on both gives it
    const mu = req.model === "slide" ? p.mu : 0, e = req.model === "slide" ? 0 : p.e;
    const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(gb.cx, gb.cy));
    world.createCollider(RAPIER.ColliderDesc.cuboid(gb.hx, gb.hy).setFriction(mu).setRestitution(e), ground);
    let desc = RAPIER.RigidBodyDesc.dynamic().setTranslation(p.c0[0], p.c0[1]).setLinvel(p.u0[0], p.u0[1])
      .setCcdEnabled(o.ccd === "on");
    if (req.model === "slide") desc = desc.lockRotations();
    const body = world.createRigidBody(desc);
    const shape = req.model === "slide" ? RAPIER.ColliderDesc.cuboid(p.size / 2, p.size / 2) : RAPIER.ColliderDesc.ball(p.r);
    world.createCollider(shape.setFriction(mu).setRestitution(e).setMass(p.mass), body);
    return {
      step(h) {
        world.timestep = h; // stored as f32: the step taken is f32(h)
        world.step();
        const c = body.translation(), v = body.linvel();
        return [[c.x, c.y - p.lift], [v.x, v.y]];
      },
      free() { world.free(); },
    };
  },
});
