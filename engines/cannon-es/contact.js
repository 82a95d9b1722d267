#!/usr/bin/env node
// cannon-es (3-D, doubles, used in the plane z = 0) at a contact (protocol 4):
// the request's scene built with cannon's own shapes and contact material,
// stepped by World.step (the scene: engines/lib/vbcontact.js; what was measured:
// docs/contact.md).  cannon-es has no restitution threshold (a threshold above
// 0 is refused) and no continuous collision detection to set.
"use strict";
const CANNON = require("cannon-es");
const vb = require("../lib/vbengine.js");
const vc = require("../lib/vbcontact.js");

vb.main({
  name: "cannon-es-contact",
  engine: vb.npmEngine("cannon-es"),
  // damping=off: linearDamping 0.  Its default 0.01 (dist/cannon-es.cjs.js:3398)
  // scales v by (1 - 0.01)^h every step (:12820-12830), a loss the measures
  // would read as contact (docs/contact.md); damping=engine keeps it.
  options: { damping: ["off", "engine"] },
  contact(req, o) {
    const s = vc.scene(req, 3);
    vc.noThreshold(s, "cannon-es");
    const world = new CANNON.World({ gravity: new CANNON.Vec3(...s.gravity) });
    // one contact material for every pair: the default one, with the
    // contact's friction and restitution; its stiffness 1e7 and relaxation 3
    // stay (dist/cannon-es.js:6675-6682)
    world.defaultContactMaterial.friction = s.friction;
    world.defaultContactMaterial.restitution = s.restitution;
    const w = s.wall;
    // a half-space: cannon's Plane, the shape cannon's own examples stand
    // things on, its normal (+z) turned to the wall's; a slab: a Box of its
    // thickness, 1 m deep in z
    const ground = new CANNON.Body({ mass: 0 });
    if (w.halfSpace) {
      ground.addShape(new CANNON.Plane());
      if (w.normal[1] === 1) ground.quaternion.setFromEuler(-Math.PI / 2, 0, 0); // +z to +y, as cannon's examples
      else ground.quaternion.setFromVectors(new CANNON.Vec3(0, 0, 1), new CANNON.Vec3(...w.normal));
      ground.position.set(...w.centre.map((x, i) => x + w.half[i] * w.normal[i]));
    } else {
      ground.position.set(...w.centre);
      ground.addShape(new CANNON.Box(new CANNON.Vec3(w.half[0], w.half[1], 1)));
    }
    world.addBody(ground);
    const damping = o.damping === "engine" ? {} : { linearDamping: 0 };
    const body = new CANNON.Body({ mass: s.mass, position: new CANNON.Vec3(...s.c0),
      velocity: new CANNON.Vec3(...s.u0), fixedRotation: s.lockRotation, ...damping });
    body.addShape(s.ball ? new CANNON.Sphere(s.radius) : new CANNON.Box(new CANNON.Vec3(...s.boxHalf)));
    world.addBody(body);
    return {
      step(h) {
        world.step(h); // one argument: one internalStep(h), no accumulator
        const c = body.position, v = body.velocity;
        return s.row([c.x, c.y, c.z], [v.x, v.y, v.z]);
      },
    };
  },
});
