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
- the bounce's figures (e = 0.9, h0 = 2, 60 Hz): the height each flight
  reaches as stepped and the energy after n bounces, for toi round
  velocity Verlet the exact bounce's, for symplectic Euler inside toi and
  project the sums derived here flight by flight, and the summary's
  restitution at the contact, height and energy after 10 bounces;
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


def semi_euler_flights(h0, e, h, handler, n):
    """Symplectic Euler (euler-semi: v += -g h, then x += h v) dropped from
    rest at h0 onto the floor inside project or toi (vth = 0), derived here
    flight by flight, not stepped by the C code:
    - a flight from (x0, v0) at a sample is, after k steps,
          v_k = v0 - k g h,   x_k = x0 + k h v0 - g h^2 k (k + 1) / 2
      (each step adds h v_k), and so loses g^2 h^2 / 2 of its flight
      energy E = v^2/2 + g x a step: E_(k+1) - E_k = (v_(k+1)^2 - v_k^2)/2
      + g h v_(k+1) = g h (v_(k+1) - v_k) / 2 = -g^2 h^2 / 2;
    - it meets the floor in the first step K whose end x_K < 0;
    - project ends that step at x = 0 with the normal velocity reflected,
      -e v_K; toi splits it at the root tau of x + tau v - g tau^2 = 0
      (from (x, v) = (x_(K-1), v_(K-1)); symplectic Euler's step of tau is
      exactly that quadratic, which toi's quadratic through three samples
      finds to round-off), reflects v - g tau to -e (v - g tau) and steps
      the rest, h - tau: v' = -e (v - g tau) - g (h - tau), x' = (h - tau) v';
    - the contact step is K, so the bounce's restitution as measured is
      sqrt(E_K / E_(K-1)), its flight energy after over before it;
    - the height reached is the largest x_k of the next flight, from sample
      K to the step before it lands: the quadratic's top, at the whole k
      nearest v0 / (g h) - 1/2.
    Returns, for bounces 1..n: (e_contact, height, E_after(m) / E_before(1)),
    and E_before(1)."""
    x0, v0, out, first = h0, 0.0, [], None
    for _ in range(n + 1):
        a = G * h * h / 2
        K = 1
        # x_k = x0 + k (h v0 + a) - a (k + 1)^2 + a ... simply the first k with x_k < 0
        xk = lambda k: x0 + k * h * v0 - a * k * (k + 1)
        # the root of x_k = 0 in k, then the first whole k past it
        disc = (h * v0 - a) ** 2 + 4 * a * x0
        K = max(1, int(math.floor(((h * v0 - a) + math.sqrt(disc)) / (2 * a))))
        while xk(K) >= 0:
            K += 1
        while K > 1 and xk(K - 1) < 0:
            K -= 1
        if out:  # the flight of the last bounce: its top sample
            ks = [k for k in (math.floor(v0 / (G * h) - 0.5), math.ceil(v0 / (G * h) - 0.5))
                  if 0 <= k <= K - 1] + [0, K - 1]
            out[-1][1] = suite.max_or_nan(xk(k) for k in ks)
        xb, vb = xk(K - 1), v0 - (K - 1) * G * h
        before = vb * vb / 2 + G * xb
        if first is None:
            first = before
        if len(out) == n:
            break
        if handler == "project":
            x0, v0 = 0.0, -e * (vb - G * h)
        else:
            tau = (vb + math.sqrt(vb * vb + 4 * G * xb)) / (2 * G)
            rest = h - tau
            v0 = -e * (vb - G * tau) - G * rest
            x0 = rest * v0
        after = v0 * v0 / 2 + G * x0
        out.append([math.sqrt(after / before), None, after / first])
    return out, first


