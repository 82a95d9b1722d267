#!/usr/bin/env python3
"""stack_runs.py BUILD_DIR — stacks of boxes run by the command-line tool
(issue 55, docs/contact.md "Stacks"), each number held to a truth the C
code does not compute:

- toi keeps every stack of cases/stack*.case (5 boxes at ratio 1, 10 and
  100, 20 boxes) exactly where it is, at every dt: drift_max and speed_rms
  0 to the bit in stacks.csv, t_collapse blank, and its contacts' depth
  round-off of the faces' heights;
- pgs with 0 iterations applies no impulse, so every box falls freely
  under symplectic Euler (v += g h, then x += v h): after k steps it is
  g h^2 k (k+1) / 2 down, t_collapse the first k h at which that reaches
  half the edge, and drift_max the fall at the run's end (closed forms
  written here), with the run's iterations and substeps in their columns;
- the equal-cost comparison (cases/stack-cost-*.case, grids over a
  [contact] key): every point writes stacks.csv with the point's
  iterations and substeps in its columns, and at N = 1 the two halves are
  one configuration (1 substep of 1 iteration) reached by two grids: their
  rows are the same to the bit; docs/contact.md's table of the two is
  their 60 Hz rows as printed (%.3g); a grid value out of the key's range is
  refused naming the file, line, key and grid point;
- a stack's case in 2 shards, merged, is its whole run byte for byte;
- `sim` on a stack prints stacks.csv's header and row after runs.csv's:
  toi's the exact answer (drift and speed 0 to the bit, stood), pgs's
  the very row `run` writes for the same stack and step (the one
  command's measures the other's, cell for cell), and no such row for a
  body that is not a stack;
- bad input: a key a solver does not read or a value out of its range, a
  particle method, no [contact], a shift past the bound: each refused
  with status 2 and a message naming the file, the line and the key.
Ends with "N passed, N failed"."""
import math
import os
import sys

import suite

S = suite.Suite("stack runs", guard=300)
check, vb = S.check, S.vb

CASES = os.path.join(suite.ROOT, "cases")
EPS = 2.0 ** -52


def run_cases(tmp, name, *cases):
    out = os.path.join(tmp, name)
    r = vb("run", "--quiet", "-j", "1", *cases, "--out", out)
    check(r.returncode == 0, "%s: run" % name, r.stderr[-600:])
    return out


def stack_rows(out):
    """{case directory: stacks.csv's rows}"""
    rows = {}
    for d in sorted(os.listdir(out)):
        path = os.path.join(out, d, "stacks.csv")
        if os.path.exists(path):
            rows[d] = suite.table_rows(path)
    return rows


def test_toi_holds_every_stack(tmp):
    out = run_cases(tmp, "cases", *[os.path.join(CASES, c + ".case")
                                    for c in ("stack", "stack-heavy", "stack-tall")])
    rows = stack_rows(out)
    # stack-heavy is a grid of two: four stacks in all
    check(sorted(rows) == ["stack", "stack-heavy@ratio=10", "stack-heavy@ratio=100",
                           "stack-tall"], "every stack case wrote stacks.csv", sorted(rows))
    for case, rs in rows.items():
        n = 20 if case == "stack-tall" else 5
        toi = [r for r in rs if r["integrator"].endswith("+toi")]
        # three dt levels (halvings = 3), each a fixed-step run
        check(len(toi) == 3, "%s: toi at each of the three dt" % case, len(toi))
        for r in toi:
            what = "%s, toi at dt %s" % (case, r["dt"])
            check(r["status"] == "ok", what + ": ok", r["status"])
            # a resting stack: each contact carries the weight above it,
            # no friction on the flat, so toi moves nothing, to the bit
            check(r["drift_max"] == "0" and r["speed_rms"] == "0",
                  what + ": drift and speed 0 to the bit", (r["drift_max"], r["speed_rms"]))
            check(r["t_collapse"] == "", what + ": it stood (t_collapse blank)", r["t_collapse"])
            # the faces' heights are (k + 1/2) a -+ a/2 in binary: apart or
            # into each other by round-off of the top's height, a few ulps
            # of n a (as tests/test_stack.c)
            d = float(r["depth_max"])
            check(0.0 <= d <= 8.0 * EPS * n * 0.1, what + ": depth round-off", d)
            # toi has neither key: blank, not a number it does not have
            check(r["iterations"] == "" and r["substeps"] == "", what + ": no iterations",
                  (r["iterations"], r["substeps"]))
        # summary.md's rows of toi say the same: no keys, drift and speed 0, stood
        summary = open(os.path.join(out, case, "summary.md")).read()
        stood = [l for l in summary.splitlines()
                 if l.startswith("| `rigid-explicit-gyro+toi` |") and l.count("|") == 9]
        check(len(stood) == 3 and all(" | – | – | 0 | 0 | " in l and l.endswith("| stood |")
                                      for l in stood),
              "%s: summary.md's toi rows: no keys, drift and speed 0, stood" % case, stood)


