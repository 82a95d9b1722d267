#!/usr/bin/env node
// Havok (@babylonjs/havok: Havok's physics compiled to wasm for Babylon.js,
// float32, closed source) as a verletbench engine of one rigid body, protocol
// 3.  engines/havok/README.md says how the request maps onto the engine and
// what was measured: there is no source to read.
"use strict";
const vb = require("../lib/vbengine.js");
const { load, ok, stepState } = require("./havok.js");

vb.main({
  name: "havok",
  engine: vb.npmEngine("@babylonjs/havok"),
  precision: "float32",
  // measured: without torque the world angular velocity holds on a tumbling
  // body (engines/havok/README.md), so its frame is the world's
  angvel: "world",
  options: { defaults: ["off", "engine"] },
  async body(req, o) {
    const HK = await load();
    const b = req.body, [I1, I2, I3] = b.inertia, m = b.mass;
    const [r0, world] = HK.HP_World_Create();
    ok(r0, "HP_World_Create");
    ok(HK.HP_World_SetGravity(world, b.gravity), "HP_World_SetGravity");
    // The shape is only for collisions, and the body is alone: a box of the
    // request's edges where it has one, else a sphere.
    const [r1, shape] = b.box ? HK.HP_Shape_CreateBox([0, 0, 0], [0, 0, 0, 1], b.box)
      : HK.HP_Shape_CreateSphere([0, 0, 0], 0.5);
    ok(r1, "HP_Shape_Create");
    const [r2, body] = HK.HP_Body_Create();
    ok(r2, "HP_Body_Create");
    ok(HK.HP_Body_SetShape(body, shape), "HP_Body_SetShape");
    ok(HK.HP_Body_SetMotionType(body, HK.MotionType.DYNAMIC), "HP_Body_SetMotionType");
    // MassProperties: centre of mass, mass, the inertia "for mass of 1"
    // (HavokPhysics.d.ts; measured: an angular impulse J gives J / (m I)), its
    // orientation (x, y, z, w): the body's axes are its principal axes
    ok(HK.HP_Body_SetMassProperties(body, [[0, 0, 0], m, [I1 / m, I2 / m, I3 / m], [0, 0, 0, 1]]),
      "HP_Body_SetMassProperties");
    ok(HK.HP_Body_SetQTransform(body, [b.x0, [b.q0[1], b.q0[2], b.q0[3], b.q0[0]]]), "HP_Body_SetQTransform");
    ok(HK.HP_World_AddBody(world, body, false), "HP_World_AddBody");
    if (o.defaults === "off") {
      // measured defaults: angular damping 0.1 (w *= 1 - 0.1 h a step), linear
      // 0; a speed limit of 200 m/s and 100 rad/s (HP_World_GetSpeedLimit);
      // bodies may sleep (ActivationControl.SIMULATION_CONTROLLED); and an
      // "ideal step" of 1/60 s (HP_World_SetIdealStepTime): a step h is then
      // taken as round(240 h) substeps, at most 8, and a step longer than
      // 0.043 s simulates only 0.043 s (engines/havok/README.md).  With 0 every
      // step is h, in 4 substeps.
      ok(HK.HP_World_SetIdealStepTime(world, 0), "HP_World_SetIdealStepTime");
      ok(HK.HP_Body_SetLinearDamping(body, 0), "HP_Body_SetLinearDamping");
      ok(HK.HP_Body_SetAngularDamping(body, 0), "HP_Body_SetAngularDamping");
      ok(HK.HP_World_SetSpeedLimit(world, 3.4e38, 3.4e38), "HP_World_SetSpeedLimit");
      ok(HK.HP_Body_SetActivationControl(body, HK.ActivationControl.ALWAYS_ACTIVE), "HP_Body_SetActivationControl");
    }
    ok(HK.HP_Body_SetLinearVelocity(body, b.v0), "HP_Body_SetLinearVelocity");
    ok(HK.HP_Body_SetAngularVelocity(body, b.w0_world), "HP_Body_SetAngularVelocity");
    return {
      step: (h) => stepState(world, body, h),
      free() {
        HK.HP_World_RemoveBody(world, body);
        HK.HP_Body_Release(body);
        HK.HP_Shape_Release(shape);
        HK.HP_World_Release(world);
      },
    };
  },
});
