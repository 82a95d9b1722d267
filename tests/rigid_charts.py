#!/usr/bin/env python3
"""rigid_charts.py BUILD_DIR — a rigid body's chart data and charts
(docs/rigid.md §7), held to closed forms from the case's own parameters,
never to numbers the run printed:

- the exact polhode of polhode.csv lies on the energy ellipsoid
  sum I_i w_i^2 = 2T and on the sphere sum I_i^2 w_i^2 = L^2 of the start;
  rigid-splitting's path (which keeps the world L, so |L| in the body)
  lies on the sphere, rigid-euler's leaves it;
- rigid_timeseries.csv: rigid-splitting's world angular momentum drift
  stays at round-off, rigid-euler's grows;
- the window maxima keep the largest attitude error: the largest window of
  each run is runs.csv's err_att_max of the same run;
- polhode.csv holds each method's w at every fixed step of the sweep (dt,
  dt/2): rigid-rk4's rows at each step are RK4 on Euler's equations at
  that step, computed here (RK4 on (q, w) steps w by the w equations
  alone, which do not involve q), and the exact rows are w(t) from a
  fine RK4 here, both to the file's digits;
- draw makes the four charts (the polhode, w against time, the attitude
  and the invariants), with every method's colour in them; draw --dt and
  --methods draw the step and the curves asked for, and refuse a step or
  a method the results have not, a list with an empty name, a step on a
  chart of one step or on results with no rigid body, exit 2; a draw
  that --methods narrows to some cases leaves REPORT.md as it was, and a
  --no-chart-data directory is said to hold tables without chart data."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402

S = suite.Suite("rigid_charts", guard=600)
check = S.check
EPS = 2.0 ** -52

I = (1.0, 2.0, 3.0)
W0 = (0.01, 1.0, 0.01)
T_END = 32.0
DT = 0.01
# the flip of cases/dzhanibekov.case, at a step fine enough that both
# reductions act: 3200 steps over the charts' 1000 windows of time (the
# window maxima), and over the 2000 points a path keeps whole (the M4
# reduction of the polhode)
CASE = """[case]
model = free-body
I1 = 1
I2 = 2
I3 = 3
w1 = 0.01
w2 = 1
w3 = 0.01
t_end = 32
[steps]
dt = 0.01
halvings = 2
jitter = 0.5
seeds = 2
[integrators]
use = rigid-euler, rigid-explicit-gyro, rigid-explicit-gyro-linear, rigid-splitting, rigid-rk4
"""
METHODS = ("rigid-euler", "rigid-explicit-gyro", "rigid-explicit-gyro-linear", "rigid-splitting",
           "rigid-rk4")
# 2T and L^2 of the start, from the case's parameters
TWO_T = sum(i * w * w for i, w in zip(I, W0))
L2 = sum(i * i * w * w for i, w in zip(I, W0))
# chart data carry ten significant digits: each w_i within 5e-10 of
# itself, relative (half a unit of the tenth digit of a number whose first
# is 1), so each term I_i w_i^2 within 1e-9 relative and their sum, of
# positive terms, too; plus the closed form's own error, below 1e-13
# (docs/rigid.md §2, held to a 30-digit mpmath integration)
DIGITS_REL = 1e-9 + 1e-13

_out = {}


def results(tmp):
    """the case run once into tmp/out (its directory)"""
    if "dir" not in _out:
        case = os.path.join(tmp, "flip.case")
        with open(case, "w") as f:
            f.write(CASE)
        out = os.path.join(tmp, "out")
        r = S.vb("run", "--quiet", case, "--out", out)
        check(r.returncode == 0, "run the flip at dt = 0.01", r.stderr)
        _out["dir"] = os.path.join(out, "flip")
        _out["out"] = out
    return _out["dir"]


def rows_of(path):
    return suite.table_rows(path) if os.path.exists(path) else []


def test_files(tmp):
    """a rigid case writes its own chart data, and none of the particle
    charts' (which would draw the packed (x, q) as positions)"""
    d = results(tmp)
    for f in ("polhode.csv", "rigid_timeseries.csv", "body.csv"):
        check(os.path.exists(os.path.join(d, f)), "a rigid case writes " + f)
    for f in ("convergence.csv", "paths.csv", "timeseries.csv"):
        check(not os.path.exists(os.path.join(d, f)), "a rigid case writes no " + f)
    with open(os.path.join(d, "polhode.csv")) if os.path.exists(os.path.join(d, "polhode.csv")) \
            else open(os.devnull) as f:
        head = f.readline()
    check(head.startswith("# verletbench") and "polhode" in head,
          "polhode.csv starts with its provenance line", head)