NO_SOLVE = """\
[case]
description = five boxes under pgs with no velocity iteration: they fall freely
model = stack
n = 5
size = 0.1
g = 9.81
t_end = 1

[steps]
dt = 0.016666666666666666
halvings = 2

[integrators]
use = rigid-explicit-gyro

[contact]
handler = pgs
iterations = 0
warm_start = no
"""


def test_no_iterations_falls_freely(tmp):
    path = os.path.join(tmp, "no-solve.case")
    with open(path, "w") as f:
        f.write(NO_SOLVE)
    out = run_cases(tmp, "no-solve", path)
    rows = stack_rows(out).get("no-solve", [])
    summary = open(os.path.join(out, "no-solve", "summary.md")).read()
    check(len(rows) == 2, "no-solve: a row at each of the two dt", rows)
    g, a, t_end = 9.81, 0.1, 1.0
    for r in rows:
        h = float(r["dt"])
        what = "0 iterations at dt %s" % r["dt"]
        check(r["iterations"] == "0" and r["substeps"] == "1",
              what + ": the run's iterations and substeps", (r["iterations"], r["substeps"]))
        # no impulse: after k steps of symplectic Euler a box is
        # g h^2 k (k+1)/2 down; the first k at which that is a/2
        k = 1
        while g * h * h * k * (k + 1) / 2.0 < 0.5 * a:
            k += 1
        t = float(r["t_collapse"]) if r["t_collapse"] else float("nan")
        # the run's time is k h made by the plan in floating point: 1e-12
        # is a thousand roundings of it, far below a step
        check(abs(t - k * h) <= 1e-12 * k * h, what + ": t_collapse the free fall's k h",
              "%r against k h = %d x %r" % (t, k, h))
        # within a step of the exact free fall's sqrt(a/g)
        check(abs(t - math.sqrt(a / g)) <= h, what + ": within a step of sqrt(a/g)", t)
        # summary.md's row says the same collapse time, to its 3 digits
        row = "| `rigid-explicit-gyro+pgs` | %.6g | 0 | 1 |" % h
        line = [l for l in summary.splitlines() if l.startswith(row)]
        check(len(line) == 1 and line[0].endswith("| %.3g |" % (k * h)),
              what + ": summary.md's collapse time is k h", (row, line))
        # every box fell alike for the whole run: N = t_end/h steps
        N = round(t_end / h)
        fall = g * h * h * N * (N + 1) / 2.0
        drift = float(r["drift_max"])
        # the positions sum N velocities of N rounded sums: 1e-9 relative
        check(abs(drift - fall) <= 1e-9 * fall, what + ": drift the fall after t_end",
              "%r against %r" % (drift, fall))



def test_huge_fall_measured_finite(tmp):
    """a free fall at g = 1e300: every state finite, its squares not: the
    drift and speed_rms still the closed forms, never inf"""
    path = os.path.join(tmp, "huge-fall.case")
    with open(path, "w") as f:
        f.write(NO_SOLVE.replace("g = 9.81", "g = 1e300"))
    out = run_cases(tmp, "huge-fall", path)
    rows = stack_rows(out).get("huge-fall", [])
    check(len(rows) == 2, "huge-fall: a row at each of the two dt", rows)
    g, t_end = 1e300, 1.0
    for r in rows:
        h = float(r["dt"])
        N = round(t_end / h)
        what = "g = 1e300 at dt %s" % r["dt"]
        # box speeds g h k after step k, alike in every box: the root mean
        # square over the N steps g h sqrt((N+1)(2N+1)/6); the fall after
        # t_end g h^2 N (N+1)/2 (test_no_iterations_falls_freely).  Both
        # near 1e300 and finite; their squares 1e600 are not
        rms = g * h * math.sqrt((N + 1) * (2 * N + 1) / 6.0)
        fall = g * h * h * N * (N + 1) / 2.0
        drift, speed = float(r["drift_max"]), float(r["speed_rms"])
        check(r["status"] == "ok", what + ": ok (every state finite)", r["status"])
        # the same 1e-9 as the fall at g = 9.81: N rounded sums, and the
        # scaled sum's power of two is exact
        check(abs(drift - fall) <= 1e-9 * fall, what + ": drift the fall after t_end, finite",
              "%r against %r" % (drift, fall))
        check(abs(speed - rms) <= 1e-9 * rms, what + ": speed_rms g h sqrt((N+1)(2N+1)/6), finite",
              "%r against %r" % (speed, rms))

BUDGETS = [1, 2, 4, 8, 16, 32]
RATIOS = ["1", "10", "100"]


