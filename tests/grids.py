#!/usr/bin/env python3
"""grids.py BUILD_DIR — parameter grids in case files (docs/cases.md "Grids").

Each claim is held to a truth the grid code does not compute:
- a point of a grid is the case written out by hand with its values: every
  table of NAME@KEY=VALUE equals, row for row, the run of a plain case file
  that gives those values (the only lines allowed to differ are the '#'
  lines that name the file and the grid);
- a range's values are the decimal numbers a reader expects, as Python
  reads them (0.1 .. 0.9 step 0.2 has 0.7, not 0.1 + 3 * 0.2), in order,
  the first key slowest, and B is included when a step reaches it;
- grid.csv says what each point's own files say: its orders, verdicts and
  intervals are orders.csv's, its errors at the coarsest and finest step are
  runs.csv's (for random steps the median over seeds, computed here);
- problem writes one request file a point; the Python example engine run on
  them by hand and read back with --trajectories gives, at every point, the
  errors of the built-in velocity Verlet to the bit;
- draw makes the grid's charts, one per value of the other keys for a grid
  of two, and REPORT.md links every heading by the anchor GitHub gives it.
Ends with "N passed, N failed"."""
import csv
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys

import suite

S = suite.Suite("grids", guard=600)
check, vb = S.check, S.vb
ROOT, PY = suite.ROOT, suite.PY_ENGINE


def table(path):
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith("#")))


def data_lines(path):
    """A table's lines that are not '#' comments (the provenance)."""
    with open(path) as f:
        return [l for l in f.read().splitlines() if not l.startswith("#")]


