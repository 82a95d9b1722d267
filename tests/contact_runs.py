#!/usr/bin/env python3
"""contact_runs.py BUILD_DIR — contact handlers round a method, as rows of
the tables (`[contact] handler = ...`, `sim --contact`, docs/contact.md),
each held to a truth computed here, not by the C code:

- toi round velocity Verlet on the bounce is the exact piecewise
  trajectory to round-off: every sample of `sim --trajectory` against the
  flights summed one by one here (impact times T_k = T_(k-1) + 2 e^k v0/g),
  every flight's energy y + v^2/(2g) against its apex e^(2n) h0, and the
  measured restitution of the first bounces against e;
- the threshold ends the bouncing at the first n with e^n v0 < vth (n found
  here by hand's rule), and the ball rests in the step that holds T_n;
- the slide: impulse and project round symplectic Euler stop at their sums,
  toi round velocity Verlet at v0^2/(2 mu g);
- the tunnel: project and impulse let the ball through from exactly
  (r + w/2)/dt, half the bound (w + 2r)/dt (derived below), to the
  bisection's tolerance; toi never;
- a case with [contact] writes rows METHOD+HANDLER, contact.csv, and
  summary.md's section; run prints it;
- bad input: sim --contact with an unknown handler, a model without a
  contact, a loop beside it: exit 2 naming the option.
Ends with "N passed, N failed"."""
import math
import os
import sys

import suite

S = suite.Suite("contact runs", guard=300)
check, vb = S.check, S.vb

G = 9.81
EPS = 2.0 ** -52


def sim(tmp, *args):
    """sim's two rows: runs.csv's and contact.csv's, as dicts."""
    r = vb("sim", *args)
    lines = r.stdout.splitlines()
    if r.returncode != 0 or len(lines) != 4:
        return r, None, None
    run = dict(zip(lines[0].split(","), lines[1].split(",")))
    contact = dict(zip(lines[2].split(","), lines[3].split(",")))
    return r, run, contact


class Bounce:
    """The exact bounce, its flights summed one by one (not the C closed
    form): impact k at T_k with speed e^k v0; it bounces while e^k v0 >=
    vth (Box2D v3's rule, docs/contact.md)."""

    def __init__(self, h0, e, vth, t_end):
        self.h0, self.e, self.vth = h0, e, vth
        self.v0 = math.sqrt(2 * G * h0)
        self.T = [math.sqrt(2 * h0 / G)]
        self.rest = None  # the impact at which it rests
        k = 0
        while self.T[-1] <= t_end:
            if self.v0 * e ** k < vth or e == 0:
                self.rest = k
                break
            k += 1
            self.T.append(self.T[-1] + 2 * e ** k * self.v0 / G)

    def state(self, t):
        """(y, v, flight): flight 0 is the drop; -1 at rest."""
        if t < self.T[0]:
            return self.h0 - G * t * t / 2, -G * t, 0
        for k in range(1, len(self.T)):
            if t < self.T[k] or (self.rest is None and k == len(self.T) - 1):
                if self.rest is not None and k > self.rest:
                    break
                tau, u = t - self.T[k - 1], self.e ** k * self.v0
                return tau * (u - G * tau / 2), u - G * tau, k
        return 0.0, 0.0, -1


def read_trajectory(path):
    rows = suite.table_rows(path)
    return [(float(r["t"]), float(r["x"]), float(r["v"])) for r in rows]


