// vbengine.js — the shared half of a verletbench engine adapter in JavaScript:
// the request reader, the built-in models' force laws, the row writer and the
// loop of protocol versions 2 and 3 (docs/real-engines.md).  An adapter is then
// the part that knows its engine:
//
//   const vb = require("../lib/vbengine.js");
//   vb.main({
//     name: "planck",                       // for messages
//     engine: vb.npmEngine("planck"),       // "planck@1.3.0": the provenance
//     precision: "float64",                 // or "float32"
//     velocity: "state",                    // or "derived", "none"
//     options: { gravity: ["engine", "force"], viter: "8" },  // KEY=VALUE words, defaults first
//     argv: process.argv.slice(3),          // the words they are read from (default: every one)
//     make(req, opt) {                      // sync or async
//       ... build the world from req (x0, v0, masses, params, rods) ...
//       return { step(h) { ...; return [x, v] } };   // the state after the step, flat
//     },
//   });
//
// What main() does with it: it reads requests from standard input, one JSON
// line each, until the end of the input: a single request is protocol 1 (one
// process a run), many are protocol 2's persistent mode.  For each it calls
// make(), writes the request's header, the column line and row 0 (from the
// request's x0 and v0, not from the engine: a float32 engine cannot hold them),
// then calls step(h) for every h of the request, in order, and writes a row
// after each.  Every line this adds beyond protocol 1 starts with '#', so a
// verletbench that speaks only protocol 1 reads the same trajectory.
//
// An engine of rigid bodies (protocol 3, docs/real-engines.md "Protocol version
// 3: a rigid body") gives body(req, opt) instead of, or beside, make():
//
//   vb.main({
//     name: "jolt", engine: vb.npmEngine("jolt-physics"), precision: "float32",
//     angvel: "world",                      // the frame of its ω columns: "world" or "body"
//     body(req, opt) {                      // req.body: mass, inertia, x0, v0, q0, w0_body, w0_world, gravity, box
//       ... build a world with one body ...
//       return { step(h) { ...; return [x, y, z, qw, qx, qy, qz, vx, vy, vz, wx, wy, wz] } };
//     },
//   });
//
// Its capability line says protocol=3 and angvel=; its rows are
// t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz, row 0 from the request's body, the
// quaternion world-from-body with w first and the sign that continues the
// previous row's (q and -q are one attitude).  A rotation method of your own
// steps a RigidState (the body in the body frame, as the built-in methods keep
// it) with quatMul, quatExp, quatNormalise, cross and dot:
// examples/engines/js/rigid-engine.js.
//
// An engine of a body at a contact (protocol 4, docs/real-engines.md "Protocol
// version 4: a body at a contact") gives contact(req, opt): req.contact is the
// scene, checked here (the wall, gravity, restitution, threshold, friction, the
// body's shape and where its centre is from the model's point), and
// engines/lib/vbcontact.js turns it into the engine's world.  contact()
// returns { step(h) → [x, v] } as make() does, in the model's coordinates.  Its
// capability line says protocol=4; a request without 'contact' is refused.
//
// A rigid body at a contact (roll, box-incline: §6.2) comes with 'body' and
// 'contact' both (the contact's vectors of 3 numbers, its shape a ball or a box
// in the body's axes, its wall the ground's plane, inclined or not); an engine
// of it gives bodyContact(req, opt), which returns { step(h) → 13 numbers } as
// body() does; its capability line says protocol=4 and angvel=.
//
// A stack of rigid bodies on the ground (model 'stack', protocol 5: §7) comes
// with 'bodies', a list of version 3's body objects from the bottom up, and the
// 'contact' of a rigid body on the ground (its friction every touching pair's,
// its box every body's), checked by checkStack; an engine of it gives
// stack(req, opt), which returns { step(h) → 13 n numbers, body 1's first };
// its rows are t and each body's 13 columns numbered from 1 (x1, …, wz1, x2,
// …), and its capability line says protocol=5 (it takes version 4's requests
// too where it gives bodyContact).
//
// Numbers are written with String(), the shortest text that reads back as the
// same double.  The force laws use the same operations in the same order as
// verletbench's models (src/models/NAME.c), so an adapter's force is the built-in
// one to the last bit (Math.sin, used by the pendulum, is V8's fdlibm port and
// may differ from the C library's in the last bit).
"use strict";

const fs = require("fs");
const path = require("path");

// stdout carries the trajectory and nothing else: a library's console.log or
// console.info (matter's Common.log/info, build/matter.js:467-468; cannon's
// narrow-phase "clamped: depth", dist/cannon-es.cjs.js:2694) goes to stderr
console.log = console.info = console.debug = (...a) => console.error(...a);

