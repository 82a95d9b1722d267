#!/usr/bin/env python3
"""real_engines.py BUILD_DIR — two real engines of engines/ in make check:
planck (npm) and Chipmunk2D (Debian's libchipmunk-dev), each held to what
its own source code says its step does (engines/README.md; make check sets
them up with `make -C engines setup`).

- planck 1.3.0, `Solver.solveIsland` (src/dynamics/Solver.ts:307-308, in the
  loaded dist/planck.js:4268-4269): v += h·g·gravityScale, then
  v += h·invMass·F; then, after the velocity constraints, c += h·v (:397,
  dist/planck.js:4328).
  Kick, then drift, in doubles: symplectic Euler, the built-in euler-semi.
  With m = 1 the products are exact, so every run's errors must equal
  euler-semi's to the last digit, and its order must be 1.
- Chipmunk 7.0.3, `cpSpaceStep` (src/cpSpaceStep.c): the positions first,
  `position_func` (:366, cpBodyUpdatePosition: p += (v + v_bias)·dt,
  src/cpBody.c:514), then the velocities, `velocity_func` (:403,
  cpBodyUpdateVelocity: v = v·damping + (g + f·m_inv)·dt, cpBody.c:501),
  and the force is cleared (:505).  A force set before the step (the
  adapter's force=before) is therefore a(x_n) applied after the drift with
  the old v: explicit Euler, the built-in euler, to the last digit, order 1.
  The force computed in velocity_func (force=callback) sees x_{n+1}: drift,
  then kick with a(x_{n+1}), which this test computes itself and the
  engine's rows must equal.
- Persistent workers give the bytes of one process a run
  (VERLETBENCH_ENGINE_PROCESSES=1) for both.
Ends with "N passed, N failed"."""
import json
import os
import subprocess
import sys
import tempfile

from suite import Suite, max_or_nan, table_body, table_rows

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PLANCK = "node " + os.path.join(ROOT, "engines", "planck", "adapter.js")
CHIPMUNK = os.path.join(ROOT, "engines", "build", "chipmunk")
GUARD = 300

# k = m = 1: the spring's force is -x, and a force m·a is a exactly
CASE = """[case]
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
use = euler, euler-semi
"""


SUITE = Suite('real engines', GUARD)
check = SUITE.check


vb = SUITE.vb_engines


body = table_body
rows = table_rows


def runs_of(table, name):
    return {(r["plan"], r["level"], r["seed"]): r for r in table if r["integrator"] == name}


def same_errors(table, engine, builtin):
    """runs where the engine's errors differ from the built-in's"""
    a, b = runs_of(table, engine), runs_of(table, builtin)
    cols = ("err_pos_max", "err_pos_rms", "err_pos_final", "err_vel_max", "err_energy_max")
    bad = [(k, c, a[k][c], b[k][c]) for k in a for c in cols if k not in b or a[k][c] != b[k][c]]
    return len(a), bad


def fixed_order(orders, name):
    r = [o for o in orders if o["integrator"] == name and o["plan"] == "fixed"
         and o["norm"] == "err_pos_max"]
    return float(r[0]["order"]) if r and r[0]["order"] else None