def test_equal_cost_grids(tmp):
    out = run_cases(tmp, "cost", *[os.path.join(CASES, "stack-cost-%s.case" % h)
                                   for h in ("substeps", "iterations")])
    rows = stack_rows(out)
    for half, other in (("substeps", "iterations"), ("iterations", "substeps")):
        for ratio in RATIOS:
            for n in BUDGETS:
                case = "stack-cost-%s@ratio=%s,%s=%d" % (half, ratio, half, n)
                rs = rows.get(case, [])
                # halvings = 2: the frame's dt (60 Hz) and half of it
                check(len(rs) == 2, "%s: a row at each of the two dt" % case, len(rs))
                for r in rs:
                    # the point's budget in its key's column, 1 in the other's:
                    # the case file's values, not the solver's defaults (10, 1)
                    check(r[half] == str(n) and r[other] == "1",
                          "%s at dt %s: %s %d, %s 1" % (case, r["dt"], half, n, other),
                          (r[half], r[other]))
                    check(r["status"] == "ok", "%s at dt %s: ok" % (case, r["dt"]), r["status"])
    # docs/contact.md's equal-cost table is these runs' 60 Hz rows, as the
    # docs print them (%.3g), pair by pair
    doc = open(os.path.join(suite.ROOT, "docs", "contact.md")).read()
    for ratio in RATIOS:
        for n in BUDGETS:
            cells = []
            for half in ("substeps", "iterations"):
                rs = rows.get("stack-cost-%s@ratio=%s,%s=%d" % (half, ratio, half, n), [])
                r = rs[0] if rs else {"drift_max": "nan", "speed_rms": "nan", "t_collapse": ""}
                fell = "stood" if r["t_collapse"] == "" else "fell %.3g s" % float(r["t_collapse"])
                cells.append("%.3g m, %.3g m/s, %s" % (float(r["drift_max"]),
                                                      float(r["speed_rms"]), fell))
            line = "| %s | %d | %s | %s |" % (ratio, n, cells[0], cells[1])
            check(line in doc.splitlines(), "docs/contact.md's equal-cost row, ratio %s, N %d"
                  % (ratio, n), line)
    for ratio in RATIOS:
        a = rows.get("stack-cost-substeps@ratio=%s,substeps=1" % ratio)
        b = rows.get("stack-cost-iterations@ratio=%s,iterations=1" % ratio)
        # N = 1: 1 substep of 1 iteration either way, the same run
        check(a is not None and a == b, "ratio %s: N = 1 the same on both sides to the bit" % ratio,
              (a, b))


def test_bad_grid_value(tmp):
    path = os.path.join(tmp, "bad-grid.case")
    with open(path, "w") as f:
        f.write(NO_SOLVE.replace("iterations = 0", "iterations = 1, 20000"))
    r = vb("run", "--quiet", path, "--out", os.path.join(tmp, "bad-out"))
    # iterations is an integer in [0, 10000] (solvers.c's key table)
    check(r.returncode == 2 and ("%s:18:" % path) in r.stderr and "iterations" in r.stderr
          and "grid point 2 of 2" in r.stderr,
          "a grid value out of range: exit 2 naming the file, line 18, key and point",
          (r.returncode, r.stderr))


def test_shards(tmp):
    same, why = S.shards_merged(tmp, "stack-sharded", [os.path.join(CASES, "stack.case")], 2)
    check(same, "a stack's case in 2 shards, merged, is its whole run", why)


BAD = [
    # (what, the text replaced in NO_SOLVE, by, the line, the key named)
    ("iterations out of range", "iterations = 0", "iterations = -1", 18, "iterations"),
    ("a key no listed solver reads", "warm_start = no", "hertz = 30", 19, "hertz"),
    ("a particle method", "use = rigid-explicit-gyro", "use = verlet", 14, "use"),
    # (its parameters together refused: the line of the model they make,
    # as every model's combined check; the key in the message)
    ("a shift past the bound", "n = 5\n", "n = 5\nshift = 0.3\n", 3, "shift"),
]


def sim_tables(r):
    """sim's stdout as its tables: [(header, row)] in the order printed"""
    lines = [l for l in r.stdout.splitlines() if l]
    return [(lines[k].split(","), lines[k + 1].split(",")) for k in range(0, len(lines) - 1, 2)]


SIM_60HZ = ["--dt", "0.016666666666666666", "--t-end", "2"]


