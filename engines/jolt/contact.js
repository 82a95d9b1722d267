#!/usr/bin/env node
// Jolt Physics (jolt-physics 1.1.0: Jolt v5.6.0 compiled to wasm, float32) as a
// verletbench engine of a rigid body on the ground, protocol 4 with a body
// (docs/real-engines.md §6.5): the ball of roll or the cube of box-incline on
// its inclined plane.  Source lines are jrouwe/JoltPhysics 3b47ec39's, as in
// docs/real-engines.md §5 (Jolt/...).
//
// The scene, fair and stated (issue 54.2):
//   - the ground is a static PlaneShape (n.x + c = 0 with c = -offset: a
//     half-space, ground=plane) or a static BoxShape 1 m thick turned onto the
//     normal, its top face the plane, 10 m either side or the first power of
//     ten beyond twice the run's reach (ground=box, what JoltPhysics#2121's
//     reporter used); the body a SphereShape of radius R or a BoxShape of the
//     half-edges, with a convex radius of 0 (a box's rounded edges would move
//     its corners), at x0 and q0;
//   - friction: Jolt combines two bodies' coefficients as sqrt(f1 f2)
//     (ContactConstraintManager.h:554, mCombineFriction's default), so both get
//     mu and the contact's is sqrt(mu^2) = mu; restitution by the larger
//     (:555), both e; Jolt has one coefficient: mu_s != mu_k is refused;
//   - inertia: MassAndInertiaProvided, the request's mass and diag(I) (a
//     SphereShape's own is the solid 2/5 m R^2 at its density, 1000 kg/m^3 by
//     default: SphereShape.cpp GetMassProperties);
//   - damping 0 (its default 0.05 both, BodyCreationSettings.h:109-110), no
//     sleeping (allowed by default, :106), the speed caps lifted (|w| <= 47.1
//     rad/s by default, :111-112); Jolt has no rolling resistance;
//   - its defaults otherwise: 10 velocity and 2 position steps, Baumgarte 0.2,
//     speculative contacts within 0.02 m, penetration slop 0.02 m
//     (PhysicsSettings.h:45-111), a Discrete body (no linear cast,
//     BodyCreationSettings.h:104), warm starting, one collision step a step.
// A stack (protocol 5, docs/real-engines.md §7): n boxes of the request's
// bodies on the same ground, every box mu and e (the pair's sqrt(mu mu) = mu,
// max(e, e) = e), the same damping, sleeping and caps; box on box collides
// (the two layers' MOVING-MOVING pair enabled, nothing else changes for one
// body).
// Options: the settings its users reach for: ground=plane|box, spec= (the
// speculative contact distance, m), ccd=on (EMotionQuality LinearCast),
// iterations= and piter= (velocity and position steps, mNumVelocitySteps 10
// and mNumPositionSteps 2, PhysicsSettings.h:84-87), substeps= (collision
// steps a step: PhysicsSystem::Update(h, N) runs N whole steps of h/N,
// PhysicsSystem.cpp:215, :269), warm=on|off (mConstraintWarmStart, on by
// default, PhysicsSettings.h:111: a contact point within 1 cm of last step's
// starts from its impulse, mContactPointPreserveLambdaMaxDistSq, :77).
"use strict";
const vb = require("../lib/vbengine.js");
const { zTo, groundReach } = require("../lib/vbcontact.js");

let Jolt = null;
const STATIC = 0, MOVING = 1;

// One physics system a request (a run must not see another's): two object
// layers, the ground's and the body's, that collide
function physicsSystem() {
  const settings = new Jolt.JoltSettings();
  const pairs = new Jolt.ObjectLayerPairFilterTable(2);
  pairs.EnableCollision(STATIC, MOVING);
  pairs.EnableCollision(MOVING, MOVING); // a stack's boxes on each other
  const layers = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
  layers.MapObjectToBroadPhaseLayer(STATIC, new Jolt.BroadPhaseLayer(0));
  layers.MapObjectToBroadPhaseLayer(MOVING, new Jolt.BroadPhaseLayer(1));
  settings.mObjectLayerPairFilter = pairs;
  settings.mBroadPhaseLayerInterface = layers;
  settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(layers, 2, pairs, 2);
  const jolt = new Jolt.JoltInterface(settings); // takes the filters
  Jolt.destroy(settings);
  return jolt;
}

// the Jolt box or sphere of the contact's shape, convex radius 0 (a box's
// rounded edges would move its corners)
function bodyShape(c) {
  return c.shape.kind === "ball" ? new Jolt.SphereShape(c.shape.radius, null)
    : new Jolt.BoxShape(new Jolt.Vec3(c.shape.edges[0] / 2, c.shape.edges[1] / 2, c.shape.edges[2] / 2), 0, null);
}

