#!/usr/bin/env node
// matter-js (position Verlet with a time correction, in doubles, time in ms)
// as a verletbench engine.  engines/matter-js/README.md says how the request
// maps onto the engine, and why.
"use strict";
const Matter = require("matter-js");
const vb = require("../lib/vbengine.js");
const { Engine, Bodies, Body, Composite, Constraint } = Matter;

vb.main({
  name: "matter-js",
  engine: vb.npmEngine("matter-js"),
  velocity: "derived", // Body.getVelocity: (x_n - x_n-1)/h_n (src/body/Body.js:560-565)
  options: { start: ["own", "taylor"], units: ["ms", "s"], gravity: ["engine", "force"], citer: "2" },
  make(req, o) {
    const dim = req.dim, m = req.masses[0];
    if (req.particles !== 1 || dim > 2) throw new vb.RequestError("this adapter drives one particle in 1-D or 2-D");
    const T = o.units === "ms" ? 1000.0 : 1.0; // engine time units a second
    const accel = vb.forceLaw(req.model, req.params, dim);
    const g = o.gravity === "engine" ? vb.gravityOf(req) : null;
    // the default gravity is (0, 1) * 0.001 (src/core/Engine.js:47-51): replaced
    const engine = Engine.create({ gravity: { x: 0, y: g === null ? 0 : g, scale: 1 / (T * T) } });
    engine.constraintIterations = o.citer;
    const pos = (a) => ({ x: a[0], y: dim > 1 ? a[1] : 0 });
    // frictionAir defaults to 0.01 (Body.js:67), a damping on every step: off
    const body = Bodies.circle(req.x0[0], dim > 1 ? req.x0[1] : 0, 0.05,
      { frictionAir: 0, friction: 0, frictionStatic: 0, restitution: 0 });
    Body.setMass(body, m);
    Composite.add(engine.world, body);
    if (vb.ROD_MODELS.has(req.model)) {
      if (req.rods.length !== 1 || req.rods[0].j !== -1) throw new vb.RequestError("one rod to a pivot only");
      const r = req.rods[0];
      Composite.add(engine.world, Constraint.create({ pointA: pos(r.pivot), bodyB: body, length: r.length,
        stiffness: 1, damping: 0 }));
    }
    // the first step's correction h/h' and setVelocity both read body.deltaTime
    // (default 1000/60, Body.js:99): the run's first step
    const h0 = req.h[0];
    body.deltaTime = h0 * T;
    if (o.start === "own") {
      // matter's own start: Body.setVelocity puts positionPrev at x0 - v0 h0
      // (Body.js:545-547); its velocity unit is a length per Body._baseDelta
      const s = Body._baseDelta / T;
      Body.setVelocity(body, { x: req.v0[0] * s, y: dim > 1 ? req.v0[1] * s : 0 });
    } else {
      // Taylor: positionPrev = x0 - v0 h0 + a0 h0^2/2, as the built-in tcv starts
      const a0 = accel(req.x0, req.v0);
      body.positionPrev.x = req.x0[0] - req.v0[0] * h0 + 0.5 * a0[0] * h0 * h0;
      if (dim > 1) body.positionPrev.y = req.x0[1] - req.v0[1] * h0 + 0.5 * a0[1] * h0 * h0;
    }
    const s = T / Body._baseDelta;
    return {
      step(h) {
        if (g === null) {
          // a force in mass * length / unit^2: Body.update adds force/mass * delta^2
          const p = body.position, v = Body.getVelocity(body);
          const a = accel(dim > 1 ? [p.x, p.y] : [p.x], dim > 1 ? [v.x * s, v.y * s] : [v.x * s]);
          body.force.x = (m * a[0]) / (T * T);
          body.force.y = dim > 1 ? (m * a[1]) / (T * T) : 0;
        }
        Engine.update(engine, h * T);
        const p = body.position, v = Body.getVelocity(body);
        return dim > 1 ? [[p.x, p.y], [v.x * s, v.y * s]] : [[p.x], [v.x * s]];
      },
    };
  },
});