// the protocol of an engine of particles; one that takes rigid bodies (an
// adapter with body()) says 3, one of a body at a contact (contact()) 4
const PROTOCOL = 2;
const BODY_PROTOCOL = 3;
const CONTACT_PROTOCOL = 4;
// a stack of rigid bodies on the ground (model 'stack', docs/real-engines.md §7):
// an adapter with stack() says 5, and takes what version 4 takes beside it
const STACK_PROTOCOL = 5;
// the most bodies a stack's request may have (VB_STACK_MAX_BOXES, src/models/stack.h)
const STACK_MAX_BODIES = 100;

// the protocol an adapter's capability line says
function protocolOf(spec) {
  return spec.stack ? STACK_PROTOCOL : spec.contact || spec.bodyContact ? CONTACT_PROTOCOL
    : spec.body ? BODY_PROTOCOL : PROTOCOL;
}

// ---- the force laws ------------------------------------------------------------

// the models whose force law is gravity alone, and whose rods ("rods" in the
// request) the engine must keep
const ROD_MODELS = new Set(["rod-pendulum", "double-pendulum", "hanging-chain"]);

// a(x, v) of a built-in model as a function of the flat state, n = dim *
// particles components; the comments name the C function it copies
function forceLaw(model, p, n) {
  switch (model) {
    case "spring": { // src/models/spring.c accel
      const w2 = p.k / p.m;
      return (x) => [-w2 * x[0]];
    }
    case "damped-spring": { // src/models/damped_spring.c accel
      const k = p.k, c = p.c, m = p.m;
      return (x, v) => [-(k * x[0] + c * v[0]) / m];
    }
    case "pendulum": { // src/models/pendulum.c accel (w2 from pendulum_solution.c)
      const w2 = p.g / p.L;
      return (x) => [-w2 * Math.sin(x[0])];
    }
    case "projectile": { // src/models/projectile.c accel
      const g = p.g;
      return () => [0.0, -g];
    }
    case "orbit": { // src/models/orbit.c accel
      const mu = p.mu;
      return (x) => {
        const r2 = x[0] * x[0] + x[1] * x[1];
        const k = -mu / (r2 * Math.sqrt(r2));
        return [k * x[0], k * x[1]];
      };
    }
    case "chain": { // src/models/chain.c accel
      const w2 = p.k / p.m;
      return (x) => {
        const a = new Array(n);
        if (n === 1) {
          a[0] = w2 * ((0.0 - x[0]) + (0.0 - x[0]));
          return a;
        }
        let left = 0.0, mid = x[0];
        for (let i = 0; i + 1 < n; i++) {
          const right = x[i + 1];
          a[i] = w2 * ((left - mid) + (right - mid));
          left = mid;
          mid = right;
        }
        a[n - 1] = w2 * ((left - mid) + (0.0 - mid));
        return a;
      };
    }
    case "two-body": { // src/models/two_body.c accel
      const G = p.G, m1 = p.m1, m2 = p.m2;
      return (x) => {
        const dx = x[2] - x[0], dy = x[3] - x[1];
        const r2 = dx * dx + dy * dy, k = G / (r2 * Math.sqrt(r2));
        return [k * m2 * dx, k * m2 * dy, -k * m1 * dx, -k * m1 * dy];
      };
    }
    case "figure-eight": // src/models/figure_eight.c accel
      return (x) => {
        const a = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        for (let i = 0; i < 3; i++)
          for (let j = i + 1; j < 3; j++) {
            const dx = x[2 * j] - x[2 * i], dy = x[2 * j + 1] - x[2 * i + 1];
            const r2 = dx * dx + dy * dy, k = 1.0 / (r2 * Math.sqrt(r2));
            a[2 * i] += k * dx;
            a[2 * i + 1] += k * dy;
            a[2 * j] -= k * dx;
            a[2 * j + 1] -= k * dy;
          }
        return a;
      };
    case "henon-heiles": // src/models/henon_heiles.c accel
      return (x) => [-x[0] - 2.0 * x[0] * x[1], -x[1] - x[0] * x[0] + x[1] * x[1]];
  }
  if (ROD_MODELS.has(model)) { // rod_pendulum.c accel, linkage.c vb_linkage_gravity
    const g = p.g;
    return () => {
      const a = new Array(n);
      for (let i = 0; i < n; i += 2) {
        a[i] = 0.0;
        a[i + 1] = -g;
      }
      return a;
    };
  }
  throw new RequestError(`model '${model}' has no force law here (${MODELS.join(", ")})`);
}