def test_body_table(tmp):
    """body.csv holds what the charts of w are drawn on, by its columns (no
    '#' line is read back, issue 52): the case's moments, 2T and L^2 of the
    start from its parameters (the closed form's own error at t = 0, below
    1e-13: docs/rigid.md §2), and w's period 4K(m)/lambda (Landau &
    Lifshitz §37) in 30 digits (the closed form in double: 1e-12, K near m
    = 1 loses a few digits, as tests/rigid_runs.py holds flips.csv's)"""
    import mpmath
    mpmath.mp.dps = 30
    rows = rows_of(os.path.join(results(tmp), "body.csv"))
    check(len(rows) == 1, "body.csv: one row", rows)
    if len(rows) != 1:
        return
    b = rows[0]
    check([float(b[k]) for k in ("inertia1", "inertia2", "inertia3")] == list(I), "body.csv: the case's moments", b)
    for key, want in (("two_t", TWO_T), ("l_squared", L2)):
        check(abs(float(b[key]) - want) <= 1e-13 * want, "body.csv: %s = %.17g" % (key, want), b)
    I1, I2, I3 = map(mpmath.mpf, I)
    w = [mpmath.mpf("0.01"), mpmath.mpf(1), mpmath.mpf("0.01")]
    E2 = I1 * w[0] ** 2 + I2 * w[1] ** 2 + I3 * w[2] ** 2
    L2m = (I1 * w[0]) ** 2 + (I2 * w[1]) ** 2 + (I3 * w[2]) ** 2
    lam = mpmath.sqrt((I3 - I2) * (L2m - E2 * I1) / (I1 * I2 * I3))  # L^2 > 2E I2 here
    m = (I2 - I1) * (E2 * I3 - L2m) / ((I3 - I2) * (L2m - E2 * I1))
    T = float(4 * mpmath.ellipk(m) / lam)
    check(abs(float(b["w_period"]) - T) <= 1e-12 * T, "body.csv: w_period = 4K/lambda = %.15g" % T, b)
    # the charts read it: the polhode without its '#' lines draws, and
    # without body.csv it does not, naming the file
    bare = os.path.join(tmp, "bare")
    os.makedirs(bare, exist_ok=True)
    with open(os.path.join(results(tmp), "polhode.csv")) as f, \
            open(os.path.join(bare, "polhode.csv"), "w") as g:
        g.writelines(l for l in f if not l.startswith("#"))
    png = os.path.join(tmp, "bare.png")
    r = S.vb("draw", "--chart", "polhode", os.path.join(bare, "polhode.csv"), png)
    check(r.returncode != 0 and "body.csv" in r.stderr,
          "a polhode.csv without body.csv beside it is not drawn, naming body.csv", r.stderr)
    with open(os.path.join(results(tmp), "body.csv")) as f, \
            open(os.path.join(bare, "body.csv"), "w") as g:
        g.write(f.read())
    r = S.vb("draw", "--chart", "polhode", os.path.join(bare, "polhode.csv"), png)
    check(r.returncode == 0 and os.path.exists(png),
          "the polhode drawn from body.csv, its own '#' lines gone", r.stderr)


