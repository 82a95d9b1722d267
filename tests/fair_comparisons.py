#!/usr/bin/env python3
"""fair_comparisons.py BUILD_DIR — issue 18: the methods people pick, the
uncertainty of every fitted order, adaptive methods sweeping a tolerance and
wall time beside force evaluations.  Each number is checked against an
independent computation here (least squares, Student's t from a printed
table, the documented rules), never against a value the tool wrote before.
The last line is "N passed, N failed"."""
import csv
import filecmp
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from suite import least_squares

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Student's t, 0.975 quantile, by degrees of freedom: the printed tables
# (e.g. Abramowitz and Stegun 26.10), four digits
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131}
VERDICT_TOL = 0.25  # docs/method.md §5

results = {}


def check(cond, what, key=None):
    key = key or what
    if not cond and results.get(key, True):
        print("FAIL fair: " + what)
    results[key] = results.get(key, True) and bool(cond)


def read_csv(path):
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    rows = list(csv.reader(l for l in lines if not l.startswith("#")))
    return [dict(zip(rows[0], r)) for r in rows[1:]], rows[0]


def run(vb, *args):
    return subprocess.run([vb] + list(args), capture_output=True, text=True)


def verdict_rule(order, expected, ci):
    """docs/method.md §5, for an asymptotic fit"""
    if abs(order - expected) <= VERDICT_TOL:
        return "as-expected"
    if order < expected:
        return "below-label" if order + ci < expected - VERDICT_TOL else "uncertain"
    return "above-label" if order - ci > expected + VERDICT_TOL else "uncertain"


def check_uncertainty(d):
    """every asymptotic fit of err_pos_max, fixed and random, refitted here"""
    runs, _ = read_csv(os.path.join(d, "runs.csv"))
    orders, header = read_csv(os.path.join(d, "orders.csv"))
    check(header[-2:] == ["order_se", "order_ci95"], "orders.csv ends with order_se,order_ci95")
    refitted = 0
    seen = set()
    for o in orders:
        seen.add(o["verdict"])
        if o["range"] == "asymptotic":
            ci = float(o["order_ci95"]) if o["order_ci95"] else 0.0
            check(o["verdict"] == verdict_rule(float(o["order"]), int(o["expected"]), ci),
                  "%s %s %s: verdict %s against the rule (order %s ± %s, label %s)"
                  % (o["integrator"], o["plan"], o["norm"], o["verdict"], o["order"],
                     o["order_ci95"], o["expected"]), "verdict rule")
        if o["range"] != "asymptotic" or o["norm"] != "err_pos_max" or o["plan"] == "trace":
            continue
        pts = {}
        for r in runs:
            if r["integrator"] == o["integrator"] and r["plan"] == o["plan"]:
                pts.setdefault(int(r["level"]), []).append(r)
        lo, hi = float(o["dt_first"]), float(o["dt_last"])
        xs, ys = [], []
        for level in sorted(pts):
            rs = pts[level]
            # the point's dt: a fixed run's own, a random level's nominal dt
            dt = float(rs[0]["dt"])
            if not (hi * (1 - 1e-12) <= dt <= lo * (1 + 1e-12)):
                continue
            xs.append(math.log(dt))
            ys.append(math.log(statistics.median(float(r["err_pos_max"]) for r in rs)))
        n = int(o["points"])
        check(len(xs) == n, "%s %s: %d points between dt_first and dt_last, orders.csv says %d"
              % (o["integrator"], o["plan"], len(xs), n), "points")
        if len(xs) != n or n < 3:
            continue
        slope, se = least_squares(xs, ys)
        check(abs(slope - float(o["order"])) < 2e-6,
              "%s %s: order %s, least squares here %.6f" % (o["integrator"], o["plan"], o["order"],
                                                            slope), "slope")
        check(abs(se - float(o["order_se"])) < 2e-6 + 1e-4 * se,
              "%s %s: order_se %s, here %.6f" % (o["integrator"], o["plan"], o["order_se"], se),
              "se")
        want = T975[n - 2] * float(o["order_se"])
        check(abs(float(o["order_ci95"]) - want) <= 1e-3 * want + 2e-6,
              "%s %s: order_ci95 %s, t table gives %.6f" % (o["integrator"], o["plan"],
                                                            o["order_ci95"], want), "ci95")
        refitted += 1
    check(refitted >= 10, "refitted %d orders, want at least 10" % refitted)
    return seen


