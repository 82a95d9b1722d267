#!/usr/bin/env python3
"""velocity_none.py BUILD_DIR — an engine that declares velocity=none
(docs/real-engines.md §1.7), end to end.

The engine: engines/check/pverlet.py (on the Python helper) and its twins
pverlet.js and pverlet.c (on the JavaScript and C helpers; make check builds
the C one with `make -C engines setup`), position Verlet as the
textbook states it, x_1 = x_0 + v_0 h + a_0 h^2/2 and then
x_{n+1} = 2x_n - x_{n-1} + a_n h^2.  It keeps no velocity at all.  The
independent truths it is held to:

- the built-in `verlet` is that method (src/integrators/verlet.c, its
  comment and vb_pv_coeffs_verlet in pvfamily.h: r = 1, c = h^2, the Taylor
  start of pvfamily.c), so the engine's position errors equal verlet's to
  round-off (16 eps N^1.5 of the positions' size, the project's rule,
  docs/method.md §2) in every run, fixed and random, and the summary says
  "= `verlet`";
- position Verlet is second order: the fitted order of err_pos_max with
  fixed steps on the spring is 2 (within 0.05: the spring's error is
  smooth and the fit over four halvings is in its asymptotic range, where
  verlet's own fit is 2.00 ± 0.00);
- no velocity is reported, so its velocity, energy, angular and linear
  momentum cells are empty (never 0, never nan), and orders.csv fits none of
  those norms for it; the summary's energy cell says "no velocity";
- the rows are read the same through persistent workers and one process a
  run (the tables byte for byte), and from trajectory files (score DIR,
  score FILE with the capability line first);
- a capability line velocity=none over rows that carry velocity columns
  fails each run by name; rows with more fields than its header too;
- check/compare of tables with such an engine pass unchanged, and still find
  a deleted position cell of it, and a deleted velocity cell of verlet;
- a version-1 engine (no capability line) without velocity columns is
  refused as before (the message of the verletbench before velocity=none).
Ends with "N passed, N failed"."""
import csv
import io
import os
import subprocess
import sys
import tempfile

from suite import Suite, table_body, table_rows

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PV = "python3 " + os.path.join(ROOT, "engines", "check", "pverlet.py")
PVJS = "node " + os.path.join(ROOT, "engines", "check", "pverlet.js")
PVC = os.path.join(ROOT, "engines", "build", "vb-pverlet-c")
GUARD = 300
EPS = 2.0 ** -52

SPRING = """[case]
model = spring
k = 1
m = 1
x0 = 1
v0 = 0
t_end = 6.283185307179586
[steps]
dt = 0.05
halvings = 4
jitter = 0.5
seeds = 2
[integrators]
use = verlet, euler-semi
"""

# angular momentum is a metric of this model: left out for the engine too
ORBIT = """[case]
model = orbit
mu = 1
a = 1
e = 0.5
t_end = 6.283185307179586
[steps]
dt = 0.02
halvings = 2
[integrators]
use = verlet
"""

VEL_COLUMNS = ("err_vel_final", "err_vel_max", "err_energy_max", "err_angmom_max",
               "err_momentum_max")


SUITE = Suite('velocity_none', GUARD)
check = SUITE.check


vb = SUITE.vb_engines


body = table_body
rows = table_rows


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def key(x):
    return (x["plan"], x["level"], x["seed"])


def same_positions(a, b):
    """err_pos_max and err_pos_rms of two runs equal to round-off: within
    16 eps N^1.5 of the positions' size (docs/method.md §2)"""
    n = float(a["steps"])
    floor = 16 * EPS * n ** 1.5 * float(a["pos_scale"])
    return all(abs(float(a[c]) - float(b[c])) <= floor for c in ("err_pos_max", "err_pos_rms"))


def run_case(tmp, text, name, engine, out, env=None, extra=()):
    case = write(tmp, name + ".case", text)
    return vb("run", case, "--engine", engine, "--quiet", "--out", out, *extra, env=env), case