def test_exact_polhode(tmp):
    """the exact rows lie on the ellipsoid and the sphere of the start, to
    the file's ten digits (DIGITS_REL); with 2000 + 1 of them spanning
    t_end (32 s, under the period 4K/lambda = 39.1 s)"""
    rows = [r for r in rows_of(os.path.join(results(tmp), "polhode.csv"))
            if r["integrator"] == "exact"]
    check(len(rows) == 2001, "2001 exact points (got %d)" % len(rows))
    worst_e = worst_l = 0.0
    for r in rows:
        w = [float(r[k]) for k in ("w1", "w2", "w3")]
        e = sum(i * x * x for i, x in zip(I, w))
        l2 = sum(i * i * x * x for i, x in zip(I, w))
        worst_e = suite.max_or_nan(worst_e, abs(e - TWO_T) / TWO_T)
        worst_l = suite.max_or_nan(worst_l, abs(l2 - L2) / L2)
    check(rows and worst_e <= DIGITS_REL,
          "exact polhode on sum I w^2 = 2T = %.17g to %g (worst %g)" % (TWO_T, DIGITS_REL, worst_e))
    check(rows and worst_l <= DIGITS_REL,
          "exact polhode on sum I^2 w^2 = L^2 = %.17g to %g (worst %g)" % (L2, DIGITS_REL, worst_l))
    # the exact polhode crosses the intermediate axis: w2 runs from +1 to
    # about -1 over the first flip (Landau & Lifshitz §37: w2 = a2 sn u)
    w2 = [float(r["w2"]) for r in rows]
    check(rows and max(w2) > 0.99 and min(w2) < -0.99, "the exact polhode flips (w2 from +1 to -1)",
          (max(w2) if w2 else None, min(w2) if w2 else None))


def test_method_polhodes(tmp):
    """rigid-splitting keeps the world L to round-off, so |L| in the body,
    sum I_i^2 w_i^2 = L^2, to the file's digits (1e-9, as the exact
    one's) plus its own round-off, below 8 eps N = 6e-12; rigid-euler's grows off the
    sphere (by 2.8 % of |L| at dt = 0.0125 in docs/rigid.md §8's table, so
    past 1e-3 here).  The paths are reduced (3200 steps, more than the
    2000 kept whole) and keep the first and the last step."""
    rows = rows_of(os.path.join(results(tmp), "polhode.csv"))
    for m in METHODS:
        # the coarsest step's (the file holds every fixed step's)
        mine = [r for r in rows if r["integrator"] == m and r["plan"] == "fixed" and
                float(r["dt"]) == DT]
        check(mine and float(mine[-1]["t"]) == T_END and float(mine[0]["t"]) == 0.0,
              "%s's path runs from t = 0 to t_end" % m,
              (mine[0]["t"], mine[-1]["t"]) if mine else None)
        check(len(mine) < 3201, "%s's path is reduced: %d rows of 3201 steps" % (m, len(mine)))
        dev = [abs(sum(i * i * float(r[k]) ** 2 for i, k in zip(I, ("w1", "w2", "w3"))) - L2) / L2
               for r in mine]
        if m == "rigid-splitting":
            bound = 1e-9 + 8 * EPS * 3200
            check(dev and suite.max_or_nan(dev) <= bound,
                  "rigid-splitting's polhode on the L sphere to %g (worst %g)" %
                  (bound, suite.max_or_nan(dev) if dev else -1))
        if m == "rigid-euler":
            check(dev and suite.max_or_nan(dev) > 1e-3,
                  "rigid-euler's polhode leaves the L sphere (worst %g)" % (suite.max_or_nan(dev) if dev else -1))


def euler_rhs(w):
    """Euler's equations without torque, body frame: dw_i/dt =
    ((I w) x w)_i / I_i (Landau & Lifshitz §36)"""
    L = [I[0] * w[0], I[1] * w[1], I[2] * w[2]]
    c = [L[1] * w[2] - L[2] * w[1], L[2] * w[0] - L[0] * w[2], L[0] * w[1] - L[1] * w[0]]
    return [c[i] / I[i] for i in range(3)]


def rk4_w(w, h):
    k1 = euler_rhs(w)
    k2 = euler_rhs([w[i] + 0.5 * h * k1[i] for i in range(3)])
    k3 = euler_rhs([w[i] + 0.5 * h * k2[i] for i in range(3)])
    k4 = euler_rhs([w[i] + h * k3[i] for i in range(3)])
    return [w[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) for i in range(3)]


