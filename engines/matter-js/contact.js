#!/usr/bin/env node
// matter-js (position Verlet, doubles, time in ms) at a contact (protocol 4):
// the request's scene built with matter's own bodies, restitution, friction and
// slop, stepped by Engine.update (the scene: engines/lib/vbcontact.js; what was
// measured: docs/contact.md).  matter-js has no restitution threshold (a
// threshold above 0 is refused) and no continuous collision detection to set.
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
  contact(req, o) {
    const s = vc.scene(req, 2), S = o.scale, T = 1000.0; // ms a second
    if (!(S > 0)) throw new vb.RequestError("scale must be positive");
    vc.noThreshold(s, "matter-js");
    // matter's y points down: y_matter = -S y.  Its gravity is a direction
    // and a scale: the scene's, in units a ms^2
    const gn = Math.hypot(s.gravity[0], s.gravity[1]);
    const engine = Engine.create({ gravity: gn > 0 ? { x: s.gravity[0] / gn, y: -s.gravity[1] / gn, scale: (gn * S) / (T * T) }
      : { x: 0, y: 1, scale: 0 } });
    const w = s.wall;
    // friction mixes as min, restitution as max (collision/Pair.js:68-71): the
    // same value on both bodies gives it; frictionStatic and slop are matter's
    const mat = { friction: s.friction, restitution: s.restitution };
    const ground = Bodies.rectangle(w.centre[0] * S, -w.centre[1] * S, 2 * w.half[0] * S, 2 * w.half[1] * S,
      { isStatic: true, ...mat });
    const air = o.air === "engine" ? {} : { frictionAir: 0 };
    const body = s.ball
      ? Bodies.circle(s.c0[0] * S, -s.c0[1] * S, s.radius * S, { ...mat, ...air })
      : Bodies.rectangle(s.c0[0] * S, -s.c0[1] * S, 2 * s.boxHalf[0] * S, 2 * s.boxHalf[1] * S, { ...mat, ...air });
    Body.setMass(body, s.mass);
    if (s.lockRotation) Body.setInertia(body, Infinity);
    Composite.add(engine.world, [ground, body]);
    // matter's own start: Body.setVelocity puts positionPrev at x0 - v0 h0
    // (Body.js:545-547), its velocity in units a base step (Common._baseDelta)
    body.deltaTime = req.h[0] * T;
    const k = Common._baseDelta / T; // seconds a base step
    Body.setVelocity(body, { x: s.u0[0] * S * k, y: -s.u0[1] * S * k });
    return {
      step(h) {
        Engine.update(engine, h * T);
        const c = body.position, v = Body.getVelocity(body);
        return s.row([c.x / S, -c.y / S], [v.x / (S * k), -v.y / (S * k)]);
      },
    };
  },
});
