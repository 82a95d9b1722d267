#!/usr/bin/env python3
"""strict.py BUILD_DIR — what `run --strict` fails (docs/check.md, "What
check and --strict each catch"), against what each method is known to do:

- TCV under a 60 Hz frame trace is first order (Dummer's correction leaves
  a first-order term when the step changes: docs/method.md §6); on the
  e = 0.5 orbit its errors never settle into one power law, so its verdict
  is a trend, order 0.98*, no-asymptotic-range.  A trend a whole order under
  the label fails --strict (it passed before), and velocity Verlet on the
  same trace (second order under any steps) passes.
- Explicit Euler on the chaotic Henon-Heiles orbit under random steps
  leaves the bounded region at every step size (the runs diverge, their
  median error is inf): undetermined, which fails --strict (it passed).
- The drop (cases/drop.case): TCV, velocity Verlet and RK4 are exact on a
  constant force, so their errors are round-off and --strict passes (it
  failed them: their energy errors were fitted as not converging).
- A rigid body is judged by its attitude (err_att_max), as its summary
  shows it, not by the packed (x, q) of err_pos_max: rigid-no-gyro on the
  Dzhanibekov flip keeps its world angular velocity (no gyroscopic term:
  docs/rigid.md §5), never flips where the exact motion flips twice, so its
  attitude is off by more than 0.1 rad at every step (the saturation the
  line names) and does not converge; rigid-splitting, second order, passes.
- An engine whose every run fails (engine-failed) gives no verdict: --strict
  says so and does not count it below the label (the failures fail the
  run); the same engine's runs with a NaN row diverged, and are counted.
Ends with "N passed, N failed"."""
import os
import sys

from suite import ROOT, Suite

S = Suite("strict", guard=600)
TRACE = os.path.join(ROOT, "cases", "traces", "frames-60hz.trace")


def write(tmp, name, text):
    path = os.path.join(tmp, name + ".case")
    with open(path, "w") as f:
        f.write(text)
    return path


def strict_lines(r, path):
    return [l for l in r.stderr.splitlines() if "strict: %s:" % path in l]


def test_trend_below_the_label(tmp):
    path = write(tmp, "trend", "[case]\nmodel = orbit\ne = 0.5\nt_end = 6.283185307179586\n"
                 "[steps]\ndt = 0.005\nhalvings = 6\ntrace = %s\n"
                 "[integrators]\nuse = tcv, velocity-verlet\n" % TRACE)
    r = S.vb("run", path, "--strict", "--quiet", "--no-chart-data", "--out",
             os.path.join(tmp, "out"))
    lines = strict_lines(r, path)
    S.check(r.returncode == 1 and len(lines) == 1 and
            ": tcv, trace steps, err_pos_max: order 0.98*, label 2: no-asymptotic-range "
            "(a trend below the label)" in lines[0],
            "TCV on the orbit's frame trace, a trend of 0.98 against label 2, fails --strict; "
            "velocity Verlet passes (exit %d)" % r.returncode, r.stderr)


def test_diverged_is_not_a_pass(tmp):
    path = write(tmp, "div", "[case]\nmodel = henon-heiles\nE = 0.16666666666666666\n"
                 "y0 = -0.1\nt_end = 50.26548245743669\n[steps]\ndt = 0.05\nhalvings = 6\n"
                 "jitter = 0.5\nseeds = 16\n[integrators]\nuse = euler\n")
    r = S.vb("run", path, "--strict", "--quiet", "--no-chart-data", "--out",
             os.path.join(tmp, "out"))
    lines = strict_lines(r, path)
    S.check(r.returncode == 1 and any(
        ": euler, random steps, err_pos_max: no order, label 1: undetermined (its runs diverged)"
        in l for l in lines), "Euler diverging under random steps fails --strict, said so (exit %d)"
        % r.returncode, r.stderr)


def test_drop_exact_methods_pass(tmp):
    r = S.vb("run", os.path.join(ROOT, "cases", "drop.case"), "--strict", "--quiet",
             "--no-chart-data", "--out", os.path.join(tmp, "out"))
    S.check(r.returncode == 0 and "strict:" not in r.stderr,
            "run --strict cases/drop.case: the exact methods' round-off passes (exit %d)"
            % r.returncode, r.stderr)


def test_rigid_judged_by_attitude(tmp):
    path = write(tmp, "flip", "[case]\nmodel = free-body\nt_end = 32\n[steps]\ndt = 0.1\n"
                 "halvings = 3\n[integrators]\nuse = rigid-no-gyro, rigid-splitting\n")
    r = S.vb("run", path, "--strict", "--quiet", "--no-chart-data", "--out",
             os.path.join(tmp, "out"))
    lines = strict_lines(r, path)
    S.check(r.returncode == 1 and len(lines) == 1 and
            ": rigid-no-gyro, fixed steps, err_att_max: order " in lines[0] and
            "* (saturated at 3 of 3 steps), no label: not-converging" in lines[0],
            "rigid-no-gyro on the flip fails --strict by its attitude, not its packed state; "
            "rigid-splitting passes (exit %d)" % r.returncode, r.stderr)


ENGINES = os.path.join(ROOT, "engines", "check")


def test_engine_failed_is_no_verdict(tmp):
    """an engine that fails every run (rigid-no-gyro.js fail=make throws in
    its make, engines/check/rigid-no-gyro.js:23) gives no verdict on its
    method: --strict says so, engine-failed, and does not count it below
    the label (the failures fail the run); the same engine whose rows hold
    a NaN (row 2 of every run, tests/engines/corrupt_row.py) diverged:
    that is counted"""
    path = write(tmp, "fb", "[case]\nmodel = free-body\nt_end = 4\n[steps]\ndt = 0.1\n"
                 "halvings = 3\n[integrators]\nuse = rigid-splitting\n")
    fails = "fails:1=node %s fail=make" % os.path.join(ENGINES, "rigid-no-gyro.js")
    nan = "nan:1=python3 %s '' 2 4 nan python3 %s" % (
        os.path.join(ROOT, "tests", "engines", "corrupt_row.py"), os.path.join(ENGINES, "rigid-no-gyro.py"))
    r = S.vb("run", path, "--strict=mine", "--quiet", "--no-chart-data", "--out",
             os.path.join(tmp, "out"), "--engine", fails, "--engine", nan)
    lines = strict_lines(r, path)
    failed = [l for l in lines if ": fails, " in l]
    diverged = [l for l in lines if ": nan, " in l]
    S.check(r.returncode == 1 and len(failed) == 2 and
            all("undetermined (its runs engine-failed: no verdict on the method" in l for l in failed) and
            len(diverged) == 2 and all(l.endswith("undetermined (its runs diverged)") for l in diverged) and
            "strict: 2 verdicts fail the label" in r.stderr and
            "strict: 2 verdicts not made: the runs they rest on were failed by an engine" in r.stderr,
            "--strict=mine: an engine's failed runs are said engine-failed, no verdict, not counted below "
            "the label; its diverged runs are (exit %d)" % r.returncode, r.stderr[-1500:])


if __name__ == "__main__":
    sys.exit(S.main([test_trend_below_the_label, test_diverged_is_not_a_pass,
                     test_drop_exact_methods_pass, test_rigid_judged_by_attitude,
                     test_engine_failed_is_no_verdict]))