def test_every_step(tmp):
    """every method's w at each fixed step of the sweep, dt and dt/2, from
    t = 0 to t_end (the random plan's at the coarsest alone); rigid-rk4's
    rows at each step are this file's RK4 at that step: its w stages are
    RK4 on Euler's equations alone, the same operations, so they agree to
    round-off (N ulps of |w| ~ 1) and the file's ten digits: 1e-9"""
    rows = rows_of(os.path.join(results(tmp), "polhode.csv"))
    steps = (DT, DT / 2)
    for m in METHODS:
        got = sorted(set(float(r["dt"]) for r in rows if r["integrator"] == m and r["plan"] == "fixed"),
                     reverse=True)
        check(got == list(steps), "%s: w at the fixed steps %s (got %s)" % (m, steps, got))
        rnd = set(r["dt"] for r in rows if r["integrator"] == m and r["plan"] == "random")
        check(len(rnd) == 1, "%s: w at one random step, the coarsest (got %s)" % (m, rnd))
        for h in steps:
            mine = [r for r in rows if r["integrator"] == m and r["plan"] == "fixed" and
                    float(r["dt"]) == h]
            check(mine and float(mine[0]["t"]) == 0.0 and abs(float(mine[-1]["t"]) - T_END) <= 1e-9,
                  "%s at dt = %g: from t = 0 to t_end" % (m, h))
    for h in steps:
        mine = {round(float(r["t"]) / h): [float(r[k]) for k in ("w1", "w2", "w3")]
                for r in rows if r["integrator"] == "rigid-rk4" and r["plan"] == "fixed" and
                float(r["dt"]) == h}
        w, worst = list(W0), 0.0
        for k in range(round(T_END / h) + 1):
            if k in mine:
                worst = suite.max_or_nan(worst, suite.max_or_nan(abs(a - b) for a, b in zip(mine[k], w)))
            w = rk4_w(w, h)
        check(len(mine) > 300 and worst <= 1e-9,
              "rigid-rk4's w at dt = %g is RK4 on Euler's equations at that step (%d rows, worst "
              "%.3g)" % (h, len(mine), worst))


def test_exact_w(tmp):
    """the exact rows of polhode.csv are w(t) of the flip: this file's RK4
    at a step of 1/10 of the rows' spacing (0.0016 s: its error about
    h^4 |w^(5)| t, below 1e-10 here) agrees with them to the file's ten
    digits: 1e-9"""
    rows = [r for r in rows_of(os.path.join(results(tmp), "polhode.csv"))
            if r["integrator"] == "exact"]
    if not rows:
        check(False, "exact rows in polhode.csv")
        return
    spacing = float(rows[1]["t"]) - float(rows[0]["t"])
    h, w, t, worst = spacing / 10, list(W0), 0.0, 0.0
    for r in rows:
        target = float(r["t"])
        while t < target - 0.5 * h:
            w = rk4_w(w, h)
            t += h
        worst = suite.max_or_nan(worst, suite.max_or_nan(abs(float(r[k]) - x) for k, x in zip(("w1", "w2", "w3"), w)))
    check(worst <= 1e-9, "the exact w(t) rows are Euler's equations' motion (worst %.3g)" % worst)


def test_angmom_series(tmp):
    """rigid-splitting's world L drift stays at round-off: each step is
    three exact rotations of L, each rounding |L| by a few ulps, so after
    N steps at most 8 eps N (N = 3200: 5.7e-12); rigid-euler's grows with
    time (its explicit step gains |L| every step: the last window's drift
    over ten times that at a tenth of t_end)"""
    rows = rows_of(os.path.join(results(tmp), "rigid_timeseries.csv"))
    steps = round(T_END / DT)
    for plan in ("fixed", "random"):
        sp = [float(r["err_angmom"]) for r in rows
              if r["integrator"] == "rigid-splitting" and r["plan"] == plan]
        check(len(sp) == 1000 and suite.max_or_nan(sp) <= 8 * EPS * steps,
              "rigid-splitting, %s: world L drift at most 8 eps N = %.2g in all 1000 windows "
              "(worst %s)" % (plan, 8 * EPS * steps, suite.max_or_nan(sp) if sp else None))
        eu = [(float(r["t"]), float(r["err_angmom"])) for r in rows
              if r["integrator"] == "rigid-euler" and r["plan"] == plan]
        early = [e for t, e in eu if t <= T_END / 10]
        check(eu and early and eu[-1][1] > 10 * early[-1],
              "rigid-euler, %s: world L drift grows (%s at t = %g, %s at the end)" %
              (plan, early[-1] if early else None, T_END / 10, eu[-1][1] if eu else None))


