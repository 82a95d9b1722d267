#!/usr/bin/env node
// cannon-es (3-D, doubles, used in the plane z = 0) at a contact: the bounce,
// the slide and the tunnel of issue 44 posed with cannon's own shapes and
// contact material, stepped by World.step (the poses: engines/lib/vbcontact.js;
// what was measured: docs/contact.md).  cannon-es has no restitution threshold
// and no continuous collision detection to set.
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
  make(req, o) {
    const p = vc.pose(req);
    const world = new CANNON.World({ gravity: new CANNON.Vec3(0, p.gravity, 0) });
    // one contact material for every pair: the default one, with the pose's
    // friction and restitution; its stiffness 1e7 and relaxation 3 stay
    // (dist/cannon-es.js:6675-6682)
    world.defaultContactMaterial.friction = req.model === "slide" ? p.mu : 0;
    world.defaultContactMaterial.restitution = req.model === "slide" ? 0 : p.e;
    const gb = vc.groundBox(req, p);
    // the ground: cannon's Plane (its normal, +z, turned to +y), the shape
    // cannon's own examples stand things on; the wall: a Box of thickness w
    const ground = new CANNON.Body({ mass: 0 });
    if (req.model === "tunnel") {
      ground.position.set(gb.cx, gb.cy, 0);
      ground.addShape(new CANNON.Box(new CANNON.Vec3(gb.hx, gb.hy, 1)));
    } else {
      ground.addShape(new CANNON.Plane());
      ground.quaternion.setFromEuler(-Math.PI / 2, 0, 0);
    }
    world.addBody(ground);
    const damping = o.damping === "engine" ? {} : { linearDamping: 0 };
    const body = new CANNON.Body({ mass: p.mass, position: new CANNON.Vec3(p.c0[0], p.c0[1], 0),
      velocity: new CANNON.Vec3(p.u0[0], p.u0[1], 0), fixedRotation: req.model === "slide", ...damping });
    const s = p.size / 2;
    body.addShape(req.model === "slide" ? new CANNON.Box(new CANNON.Vec3(s, s, s)) : new CANNON.Sphere(p.r));
    world.addBody(body);
    return {
      step(h) {
        world.step(h); // one argument: one internalStep(h), no accumulator
        const c = body.position, v = body.velocity;
        return [[c.x, c.y - p.lift], [v.x, v.y]];
      },
    };
  },
});
