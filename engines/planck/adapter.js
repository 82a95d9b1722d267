#!/usr/bin/env node
// planck.js (a JavaScript port of Box2D 2.3, in doubles) as a verletbench engine.
// engines/planck/README.md says how the request maps onto the engine, and why.
"use strict";
const planck = require("planck");
const vb = require("../lib/vbengine.js");
const { Vec2 } = planck;

vb.main({
  name: "planck",
  engine: vb.npmEngine("planck"),
  options: { force: ["before", "prestep"], gravity: ["engine", "force"], viter: "8", piter: "3" },
  make(req, o) {
    const dim = req.dim, m = req.masses[0];
    if (req.particles !== 1) throw new vb.RequestError("this adapter drives one particle");
    const accel = vb.forceLaw(req.model, req.params, dim);
    const g = o.gravity === "engine" ? vb.gravityOf(req) : null;
    const P = (a) => Vec2(a[0], dim > 1 ? a[1] : 0);
    // sleeping is on by default (World.ts:52, Body.ts): off, or a slow body stops
    const world = new planck.World({ gravity: Vec2(0, g === null ? 0 : g), allowSleep: false });
    const body = world.createBody({ type: "dynamic", position: P(req.x0), linearVelocity: P(req.v0),
      linearDamping: 0, angularDamping: 0, allowSleep: false });
    // no fixtures: a point particle of the request's mass, no rotational inertia
    body.setMassData({ mass: m, center: Vec2(0, 0), I: 0 });
    if (vb.ROD_MODELS.has(req.model)) {
      if (req.rods.length !== 1 || req.rods[0].j !== -1) throw new vb.RequestError("one rod to a pivot only");
      const r = req.rods[0], ground = world.createBody({ type: "static" });
      // a rigid distance joint (frequencyHz 0) from the pivot to the bob's centre
      world.createJoint(planck.DistanceJoint({ frequencyHz: 0, dampingRatio: 0 }, ground, body,
        Vec2(r.pivot[0], r.pivot[1]), P(req.x0)));
    }
    const applyForce = () => {
      if (g !== null) return; // the world's gravity does it
      const p = body.getPosition(), v = body.getLinearVelocity();
      const a = accel(dim > 1 ? [p.x, p.y] : [p.x], dim > 1 ? [v.x, v.y] : [v.x]);
      body.applyForceToCenter(Vec2(m * a[0], dim > 1 ? m * a[1] : 0), true);
    };
    if (o.force === "prestep") world.on("pre-step", applyForce);
    return {
      step(h) {
        if (o.force === "before") applyForce();
        world.step(h, o.viter, o.piter);
        const p = body.getPosition(), v = body.getLinearVelocity();
        return dim > 1 ? [[p.x, p.y], [v.x, v.y]] : [[p.x], [v.x]];
      },
    };
  },
});