def test_bounce_heights_and_energy(tmp):
    """What the bounce's figures say (issue 51.1), at e = 0.9, h0 = 2,
    60 Hz, no threshold: the restitution at the contact, the height each
    flight then reaches as stepped (bounces.csv `height`, contact.csv
    `height1..3`), the energy after n bounces over that before the first
    (`energy`, exact e^2n), and the summary's energy after 10 against e^20,
    each held to a truth derived here:
    - velocity-verlet+toi is the exact bounce to round-off
      (test_toi_verlet_bounce_exact): its height is the largest exact
      y(t_j) of the samples inside the flight, summed here flight by
      flight, within the round-off bound 4 eps h0 (8 N + 256 n) (N steps, n
      bounces); its energy e^2n to 2 eps (8 N + 256 n);
    - euler-semi inside toi and project: semi_euler_flights above.  Its
      figures to 1e-9 relative: the run rounds ~600 steps of sums of
      numbers of size h0 and v0 (~1e-13) and toi's root comes from three
      rounded samples (~1e-12 of the step); the effect measured, a flight's
      loss of g h v0, is 5 % of E and more.  So euler-semi+toi's
      restitution at the contact reads 0.8998 (the contact's loss,
      e^2 g^2 tau^2/2 + g^2 (h - tau)^2/2, is 1e-3 of E), while its flights
      lose ~2 g h / v0 of E each and the energy after 10 bounces is a third
      of e^20."""
    h0, e, hz = 2.0, 0.9, 60
    dt = 1.0 / hz
    case = os.path.join(tmp, "lossy.case")
    with open(case, "w") as f:
        f.write("[case]\nmodel = bounce\nh0 = 2\ne = 0.9\ng = 9.81\nvth = 0\nt_end = 10.5\n"
                "[steps]\ndt = %r\nhalvings = 2\n[integrators]\nuse = euler-semi, velocity-verlet\n"
                "[contact]\nhandler = project, toi\n" % dt)
    out = os.path.join(tmp, "lossy-out")
    r = vb("run", "--quiet", case, "--out", out)
    check(r.returncode == 0, "run the bounce at e = 0.9, h0 = 2", r.stderr)
    if r.returncode:
        return
    rows = [x for x in suite.table_rows(os.path.join(out, "lossy", "bounces.csv"))
            if abs(float(x["dt"]) - dt) <= 1e-15]
    contact = {x["integrator"]: x for x in suite.table_rows(os.path.join(out, "lossy", "contact.csv"))
               if abs(float(x["dt"]) - dt) <= 1e-15}
    by = {}
    for x in rows:
        by.setdefault(x["integrator"], []).append(x)
    summary = open(os.path.join(out, "lossy", "summary.md")).read()
    # velocity-verlet+toi: the exact bounce
    b = Bounce(h0, e, 0.0, 10.5)
    N = int(round(10.5 / dt))
    vv = by.get("velocity-verlet+toi", [])
    ok, worst = len(vv) == 16, 0.0
    for x in vv:
        n = int(x["bounce"])
        top = suite.max_or_nan((k * dt) * 0 + b.state(k * dt)[0] for k in range(N + 1)
                  if b.T[n - 1] < k * dt < b.T[n])
        bound = EPS * h0 * (8 * N + 256 * n)
        worst = suite.max_or_nan(worst, abs(float(x["height"]) - top) / (4 * bound))
        ok = ok and abs(float(x["height"]) - top) <= 4 * bound
        ok = ok and abs(float(x["energy"]) - e ** (2 * n)) <= 2 * EPS * (8 * N + 256 * n)
        ok = ok and float(x["height_exact"]) == h0 * e ** (2 * n) and \
            float(x["energy_exact"]) == e ** (2 * n)
    check(ok, "velocity-verlet+toi: every height the flight's top sample of the exact bounce, "
          "every energy e^2n, to the round-off bound", "worst height / bound %.3g, %d rows"
          % (worst, len(vv)))
    for handler in ("toi", "project"):
        name = "euler-semi+" + handler
        want, first = semi_euler_flights(h0, e, dt, handler, 16)
        got = by.get(name, [])
        c = contact.get(name, {})
        close = lambda a, b_: abs(a - b_) <= 1e-9 * abs(b_)
        ok = len(got) >= 10
        for x in got[:10]:
            n = int(x["bounce"])
            ok = ok and close(float(x["height"]), want[n - 1][1]) and \
                close(float(x["energy"]), want[n - 1][2])
        for j in (1, 2, 3):
            ok = ok and close(float(c.get("e_bounce%d" % j, "nan")), want[j - 1][0]) and \
                close(float(c.get("height%d" % j, "nan")), want[j - 1][1])
        gain = want[9][2] / e ** 20 - 1
        ok = ok and close(float(c.get("energy_gain_10", "nan")), gain)
        check(ok, "%s at 60 Hz: restitution at the contact, heights and energies as derived "
              "(the energy after 10 bounces %+.2f %% of e^20)" % (name, 100 * gain),
              [(x["bounce"], x["height"], x["energy"]) for x in got[:3]] + [c.get("energy_gain_10")])
        row = [l for l in summary.splitlines() if l.startswith("| `%s` | 0.0166667 |" % name)]
        check(row and ("%+.2f %%" % (100 * gain)) in row[0] and
              ("%.4f" % want[0][0]) in row[0] and ("%.4g" % want[0][1]) in row[0],
              "summary.md's %s row: e at the contact %.4f, height %.4g, energy after 10 %+.2f %%"
              % (name, want[0][0], want[0][1], 100 * gain), row)
    # the finding the issue missed: toi's contact keeps e to 3e-4, and the
    # ball still has a third of e^20 after 10 bounces
    want, _ = semi_euler_flights(h0, e, dt, "toi", 10)
    check(abs(want[0][0] - e) < 3e-4 and want[9][2] / e ** 20 < 0.4,
          "euler-semi+toi: restitution at the contact %.4f, yet %.2f of e^20 after 10 bounces"
          % (want[0][0], want[9][2] / e ** 20))


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
    """draw gives a bounce case its height chart and the tunnel its passing
    speed chart, from bounces.csv (chart data) and contact.csv."""
    out = os.path.join(tmp, "charts")
    r = vb("run", "--quiet", os.path.join(suite.ROOT, "cases", "bounce-elastic.case"),
           os.path.join(suite.ROOT, "cases", "tunnel.case"), "--out", out)
    check(r.returncode == 0, "run the elastic bounce and the tunnel", r.stderr)
    rows = suite.table_rows(os.path.join(out, "bounce-elastic", "bounces.csv"))
    vv = [x for x in rows if x["integrator"] == "velocity-verlet+toi"
          and abs(float(x["dt"]) - 1 / 30) < 1e-12]
    # toi round velocity Verlet at e = 1: the energy after every bounce is
    # that before the first (the bound of test_toi_verlet_bounce_exact,
    # eps h0 (8 N + 256 n) on each, N <= 480, n <= 16), every exact height h0
    check(len(vv) == 16 and all(abs(float(x["energy"]) - 1) <= 2 * EPS * (8 * 480 + 256 * 16)
                                and float(x["height_exact"]) == 1
                                and float(x["energy_exact"]) == 1 for x in vv),
          "bounces.csv: velocity-verlet+toi keeps the energy over 16 bounces at e = 1", vv[:3])
    r = vb("draw", out)
    check(r.returncode == 0, "draw the contact cases", r.stderr)
    for f in ("bounce-elastic/bounces.png", "tunnel/tunnel.png"):
        p = os.path.join(out, "plots", f)
        check(os.path.exists(p) and os.path.getsize(p) > 1000, "draw wrote " + f)


