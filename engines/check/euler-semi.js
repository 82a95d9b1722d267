#!/usr/bin/env node
// The JavaScript helper's own test engine: symplectic Euler (v += a h, then
// x += v h, as src/integrators/euler_semi.c) on the helper's force law.  Its
// trajectories must be the built-in euler-semi's to the bit on every model
// whose force uses only + - * / and sqrt (check/persistent.py; the pendulum's
// Math.sin is V8's, within round-off).  Not an engine to measure: a test.
"use strict";
const vb = require("../lib/vbengine.js");

vb.main({
  name: "vb-euler-semi-js",
  options: { fail: ["none", "make", "step"] }, // fail=...: a failing request, for the tests
  make(req, o) {
    if (o.fail === "make" || req.run === "fail-make") throw new vb.RequestError("asked to fail (make)");
    const accel = vb.forceLaw(req.model, req.params, req.x0.length);
    const x = req.x0.slice(), v = req.v0.slice();
    let k = 0;
    return {
      step(h) {
        if ((o.fail === "step" || req.run === "fail-step") && ++k === 3) throw new Error("asked to fail (step 3)");
        const a = accel(x, v);
        for (let i = 0; i < x.length; i++) {
          v[i] += a[i] * h;
          x[i] += v[i] * h;
        }
        return [x, v];
      },
    };
  },
});
