// pverlet.js — pverlet.py in JavaScript, on the shared
// JavaScript helper (engines/lib/vbengine.js): position Verlet as the
// textbook states it, x_1 = x_0 + v_0 h_0 + a(x_0) h_0^2 / 2 (the Taylor
// start), then x_{n+1} = 2 x_n - x_{n-1} + a(x_n) h_n^2, which keeps no
// velocity: it declares velocity=none and its rows are t and the positions
// (docs/real-engines.md §1.7).  The same operations in the same order as the
// Python one, in doubles: the harness must read the same trajectories from
// both (tests/velocity_none.py).
"use strict";

const vb = require("../lib/vbengine.js");

vb.main({
  name: "pverlet.js",
  engine: "pverlet-test@1.0",
  velocity: "none",
  make(req) {
    if (req.model === "damped-spring")
      throw new vb.RequestError("its force reads v, and position Verlet keeps none");
    const n = req.x0.length;
    const accel = vb.forceLaw(req.model, req.params, n);
    const v0 = req.v0.slice();
    let x = req.x0.slice(), prev = null;
    return {
      step(h) {
        const a = accel(x, null);
        const next = new Array(n);
        for (let i = 0; i < n; i++)
          next[i] = prev === null ? x[i] + v0[i] * h + a[i] * h * h / 2.0
                                  : 2.0 * x[i] - prev[i] + a[i] * h * h;
        prev = x;
        x = next;
        return [x, null];
      },
    };
  },
});