CASE = """[case]
model = orbit
e = {e}
t_end = 6.283185307179586
[steps]
dt = {dt}
halvings = 3
jitter = 0.5
seeds = 3
[integrators]
use = tcv, velocity-verlet, rk4
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def test_points_are_cases(tmp):
    """Every table of each point equals a plain case giving its values."""
    grid = write(os.path.join(tmp, "pt", "g.case"), CASE.format(e="0.1 .. 0.5 step 0.2", dt="0.05, 0.04"))
    r = vb("run", grid, "--out", os.path.join(tmp, "pt", "res"), "--quiet")
    check(r.returncode == 0, "run of a grid exits 0", r.stderr)
    points = [(e, dt) for e in ("0.1", "0.3", "0.5") for dt in ("0.05", "0.04")]
    dirs = sorted(os.listdir(os.path.join(tmp, "pt", "res")))
    want = sorted(["g", "summary.md"] + ["g@e=%s,dt=%s" % p for p in points])
    check(dirs == want, "one directory a point, named NAME@KEY=VALUE,..., and the grid's",
          "%s, want %s" % (dirs, want))
    for e, dt in points:
        plain = write(os.path.join(tmp, "pt", "plain-%s-%s" % (e, dt), "p.case"), CASE.format(e=e, dt=dt))
        out = os.path.join(os.path.dirname(plain), "res")
        r = vb("run", plain, "--out", out, "--quiet")
        check(r.returncode == 0, "plain case e=%s dt=%s runs" % (e, dt), r.stderr)
        pdir = os.path.join(tmp, "pt", "res", "g@e=%s,dt=%s" % (e, dt))
        files = sorted(os.listdir(pdir))
        check(files == sorted(os.listdir(os.path.join(out, "p"))),
              "point e=%s dt=%s: the files of a case" % (e, dt), files)
        for name in files:
            if name == "summary.md":
                # the table rows; the heading names the point
                a = [l for l in open(os.path.join(pdir, name)) if l.startswith("|")]
                b = [l for l in open(os.path.join(out, "p", name)) if l.startswith("|")]
            else:
                a = data_lines(os.path.join(pdir, name))
                b = data_lines(os.path.join(out, "p", name))
            check(a == b and a, "point e=%s dt=%s: %s equals the plain case's" % (e, dt, name))
        # the provenance says which point of which grid
        head = open(os.path.join(pdir, "runs.csv")).read().splitlines()[:4]
        check("# grid point %d of 6: e=%s,dt=%s (e = 0.1 .. 0.5 step 0.2; dt = 0.05, 0.04)" %
              (points.index((e, dt)) + 1, e, dt) in head, "point e=%s dt=%s: its grid line" % (e, dt), head)


def provenance_value(path, key):
    for line in open(path):
        if line.startswith("# model=") or line.startswith("# dt="):
            for w in line[2:].split():
                if w.startswith(key + "="):
                    return w.split("=", 1)[1]
    return None


def test_range_values(tmp):
    """A range's values are the decimals a reader expects, in order."""
    cases = [
        ("e", "0.1 .. 0.9 step 0.2", ["0.1", "0.3", "0.5", "0.7", "0.9"]),
        ("e", "0.9 .. 0 step -0.3", ["0.9", "0.6", "0.3", "0"]),
        ("mu", "1 .. 1000 times 10", ["1", "10", "100", "1000"]),
        ("mu", "1000 .. 1 times 0.1", ["1000", "100", "10", "1"]),
        ("mu", "0.5 .. 5 times 2", ["0.5", "1", "2", "4"]),        # 8 is past B: not taken
        ("e", "0 .. 0.95 step 0.05", ["%g" % (k / 20) for k in range(20)]),
        ("e", "0 .. 0.99 step 0.3", ["0", "0.3", "0.6", "0.9"]),      # B not reached: the last step short of it
        ("e", "5e-1 .. 7.5e-1 step 1.25e-1", ["0.5", "0.625", "0.75"]),
    ]
    for key, spec, values in cases:
        text = CASE.format(e="0.5", dt="0.05").replace("e = 0.5", "%s = %s" % (key, spec) if key == "e" else "e = 0.5\n%s = %s" % (key, spec))
        text = text.replace("halvings = 3", "halvings = 2").replace("t_end = 6.283185307179586", "t_end = 0.5")
        d = os.path.join(tmp, "rv", key + spec.replace(" ", "_"))
        g = write(os.path.join(d, "r.case"), text)
        r = vb("run", g, "--out", os.path.join(d, "res"), "--quiet", "--no-chart-data")
        check(r.returncode == 0, "%s = %s runs" % (key, spec), r.stderr)
        if r.returncode:
            continue
        rows = table(os.path.join(d, "res", "r", "grid.csv"))
        got = []
        for row in rows:
            if row[key] not in got:
                got.append(row[key])
        check(got == values, "%s = %s: the points, in order" % (key, spec), "%s, want %s" % (got, values))
        for v in values:
            p = os.path.join(d, "res", "r@%s=%s" % (key, v), "runs.csv")
            exact = provenance_value(p, key) if os.path.exists(p) else None
            check(exact is not None and float(exact) == float(v),
                  "%s = %s: the point %s is the double %r, as written (got %s)" % (key, spec, v, float(v), exact))
        # the points' numbers in grid.csv are 1, 2, ... in that order
        pts = []
        for row in rows:
            if row["point"] not in pts:
                pts.append(row["point"])
        check(pts == [str(i + 1) for i in range(len(values))], "%s = %s: points numbered in order" % (key, spec), pts)