def test_slide_extremes(tmp):
    """The slide at the edges of what it accepts (src/contact/slide.c).
    mu = 1e144 on the flat, v0 = 3: the exact stop v0^2 / (2 mu g) =
    4.587e-145 m at v0 / (mu g) = 3.058e-145 s, gravity's press over it
    g t^2 / 2 = 4.6e-289 m, above the bound DBL_MIN 1e18 = 2.2e-290; at
    100 steps to the stop a step presses by 4.6e-293, a normal double, and
    toi round velocity Verlet stops exactly there (1e-9 as in
    test_slide_stops).  mu = 1e160 and 1e180 press by 4.6e-321 and 0:
    refused, exit 2 (velocity-verlet+toi stopped 19 % late at the first and
    never at the second, status ok).  A block started at rest (v0 = 0)
    stops at t = 0, x = 0, as the exact one (slide.h): not at the first
    step's end, on the flat and at 45 degrees (tan 45 = 1 > mu = 0.5, where
    it then slides down from rest), for every handler."""
    v0, mu = 3.0, 1e144
    t_stop, x_stop = v0 / (mu * G), v0 * v0 / (2 * mu * G)
    r, run, c = sim(tmp, "--model", "slide", "--set", "mu=1e144", "--integrator",
                    "velocity-verlet", "--contact", "toi", "--dt", repr(t_stop / 100),
                    "--t-end", repr(1.5 * t_stop))
    check(c is not None, "slide mu = 1e144: sim runs", r.stderr)
    if c:
        check(abs(float(c["stop_x"]) - x_stop) <= 1e-9 * x_stop,
              "slide mu = 1e144: stops at v0^2/(2 mu g) = %.12g" % x_stop, c["stop_x"])
        check(abs(float(c["stop_t"]) - t_stop) <= 1e-9 * t_stop,
              "slide mu = 1e144: stops at t = v0/(mu g) = %.12g" % t_stop, c["stop_t"])
    for big in ("1e160", "1e180"):
        r = vb("sim", "--model", "slide", "--set", "mu=" + big, "--integrator", "velocity-verlet",
               "--contact", "toi")
        check(r.returncode == 2 and "mu = %g" % float(big) in r.stderr and
              "pressed into the plane" in r.stderr,
              "slide mu = %s: refused, exit 2" % big, (r.returncode, r.stderr))
    for alpha in ("0", "45"):
        for method, h in (("euler-semi", "impulse"), ("euler-semi", "project"),
                          ("velocity-verlet", "toi")):
            r, run, c = sim(tmp, "--model", "slide", "--set", "v0=0", "--set", "alpha=" + alpha,
                            "--integrator", method, "--contact", h, "--dt", "0.01",
                            "--t-end", "1")
            what = "slide from rest at %s degrees, %s+%s" % (alpha, method, h)
            check(c is not None, what + ": sim runs", r.stderr)
            if c:
                check(c["stop_t_exact"] == "0" and c["stop_x_exact"] == "0",
                      what + ": the exact block stops at t = 0", (c["stop_t_exact"],
                                                                 c["stop_x_exact"]))
                check(c["stop_t"] == "0" and c["stop_x"] == "0",
                      what + ": stops at t = 0, x = 0", (c["stop_t"], c["stop_x"]))


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
                 test_bounce_heights_and_energy, test_tunnel_passing_speed, test_slide_stops,
                 test_slide_extremes,
                 test_case_rows_and_findings,
                 test_charts,
                 test_sim_bad_contact]))
