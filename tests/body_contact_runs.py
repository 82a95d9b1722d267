#!/usr/bin/env python3
"""body_contact_runs.py BUILD_DIR — contact solvers round a rotation method
on a rigid body on the ground, as rows METHOD+SOLVER of the tables
(`[contact] handler = toi, pgs, ...`, `sim --contact`, docs/contact.md,
"3D: rolling and resting bodies"), their contact.csv measures held to
closed forms derived here, not read from the C code:

- the roll (a ball of moment k m R^2 launched sliding at v0, w0 = 0, on a
  plane at alpha with friction mu): while it slips, u = v - w R falls at
  g (mu cos a (1 + 1/k) - sin a) (friction mu g cos a slows the centre and
  turns the ball by mu g cos a / (k R)), so t* = v0 / that, v* = v0 + g
  (sin a - mu cos a) t*, s* = v0 t* + g (sin a - mu cos a) t*^2 / 2; on the
  flat with k = 2/5: t* = 2 v0 / (7 mu g), v* = 5 v0 / 7, s* = 12 v0^2 /
  (49 mu g).  It rolls at all iff tan a <= mu (1 + k) / k;
- toi round rigid-splitting (kick-drift-kick: exact on a constant
  acceleration) is that answer to round-off, at 30, 60 and 144 Hz, by sim
  and by run;
- pgs and speculative (a ball that starts on the ground: Jolt's lever arm
  R + delta/2 has delta = 0) round the engines' step: every step before
  the crossing takes the full Coulomb impulse mu lambda_n, so the slip
  falls by exactly h g (mu cos a (1 + 1/k) - sin a) a step, and the step
  that crosses needs less than the clamp and ends rolling; the measure's
  line through the last two slipping states is then u(t) itself: t* and
  v* to round-off;
- soft and xpbd: the crossing is in the step that holds it or the next, and
  over a step the speed changes by at most mu g h: |t_roll - t*| <= h,
  |v_roll - v*| <= mu g h (first order in h);
- never rolling: at 30 degrees and mu = 0.1 (tan a > mu (1 + k)/k), every
  solver's t_roll is inf, as the exact one;
- a cube held by static friction (30 degrees, mu_s 0.7 > tan a): toi's
  creep is 0 exactly and its acceleration error 0; sliding at mu 0.2 its
  acceleration g (sin a - mu cos a) to round-off;
- no energy nor angular-momentum error claimed in runs.csv (friction
  takes energy, its torque turns L);
- bad input: an unknown solver, a key no listed solver reads, a value out
  of range, named by file, line and key, exit 2; sim on roll without
  --contact, exit 2.
Ends with "N passed, N failed"."""
import math
import os
import sys

import suite

S = suite.Suite("body contact runs", guard=300)
check, vb = S.check, S.vb

G = 9.81
EPS = 2.0 ** -52


def sim(*args):
    """sim's two rows: runs.csv's and contact.csv's, as dicts."""
    r = vb("sim", *args)
    lines = r.stdout.splitlines()
    if r.returncode != 0 or len(lines) != 4:
        return r, None
    return r, dict(zip(lines[2].split(","), lines[3].split(",")))


def roll_exact(v0, mu, alpha_deg, k=0.4):
    """t*, s*, v* of a ball launched sliding (w0 = 0), derived above."""
    a = math.radians(alpha_deg)
    du = G * (mu * math.cos(a) * (1 + 1 / k) - math.sin(a))
    acc = G * (math.sin(a) - mu * math.cos(a))
    if du <= 0:
        return math.inf, None, None
    t = v0 / du
    return t, v0 * t + acc * t * t / 2, v0 + acc * t


def near(x, want, tol):
    return math.isfinite(x) and abs(x - want) <= tol


def roll_sim(solver, method, hz, alpha=0, mu=0.5, t_end=0.5):
    return sim("--model", "roll", "--integrator", method, "--contact", solver,
               "--set", "alpha=%g" % alpha, "--set", "mu=%g" % mu,
               "--dt", repr(1.0 / hz), "--t-end", repr(t_end))