def test_equals_verlet(tmp):
    out = os.path.join(tmp, "a")
    log = os.path.join(tmp, "pids")
    r, _ = run_case(tmp, SPRING, "spring", "pv=" + PV, out, env={"PVERLET_PIDS": log},
                    extra=("-j", "2"))
    check(r.returncode == 0, "a velocity=none engine's sweep exits 0", r.stderr)
    if r.returncode != 0:
        return
    served = [l.split()[0] for l in open(log)]
    check(len(served) >= 16 and len(set(served)) <= 4,
          "its runs go to persistent workers (%d runs, %d processes)"
          % (len(served), len(set(served))))
    runs = rows(os.path.join(out, "spring", "runs.csv"))
    mine = [x for x in runs if x["integrator"] == "pv"]
    verlet = {key(x): x for x in runs if x["integrator"] == "verlet"}
    check(len(mine) == 4 + 4 * 2 and all(x["status"] == "ok" for x in mine),
          "every run of the engine is ok", [x["status"] for x in mine])
    off = [key(x) for x in mine if not same_positions(x, verlet[key(x)])]
    check(mine and not off, "its position errors equal verlet's to round-off in every run "
          "(%d of %d differ)" % (len(off), len(mine)), off)
    blank = [x for x in mine if any(x[c] != "" for c in VEL_COLUMNS)]
    check(mine and not blank, "its velocity, energy and momentum cells are empty", blank[:2])
    check(all(x["err_vel_max"] != "" and x["err_energy_max"] != "" for x in verlet.values()),
          "verlet's velocity and energy cells are filled beside it")
    check(all("nan" not in ",".join(x.values()).lower() for x in mine), "no nan in its rows")
    orders = rows(os.path.join(out, "spring", "orders.csv"))
    fixed = [o for o in orders if o["integrator"] == "pv" and o["plan"] == "fixed" and
             o["norm"] == "err_pos_max"]
    check(fixed and abs(float(fixed[0]["order"]) - 2.0) <= 0.05,
          "its order with fixed steps is 2 (position Verlet)", fixed)
    norms = {o["norm"] for o in orders if o["integrator"] == "pv"}
    check(norms and not norms & set(VEL_COLUMNS) and "err_pos_max" in norms,
          "orders.csv fits its position norms and none of the velocity's", sorted(norms))
    check({"err_vel_max", "err_energy_max"} <= {o["norm"] for o in orders
                                                if o["integrator"] == "verlet"},
          "and verlet's velocity and energy norms as before")
    summ = open(os.path.join(out, "spring", "summary.md")).read().splitlines()
    line = [l for l in summ if l.startswith("| `pv`")]
    check(line and line[0].count("= `verlet`") == 2 and "| no velocity |" in line[0],
          "the summary: = verlet (fixed and random), energy cell 'no velocity'", line)
    prov = [l for l in open(os.path.join(out, "spring", "runs.csv")) if l.startswith("# engine pv")]
    check(prov and prov[0].rstrip().endswith("protocol 2, persistent, float64, velocity none"),
          "the provenance says velocity none", prov)
    ts = rows(os.path.join(out, "spring", "timeseries.csv"))
    tsm = [x for x in ts if x["integrator"] == "pv"]
    check(tsm and all(x["err_energy"] == "" and float(x["err_pos"]) >= 0 for x in tsm),
          "the chart data: its energy cells empty, its position errors there", tsm[:1])
    # one process a run: the same tables
    b = os.path.join(tmp, "b")
    r, _ = run_case(tmp, SPRING, "spring", "pv=" + PV, b,
                    env={"VERLETBENCH_ENGINE_PROCESSES": "1"}, extra=("-j", "2"))
    check(r.returncode == 0, "one process a run exits 0", r.stderr)
    for name in ("runs.csv", "orders.csv", "bands.csv", "summary.md", "timeseries.csv"):
        check(body(os.path.join(out, "spring", name)) == body(os.path.join(b, "spring", name)),
              "persistent and one process a run: %s byte for byte" % name)
    # the same engine on the JavaScript and C helpers: the same doubles, the
    # same tables
    for lang, cmd in (("JavaScript", PVJS), ("C", PVC)):
        c = os.path.join(tmp, lang)
        r, _ = run_case(tmp, SPRING, "spring", "pv=" + cmd, c)
        check(r.returncode == 0, "the %s twin exits 0" % lang, r.stderr)
        if r.returncode == 0:
            for name in ("runs.csv", "orders.csv", "summary.md"):
                check(body(os.path.join(out, "spring", name)) ==
                      body(os.path.join(c, "spring", name)),
                      "the %s helper's rows without velocity: %s as the Python one's"
                      % (lang, name))
    return out


