#!/usr/bin/env node
// planck (Box2D 2.3 in JavaScript, doubles) at a contact (protocol 4): the
// request's scene (the bounce, the slide, the tunnel, or any body of a case at
// a wall) built with planck's own shapes, restitution, friction, threshold and
// bullet settings, stepped by World.step (the scene: engines/lib/vbcontact.js;
// what was measured: docs/contact.md).
"use strict";
const planck = require("planck");
const vb = require("../lib/vbengine.js");
const vc = require("../lib/vbcontact.js");

vb.main({
  name: "planck-contact",
  engine: vb.npmEngine("planck"),
  // continuous: World's continuousPhysics (on by default, dynamics/World.ts:56);
  // bullet: the moving body's bullet flag (off by default, dynamics/Body.ts:137)
  options: { continuous: ["on", "off"], bullet: ["off", "on"], viter: "8", piter: "3" },
  contact(req, o) {
    const s = vc.scene(req, 2);
    // the contact's threshold: Settings.velocityThreshold, one global
    // (src/Settings.ts:98, 1 m/s by default), read at Contact.ts:817
    planck.Settings.velocityThreshold = s.threshold;
    // allowSleep stays the engine's (true): a ball at rest may sleep, as in a game
    const world = new planck.World({ gravity: planck.Vec2(s.gravity[0], s.gravity[1]),
      continuousPhysics: o.continuous === "on" });
    const w = s.wall;
    const ground = world.createBody({ type: "static", position: planck.Vec2(w.centre[0], w.centre[1]) });
    // friction mixes as sqrt(f1 f2) and restitution as max(e1, e2)
    // (dynamics/Contact.ts:85-95): the same value on both shapes gives it
    ground.createFixture(planck.Box(w.half[0], w.half[1]), { friction: s.friction, restitution: s.restitution });
    const body = world.createBody({ type: "dynamic", position: planck.Vec2(s.c0[0], s.c0[1]),
      linearVelocity: planck.Vec2(s.u0[0], s.u0[1]), bullet: o.bullet === "on", fixedRotation: s.lockRotation });
    const shape = s.ball ? planck.Circle(s.radius) : planck.Box(s.boxHalf[0], s.boxHalf[1]);
    const area = s.ball ? Math.PI * s.radius * s.radius : (2 * s.boxHalf[0]) * (2 * s.boxHalf[1]);
    body.createFixture(shape, { density: s.mass / area, friction: s.friction, restitution: s.restitution });
    return {
      step(h) {
        world.step(h, o.viter, o.piter); // one Box2D step, no accumulator (dynamics/World.ts:817)
        const c = body.getPosition(), v = body.getLinearVelocity();
        return s.row([c.x, c.y], [v.x, v.y]);
      },
    };
  },
});
