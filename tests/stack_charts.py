#!/usr/bin/env python3
"""stack_charts.py BUILD_DIR — a stack of boxes' charts (src/draw/stackcharts.c,
issue 55), from cases/stack.case, stack-heavy.case and the equal-cost grids
cases/stack-cost-*.case run by the tool; the programs draw feeds gnuplot
(recorded by a stand-in, roll_charts.fed_programs) held to what the case
files and the tables say:

- stack-stand (in stack-heavy's grid directory): its x the ratios the case
  files give (1 from stack.case beside the grid, 10 and 100 from the grid),
  a line each solver; toi keeps every stack exactly (docs/contact.md,
  "Stacks"; tests/stack_runs.py to the bit), so its three points are at
  t_end = 2 s and each is marked as stood; another solver's point is its
  stacks.csv's t_collapse at 60 Hz, or t_end and marked where it is blank;
  the title's boxes, step and t_end are the case file's (n = 5, dt = 1/60,
  t_end = 2), and it says a stood run is drawn at t_end;
- stack-cost (in stack-cost-substeps's): a line each ratio and half, x the
  budgets the case files give (1 .. 32 times 2), y each point's drift_max at
  60 Hz; at N = 1 the two halves are one configuration (1 substep of 1
  iteration), so their points are the same;
- both reach a PNG through the real gnuplot; a point's stacks.csv gone is
  named, not drawn as if it stood.
Ends with "N passed, N failed"."""
import os
import re
import shutil
import subprocess
import sys

import suite
from roll_charts import fed_programs, blocks

S = suite.Suite("stack charts", guard=300)
check, vb = S.check, S.vb
CASES = os.path.join(suite.ROOT, "cases")


def row_60(path, integ):
    """the fixed-step row of integ at dt = 1/60 s of a stacks.csv"""
    rr = [r for r in suite.table_rows(path) if r["integrator"] == integ and r["plan"] == "fixed"
          and abs(float(r["dt"]) * 60 - 1) < 1e-9]
    return rr[0] if len(rr) == 1 else None


def plot_line(prog):
    """the plot command: [(block id or None for a keyentry, its key title or None)]"""
    m = re.search(r"\nplot (.*?)\n(?!     )", prog, re.S)
    out = []
    for part in (m.group(1).split(", \\\n     ") if m else []):
        b = re.match(r"\$c(\d+) ", part)
        t = re.search(r'title "([^"]*)"', part)
        out.append((int(b.group(1)) if b else None, t.group(1) if t else None, part))
    return out


def test_stand(out, progs):
    st = [p for p in progs if "how long a stack of" in p]
    check(len(st) == 1, "stack-stand drawn once, for the ratio grid stack-heavy", len(st))
    if not st:
        return
    p = st[0]
    check('stack-heavy: how long a stack of 5 boxes stands against the mass ratio, at dt = 0.01667 s' in p and
          "a run that stood is drawn at t_end = 2 s" in p,
          "stack-stand's title: 5 boxes, dt 1/60 s, t_end 2 s, as the case files say", p[:600])
    bl, parts = blocks(p), plot_line(p)
    lines = {t: bl[b] for b, t, _ in parts if b is not None and t}
    stood = {}
    for i, (b, t, part) in enumerate(parts):
        if b is not None and not t and "pt 8" in part:
            stood[parts[i - 1][1]] = bl[b]
    files = {1.0: os.path.join(out, "stack", "stacks.csv"),
             10.0: os.path.join(out, "stack-heavy@ratio=10", "stacks.csv"),
             100.0: os.path.join(out, "stack-heavy@ratio=100", "stacks.csv")}
    toi = "rigid-explicit-gyro+toi"
    check(sorted(tuple(map(float, x)) for x in lines.get(toi, [])) == [(1.0, 2.0), (10.0, 2.0), (100.0, 2.0)] and
          len(stood.get(toi, [])) == 3,
          "stack-stand: toi stands at ratio 1, 10 and 100, drawn at t_end = 2 s and marked as stood",
          (lines.get(toi), stood.get(toi)))
    for integ in ("rigid-explicit-gyro+pgs", "rigid-explicit-gyro+regularized"):
        want, marks = [], 0
        for ratio, path in sorted(files.items()):
            r = row_60(path, integ)
            want.append((ratio, float(r["t_collapse"]) if r["t_collapse"] else 2.0))
            marks += not r["t_collapse"]
        got = sorted(tuple(map(float, x)) for x in lines.get(integ, []))
        # the chart writes %.10g: within 5e-10 of each cell, relative
        same = len(got) == len(want) and all(x == u and abs(y - v) <= 5e-10 * abs(v)
                                              for (x, y), (u, v) in zip(got, want))
        check(same and len(stood.get(integ, [])) == marks,
              "stack-stand: %s's points are its 60 Hz t_collapse (t_end where it stood, marked)" % integ,
              (got, want, stood.get(integ)))
    check(any(b is None and t == "stood the whole run (drawn at t_end)" for b, t, _ in parts),
          "stack-stand's key says what the stood mark means")


