#!/usr/bin/env node
// engine.js — an external engine for verletbench in JavaScript (node, no
// packages): velocity Verlet and Dummer's time-corrected Verlet.
//
//   verletbench run cases/spring.case --out mine --engine "js-vv:2=node examples/engines/js/engine.js velocity-verlet"
//
// To measure your own method, copy this file with engines/lib/vbengine.js
// beside it and replace a class's start() and step() (and velocity() if it
// keeps other state).  vbengine.js does the rest (docs/real-engines.md §1):
// it reads the requests, gives each method the built-in model's force law
// (the same operations in the same order as verletbench's, so the errors
// equal the built-in velocity-verlet's and tcv's to the last bit wherever
// only + - * / and sqrt are used; the pendulum's Math.sin is V8's own and
// may differ in the last bit), writes a row after every step in the
// shortest text that reads back as the same double, and serves every run of
// a sweep from one process that verletbench keeps (protocol version 2's
// persistent mode: node starts once, not once a run).
"use strict";
const fs = require("fs");
const path = require("path");

// vbengine.js: beside this file (copied with it), else in the checkout
const lib = [path.join(__dirname, "vbengine.js"),
  path.join(__dirname, "..", "..", "..", "engines", "lib", "vbengine.js")].find((f) => fs.existsSync(f));
if (!lib) {
  process.stderr.write("engine.js: vbengine.js (verletbench's engines/lib/vbengine.js) is neither " +
    "beside this file nor in the checkout it came from: copy it here\n");
  process.exit(2);
}
const vb = require(lib);

// kick a h/2, drift v h, new a, kick a h/2
class VelocityVerlet {
  start(accel, x, v, h) {
    this.accel = accel;
    this.x = x.slice();
    this.v = v.slice();
    this.a = accel(this.x, this.v);
  }
  step(h) {
    const half = 0.5 * h, x = this.x, v = this.v;
    let a = this.a;
    for (let i = 0; i < x.length; i++) {
      v[i] += a[i] * half;
      x[i] += v[i] * h;
    }
    this.a = a = this.accel(x, v); // a velocity-dependent force sees the half-step v
    for (let i = 0; i < x.length; i++) v[i] += a[i] * half;
  }
  velocity() {
    return this.v;
  }
}

// x+ = x + (x - x-) h/h' + a h^2, kept as d = x - x- (no cancellation)
class TimeCorrectedVerlet {
  start(accel, x, v, h) {
    this.accel = accel;
    this.hp = h;
    this.x = x.slice();
    this.a = accel(x, v);
    // the Taylor start: x_-1 = x0 - v0 h + a0 h^2/2
    this.d = x.map((_, i) => v[i] * h - 0.5 * this.a[i] * h * h);
  }
  step(h) {
    const r = h / this.hp, c = h * h, x = this.x, d = this.d, a = this.a;
    for (let i = 0; i < x.length; i++) {
      d[i] = d[i] * r + a[i] * c;
      x[i] += d[i];
    }
    this.hp = h;
    this.a = this.accel(x, d.map((di) => di / h));
  }
  velocity() {
    return this.d.map((di, i) => di / this.hp + 0.5 * this.a[i] * this.hp);
  }
}

const METHODS = { "velocity-verlet": VelocityVerlet, tcv: TimeCorrectedVerlet };
const name = process.argv[2];
if (!(name in METHODS)) {
  process.stderr.write(`usage: engine.js {${Object.keys(METHODS).join(",")}} < request(s)\n`);
  process.exit(2);
}

vb.main({
  name: "engine.js",
  argv: process.argv.slice(3),
  make(req) {
    // the force is gravity alone on a model with rods: without a method
    // that keeps them the bodies would fall, and the scores would measure that
    if (vb.ROD_MODELS.has(req.model))
      throw new vb.RequestError(`the model ${req.model} has rods, which these methods do not keep`);
    const method = new METHODS[name]();
    method.start(vb.forceLaw(req.model, req.params, req.x0.length), req.x0, req.v0, req.h[0]);
    return {
      step(h) {
        method.step(h);
        return [method.x, method.velocity()];
      },
    };
  },
});