def test_orbit(tmp):
    out = os.path.join(tmp, "orbit")
    r, _ = run_case(tmp, ORBIT, "orbit", "pv=" + PV, out)
    check(r.returncode == 0, "the orbit with a velocity=none engine exits 0", r.stderr)
    if r.returncode != 0:
        return
    runs = rows(os.path.join(out, "orbit", "runs.csv"))
    mine = [x for x in runs if x["integrator"] == "pv"]
    verlet = {key(x): x for x in runs if x["integrator"] == "verlet"}
    check(mine and all(x["err_angmom_max"] == "" and x["err_energy_max"] == "" for x in mine) and
          all(x["err_angmom_max"] != "" for x in verlet.values()),
          "orbit: its angular momentum and energy cells empty, verlet's filled", mine[:1])
    check(mine and all(same_positions(x, verlet[key(x)]) for x in mine),
          "orbit: its position errors equal verlet's to round-off")


def test_refused(tmp):
    # velocity=none, and the velocity columns anyway
    out = os.path.join(tmp, "cols")
    r, _ = run_case(tmp, SPRING.replace("halvings = 4", "halvings = 2"), "spring",
                    "pv=" + PV + " columns=v", out, extra=("-j", "1"))
    runs = [x for x in rows(os.path.join(out, "spring", "runs.csv")) if x["integrator"] == "pv"]
    check(r.returncode == 1 and runs and all(x["status"] == "engine-failed" for x in runs) and
          "column 3 is 'v', a velocity, but the capability line says velocity=none" in r.stderr,
          "velocity=none with velocity columns: every run fails, by name", r.stderr[:600])
    # the header right, a row with one field more
    traj = write(tmp, "extra.csv",
                 "# verletbench-engine protocol=2 velocity=none\n"
                 "# verletbench run=sim model=spring k=1 m=1 x0=1 v0=0 plan=fixed "
                 "t_end=0.20000000000000001 level=0 dt=0.10000000000000001\n"
                 "t,x\n0,1\n0.1,0.995,-0.1\n0.2,0.98005\n")
    r = vb("score", traj, "--name", "pv")
    check(r.returncode == 1 and "line 5 of %s: 3 fields, the header has 2 (velocity=none: a row "
          "is t and the positions" % traj in r.stderr,
          "velocity=none: a row with a velocity more than its header is named", r.stderr)
    # the orbit's velocity columns in another order, or after another
    # column: still velocity columns (§1.7), refused by name
    for head, col, name in (("t,x,y,vy,vx", 4, "vy"), ("t,x,y,evals,vx,vy", 5, "vx")):
        extra = ",1" if "evals" in head else ""
        traj = write(tmp, "orbit-%d.csv" % col,
                     "# verletbench-engine protocol=2 velocity=none\n"
                     "# verletbench run=sim model=orbit mu=1 a=1 e=0 plan=fixed "
                     "t_end=0.20000000000000001 level=0 dt=0.10000000000000001\n" + head + "\n" +
                     "".join("%s,%s,%s%s,0,0\n" % (t, x, y, extra) for t, x, y in
                             (("0", "1", "0"), ("0.1", "0.995004165278026", "0.0998334166468282"),
                              ("0.2", "0.980066577841242", "0.198669330795061"))))
        r = vb("score", traj, "--name", "pv")
        check(r.returncode == 1 and "line 3 of %s: column %d is '%s', a velocity, but the "
              "capability line says velocity=none" % (traj, col, name) in r.stderr,
              "velocity=none: the header %s has velocity columns, refused by name" % head,
              r.stderr)
    # score FILE: what follows a capability line is named as such, by its
    # line (a blank line between them; nothing after it)
    cap = "# verletbench-engine protocol=2 velocity=none\n"
    for text, want in ((cap + "\n# verletbench run=sim model=spring k=1 m=1 x0=1 v0=0 plan=fixed "
                        "t_end=0.2 level=0 dt=0.1\nt,x\n0,1\n0.1,0.995\n0.2,0.98\n",
                        ":2: the line after the capability line is not '# verletbench run=...'"),
                       (cap, ":2: missing: the '# verletbench run=...' line follows the "
                        "capability line")):
        f = write(tmp, "after-cap.csv", text)
        r = vb("score", f, "--name", "pv")
        check(r.returncode == 2 and f + want in r.stderr and "first line" not in r.stderr and
              "empty" not in r.stderr,
              "score FILE: the line after the capability line named as that", r.stderr)
    # version 1: no capability line, no velocity columns: refused as before
    v1 = write(tmp, "v1.py", "import sys\nsys.stdin.read()\nprint('t,x')\nprint('0,1')\n")
    out = os.path.join(tmp, "v1")
    r, _ = run_case(tmp, SPRING.replace("halvings = 4", "halvings = 2").replace("seeds = 2",
                                                                                 "seeds = 1"),
                    "spring", "v1=python3 " + v1, out, extra=("-j", "1"))
    check(r.returncode == 1 and "line 1 of its output: 2 columns, want t and 2 positions and "
          "velocities" in r.stderr,
          "a version-1 engine without velocity columns is refused as before", r.stderr[:400])