def test_toi_verlet_bounce_exact(tmp):
    """The round-off bound (docs/contact.md, tests/test_handlers.c): a
    velocity Verlet step moves the flight energy by at most 6 eps g h0, an
    impact's root and step by 200 eps h0; after N steps and n impacts every
    apex is within eps h0 (8 N + 256 n) of e^(2n) h0 and the position
    within four times that of the exact y(t).  A handler that did not split
    the step would be v0 dt ~ 0.07 m off at 60 Hz."""
    for e in (0.5, 0.8):
        for hz in (30, 60, 144):
            h0 = 1.0
            t0 = math.sqrt(2 * h0 / G)
            t_inf = t0 * (1 + e) / (1 - e)
            t_end = 0.9 * t_inf  # before the impacts crowd below the step
            # a whole number of steps of 1/hz: sim keeps --dt then
            steps = int(t_end * hz)
            dt = 1.0 / hz
            t_end = steps * dt
            traj = os.path.join(tmp, "toi-%g-%d.csv" % (e, hz))
            r, run, c = sim(tmp, "--model", "bounce", "--set", "h0=1", "--set", "e=%r" % e,
                            "--integrator", "velocity-verlet", "--contact", "toi", "--dt",
                            repr(dt), "--t-end", repr(t_end), "--trajectory", traj)
            what = "toi + velocity-verlet, e = %g, %d Hz" % (e, hz)
            check(r.returncode == 0 and run and run["integrator"] == "velocity-verlet+toi",
                  what + ": sim runs, its row METHOD+HANDLER", r.stderr + r.stdout)
            if not run:
                continue
            b = Bounce(h0, e, 0.0, t_end)
            worst_x = worst_apex = 0.0
            ok = True
            rows = read_trajectory(traj)
            for i, (t, y, v) in enumerate(rows):
                ye, ve, k = b.state(t)
                n = sum(1 for T in b.T if T <= t)  # impacts so far
                bound = EPS * h0 * (8 * i + 256 * n)
                worst_x = suite.max_or_nan(worst_x, abs(y - ye) / (4 * bound) if bound else abs(y - ye))
                if not abs(y - ye) <= 4 * bound + (0 if i else 0.0):
                    ok = False
                if k >= 1:
                    apex = y + v * v / (2 * G)
                    worst_apex = suite.max_or_nan(worst_apex, abs(apex - e ** (2 * k) * h0) / bound)
                    if not abs(apex - e ** (2 * k) * h0) <= bound:
                        ok = False
            check(ok and len(rows) == steps + 1,
                  what + ": every sample on the exact bounce and every apex e^2n h0 to the "
                  "round-off bound", "worst |y - y_exact| / bound %.3g, worst apex / bound %.3g, "
                  "%d rows" % (worst_x, worst_apex, len(rows)))
            for j in (1, 2, 3):
                cell = c["e_bounce%d" % j]
                check(cell != "" and abs(float(cell) - e) <= 1e-12,
                      what + ": measured restitution of bounce %d is e to 1e-12" % j, cell)


def test_threshold_ends_the_bouncing(tmp):
    """The first n with e^n v0 < vth does not bounce: found here by the
    rule, for (e, vth) = (0.5, 1): 3, (0.7, 0.5): 7, (0.9, 2): 8 by hand
    (docs/contact.md).  toi round velocity Verlet meets every impact at its
    exact speed, so its run bounces n times and rests at the end of the
    step that holds T_n: t_rest in (T_n, T_n + dt]."""
    for e, vth, by_hand in ((0.5, 1.0, 3), (0.7, 0.5, 7), (0.9, 2.0, 8)):
        v0 = math.sqrt(2 * G)
        n = 0
        while v0 * e ** n >= vth:
            n += 1
        check(n == by_hand, "threshold e = %g, vth = %g: the rule gives %d (by hand %d)"
              % (e, vth, n, by_hand))
        b = Bounce(1.0, e, vth, 1e9)
        t_n = b.T[n]
        dt = 1.0 / 60
        t_end = (math.floor((t_n + 0.5) / dt) + 1) * dt
        r, run, c = sim(tmp, "--model", "bounce", "--set", "e=%r" % e, "--set", "vth=%r" % vth,
                        "--integrator", "velocity-verlet", "--contact", "toi", "--dt", repr(dt),
                        "--t-end", repr(t_end))
        what = "toi + velocity-verlet, e = %g, vth = %g" % (e, vth)
        check(c is not None, what + ": sim runs", r.stderr)
        if not c:
            continue
        check(float(c["bounces"]) == n and float(c["bounces_exact"]) == n,
              what + ": %d bounces, measured and exact" % n, (c["bounces"], c["bounces_exact"]))
        t_rest = float(c["t_rest"])
        check(t_n < t_rest <= t_n + dt * (1 + 1e-12),
              what + ": rests in the step that holds T_%d = %.6f" % (n, t_n), t_rest)
        check(abs(float(c["t_rest_exact"]) - t_n) <= 1e-12 * t_n,
              what + ": the exact rest is T_n", c["t_rest_exact"])


