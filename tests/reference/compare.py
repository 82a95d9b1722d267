#!/usr/bin/env python3
"""Run the contract's nine integrators on five models under three plans (135
combinations) through `verletbench sim` and through the independent
implementation in spec_reference.py, and compare.

    compare.py BUILD_DIR

Each combination is one test.  Counts agree exactly, dt and t_end to 1e-15.
Errors agree to 1e-6 relative, or differ by no more than round-off: 1e-11
times the size of the solution.  (The reference advances t += h as SPEC words
it, the harness uses t_n = n h; over 300 steps that moves the truth by
~N eps |v| ~ 1e-13, which at rk4's errors of 1e-8 is 1e-5 relative.  The
smallest truncation error these runs make, rk4's, is ~4e-8: 4000 times the
allowance.)  Prints "N passed, N failed".
"""
import csv
import io
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TRACE = os.path.join(HERE, "..", "..", "cases", "traces", "frames-60hz.trace")
REL_TOL = 1e-6
ROUNDOFF = 1e-11

MODELS = {  # model: (t_end, parameters)
    "projectile": (2.5, ["angle=60"]),
    "spring": (6.0, ["k=2", "v0=0.3"]),
    "damped-spring": (6.0, ["c=0.3"]),
    "orbit": (6.0, ["e=0.7"]),
    "pendulum": (4.0, ["theta0=2"]),
}
INTEGRATORS = ["euler", "euler-semi", "verlet", "verlet-naive", "tcv", "verlet-var",
               "velocity-verlet", "leapfrog", "rk4"]
ERRORS = ["err_pos_final", "err_pos_max", "err_pos_rms", "err_vel_final", "err_vel_max",
          "err_energy_max", "err_angmom_max"]


def parse(text):
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 1, text
    return rows[0]


def close(a, b, scale):
    if a == b:
        return True
    x, y = float(a), float(b)
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= REL_TOL * abs(y) or abs(x - y) <= ROUNDOFF * scale


def main():
    vb = os.path.join(sys.argv[1], "verletbench")
    passed = failed = 0
    for model, (t_end, sets) in MODELS.items():
        for integ in INTEGRATORS:
            for plan in ("fixed", "random", "trace"):
                dt = t_end / 300
                if plan == "fixed":
                    c_args, p_args = ["--t-end", repr(t_end), "--dt", repr(dt)], [repr(t_end), repr(dt)]
                elif plan == "random":
                    c_args = ["--t-end", repr(t_end), "--dt", repr(dt), "--jitter", "0.5", "--seed", "11"]
                    p_args = [repr(t_end), repr(dt), "0.5", "11"]
                else:
                    c_args, p_args = ["--t-end", repr(t_end), "--steps", TRACE], [repr(t_end), TRACE]
                cmd = [vb, "sim", "--model", model, "--integrator", integ] + c_args
                for s in sets:
                    cmd += ["--set", s]
                c = subprocess.run(cmd, capture_output=True, text=True)
                ref = subprocess.run([sys.executable, os.path.join(HERE, "spec_reference.py"),
                                      model, integ, plan] + p_args + sets,
                                     capture_output=True, text=True)
                what = "%s %s %s" % (model, integ, plan)
                problems = []
                if c.returncode != 0 or ref.returncode != 0:
                    problems.append("exit %d/%d: %s%s" % (c.returncode, ref.returncode,
                                                          c.stderr, ref.stderr))
                else:
                    got, want = parse(c.stdout), parse(ref.stdout)
                    for col in ("model", "integrator", "plan", "jitter", "seed", "steps",
                                "force_evals", "status"):
                        if got[col] != want[col]:
                            problems.append("%s: %s vs reference %s" % (col, got[col], want[col]))
                    for col in ("dt", "t_end"):
                        if abs(float(got[col]) - float(want[col])) > 1e-15 * float(want[col]):
                            problems.append("%s: %s vs reference %s" % (col, got[col], want[col]))
                    for col in ERRORS:
                        scale = 1.0 if col in ("err_energy_max", "err_angmom_max") else \
                            max(1.0, float(got["pos_scale"]), float(got["vel_scale"]))
                        if (got[col] == "") != (want[col] == "") or \
                                (got[col] and not close(got[col], want[col], scale)):
                            problems.append("%s: %s vs reference %s" % (col, got[col], want[col]))
                if problems:
                    failed += 1
                    print("FAIL reference %s" % what)
                    for p in problems:
                        print("    " + p)
                else:
                    passed += 1
    print("reference: %d combinations agree with spec_reference.py" % passed)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
