// vbcontact.js — the contact poses (issue 44, docs/contact.md "What the 2D
// engines do at a contact") as a protocol-2 request, for the engines'
// contact adapters (engines/*/contact.js; engines/box2d/contact.cpp and
// engines/chipmunk/contact.c read the same fields).  The request is a run of
// one particle in 2-D whose model is the pose and whose params are its
// dimensions; the engine builds it from its own shapes, and the rows are the
// model's coordinates:
//
//   bounce  params h0, e, g, r: a ball of radius r, its lowest point at
//           x0 = [0, h0], dropped onto the top face of a static box, y = 0
//           (1 m thick, 20 m wide); rows: the centre's x and the lowest
//           point's height (centre y - r).  Friction 0.
//   slide   params v0, mu, g, size: a square block of edge `size` resting on
//           the same ground, its bottom at x0 = [0, 0], moving at
//           v0 = [v0, 0]; friction mu between them (each adapter says how
//           its engine mixes the shapes' coefficients), restitution 0,
//           rotation locked (the model is a point; at mu < 1 a square would
//           not tip anyway); rows: the centre's x and the bottom's height.
//           The ground is 200 m wide.
//   tunnel  params v, r, w, d, e: a ball of radius r, centre at
//           x0 = [d, 0], moving at v0 = [-v, 0], no gravity, towards a
//           static wall -w <= x <= 0 (20 m tall) of restitution e; rows: the
//           centre's x (its distance in front of the wall's face) and y.
//
// Masses: the request's (masses[0]); the shapes' densities are set to give
// it.  What each engine's defaults are (threshold, CCD, slop) is its own.
"use strict";

const vb = require("./vbengine.js");

const PARAMS = {
  bounce: ["h0", "e", "g", "r"],
  slide: ["v0", "mu", "g", "size"],
  tunnel: ["v", "r", "w", "d", "e"],
};

// the pose's params, checked: a bad one is one clear message naming it
function pose(req) {
  const keys = PARAMS[req.model];
  if (!keys)
    throw new vb.RequestError(`model '${req.model}' is not a contact pose here (${Object.keys(PARAMS).join(", ")})`);
  if (req.particles !== 1 || req.dim !== 2) throw new vb.RequestError("a contact pose is one particle in 2-D");
  const p = {};
  for (const k of keys) {
    const x = req.params[k];
    if (typeof x !== "number" || !Number.isFinite(x)) throw new vb.RequestError(`the request's params lack '${k}' (a number)`);
    p[k] = x;
  }
  const pos = (k) => { if (!(p[k] > 0)) throw new vb.RequestError(`param '${k}' = ${p[k]} is not positive`); };
  if (req.model !== "slide") pos("r");
  if (req.model === "bounce") { pos("h0"); pos("g"); }
  if (req.model === "slide") { pos("size"); pos("g"); if (!(p.mu >= 0)) throw new vb.RequestError(`param 'mu' = ${p.mu} is negative`); }
  if (req.model === "tunnel") { pos("w"); pos("v"); if (!(p.d > p.r)) throw new vb.RequestError(`param 'd' = ${p.d} is not > r`); }
  if (req.model !== "slide" && !(p.e >= 0 && p.e <= 1)) throw new vb.RequestError(`param 'e' = ${p.e} is not in [0, 1]`);
  p.gravity = req.model === "tunnel" ? 0 : -p.g;
  // the moving body's centre at the start, and the offset from its centre to
  // the row's point (the lowest point of the ball, the bottom of the block)
  p.lift = req.model === "bounce" ? p.r : req.model === "slide" ? p.size / 2 : 0;
  p.c0 = [req.x0[0], req.x0[1] + p.lift];
  p.u0 = [req.v0[0], req.v0[1]];
  p.mass = req.masses[0];
  return p;
}

// the static body's box: centre and half-extents
function groundBox(req, p) {
  if (req.model === "tunnel") return { cx: -p.w / 2, cy: 0, hx: p.w / 2, hy: 10 };
  return { cx: 0, cy: -0.5, hx: req.model === "slide" ? 100 : 10, hy: 0.5 };
}

module.exports = { pose, groundBox, PARAMS };