# An engine whose first process writes the capability line velocity=none
# and whose later ones write none ("first"), or the other way round
# ("later"); the runs without the line carry velocity columns, as version 1
# wants.  Symplectic Euler on the spring.
SWITCH = r"""import json, os, sys
first = not os.path.exists(sys.argv[1])
open(sys.argv[1], "a").close()
caps = first == (sys.argv[2] == "first")
req = json.loads(sys.stdin.readline())
w2 = req["params"]["k"] / req["params"]["m"]
x, v, t = req["x0"][0], req["v0"][0], 0.0
if caps:
    print("# verletbench-engine protocol=2 velocity=none")
print(req["header"])
print("t,x" if caps else "t,x,v")
def row():
    print("%r,%r" % (t, x) if caps else "%r,%r,%r" % (t, x, v))
row()
for h in req["h"]:
    v += -w2 * x * h
    x += v * h
    t += h
    row()
"""


def test_switch(tmp):
    """docs/real-engines.md §1.2: every process of an engine writes the same
    capability line.  One without it, beside one with velocity=none, is
    another engine: its runs must fail by name, in either order, instead of
    mixing rows with and without velocity in one engine's tables."""
    eng = write(tmp, "switch.py", SWITCH)
    case = SPRING.replace("halvings = 4", "halvings = 3").replace("jitter = 0.5", "jitter = 0")
    for order, msg in (("first", "not a capability line, but the engine's first run began with "
                                 "one (precision=float64 velocity=none)"),
                       ("later", "a capability line, but an earlier run of this engine began "
                                 "without one")):
        out = os.path.join(tmp, order)
        r, _ = run_case(tmp, case, "spring", "sw=python3 %s %s %s"
                        % (eng, os.path.join(tmp, order + ".seen"), order), out,
                        extra=("-j", "1", "--no-chart-data"))
        runs = [x for x in rows(os.path.join(out, "spring", "runs.csv"))
                if x["integrator"] == "sw"]
        ok = [x for x in runs if x["status"] == "ok"]
        check(r.returncode == 1 and len(runs) == 3 and len(ok) == 1 and
              all(x["status"] == "engine-failed" for x in runs if x not in ok) and
              r.stderr.count(msg) == 2,
              "an engine whose capability line is in its %s only: the runs of the other kind "
              "fail, by name" % ("first process" if order == "first" else "later processes"),
              "%d %s %s" % (r.returncode, [x["status"] for x in runs], r.stderr[:800]))