// The world of a rigid body on the ground or of a stack: the ground and one
// dynamic body of the contact's shape a request body (`list`: [req.body] or
// req.bodies, bottom first), stepped together; step(h) returns 13 numbers a
// body, in the list's order.
function world(req, o, list) {
  const c = req.contact, g = list[0].gravity, V = (a) => new Jolt.Vec3(a[0], a[1], a[2]);
  if (c.friction_kinetic !== c.friction_static)
    throw new vb.RequestError(`the request's contact has mu_s = ${c.friction_static} and mu_k = ` +
      `${c.friction_kinetic}: Jolt has one friction coefficient`);
  list.forEach((b, k) => {
    if (b.gravity.some((x, i) => x !== g[i]))
      throw new vb.RequestError(`the request's bodies[${k + 1}] 'gravity' is not bodies[1]'s: Jolt has one gravity`);
  });
  const spec = Number(o.spec), viter = Number(o.iterations), piter = Number(o.piter), steps = Number(o.substeps);
  if (!(spec >= 0)) throw new vb.RequestError(`spec=${o.spec}: want a distance >= 0 (m)`);
  if (!(Number.isInteger(viter) && viter >= 1))
    throw new vb.RequestError(`iterations=${o.iterations}: want a whole number >= 1`);
  if (!(Number.isInteger(piter) && piter >= 0)) throw new vb.RequestError(`piter=${o.piter}: want a whole number >= 0`);
  if (!(Number.isInteger(steps) && steps >= 1))
    throw new vb.RequestError(`substeps=${o.substeps}: want a whole number >= 1`);
  const jolt = physicsSystem(), system = jolt.GetPhysicsSystem(), bodies = system.GetBodyInterface();
  system.SetGravity(V(g));
  const ps = system.GetPhysicsSettings();
  ps.mSpeculativeContactDistance = spec;
  ps.mNumVelocitySteps = viter;
  ps.mNumPositionSteps = piter;
  ps.mConstraintWarmStart = o.warm === "on";
  system.SetPhysicsSettings(ps);
  const n = c.wall.normal;
  // the ground, static, its friction and restitution mu and e
  let groundShape, groundAt, groundQ = [1, 0, 0, 0];
  if (o.ground === "plane") {
    groundShape = new Jolt.PlaneShape(new Jolt.Plane(V(n), -c.wall.offset), null, 1000);
    groundAt = [0, 0, 0];
  } else {
    // 10 m either side, or the first power of ten beyond twice as far as
    // the run could carry the body: a float32 box's contacts lose digits
    // with its size
    const reach = Math.max(...list.map((b) => groundReach(req, b)));
    groundShape = new Jolt.BoxShape(new Jolt.Vec3(reach, reach, 1), 0, null);
    groundQ = zTo(n);
    groundAt = n.map((x) => x * (c.wall.offset - 1));
  }
  const gs = new Jolt.BodyCreationSettings(groundShape, new Jolt.RVec3(groundAt[0], groundAt[1], groundAt[2]),
    new Jolt.Quat(groundQ[1], groundQ[2], groundQ[3], groundQ[0]), Jolt.EMotionType_Static, STATIC);
  gs.mFriction = c.friction;
  gs.mRestitution = c.restitution;
  const ground = bodies.CreateBody(gs);
  Jolt.destroy(gs);
  bodies.AddBody(ground.GetID(), Jolt.EActivation_DontActivate);
  const made = list.map((b) => {
    const cs = new Jolt.BodyCreationSettings(bodyShape(c), new Jolt.RVec3(b.x0[0], b.x0[1], b.x0[2]),
      new Jolt.Quat(b.q0[1], b.q0[2], b.q0[3], b.q0[0]), Jolt.EMotionType_Dynamic, MOVING); // x, y, z, w
    cs.mOverrideMassProperties = Jolt.EOverrideMassProperties_MassAndInertiaProvided;
    const mp = cs.mMassPropertiesOverride;
    mp.mMass = b.mass;
    mp.mInertia = Jolt.Mat44.prototype.sScaleVec3(V(b.inertia));
    cs.mLinearVelocity = V(b.v0);
    cs.mAngularVelocity = V(b.w0_world);
    cs.mFriction = c.friction;
    cs.mRestitution = c.restitution;
    cs.mLinearDamping = 0;
    cs.mAngularDamping = 0;
    cs.mMaxAngularVelocity = 3.4e38; // its square is inf in float: never clamps
    cs.mMaxLinearVelocity = 3.4e38;
    cs.mAllowSleeping = false;
    if (o.ccd === "on") cs.mMotionQuality = Jolt.EMotionQuality_LinearCast;
    const body = bodies.CreateBody(cs);
    Jolt.destroy(cs);
    bodies.AddBody(body.GetID(), Jolt.EActivation_Activate);
    return body;
  });
  return {
    step(h) {
      jolt.Step(h, steps); // PhysicsSystem::Update(h, N collision steps), N = 1 by default
      const s = [];
      for (const body of made) {
        const p = body.GetCenterOfMassPosition(), q = body.GetRotation(), v = body.GetLinearVelocity(),
          w = body.GetAngularVelocity();
        s.push(p.GetX(), p.GetY(), p.GetZ(), q.GetW(), q.GetX(), q.GetY(), q.GetZ(),
          v.GetX(), v.GetY(), v.GetZ(), w.GetX(), w.GetY(), w.GetZ());
      }
      return s;
    },
    free() {
      for (const x of [...made, ground]) {
        bodies.RemoveBody(x.GetID());
        bodies.DestroyBody(x.GetID());
      }
      Jolt.destroy(jolt);
    },
  };
}

async function load() {
  if (!Jolt) Jolt = await (await import("jolt-physics")).default();
}

vb.main({
  name: "jolt-contact",
  engine: vb.npmEngine("jolt-physics"),
  precision: "float32", // JoltPhysics.js CMakeLists.txt: DOUBLE_PRECISION OFF
  angvel: "world", // Body::GetAngularVelocity is world space (MotionProperties.h)
  options: { ground: ["plane", "box"], spec: "0.02", ccd: ["off", "on"], iterations: "10", piter: "2", substeps: "1",
    warm: ["on", "off"] },
  async bodyContact(req, o) {
    await load();
    return world(req, o, [req.body]);
  },
  async stack(req, o) {
    await load();
    return world(req, o, req.bodies);
  },
});
