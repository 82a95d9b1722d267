#!/usr/bin/env node
// rigid-engine.js — a rotation method of your own for verletbench, in
// JavaScript (node, no packages): a rigid body stepped by McLachlan's
// splitting (second order, symplectic) or by Jolt's explicit gyroscopic step
// (first order, what a game engine does).
//
//   verletbench run cases/dzhanibekov.case --out mine --engine "js-split:2=node examples/engines/js/rigid-engine.js rigid-splitting"
//
// verletbench sends each run of a rigid body's case (models free-body and
// symmetric-top) as a body: its moments, mass, gravity and start
// (docs/real-engines.md §4, protocol version 3), and measures the rows that
// come back as it measures its built-in rotation methods: the attitude error
// and its order, the flips, the flip period, the drift of the angular momentum.
//
// To measure your own method, copy this file with engines/lib/vbengine.js
// beside it and replace a class's step().  A step advances s, a
// vb.RigidState: s.x, s.v (the centre of mass and its velocity, world frame),
// s.q (the attitude [w, x, y, z], world from body) and s.w (the angular
// velocity in the BODY frame, along the principal axes), for the body's
// moments s.I, mass s.m and gravity s.g.  vbengine.js does the rest: it reads
// the requests, checks each body, writes a row after every step in the
// shortest text that reads back as the same double (w in the body frame:
// angvel "body") and serves every run of a sweep from one process.
// vb.quatMul, vb.quatExp, vb.quatNormalise, vb.cross and vb.dot use the same
// operations in the same order as verletbench's C, so these two methods' rows
// equal the built-in rigid-splitting's and rigid-explicit-gyro's to round-off
// (Math.sin and Math.cos are V8's own: the last bit may differ;
// tests/rigid_example_engines.py).
"use strict";
const fs = require("fs");
const path = require("path");

// vbengine.js: beside this file (copied with it), else in the checkout
const lib = [path.join(__dirname, "vbengine.js"),
  path.join(__dirname, "..", "..", "..", "engines", "lib", "vbengine.js")].find((f) => fs.existsSync(f));
if (!lib) {
  process.stderr.write("rigid-engine.js: vbengine.js (verletbench's engines/lib/vbengine.js) is neither " +
    "beside this file nor in the checkout it came from: copy it here\n");
  process.exit(2);
}
const vb = require(lib);

// The exact flow of L_k^2 / (2 I_k) for a time tau: the body turns about its
// principal axis k by alpha = tau L_k / I_k, q <- q (cos(alpha/2),
// sin(alpha/2) e_k), and the body-frame L, the same world vector seen from the
// turned body, by -alpha (cos and sin of alpha from the half angle, so that L
// turns exactly as q does and the world L stays put)
function principalRotation(s, L, k, tau) {
  const alpha = tau * L[k] / s.I[k];
  const ch = Math.cos(0.5 * alpha), sh = Math.sin(0.5 * alpha);
  const r = [ch, 0.0, 0.0, 0.0];
  r[1 + k] = sh;
  s.q = vb.quatMul(s.q, r);
  const c = ch * ch - sh * sh, sn = 2.0 * sh * ch;
  const i = (k + 1) % 3, j = (k + 2) % 3, Li = L[i], Lj = L[j];
  L[i] = c * Li + sn * Lj;
  L[j] = -sn * Li + c * Lj;
}

// McLachlan (1993), Touma & Wisdom (1994): the free body's energy split into
// its three principal terms, each flow exact, composed symmetrically
// R1(h/2) R2(h/2) R3(h) R2(h/2) R1(h/2); the centre of mass by kick-drift-kick,
// exact under uniform gravity.  Second order, symplectic, the world angular
// momentum kept to round-off.
class Splitting {
  step(s, h) {
    const L = [s.I[0] * s.w[0], s.I[1] * s.w[1], s.I[2] * s.w[2]];
    for (const [k, tau] of [[0, 0.5 * h], [1, 0.5 * h], [2, h], [1, 0.5 * h], [0, 0.5 * h]])
      principalRotation(s, L, k, tau);
    s.q = vb.quatNormalise(s.q);
    s.w = L.map((l, i) => l / s.I[i]);
    for (let i = 0; i < 3; i++) {
      s.v[i] += 0.5 * h * s.g[i];
      s.x[i] += h * s.v[i];
      s.v[i] += 0.5 * h * s.g[i];
    }
  }
}

// Jolt's step with mApplyGyroscopicForce (MotionProperties.inl:99-125,
// Body.inl:81-98): L' = L - h w x L in the body, rescaled to the old |L|,
// w = I^-1 L'; then v += h g, x += h v (symplectic Euler) and the attitude by
// the exponential map of the new w.  First order; it keeps |L| but pumps
// energy in, so a stable spin tumbles (docs/rigid.md §4).
class ExplicitGyro {
  step(s, h) {
    const L = [s.I[0] * s.w[0], s.I[1] * s.w[1], s.I[2] * s.w[2]];
    const c = vb.cross(s.w, L);
    const Ln = L.map((l, i) => l - h * c[i]);
    const n2 = vb.dot(Ln, Ln), scale = n2 > 0.0 ? Math.sqrt(vb.dot(L, L) / n2) : 0.0;
    s.w = Ln.map((l, i) => l * scale / s.I[i]);
    for (let i = 0; i < 3; i++) {
      s.v[i] += h * s.g[i];
      s.x[i] += h * s.v[i];
    }
    s.q = vb.quatNormalise(vb.quatMul(s.q, vb.quatExp([h * s.w[0], h * s.w[1], h * s.w[2]])));
  }
}

const METHODS = { "rigid-splitting": Splitting, "rigid-explicit-gyro": ExplicitGyro };
const name = process.argv[2];
if (!(name in METHODS)) {
  process.stderr.write(`usage: rigid-engine.js {${Object.keys(METHODS).join(",")}} < request(s)\n`);
  process.exit(2);
}

vb.main({
  name: "rigid-engine.js",
  angvel: "body",
  argv: process.argv.slice(3),
  body(req) {
    const s = new vb.RigidState(req), method = new METHODS[name]();
    return {
      step(h) {
        method.step(s, h);
        return s.row();
      },
    };
  },
});
