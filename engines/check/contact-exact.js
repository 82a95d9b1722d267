#!/usr/bin/env node
// The JavaScript helper's test engine for protocol 4 (a body at a contact):
// the request's scene stepped exactly, by event location, as the built-in
// velocity-verlet+toi does (velocity Verlet is exact under constant gravity,
// and toi finds each impact and each stop in closed form).  In the model's
// coordinates, with the separation s = n.(x + centre) - offset - support (the
// ball's radius, or a box's half extent along n):
//
//   - in flight x(t) = x + v t + g t^2/2 until s reaches 0 approaching: there
//     the normal velocity u leaves as e u if u >= the threshold (and e u is
//     above 1e-10 m/s: the impacts of e < 1 crowd towards t_inf, where the
//     exact ball rests), else 0, and the body rests on the wall;
//   - resting, with gravity pressing (g.n < 0), it slides along the wall under
//     the tangential gravity and Coulomb friction mu |g.n|, and stops exactly
//     where its velocity reaches 0 (static friction then holds it if the
//     tangential gravity is at most mu |g.n|);
//   - nothing passes the wall's front face, however thin.
//
// Not an engine to measure: a test of the harness's side of protocol 4
// (tests/real_engines_contact.py): driven with a case's numbers it must
// reproduce the case's exact answer (contact/bounce.c, slide.c, tunnel.c) to
// round-off, and its contact measures the exact ones.  Models of 1 or 2 axes
// (one tangential axis at most).
"use strict";
const vb = require("../lib/vbengine.js");

const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);

vb.main({
  name: "vb-contact-exact-js",
  options: { fail: ["none", "make"] },
  contact(req, o) {
    if (o.fail === "make") throw new vb.RequestError("asked to fail (make)");
    const c = req.contact, d = req.dim;
    if (d > 2) throw new vb.RequestError(`a model of ${d} axes: this engine slides along one axis at most`);
    const n = c.wall.normal, g = c.gravity;
    const support = c.shape.kind === "ball" ? c.shape.radius : 0.5 * c.shape.edges.reduce((s, e, i) => s + Math.abs(n[i]) * e, 0);
    const face = c.wall.offset + support - dot(n, c.centre); // s = n.x - face
    const gn = dot(g, n);
    const tang = (a) => a.map((x, i) => x - dot(a, n) * n[i]); // the part along the wall
    const x = req.x0.slice(), v = req.v0.slice();
    let resting = false;
    const sep = () => dot(n, x) - face;
    // on the wall: s = 0 exactly, no normal velocity
    const land = () => {
      const s = sep();
      for (let i = 0; i < d; i++) x[i] -= s * n[i];
      const u = dot(v, n);
      for (let i = 0; i < d; i++) v[i] -= u * n[i];
    };
    const fly = (t) => {
      for (let i = 0; i < d; i++) {
        x[i] += v[i] * t + 0.5 * g[i] * t * t;
        v[i] += g[i] * t;
      }
    };
    // a start on the wall, not moving off it, with gravity pressing: resting
    if (sep() <= 0 && dot(v, n) <= 0 && gn < 0) {
      land();
      resting = true;
    }
    // the first time in (0, T] at which s(t) = s0 + u t + gn t^2/2 reaches 0
    // approaching (s' < 0), or Infinity
    const impact = (T) => {
      const s0 = sep(), u = dot(v, n);
      let t;
      if (gn === 0) t = u < 0 ? -s0 / u : Infinity;
      else {
        const disc = u * u - 2 * gn * s0;
        if (disc < 0) return Infinity;
        const q = Math.sqrt(disc);
        // the roots (-u -+ q)/gn; the one where s' = u + gn t < 0
        const r = [(-u - q) / gn, (-u + q) / gn].filter((r) => r >= 0 && u + gn * r < 0).sort((a, b) => a - b);
        t = r.length ? r[0] : Infinity;
      }
      return t <= T ? Math.max(t, 0) : Infinity;
    };
    const slide = (T) => {
      const vt = tang(v), gt = tang(g), speed = Math.hypot(...vt), f = c.friction * -gn;
      if (speed === 0) {
        const pull = Math.hypot(...gt);
        if (pull <= f) return T; // static friction holds it for the rest of the step
        const a = gt.map((x) => x * (1 - f / pull));
        fly2(a, T);
        return T;
      }
      const dir = vt.map((x) => x / speed);
      const a = gt.map((x, i) => x - f * dir[i]); // along dir only (one tangential axis)
      const along = dot(a, dir);
      const stop = along < 0 ? speed / -along : Infinity;
      if (stop > T) {
        fly2(a, T);
        return T;
      }
      fly2(a, stop);
      for (let i = 0; i < d; i++) v[i] = 0; // stopped, exactly
      return stop;
    };
    const fly2 = (a, t) => {
      for (let i = 0; i < d; i++) {
        x[i] += v[i] * t + 0.5 * a[i] * t * t;
        v[i] += a[i] * t;
      }
    };
    return {
      step(h) {
        let left = h;
        for (let events = 0; left > 0 && events < 100000; events++) {
          if (resting) {
            left -= slide(left);
            continue;
          }
          const t = impact(left);
          if (t === Infinity) {
            fly(left);
            break;
          }
          fly(t);
          left -= t;
          const u = -dot(v, n); // the approach speed
          land();
          const out = c.restitution * u;
          if (u >= c.threshold && out > 1e-10) {
            for (let i = 0; i < d; i++) v[i] += out * n[i];
          } else if (gn < 0) {
            resting = true; // without gravity it stays against the wall, its normal speed 0
          }
        }
        return [x.slice(), v.slice()];
      },
    };
  },
});
