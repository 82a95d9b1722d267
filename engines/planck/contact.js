#!/usr/bin/env node
// planck (Box2D 2.3 in JavaScript, doubles) at a contact: the bounce, the slide
// and the tunnel of issue 44 posed with planck's own shapes, restitution,
// friction, threshold and bullet settings, stepped by World.step (the poses:
// engines/lib/vbcontact.js; what was measured: docs/contact.md).
"use strict";
const planck = require("planck");
const vb = require("../lib/vbengine.js");
const vc = require("../lib/vbcontact.js");

vb.main({
  name: "planck-contact",
  engine: vb.npmEngine("planck"),
  // vth: Settings.velocityThreshold, one global (src/Settings.ts:98, 1 m/s);
  // continuous: World's continuousPhysics (on by default, dynamics/World.ts:56);
  // bullet: the moving body's bullet flag (off by default, dynamics/Body.ts:137)
  options: { vth: "1", continuous: ["on", "off"], bullet: ["off", "on"], viter: "8", piter: "3" },
  make(req, o) {
    const p = vc.pose(req);
    planck.Settings.velocityThreshold = o.vth;
    // allowSleep stays the engine's (true): a ball at rest may sleep, as in a game
    const world = new planck.World({ gravity: planck.Vec2(0, p.gravity), continuousPhysics: o.continuous === "on" });
    const gb = vc.groundBox(req, p);
    const ground = world.createBody({ type: "static", position: planck.Vec2(gb.cx, gb.cy) });
    // friction mixes as sqrt(f1 f2) and restitution as max(e1, e2)
    // (dynamics/Contact.ts:85-95): the same value on both shapes gives it
    const mu = req.model === "slide" ? p.mu : 0, e = req.model === "slide" ? 0 : p.e;
    ground.createFixture(planck.Box(gb.hx, gb.hy), { friction: mu, restitution: e });
    const body = world.createBody({ type: "dynamic", position: planck.Vec2(p.c0[0], p.c0[1]),
      linearVelocity: planck.Vec2(p.u0[0], p.u0[1]), bullet: o.bullet === "on",
      fixedRotation: req.model === "slide" });
    const shape = req.model === "slide" ? planck.Box(p.size / 2, p.size / 2) : planck.Circle(p.r);
    const area = req.model === "slide" ? p.size * p.size : Math.PI * p.r * p.r;
    body.createFixture(shape, { density: p.mass / area, friction: mu, restitution: e });
    return {
      step(h) {
        world.step(h, o.viter, o.piter); // one Box2D step, no accumulator (dynamics/World.ts:817)
        const c = body.getPosition(), v = body.getLinearVelocity();
        return [[c.x, c.y - p.lift], [v.x, v.y]];
      },
    };
  },
});