def test_strict(tmp):
    """run --strict=mine of the engine without a label: position Verlet is
    blind to a change of step (verlet.c), so with random steps its error
    does not converge and --strict=mine exits 1; what it says must not
    invent a label the engine was never given"""
    out = os.path.join(tmp, "strict")
    r, _ = run_case(tmp, SPRING, "spring", "pv=" + PV, out,
                    extra=("--strict=mine", "--no-chart-data"))
    said = [l for l in r.stderr.splitlines() if "strict: " in l and ": pv, random steps" in l]
    check(r.returncode == 1 and said and all(", no label: not-converging" in l and "label 0"
                                             not in l for l in said),
          "--strict=mine: the unlabelled engine's verdict, said without a label", r.stderr)


VVPY = "python3 " + os.path.join(ROOT, "examples", "engines", "python", "engine.py") + \
    " velocity-verlet"


def test_gains_velocity(tmp):
    """An engine that declared velocity=none in the baseline and reports a
    velocity now (position Verlet, then velocity Verlet: the same positions
    with fixed steps, docs/method.md §2): neither table is damaged, the
    positions compare as before, and the new velocity has nothing to be
    compared with, so the values compared are the same both ways."""
    case = SPRING.replace("jitter = 0.5", "jitter = 0").replace("halvings = 4", "halvings = 3")
    old, new = os.path.join(tmp, "old"), os.path.join(tmp, "new")
    for out, cmd in ((old, PV), (new, VVPY)):
        r, _ = run_case(tmp, case, "spring", "pv=" + cmd, out, extra=("--no-chart-data",))
        check(r.returncode == 0, "the run of %s exits 0" % cmd, r.stderr)
    a = vb("compare", old, new, "--quiet")
    b = vb("compare", new, old, "--quiet")
    counted = [l.split(" values compared")[0].split()[-1] for x in (a, b)
               for l in x.stdout.splitlines() if " values compared" in l]
    check(a.returncode == 0 and "damaged" not in a.stderr and len(counted) == 2 and
          counted[0] == counted[1],
          "compare: a baseline of velocity=none against the engine with a velocity: passes, "
          "the same values compared both ways", "%d %s %s %s" % (a.returncode, a.stderr,
                                                                 a.stdout, b.stdout))
    c = vb("check", "--baseline", old, "--engine", "pv=" + VVPY,
           write(tmp, "spring.case", case), "--quiet")
    check(c.returncode == 0, "check against that baseline passes", c.stdout + c.stderr)


