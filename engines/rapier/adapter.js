#!/usr/bin/env node
// Rapier 2-D (@dimforge/rapier2d-compat: Rust compiled to wasm, float32) as a
// verletbench engine.  engines/rapier/README.md says how the request maps
// onto the engine, and why.
"use strict";
// V8 compiles the 2.4 MB wasm twice, Liftoff first, then TurboFan in the
// background, which a process waits for at its exit: about 1 s of processor
// time a process.  Liftoff alone computes the same bytes (IEEE arithmetic is
// the same code either way) in a fifth of the time; TurboFan is faster only
// after ~250 000 steps in one process (compile=turbofan).
if (!process.argv.includes("compile=turbofan")) require("v8").setFlagsFromString("--liftoff-only");
const RAPIER = require("@dimforge/rapier2d-compat");
const vb = require("../lib/vbengine.js");

// numSolverIterations is also the number of substeps a step (init.rs:81, :101)
const iters = +((process.argv.find((a) => a.startsWith("iters=")) || "iters=4").slice(6));
let ready = null;
vb.main({
  name: "rapier",
  engine: vb.npmEngine("@dimforge/rapier2d-compat"),
  precision: "float32",
  substeps: Number.isInteger(iters) && iters > 0 ? iters : undefined,
  options: { iters: "4", gravity: ["engine", "force"], compile: ["liftoff", "turbofan"] },
  async make(req, o) {
    if (!ready) ready = RAPIER.init(); // compiles the wasm: once a process
    await ready;
    const dim = req.dim, m = req.masses[0];
    if (req.particles !== 1 || dim > 2) throw new vb.RequestError("this adapter drives one particle in 1-D or 2-D");
    if (!(Number.isInteger(o.iters) && o.iters >= 1)) throw new vb.RequestError("iters must be a whole number >= 1");
    const accel = vb.forceLaw(req.model, req.params, dim);
    const g = o.gravity === "engine" ? vb.gravityOf(req) : null;
    const world = new RAPIER.World({ x: 0, y: g === null ? 0 : g });
    world.numSolverIterations = o.iters;
    // no collider: all of the mass is "additional" mass (a body without one has
    // mass 0, and then even gravity does nothing); no rotational inertia
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic()
      .setTranslation(req.x0[0], dim > 1 ? req.x0[1] : 0)
      .setLinvel(req.v0[0], dim > 1 ? req.v0[1] : 0)
      .setLinearDamping(0).setAngularDamping(0)
      .setCanSleep(false)
      .setAdditionalMassProperties(m, { x: 0, y: 0 }, 0));
    if (vb.ROD_MODELS.has(req.model)) {
      if (req.rods.length !== 1 || req.rods[0].j !== -1) throw new vb.RequestError("one rod to a pivot only");
      const r = req.rods[0], ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
      // a rope joint: at most L from the pivot.  Taut throughout, since the
      // pendulum's tension m g (3 cos th - 2 cos th0) > 0 from th0 = 1 rad;
      // a revolute joint would need the bob to rotate (inertia)
      world.createImpulseJoint(RAPIER.JointData.rope(r.length, { x: r.pivot[0], y: r.pivot[1] }, { x: 0, y: 0 }),
        ground, body, true);
    }
    return {
      step(h) {
        if (g === null) {
          const p = body.translation(), v = body.linvel();
          const a = accel(dim > 1 ? [p.x, p.y] : [p.x], dim > 1 ? [v.x, v.y] : [v.x]);
          // user forces persist until reset (rigid_body.rs:1145, :1209-1211)
          body.resetForces(false);
          body.addForce({ x: m * a[0], y: dim > 1 ? m * a[1] : 0 }, true);
        }
        world.timestep = h; // stored as f32: the step taken is f32(h)
        world.step();
        const p = body.translation(), v = body.linvel();
        return dim > 1 ? [[p.x, p.y], [v.x, v.y]] : [[p.x], [v.x]];
      },
      free() { world.free(); },
    };
  },
});