def test_flat_closed_form(tmp):
    # the flat's textbook numbers, from the general form above
    t, s, v = roll_exact(2.0, 0.5, 0)
    check(abs(t - 2 * 2 / (7 * 0.5 * G)) <= 4 * EPS * t and abs(v - 5 * 2 / 7) <= 4 * EPS
          and abs(s - 12 * 4 / (49 * 0.5 * G)) <= 4 * EPS * s,
          "the flat roll: t* = 2 v0/(7 mu g), v* = 5 v0/7, s* = 12 v0^2/(49 mu g)", (t, s, v))


def test_toi_exact(tmp):
    for alpha, mu in ((0, 0.5), (30, 0.5)):
        t, s, v = roll_exact(2.0, mu, alpha)
        for hz in (30, 60, 144):
            r, c = roll_sim("toi", "rigid-splitting", hz, alpha, mu)
            # round-off: the steps' sums of N = t_end hz terms, each off by
            # an ulp, and the line through two samples: 8 N eps
            tol = 8 * 0.5 * hz * EPS
            ok = c is not None and near(float(c["t_roll"]), t, tol * t) and \
                near(float(c["s_roll"]), s, tol * s) and near(float(c["v_roll"]), v, tol * v)
            check(ok, "toi round rigid-splitting, alpha %g, %d Hz: t*, s*, v* to round-off"
                  % (alpha, hz), (r.stderr, c, (t, s, v)))


def test_sequential_impulses_exact(tmp):
    for solver in ("pgs", "speculative"):
        for alpha in (0, 30):
            t, _, v = roll_exact(2.0, 0.5, alpha)
            for hz in (30, 60):
                r, c = roll_sim(solver, "rigid-explicit-gyro", hz, alpha)
                tol = 8 * 0.5 * hz * EPS
                ok = c is not None and near(float(c["t_roll"]), t, tol * t) and \
                    near(float(c["v_roll"]), v, tol * v) and float(c["slip_max"]) <= tol * 2
                check(ok, "%s, alpha %g, %d Hz: t* and v* to round-off, no slip after"
                      % (solver, alpha, hz), (r.stderr, c, (t, v)))


def test_soft_first_order(tmp):
    for solver in ("soft", "xpbd"):
        t, _, v = roll_exact(2.0, 0.5, 0)
        for hz in (30, 60, 120):
            h = 1.0 / hz
            r, c = roll_sim(solver, "rigid-explicit-gyro", hz)
            ok = c is not None and near(float(c["t_roll"]), t, h) and \
                near(float(c["v_roll"]), v, 0.5 * G * h)
            check(ok, "%s, %d Hz: |t_roll - t*| <= h, |v_roll - v*| <= mu g h" % (solver, hz),
                  (r.stderr, c, (t, v)))


def test_never_rolls(tmp):
    t, _, _ = roll_exact(2.0, 0.1, 30)
    check(t == math.inf, "30 degrees, mu 0.1: it never rolls (tan a > mu (1 + k)/k)")
    for solver in ("toi", "pgs", "soft", "xpbd", "speculative", "regularized"):
        r, c = roll_sim(solver, "rigid-explicit-gyro", 60, 30, 0.1, 1.0)
        check(c is not None and c["t_roll"] == "inf" and c["t_roll_exact"] == "inf"
              and c["v_roll"] == "" and c["slip_max"] == "",
              "%s at mu 0.1: t_roll inf, as the exact one" % solver, (r.stderr, c))


def test_box(tmp):
    a = math.radians(30)
    r, c = sim("--model", "box-incline", "--integrator", "rigid-splitting", "--contact", "toi",
               "--set", "mu_s=0.7", "--dt", repr(1 / 60), "--t-end", "1")
    check(c is not None and c["creep"] == "0" and c["creep_exact"] == "0"
          and c["creep_speed"] == "0" and c["a_err"] == "0",
          "toi: the cube held at mu_s 0.7 never moves", (r.stderr, c))
    r, c = sim("--model", "box-incline", "--integrator", "rigid-splitting", "--contact", "toi",
               "--set", "mu_s=0.2", "--dt", repr(1 / 60), "--t-end", "1")
    # a_err is (a - g (sin a - mu cos a)) / g: round-off of a slope over 60 samples
    check(c is not None and abs(float(c["a_err"])) <= 1e-13 and c["creep"] == "",
          "toi: the cube slides at mu 0.2 at g (sin a - mu cos a)", (r.stderr, c))