def test_sim_prints_the_stack(tmp):
    stack_header = ["model", "integrator", "plan", "dt", "status", "iterations", "substeps",
                    "drift_max", "speed_rms", "depth_max", "t_collapse"]
    r = vb("sim", "--model", "stack", "--integrator", "rigid-explicit-gyro", "--contact", "toi",
           *SIM_60HZ)
    check(r.returncode == 0, "sim toi on a stack: exit 0", (r.returncode, r.stderr))
    tables = sim_tables(r)
    check(len(tables) == 2 and tables[1][0] == stack_header,
          "sim on a stack: runs.csv's header and row, then stacks.csv's", r.stdout)
    if len(tables) == 2 and len(tables[1][1]) == len(stack_header):
        toi = dict(zip(*tables[1]))
        # the exact answer, as toi gives it in a case (test_toi_holds_every_stack)
        check(toi["status"] == "ok" and toi["drift_max"] == "0" and toi["speed_rms"] == "0"
              and toi["t_collapse"] == "" and toi["iterations"] == "",
              "sim toi on a stack: drift and speed 0 to the bit, stood, no iterations", toi)
        d = float(toi["depth_max"])
        check(0.0 <= d <= 8.0 * EPS * 5 * 0.1, "sim toi on a stack: depth round-off", d)
    # pgs at its defaults: the row run writes for the same stack and step
    path = os.path.join(tmp, "pgs-60.case")
    with open(path, "w") as f:
        f.write(NO_SOLVE.replace("t_end = 1", "t_end = 2")
                .replace("iterations = 0\nwarm_start = no\n", ""))
    out = run_cases(tmp, "pgs-60", path)
    ran = [row for row in stack_rows(out).get("pgs-60", [])
           if row["dt"] == "0.016666666666666666"]
    r = vb("sim", "--model", "stack", "--integrator", "rigid-explicit-gyro", "--contact", "pgs",
           *SIM_60HZ)
    tables = sim_tables(r)
    printed = dict(zip(*tables[1])) if len(tables) == 2 else {}
    check(len(ran) == 1 and printed == ran[0],
          "sim pgs on a stack: stacks.csv's row of run, cell for cell", (printed, ran))
    check(printed.get("t_collapse") == "" and 0.0 < float(printed.get("drift_max", "nan")) < 0.05,
          "sim pgs on a stack at 60 Hz: stood, a drift under half the edge", printed)
    # a body that is not a stack prints no stack table
    r = vb("sim", "--model", "roll", "--integrator", "rigid-explicit-gyro", "--contact", "toi")
    check(r.returncode == 0 and ",".join(stack_header) not in r.stdout,
          "sim on a rolling ball: no stacks.csv row", (r.returncode, r.stdout[-400:]))
    # without --contact: exit 2 naming the solvers a stack takes, not
    # speculative, which refuses stacks (docs/contact.md, "Stacks")
    r = vb("sim", "--model", "stack", "--integrator", "rigid-explicit-gyro")
    named = r.stderr.split("--contact ")[1].split(")")[0] if "--contact " in r.stderr else ""
    check(r.returncode == 2 and set(named.split(", ")) == {"toi", "pgs", "soft", "xpbd", "regularized"},
          "sim on a stack without --contact: exit 2 naming the five solvers of stacks", r.stderr)
    r = vb("sim", "--model", "stack", "--integrator", "rigid-explicit-gyro", "--contact", "speculative")
    check(r.returncode == 2 and "speculative" in r.stderr,
          "sim --contact speculative on a stack: refused, exit 2", r.stderr)


def test_bad_input(tmp):
    for what, old, new, line, key in BAD:
        path = os.path.join(tmp, "bad.case")
        with open(path, "w") as f:
            f.write(NO_SOLVE.replace(old, new))
        r = vb("run", "--quiet", path, "--out", os.path.join(tmp, "bad-out"))
        check(r.returncode == 2, "%s: exit 2" % what, (r.returncode, r.stderr))
        check(("%s:" % path) in r.stderr and key in r.stderr,
              "%s: the message names the file and the key" % what, r.stderr)
        named = [l for l in r.stderr.splitlines() if "%s:" % path in l]
        check(any(":%d:" % line in l or "line %d" % line in l for l in named),
              "%s: ... and the line %d" % (what, line), r.stderr)
    # a stack runs inside a contact solver: no [contact] is refused
    path = os.path.join(tmp, "bare.case")
    with open(path, "w") as f:
        f.write(NO_SOLVE.split("[contact]")[0])
    r = vb("run", "--quiet", path, "--out", os.path.join(tmp, "bad-out"))
    check(r.returncode == 2 and ("%s:3:" % path) in r.stderr and "model" in r.stderr,
          "a stack without [contact]: exit 2 naming the model's line", (r.returncode, r.stderr))


if __name__ == "__main__":
    sys.exit(S.main([test_toi_holds_every_stack, test_no_iterations_falls_freely, test_huge_fall_measured_finite,
                     test_equal_cost_grids, test_bad_grid_value, test_shards, test_sim_prints_the_stack, test_bad_input]))
