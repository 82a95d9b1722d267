#!/usr/bin/env node
// The JavaScript helper's test engine for a stack of bodies on the ground
// (protocol 5, docs/real-engines.md §7): the exact answer of model 'stack',
// every body where the request put it (x0, q0), at rest (v = w = 0), for ever;
// from the request's numbers alone (never the model's code, src/models/stack.c,
// which it tests the harness against).
//
// Not an engine to measure: a test of the harness's side of a stack
// (tests/stack_engines.py): driven with a case's numbers, the harness must
// measure its rows as the exact answer (stacks.csv: drift_max 0, speed_rms 0,
// depth_max 0, t_collapse blank, to the bit).  Two options write rows no exact
// stack has, each with measures in closed form, the test's way to move the
// answer where a closed form says it must go:
//   sink=D   from the first step on, body k (1 the bottom) lowered by k D, at
//            rest: the top moved by n D (drift_max), each body D into the one
//            below and the bottom D into the ground (depth_max D), speeds 0;
//   drift=V  the top body moving along x at V from the start (x = x0 + V t, t
//            the sum of the steps, v = V): drift_max V t_end, speed_rms
//            V / sqrt(n) (one body of n moves), t_collapse the first step's
//            time at which V t >= size / 2.
"use strict";
const vb = require("../lib/vbengine.js");

vb.main({
  name: "vb-stack-exact-js",
  angvel: "world",
  options: { sink: "0", drift: "0" },
  stack(req, o) {
    const sink = Number(o.sink), drift = Number(o.drift);
    if (!(sink >= 0)) throw new vb.RequestError(`sink=${o.sink}: want a number >= 0`);
    if (!Number.isFinite(drift)) throw new vb.RequestError(`drift=${o.drift}: want a number`);
    const bs = req.bodies, n = bs.length;
    let t = 0.0;
    return {
      step(h) {
        t += h;
        const s = [];
        bs.forEach((b, i) => {
          const x = b.x0.slice(), v = [0, 0, 0];
          x[2] -= (i + 1) * sink;
          if (i === n - 1 && drift !== 0) {
            x[0] += drift * t;
            v[0] = drift;
          }
          s.push(...x, ...b.q0, ...v, 0, 0, 0);
        });
        return s;
      },
    };
  },
});
