#!/usr/bin/env node
// Havok (@babylonjs/havok 1.3.14: Havok's physics compiled to wasm for
// Babylon.js, float32, closed source) as a verletbench engine of a rigid body
// on the ground, protocol 4 with a body (docs/real-engines.md §6.5): the ball
// of roll or the cube of box-incline on its inclined plane.  Havok's core is
// closed: what is cited is its typings (node_modules/@babylonjs/havok/
// HavokPhysics.d.ts, lines named) and Babylon.js's own plugin
// (packages/dev/core/src/Physics/v2/Plugins/havokPlugin.ts, BabylonJS/Babylon.js
// 01003396); the rest was measured through this adapter
// (engines/havok/README.md).
//
// The scene, fair and stated (issue 54.2):
//   - the ground is a static box 1 m thick turned onto the normal, its top face
//     the plane, 10 m either side or the first power of ten beyond twice the
//     run's reach (Havok has no plane or half-space shape: the typings'
//     HP_Shape_Create* are a sphere, capsule, cylinder, box, convex hull, mesh
//     and height field, HavokPhysics.d.ts:248-269); the body HP_Shape_CreateSphere
//     of radius R or HP_Shape_CreateBox of the edges (its "extents", the total
//     size, :253-257), at x0 and q0 (quaternions x, y, z, w: :3);
//   - friction: a shape's material is [static friction, dynamic friction,
//     restitution, friction combine mode, restitution combine mode] (the
//     PhysicsMaterial type, HavokPhysics.d.ts:117-123), the modes
//     GEOMETRIC_MEAN, MINIMUM, MAXIMUM, ARITHMETIC_MEAN, MULTIPLY (:70-76).
//     Both shapes get [mu_s, mu_k, e, GEOMETRIC_MEAN, GEOMETRIC_MEAN], so every
//     mean of the two is the case's mu_s and mu_k and e (MULTIPLY alone would
//     give mu^2).  GEOMETRIC_MEAN is what a new shape has (measured:
//     HP_Shape_GetMaterial gives [0.5, 0.5, 0, GEOMETRIC_MEAN, GEOMETRIC_MEAN]);
//     Babylon.js's HavokPlugin.setMaterial sets MINIMUM for friction and
//     MAXIMUM for restitution where its user names none, friction 0.5,
//     staticFriction = friction.  What cannot be read: which shape's mode
//     wins where the two differ, and when the static coefficient gives way to
//     the dynamic one (the core is closed);
//   - inertia: HP_Body_SetMassProperties([centre 0, m, I/m, identity]): the
//     inertia is "for mass of 1" (HavokPhysics.d.ts:110-115).  A body's own
//     before it is measured [1, 1, 1] per unit mass, not its shape's: the
//     shape's (HP_Shape_BuildMassProperties, :298-299) is the solid sphere's
//     2/5 R^2 and the cube's a^2/6, what Babylon.js computes for a body whose
//     user gives none;
//   - damping 0 (measured defaults: linear 0, angular 0.1, HP_Body_Set*Damping,
//     :338-345), ActivationControl.ALWAYS_ACTIVE (no sleeping, :83-87, :388),
//     the world's speed limit lifted (HP_World_SetSpeedLimit, :529-532;
//     measured defaults 200 m/s and 100 rad/s: there is no per-body cap).
//     Havok has no rolling resistance in this API;
//   - the ideal step: HP_World_SetIdealStepTime (:524-528) "Defaults to 1/60
//     ... the solver parameters will be automatically adjusted" to a step
//     that differs; the adapter sets 0 ("to disable this behaviour"), where a
//     step is 4 substeps of h/4 (measured, engines/havok/README.md), as the
//     protocol-3 adapter's defaults=off.  ideal=0.016666666666666666 keeps
//     Havok's default: a step of h is then round(240 h) substeps, at most 8.
//   The API has no solver iterations nor substeps to set: the ideal step is
//   the one setting of the step it exposes.
// A stack (protocol 5, docs/real-engines.md §7): n boxes of the request's
// bodies on the same ground, each shape the material above, each body
// ALWAYS_ACTIVE with damping 0; no iterations, substeps or warm starting to
// set (the world's calls, HavokPhysics.d.ts:490-542).
// Options: ideal= (the ideal step time in s; 0, the adapter's default, or
// Havok's own 1/60).
"use strict";
const vb = require("../lib/vbengine.js");
const { zTo, groundReach } = require("../lib/vbcontact.js");
const { load, ok, bodyState } = require("./havok.js");

let HK = null; // the module, once bodyContact has loaded it

// a shape with the contact's material on it: both shapes get the case's
// coefficients, so the geometric mean of the two is the case's
function withMaterial(shape, c) {
  const mean = HK.MaterialCombine.GEOMETRIC_MEAN;
  ok(HK.HP_Shape_SetMaterial(shape, [c.friction_static, c.friction_kinetic, c.restitution, mean, mean]),
    "HP_Shape_SetMaterial");
  return shape;
}