def test_grid_csv_says_what_points_say(tmp):
    d = os.path.join(tmp, "gc")
    g = write(os.path.join(d, "gc.case"), CASE.format(e="0, 0.5, 0.9", dt="0.02"))
    r = vb("run", g, "--out", os.path.join(d, "res"), "--quiet", "--no-chart-data")
    check(r.returncode == 0, "grid runs", r.stderr)
    rows = table(os.path.join(d, "res", "gc", "grid.csv"))
    n_checked = 0
    for row in rows:
        pdir = os.path.join(d, "res", "gc@e=" + row["e"])
        orders = [o for o in table(os.path.join(pdir, "orders.csv"))
                  if (o["integrator"], o["plan"], o["norm"]) == (row["integrator"], row["plan"], row["norm"])]
        check(len(orders) == 1, "grid.csv row %s/%s/%s at e=%s has its orders.csv row" %
              (row["integrator"], row["plan"], row["norm"], row["e"]))
        if len(orders) != 1:
            continue
        o = orders[0]
        same = all(row[k] == o[k] for k in ("order", "order_se", "order_ci95", "points", "expected", "verdict", "range"))
        check(same, "grid.csv row = orders.csv row (%s %s %s e=%s)" % (row["integrator"], row["plan"], row["norm"], row["e"]),
              "%s\n%s" % (row, o))
        runs = [x for x in table(os.path.join(pdir, "runs.csv"))
                if x["integrator"] == row["integrator"] and x["plan"] == row["plan"]]
        levels = sorted({int(x["level"]) for x in runs})
        for which, level in (("coarsest", levels[0]), ("finest", levels[-1])):
            at = [x for x in runs if int(x["level"]) == level]
            vals = [float(x[row["norm"]]) for x in at]
            want = statistics.median(vals) if row["plan"] == "random" else vals[0]
            got = float(row["err_" + which]) if row["err_" + which] != "" else None
            check(got == want, "err_%s of %s %s %s at e=%s: the median over seeds of runs.csv" %
                  (which, row["integrator"], row["plan"], row["norm"], row["e"]), "%r, want %r" % (got, want))
            n_checked += 1
    check(n_checked > 100, "grid.csv's errors checked: %d" % n_checked)
    # the summary's order table: a row a point, the points in order
    summ = open(os.path.join(d, "res", "gc", "summary.md")).read()
    check("| e | `tcv` (2) | `velocity-verlet` (2) | `rk4` (4) |" in summ, "the grid summary's columns", summ[:600])
    first_col = [l.split("|")[1].strip() for l in summ.splitlines() if l.startswith("| 0") or l.startswith("| 0.")]
    check(first_col[:3] == ["0", "0.5", "0.9"], "the summary's rows are the points in order", first_col)
    # and the top summary puts the grid before its points
    top = open(os.path.join(d, "res", "summary.md")).read()
    heads = [l for l in top.splitlines() if l.startswith("## ")]
    check(heads == ["## gc", "## gc@e=0", "## gc@e=0.5", "## gc@e=0.9"], "summary.md: the grid, then its points", heads)


def test_problem_and_trajectories(tmp):
    d = os.path.join(tmp, "pr")
    text = CASE.format(e="0.3, 0.6", dt="0.05").replace("use = tcv, velocity-verlet, rk4", "use = velocity-verlet")
    g = write(os.path.join(d, "pg.case"), text)
    r = vb("problem", g, "--out", os.path.join(d, "p"))
    check(r.returncode == 0, "problem on a grid exits 0", r.stderr)
    dirs = sorted(os.listdir(os.path.join(d, "p")))
    check(dirs == ["pg@e=0.3", "pg@e=0.6"], "problem: a directory a point", dirs)
    for point in dirs:
        req = os.path.join(d, "p", point, "requests.jsonl")
        lines = open(req).read().splitlines()
        head = json.loads(lines[0])
        check(head.get("grid_point") == point.split("@")[1], "%s: the first line names the point" % point, lines[0])
        traj = os.path.join(d, "traj", point)
        os.makedirs(traj)
        for line in lines[1:]:
            q = json.loads(line)
            check(q["params"]["e"] == float(point.split("=")[1]), "%s: the request's e" % point, q["params"])
            with open(os.path.join(traj, q["run"] + ".csv"), "w") as out:
                subprocess.run(PY + " velocity-verlet", shell=True, input=line + "\n", stdout=out,
                               text=True, check=True, timeout=S.guard)
    r = vb("run", g, "--trajectories", "mine:2=" + os.path.join(d, "traj"), "--out",
           os.path.join(d, "res"), "--quiet", "--no-chart-data")
    check(r.returncode == 0, "run --trajectories DIR on a grid reads DIR/POINT/RUN.csv", r.stderr)
    for point in dirs:
        rows = table(os.path.join(d, "res", point, "runs.csv"))
        mine = [x for x in rows if x["integrator"] == "mine"]
        vv = [x for x in rows if x["integrator"] == "velocity-verlet"]
        same = len(mine) == len(vv) > 0 and all(
            {k: v for k, v in a.items() if k != "integrator"} == {k: v for k, v in b.items() if k != "integrator"}
            for a, b in zip(mine, vv))
        check(same, "%s: the engine's trajectories give velocity Verlet's errors to the bit" % point)
    # a point without its directory is said up front
    shutil.rmtree(os.path.join(d, "traj", "pg@e=0.6"))
    r = vb("run", g, "--trajectories", "mine:2=" + os.path.join(d, "traj"), "--out", os.path.join(d, "res2"))
    check(r.returncode == 2 and "pg@e=0.6: no such directory" in r.stderr and
          not os.path.exists(os.path.join(d, "res2")),
          "a point's missing trajectory directory: exit 2 before anything runs", r.stderr)