const MODELS = ["spring", "damped-spring", "pendulum", "projectile", "orbit", "chain", "two-body",
  "figure-eight", "henon-heiles", ...ROD_MODELS];

// The constant gravity of a model that has one (projectile and the rod
// models: (0, -g)), for an engine's own gravity setting; null for the others.
function gravityOf(req) {
  return req.model === "projectile" || ROD_MODELS.has(req.model) ? -req.params.g : null;
}

// ---- the request ---------------------------------------------------------------

class RequestError extends Error {}

// the fields an adapter may rely on, checked once here so that a bad request
// is one clear message rather than a TypeError deep in an engine
function checkRequest(req) {
  const bad = (what) => { throw new RequestError(`the request's ${what}`); };
  if (typeof req !== "object" || req === null) bad("line is not a JSON object");
  if (typeof req.model !== "string") bad("'model' is not a string");
  if (!(req.dim >= 1 && req.dim <= 3 && Number.isInteger(req.dim))) bad("'dim' is not 1, 2 or 3");
  if (!(req.particles >= 1 && Number.isInteger(req.particles))) bad("'particles' is not a whole number >= 1");
  const n = req.dim * req.particles;
  const nums = (key, len) => {
    const a = req[key];
    if (!Array.isArray(a) || a.length !== len || !a.every((x) => typeof x === "number"))
      bad(`'${key}' is not ${len} numbers`);
  };
  nums("masses", req.particles);
  nums("x0", n);
  nums("v0", n);
  if (!Array.isArray(req.h) || !req.h.every((h) => typeof h === "number" && h > 0))
    bad("'h' is not a list of positive steps");
  if (typeof req.header !== "string" || req.header.includes("\n")) bad("'header' is not one line");
  if (typeof req.params !== "object" || req.params === null) bad("'params' is not an object");
  if (ROD_MODELS.has(req.model) && !Array.isArray(req.rods)) bad("'rods' are missing (a model with rods)");
  return n;
}

// ---- a rigid body (protocol 3) ------------------------------------------------

// the columns of a rigid body's rows (docs/real-engines.md, protocol version 3)
const BODY_COLUMNS = ["t", "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"];

// How far a request's numbers may be from what they claim, and why:
// - q0 is unit to 1e-12: normalised in double it is unit to a few 1e-16, and
//   17 digits keep that; a quaternion that is not unit is another attitude to
//   every engine that does not normalise it first;
// - w0_world is R(q0) w0_body to 1e-12 (1 + |w|): both are the harness's
//   doubles, one rotated from the other (a few ulps);
// - a box gives the moments m (b^2 + c^2)/12, ... to 1e-10 relative: the
//   harness computes the edges with square roots from the moments.
const UNIT_TOL = 1e-12, FRAME_TOL = 1e-12, BOX_TOL = 1e-10;