// a static or dynamic body of one shape, at [position, quaternion x y z w]
function addBody(world, shape, motion, at) {
  const [r, body] = HK.HP_Body_Create();
  ok(r, "HP_Body_Create");
  ok(HK.HP_Body_SetShape(body, shape), "HP_Body_SetShape");
  ok(HK.HP_Body_SetMotionType(body, motion), "HP_Body_SetMotionType");
  ok(HK.HP_Body_SetQTransform(body, at), "HP_Body_SetQTransform");
  return body;
}

// The world of a rigid body on the ground or of a stack: the ground and one
// dynamic body of the contact's shape a request body (`list`: [req.body] or
// req.bodies, bottom first), stepped together; step(h) returns 13 numbers a
// body, in the list's order.
function world(req, o, list) {
  const ideal = Number(o.ideal);
  if (!(ideal >= 0 && Number.isFinite(ideal))) throw new vb.RequestError(`ideal=${o.ideal}: want a time >= 0 (s)`);
  const c = req.contact, g = list[0].gravity;
  list.forEach((b, k) => {
    if (b.gravity.some((x, i) => x !== g[i]))
      throw new vb.RequestError(`the request's bodies[${k + 1}] 'gravity' is not bodies[1]'s: Havok has one gravity`);
  });
  const [r0, world] = HK.HP_World_Create();
  ok(r0, "HP_World_Create");
  ok(HK.HP_World_SetGravity(world, g), "HP_World_SetGravity");
  ok(HK.HP_World_SetIdealStepTime(world, ideal), "HP_World_SetIdealStepTime");
  ok(HK.HP_World_SetSpeedLimit(world, 3.4e38, 3.4e38), "HP_World_SetSpeedLimit");
  // the ground: a box 1 m thick under the plane, its top face the plane
  const n = c.wall.normal, reach = Math.max(...list.map((b) => groundReach(req, b))), gq = zTo(n);
  const [r1, groundShape] = HK.HP_Shape_CreateBox([0, 0, 0], [0, 0, 0, 1], [2 * reach, 2 * reach, 2]);
  ok(r1, "HP_Shape_CreateBox");
  withMaterial(groundShape, c);
  const ground = addBody(world, groundShape, HK.MotionType.STATIC,
    [n.map((x) => x * (c.wall.offset - 1)), [gq[1], gq[2], gq[3], gq[0]]]);
  ok(HK.HP_World_AddBody(world, ground, false), "HP_World_AddBody");
  // the bodies, a shape each
  const shapes = [], bodies = list.map((b) => {
    const m = b.mass;
    const [r2, shape] = c.shape.kind === "ball" ? HK.HP_Shape_CreateSphere([0, 0, 0], c.shape.radius)
      : HK.HP_Shape_CreateBox([0, 0, 0], [0, 0, 0, 1], c.shape.edges);
    ok(r2, "HP_Shape_Create");
    withMaterial(shape, c);
    shapes.push(shape);
    const body = addBody(world, shape, HK.MotionType.DYNAMIC, [b.x0, [b.q0[1], b.q0[2], b.q0[3], b.q0[0]]]);
    ok(HK.HP_Body_SetMassProperties(body, [[0, 0, 0], m, b.inertia.map((I) => I / m), [0, 0, 0, 1]]),
      "HP_Body_SetMassProperties");
    ok(HK.HP_Body_SetLinearDamping(body, 0), "HP_Body_SetLinearDamping");
    ok(HK.HP_Body_SetAngularDamping(body, 0), "HP_Body_SetAngularDamping");
    ok(HK.HP_Body_SetActivationControl(body, HK.ActivationControl.ALWAYS_ACTIVE), "HP_Body_SetActivationControl");
    ok(HK.HP_World_AddBody(world, body, false), "HP_World_AddBody");
    ok(HK.HP_Body_SetLinearVelocity(body, b.v0), "HP_Body_SetLinearVelocity");
    ok(HK.HP_Body_SetAngularVelocity(body, b.w0_world), "HP_Body_SetAngularVelocity");
    return body;
  });
  return {
    step(h) {
      ok(HK.HP_World_Step(world, h), "HP_World_Step");
      return bodies.flatMap((body) => bodyState(body));
    },
    free() {
      for (const x of [...bodies, ground]) {
        HK.HP_World_RemoveBody(world, x);
        HK.HP_Body_Release(x);
      }
      for (const x of [...shapes, groundShape]) HK.HP_Shape_Release(x);
      HK.HP_World_Release(world);
    },
  };
}

vb.main({
  name: "havok-contact",
  engine: vb.npmEngine("@babylonjs/havok"),
  precision: "float32",
  // measured: without torque the world angular velocity holds on a tumbling
  // body (engines/havok/README.md), so its frame is the world's
  angvel: "world",
  options: { ideal: "0" },
  async bodyContact(req, o) {
    HK = await load();
    return world(req, o, [req.body]);
  },
  async stack(req, o) {
    HK = await load();
    return world(req, o, req.bodies);
  },
});