def test_no_conservation_claimed(tmp):
    """Friction takes energy (2/7 of it on the flat roll) and its torque
    turns L: runs.csv claims no energy or angular-momentum error for a body
    at a contact (contact.csv's energy_err holds the energy to its exact
    balance instead)."""
    r = vb("sim", "--model", "roll", "--integrator", "rigid-explicit-gyro", "--contact", "pgs",
           "--dt", repr(1 / 60), "--t-end", "0.5")
    lines = r.stdout.splitlines()
    run = dict(zip(lines[0].split(","), lines[1].split(","))) if len(lines) == 4 else {}
    check(run.get("err_energy_max") == "" and run.get("err_angmom_max") == "",
          "a body at a contact: err_energy_max and err_angmom_max blank", (r.stderr, run))


def test_trajectory(tmp):
    """sim --trajectory on a body at a contact: its rows, and the energy of
    the start, (1/2) m v0^2 (w0 = 0, the centre at the potential's zero)."""
    path = os.path.join(tmp, "traj.csv")
    r = vb("sim", "--model", "roll", "--integrator", "rigid-explicit-gyro", "--contact", "soft",
           "--dt", repr(1 / 60), "--t-end", "0.5", "--trajectory", path)
    rows = suite.table_rows(path) if r.returncode == 0 and os.path.exists(path) else []
    check(len(rows) == 31 and abs(float(rows[0]["energy"]) - 0.5 * 2.0 ** 2) <= 4 * EPS,
          "sim --trajectory on roll: 31 rows, the start's energy (1/2) m v0^2",
          (r.returncode, r.stderr[-300:], rows[:1]))


def test_case_and_bad_input(tmp):
    path = os.path.join(tmp, "b.case")

    def case(extra):
        with open(path, "w") as f:
            f.write("[case]\ndescription = d\nmodel = roll\nt_end = 0.3\n\n[steps]\n"
                    "dt = 0.05\nhalvings = 2\n\n[integrators]\nuse = rigid-explicit-gyro\n\n"
                    "[contact]\nhandler = toi, pgs\n" + extra)
        return vb("run", path, "--out", os.path.join(tmp, "out"), "--quiet")

    r = case("iterations = 4\n")
    rows = suite.table_rows(os.path.join(tmp, "out", "b", "contact.csv")) if r.returncode == 0 else []
    check([x["integrator"] for x in rows][:1] == ["rigid-explicit-gyro+toi"] and len(rows) == 4,
          "a case's [contact] on roll: rows METHOD+SOLVER in contact.csv", (r.stderr, rows[:2]))
    r = case("iterations = 0\n")
    check(r.returncode == 2 and "b.case:15: iterations:" in r.stderr,
          "a value out of range: file, line and key, exit 2", r.stderr)
    r = case("solref = 0.02\n")
    check(r.returncode == 2 and "b.case:15: solref:" in r.stderr,
          "a key no listed solver reads: file, line and key, exit 2", r.stderr)
    with open(path, "w") as f:
        f.write("[case]\ndescription = d\nmodel = roll\nt_end = 0.3\n\n[steps]\n"
                "dt = 0.05\nhalvings = 2\n\n[integrators]\nuse = rigid-explicit-gyro\n\n"
                "[contact]\nhandler = toi, nope\n")
    r = vb("run", path, "--out", os.path.join(tmp, "out"), "--quiet")
    check(r.returncode == 2 and "b.case:14: handler: unknown contact solver 'nope'" in r.stderr,
          "an unknown solver: file, line, key, exit 2", r.stderr)
    r = vb("sim", "--model", "roll", "--integrator", "rigid-explicit-gyro", "--dt", "0.01")
    check(r.returncode == 2 and "--contact" in r.stderr,
          "sim on a body on the ground without a solver: exit 2", r.stderr)


if __name__ == "__main__":  # importing it (for its closed form) runs no suite
    sys.exit(S.main([test_flat_closed_form, test_toi_exact, test_sequential_impulses_exact,
                     test_soft_first_order, test_never_rolls, test_box, test_no_conservation_claimed,
                     test_trajectory,
                     test_case_and_bad_input]))