def test_tunnel_passing_speed(tmp):
    """The derivation.  No force: both methods drift the ball exactly,
    x -> x - v dt.  From the worst phase, the surface just touching the
    front face (separation 0+: the last one project and impulse, whose
    speculative distance is 0 here, leave unchecked), one step carries the
    centre to r - v dt from the front face.  The discrete check both use is
    the nearest face (a ball whose centre is past the slab's mid-plane,
    -w/2, is held to the back face, as Box2D's circle against a polygon
    is): in front of it the ball is sent back, behind it pushed out through
    the back, moving away, and it has passed.  So it passes iff
    r - v dt < -w/2:
        v_pass = (r + w/2) / dt = (w + 2r) / (2 dt),
    exactly half the bound (w + 2r)/dt above which a step jumps the wall
    without ever overlapping it (the bound a check against the front face
    alone would reach).  The bisection stops within 1e-12 of the speed, and
    starts a few ulps past separation 0: 4e-12 relative.  toi sweeps the
    step against the face's plane and never passes: inf, none up to 1000
    times the bound."""
    for r_, w_ in ((0.1, 0.05), (0.25, 0.5)):
        for hz in (30, 60, 144):
            dt = 1.0 / hz
            for method in ("velocity-verlet", "euler-semi"):
                for h in ("project", "impulse", "toi"):
                    p, run, c = sim(tmp, "--model", "tunnel", "--set", "r=%r" % r_, "--set",
                                    "w=%r" % w_, "--integrator", method, "--contact", h, "--dt",
                                    repr(dt), "--t-end", repr(20 * dt))
                    what = "tunnel r = %g, w = %g, %d Hz, %s+%s" % (r_, w_, hz, method, h)
                    check(c is not None, what + ": sim runs", p.stderr)
                    if not c:
                        continue
                    bound = (w_ + 2 * r_) / dt
                    check(abs(float(c["pass_bound"]) - bound) <= 1e-12 * bound,
                          what + ": the bound (w + 2r)/dt", c["pass_bound"])
                    if h == "toi":
                        check(c["pass_speed"] == "inf", what + ": never passes", c["pass_speed"])
                    else:
                        want = (r_ + w_ / 2) / dt
                        got = float(c["pass_speed"])
                        check(abs(got - want) <= 4e-12 * want,
                              what + ": passes from (r + w/2)/dt = %.12g" % want, got)


def test_slide_stops(tmp):
    """The slide, v0 = 3, mu = 0.5, on the flat and at alpha = 20 degrees
    (tan alpha = 0.364 < mu: it stops), through sim --contact
    (docs/contact.md, tests/test_handlers.c derive it): the deceleration
    a = g (mu cos alpha - sin alpha).  impulse round symplectic Euler is
    Box2D's step: the kick adds g sin alpha dt along the slope and
    -g cos alpha dt across it, the contact cancels the latter (J = g cos
    alpha dt), friction takes at most mu J from the kicked tangential
    velocity, the drift moves with the result: v_(k+1) = v_k - a dt while
    v_k > a dt, then 0, and x_(k+1) = x_k + v_(k+1) dt; with K the largest k
    with v0 - k a dt > 0 it stops at sample K + 1 at
        x_stop = dt (K v0 - a dt K (K+1)/2),
    its velocities on the exact line, so t_stop = v0 / a.  project drifts
    before friction acts: dt ((K+1) v0 - a dt K (K+1)/2) + (K+1) g sin alpha
    dt^2.  toi round velocity Verlet stops exactly at v0^2 / (2a).
    Tolerances: 1e-12 relative, at most 215 steps of round-off (1e-9 for
    toi: its sticking time is a root found in a step)."""
    v0, mu = 3.0, 0.5
    for alpha in (0.0, 20.0):
        sa, ca = math.sin(math.radians(alpha)), math.cos(math.radians(alpha))
        a = G * (mu * ca - sa)
        for hz in (30, 60, 144):
            dt = 1.0 / hz
            K = math.ceil(v0 / (a * dt)) - 1
            want = {
                ("euler-semi", "impulse"): dt * (K * v0 - a * dt * K * (K + 1) / 2),
                ("euler-semi", "project"): dt * ((K + 1) * v0 - a * dt * K * (K + 1) / 2)
                + (K + 1) * G * sa * dt * dt,
                ("velocity-verlet", "toi"): v0 * v0 / (2 * a),
            }
            t_end = math.ceil(1.5 * v0 / a / dt) * dt
            for (method, h), x_stop in want.items():
                r, run, c = sim(tmp, "--model", "slide", "--set", "v0=3", "--set", "mu=0.5",
                                "--set", "alpha=%r" % alpha, "--integrator", method,
                                "--contact", h, "--dt", repr(dt), "--t-end", repr(t_end))
                what = "slide at %g degrees %s+%s, %d Hz" % (alpha, method, h, hz)
                check(c is not None, what + ": sim runs", r.stderr)
                if not c:
                    continue
                tol = 1e-9 if h == "toi" else 1e-12
                check(abs(float(c["stop_x"]) - x_stop) <= tol * x_stop,
                      what + ": stops at %.12g" % x_stop, c["stop_x"])
                check(abs(float(c["stop_x_exact"]) - v0 * v0 / (2 * a)) <= 1e-12 * x_stop,
                      what + ": the exact stop v0^2/(2a)", c["stop_x_exact"])
                if h != "project":
                    check(abs(float(c["stop_t"]) - v0 / a) <= tol * v0 / a,
                          what + ": stops at t = v0 / a", c["stop_t"])