// R(q) v for a unit quaternion q = [w, x, y, z] (world-from-body)
function rotate(q, v) {
  const [w, x, y, z] = q;
  // t = 2 (q_vec x v); v' = v + w t + q_vec x t
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

// The request's rigid body, checked once here so that a bad one is one clear
// message naming the key: an engine given moments that no body has, or a q0
// that is not a rotation, computes something, and nobody would know.
function checkBody(req) {
  const bad = (what) => { throw new RequestError(`the request's ${what}`); };
  // a body at a contact (protocol 4) is a body too
  if (req.protocol !== BODY_PROTOCOL && !(req.contact !== undefined && req.protocol === CONTACT_PROTOCOL))
    bad(`'body' needs "protocol": 3`);
  checkBodyObject(req.body, "body", bad);
  checkRun(req, bad);
  return req.body;
}

// the fields of a run every rigid request has: its steps, header and model
function checkRun(req, bad) {
  const finite = (x) => typeof x === "number" && Number.isFinite(x);
  if (!Array.isArray(req.h) || !req.h.every((h) => finite(h) && h > 0)) bad("'h' is not a list of positive steps");
  if (typeof req.header !== "string" || req.header.includes("\n")) bad("'header' is not one line");
  if (typeof req.model !== "string") bad("'model' is not a string");
}

// one body object, version 3's (a request's 'body', or an element of a
// stack's 'bodies': `where` names it in the messages, "body" or "bodies[2]")
function checkBodyObject(b, where, bad) {
  if (typeof b !== "object" || b === null || Array.isArray(b)) bad(`'${where}' is not an object`);
  const finite = (x) => typeof x === "number" && Number.isFinite(x);
  const vec = (key, len) => {
    const a = b[key];
    if (!Array.isArray(a) || a.length !== len || !a.every(finite)) bad(`${where} '${key}' is not ${len} numbers`);
    return a;
  };
  if (!finite(b.mass) || !(b.mass > 0)) bad(`${where} 'mass' is not a positive number`);
  const I = vec("inertia", 3);
  if (!I.every((x) => x > 0)) bad(`${where} 'inertia' is not 3 positive numbers (principal moments)`);
  for (let i = 0; i < 3; i++) {
    const j = (i + 1) % 3, k = (i + 2) % 3;
    if (I[i] > (I[j] + I[k]) * (1 + 1e-12))
      bad(`${where} 'inertia' [${I.join(", ")}] is no rigid body's: I${i + 1} = ${I[i]} > I${j + 1} + I${k + 1} = ${I[j] + I[k]}`);
  }
  for (const key of ["x0", "v0", "w0_body", "w0_world", "gravity"]) vec(key, 3);
  const q = vec("q0", 4);
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(Math.abs(n - 1) <= UNIT_TOL)) bad(`${where} 'q0' is not a unit quaternion (|q0| = ${n}; want 1 to ${UNIT_TOL})`);
  const wb = b.w0_body, ww = b.w0_world, r = rotate(q, wb);
  const gap = Math.hypot(r[0] - ww[0], r[1] - ww[1], r[2] - ww[2]);
  if (!(gap <= FRAME_TOL * (1 + Math.hypot(ww[0], ww[1], ww[2]))))
    bad(`${where} 'w0_world' is not R(q0) w0_body (they differ by ${gap})`);
  if (b.box !== undefined) {
    const e = vec("box", 3);
    if (!e.every((x) => x > 0)) bad(`${where} 'box' is not 3 positive edge lengths`);
    for (let i = 0; i < 3; i++) {
      const j = (i + 1) % 3, k = (i + 2) % 3, want = b.mass * (e[j] * e[j] + e[k] * e[k]) / 12;
      if (!(Math.abs(want - I[i]) <= BOX_TOL * I[i]))
        bad(`${where} 'box' [${e.join(", ")}] does not give the moments: m (b^2 + c^2)/12 = ${want} for I${i + 1} = ${I[i]}`);
    }
  }
  return b;
}

// ---- a body at a contact (protocol 4) -------------------------------------------

// The request's contact (docs/real-engines.md §6.2), checked once here so that a
// bad one is one clear message naming the key, the same as the C helper's.  Its
// vectors have the model's dim components.  A normal of unit length to 1e-12:
// the harness writes an exact unit vector along an axis, 17 digits keep it.
function checkContact(req) {
  const bad = (what) => { throw new RequestError(`the request's ${what}`); };
  // a stack's (protocol 5) is the ground under its bodies, checked by checkStack
  const stack = req.bodies !== undefined;
  if (!stack && req.protocol !== CONTACT_PROTOCOL) bad(`'contact' needs "protocol": 4`);
  const c = req.contact;
  if (typeof c !== "object" || c === null || Array.isArray(c)) bad("'contact' is not an object");
  // a rigid body's (roll, box-incline): its state is the body's, its vectors
  // have 3 components
  const body = stack || req.body !== undefined;
  const n = body ? 3 : checkRequest(req);
  if (stack) { /* the bodies are checkStack's */ } else if (body) checkBody(req);
  else if (req.particles !== 1) bad("'particles' is not 1: a body at a contact is one body");
  const d = body ? 3 : req.dim;
  const finite = (x) => typeof x === "number" && Number.isFinite(x);
  const vec = (obj, where, key) => {
    const a = obj[key];
    if (!Array.isArray(a) || a.length !== d || !a.every(finite)) bad(`contact ${where}'${key}' is not ${d} numbers`);
    return a;
  };
  const num = (obj, where, key, ok, want) => {
    const x = obj[key];
    if (!finite(x) || !ok(x)) bad(`contact ${where}'${key}' is not ${want}`);
    return x;
  };
  const w = c.wall;
  if (typeof w !== "object" || w === null || Array.isArray(w)) bad("contact 'wall' is not an object");
  const nrm = vec(w, "wall ", "normal");
  if (!(Math.abs(Math.hypot(...nrm) - 1) <= 1e-12)) bad("contact wall 'normal' is not a unit vector");
  num(w, "wall ", "offset", () => true, "a number");
  if (w.thickness !== undefined) num(w, "wall ", "thickness", (x) => x > 0, "a positive number (or absent: a half-space)");
  vec(c, "", "gravity");
  num(c, "", "restitution", (x) => x >= 0 && x <= 1, "in [0, 1]");
  num(c, "", "threshold", (x) => x >= 0, "a number >= 0 (m/s)");
  num(c, "", "friction", (x) => x >= 0, "a number >= 0");
  // a rigid body's contact may tell the static and the kinetic coefficient
  // apart; friction is then the static one
  if (c.friction_static !== undefined || c.friction_kinetic !== undefined) {
    const s = num(c, "", "friction_static", (x) => x === c.friction, "the number 'friction' is");
    num(c, "", "friction_kinetic", (x) => x >= 0 && x <= s, "a number in [0, friction_static]");
  }
  const sh = c.shape;
  if (typeof sh !== "object" || sh === null || Array.isArray(sh)) bad("contact 'shape' is not an object");
  if (sh.kind === "ball") num(sh, "shape ", "radius", (x) => x > 0, "a positive number");
  else if (sh.kind === "box") {
    const e = vec(sh, "shape ", "edges");
    if (!e.every((x) => x > 0)) bad(`contact shape 'edges' is not ${d} positive numbers`);
  } else bad(`contact shape 'kind' is not "ball" or "box"`);
  vec(c, "", "centre");
  return n;
}