def test_window_max_is_the_table(tmp):
    """the window maxima keep the largest attitude error: each run's
    largest window is runs.csv's err_att_max of the same run (the coarsest
    step, fixed and random seed 1), to the chart data's ten digits"""
    d = results(tmp)
    rows = rows_of(os.path.join(d, "rigid_timeseries.csv"))
    runs = rows_of(os.path.join(d, "runs.csv"))
    for m in METHODS:
        for plan, seed in (("fixed", ""), ("random", "1")):
            mine = [float(r["err_att"]) for r in rows if r["integrator"] == m and r["plan"] == plan]
            table = [r["err_att_max"] for r in runs if r["integrator"] == m and r["plan"] == plan
                     and r["level"] == "0" and r["seed"] == seed]
            got = "%.10g" % suite.max_or_nan(mine) if mine else None
            want = "%.10g" % float(table[0]) if table else None
            check(got is not None and got == want,
                  "%s, %s: largest window %s = err_att_max %s" % (m, plan, got, want))


def test_draw(tmp):
    """draw gives the case its polhode, attitude and invariants charts,
    each method's colour (src/draw/palette.c) in each, and REPORT.md
    shows them"""
    from plots import c_strings, decode_png
    results(tmp)
    out = _out["out"]
    r = S.vb("draw", out)
    check(r.returncode == 0, "draw a rigid case", r.stderr)
    with open(os.path.join(suite.ROOT, "src", "draw", "palette.c")) as f:
        palette = f.read()
    colour = dict(zip(c_strings(palette, "builtin"), c_strings(palette, "colours")))
    for stem in ("polhode", "angvel-time", "attitude-time", "invariants-time"):
        p = os.path.join(out, "plots", "flip", stem + ".png")
        check(os.path.exists(p) and os.path.getsize(p) > 6000, "draw wrote flip/%s.png" % stem)
        if not os.path.exists(p):
            continue
        _, _, px = decode_png(p)
        seen = set()
        for row in px:
            seen.update(row)
        missing = [m for m in METHODS if m in colour and
                   tuple(int(colour[m][i:i + 2], 16) for i in (1, 3, 5)) not in seen]
        check(all(m in colour for m in METHODS) and not missing,
              "flip/%s.png: every method's colour is drawn" % stem, missing)
    report = os.path.join(out, "REPORT.md")
    text = open(report).read() if os.path.exists(report) else ""
    for stem in ("polhode", "angvel-time", "attitude-time", "invariants-time"):
        check("flip/%s.png" % stem in text, "REPORT.md shows flip/%s.png" % stem)
    # one chart by name
    one = os.path.join(tmp, "one.png")
    r = S.vb("draw", "--chart", "polhode", os.path.join(out, "flip", "polhode.csv"), one)
    check(r.returncode == 0 and os.path.getsize(one) > 6000 if os.path.exists(one) else False,
          "draw --chart polhode", r.stderr)


def colours_in(path):
    from plots import decode_png
    if not os.path.exists(path):
        return set()
    _, _, px = decode_png(path)
    seen = set()
    for row in px:
        seen.update(row)
    return seen


