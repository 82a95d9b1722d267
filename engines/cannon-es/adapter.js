#!/usr/bin/env node
// cannon-es (a 3-D engine, used in the plane z = 0; doubles) as a verletbench
// engine.  engines/cannon-es/README.md says how the request maps onto the
// engine, and why.
"use strict";
const CANNON = require("cannon-es");
const vb = require("../lib/vbengine.js");

vb.main({
  name: "cannon-es",
  engine: vb.npmEngine("cannon-es"),
  options: { force: ["before", "prestep"], gravity: ["engine", "force"], spook: ["fixed", "step"], iters: "10" },
  make(req, o) {
    const dim = req.dim, m = req.masses[0];
    if (req.particles !== 1 || dim > 2) throw new vb.RequestError("this adapter drives one particle in 1-D or 2-D");
    const accel = vb.forceLaw(req.model, req.params, dim);
    const g = o.gravity === "engine" ? vb.gravityOf(req) : null;
    const world = new CANNON.World({ gravity: new CANNON.Vec3(0, g === null ? 0 : g, 0), allowSleep: false });
    world.solver.iterations = o.iters;
    const V = (a) => new CANNON.Vec3(a[0], dim > 1 ? a[1] : 0, 0);
    // linearDamping defaults to 0.01 (dist/cannon-es.cjs.js:3398): off.  No
    // shape: a point of the request's mass (mass 0 would make it static)
    const body = new CANNON.Body({ mass: m, position: V(req.x0), velocity: V(req.v0),
      linearDamping: 0, angularDamping: 0, allowSleep: false });
    world.addBody(body);
    let eqs = [];
    if (vb.ROD_MODELS.has(req.model)) {
      if (req.rods.length !== 1 || req.rods[0].j !== -1) throw new vb.RequestError("one rod to a pivot only");
      const r = req.rods[0];
      const ground = new CANNON.Body({ mass: 0, position: new CANNON.Vec3(r.pivot[0], r.pivot[1], 0) });
      world.addBody(ground);
      const c = new CANNON.DistanceConstraint(ground, body, r.length);
      world.addConstraint(c);
      eqs = c.equations;
    }
    const applyForce = () => {
      if (g !== null) return; // the world's gravity does it
      const p = body.position, v = body.velocity;
      const a = accel(dim > 1 ? [p.x, p.y] : [p.x], dim > 1 ? [v.x, v.y] : [v.x]);
      body.force.set(m * a[0], dim > 1 ? m * a[1] : 0, 0);
    };
    if (o.force === "prestep") world.addEventListener("preStep", applyForce);
    return {
      step(h) {
        // every Equation's SPOOK parameters assume h = 1/60 (:5809): or the run's h
        if (o.spook === "step") for (const q of eqs) q.setSpookParams(1e7, 4, h);
        if (o.force === "before") applyForce();
        world.step(h); // no timeSinceLastCalled: one internalStep(h), no accumulator (:12519)
        const p = body.position, v = body.velocity;
        return dim > 1 ? [[p.x, p.y], [v.x, v.y]] : [[p.x], [v.x]];
      },
    };
  },
});