// ---- a stack of bodies on the ground (protocol 5) --------------------------------

// The request's stack (docs/real-engines.md §7): 'bodies', a list of version 3's
// body objects from the bottom up, each checked as 'body' is and named by its
// place from 1, and the 'contact' of a rigid body on the ground, whose friction
// is every touching pair's and whose box is every body's.  The same messages as
// the C helper's.  Returns the bodies.
function checkStack(req) {
  const bad = (what) => { throw new RequestError(`the request's ${what}`); };
  if (req.protocol !== STACK_PROTOCOL) bad(`'bodies' needs "protocol": ${STACK_PROTOCOL}`);
  if (req.body !== undefined) throw new RequestError("the request has both 'body' and 'bodies'");
  const bs = req.bodies;
  if (!Array.isArray(bs) || bs.length < 1 || bs.length > STACK_MAX_BODIES)
    bad(`'bodies' is not a list of 1 to ${STACK_MAX_BODIES} bodies`);
  bs.forEach((b, i) => checkBodyObject(b, `bodies[${i + 1}]`, bad));
  checkRun(req, bad);
  if (req.contact === undefined) bad("'contact' is missing (the ground under a stack)");
  checkContact(req);
  const sh = req.contact.shape;
  if (sh.kind !== "box") bad(`contact shape 'kind' is not "box" (a stack is of boxes)`);
  bs.forEach((b, i) => {
    if (!Array.isArray(b.box) || b.box.some((x, j) => x !== sh.edges[j]))
      bad(`bodies[${i + 1}] 'box' is not the contact's shape edges`);
  });
  return bs;
}

// ---- the pieces of a rotation method of your own ----------------------------
// The same operations in the same order as verletbench's
// (src/numerics/quaternion.c), so a method written with them computes what
// the built-in one computes, to round-off (Math.sin and Math.cos are V8's, not
// the C library's: the last bit may differ).  examples/engines/js/rigid-engine.js
// steps a RigidState with them.

// a . b and a x b, as vb_vec3_dot and vb_vec3_cross
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

// |a|: the square root of the sum of squares, in order (vb_magnitude's way
// for every number a rotation meets)
function norm(a) {
  let s = 0.0;
  for (const c of a) s += c * c;
  return Math.sqrt(s);
}

// the Hamilton product a b of quaternions [w, x, y, z], as vb_quat_mul
function quatMul(a, b) {
  return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]];
}

// q / |q| (q itself when |q| is 0 or not finite), as vb_quat_normalise
function quatNormalise(q) {
  const n = norm(q);
  return !(n > 0.0) || !Number.isFinite(n) ? q.slice() : q.map((c) => c / n);
}

// the unit quaternion of the rotation by the angle |r| about r,
// (cos(|r|/2), sin(|r|/2) r/|r|), as vb_quat_exp (sin(x)/x by its series
// below 1e-4, where the quotient loses nothing but 0/0 at 0)
function quatExp(r) {
  const half = 0.5 * norm(r);
  const s = 0.5 * (Math.abs(half) < 1e-4 ? 1.0 - half * half / 6.0 : Math.sin(half) / half);
  return [Math.cos(half), s * r[0], s * r[1], s * r[2]];
}

