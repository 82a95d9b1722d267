#!/usr/bin/env python3
"""rigid_example_engines.py BUILD_DIR — the rotation-method examples to copy
(examples/engines/python/rigid_engine.py and js/rigid-engine.js, protocol 3
through the helpers' RigidState and quaternion pieces) run through
verletbench on rigid cases, against the built-in methods they implement:

- rigid-splitting is McLachlan's R1(h/2) R2(h/2) R3(h) R2(h/2) R1(h/2) with
  kick-drift-kick (src/integrators/rigid_splitting.c), rigid-explicit-gyro
  Jolt's rescaled explicit step, symplectic Euler and the exponential map
  (rigid_explicit_gyro.c).  The examples are written from the same formulas
  with the same operations in the same order, and IEEE 754 rounds + - * /
  and sqrt alike in C, Python and JavaScript; Python's math.sin and cos are
  the C library's.  So the Python example's rows of runs.csv, flips.csv and
  orders.csv equal the built-ins' to the bit (only the name differs), and
  the JavaScript one's (V8's own sin and cos, which may differ in the last
  bit) to round-off; the summary says "= `rigid-splitting`".
- On a body that tumbles under gravity, thrown (free-body with g and v0),
  and on the symmetric top: the centre of mass and the attitude both count.
- A closed form that holds whatever the built-in does: the splitting turns q
  and the body-frame L by the same rotations, so the world L stays put to
  round-off (err_angmom_max within 16 eps N^1.5, the project's rule), while
  the explicit step's drifts by O(h).
- An example given a method it does not have, or a request of particles,
  says so (exit 2, or the helper's error line).

Ends with "N passed, N failed"."""
import os
import subprocess
import sys

from suite import ROOT, Suite, table_rows

PY = "python3 " + os.path.join(ROOT, "examples", "engines", "python", "rigid_engine.py")
JS = "node " + os.path.join(ROOT, "examples", "engines", "js", "rigid-engine.js")
EPS = 2.0 ** -52

S = Suite("rigid example engines", guard=600)
check = S.check

# the flip, thrown under gravity: a tumbling body whose centre of mass moves
FLIP = """[case]
model = free-body
I1 = 1
I2 = 2
I3 = 3
w1 = 0.01
w2 = 1
w3 = 0.01
g = 9.81
vx = 1
vz = 3
t_end = 12
[steps]
dt = 0.1
halvings = 3
jitter = 0.5
seeds = 2
[integrators]
use = rigid-splitting, rigid-explicit-gyro
"""

TOP = """[case]
model = symmetric-top
t_end = 6
[steps]
dt = 0.05
halvings = 3
[integrators]
use = rigid-splitting, rigid-explicit-gyro
"""

ENGINES = [("py-split", PY, "rigid-splitting", 2), ("py-gyro", PY, "rigid-explicit-gyro", 1),
           ("js-split", JS, "rigid-splitting", 2), ("js-gyro", JS, "rigid-explicit-gyro", 1)]


def run(tmp, name, text):
    case = os.path.join(tmp, name + ".case")
    with open(case, "w") as f:
        f.write(text)
    args = ["run", case, "--out", os.path.join(tmp, "out"), "--quiet"]
    for eng, cmd, method, order in ENGINES:
        args += ["--engine", "%s:%d=%s %s" % (eng, order, cmd, method)]
    r = S.vb(*args)
    check(r.returncode == 0, "%s: the four example engines run (exit %d)" % (name, r.returncode),
          r.stderr[-1500:])
    return os.path.join(tmp, "out", name) if r.returncode == 0 else None


def keyed(rows, name, key):
    return {tuple(r[k] for k in key): r for r in rows if r["integrator"] == name}


def same_to_roundoff(a, b, steps):
    """the project's rule for two computations of the same states
    (docs/method.md §2): within 16 eps N^1.5 of the size (q, w and x are
    about 1 to 10 here: 16 of it), and within 1e-3 of the numbers themselves
    unless both are round-off (the splitting's L drift, a few 1e-15: two
    round-offs agree in size, not in digits)"""
    if a == b:
        return True
    try:
        a, b = float(a), float(b)
    except ValueError:
        return False
    bound = 16 * 16 * EPS * steps ** 1.5
    return abs(a - b) <= bound and (abs(a - b) <= 1e-3 * max(abs(a), abs(b)) or
                                    max(abs(a), abs(b)) <= bound)


