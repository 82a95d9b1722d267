#!/usr/bin/env python3
"""forces.py [--verletbench BIN] — each helper's force laws are the built-in
models' to the last bit: the helper's test engine (symplectic Euler on the
helper's force law, euler-semi.{c,js,py}) runs every model without rods
through `verletbench sim --engine` (protocol 1), random steps, and its whole
`--trajectory` file (t, x, v, the exact solution, the error, the energy, at
every step) must be the built-in euler-semi's, byte for byte, but for the
first line, which names the method.  src/integrators/euler_semi.c takes the
same step (v += a h, then x += v h), so any difference is the force law's.
The pendulum's JavaScript force uses V8's Math.sin, a port of fdlibm that may
differ from the C library's sin in the last bit (docs/engines.md): there the
trajectory is held to 1e-12 of its size instead, every field of every row.  Ends with "N passed, N failed"."""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MODELS = ("spring", "damped-spring", "pendulum", "projectile", "orbit", "chain", "two-body",
          "figure-eight", "henon-heiles")
HELPERS = (("c", "engines/build/vb-euler-semi-c"), ("js", "node engines/check/euler-semi.js"),
           ("py", "python3 engines/check/euler-semi.py"))


def close(a, b, rel):
    """two trajectory files' numbers agree to rel of their size, row by row"""
    ra, rb = a.splitlines(), b.splitlines()
    if len(ra) != len(rb) or ra[0] != rb[0]:
        return False
    for la, lb in zip(ra[1:], rb[1:]):
        fa, fb = [float(x) for x in la.split(",")], [float(x) for x in lb.split(",")]
        if len(fa) != len(fb) or any(abs(x - y) > rel * max(1.0, abs(y)) for x, y in zip(fa, fb)):
            return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verletbench", default=os.path.join(ROOT, "build", "verletbench"))
    args = ap.parse_args()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for model in MODELS:
            plan = ["--model", model, "--dt", "0.01", "--jitter", "0.3", "--seed", "7"]
            want = os.path.join(tmp, "builtin.csv")
            subprocess.run([args.verletbench, "sim", *plan, "--integrator", "euler-semi",
                            "--trajectory", want], cwd=ROOT, check=True, capture_output=True)
            for name, command in HELPERS:
                got = os.path.join(tmp, name + ".csv")
                r = subprocess.run([args.verletbench, "sim", *plan, "--engine", "h-%s:1=%s" % (name, command),
                                    "--trajectory", got], cwd=ROOT, capture_output=True, text=True)
                a = open(got).read().split("\n", 1)[1] if r.returncode == 0 else ""
                b = open(want).read().split("\n", 1)[1]
                if model == "pendulum" and name == "js":
                    ok, how = r.returncode == 0 and close(a, b, 1e-12), "to 1e-12"
                else:
                    ok, how = a == b, "byte for byte"
                print("%s  %s: the %s helper's force law, through symplectic Euler = euler-semi %s%s"
                      % ("ok  " if ok else "FAIL", model, name, how, "" if ok else ": " + r.stderr.strip()[-300:]))
                passed, failed = passed + ok, failed + (not ok)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