// The request's body as verletbench's rotation methods keep it
// (src/models/rigid.h): x and v of the centre of mass in the world, the
// attitude q = [w, x, y, z] world from body, the angular velocity w in the
// BODY frame along the principal axes; the body's moments I, mass m and
// gravity g.  row() is the 13 numbers of a row with angvel: "body".
class RigidState {
  constructor(req) {
    const b = req.body;
    this.x = b.x0.slice();
    this.v = b.v0.slice();
    this.q = b.q0.slice();
    this.w = b.w0_body.slice();
    this.I = b.inertia.slice();
    this.m = b.mass;
    this.g = b.gravity.slice();
  }
  row() {
    return [...this.x, ...this.q, ...this.v, ...this.w];
  }
}

// q or -q, whichever is nearer prev: one attitude, written without jumps
function continueSign(q, prev) {
  return q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0 ? q.map((c) => -c) : q;
}

// the column line: t, the positions, the velocities (docs/engines.md)
function columns(dim, particles, velocity) {
  const axes = "xyz".slice(0, dim).split("");
  let pos;
  if (dim === 1 && particles === 1) pos = ["x"];
  else if (particles === 1) pos = axes;
  else {
    pos = [];
    for (let i = 1; i <= particles; i++) for (const c of axes) pos.push(`${c}${i}`);
  }
  const vel = velocity === "none" ? [] : dim === 1 && particles === 1 ? ["v"] : pos.map((c) => "v" + c);
  return ["t", ...pos, ...vel];
}

// ---- options -------------------------------------------------------------------

// KEY=VALUE words against the adapter's table {key: default or [choices...]}:
// an unknown key or a value not among the choices stops with exit status 2
function parseOptions(name, table, argv) {
  const opt = {};
  for (const [k, d] of Object.entries(table)) opt[k] = Array.isArray(d) ? d[0] : d;
  const usage = () => Object.entries(table)
    .map(([k, d]) => (Array.isArray(d) ? `${k}=${d.join("|")}` : `${k}=${d}`)).join(" ");
  for (const a of argv) {
    if (a === "--help" || a === "-h") {
      process.stdout.write(`usage: ${name} [${usage()}] < request(s)\n` +
        "(defaults first; the requests are JSON lines, docs/engines.md and docs/real-engines.md)\n");
      process.exit(0);
    }
    const i = a.indexOf("=");
    const k = i < 0 ? a : a.slice(0, i), v = i < 0 ? "" : a.slice(i + 1);
    if (!(k in table)) die(name, `unknown option '${a}'; the options are: ${usage()}`);
    const d = table[k];
    if (Array.isArray(d) ? !d.includes(v) : !/^[0-9.eE+-]+$/.test(v) || !Number.isFinite(+v))
      die(name, `option ${k}=${v}: want ${Array.isArray(d) ? d.join(" or ") : "a number"}`);
    opt[k] = Array.isArray(d) ? v : +v;
  }
  for (const [k, d] of Object.entries(table)) if (!Array.isArray(d)) opt[k] = +opt[k];
  return opt;
}

function die(name, msg) {
  process.stderr.write(`${name}: ${msg}\n`);
  process.exit(2);
}

// "name@version" of an npm package installed beside this helper
// (engines/node_modules), read from its package.json: the provenance
function npmEngine(pkg) {
  const file = path.join(__dirname, "..", "node_modules", pkg, "package.json");
  try {
    return `${pkg}@${JSON.parse(fs.readFileSync(file, "utf8")).version}`;
  } catch (e) {
    return `${pkg}@unknown`;
  }
}

// ---- the loop ------------------------------------------------------------------

const out = {
  parts: [],
  size: 0,
  push(s) {
    this.parts.push(s);
    this.size += s.length;
    if (this.size > 1 << 16) this.flush();
  },
  flush() {
    if (this.parts.length) fs.writeSync(1, this.parts.join(""));
    this.parts = [];
    this.size = 0;
  },
};

// the capability line of protocol 2 (docs/real-engines.md): a comment to
// protocol 1
function capabilityLine(spec) {
  const caps = ["# verletbench-engine", `protocol=${protocolOf(spec)}`, "persistent=1",
    `precision=${spec.precision || "float64"}`, `velocity=${spec.velocity || "state"}`];
  if (spec.body || spec.bodyContact || spec.stack) caps.push(`angvel=${spec.angvel || "world"}`);
  if (spec.substeps) caps.push(`substeps=${spec.substeps}`);
  if (spec.engine) caps.push(`engine=${String(spec.engine).replace(/\s/g, "_")}`);
  return caps.join(" ") + "\n";
}