def test_cost(out, progs):
    co = [p for p in progs if "equal cost: the largest drift" in p]
    check(len(co) == 1, "stack-cost drawn once, for the grid over substeps", len(co))
    if not co:
        return
    bl, parts = blocks(co[0]), plot_line(co[0])
    lines = {t: bl[b] for b, t, _ in parts if b is not None and t}
    budgets = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0]
    for ratio in ("1", "10", "100"):
        for key, fmt in (("N substeps x 1 iteration", "stack-cost-substeps@ratio=%s,substeps=%d"),
                         ("1 step x N iterations", "stack-cost-iterations@ratio=%s,iterations=%d")):
            got = [tuple(map(float, x)) for x in lines.get("ratio %s: %s" % (ratio, key), [])]
            want = []
            for n in budgets:
                r = row_60(os.path.join(out, fmt % (ratio, n), "stacks.csv"), "rigid-explicit-gyro+pgs")
                if r and r["status"] == "ok" and float(r["drift_max"]) > 0:
                    want.append((n, float(r["drift_max"])))
            # the chart writes %.10g: within 5e-10 of each cell, relative
            same = len(got) == len(want) and all(x == u and abs(y - v) <= 5e-10 * abs(v)
                                                  for (x, y), (u, v) in zip(got, want))
            check(same and [x for x, _ in got] == budgets,
                  "stack-cost: ratio %s, %s: the budgets 1 .. 32 and each point's 60 Hz drift_max" % (ratio, key),
                  (got, want))
        a = lines.get("ratio %s: N substeps x 1 iteration" % ratio, [[0, 0]])[0]
        b = lines.get("ratio %s: 1 step x N iterations" % ratio, [[1, 1]])[0]
        check(a == b, "stack-cost: ratio %s at N = 1, the halves are one configuration: the same point" % ratio,
              (a, b))


