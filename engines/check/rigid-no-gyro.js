#!/usr/bin/env node
// The JavaScript helper's test engine for protocol 3 (a rigid body): no
// gyroscopic term, so the world angular velocity holds without torque (what
// cannon-es's Body.integrate does), and the attitude turns by the exact
// rotation of angle |w| h about w: q <- exp(h w / 2) q; then v += g h,
// x += v h.  Not an engine to measure: a test of the helper
// (tests/real_engines_3d.py), with its twin rigid-no-gyro.c, and of the
// harness's side of protocol 3 (tests/rigid_engines.py): quat=first takes
// cannon-es's first-order update instead, q <- normalise(q + (h/2) (0, w) q),
// which is the built-in rigid-no-gyro's step (src/integrators/rigid_no_gyro.c).
"use strict";
const vb = require("../lib/vbengine.js");

const frame = (process.argv.find((a) => a.startsWith("angvel=")) || "angvel=world").slice(7);
vb.main({
  name: "vb-rigid-no-gyro-js",
  angvel: frame === "body" ? "body" : "world",
  // sign=flip: -q on every other step, as an engine that keeps a matrix may
  // return either sign (Bullet); the helper must write it continued
  options: { fail: ["none", "make", "step"], angvel: ["world", "body"], sign: ["keep", "flip"],
    quat: ["exp", "first"] },
  body(req, o) {
    if (o.fail === "make" || req.run === "fail-make") throw new vb.RequestError("asked to fail (make)");
    const b = req.body, x = b.x0.slice(), v = b.v0.slice(), w = b.w0_world.slice(), g = b.gravity;
    let q = b.q0.slice(), k = 0, n = 0;
    return {
      step(h) {
        if ((o.fail === "step" || req.run === "fail-step") && ++n === 3) throw new Error("asked to fail (step 3)");
        for (let i = 0; i < 3; i++) {
          v[i] += g[i] * h;
          x[i] += v[i] * h;
        }
        if (o.quat === "first") {
          // (0, w) q, then q += (h/2) that, normalised: the built-in's order
          const d = [-w[0] * q[1] - w[1] * q[2] - w[2] * q[3],
            w[0] * q[0] + w[1] * q[3] - w[2] * q[2],
            -w[0] * q[3] + w[1] * q[0] + w[2] * q[1],
            w[0] * q[2] - w[1] * q[1] + w[2] * q[0]];
          q = q.map((c, i) => c + 0.5 * h * d[i]);
          const n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
          q = q.map((c) => c / n);
        } else {
          const len = Math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]), a = 0.5 * len * h;
          const s = len > 0 ? Math.sin(a) / len : 0.5 * h;
          const d = [Math.cos(a), w[0] * s, w[1] * s, w[2] * s];
          q = [d[0] * q[0] - d[1] * q[1] - d[2] * q[2] - d[3] * q[3],
            d[0] * q[1] + d[1] * q[0] + d[2] * q[3] - d[3] * q[2],
            d[0] * q[2] - d[1] * q[3] + d[2] * q[0] + d[3] * q[1],
            d[0] * q[3] + d[1] * q[2] - d[2] * q[1] + d[3] * q[0]];
        }
        // the body frame's w: R(q)^T w, the rotation by the conjugate
        const out = o.angvel === "body" ? vb.rotate([q[0], -q[1], -q[2], -q[3]], w) : w;
        const flip = o.sign === "flip" && k++ % 2 === 0;
        return [...x, ...(flip ? q.map((c) => -c) : q), ...v, ...out];
      },
    };
  },
});