// one request: its trajectory, then the end line.  A RequestError (or any
// other exception) becomes an error line; the rows already written are then
// void (the harness drops them).
async function serve(spec, opt, line) {
  let req, id = "?";
  try {
    req = JSON.parse(line);
  } catch (e) {
    throw Object.assign(new RequestError(`the request is not JSON: ${e.message}`), { id });
  }
  if (req && typeof req.run === "string" && /^[^\s]+$/.test(req.run)) id = req.run;
  if (req && req.kind !== undefined && req.kind !== "run") return true; // requests.jsonl's "case" line
  try {
    if (req && typeof req === "object" && req.bodies !== undefined) {
      if (!spec.stack)
        throw new RequestError(`the request is a stack of bodies ('bodies', model '${req.model}'); this ` +
          `engine takes none (protocol ${protocolOf(spec)}; a stack needs protocol ${STACK_PROTOCOL})`);
      return await serveStack(spec, opt, req, id);
    }
    if (spec.stack && !spec.bodyContact && !spec.contact && !spec.make && !spec.body)
      throw new RequestError(`this engine takes a stack of bodies (protocol ${STACK_PROTOCOL}); the request ` +
        `(model '${req && req.model}') has no 'bodies'`);
    const scene = req && typeof req === "object" && req.contact !== undefined;
    const rigid = scene && req.body !== undefined; // a rigid body on the ground
    if (rigid && !spec.bodyContact)
      throw new RequestError(`the request is a rigid body at a contact ('contact' and 'body', model ` +
        `'${req.model}'); this engine takes ${spec.contact ? "particles at a contact only" : "none"} ` +
        `(protocol ${spec.contact ? CONTACT_PROTOCOL : spec.body ? BODY_PROTOCOL : PROTOCOL})`);
    if (rigid) return await serveBody(spec, opt, req, id);
    if (scene && !spec.contact)
      throw new RequestError(`the request is a body at a contact ('contact'); this engine takes none ` +
        `(protocol ${spec.body ? BODY_PROTOCOL : PROTOCOL}${spec.bodyContact ? ", rigid bodies at a contact only" : ""})`);
    if (!scene && (spec.contact || spec.bodyContact) && !spec.make && !spec.body)
      throw new RequestError(`this engine takes a body at a contact (protocol ${CONTACT_PROTOCOL}); the ` +
        `request (model '${req && req.model}') has no 'contact'`);
    if (!scene && req && typeof req === "object" && req.body !== undefined) return await serveBody(spec, opt, req, id);
    if (!scene && !spec.make)
      throw new RequestError(`this engine takes a rigid body (protocol ${BODY_PROTOCOL}); the request ` +
        `(model '${req && req.model}') has no 'body'`);
    const n = scene ? checkContact(req) : checkRequest(req);
    const world = await (scene ? spec.contact(req, opt) : spec.make(req, opt));
    const vel = spec.velocity !== "none";
    out.push(req.header + "\n" + columns(req.dim, req.particles, spec.velocity).join(",") + "\n");
    out.push([0, ...req.x0, ...(vel ? req.v0 : [])].join(",") + "\n");
    let t = 0.0, retire = false;
    for (const h of req.h) {
      const s = world.step(h);
      t += h;
      const x = s[0], v = s[1];
      if (x.length !== n || (vel && v.length !== n))
        throw new Error(`step() returned ${x.length} positions and ${v ? v.length : 0} velocities, want ${n}`);
      let row = String(t);
      for (let i = 0; i < n; i++) row += "," + x[i];
      if (vel) for (let i = 0; i < n; i++) row += "," + v[i];
      out.push(row + "\n");
      if (s[2] === "retire") retire = true;
    }
    if (world.free) world.free();
    out.push(`# verletbench-end run=${id}${retire ? " retire=1" : ""}\n`);
    out.flush();
    return !retire;
  } catch (e) {
    e.id = id;
    throw e;
  }
}

// one request of a rigid body: its 14-column trajectory, then the end line
async function serveBody(spec, opt, req, id) {
  const scene = req.contact !== undefined;
  if (!scene && !spec.body)
    throw new RequestError(`the request has a rigid body ('body'); this engine takes particles only ` +
      `(protocol ${PROTOCOL})`);
  if (scene) checkContact(req);
  const b = checkBody(req);
  const world = await (scene ? spec.bodyContact(req, opt) : spec.body(req, opt));
  const w0 = (spec.angvel || "world") === "body" ? b.w0_body : b.w0_world;
  out.push(req.header + "\n" + BODY_COLUMNS.join(",") + "\n");
  out.push([0, ...b.x0, ...b.q0, ...b.v0, ...w0].join(",") + "\n");
  let t = 0.0, retire = false, prev = b.q0;
  for (const h of req.h) {
    const s = world.step(h);
    t += h;
    if (!s || s.length < 13) throw new Error(`step() returned ${s ? s.length : 0} numbers, want 13 (x, q, v, w)`);
    const q = continueSign([s[3], s[4], s[5], s[6]], prev);
    prev = q;
    out.push([t, s[0], s[1], s[2], q[0], q[1], q[2], q[3], s[7], s[8], s[9], s[10], s[11], s[12]].join(",") + "\n");
    if (s[13] === "retire") retire = true;
  }
  if (world.free) world.free();
  out.push(`# verletbench-end run=${id}${retire ? " retire=1" : ""}\n`);
  out.flush();
  return !retire;
}

