#!/usr/bin/env node
// The JavaScript helper's test engine for a rigid body at a contact (protocol 4
// with a 'body', docs/real-engines.md §6.5): the request's ball or box on its
// plane, in closed form from the request's numbers alone (never the model's
// code: src/contact/roll.c and box_slide.c are what it tests the harness
// against).  The plane's normal n (out of the ground) and gravity g give
//   N = -g.n          the normal force per unit mass (> 0: gravity presses),
//   G = |g - (g.n) n|  the pull along the plane, d its direction (down the
//                     slope; on the flat, the direction of the start's velocity),
//   a = n x d         the rolling axis: a ball turning at w about a rolls along d
//                     at v = w R (its lowest point moves at u = v - w R).
// A ball of radius R and moment I = k m R^2 (k = I/(m R^2), from the body's
// inertia, equal moments) slips while u != 0, its friction mu_k N against the
// slip at the contact point:
//   dv/dt = G - s mu_k N,  dw/dt = s mu_k N / (k R),  du/dt = G - s mu_k N (1 + 1/k)
// (s the sign of u), and rolls once u = 0 if the friction that needs,
// G k/(1 + k), is at most mu_s N (then dv/dt = G/(1 + k)); else it slips on
// with s = +1.  A box (flat on a face) slides at G - s mu_k N while it moves,
// sticks once it stops (or from the start) if G <= mu_s N.  Each phase is a
// constant acceleration: x, v, w and the turn are polynomials of degree 2, the
// attitude q(t) = exp(theta(t) a/2) q0 (a turn about the fixed world axis a),
// w in the world frame w(t) a.
//
// A ball that starts above its plane (its lowest point h0 up, at rest along n:
// JoltPhysics#2121's drop) flies first: along d at G, w kept, its gap
// h0 - N t^2/2, so it lands at t_l = sqrt(2 h0/N) at the normal speed c = N t_l.
// The impact has restitution 0 (the only one served: a bounce is refused): the
// normal impulse per unit mass c, and Coulomb's tangential one at the contact
// point, the one that stops the slip u_l, u_l k/(1 + k), if that is at most
// mu_s c, else mu_k c against u_l.  From t_l the phases above, started there.
//
// Not an engine to measure: a test of the harness's side of a rigid body at a
// contact (tests/body_contact_engines.py): driven with a case's numbers, the
// harness must measure its rows as the exact answer (t_roll, v_roll, creep,
// a_err to round-off).  Option mu=SCALE multiplies the friction it uses (the
// test's way to move the answer where a closed form says it must go).
// Option overshoot=S (a test device, default 0) writes rows no exact ball
// has: a ball whose slip overshoots when it starts to roll, as a soft or
// regularised contact's does: its first 3 rolling rows spin S/R too fast
// (slip -S), and from the 4th on it rolls at the exact speed plus S; the
// speed it rolls at is then v* + S, not the v* where its slip first ended.
"use strict";
const vb = require("../lib/vbengine.js");

const { dot, cross, norm, quatMul, quatExp } = vb;
const axpy = (a, x, y) => x.map((xi, i) => a * xi + y[i]); // a x + y

// the phases of the motion along d: [{t0, x, v, w, theta, acc, alpha}], each from
// its start t0 on with x, v (along d), w (about a), theta (the turn), and the
// constant accelerations acc of v and alpha of w
function phases(p, start) {
  const out = [];
  let { t0, x, v, w, th } = start;
  for (let k = 0; k < 3; k++) {
    const u = p.round ? v - w * p.R : v; // the slip (a box: its speed)
    let acc, alpha = 0, end = Infinity;
    if (u === 0) {
      // at rest on the plane (a box) or rolling (a ball), if friction can hold it
      const need = p.round ? (p.G * p.k) / (1 + p.k) : p.G;
      if (need <= p.mus * p.N) {
        acc = p.round ? p.G / (1 + p.k) : 0;
        alpha = p.round ? acc / p.R : 0;
        out.push({ t0, x, v, w, th, acc, alpha });
        return out;
      }
      // it cannot: it slips down the slope from here (s = +1)
    }
    const s = u < 0 ? -1 : 1;
    const f = s * p.muk * p.N;
    acc = p.G - f;
    alpha = p.round ? f / (p.k * p.R) : 0;
    const du = acc - (p.round ? alpha * p.R : 0);
    if (u !== 0 && s * du < 0) end = -u / du; // the slip reaches 0
    out.push({ t0, x, v, w, th, acc, alpha });
    if (end === Infinity) return out;
    x += v * end + 0.5 * acc * end * end;
    th += w * end + 0.5 * alpha * end * end;
    v += acc * end;
    w += alpha * end;
    t0 += end;
    if (p.round) v = w * p.R; // exactly rolling (or exactly stopped: u = 0)
    else v = 0;
  }
  return out;
}

