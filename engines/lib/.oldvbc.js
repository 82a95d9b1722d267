// vbcontact.js — a body at a contact (protocol 4, docs/real-engines.md §6) as an
// engine's world, for the contact adapters (engines/*/contact.js;
// engines/box2d/contact.cpp and engines/chipmunk/contact.c do the same through
// vbcontact.h).  The request's 'contact' (checked by vbengine.js) is in the
// model's coordinates: a wall (its front face n.x = offset, n pointing out of
// it; a slab of the given thickness behind the face, or a half-space), gravity,
// the restitution, threshold and friction of the contact, the moving body's
// shape (a ball of radius r, or a box of edges along the model's axes), and
// `centre`, where the shape's centre is from the model's point (x0 and the
// rows: the bounce's ball's lowest point, the slide's block's bottom, the
// tunnel's ball's centre).
//
// scene(req, dims) places it in an engine's world of dims (2 or 3) axes:
//
//   - the model's axes are the world's x and y for a model of 2 (the slide's x
//     along the plane, y its normal: an inclined plane is a flat one under
//     tilted gravity); a model of 1 lies along y when it has gravity (the
//     bounce falls down y) and along x without (the tunnel's flight); z is 0;
//   - the wall is a box: 1 m thick behind its face for a half-space, w for a
//     slab, and 10 m to either side, or the first power of ten beyond twice as
//     far as the run could carry the body along it (100 m for the slide of
//     cases/engines/): what the adapters of issue 44 built, whose numbers the
//     harness's now equal (tests/real_engines_contact.py);
//   - the body's centre at the start is x0 + centre, its velocity v0; a row is
//     the centre minus `centre`, in the model's axes (row(c, u));
//   - a particle does not turn: the body's rotation is to be locked, but a
//     ball's on a frictionless wall, which nothing turns (lockRotation).
//
// The mass is the request's (masses[0]); each adapter gives its shape the
// density that makes it, and mixes the shapes' friction and restitution as its
// engine combines them so that the contact's are the request's (its comments
// name the rule).  An engine without a restitution threshold refuses one above
// 0 (noThreshold): it cannot build that contact.
"use strict";

const vb = require("./vbengine.js");

// the lateral half-extent of a wall, m: this, or the first power of ten above
// twice as far as the run could carry the body along it.  The size changes
// some engines' numbers at round-off and beyond (matter-js's tunnelling speed
// is 5.335 m/s beside a wall 20 m tall, 5.302 beside one 200 m tall): a
// size fixed by the scene, not by the engine, keeps the tables the same
const WALL_REACH = 10;

function scene(req, dims) {
  const c = req.contact, d = req.dim;
  const g = c.gravity;
  // the world axis of each model axis
  const axis = d === 1 ? [g[0] !== 0 ? 1 : 0] : d === 2 ? [0, 1] : [0, 1, 2];
  if (d > dims) throw new vb.RequestError(`a model of ${d} axes in an engine of ${dims}`);
  const world = (a) => {
    const out = new Array(dims).fill(0);
    for (let i = 0; i < d; i++) out[axis[i]] = a[i];
    return out;
  };
  const n = c.wall.normal;
  const k = n.findIndex((x) => x !== 0);
  if (n.some((x, i) => i !== k && x !== 0))
    throw new vb.RequestError(`the request's contact wall 'normal' [${n.join(", ")}] is not along an axis: ` +
      "the helpers build a wall of the engine's axes (tilt the gravity instead)");
  const slab = c.wall.thickness !== undefined;
  const half = slab ? c.wall.thickness / 2 : 0.5;
  // how far the body could go along the wall in the run: start, speed, gravity
  const T = req.h.reduce((a, h) => a + h, 0);
  let need = 0, reach = WALL_REACH;
  for (let i = 0; i < d; i++)
    if (i !== k) need = Math.max(need, 2 * (Math.abs(req.x0[i]) + Math.abs(req.v0[i]) * T + Math.abs(g[i]) * T * T));
  while (reach < need) reach *= 10;
  const wallNormal = world(n);
  const wallCentre = world(n.map((x) => x * (c.wall.offset - half)));
  const wallHalf = new Array(dims).fill(reach);
  wallHalf[axis[k]] = half;
  const sh = c.shape;
  const ball = sh.kind === "ball";
  // a box's half-edges in the world; a 2-D box in a 3-D world is as deep as its first edge
  const boxHalf = ball ? null : Array.from({ length: dims }, (_, j) => {
    const i = axis.indexOf(j);
    return (i >= 0 ? sh.edges[i] : sh.edges[0]) / 2;
  });
  const c0 = world(req.x0.map((x, i) => x + c.centre[i]));
  const u0 = world(req.v0);
  return {
    gravity: world(g), restitution: c.restitution, threshold: c.threshold, friction: c.friction,
    wall: { normal: wallNormal, centre: wallCentre, half: wallHalf, halfSpace: !slab },
    ball, radius: ball ? sh.radius : null, boxHalf,
    c0, u0, mass: req.masses[0],
    lockRotation: !ball || c.friction > 0,
    // the row of a body whose centre is at c moving at u (world)
    row(cw, uw) {
      const x = new Array(d), v = new Array(d);
      for (let i = 0; i < d; i++) {
        x[i] = cw[axis[i]] - c.centre[i];
        v[i] = uw[axis[i]];
      }
      return [x, v];
    },
  };
}

// an engine that has no restitution threshold: a contact with one it cannot build
function noThreshold(s, engine) {
  if (s.threshold > 0)
    throw new vb.RequestError(`the request's contact 'threshold' is ${s.threshold} m/s: ${engine} has no ` +
      "restitution threshold (want 0)");
}

// ---- a rigid body on the ground (roll, box-incline: §6.5) ----------------------

// the unit quaternion [w, x, y, z] that turns the z axis onto the unit n: a
// ground's box or plane whose local z is its normal
function zTo(n) {
  if (n[2] <= -1 + 1e-15) return [0, 1, 0, 0];
  const q = [1 + n[2], -n[1], n[0], 0];
  const s = Math.hypot(...q);
  return q.map((c) => c / s);
}

// the lateral half-extent of a ground box for a rigid body's run: WALL_REACH,
// or the first power of ten beyond twice as far as its start speed and the
// pull of gravity along the plane could carry it (scene()'s rule)
function groundReach(req) {
  const b = req.body, n = req.contact.wall.normal, T = req.h.reduce((a, h) => a + h, 0);
  const gn = vb.dot(b.gravity, n);
  const pull = Math.hypot(...b.gravity.map((x, i) => x - gn * n[i]));
  let reach = WALL_REACH;
  while (reach < 2 * (Math.hypot(...b.v0) * T + 0.5 * pull * T * T)) reach *= 10;
  return reach;
}

module.exports = { scene, noThreshold, WALL_REACH, zTo, groundReach };