def sweep(tmp, case, name, command, builtin):
    """the engine against the built-in its source says it is; persistent and
    one process a run the same bytes"""
    a, b = os.path.join(tmp, name + "-a"), os.path.join(tmp, name + "-b")
    r = vb("run", case, "--engine", "%s=%s" % (name, command), "-j", "2", "--quiet", "--out", a)
    check(r.returncode == 0, "%s: the sweep exits 0" % name, r.stderr)
    if r.returncode != 0:
        return
    table = rows(os.path.join(a, "spring", "runs.csv"))
    n, bad = same_errors(table, name, builtin)
    check(n >= 10 and not bad, "%s: every run's errors are %s's to the last digit (%d runs)"
          % (name, builtin, n), bad[:4])
    # order 1 from the source; 0.25 is the verdicts' tolerance (VB_VERDICT_TOL)
    p = fixed_order(rows(os.path.join(a, "spring", "orders.csv")), name)
    check(p is not None and abs(p - 1.0) <= 0.25, "%s: fixed-step order 1 (got %s)" % (name, p))
    r = vb("run", case, "--engine", "%s=%s" % (name, command), "-j", "2", "--quiet", "--out", b,
           env={"VERLETBENCH_ENGINE_PROCESSES": "1"})
    check(r.returncode == 0, "%s: one process a run exits 0" % name, r.stderr)
    for f in sorted(os.listdir(os.path.join(a, "spring"))):
        check(body(os.path.join(a, "spring", f)) == body(os.path.join(b, "spring", f)),
              "%s: persistent workers and one process a run: %s byte for byte" % (name, f))


def test_planck(tmp, case):
    sweep(tmp, case, "planck", PLANCK, "euler-semi")


def test_chipmunk_before(tmp, case):
    sweep(tmp, case, "chipmunk", CHIPMUNK + " force=before", "euler")


def test_chipmunk_callback(tmp, case):
    """force=callback: drift with v_n, then kick with a(x_{n+1}), computed
    here on the request's own steps"""
    out = os.path.join(tmp, "problem")
    r = vb("problem", case, "--out", out)
    check(r.returncode == 0, "problem exits 0", r.stderr)
    reqs = []
    for d, _, files in os.walk(out):
        if "requests.jsonl" in files:
            with open(os.path.join(d, "requests.jsonl")) as f:
                reqs = [json.loads(l) for l in f][1:]
    reqs = [q for q in reqs if q["plan"] in ("fixed", "random")][:4]
    check(len(reqs) == 4, "four requests to replay")
    for q in reqs:
        p = subprocess.run([CHIPMUNK, "force=callback"], input=json.dumps(q) + "\n",
                           capture_output=True, text=True, timeout=GUARD)
        got = [l.split(",") for l in p.stdout.splitlines() if l and not l.startswith("#")][2:]
        w2 = q["params"]["k"] / q["params"]["m"]
        x, v = q["x0"][0], q["v0"][0]
        worst = 0.0
        for h, row in zip(q["h"], got):
            x = x + h * v     # cpBodyUpdatePosition first (cpSpaceStep.c:366)
            v = v + h * (-w2 * x)  # then velocity_func with the force of x_{n+1} (:403)
            worst = max_or_nan(worst, abs(float(row[1]) - x), abs(float(row[2]) - v))
        check(p.returncode == 0 and len(got) == len(q["h"]) and worst == 0.0,
              "chipmunk force=callback is drift-then-kick symplectic Euler to the last digit "
              "(%s: %d rows, largest difference %g)" % (q["run"], len(got), worst), p.stderr)


def main():
    global VB
    VB = os.path.join(os.path.abspath(sys.argv[1]), "verletbench")
    SUITE.vb_path = VB
    missing = [p for p in (os.path.join(ROOT, "engines", "node_modules", "planck"), CHIPMUNK)
               if not os.path.exists(p)]
    check(not missing, "the engines are set up (make check runs make -C engines setup): "
                       "missing %s" % missing)
    with tempfile.TemporaryDirectory() as tmp:
        case = os.path.join(tmp, "spring.case")
        with open(case, "w") as f:
            f.write(CASE)
        for test in (test_planck, test_chipmunk_before, test_chipmunk_callback):
            d = os.path.join(tmp, test.__name__)
            os.mkdir(d)
            try:
                test(d, case)
            except Exception as e:  # a test that breaks is a failure, not a stop
                check(False, "%s raised %s: %s" % (test.__name__, type(e).__name__, e))
    print("%d passed, %d failed" % (SUITE.passed, SUITE.failed))
    return 1 if SUITE.failed else 0


if __name__ == "__main__":
    sys.exit(main())