vb.main({
  name: "vb-body-contact-exact-js",
  angvel: "world",
  options: { mu: "1", overshoot: "0" },
  bodyContact(req, o) {
    const c = req.contact, b = req.body;
    const scale = Number(o.mu), over = Number(o.overshoot);
    if (!(scale >= 0)) throw new vb.RequestError(`mu=${o.mu}: want a number >= 0`);
    if (!(over >= 0)) throw new vb.RequestError(`overshoot=${o.overshoot}: want a number >= 0`);
    const n = c.wall.normal, g = c.gravity;
    const N = -dot(g, n);
    if (!(N > 0)) throw new vb.RequestError("gravity does not press the body on its plane");
    const gt = axpy(N, n, g); // g - (g.n) n
    const G = norm(gt);
    const vt = axpy(-dot(b.v0, n), n, b.v0);
    // d: down the slope, or on the flat along the start's velocity
    const d = G > 0 ? gt.map((x) => x / G) : norm(vt) > 0 ? vt.map((x) => x / norm(vt)) : [1, 0, 0];
    const a = cross(n, d);
    if (norm(axpy(-dot(vt, d), d, vt)) > 1e-12 * (1 + norm(vt)))
      throw new vb.RequestError("the start's velocity is not along the slope: this engine moves along d only");
    if (Math.abs(dot(b.v0, n)) > 0) throw new vb.RequestError("the body starts moving off its plane (a normal velocity)");
    const ball = c.shape.kind === "ball";
    // the body's lowest point on the plane: R for a ball, a box's half extent along n
    const half = ball ? [c.shape.radius, 0, 0] : c.shape.edges.map((e) => e / 2);
    const q0 = b.q0;
    const support = ball ? c.shape.radius : [0, 1, 2].reduce((s, i) => {
      const e = [0, 0, 0];
      e[i] = 1;
      return s + Math.abs(dot(n, vb.rotate(q0, e))) * half[i];
    }, 0);
    let gap = dot(n, b.x0) - c.wall.offset - support;
    if (Math.abs(gap) <= 1e-12 * (1 + Math.abs(support))) gap = 0;
    if (gap < 0) throw new vb.RequestError(`the body starts ${-gap} m inside its plane`);
    if (gap > 0 && !ball) throw new vb.RequestError("a box that starts above its plane: this engine drops a ball only");
    if (gap > 0 && c.restitution !== 0)
      throw new vb.RequestError(`a dropped ball with restitution ${c.restitution}: this engine lands one with 0`);
    const I = b.inertia;
    if (ball && (I[1] !== I[0] || I[2] !== I[0]))
      throw new vb.RequestError("a ball of unequal moments: this engine rolls one of equal moments");
    const ww0 = b.w0_world;
    if (!ball && norm(ww0) > 0) throw new vb.RequestError("a box that starts turning: this engine slides one");
    if (ball && norm(axpy(-dot(ww0, a), a, ww0)) > 1e-12 * (1 + norm(ww0)))
      throw new vb.RequestError("a ball turning about another axis than the rolling one");
    const R = c.shape.radius;
    const p = {
      round: ball, R, k: ball ? I[0] / (b.mass * R * R) : 0, N, G,
      mus: scale * (c.friction_static ?? c.friction), muk: scale * (c.friction_kinetic ?? c.friction),
      v0: dot(b.v0, d), w0: ball ? dot(ww0, a) : 0,
    };
    // the flight, and the impact at the landing (t_l 0: it starts on the plane)
    const tl = gap > 0 ? Math.sqrt((2 * gap) / N) : 0, cl = N * tl;
    const flight = (t) => ({ x: p.v0 * t + 0.5 * G * t * t, v: p.v0 + G * t, th: p.w0 * t });
    let start = { t0: 0, x: 0, v: p.v0, w: p.w0, th: 0 };
    if (tl > 0) {
      const f = flight(tl), ul = f.v - p.w0 * R, stop = (ul * p.k) / (1 + p.k);
      const imp = Math.abs(stop) <= p.mus * cl ? stop : Math.sign(ul) * p.muk * cl;
      const v = f.v - imp;
      start = { t0: tl, x: f.x, v, w: imp === stop ? v / R : p.w0 + imp / (p.k * R), th: f.th };
    }
    const ph = phases(p, start);
    let t = 0, rolled = 0;
    return {
      step(h) {
        t += h;
        if (t < tl) {
          // in flight: along d as the phases, and along n the fall
          const f = flight(t), q = quatMul(quatExp(a.map((ai) => f.th * ai)), q0);
          const X = axpy(-0.5 * N * t * t, n, axpy(f.x, d, b.x0)), V = axpy(-N * t, n, d.map((di) => f.v * di));
          return [...X, ...q, ...V, ...a.map((ai) => p.w0 * ai)];
        }
        let j = ph.length - 1;
        while (j > 0 && ph[j].t0 > t) j--;
        const f = ph[j], s = t - f.t0;
        const x = f.x + f.v * s + 0.5 * f.acc * s * s;
        let v = f.v + f.acc * s;
        let w = f.w + f.alpha * s;
        if (over > 0 && p.round && Math.abs(v - w * R) <= 1e-12 * (1 + Math.abs(v))) {
          rolled += 1;
          if (rolled <= 3) w += over / R;
          else v += over, w += over / R;
        }
        const th = f.th + f.w * s + 0.5 * f.alpha * s * s;
        const q = quatMul(quatExp(a.map((ai) => th * ai)), q0);
        const X = axpy(-gap, n, axpy(x, d, b.x0)), V = d.map((di) => v * di), W = a.map((ai) => w * ai);
        return [...X, ...q, ...V, ...W];
      },
    };
  },
});