def test_draw(tmp):
    if not shutil.which("gnuplot"):
        check(False, "gnuplot is not installed (make check installs it as root)")
        return
    d = os.path.join(tmp, "dr")
    one = write(os.path.join(d, "one.case"), CASE.format(e="0.2, 0.6", dt="0.05"))
    two = write(os.path.join(d, "two.case"), CASE.format(e="0.2, 0.6", dt="0.05, 0.04"))
    r = vb("run", one, two, "--out", os.path.join(d, "res"), "--quiet")
    check(r.returncode == 0, "two grids run", r.stderr)
    r = subprocess.run([S.vb_path, "draw", os.path.join(d, "res"), os.path.join(d, "plots")],
                       capture_output=True, text=True, timeout=S.guard)
    check(r.returncode == 0, "draw exits 0", r.stdout + r.stderr)
    have = sorted(os.listdir(os.path.join(d, "plots", "one")))
    check(have == ["grid-error.png", "grid-order.png"], "a grid of one key: its two charts", have)
    have = sorted(os.listdir(os.path.join(d, "plots", "two")))
    want = sorted("grid-%s@dt=%s.png" % (m, v) for m in ("order", "error") for v in ("0.05", "0.04"))
    check(have == want, "a grid of two keys: its charts a value of the second", "%s, want %s" % (have, want))
    for f in glob.glob(os.path.join(d, "plots", "*", "grid-*.png")):
        check(open(f, "rb").read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(f) > 6000, "%s is a real chart" % f)
    check(os.path.exists(os.path.join(d, "plots", "one@e=0.2", "convergence.png")),
          "each point has a case's charts")
    rep = open(os.path.join(d, "res", "REPORT.md")).read()
    cases = [l for l in rep.splitlines() if l.startswith("Cases:")]
    check(cases and "[one](#one)" in cases[0] and "[one@e=0.2](#onee02)" in cases[0] and
          "[two@e=0.6,dt=0.04](#twoe06dt004)" in cases[0],
          "REPORT.md: links by the anchors GitHub makes ('@', '=', ',' and '.' dropped)", cases)
    check("../plots/two/grid-order@dt=0.04.png" in rep or "plots/two/grid-order@dt=0.04.png" in rep,
          "REPORT.md shows the grid's charts")
    # the order chart as SVG: the key names each integrator, and says "="
    # for a curve equal to an earlier one at every point (fixed steps: the
    # Verlet forms compute the same positions)
    svg = os.path.join(d, "o.svg")
    r = subprocess.run([S.vb_path, "draw", "--chart", "grid-order", os.path.join(d, "res", "one", "grid.csv"), svg, "one"],
                       cwd=ROOT, capture_output=True, text=True, timeout=S.guard)
    text = open(svg).read() if os.path.exists(svg) else ""
    check(r.returncode == 0 and "velocity-verlet  = tcv" in text and "rk4" in text,
          "the grid chart: the key, with '= tcv' for velocity Verlet under fixed steps", r.stderr)