// the column line of a stack of n bodies: t, then body k's 13 columns with k
// appended (x1, y1, z1, qw1, ..., wz1, x2, ...), body 1 the bottom
function stackColumns(n) {
  const cols = ["t"];
  for (let k = 1; k <= n; k++) for (const c of BODY_COLUMNS.slice(1)) cols.push(`${c}${k}`);
  return cols;
}

// one request of a stack: its 1 + 13 n column trajectory, then the end line
async function serveStack(spec, opt, req, id) {
  const bs = checkStack(req), n = bs.length;
  const world = await spec.stack(req, opt);
  const bodyFrame = (spec.angvel || "world") === "body";
  out.push(req.header + "\n" + stackColumns(n).join(",") + "\n");
  out.push([0, ...bs.flatMap((b) => [...b.x0, ...b.q0, ...b.v0, ...(bodyFrame ? b.w0_body : b.w0_world)])].join(",") +
    "\n");
  const prev = bs.map((b) => b.q0);
  let t = 0.0, retire = false;
  for (const h of req.h) {
    const s = world.step(h);
    t += h;
    if (!s || s.length < 13 * n)
      throw new Error(`step() returned ${s ? s.length : 0} numbers, want ${13 * n} (x, q, v, w of ${n} bodies)`);
    let row = String(t);
    for (let k = 0; k < n; k++) {
      const o = 13 * k;
      const q = continueSign([s[o + 3], s[o + 4], s[o + 5], s[o + 6]], prev[k]);
      prev[k] = q;
      row += "," + [s[o], s[o + 1], s[o + 2], q[0], q[1], q[2], q[3], s[o + 7], s[o + 8], s[o + 9], s[o + 10],
        s[o + 11], s[o + 12]].join(",");
    }
    out.push(row + "\n");
    if (s[13 * n] === "retire") retire = true;
  }
  if (world.free) world.free();
  out.push(`# verletbench-end run=${id}${retire ? " retire=1" : ""}\n`);
  out.flush();
  return !retire;
}

function main(spec) {
  const name = spec.name;
  const opt = parseOptions(name, spec.options || {}, spec.argv || process.argv.slice(2));
  out.push(capabilityLine(spec));
  out.flush();
  let buf = "", ended = false, failed = false, busy = false, stop = false;
  const lines = [];
  async function pump() {
    if (busy) return;
    busy = true;
    while (lines.length && !stop) {
      const line = lines.shift();
      if (!line.trim()) continue;
      try {
        if (!(await serve(spec, opt, line))) stop = true; // retired: serve no more
      } catch (e) {
        failed = true;
        const msg = e instanceof RequestError ? e.message : (e && e.stack) || String(e);
        // the rows written before the failure go out before its error line,
        // as the C and Python helpers' streams write them: what the harness
        // reads of a failed run (a tumble before an engine's reset) must not
        // depend on how much this buffer held when it failed
        out.push(`# verletbench-error run=${e.id || "?"} ${msg.split("\n")[0]}\n`);
        out.flush();
        process.stderr.write(`${name}: run ${e.id || "?"}: ${msg}\n`);
      }
    }
    busy = false;
    if (stop || (ended && !lines.length)) {
      // retired, or the input ended.  Exit status 1 after a failed request:
      // a protocol-1 harness, which sends one request, reads that as the
      // run's failure
      out.flush();
      process.exit(failed ? 1 : 0);
    }
  }
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    buf += chunk;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
    pump();
  });
  process.stdin.on("end", () => {
    if (buf) lines.push(buf);
    buf = "";
    ended = true;
    pump();
  });
}

module.exports = { forceLaw, gravityOf, ROD_MODELS, MODELS, columns, parseOptions, npmEngine, main, RequestError,
  BODY_COLUMNS, checkBody, checkContact, checkStack, stackColumns, STACK_PROTOCOL, rotate, dot, cross, norm, quatMul, quatNormalise, quatExp,
  RigidState };
