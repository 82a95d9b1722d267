#!/usr/bin/env node
// engine.js — a protocol-1 engine for the tests (tests/protocol2.py): the
// shipped example (examples/engines/js/) as it was before it became
// persistent, one process a run, kept to hold protocol version 1 to its
// tables.  JavaScript (node, no packages): velocity Verlet and Dummer's
// time-corrected Verlet.
//
// verletbench runs it once a run, with the run as one line of JSON on
// standard input, and reads the trajectory from standard output
// (docs/engines.md):
//
//   verletbench run cases/spring.case --out mine --engine "js-vv:2=node examples/engines/js/engine.js velocity-verlet"
//
// To measure your own method, replace the step() of a class below (and
// start()/velocity() if it keeps other state) and keep the rest: read the
// request, start from x0 and v0, take exactly the steps h in "h", and print
// a row after every one of them.  String(x) of a number is the shortest text
// that reads back as the same double, so no digit is lost.
//
// The force laws are written with the same operations, in the same order,
// as verletbench's own models, so the errors equal the built-in
// velocity-verlet's and tcv's to the last bit wherever only + - * / and
// sqrt are used (IEEE 754 rounds those exactly the same in every language).
// The pendulum's Math.sin is V8's own (fdlibm's algorithm), not the C
// library's: it may differ in the last bit, so there the errors agree to
// round-off, not to the bit.
"use strict";

function forceLaw(model, p, n) {
  switch (model) {
    case "spring": {
      const w2 = p.k / p.m;
      return (x, v) => [-w2 * x[0]];
    }
    case "damped-spring": {
      const k = p.k, c = p.c, m = p.m;
      return (x, v) => [-(k * x[0] + c * v[0]) / m];
    }
    case "pendulum": {
      const w2 = p.g / p.L;
      return (x, v) => [-w2 * Math.sin(x[0])];
    }
    case "projectile": {
      const g = p.g;
      return (x, v) => [0.0, -g];
    }
    case "orbit": {
      const mu = p.mu;
      return (x, v) => {
        const r2 = x[0] * x[0] + x[1] * x[1];
        const k = -mu / (r2 * Math.sqrt(r2));
        return [k * x[0], k * x[1]];
      };
    }
    case "chain": {
      const w2 = p.k / p.m;
      return (x, v) => {
        const a = new Array(n).fill(0.0);
        if (n === 1) {
          a[0] = w2 * ((0.0 - x[0]) + (0.0 - x[0]));
          return a;
        }
        let left = 0.0, mid = x[0];
        for (let i = 0; i < n - 1; i++) {
          const right = x[i + 1];
          a[i] = w2 * ((left - mid) + (right - mid));
          left = mid;
          mid = right;
        }
        a[n - 1] = w2 * ((left - mid) + (0.0 - mid));
        return a;
      };
    }
    case "two-body": {
      const G = p.G, m1 = p.m1, m2 = p.m2;
      return (x, v) => {
        const dx = x[2] - x[0], dy = x[3] - x[1];
        const r2 = dx * dx + dy * dy;
        const k = G / (r2 * Math.sqrt(r2));
        return [k * m2 * dx, k * m2 * dy, -k * m1 * dx, -k * m1 * dy];
      };
    }
  }
  fail(`model '${model}' is not one this engine knows ` +
       "(spring, damped-spring, pendulum, projectile, orbit, chain, two-body)");
}

// kick a h/2, drift v h, new a, kick a h/2
class VelocityVerlet {
  start(accel, x, v, h) {
    this.x = x.slice();
    this.v = v.slice();
    this.a = accel(this.x, this.v);
  }
  step(accel, h) {
    const half = 0.5 * h, x = this.x, v = this.v;
    let a = this.a;
    for (let i = 0; i < x.length; i++) {
      v[i] += a[i] * half;
      x[i] += v[i] * h;
    }
    this.a = a = accel(x, v); // a velocity-dependent force sees the half-step v
    for (let i = 0; i < x.length; i++) v[i] += a[i] * half;
  }
  velocity() {
    return this.v;
  }
}

// x+ = x + (x - x-) h/h' + a h^2, kept as d = x - x- (no cancellation)
class TimeCorrectedVerlet {
  start(accel, x, v, h) {
    this.hp = h;
    this.x = x.slice();
    this.a = accel(x, v);
    // the Taylor start: x_-1 = x0 - v0 h + a0 h^2/2
    this.d = x.map((_, i) => v[i] * h - 0.5 * this.a[i] * h * h);
  }
  step(accel, h) {
    const r = h / this.hp, c = h * h, x = this.x, d = this.d, a = this.a;
    for (let i = 0; i < x.length; i++) {
      d[i] = d[i] * r + a[i] * c;
      x[i] += d[i];
    }
    this.hp = h;
    this.a = accel(x, d.map((di) => di / h));
  }
  velocity() {
    return this.d.map((di, i) => di / this.hp + 0.5 * this.a[i] * this.hp);
  }
}

const METHODS = { "velocity-verlet": VelocityVerlet, tcv: TimeCorrectedVerlet };

function fail(msg) {
  process.stderr.write(`engine.js: ${msg}\n`);
  process.exit(2);
}

// the trajectory's header: t, the positions, then the velocities
function columns(dim, particles) {
  const axes = "xyz".slice(0, dim).split("");
  if (dim === 1 && particles === 1) return ["t", "x", "v"];
  let pos = axes;
  if (particles > 1) {
    pos = [];
    for (let i = 1; i <= particles; i++) for (const c of axes) pos.push(`${c}${i}`);
  }
  return ["t", ...pos, ...pos.map((c) => "v" + c)];
}

// numbers as CSV cells: the shortest text that reads back as the same
// double; JavaScript's names of the non-finite ones are read as well
function cells(values) {
  return values.map((x) => String(x)).join(",");
}

function run(req, methodName) {
  const n = req.dim * req.particles;
  const accel = forceLaw(req.model, req.params, n);
  const steps = req.h;
  const method = new METHODS[methodName]();
  const out = [req.header, columns(req.dim, req.particles).join(",")];
  let t = 0.0;
  out.push(cells([t, ...req.x0, ...req.v0]));
  method.start(accel, req.x0, req.v0, steps[0]);
  for (const h of steps) {
    method.step(accel, h);
    t += h;
    out.push(cells([t, ...method.x, ...method.velocity()]));
  }
  out.push("");
  // one write, then exit when it has gone out (a pipe may take it in parts)
  process.stdout.write(out.join("\n"));
}

function main() {
  const methodName = process.argv[2];
  if (process.argv.length !== 3 || !(methodName in METHODS))
    fail(`usage: engine.js {${Object.keys(METHODS).join(",")}} < request.json`);
  const chunks = [];
  process.stdin.on("data", (c) => chunks.push(c));
  process.stdin.on("end", () => {
    const text = Buffer.concat(chunks).toString("utf8");
    const line = text.split("\n", 1)[0];
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      fail(`the request is not JSON: ${e.message}`);
    }
    run(req, methodName);
  });
}

main();