def test_draw_picks(tmp):
    """draw --dt and --methods: the w charts at the step asked, with the
    methods asked (their colours drawn, the others' not), the report saying
    so; every bad value refused, exit 2, naming what is wrong"""
    from plots import c_strings
    results(tmp)
    out = _out["out"]
    with open(os.path.join(suite.ROOT, "src", "draw", "palette.c")) as f:
        palette = f.read()
    colour = dict(zip(c_strings(palette, "builtin"), c_strings(palette, "colours")))
    rgb = {m: tuple(int(colour[m][i:i + 2], 16) for i in (1, 3, 5)) for m in METHODS}
    plots = os.path.join(tmp, "picked")
    r = S.vb("draw", "--dt", "0.005", "--methods", "rigid-euler,rigid-rk4", out, plots)
    check(r.returncode == 0, "draw --dt 0.005 --methods rigid-euler,rigid-rk4", r.stderr)
    for stem in ("polhode", "angvel-time"):
        seen = colours_in(os.path.join(plots, "flip", stem + ".png"))
        check(rgb["rigid-euler"] in seen and rgb["rigid-rk4"] in seen and
              not any(rgb[m] in seen for m in METHODS if m not in ("rigid-euler", "rigid-rk4")),
              "flip/%s.png: the two methods asked for, no other" % stem)
    with open(os.path.join(out, "REPORT.md")) as f:
        text = f.read()
    check("against time at the fixed step dt = 0.005 (draw --dt)" in text and
          "the methods rigid-euler,rigid-rk4 (draw --methods)" in text,
          "REPORT.md says the step and the methods drawn")
    # the step drawn is the one asked: rigid-euler at 0.005 stays nearer
    # the exact w than at 0.01, so the two charts differ
    a = os.path.join(tmp, "a.png")
    b = os.path.join(tmp, "b.png")
    table = os.path.join(out, "flip", "polhode.csv")
    r1 = S.vb("draw", "--methods", "rigid-euler", "--chart", "angvel-time", table, a)
    r2 = S.vb("draw", "--dt", "0.005", "--methods", "rigid-euler", "--chart", "angvel-time", table, b)
    check(r1.returncode == 0 and r2.returncode == 0 and os.path.exists(a) and os.path.exists(b) and
          open(a, "rb").read() != open(b, "rb").read(),
          "draw --chart angvel-time at dt = 0.01 and 0.005 draws two charts", r1.stderr + r2.stderr)
    spring = os.path.join(tmp, "spring")
    S.vb("run", "--quiet", os.path.join(suite.ROOT, "cases", "spring.case"), "--out", spring)
    for args, want in (
            (["--dt", "0.003", out], "--dt 0.003: %s/flip/polhode.csv has the fixed steps 0.01, 0.005"
             % out),
            # the step as typed, not %g's 0.003 (a step nobody asked for)
            (["--dt", "0.003000001", out], "--dt 0.003000001: %s/flip/polhode.csv has the fixed "
             "steps 0.01, 0.005" % out),
            (["--dt", "0.003000001", "--chart", "polhode", table, a], "no fixed step dt = "
             "0.003000001: its steps are 0.01, 0.005"),
            (["--dt", "0", out], "--dt: 0 must be a step > 0"),
            (["--dt", "abc", out], "--dt"),
            (["--methods", "rigid-euler,nope", out], "no case in %s has a method 'nope'" % out),
            (["--methods", "rigid-euler,,rigid-rk4", out], "an empty name"),
            (["--methods", "rigid-euler, rigid-rk4", out], "a space in a name"),
            (["--dt", "0.01", spring], "no case drawn from %s is a rigid body's" % spring),
            (["--dt", "0.01", "--chart", "attitude-time", os.path.join(out, "flip",
                                                                       "rigid_timeseries.csv"), a],
             "--dt: the chart attitude-time holds one step"),
            (["--dt", "0.003", "--chart", "polhode", table, a], "no fixed step dt = 0.003: its steps "
             "are 0.01, 0.005"),
            (["--methods", "nope", "--chart", "polhode", table, a], "has no method 'nope'"),
            (["--dt", "0.01", "--article", out], "not --article's")):
        r = S.vb("draw", *args)
        check(r.returncode == 2 and want in r.stderr, "draw %s: refused, exit 2: %s" % (
            " ".join(args[:2]), want), (r.returncode, r.stderr))


