#!/usr/bin/env node
// Rapier 3-D (@dimforge/rapier3d-compat: Rust compiled to wasm, float32) as a
// verletbench engine of one rigid body, protocol 3.  engines/rapier3d/README.md
// says how the request maps onto the engine; docs/real-engines.md, "Adapting a
// 3D engine", what the step is, with Rapier's source lines.
"use strict";
// Liftoff alone, as engines/rapier/adapter.js: the same bytes, a fifth of the
// start-up time (compile=turbofan for long runs)
if (!process.argv.includes("compile=turbofan")) require("v8").setFlagsFromString("--liftoff-only");
const RAPIER = require("@dimforge/rapier3d-compat");
const vb = require("../lib/vbengine.js");

// numSolverIterations is also the number of substeps a step, and the
// gyroscopic correction and the rotation are applied at every substep
// (src/dynamics/solver/staged_island_solver/worker.rs:227-267, :611)
const iters = +((process.argv.find((a) => a.startsWith("iters=")) || "iters=4").slice(6));
let ready = null;
vb.main({
  name: "rapier3d",
  engine: vb.npmEngine("@dimforge/rapier3d-compat"),
  precision: "float32",
  angvel: "world", // RigidBody.angvel() is world space
  substeps: Number.isInteger(iters) && iters > 0 ? iters : undefined,
  options: { iters: "4", defaults: ["off", "engine"], compile: ["liftoff", "turbofan"] },
  async body(req, o) {
    if (!ready) ready = RAPIER.init(); // compiles the wasm: once a process
    await ready;
    if (!(Number.isInteger(o.iters) && o.iters >= 1)) throw new vb.RequestError("iters must be a whole number >= 1");
    const b = req.body, [I1, I2, I3] = b.inertia;
    const world = new RAPIER.World({ x: b.gravity[0], y: b.gravity[1], z: b.gravity[2] });
    world.numSolverIterations = o.iters;
    // No collider: all of the mass is "additional" mass, with the principal
    // moments as they are in the frame given (identity: the body's axes are its
    // principal axes).  A collider would add its own mass and inertia.
    let desc = RAPIER.RigidBodyDesc.dynamic()
      .setTranslation(b.x0[0], b.x0[1], b.x0[2])
      .setRotation({ x: b.q0[1], y: b.q0[2], z: b.q0[3], w: b.q0[0] }) // w last
      .setLinvel(b.v0[0], b.v0[1], b.v0[2])
      .setAngvel({ x: b.w0_world[0], y: b.w0_world[1], z: b.w0_world[2] })
      .setAdditionalMassProperties(b.mass, { x: 0, y: 0, z: 0 }, { x: I1, y: I2, z: I3 }, { x: 0, y: 0, z: 0, w: 1 });
    // Damping is 0 by default; a body may sleep (setCanSleep, true by default);
    // |w| is capped at (pi/4)/h a substep (worker.rs:569-601, MAX_ROTATION
    // :29) unless allow_fast_rotation, which the JS API does not expose
    if (o.defaults === "off") desc = desc.setLinearDamping(0).setAngularDamping(0).setCanSleep(false);
    const body = world.createRigidBody(desc);
    return {
      step(h) {
        world.timestep = h; // stored as f32: the step taken is f32(h)
        world.step();
        const p = body.translation(), q = body.rotation(), v = body.linvel(), w = body.angvel();
        return [p.x, p.y, p.z, q.w, q.x, q.y, q.z, v.x, v.y, v.z, w.x, w.y, w.z];
      },
      free() { world.free(); },
    };
  },
});
