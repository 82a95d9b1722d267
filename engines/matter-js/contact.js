#!/usr/bin/env node
// matter-js (position Verlet, doubles, time in ms) at a contact: the bounce, the
// slide and the tunnel of issue 44 posed with matter's own bodies, restitution,
// friction and slop, stepped by Engine.update (the poses: engines/lib/vbcontact.js;
// what was measured: docs/contact.md).  matter-js has no restitution threshold
// and no continuous collision detection to set.
"use strict";
const Matter = require("matter-js");
const vb = require("../lib/vbengine.js");
const vc = require("../lib/vbcontact.js");
const { Engine, Bodies, Body, Composite, Common } = Matter;

vb.main({
  name: "matter-js-contact",
  engine: vb.npmEngine("matter-js"),
  velocity: "derived", // Body.getVelocity: (x_n - x_n-1)/h_n (src/body/Body.js:560-565)
  // scale: matter units a metre.  Its lengths have no unit, but its default
  // gravity, 0.001 unit/ms^2 (src/core/Engine.js:47-51), is 9.81 m/s^2 at 102
  // units a metre, and its slop (0.05, Body.js:73) and resting threshold
  // (2 units a base step, collision/Resolver.js:17) are sized for that world:
  // 100 by default.  air=off: frictionAir 0 (its default 0.01, Body.js:67, damps
  // every step, which is no contact; docs/contact.md).
  options: { scale: "100", air: ["off", "engine"] },
  make(req, o) {
    const p = vc.pose(req), S = o.scale, T = 1000.0; // ms a second
    if (!(S > 0)) throw new vb.RequestError("scale must be positive");
    // matter's y points down: y_matter = -S y
    const engine = Engine.create({ gravity: { x: 0, y: 1, scale: (-p.gravity * S) / (T * T) } });
    const gb = vc.groundBox(req, p);
    // friction mixes as min, restitution as max (collision/Pair.js:68-71): the
    // same value on both bodies gives it; frictionStatic and slop are matter's
    const mu = req.model === "slide" ? p.mu : 0, e = req.model === "slide" ? 0 : p.e;
    const ground = Bodies.rectangle(gb.cx * S, -gb.cy * S, 2 * gb.hx * S, 2 * gb.hy * S,
      { isStatic: true, friction: mu, restitution: e });
    const air = o.air === "engine" ? {} : { frictionAir: 0 };
    const body = req.model === "slide"
      ? Bodies.rectangle(p.c0[0] * S, -p.c0[1] * S, p.size * S, p.size * S, { friction: mu, restitution: e, ...air })
      : Bodies.circle(p.c0[0] * S, -p.c0[1] * S, p.r * S, { friction: mu, restitution: e, ...air });
    Body.setMass(body, p.mass);
    if (req.model === "slide") Body.setInertia(body, Infinity); // rotation locked
    Composite.add(engine.world, [ground, body]);
    // matter's own start: Body.setVelocity puts positionPrev at x0 - v0 h0
    // (Body.js:545-547), its velocity in units a base step (Common._baseDelta)
    body.deltaTime = req.h[0] * T;
    const k = Common._baseDelta / T; // seconds a base step
    Body.setVelocity(body, { x: p.u0[0] * S * k, y: -p.u0[1] * S * k });
    return {
      step(h) {
        Engine.update(engine, h * T);
        const c = body.position, v = Body.getVelocity(body);
        return [[c.x / S, -c.y / S - p.lift], [v.x / (S * k), -v.y / (S * k)]];
      },
    };
  },
});
