#!/usr/bin/env node
// MuJoCo (@mujoco/mujoco 3.12.0, the WebAssembly build in doubles) as a
// verletbench engine of a rigid body on the ground, protocol 4 with a body
// (docs/real-engines.md §6.5): the ball of roll or the cube of box-incline on
// its inclined plane; and of a stack of boxes on the ground, protocol 5 (model
// 'stack', §7).  Source lines are tag 3.12.0's, src/engine/... and
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
// #3349): cone=elliptic, impratio=, noslip= (noslip_iterations), integrator=;
// and a stack's (issue 55): solver=Newton|PGS|CG (Newton, engine_init.c:94),
// iterations=N (the solver's iterations, 100, :95; Newton stops before them
// once its improvement, gradient or decrement is under tolerance 1e-8, :60,
// engine_solver.c:2479-2481; the line search's 50, :96, are not swept),
// warm=on|off (warm starting, on: disableflags 0, :99; the solver starts
// from last step's qacc, saved by mj_advance, engine_forward.c:1394, if its
// cost beats the unconstrained qacc_smooth's, :1059-1111; off starts from
// qacc_smooth with no force, :1120-1125).  MuJoCo has no substeps: none is
// offered.
//
// A stack: n bodies with a free joint each and a box geom, friction "mu 0 0"
// on every geom, so every pair's is mu (the max rule above); margin 0.  A box
// on a box is MuJoCo's box-box collider, a box on the plane its plane-box
// one (up to 4 contacts, its corners under the plane).
"use strict";
const vb = require("../lib/vbengine.js");
const { zTo } = require("../lib/vbcontact.js");
const { resetWarning } = require("./resets.js");

let mujoco = null;
const num = (x) => String(x); // shortest text that reads back as the same double

// <option> of a request: its first step, gravity, and the options
function optionXml(req, gravity, o) {
  return `<option timestep="${num(req.h[0] || 0.01)}" gravity="${gravity.map(num).join(" ")}" integrator="${o.integrator}"
          cone="${o.cone}" impratio="${num(o.impratio)}" noslip_iterations="${o.noslip}"
          solver="${o.solver}" iterations="${o.iterations}">
    <flag warmstart="${o.warm === "on" ? "enable" : "disable"}"/>
  </option>`;
}

// the checks every request with a contact gets: one friction coefficient, no
// restitution, options in range
function checkScene(c, o) {
  if (c.friction_kinetic !== c.friction_static)
    throw new vb.RequestError(`the request's contact has mu_s = ${c.friction_static} and mu_k = ` +
      `${c.friction_kinetic}: MuJoCo has one friction coefficient`);
  if (c.restitution > 0)
    throw new vb.RequestError(`the request's contact 'restitution' is ${c.restitution}: MuJoCo has no ` +
      "coefficient of restitution (its contact is a spring-damper, solref): want 0");
  if (!(o.impratio > 0)) throw new vb.RequestError(`impratio=${o.impratio}: want a number > 0`);
  if (!(Number.isInteger(o.noslip) && o.noslip >= 0)) throw new vb.RequestError(`noslip=${o.noslip}: want a whole number >= 0`);
  if (!(Number.isInteger(o.iterations) && o.iterations >= 1))
    throw new vb.RequestError(`iterations=${o.iterations}: want a whole number >= 1`);
}

// the ground's plane geom: its z axis the request's normal, through n offset
function groundXml(c) {
  const n = c.wall.normal;
  return `<geom name="ground" type="plane" size="0 0 1" pos="${n.map((x) => num(x * c.wall.offset)).join(" ")}"
          quat="${zTo(n).map(num).join(" ")}" friction="${num(c.friction)} 0 0"/>`;
}

// a body with a free joint, the request's inertia, a geom of the contact's shape
function bodyXml(name, b, c) {
  const [I1, I2, I3] = b.inertia;
  const geom = c.shape.kind === "ball"
    ? `type="sphere" size="${num(c.shape.radius)}"`
    : `type="box" size="${c.shape.edges.map((e) => num(e / 2)).join(" ")}"`;
  return `<body name="${name}">
      <freejoint/>
      <inertial pos="0 0 0" mass="${num(b.mass)}" diaginertia="${num(I1)} ${num(I2)} ${num(I3)}"/>
      <geom name="${name}-shape" ${geom} friction="${num(c.friction)} 0 0"/>
    </body>`;
}

// the model and data of a scene of bodies on the ground, each at its start;
// step(h) gives body i's 13 numbers for every i
async function world(req, bodies, o) {
  if (!mujoco) mujoco = await (await import("@mujoco/mujoco")).default();
  const c = req.contact;
  checkScene(c, o);
  const xml = `<mujoco model="verletbench-${req.bodies ? "stack" : "body-contact"}">
  ${optionXml(req, bodies[0].gravity, o)}
  <worldbody>
    ${groundXml(c)}
    ${bodies.map((b, i) => bodyXml(req.bodies ? `box${i + 1}` : "body", b, c)).join("\n    ")}
  </worldbody>
</mujoco>`;
  const model = mujoco.MjModel.from_xml_string(xml);
  const data = new mujoco.MjData(model);
  // qpos: x, y, z, qw, qx, qy, qz a body (w first, world from body); qvel: v
  // (world frame), w (body frame)
  data.qpos.set(bodies.flatMap((b) => [...b.x0, ...b.q0]));
  data.qvel.set(bodies.flatMap((b) => [...b.v0, ...b.w0_body]));
  let t = 0.0;
  return {
    step(h) {
      model.opt.timestep = h; // mj_step takes m->opt.timestep (engine_forward.c:1367, :1373)
      mujoco.mj_step(model, data);
      // a stack's boxes reset to qpos0 (resets.js) are not MuJoCo's stack:
      // the run fails, saying when (a body on the ground: not yet checked)
      const bad = req.bodies ? resetWarning(mujoco, data) : null;
      if (bad)
        throw new vb.RequestError(`MuJoCo reset the stack in its step from t = ${+t.toPrecision(7)} to ` +
          `${+(t + h).toPrecision(7)}: ${bad[0]} (${bad[1]}[${bad[2]}] not finite or past mjMAXVAL = 1e10), so ` +
          "mj_step restarted every box at rest from qpos0 (engine_forward.c:54-112): the rows from here on " +
          "would not be MuJoCo's stack");
      t += h;
      const p = data.qpos, v = data.qvel, s = [];
      for (let i = 0; i < bodies.length; i++) {
        const a = 7 * i, d = 6 * i;
        s.push(p[a], p[a + 1], p[a + 2], p[a + 3], p[a + 4], p[a + 5], p[a + 6],
          v[d], v[d + 1], v[d + 2], v[d + 3], v[d + 4], v[d + 5]);
      }
      return s;
    },
    free() {
      data.delete();
      model.delete();
    },
  };
}

vb.main({
  name: "mujoco-contact",
  engine: vb.npmEngine("@mujoco/mujoco"),
  // a free joint's angular velocity, qvel[3..5], is in the body's frame
  // (engine_support.c:662-664)
  angvel: "body",
  options: {
    cone: ["pyramidal", "elliptic"], impratio: "1", noslip: "0",
    integrator: ["Euler", "implicitfast", "implicit", "RK4"],
    solver: ["Newton", "PGS", "CG"], iterations: "100", warm: ["on", "off"],
  },
  bodyContact: (req, o) => world(req, [req.body], o),
  stack: (req, o) => world(req, req.bodies, o),
});
