#!/usr/bin/env node
// MuJoCo (@mujoco/mujoco 3.12.0, the WebAssembly build in doubles) as a
// verletbench engine of a rigid body on the ground, protocol 4 with a body
// (docs/real-engines.md §6.5): the ball of roll or the cube of box-incline on
// its inclined plane.  Source lines are tag 3.12.0's, src/engine/... and
// src/user/....
//
// The scene, fair and stated (issue 54.2):
//   - the ground is a plane geom through n offset, its z axis turned onto the
//     request's normal n (a plane's normal is its frame's z:
//     engine_collision_primitive.c:34-36); the body a sphere geom of radius R
//     or a box geom of the half-edges, on a body with a free joint at the
//     request's x0 and q0;
//   - friction: MuJoCo combines two geoms of equal priority by the larger
//     coefficient, per component (engine_collision_driver.c:1818-1820, "friction:
//     max"; condim the larger, :1745-1746), so both geoms get friction="mu 0 0"
//     and the contact's is mu.  condim 3 (the default, user_init.c:125): sliding
//     friction only, no torsional nor rolling friction (rolling resistance 0);
//     MuJoCo has one coefficient, so a contact whose static and kinetic
//     coefficients differ is refused;
//   - inertia: <inertial mass diaginertia> as the request gives it (k m R^2, or
//     m a^2/6 for the cube): no inertia from the geoms.  MuJoCo's own for a
//     sphere geom is the solid 2/5 m R^2 and for a box m (b^2 + c^2)/12 (shellinertia
//     false), the same as the cases' (k = 2/5);
//   - no damping (dof_damping 0), no sleeping (mjENBL_SLEEP off), no speed cap:
//     nothing to switch off;
//   - restitution: MuJoCo has no coefficient of restitution (a contact is a
//     spring-damper, solref): e > 0 is refused; the cases have e = 0;
//   - its defaults otherwise: solref (0.02, 1), solimp (0.9, 0.95, 0.001, 0.5,
//     2), the pyramidal cone, impratio 1, Newton with 100 iterations, no noslip
//     (engine_init.c:59-97), margin 0, integrator Euler.
// Options: the settings its users reach for (google-deepmind/mujoco#3328,
// #3349): cone=elliptic, impratio=, noslip= (noslip_iterations), integrator=.
"use strict";
const vb = require("../lib/vbengine.js");
const { zTo } = require("../lib/vbcontact.js");

let mujoco = null;
const num = (x) => String(x); // shortest text that reads back as the same double

vb.main({
  name: "mujoco-contact",
  engine: vb.npmEngine("@mujoco/mujoco"),
  // a free joint's angular velocity, qvel[3..5], is in the body's frame
  // (engine_support.c:662-664)
  angvel: "body",
  options: {
    cone: ["pyramidal", "elliptic"], impratio: "1", noslip: "0",
    integrator: ["Euler", "implicitfast", "implicit", "RK4"],
  },
  async bodyContact(req, o) {
    if (!mujoco) mujoco = await (await import("@mujoco/mujoco")).default();
    const c = req.contact, b = req.body, [I1, I2, I3] = b.inertia;
    if (c.friction_kinetic !== c.friction_static)
      throw new vb.RequestError(`the request's contact has mu_s = ${c.friction_static} and mu_k = ` +
        `${c.friction_kinetic}: MuJoCo has one friction coefficient`);
    if (c.restitution > 0)
      throw new vb.RequestError(`the request's contact 'restitution' is ${c.restitution}: MuJoCo has no ` +
        "coefficient of restitution (its contact is a spring-damper, solref): want 0");
    const impratio = Number(o.impratio), noslip = Number(o.noslip);
    if (!(impratio > 0)) throw new vb.RequestError(`impratio=${o.impratio}: want a number > 0`);
    if (!(Number.isInteger(noslip) && noslip >= 0)) throw new vb.RequestError(`noslip=${o.noslip}: want a whole number >= 0`);
    const n = c.wall.normal, mu = num(c.friction);
    const geom = c.shape.kind === "ball"
      ? `type="sphere" size="${num(c.shape.radius)}"`
      : `type="box" size="${c.shape.edges.map((e) => num(e / 2)).join(" ")}"`;
    const xml = `<mujoco model="verletbench-body-contact">
  <option timestep="${num(req.h[0] || 0.01)}" gravity="${b.gravity.map(num).join(" ")}" integrator="${o.integrator}"
          cone="${o.cone}" impratio="${num(impratio)}" noslip_iterations="${noslip}"/>
  <worldbody>
    <geom name="ground" type="plane" size="0 0 1" pos="${n.map((x) => num(x * c.wall.offset)).join(" ")}"
          quat="${zTo(n).map(num).join(" ")}" friction="${mu} 0 0"/>
    <body name="body">
      <freejoint/>
      <inertial pos="0 0 0" mass="${num(b.mass)}" diaginertia="${num(I1)} ${num(I2)} ${num(I3)}"/>
      <geom name="shape" ${geom} friction="${mu} 0 0"/>
    </body>
  </worldbody>
</mujoco>`;
    const model = mujoco.MjModel.from_xml_string(xml);
    const data = new mujoco.MjData(model);
    // qpos: x, y, z, qw, qx, qy, qz (w first, world from body); qvel: v
    // (world frame), w (body frame)
    data.qpos.set([...b.x0, ...b.q0]);
    data.qvel.set([...b.v0, ...b.w0_body]);
    return {
      step(h) {
        model.opt.timestep = h; // mj_step takes m->opt.timestep (engine_forward.c:1367, :1373)
        mujoco.mj_step(model, data);
        const p = data.qpos, v = data.qvel;
        return [p[0], p[1], p[2], p[3], p[4], p[5], p[6], v[0], v[1], v[2], v[3], v[4], v[5]];
      },
      free() {
        data.delete();
        model.delete();
      },
    };
  },
});