def test_draw_part(tmp):
    """a draw that --methods narrows to some cases leaves REPORT.md, which
    is every case's, as it was (attack 6, item 8: draw --methods
    rigid-rk4,rigid-euler rewrote it with the one case it drew, the
    others' report lost); a directory run with --no-chart-data is said to
    hold its cases' tables and no chart data (it was called "no case
    results", false: runs.csv and summary.md are there)"""
    import shutil
    results(tmp)
    both = os.path.join(tmp, "both")
    shutil.copytree(os.path.join(_out["out"], "flip"), os.path.join(both, "flip"))
    r = S.vb("run", "--quiet", os.path.join(suite.ROOT, "cases", "spring.case"), "--out",
             os.path.join(tmp, "sp"))
    check(r.returncode == 0, "run the spring", r.stderr)
    shutil.copytree(os.path.join(tmp, "sp", "spring"), os.path.join(both, "spring"))
    plots = os.path.join(tmp, "both-plots")
    r = S.vb("draw", "-j", "1", both, plots)
    report = os.path.join(both, "REPORT.md")
    with open(report, "rb") as f:
        whole = f.read()
    check(r.returncode == 0 and b"## flip" in whole and b"## spring" in whole,
          "draw of both cases: REPORT.md has both", (r.returncode, r.stderr))
    r = S.vb("draw", "-j", "1", "--methods", "rigid-euler", both, plots)
    with open(report, "rb") as f:
        after = f.read()
    check(r.returncode == 0 and after == whole and
          "REPORT.md left as it was (--methods drew some of its cases" in r.stdout,
          "draw --methods rigid-euler (the flip alone): REPORT.md as it was, and said so",
          (r.returncode, r.stdout, r.stderr, after[:300]))
    bare = os.path.join(tmp, "bare")
    r = S.vb("run", "--quiet", "--no-chart-data", os.path.join(suite.ROOT, "cases", "spring.case"),
             "--out", bare)
    check(r.returncode == 0, "run the spring --no-chart-data", r.stderr)
    r = S.vb("draw", bare, os.path.join(tmp, "bare-plots"))
    check(r.returncode == 2 and "%s/: 1 case with its tables (runs.csv) but no chart data" % bare
          in r.stderr and "run without --no-chart-data" in r.stderr,
          "draw of a --no-chart-data directory: its tables said, the chart data missing",
          (r.returncode, r.stderr))


def test_draw_damaged(tmp):
    """a chart's table cut mid-line, or with a row short or long by a
    field, is refused naming the file and line (attack 6, item 7: draw
    padded a short row with blanks, dropped the extra fields and drew)"""
    results(tmp)
    table = os.path.join(_out["dir"], "polhode.csv")
    with open(table) as f:
        lines = f.read().split("\n")
    first = next(i for i, l in enumerate(lines) if l and not l.startswith("#")) + 1  # its first row
    for what, text, line in (
            ("cut mid-line", "\n".join(lines)[:-len(lines[-2]) // 2 - 1], len(lines) - 1),
            ("a row short by a field", "\n".join(lines[:first] + [lines[first].rsplit(",", 1)[0]] +
                                                 lines[first + 1:]), first + 1),
            ("a row long by a field", "\n".join(lines[:first] + [lines[first] + ",1"] +
                                                lines[first + 1:]), first + 1)):
        bad = os.path.join(tmp, "damaged.csv")
        with open(bad, "w") as f:
            f.write(text)
        r = S.vb("draw", "--chart", "polhode", bad, os.path.join(tmp, "damaged.png"))
        check(r.returncode != 0 and "%s:%d:" % (bad, line) in r.stderr,
              "draw --chart polhode of a table %s: refused at %s:%d" % (what, bad, line),
              (r.returncode, r.stderr))


sys.exit(S.main([test_files, test_body_table, test_exact_polhode, test_method_polhodes, test_every_step,
                 test_exact_w, test_angmom_series, test_window_max_is_the_table, test_draw,
                 test_draw_picks, test_draw_part,
                 test_draw_damaged]))