def test_score(tmp, made):
    """trajectory files whose capability line says velocity=none"""
    prob = os.path.join(tmp, "prob")
    case = write(tmp, "spring.case", SPRING)
    r = vb("problem", case, "--out", prob)
    check(r.returncode == 0, "problem exits 0", r.stderr)
    traj = os.path.join(tmp, "traj")
    os.makedirs(traj)
    import json
    for line in open(os.path.join(prob, "spring", "requests.jsonl")):
        req = json.loads(line)
        if req.get("kind") != "run":
            continue
        p = subprocess.run(PV.split(), input=line, capture_output=True, text=True, timeout=GUARD)
        write(traj, req["run"] + ".csv", p.stdout)
    out = os.path.join(tmp, "scored")
    r = vb("score", traj, "--case", case, "--name", "pv", "--order", "2", "--out", out,
           "--quiet")
    check(r.returncode == 0, "score DIR of velocity=none trajectories exits 0", r.stderr)
    if r.returncode == 0 and made:
        got = [x for x in rows(os.path.join(out, "spring", "runs.csv"))]
        want = [x for x in rows(os.path.join(made, "spring", "runs.csv")) if x["integrator"] == "pv"]
        check(got == want and got, "score DIR: the runs of run --engine, empty cells and all")
    f = os.path.join(traj, "fixed-L1.csv")
    r = vb("score", f, "--name", "pv")
    s = vb("sim", "--model", "spring", "--engine", "pv=" + PV, "--dt", "0.025", "--t-end",
           "6.283185307179586")
    a, b = r.stdout.splitlines(), s.stdout.splitlines()
    check(r.returncode == 0 and s.returncode == 0 and len(a) == 2 and len(b) == 2,
          "score FILE (its capability line first) and sim --engine exit 0", r.stderr + s.stderr)
    if len(a) == 2 and len(b) == 2:
        ra, rb = next(csv.DictReader(io.StringIO("\n".join(a)))), next(csv.DictReader(
            io.StringIO("\n".join(b))))
        check(ra["err_vel_max"] == "" and rb["err_vel_max"] == "" and
              ra["err_pos_max"] == rb["err_pos_max"] and ra["steps"] == rb["steps"],
              "score FILE and sim: the same position error, no velocity error", (a[1], b[1]))


def test_check(tmp, made):
    """compare and check of tables with a velocity=none engine"""
    if not made:
        return
    case = write(tmp, "spring.case", SPRING)
    r = vb("check", "--baseline", made, "--engine", "pv=" + PV, case, "--quiet")
    check(r.returncode == 0, "check against a baseline with the engine passes unchanged",
          r.stdout + r.stderr)
    r = vb("compare", made, made, "--quiet")
    check(r.returncode == 0, "compare of the same tables passes", r.stdout + r.stderr)

    def damaged(integ, column):
        d = os.path.join(tmp, "dmg-%s-%s" % (integ, column))
        os.makedirs(os.path.join(d, "spring"))
        for name in os.listdir(os.path.join(made, "spring")):
            with open(os.path.join(made, "spring", name)) as f:
                text = f.read()
            if name == "runs.csv":
                lines = text.split("\n")
                head = [l for l in lines if l and not l.startswith("#")][0].split(",")
                for i, l in enumerate(lines):
                    if l.startswith("spring,%s,fixed," % integ):
                        f = l.split(",")
                        f[head.index(column)] = ""
                        lines[i] = ",".join(f)
                        break
                text = "\n".join(lines)
            with open(os.path.join(d, "spring", name), "w") as f:
                f.write(text)
        return d

    for integ, column in (("pv", "err_pos_max"), ("verlet", "err_vel_max"),
                          ("verlet", "err_energy_max")):
        d = damaged(integ, column)
        r = vb("compare", d, made, "--quiet")
        check(r.returncode == 2 and "runs.csv:" in r.stderr and column in r.stderr,
              "compare: a deleted %s cell of %s is damage (exit 2, named)" % (column, integ),
              "%d %s" % (r.returncode, r.stderr))


def main():
    global VB
    if len(sys.argv) != 2:
        sys.stderr.write("usage: velocity_none.py BUILD_DIR\n")
        return 2
    VB = os.path.join(os.path.abspath(sys.argv[1]), "verletbench")
    SUITE.vb_path = VB
    with tempfile.TemporaryDirectory() as tmp:
        made = None
        for t in (test_equals_verlet, test_orbit, test_refused, test_switch,
                  test_strict, test_gains_velocity):
            d = os.path.join(tmp, t.__name__)
            os.makedirs(d)
            got = t(d)
            made = made or got
        for t in (test_score, test_check):
            d = os.path.join(tmp, t.__name__)
            os.makedirs(d)
            t(d, made)
    print("%d passed, %d failed" % (SUITE.passed, SUITE.failed))
    return 1 if SUITE.failed else 0


if __name__ == "__main__":
    sys.exit(main())