ADAPTIVE = """[case]
model = orbit
e = 0.9
t_end = 6.283185307179586
[steps]
dt = 0.2
halvings = 6
jitter = 0.5
seeds = 2
tolerance = 1e-4
[integrators]
use = rkf45, rk8pd, velocity-verlet
"""


def main():
    vb = os.path.join(sys.argv[1], "verletbench")
    with tempfile.TemporaryDirectory() as tmp:
        # ---- list: the new integrators and their labels ----
        r = run(vb, "list")
        for name, order in (("beeman", 2), ("yoshida4", 4), ("pefrl", 4), ("rkf45", 1),
                            ("rk8pd", 1)):
            line = [l for l in r.stdout.splitlines() if l.split()[:1] == [name]]
            check(line and line[0].split()[1] == str(order),
                  "list shows %s with label %d: %s" % (name, order, line))

        # ---- the spring, every fixed-step method: orders, intervals, verdicts ----
        # the committed case: 16 seeds, 6 levels and the 60 Hz trace
        case = os.path.join(ROOT, "cases", "spring.case")
        out = os.path.join(tmp, "s")
        r = run(vb, "run", "--quiet", "--no-chart-data", case, "--out", out)
        check(r.returncode == 0, "the spring sweep: exit %d %s" % (r.returncode, r.stderr))
        d = os.path.join(out, "spring")
        seen = check_uncertainty(d)
        orders = {(o["integrator"], o["plan"], o["norm"]): o
                  for o in read_csv(os.path.join(d, "orders.csv"))[0]}
        for name, p in (("beeman", 2), ("yoshida4", 4), ("pefrl", 4)):
            for plan in ("fixed", "random"):
                o = orders[(name, plan, "err_pos_max")]
                check(o["verdict"] == "as-expected" and abs(float(o["order"]) - p) < 0.25,
                      "%s %s: order %s %s, want %d as-expected" % (name, plan, o["order"],
                                                                   o["verdict"], p))
        # Beeman's velocity is second order globally too (docs/method.md §2)
        o = orders[("beeman", "fixed", "err_vel_max")]
        check(abs(float(o["order"]) - 2) < 0.1, "beeman velocity order %s, want 2" % o["order"])
        check("rkf45" not in {k[0] for k in orders}, "use = all leaves the adaptive methods out")
        # TCV on three points of the trace: the interval reaches the label
        o = orders[("tcv", "trace", "err_pos_max")]
        check(o["verdict"] == "uncertain" and o["order_ci95"] != "",
              "tcv trace: %s ± %s %s, want uncertain" % (o["order"], o["order_ci95"],
                                                         o["verdict"]))
        summary = open(os.path.join(d, "summary.md")).read()
        check(" ± " in summary and "uncertain" in summary, "the summary shows ± and uncertain")

        # ---- adaptive methods: frames of level 0, tolerance 1e-4 / 10^level ----
        case = os.path.join(tmp, "ad.case")
        with open(case, "w") as f:
            f.write(ADAPTIVE)
        out = os.path.join(tmp, "a")
        r = run(vb, "run", "--quiet", case, "--out", out)
        check(r.returncode == 0, "the adaptive sweep: exit %d %s" % (r.returncode, r.stderr))
        d = os.path.join(out, "ad")
        runs, header = read_csv(os.path.join(d, "runs.csv"))
        check("tol" in header, "runs.csv has a tol column")
        for name in ("rkf45", "rk8pd"):
            for plan in ("fixed", "random"):
                rs = [x for x in runs if x["integrator"] == name and x["plan"] == plan]
                for x in rs:
                    want = 1e-4 * 10.0 ** -int(x["level"])
                    check(abs(float(x["tol"]) - want) <= 1e-12 * want,
                          "%s level %s: tol %s, want %g" % (name, x["level"], x["tol"], want),
                          "tol column")
                # every level lands on the same frames: level 0's plan
                frames = {(x["seed"], x["steps"], x["dt"]) for x in rs}
                check(len(frames) == (1 if plan == "fixed" else 2),
                      "%s %s: frames differ between levels: %s" % (name, plan, frames))
                fixed = sorted((int(x["level"]), int(x["force_evals"]), float(x["err_pos_max"]))
                               for x in rs if x["seed"] in ("", "1"))
                check(all(a[1] < b[1] for a, b in zip(fixed, fixed[1:])),
                      "%s %s: evaluations rise as the tolerance falls: %s" % (name, plan, fixed))
                # the exponent of the error against the tolerance, over the
                # four finest levels, fitted here: ~1 (docs/method.md §2)
                xs = [math.log(1e-4 * 10.0 ** -l) for l, _, _ in fixed[-4:]]
                ys = [math.log(e) for _, _, e in fixed[-4:]]
                slope, _ = least_squares(xs, ys)
                check(abs(slope - 1.0) < 0.25, "%s %s: error ~ tol^%.3f" % (name, plan, slope))
            o = [x for x in read_csv(os.path.join(d, "orders.csv"))[0]
                 if x["integrator"] == name and x["plan"] == "fixed" and x["norm"] == "err_pos_max"][0]
            check(o["verdict"] == "as-expected" and float(o["dt_first"]) <= 1e-4,
                  "%s: orders.csv fits against the tolerance: %s %s dt_first=%s"
                  % (name, o["order"], o["verdict"], o["dt_first"]))
        for x in runs:
            if x["integrator"] == "velocity-verlet":
                check(x["tol"] == "", "a fixed-step run has an empty tol", "empty tol")
        conv, _ = read_csv(os.path.join(d, "convergence.csv"))
        check(all((float(x["tol"]) > 0) == (x["integrator"] != "velocity-verlet") for x in conv),
              "convergence.csv: tol > 0 exactly on the adaptive rows")
        bands, _ = read_csv(os.path.join(d, "bands.csv"))
        check(any(x["integrator"] == "rkf45" and abs(float(x["dt"]) - 1e-6) < 1e-18 for x in bands),
              "bands.csv holds the tolerance in dt for an adaptive method")
        onestep, _ = read_csv(os.path.join(d, "onestep_orders.csv"))
        check(not [x for x in onestep if x["integrator"] in ("rkf45", "rk8pd")],
              "no one-step rows for adaptive methods")

        # ---- frames so short that the tolerance never mattered: no fit ----
        short = os.path.join(tmp, "short.case")
        with open(short, "w") as f:
            f.write(open(os.path.join(ROOT, "cases", "spring.case")).read()
                    .replace("use = all", "use = rkf45")
                    .replace("traces/", os.path.join(ROOT, "cases", "traces") + "/"))
        r = run(vb, "run", "--quiet", "--strict", short, "--out", os.path.join(tmp, "sh"))
        o = [x for x in read_csv(os.path.join(tmp, "sh", "short", "orders.csv"))[0]
             if x["norm"] == "err_pos_max"]
        check(r.returncode == 0 and o and all(x["verdict"] == "undetermined" and x["order"] == ""
                                              for x in o),
              "rkf45 on frames of 0.05: undetermined, no order, --strict passes: %d %s"
              % (r.returncode, [(x["plan"], x["order"], x["verdict"]) for x in o]))

        # ---- sim --tol ----
        r = run(vb, "sim", "--model", "orbit", "--integrator", "rk8pd", "--dt", "0.5", "--tol",
                "1e-9")
        rows = list(csv.DictReader(r.stdout.splitlines()))
        check(r.returncode == 0 and rows and float(rows[0]["tol"]) == 1e-9 and
              float(rows[0]["err_pos_max"]) < 1e-6,
              "sim --tol: %s %s" % (r.returncode, r.stdout[-200:]))
        r = run(vb, "sim", "--model", "orbit", "--integrator", "verlet", "--tol", "1e-9")
        check(r.returncode == 2 and "only an adaptive integrator" in r.stderr,
              "sim --tol with a fixed-step method: exit %d %s" % (r.returncode, r.stderr))
        r = run(vb, "sim", "--model", "orbit", "--integrator", "rkf45", "--tol", "0")
        check(r.returncode == 2 and "--tol" in r.stderr, "sim --tol 0 exits 2")

        # ---- bad tolerances in a case file: file:line: key, exit 2 ----
        for text, want in (("tolerance = 0", ":10: tolerance = 0 must be in (0, 1]"),
                           ("tolerance = x", ":10: tolerance"),
                           ("tolerance = 1e-10", "is below 1e-14")):
            bad = os.path.join(tmp, "bad.case")
            with open(bad, "w") as f:
                f.write(ADAPTIVE.replace("tolerance = 1e-4", text))
            r = run(vb, "run", "--quiet", bad, "--out", os.path.join(tmp, "bad"))
            check(r.returncode == 2 and want in r.stderr and bad in r.stderr,
                  "%s: exit %d %s" % (text, r.returncode, r.stderr.strip()))

        # ---- run --timing: timing.csv, and every other file the same bytes ----
        plain, timed = os.path.join(tmp, "p"), os.path.join(tmp, "t")
        r1 = run(vb, "run", "--quiet", case, "--out", plain, "-j", "2")
        r2 = run(vb, "run", "--quiet", "--timing", case, "--out", timed, "-j", "2")
        check(r1.returncode == 0 and r2.returncode == 0, "run --timing exits 0: %s" % r2.stderr)
        names = sorted(os.listdir(os.path.join(plain, "ad")))
        check("timing.csv" not in names, "no timing.csv without --timing")
        check(sorted(os.listdir(os.path.join(timed, "ad"))) == sorted(names + ["timing.csv"]),
              "--timing adds timing.csv and nothing else")
        for name in names:
            check(filecmp.cmp(os.path.join(plain, "ad", name), os.path.join(timed, "ad", name),
                              shallow=False), "%s is the same bytes with --timing" % name)
        timing, header = read_csv(os.path.join(timed, "ad", "timing.csv"))
        runs = {(x["integrator"], x["plan"], x["level"], x["seed"]): x
                for x in read_csv(os.path.join(timed, "ad", "runs.csv"))[0]}
        # one row per integrator, plan and level: seed 1 of the random plans
        check(len(timing) == 3 * 2 * 6, "timing.csv has %d rows, want 36" % len(timing))
        for t in timing:
            x = runs[(t["integrator"], t["plan"], t["level"], "1" if t["plan"] == "random" else "")]
            check(t["steps"] == x["steps"] and t["force_evals"] == x["force_evals"] and
                  t["err_pos_max"] == x["err_pos_max"],
                  "timing.csv row %s matches its run" % t, "timing rows")
            # 3 to 51 repeats, or one of a run of 200 ms or more (timing.h)
            check(float(t["seconds"]) > 0 and (3 <= int(t["repeats"]) <= 51 or
                                               (int(t["repeats"]) == 1 and float(t["seconds"]) >= 0.2)),
                  "timing.csv: seconds %s over %s repeats" % (t["seconds"], t["repeats"]),
                  "timing values")
            ns = float(t["seconds"]) * 1e9 / int(t["steps"])
            check(abs(float(t["ns_per_step"]) - ns) <= 1e-3 * ns + 1e-3,
                  "ns_per_step %s, seconds/steps %.4g" % (t["ns_per_step"], ns), "ns per step")
        if shutil.which("gnuplot"):
            charts = os.path.join(tmp, "charts")
            r = run(vb, "draw", timed, charts)
            png = os.path.join(charts, "ad", "work-time.png")
            check(r.returncode == 0 and os.path.getsize(png) > 10000 if os.path.exists(png) else False,
                  "draw makes work-time.png from timing.csv: %s" % r.stderr)
            # a case of adaptive methods alone has nothing to draw against dt
            only = os.path.join(tmp, "only.case")
            with open(only, "w") as f:
                f.write(ADAPTIVE.replace("rkf45, rk8pd, velocity-verlet", "rkf45, rk8pd"))
            r1 = run(vb, "run", "--quiet", only, "--out", os.path.join(tmp, "o"))
            r2 = run(vb, "draw", os.path.join(tmp, "o"), os.path.join(tmp, "oc"))
            got = sorted(os.listdir(os.path.join(tmp, "oc", "only")))
            check(r1.returncode == 0 and r2.returncode == 0 and "work.png" in got and
                  "convergence.png" not in got and "band.png" not in got,
                  "adaptive methods alone: work.png, no convergence or band chart: %s %s"
                  % (got, r2.stderr))

    passed = sum(1 for v in results.values() if v)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
