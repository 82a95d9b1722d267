#!/usr/bin/env node
// Jolt Physics (jolt-physics: JoltPhysics.js, Jolt compiled to wasm, float32)
// as a verletbench engine of one rigid body, protocol 3.  engines/jolt/README.md
// says how the request maps onto the engine; docs/real-engines.md, "Adapting a
// 3D engine", what the step is, with Jolt's source lines.
"use strict";
const vb = require("../lib/vbengine.js");

let Jolt = null;
const LAYER = 0;

// One physics system a request (a run must not see another's), built as
// JoltPhysics.js's examples build one: one object layer, one broad-phase layer.
function physicsSystem() {
  const settings = new Jolt.JoltSettings();
  const pairs = new Jolt.ObjectLayerPairFilterTable(1);
  const layers = new Jolt.BroadPhaseLayerInterfaceTable(1, 1);
  layers.MapObjectToBroadPhaseLayer(LAYER, new Jolt.BroadPhaseLayer(0));
  settings.mObjectLayerPairFilter = pairs;
  settings.mBroadPhaseLayerInterface = layers;
  settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(layers, 1, pairs, 1);
  const jolt = new Jolt.JoltInterface(settings); // takes the filters
  Jolt.destroy(settings);
  return jolt;
}

vb.main({
  name: "jolt",
  engine: vb.npmEngine("jolt-physics"),
  precision: "float32", // Jolt's float build (JoltPhysics.js CMakeLists.txt: DOUBLE_PRECISION OFF)
  angvel: "world", // Body::GetAngularVelocity is world space (MotionProperties.h)
  options: { gyro: ["off", "on"], defaults: ["off", "engine"] },
  async body(req, o) {
    if (!Jolt) Jolt = await (await import("jolt-physics")).default();
    const b = req.body, V = (a) => new Jolt.Vec3(a[0], a[1], a[2]);
    const jolt = physicsSystem(), system = jolt.GetPhysicsSystem(), bodies = system.GetBodyInterface();
    system.SetGravity(V(b.gravity));
    // The shape is only for collisions, and the body is alone: a box of the
    // request's edges where it has one, else a sphere.  Its mass properties
    // are not the shape's: MassAndInertiaProvided takes mass and the inertia
    // tensor diag(I1, I2, I3) as they are.  Jolt then diagonalises that tensor
    // and sorts the moments largest first (MassProperties.cpp:24-49): its
    // inertia frame is a fixed rotation of the body's (a quarter turn about y
    // for I1 < I2 < I3), which the step undoes (MotionProperties.inl:112).
    const shape = b.box ? new Jolt.BoxShape(new Jolt.Vec3(b.box[0] / 2, b.box[1] / 2, b.box[2] / 2), 0.05, null)
      : new Jolt.SphereShape(0.5, null);
    const cs = new Jolt.BodyCreationSettings(shape, new Jolt.RVec3(b.x0[0], b.x0[1], b.x0[2]),
      new Jolt.Quat(b.q0[1], b.q0[2], b.q0[3], b.q0[0]), Jolt.EMotionType_Dynamic, LAYER); // x, y, z, w
    cs.mOverrideMassProperties = Jolt.EOverrideMassProperties_MassAndInertiaProvided;
    const mp = cs.mMassPropertiesOverride;
    mp.mMass = b.mass;
    mp.mInertia = Jolt.Mat44.prototype.sScaleVec3(V(b.inertia));
    cs.mLinearVelocity = V(b.v0);
    cs.mAngularVelocity = V(b.w0_world);
    cs.mApplyGyroscopicForce = o.gyro === "on"; // off by default (BodyCreationSettings.h:103)
    if (o.defaults === "off") {
      // BodyCreationSettings.h:106-112: damping 0.05 both (v *= 1 - c h a
      // step, MotionProperties.inl:143-144), |w| capped at 0.25 pi 60 = 47.1
      // rad/s (:39-40), sleeping allowed
      cs.mLinearDamping = 0;
      cs.mAngularDamping = 0;
      cs.mMaxAngularVelocity = 3.4e38; // its square is inf in float: never clamps
      cs.mMaxLinearVelocity = 3.4e38;
      cs.mAllowSleeping = false;
    }
    const body = bodies.CreateBody(cs);
    Jolt.destroy(cs);
    bodies.AddBody(body.GetID(), Jolt.EActivation_Activate);
    return {
      step(h) {
        jolt.Step(h, 1); // PhysicsSystem::Update(h, 1 collision step): one step of h, as f32
        const p = body.GetCenterOfMassPosition(), q = body.GetRotation(), v = body.GetLinearVelocity(),
          w = body.GetAngularVelocity();
        return [p.GetX(), p.GetY(), p.GetZ(), q.GetW(), q.GetX(), q.GetY(), q.GetZ(),
          v.GetX(), v.GetY(), v.GetZ(), w.GetX(), w.GetY(), w.GetZ()];
      },
      free() {
        bodies.RemoveBody(body.GetID());
        bodies.DestroyBody(body.GetID());
        Jolt.destroy(jolt);
      },
    };
  },
});