def test_drawn_and_damage(out, tmp):
    gp = os.environ.get("GNUPLOT", "gnuplot")
    if not shutil.which(gp):
        check(False, "stack charts drawn: gnuplot is installed (make check installs it)")
        return
    plots = os.path.join(tmp, "plots")
    r = subprocess.run([os.path.join(sys.argv[1], "verletbench"), "draw", "-j", "1", out, plots],
                       capture_output=True, text=True)
    for png in ("stack-heavy/stack-stand.png", "stack-cost-substeps/stack-cost.png"):
        path = os.path.join(plots, png)
        check(r.returncode == 0 and os.path.isfile(path) and os.path.getsize(path) > 1000,
              "%s drawn by gnuplot" % png, r.stderr[-400:])
    # pgs's 60 Hz run at ratio 100 failed: its line has no point there, and
    # its key says so
    path = os.path.join(out, "stack-heavy@ratio=100", "stacks.csv")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text.replace("stack,rigid-explicit-gyro+pgs,fixed,0.016666666666666666,ok,",
                             "stack,rigid-explicit-gyro+pgs,fixed,0.016666666666666666,diverged,", 1))
    progs = fed_programs(os.path.join(sys.argv[1], "verletbench"), out, os.path.join(tmp, "fed-failed"),
                         ["stack-heavy"], also=("stack",))
    st = [p for p in progs if "how long a stack of" in p]
    check(len(st) == 1 and 'title "rigid-explicit-gyro+pgs (failed or not run at ratio 100)"' in st[0] and
          'title "rigid-explicit-gyro+toi"' in st[0],
          "stack-stand: a run that failed has no point, and its line's key says at which ratio",
          re.findall(r'title "rigid[^"]*"', st[0]) if st else None)
    os.remove(path)
    r = subprocess.run([os.path.join(sys.argv[1], "verletbench"), "draw", "-j", "1", out,
                        os.path.join(tmp, "plots2")], capture_output=True, text=True)
    check("stack-heavy@ratio=100/stacks.csv" in r.stderr and
          not os.path.exists(os.path.join(tmp, "plots2", "stack-heavy", "stack-stand.png")),
          "stack-stand with a point's stacks.csv gone: named, no chart", r.stderr[-400:])


def test_beside_more(out, tmp):
    """make engines' stack.case sweeps more settings than stack-heavy.case:
    a stack beside the grid whose runs include every one of the grid's (and
    more) still gives each line its ratio-1 point, and its extra rows are no
    lines of the chart (the chart once dropped ratio 1 for every line)."""
    path = os.path.join(out, "stack", "stacks.csv")
    with open(path) as f:
        text = f.read()
    m = re.search(r"^# integrators=(.*)$", text, re.M)
    check(m is not None, "stack/stacks.csv names its integrators")
    if not m:
        return
    extra = text.replace(m.group(0), m.group(0) + ",extra-engine-setting", 1)
    with open(path, "w") as f:
        f.write(extra)
    try:
        progs = fed_programs(os.path.join(sys.argv[1], "verletbench"), out, os.path.join(tmp, "fed-more"),
                             ["stack-heavy"], also=("stack",))
    finally:
        with open(path, "w") as f:
            f.write(text)
    st = [p for p in progs if "how long a stack of" in p]
    bl, parts = (blocks(st[0]), plot_line(st[0])) if st else ({}, [])
    lines = {t: bl[b] for b, t, _ in parts if b is not None and t}
    toi = "rigid-explicit-gyro+toi"
    check(sorted(float(x[0]) for x in lines.get(toi, [])) == [1.0, 10.0, 100.0] and
          not any("extra-engine-setting" in (t or "") for _, t, _ in parts),
          "stack-stand: a stack beside the grid with more runs gives ratio 1, and its extra run no line",
          (lines.get(toi), [t for _, t, _ in parts]))


def test_charts(tmp):
    out = os.path.join(tmp, "res")
    r = vb("run", "--quiet", "-j", "1", *[os.path.join(CASES, c + ".case") for c in
                                           ("stack", "stack-heavy", "stack-cost-substeps", "stack-cost-iterations")],
           "--out", out)
    check(r.returncode == 0, "the stack cases run", r.stderr[-400:])
    if r.returncode != 0:
        return
    vbp = os.path.join(os.path.abspath(sys.argv[1]), "verletbench")
    progs = fed_programs(vbp, out, os.path.join(tmp, "fed"), ["stack-heavy", "stack-cost-substeps"],
                         also=("stack", "stack-cost-iterations") +
                         tuple(d for d in os.listdir(out) if d.startswith("stack-cost-iterations@")))
    test_stand(out, progs)
    test_cost(out, progs)
    test_beside_more(out, tmp)
    test_drawn_and_damage(out, tmp)


if __name__ == "__main__":
    sys.exit(S.main([test_charts]))
