#!/usr/bin/env python3
"""pendulum.py BUILD_DIR — the pendulum's exact solution against mpmath at
80 digits, over the whole range of theta0 (0, pi), near the top included.

verletbench writes its exact solution in a trajectory (`sim --trajectory`:
x_exact, v_exact at every step time).  mpmath, an independent
arbitrary-precision library, computes the same closed form from the same
double theta0: sin(theta/2) = k sn(K - w t | k^2), theta' = -2 k w cn, with
k = sin(theta0/2).  The bound, |error| <= 2e-15 (1 + w t) in theta and
2e-15 w (1 + w t) in theta', is what docs/method.md states: a few ulps of
the angle, growing with t only through the rounding of w t.  Before the
complementary-modulus form the error at theta0 = 3.14 was 3.8e-10 and at
3.14159265 the solution was NaN.  Ends with "N passed, N failed"."""
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from suite import max_or_nan  # noqa: E402

try:
    import mpmath
except ImportError:
    print("FAIL pendulum: python3-mpmath is not installed (apt-get install python3-mpmath)")
    print("0 passed, 1 failed")
    sys.exit(1)

mpmath.mp.dps = 80  # 1 - k^2 is ~1e-31 at the top: 40 digits would keep only 9 of it
THETAS = ["0.001", "1", "2.5", "3", "3.1", "3.14", "3.14159", "3.14159265", "3.1415926535",
          "3.141592653589", "3.1415926535897927"]
G, L = 9.81, 1.0
BOUND = 2e-15  # ulps of an angle of order 1; see the docstring


def reference(theta0, t):
    """theta and theta' at t, from the double theta0, in 80 digits."""
    th0 = mpmath.mpf(float(theta0))  # the double verletbench parsed, not the decimal
    w = mpmath.sqrt(mpmath.mpf(G) / mpmath.mpf(L))
    k = mpmath.sin(th0 / 2)
    m = k * k
    K = mpmath.ellipk(m)
    u = K - w * mpmath.mpf(t)
    sn = mpmath.ellipfun("sn", u, m=m)
    cn = mpmath.ellipfun("cn", u, m=m)
    return 2 * mpmath.asin(k * sn), -2 * k * w * cn


def main():
    vb = os.path.join(sys.argv[1], "verletbench")
    passed = failed = 0
    worst = []
    with tempfile.TemporaryDirectory() as tmp:
        for theta in THETAS:
            traj = os.path.join(tmp, "p.csv")
            # one period in 64 steps: the step times sample every phase
            r = subprocess.run([vb, "sim", "--model", "pendulum", "--set", "theta0=" + theta,
                                "--integrator", "euler-semi", "--trajectory", traj,
                                "--dt", repr(period(theta) / 64)],
                               capture_output=True, text=True)
            if r.returncode not in (0, 1):
                print("FAIL pendulum: theta0 = %s: sim exit %d: %s" % (theta, r.returncode, r.stderr))
                failed += 1
                continue
            rows = list(csv.DictReader(l for l in open(traj) if not l.startswith("#")))
            w = (G / L) ** 0.5
            bad = 0
            e_max = 0.0
            for row in rows:
                t = float(row["t"])
                th, om = reference(theta, row["t"])
                ex = abs(float(row["x_exact"]) - th)
                ev = abs(float(row["v_exact"]) - om)
                e_max = max_or_nan(e_max, float(ex / (1 + w * t)))
                if not (ex <= BOUND * (1 + w * t) and ev <= BOUND * w * (1 + w * t)):
                    if bad < 3:
                        print("FAIL pendulum: theta0 = %s, t = %s: theta off by %.3g, theta' by %.3g"
                              % (theta, row["t"], float(ex), float(ev)))
                    bad += 1
            worst.append("%s: %.2g" % (theta, e_max))
            if bad or len(rows) < 60:
                failed += 1
            else:
                passed += 1
    print("pendulum: largest |theta - reference| / (1 + w t) per theta0: " + ", ".join(worst))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def period(theta):
    k = mpmath.sin(mpmath.mpf(float(theta)) / 2)
    return float(4 * mpmath.ellipk(k * k) / mpmath.sqrt(mpmath.mpf(G) / mpmath.mpf(L)))


if __name__ == "__main__":
    sys.exit(main())