def test_check_narrowed_grid(tmp):
    """A baseline of k = 1, 2, 3, then the case narrowed to k = 1, 2: the
    point k=3 the case runs no more is MISSING and check exits 1, as when
    an integrator is dropped (it said "0 baseline runs missing" and exited
    0); with all three points it passes, and a grid that gains a point is
    a case with no baseline (exit 2)."""
    text = """[case]
model = spring
k = {k}
t_end = 6.283185307179586
[steps]
dt = 0.1
halvings = 3
jitter = 0.5
seeds = 2
[integrators]
use = velocity-verlet, tcv
"""
    case = write(os.path.join(tmp, "nk.case"), text.format(k="1, 2, 3"))
    base = os.path.join(tmp, "base")
    r = vb("run", "--quiet", "--no-chart-data", case, "--out", base)
    check(r.returncode == 0, "run of the grid k = 1, 2, 3", r.stderr)
    r = vb("check", "--baseline", base, case)
    check(r.returncode == 0 and "0 baseline runs missing" in r.stdout,
          "check of the whole grid against its own baseline passes", r.stdout + r.stderr)
    runs3 = len(table(os.path.join(base, "nk@k=3", "runs.csv")))
    write(case, text.format(k="1, 2"))
    r = vb("check", "--baseline", base, case)
    missing = [l.split() for l in r.stdout.split("MISSING: in the baseline, not run now:")[-1].splitlines()
               if l.startswith("  nk@")]
    check(r.returncode == 1 and "FAILED" in r.stdout and "%d baseline runs missing" % runs3 in r.stdout
          and missing and all(m[0] == "nk@k=3" for m in missing)
          and sum(int(m[3]) for m in missing) == runs3,
          "the grid narrowed to k = 1, 2: the %d runs of nk@k=3 are missing, exit 1 (got %d)"
          % (runs3, r.returncode), r.stdout + r.stderr)
    write(case, text.format(k="1, 2, 3, 4"))
    r = vb("check", "--baseline", base, case)
    check(r.returncode == 2 and "no baseline for case 'nk@k=4'" in r.stderr,
          "a grid that gained a point: exit 2 naming it (got %d)" % r.returncode, r.stderr)


def test_subnormal_point_names(tmp):
    """A point's name holds its value in the shortest form that reads back,
    for subnormal values too (5e-324 was named 4.94066e-324): Python's repr,
    which gives that form, is the truth."""
    values = ["1e-310", "2.5e-320", "1.5e-323", "5e-324"]
    case = write(os.path.join(tmp, "sub.case"), """[case]
model = spring
x0 = %s
t_end = 1
[steps]
dt = 0.1
halvings = 2
[integrators]
use = velocity-verlet
""" % ", ".join(values))
    out = os.path.join(tmp, "res")
    r = vb("run", "--quiet", "--no-chart-data", case, "--out", out)
    check(r.returncode == 0, "a grid of subnormal x0 runs", r.stderr)
    got = sorted(d for d in os.listdir(out) if d.startswith("sub@")) if r.returncode == 0 else []
    want = sorted("sub@x0=" + repr(float(v)) for v in values)
    check(got == want, "subnormal grid points named in the shortest form", "%s, want %s" % (got, want))


def main():
    return S.main((test_points_are_cases, test_range_values, test_grid_csv_says_what_points_say,
                   test_problem_and_trajectories, test_draw, test_check_narrowed_grid,
                   test_subnormal_point_names))


if __name__ == "__main__":
    sys.exit(main())
