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
- draw makes the three charts, with every method's colour in them."""
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
    for f in ("polhode.csv", "rigid_timeseries.csv"):
        check(os.path.exists(os.path.join(d, f)), "a rigid case writes " + f)
    for f in ("convergence.csv", "paths.csv", "timeseries.csv"):
        check(not os.path.exists(os.path.join(d, f)), "a rigid case writes no " + f)
    with open(os.path.join(d, "polhode.csv")) if os.path.exists(os.path.join(d, "polhode.csv")) \
            else open(os.devnull) as f:
        head = f.readline()
    check(head.startswith("# verletbench") and "polhode" in head,
          "polhode.csv starts with its provenance line", head)


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
        mine = [r for r in rows if r["integrator"] == m and r["plan"] == "fixed"]
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
    for stem in ("polhode", "attitude-time", "invariants-time"):
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
    for stem in ("polhode", "attitude-time", "invariants-time"):
        check("flip/%s.png" % stem in text, "REPORT.md shows flip/%s.png" % stem)
    # one chart by name
    one = os.path.join(tmp, "one.png")
    r = S.vb("draw", "--chart", "polhode", os.path.join(out, "flip", "polhode.csv"), one)
    check(r.returncode == 0 and os.path.getsize(one) > 6000 if os.path.exists(one) else False,
          "draw --chart polhode", r.stderr)


sys.exit(S.main([test_files, test_exact_polhode, test_method_polhodes, test_angmom_series,
                 test_window_max_is_the_table, test_draw]))