def test_case_rows_and_findings(tmp):
    out = os.path.join(tmp, "out")
    r = vb("run", os.path.join(suite.ROOT, "cases", "bounce.case"), "--out", out,
           "--no-chart-data")
    check(r.returncode == 0, "run cases/bounce.case", r.stderr)
    runs = suite.table_rows(os.path.join(out, "bounce", "runs.csv"))
    names = sorted({x["integrator"] for x in runs})
    want = sorted("%s+%s" % (m, h) for m in ("euler-semi", "velocity-verlet")
                  for h in ("project", "impulse", "toi"))
    check(names == want, "runs.csv's rows are METHOD+HANDLER", names)
    contact = suite.table_rows(os.path.join(out, "bounce", "contact.csv"))
    check(len(contact) == len(runs), "contact.csv: a row a run", (len(contact), len(runs)))
    check("### The contact handlers" in r.stdout and "velocity-verlet+toi" in r.stdout,
          "run prints the handlers' findings", r.stdout[-2000:])
    # use = all with a [contact]: the one-step methods of the table, each
    # inside the handler (verlet, verlet-naive, tcv, verlet-var and beeman
    # keep x_(n-1); rkf45 and rk8pd choose their steps; the constrained
    # ones hold rods)
    case = os.path.join(tmp, "all.case")
    with open(case, "w") as f:
        f.write("[case]\nmodel = bounce\nt_end = 1\n[steps]\ndt = 0.01\nhalvings = 2\n"
                "[integrators]\nuse = all\n[contact]\nhandler = toi\n")
    r = vb("run", "--quiet", "--no-chart-data", case, "--out", out)
    rows = suite.table_rows(os.path.join(out, "all", "runs.csv")) if r.returncode == 0 else []
    check(list(dict.fromkeys(x["integrator"] for x in rows)) ==
          [m + "+toi" for m in ("euler", "euler-semi", "velocity-verlet", "leapfrog", "rk4",
                                "yoshida4", "pefrl")],
          "use = all inside a handler: the one-step methods", (r.stderr, rows[:1]))
    # a particle case writes no contact.csv
    r = vb("run", os.path.join(suite.ROOT, "cases", "projectile.case"), "--out", out,
           "--no-chart-data")
    check(not os.path.exists(os.path.join(out, "projectile", "contact.csv")),
          "a case without [contact] writes no contact.csv")


def test_charts(tmp):
    """draw gives a bounce case its apex chart and the tunnel its passing
    speed chart, from bounces.csv (chart data) and contact.csv."""
    out = os.path.join(tmp, "charts")
    r = vb("run", "--quiet", os.path.join(suite.ROOT, "cases", "bounce-elastic.case"),
           os.path.join(suite.ROOT, "cases", "tunnel.case"), "--out", out)
    check(r.returncode == 0, "run the elastic bounce and the tunnel", r.stderr)
    rows = suite.table_rows(os.path.join(out, "bounce-elastic", "bounces.csv"))
    vv = [x for x in rows if x["integrator"] == "velocity-verlet+toi"
          and abs(float(x["dt"]) - 1 / 30) < 1e-12]
    # toi round velocity Verlet at e = 1: every apex h0 = 1 (the bound of
    # test_toi_verlet_bounce_exact: eps h0 (8 N + 256 n), N <= 480, n <= 16)
    check(len(vv) == 16 and all(abs(float(x["apex"]) - 1) <= 2.0 ** -52 * (8 * 480 + 256 * 16)
                                and float(x["apex_exact"]) == 1 for x in vv),
          "bounces.csv: velocity-verlet+toi's 16 apexes are h0 at e = 1", vv[:3])
    r = vb("draw", out)
    check(r.returncode == 0, "draw the contact cases", r.stderr)
    for f in ("bounce-elastic/bounces.png", "tunnel/tunnel.png"):
        p = os.path.join(out, "plots", f)
        check(os.path.exists(p) and os.path.getsize(p) > 1000, "draw wrote " + f)


def test_sim_bad_contact(tmp):
    for args, msg in (
        (("--model", "bounce", "--integrator", "velocity-verlet", "--contact", "tio"),
         "--contact: unknown handler 'tio' (valid: project, impulse, toi)"),
        (("--model", "spring", "--integrator", "velocity-verlet", "--contact", "toi"),
         "--contact: the model spring has no contact"),
        (("--model", "bounce", "--integrator", "verlet", "--contact", "toi"),
         "--contact: verlet is a multistep method"),
        (("--model", "bounce", "--integrator", "velocity-verlet", "--contact", "toi", "--loop",
          "variable"), "--contact: give --contact or --loop, not both"),
    ):
        r = vb("sim", *args)
        check(r.returncode == 2 and msg in r.stderr, "sim %s: exit 2, '%s'" % (" ".join(args), msg),
              (r.returncode, r.stderr))


sys.exit(S.main([test_toi_verlet_bounce_exact, test_threshold_ends_the_bouncing,
                 test_tunnel_passing_speed, test_slide_stops, test_case_rows_and_findings,
                 test_charts,
                 test_sim_bad_contact]))
