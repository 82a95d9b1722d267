#!/usr/bin/env node
// MuJoCo (@mujoco/mujoco: DeepMind's official WebAssembly build, doubles) as a
// verletbench engine of one rigid body, protocol 3: a body with a free joint.
// engines/mujoco/README.md says how the request maps onto the engine;
// docs/real-engines.md, "Adapting a 3D engine", what each integrator's step
// is, with MuJoCo's source lines (tag 3.12.0, src/engine/...).
"use strict";
const vb = require("../lib/vbengine.js");
const { resetWarning } = require("./resets.js");

let mujoco = null;
const num = (x) => String(x); // shortest text that reads back as the same double

// a reset of MuJoCo's (resets.js) fails the run, saying when
function resetBy(data, t0, t1, w) {
  const bad = resetWarning(mujoco, data);
  if (bad) {
    const [name, what, dof] = bad;
    const speed = Math.hypot(w[0], w[1], w[2]);
    const at = (x) => +x.toPrecision(7);
    throw new vb.RequestError(`MuJoCo reset the body in its step from t = ${at(t0)} to ${at(t1)}: ` +
      `${name} (${what}[${dof}] not finite or past mjMAXVAL = 1e10; |w| = ${speed.toPrecision(3)} rad/s ` +
      `at t = ${at(t0)}), so mj_step restarted it at rest from qpos0 (engine_forward.c:54-112): ` +
      `the rows from here on would not be the integrator's`);
  }
}

vb.main({
  name: "mujoco",
  engine: vb.npmEngine("@mujoco/mujoco"),
  // a free joint's angular velocity, qvel[3..5], is in the body's frame
  // (engine_support.c:662-664: mju_quatIntegrate turns q on its right)
  angvel: "body",
  options: { integrator: ["Euler", "RK4", "implicit", "implicitfast"] },
  async body(req, o) {
    if (!mujoco) mujoco = await (await import("@mujoco/mujoco")).default();
    const b = req.body, [I1, I2, I3] = b.inertia;
    // The inertial element gives mass and the principal moments as they are
    // (diaginertia: no eigen-decomposition, body_inertia = I), at the body's
    // origin and with its axes (pos 0, no quat): the body's axes are its
    // principal axes.  No geom: no collision, no inertia from shapes.  MuJoCo
    // has no damping (dof_damping 0), no armature and no sleep (mjENBL_SLEEP
    // is off) unless a model asks: nothing to switch off.
    const xml = `<mujoco model="verletbench-body">
  <option timestep="${num(req.h[0] || 0.01)}" gravity="${b.gravity.map(num).join(" ")}" integrator="${o.integrator}"/>
  <worldbody>
    <body name="body">
      <freejoint/>
      <inertial pos="0 0 0" mass="${num(b.mass)}" diaginertia="${num(I1)} ${num(I2)} ${num(I3)}"/>
    </body>
  </worldbody>
</mujoco>`;
    const model = mujoco.MjModel.from_xml_string(xml);
    const data = new mujoco.MjData(model);
    // qpos: x, y, z, qw, qx, qy, qz (w first, world from body);
    // qvel: v (world frame), w (body frame)
    data.qpos.set([...b.x0, ...b.q0]);
    data.qvel.set([...b.v0, ...b.w0_body]);
    let t = 0.0, last = b.w0_body;
    return {
      step(h) {
        model.opt.timestep = h; // mj_step takes m->opt.timestep (engine_forward.c:1367, :1373)
        mujoco.mj_step(model, data);
        resetBy(data, t, t + h, last);
        t += h;
        const p = data.qpos, v = data.qvel;
        last = [v[3], v[4], v[5]];
        return [p[0], p[1], p[2], p[3], p[4], p[5], p[6], v[0], v[1], v[2], v[3], v[4], v[5]];
      },
      free() {
        data.delete();
        model.delete();
      },
    };
  },
});