def compare(d, table, key, eng, builtin, exact, norms=None):
    rows = [r for r in table_rows(os.path.join(d, table)) if not norms or r["norm"] in norms]
    mine, ref = keyed(rows, eng, key), keyed(rows, builtin, key)
    if set(mine) != set(ref) or not mine:
        return "rows %s against %s" % (sorted(mine)[:4], sorted(ref)[:4])
    for k in sorted(ref):
        a, b = mine[k], ref[k]
        steps = int(float(b.get("steps") or 1)) if b.get("steps") else 1
        for col in b:
            # force_evals: an engine's is its rows (docs/engines.md), a
            # rotation method's 0 (it evaluates no force law)
            if col in ("integrator", "force_evals") or a[col] == b[col]:
                continue
            if not exact and same_to_roundoff(a[col], b[col], steps):
                continue
            return "%s %s: %s=%s, %s has %s" % (table, k, col, a[col], builtin, b[col])
    return None


def summary_row(d, name):
    with open(os.path.join(d, "summary.md")) as f:
        return [line for line in f if line.startswith("| `%s` |" % name)]


def test_examples_equal_builtins(tmp):
    for name, text in (("thrown-flip", FLIP), ("top", TOP)):
        d = run(tmp, name, text)
        if not d:
            continue
        for eng, cmd, builtin, _ in ENGINES:
            exact = eng.startswith("py")
            # orders.csv to the bit (Python); for JavaScript the attitude's
            # and w's fits alone: the splitting's L and energy errors are
            # round-off, whose fitted "orders" differ with the last bit
            norms = None if exact else ("err_att_max", "err_angvel_max")
            for table, key in (("runs.csv", ("plan", "level", "seed")),
                               ("flips.csv", ("plan", "level", "seed")),
                               ("orders.csv", ("plan", "norm"))):
                if table == "orders.csv" and norms:
                    diff = compare(d, table, key, eng, builtin, exact, norms)
                    check(diff is None, "%s: %s's fitted attitude and w orders equal %s's" %
                          (name, eng, builtin), diff or "")
                    continue
                diff = compare(d, table, key, eng, builtin, exact)
                check(diff is None, "%s: %s's %s equal %s's %s" % (
                    name, eng, table, builtin, "to the bit" if exact else "to round-off"), diff or "")
            rows = summary_row(d, eng)
            check(rows and ("= `%s`" % builtin) in rows[0],
                  "%s: the summary says %s = %s" % (name, eng, builtin), "".join(rows))
        # the world L: kept to round-off by the splitting, not by the explicit step
        runs = table_rows(os.path.join(d, "runs.csv"))
        for r in runs:
            if r["integrator"] not in ("py-split", "js-split", "py-gyro", "js-gyro"):
                continue
            n, drift = int(r["steps"]), float(r["err_angmom_max"])
            if r["integrator"].endswith("split"):
                check(drift <= 16 * EPS * n ** 1.5, "%s %s %s L%s: the world L kept to round-off "
                      "(%.3g, bound 16 eps N^1.5 = %.3g)" % (name, r["integrator"], r["plan"],
                                                            r["level"], drift, 16 * EPS * n ** 1.5))
            else:
                check(drift > 1e-6, "%s %s %s L%s: the explicit step's L drifts (%.3g): the check "
                      "above can tell them apart" % (name, r["integrator"], r["plan"], r["level"],
                                                     drift))
        # the provenance: protocol 3, persistent, w in the body frame
        with open(os.path.join(d, "runs.csv")) as f:
            prov = [l for l in f if l.startswith("# engine ")]
        check(len(prov) == 4 and all(l.rstrip().endswith("protocol 3, persistent, float64, velocity "
                                                         "state, angvel body") for l in prov),
              "%s: the examples speak protocol 3, persistent, angvel=body" % name, "".join(prov))


def test_usage(tmp):
    for cmd in (PY, JS):
        r = subprocess.run(cmd + " rigid-euler", shell=True, capture_output=True, text=True,
                           input="", timeout=60)
        check(r.returncode == 2 and "usage:" in r.stderr and "rigid-splitting" in r.stderr,
              "%s: an unknown method is refused, exit 2, naming the methods" % cmd.split()[1],
              r.stderr)
        req = ('{"kind":"run","run":"s","model":"spring","dim":1,"particles":1,"masses":[1],'
               '"x0":[1],"v0":[0],"params":{"k":1,"m":1},"h":[0.1],"header":"# h","protocol":2}\n')
        r = subprocess.run(cmd + " rigid-splitting", shell=True, capture_output=True, text=True,
                           input=req, timeout=60)
        check(r.returncode == 1 and "# verletbench-error run=s this engine takes a rigid body "
              "(protocol 3); the request (model 'spring') has no 'body'" in r.stdout,
              "%s: a request of particles gets the helper's error line" % cmd.split()[1],
              r.stdout + r.stderr)


if __name__ == "__main__":
    sys.exit(S.main([test_examples_equal_builtins, test_usage]))
