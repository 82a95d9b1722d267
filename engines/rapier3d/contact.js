#!/usr/bin/env node
// Rapier 3-D (@dimforge/rapier3d-compat 0.21.0, float32) as a verletbench engine
// of a rigid body on the ground, protocol 4 with a body (docs/real-engines.md
// §6.5): the ball of roll or the cube of box-incline on its inclined plane.
// Source lines are dimforge/rapier ccd01cd2's (docs/real-engines.md §5), src/....
//
// The scene, fair and stated (issue 54.2):
//   - the ground is a fixed body with a cuboid collider 1 m thick turned onto
//     the normal, its top face the plane, 10 m either side or the first power
//     of ten beyond twice the run's reach (the JS API has no half-space
//     collider); the body a ball or cuboid collider of density 0 at x0, q0;
//   - friction: Rapier combines two colliders' coefficients by the larger of
//     their rules, Average by default ((f1 + f2)/2,
//     src/dynamics/coefficient_combine_rule.rs:41-42, :61-70), so both get mu
//     and the contact's is mu; restitution likewise, both e.  Rapier has one
//     coefficient (mu_s != mu_k is refused) and no rolling resistance;
//   - inertia: the colliders' density 0 and the request's mass and moments as
//     the body's additional mass properties (a ball collider's own is the
//     solid 2/5 m R^2 at its density);
//   - damping 0 (its default, src/dynamics/rigid_body.rs:1565-1566), no
//     sleeping (setCanSleep(false)); |w| is capped at (pi/4)/h a substep
//     (worker.rs:569-601), not switchable from JS: 188 rad/s at 60 Hz and 4
//     substeps, beyond the rolling ball's 14 rad/s;
//   - its defaults otherwise: 4 solver iterations, which are substeps
//     (worker.rs:227-267), no CCD.
// A stack (protocol 5, docs/real-engines.md §7): n boxes of the request's
// bodies on the same ground, every collider mu and e, the same damping and
// sleeping.  Its contacts are springs of 30 Hz between two bodies and 60 Hz
// on a fixed one, damping ratio 10 (integration_parameters.rs:55-76): a
// loaded stack rests sunk (engines/rapier3d/README.md).
// Options: iters= (numSolverIterations, 4: the substeps, init.rs:95-101),
// iterations= (numInternalPgsIterations, 1: PGS iterations a substep,
// worker.rs:544; integration_parameters.rs:386-389), ccd=on (setCcdEnabled).
// warmstart_coefficient (1, :386) is not in the JS API: no warm=.
"use strict";
if (!process.argv.includes("compile=turbofan")) require("v8").setFlagsFromString("--liftoff-only");
const RAPIER = require("@dimforge/rapier3d-compat");
const vb = require("../lib/vbengine.js");
const { zTo, groundReach } = require("../lib/vbcontact.js");

const iters = +((process.argv.find((a) => a.startsWith("iters=")) || "iters=4").slice(6));
let ready = null;

// The world of a rigid body on the ground or of a stack: the ground and one
// dynamic body of the contact's shape a request body (`list`: [req.body] or
// req.bodies, bottom first), stepped together; step(h) returns 13 numbers a
// body, in the list's order.
function scene(req, o, list) {
  const c = req.contact, g = list[0].gravity;
  if (c.friction_kinetic !== c.friction_static)
    throw new vb.RequestError(`the request's contact has mu_s = ${c.friction_static} and mu_k = ` +
      `${c.friction_kinetic}: Rapier has one friction coefficient`);
  list.forEach((b, k) => {
    if (b.gravity.some((x, i) => x !== g[i]))
      throw new vb.RequestError(`the request's bodies[${k + 1}] 'gravity' is not bodies[1]'s: Rapier has one gravity`);
  });
  const it = Number(o.iters), pgs = Number(o.iterations);
  if (!(Number.isInteger(it) && it >= 1)) throw new vb.RequestError("iters must be a whole number >= 1");
  if (!(Number.isInteger(pgs) && pgs >= 1)) throw new vb.RequestError(`iterations=${o.iterations}: want a whole number >= 1`);
  const world = new RAPIER.World({ x: g[0], y: g[1], z: g[2] });
  world.numSolverIterations = it;
  if (pgs !== 1) world.numInternalPgsIterations = pgs; // 1, its default, is left untouched
  // the ground
  const n = c.wall.normal, reach = Math.max(...list.map((b) => groundReach(req, b)));
  const gq = zTo(n), at = n.map((x) => x * (c.wall.offset - 1));
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(at[0], at[1], at[2])
    .setRotation({ x: gq[1], y: gq[2], z: gq[3], w: gq[0] }));
  world.createCollider(RAPIER.ColliderDesc.cuboid(reach, reach, 1).setFriction(c.friction)
    .setRestitution(c.restitution), ground);
  // the bodies
  const bodies = list.map((b) => {
    const [I1, I2, I3] = b.inertia;
    let desc = RAPIER.RigidBodyDesc.dynamic()
      .setTranslation(b.x0[0], b.x0[1], b.x0[2])
      .setRotation({ x: b.q0[1], y: b.q0[2], z: b.q0[3], w: b.q0[0] })
      .setLinvel(b.v0[0], b.v0[1], b.v0[2])
      .setAngvel({ x: b.w0_world[0], y: b.w0_world[1], z: b.w0_world[2] })
      .setAdditionalMassProperties(b.mass, { x: 0, y: 0, z: 0 }, { x: I1, y: I2, z: I3 }, { x: 0, y: 0, z: 0, w: 1 })
      .setLinearDamping(0).setAngularDamping(0).setCanSleep(false);
    if (o.ccd === "on") desc = desc.setCcdEnabled(true);
    const body = world.createRigidBody(desc);
    const shape = c.shape.kind === "ball" ? RAPIER.ColliderDesc.ball(c.shape.radius)
      : RAPIER.ColliderDesc.cuboid(c.shape.edges[0] / 2, c.shape.edges[1] / 2, c.shape.edges[2] / 2);
    world.createCollider(shape.setDensity(0).setFriction(c.friction).setRestitution(c.restitution), body);
    return body;
  });
  return {
    step(h) {
      world.timestep = h; // stored as f32
      world.step();
      const s = [];
      for (const body of bodies) {
        const p = body.translation(), q = body.rotation(), v = body.linvel(), w = body.angvel();
        s.push(p.x, p.y, p.z, q.w, q.x, q.y, q.z, v.x, v.y, v.z, w.x, w.y, w.z);
      }
      return s;
    },
    free() { world.free(); },
  };
}

vb.main({
  name: "rapier3d-contact",
  engine: vb.npmEngine("@dimforge/rapier3d-compat"),
  precision: "float32",
  angvel: "world", // RigidBody.angvel() is world space
  substeps: Number.isInteger(iters) && iters > 0 ? iters : undefined,
  options: { iters: "4", iterations: "1", ccd: ["off", "on"], compile: ["liftoff", "turbofan"] },
  async bodyContact(req, o) {
    if (!ready) ready = RAPIER.init();
    await ready;
    return scene(req, o, [req.body]);
  },
  async stack(req, o) {
    if (!ready) ready = RAPIER.init();
    await ready;
    return scene(req, o, req.bodies);
  },
});
