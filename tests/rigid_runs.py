#!/usr/bin/env python3
"""rigid_runs.py BUILD_DIR — rigid bodies run by the command-line tool
(docs/rigid.md §7), each number held to a truth the C code does not
compute:

- the orders `run cases/dzhanibekov.case` fits to each method's attitude
  error (orders.csv, fixed steps), against the order each scheme has, said
  here with its reason; rigid-no-gyro does not converge on the flip, and
  converges at order 2 on a spin about a principal axis, where its error is
  the closed form N |h w - 2 atan(h w / 2)|;
- rigid-splitting keeps the world angular momentum q (I w) q* to round-off
  at every step of sim's trajectory (computed here from its columns), and
  rk4, which does not, is seen to drift by far more;
- flips.csv's exact flip period is 4K(m)/lambda (Landau & Lifshitz §37),
  computed here with mpmath from I and w alone;
- the time a 5 rad/s major-axis spin first tumbles under rigid-euler at
  60 Hz (cases/spin-major-5.case, flips.csv) against rigid-euler's loop
  written out here from docs/rigid.md §5 and the tumble's definition (§4);
- the same tumble at 60 and 144 Hz in the frame-rate table (rates.csv);
- sim --trajectory: its quaternions are unit, and its _exact columns of the
  symmetric top are the regular precession derived here;
- README's table of the rotation methods is what the tool prints;
- bad input: a particle method on a rigid body and the reverse, impossible
  moments, an engine, --shard and problem on a rigid case, each refused
  with status 2 and a message naming what; a frame loop of one step a frame
  gives the plain run's rigid errors.
Ends with "N passed, N failed"."""
import json
import math
import os
import sys

import suite

S = suite.Suite("rigid runs", guard=300)
check, vb = S.check, S.vb

CASES = os.path.join(suite.ROOT, "cases")

# The order of each scheme's attitude error on a tumbling body, and why
# (docs/rigid.md §5 "Why these orders", re-derived, not read from the table):
EXPECTED = {
    # explicit Euler on Euler's equations and on q: first order
    "rigid-euler": 1,
    # explicit Euler projected back onto |L| = const (a projection keeps
    # the order), then the attitude with the new w
    "rigid-explicit-gyro": 1,
    "rigid-explicit-gyro-linear": 1,
    # one Newton step of backward Euler: first order
    "rigid-implicit-gyro": 1,
    # RK4 on the smooth ODE of (q, w)
    "rigid-rk4": 4,
    # a symmetric composition of exact flows: second order
    "rigid-splitting": 2,
    "rigid-no-squish": 2,
    # Yoshida's triple jump of a second-order symmetric method
    "rigid-splitting4": 4,
}
# the fitted slope against the order: the harness's own verdict band is
# 0.25 (docs/method.md); 0.05 asks more, and the fits here meet it
ORDER_TOL = 0.05


def run_case(tmp, name):
    out = os.path.join(tmp, "out-" + name)
    r = vb("run", os.path.join(CASES, name + ".case"), "--out", out, "--quiet",
           "--no-chart-data")
    check(r.returncode == 0, "%s runs" % name, r.stderr)
    return os.path.join(out, name)


def test_orders_on_the_flip(tmp):
    d = run_case(tmp, "dzhanibekov")
    orders = suite.table_rows(os.path.join(d, "orders.csv"))
    att = {r["integrator"]: r for r in orders if r["plan"] == "fixed" and r["norm"] == "err_att_max"}
    for name, q in EXPECTED.items():
        r = att.get(name)
        check(r is not None and r["order"] and abs(float(r["order"]) - q) <= ORDER_TOL
              and r["verdict"] == "as-expected",
              "%s: the attitude error's order on the flip is %d" % (name, q), r)
    # no gyroscopic term: the world w holds, the body never flips, and the
    # error does not fall with the step
    r = att.get("rigid-no-gyro")
    check(r is not None and r["verdict"] == "not-converging",
          "rigid-no-gyro does not converge on the flip", r)
    flips = suite.table_rows(os.path.join(d, "flips.csv"))
    check(all(f["flips"] == "0" for f in flips if f["integrator"] == "rigid-no-gyro"),
          "rigid-no-gyro never flips", [f["flips"] for f in flips
                                        if f["integrator"] == "rigid-no-gyro"])
    # the summary run prints: a row a scheme with its flip period and L drift
    with open(os.path.join(d, "summary.md")) as f:
        text = f.read()
    check("flip period" in text and "L drift" in text and
          all("| `%s` |" % n in text.split("A rigid body")[-1] for n in EXPECTED),
          "the summary has the rigid table, a row a scheme", text[-1500:])


def sim_row(*args):
    r = vb("sim", *args)
    check(r.returncode == 0, "sim %s" % " ".join(map(str, args)), r.stderr)
    head, row = r.stdout.splitlines()[:2]
    return dict(zip(head.split(","), row.split(",")))


def test_no_gyro_on_a_principal_spin(tmp):
    # w = (0, 0, s) about axis 3: w x I w = 0, the truth is a steady turn
    # about a fixed axis, and the first-order update turns by 2 atan(h s/2)
    # a step instead of h s: after N steps the angle is off by
    # N |h s - 2 atan(h s / 2)|, its largest at the end (it only grows)
    s, t_end = 2.0, 2 * math.pi
    errs = []
    for k in range(4):
        n = 100 * 2 ** k
        h = t_end / n
        row = sim_row("--model", "free-body", "--set", "w1=0", "--set", "w2=0",
                      "--set", "w3=%g" % s, "--integrator", "rigid-no-gyro",
                      "--dt", "%.17g" % h, "--t-end", "%.17g" % t_end)
        want = n * abs(h * s - 2 * math.atan(h * s / 2))
        got = float(row["err_att_max"])
        # the closed form against the run: 1e-6 relative, far above the
        # round-off of n <= 800 steps on an error of 1e-4..1e-6 rad
        check(abs(got - want) <= 1e-6 * want, "rigid-no-gyro on a spin: %d steps off by "
              "N |h w - 2 atan(h w/2)|" % n, (got, want))
        errs.append((h, got))
    slope = math.log(errs[0][1] / errs[-1][1]) / math.log(errs[0][0] / errs[-1][0])
    check(abs(slope - 2) <= ORDER_TOL, "rigid-no-gyro converges at order 2 on a spin", slope)


def trajectory(path):
    return suite.table_rows(path)


def qmul(a, b):
    return (a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0])


def rotate(q, v):
    p = qmul(qmul(q, (0.0, v[0], v[1], v[2])), (q[0], -q[1], -q[2], -q[3]))
    return p[1:]


def world_L(r, I, exact=""):
    q = [float(r[k + exact]) for k in ("qw", "qx", "qy", "qz")]
    w = [float(r[k + exact]) for k in ("wx", "wy", "wz")]
    return rotate(q, [I[i] * w[i] for i in range(3)])


def test_splitting_keeps_L_every_step(tmp):
    I = (1.0, 2.0, 3.0)
    drift = {}
    for method in ("rigid-splitting", "rigid-rk4"):
        path = os.path.join(tmp, method + ".csv")
        row = sim_row("--model", "free-body", "--integrator", method, "--dt", "0.05",
                      "--t-end", "32", "--trajectory", path)
        rows = trajectory(path)
        L0 = world_L(rows[0], I)
        n0 = math.sqrt(sum(x * x for x in L0))
        drift[method] = suite.max_or_nan(math.sqrt(sum((a - b) ** 2 for a, b in zip(world_L(r, I), L0))) / n0
                            for r in rows)
        drift[method + " row"] = float(row["err_angmom_max"])
    # 640 steps of 5 exact rotations, each a few ulps of |L|, and the
    # product q L q* here: a random walk of ~1e-15; 1e-13 is 450 ulps
    check(drift["rigid-splitting"] <= 1e-13 and drift["rigid-splitting row"] <= 1e-13,
          "rigid-splitting keeps the world L to round-off at every step", drift)
    # and the test can tell: RK4 at h = 0.05 drifts by truncation
    check(drift["rigid-rk4"] > 1e-9, "rigid-rk4 does not keep L (the check can fail)", drift)


def test_flip_period_exact(tmp):
    import mpmath
    mpmath.mp.dps = 30
    d = run_case(tmp, "dzhanibekov")
    I1, I2, I3 = map(mpmath.mpf, (1, 2, 3))
    w = [mpmath.mpf("0.01"), mpmath.mpf(1), mpmath.mpf("0.01")]
    E2 = I1 * w[0] ** 2 + I2 * w[1] ** 2 + I3 * w[2] ** 2  # 2E
    L2 = (I1 * w[0]) ** 2 + (I2 * w[1]) ** 2 + (I3 * w[2]) ** 2
    # Landau & Lifshitz §37, I1 < I2 < I3; the branch L^2 > 2E I2 (here
    # 4.0013 > 4.0012) and the other with I1 and I3 swapped
    if L2 > E2 * I2:
        lam = mpmath.sqrt((I3 - I2) * (L2 - E2 * I1) / (I1 * I2 * I3))
        m = (I2 - I1) * (E2 * I3 - L2) / ((I3 - I2) * (L2 - E2 * I1))
    else:
        lam = mpmath.sqrt((I1 - I2) * (L2 - E2 * I3) / (I1 * I2 * I3))
        m = (I2 - I3) * (E2 * I1 - L2) / ((I1 - I2) * (L2 - E2 * I3))
    T = float(4 * mpmath.ellipk(m) / lam)
    flips = suite.table_rows(os.path.join(d, "flips.csv"))
    got = {float(f["flip_period_exact"]) for f in flips}
    # the closed form in double against 30 digits: 1e-12 relative (K near
    # m = 1 loses a few digits to the logarithmic singularity, m = 0.9999)
    check(len(got) == 1 and abs(got.pop() - T) <= 1e-12 * T,
          "flips.csv: the exact flip period is 4K(m)/lambda", (T, flips[:1]))
    # the body flips twice in it, at about T/4 and 3T/4: within t_end = 32
    # both, and rk4 at its finest step measures the period to 1e-9
    rk4 = [f for f in flips if f["integrator"] == "rigid-rk4" and f["plan"] == "fixed"]
    fine = max(rk4, key=lambda f: int(f["level"]))
    check(fine["flips"] == "2" and fine["flips_exact"] == "2" and
          abs(float(fine["flip_period"]) - T) <= 1e-9 * T,
          "rk4's measured flip period at its finest step is 4K/lambda", fine)


def euler_tumble(I, w, h, n):
    """rigid-euler's w, step by step (docs/rigid.md §5: w += h I^-1 ((Iw) x w)),
    and its first flip (§4: the tumble of a stable spin): c = L_2/|L| goes
    from beyond +1/2 to beyond -1/2 or back, at the last zero of c before
    the far side, by linear interpolation between the samples around it."""
    def c_of(w):
        L = [I[i] * w[i] for i in range(3)]
        return L[1] / math.sqrt(sum(x * x for x in L))
    side, t_prev, c_prev, zero = 0, 0.0, c_of(w), math.nan
    if abs(c_prev) >= 0.5:
        side = 1 if c_prev > 0 else -1
    for k in range(1, n + 1):
        L = [I[i] * w[i] for i in range(3)]
        x = [L[1] * w[2] - L[2] * w[1], L[2] * w[0] - L[0] * w[2], L[0] * w[1] - L[1] * w[0]]
        w = [w[i] + h * (x[i] / I[i]) for i in range(3)]
        t, c = k * h, c_of(w)
        if (c_prev > 0 and c <= 0) or (c_prev < 0 and c >= 0):
            zero = t_prev + (t - t_prev) * c_prev / (c_prev - c)
        beyond = 1 if c >= 0.5 else -1 if c <= -0.5 else 0
        if beyond and beyond != side:
            if side:
                return zero
            side = beyond
        t_prev, c_prev = t, c
    return math.nan


def test_tumble_time(tmp):
    d = run_case(tmp, "spin-major-5")
    flips = suite.table_rows(os.path.join(d, "flips.csv"))
    row = [f for f in flips if f["integrator"] == "rigid-euler@variable" and f["level"] == "1"][0]
    h = float(row["dt"])
    n = round(float(row["t_end"]) / h)
    check(abs(h - 1 / 60) <= 1e-15, "level 1 of spin-major-5 is 60 Hz", h)
    want = euler_tumble((1.0, 2.0, 3.0), [0.05, 0.05, 5.0], h, n)
    got = float(row["t_tumble"]) if row["t_tumble"] else math.nan
    # the same operations in the same order in double: 1e-9 s leaves room
    # for another rounding of the interpolation
    check(abs(got - want) <= 1e-9, "rigid-euler's tumble at 5 rad/s, 60 Hz, is the hand "
          "loop's", (got, want))
    check(15 < want < 25, "it tumbles near the 20.0 s docs/rigid.md §6 measured", want)
    # the frame-rate table's 60 Hz row (one step a frame) is the same run
    rates = suite.table_rows(os.path.join(d, "rates.csv"))
    r60 = [r for r in rates if r["integrator"] == "rigid-euler@variable" and
           r["plan"] == "fixed" and r["rate_hz"] == "60"]
    check(len(r60) == 1 and r60[0]["t_tumble"] and abs(float(r60[0]["t_tumble"]) - want) <= 1e-9,
          "rates.csv's 60 Hz tumble is the hand loop's", r60)
    # at 144 Hz: the hand loop at h = t_end / ceil(144 t_end)
    n144 = math.ceil(144 * float(row["t_end"]) - 1e-9)
    want144 = euler_tumble((1.0, 2.0, 3.0), [0.05, 0.05, 5.0], float(row["t_end"]) / n144, n144)
    r144 = [r for r in rates if r["integrator"] == "rigid-euler@variable" and
            r["plan"] == "fixed" and r["rate_hz"] == "144"]
    check(len(r144) == 1 and r144[0]["t_tumble"] and
          abs(float(r144[0]["t_tumble"]) - want144) <= 1e-9,
          "rates.csv's 144 Hz tumble is the hand loop's", (r144, want144))


def qaxis(axis, angle):
    n = math.sqrt(sum(a * a for a in axis))
    s = math.sin(angle / 2) / n
    return (math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s)


def test_trajectory_columns(tmp):
    path = os.path.join(tmp, "top.csv")
    sim_row("--model", "symmetric-top", "--integrator", "rigid-rk4", "--dt", "0.01",
            "--t-end", "10", "--trajectory", path)
    with open(path) as f:
        lines = f.read().splitlines()
    check(any(l.startswith("#") and "BODY frame" in l for l in lines),
          "the trajectory says w is in the body frame", lines[:4])
    rows = trajectory(path)
    cols = ["x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"]
    check(list(rows[0].keys())[:27] == ["t"] + cols + [c + "_exact" for c in cols],
          "the trajectory's columns", list(rows[0].keys()))
    # the symmetric top, I1 = I2 = 2, I3 = 1, w0 = (0.3, 0, 2) (the
    # defaults), q0 = 1: Euler's equations give w1' = W w2, w2' = -W w1
    # with W = (I1 - I3) w3 / I1, so (w1, w2) turns by -W t; the attitude is
    # a turn about the fixed L at |L|/I1 after one about the body's axis 3
    # at W (then w = R^T |L|/I1 L^ + W e3 = I w / I1 + W e3: true)
    I1, I3, w0 = 2.0, 1.0, (0.3, 0.0, 2.0)
    W = (I1 - I3) * w0[2] / I1
    L = (I1 * w0[0], I1 * w0[1], I3 * w0[2])
    nL = math.sqrt(sum(a * a for a in L))
    worst_unit = worst_q = worst_w = 0.0
    for r in rows:
        t = float(r["t"])
        q = [float(r[k]) for k in ("qw", "qx", "qy", "qz")]
        worst_unit = suite.max_or_nan(worst_unit, abs(math.sqrt(sum(a * a for a in q)) - 1))
        qe = qmul(qaxis(L, nL * t / I1), qaxis((0, 0, 1), W * t))
        got = [float(r[k + "_exact"]) for k in ("qw", "qx", "qy", "qz")]
        worst_q = suite.max_or_nan(worst_q, suite.max_or_nan(abs(a - b) for a, b in zip(qe, got)))
        c, s = math.cos(W * t), math.sin(W * t)
        we = (w0[0] * c + w0[1] * s, -w0[0] * s + w0[1] * c, w0[2])
        gotw = [float(r[k + "_exact"]) for k in ("wx", "wy", "wz")]
        worst_w = suite.max_or_nan(worst_w, suite.max_or_nan(abs(a - b) for a, b in zip(we, gotw)))
    # normalised every step: a few ulps
    check(worst_unit <= 1e-15, "the run's quaternions are unit", worst_unit)
    # the closed form in double both sides, angles up to 15 rad: 1e-13
    check(worst_q <= 1e-13 and worst_w <= 1e-13,
          "the _exact columns are the regular precession", (worst_q, worst_w))
    # and the free body's exact quaternion is unit too
    path = os.path.join(tmp, "free.csv")
    sim_row("--model", "free-body", "--integrator", "rigid-splitting", "--dt", "0.05",
            "--t-end", "32", "--trajectory", path)
    worst = suite.max_or_nan(abs(math.sqrt(sum(float(r[k + "_exact"]) ** 2 for k in ("qw", "qx", "qy", "qz")))
                    - 1) for r in trajectory(path))
    check(worst <= 1e-14, "the free body's exact quaternions are unit", worst)


def test_readme_table(tmp):
    """README's table of the rotation methods is what the tool prints:
    orders.csv's attitude order (fixed), flips.csv's flip-period error and
    runs.csv's err_angmom_max at dt = 0.025 s (level 2) of
    cases/dzhanibekov.case, flips.csv's flips and tumble (the first flip)
    at 60 Hz (level 1) of cases/spin-major-5.case."""
    dz, sp = run_case(tmp, "dzhanibekov"), run_case(tmp, "spin-major-5")
    with open(os.path.join(suite.ROOT, "README.md")) as f:
        text = f.read()
    head = "| method (the scheme of) | attitude order |"
    check(head in text, "README has the rotation methods' table")
    lines = text.split(head, 1)[-1].split("\n\n", 1)[0].splitlines()[2:]
    shown = {l.split("`")[1]: [c.strip() for c in l.split("|")[2:-1]] for l in lines}
    O = suite.table_rows(os.path.join(dz, "orders.csv"))
    F = suite.table_rows(os.path.join(dz, "flips.csv"))
    R = suite.table_rows(os.path.join(dz, "runs.csv"))
    T = suite.table_rows(os.path.join(sp, "flips.csv"))

    def one(rows, m, **kw):
        return [r for r in rows if r["integrator"] == m and r["plan"] == "fixed" and
                all(r[k] == v for k, v in kw.items())][0]
    for m in list(EXPECTED) + ["rigid-no-gyro"]:
        o = one(O, m, norm="err_att_max")
        # the spin's case runs each method one step a frame (its [loop])
        f, r, t = one(F, m, level="2"), one(R, m, level="2"), one(T, m + "@variable", level="1")
        check(f["dt"] == "0.025000000000000001" and t["dt"] == "0.016666666666666666",
              "the README's steps are 0.025 s and 1/60 s", (f["dt"], t["dt"]))
        want = ["%.2f" % float(o["order"]) if o["verdict"] != "not-converging"
                else "none (does not converge)",
                "%+.2g" % float(f["flip_period_err"]) if f["flip_period_err"] else "never flips",
                "%.2g" % float(r["err_angmom_max"]),
                "%s, %s" % (t["flips"], "%.4g s" % float(t["t_tumble"]) if t["t_tumble"] else "never")]
        want = ["\u2212" + w[1:] if w.startswith("-") else w for w in want]
        check(shown.get(m) == want, "README's row of %s is the tool's" % m, (shown.get(m), want))


def test_bad_pairs(tmp):
    r = vb("sim", "--model", "free-body", "--integrator", "verlet")
    check(r.returncode == 2 and "not a rigid-body method" in r.stderr,
          "a particle method on a rigid body is refused", r.stderr)
    r = vb("sim", "--model", "spring", "--integrator", "rigid-rk4")
    check(r.returncode == 2 and "is a rigid-body method" in r.stderr,
          "a rigid method on a particle model is refused", r.stderr)
    # in a case file: the file, the line and the key, status 2
    body = "[case]\nmodel = free-body\n%st_end = 1\n[steps]\ndt = 0.1\nhalvings = 3\n" \
           "[integrators]\nuse = %s\n%s"
    for name, text, want in (
            ("pair", body % ("", "rigid-rk4, verlet", ""), ":8: use: verlet is not a rigid-body"),
            # a combination of moments: at the model line, as a particle
            # model's create is, the key named in the message
            ("moments", body % ("I1 = 6\n", "rigid-rk4", ""), ":2: I1 = 6 is more than I2 + I3")):
        path = os.path.join(tmp, "bad-%s.case" % name)
        with open(path, "w") as f:
            f.write(text)
        r = vb("run", path, "--out", os.path.join(tmp, "bad"))
        check(r.returncode == 2 and path in r.stderr and want in r.stderr,
              "a bad rigid case (%s) names its file and line, status 2" % name, r.stderr)
    # problem writes a rigid case's requests as protocol 3 sends them
    # (docs/real-engines.md §4.2): the body of the case file's moments and
    # angular velocity (cases/racket.case: I = (0.0008, 0.012, 0.0128),
    # w = (0.2, 15, 0.2)), no particles
    r = vb("problem", os.path.join(CASES, "racket.case"), "--out", os.path.join(tmp, "prob"))
    reqs = []
    if r.returncode == 0:
        with open(os.path.join(tmp, "prob", "racket", "requests.jsonl")) as f:
            reqs = [json.loads(l) for l in f][1:]
    check(r.returncode == 0 and reqs and all(
        q["protocol"] == 3 and "particles" not in q and q["body"]["inertia"] == [0.0008, 0.012, 0.0128]
        and q["body"]["w0_body"] == [0.2, 15, 0.2] and len(q["h"]) == q["steps"] for q in reqs),
        "problem writes a rigid case's requests with its body, protocol 3", r.stderr)
    # an engine of particles (protocol 2) on a rigid body: its run fails,
    # named (tests/rigid_engines.py has the rest)
    r = vb("sim", "--model", "free-body", "--engine",
           "x:1=printf '# verletbench-engine protocol=2\\n'")
    check(r.returncode == 1 and "this engine takes particles only (its capability line says "
          "protocol=2; a rigid body needs protocol=3" in r.stderr,
          "an engine of protocol 2 on a rigid body fails its run, named", r.stderr)
    r = vb("run", os.path.join(CASES, "racket.case"), "--shard", "1/2", "--out",
           os.path.join(tmp, "shard"))
    check(r.returncode == 2 and "not sharded" in r.stderr, "a rigid case is not sharded",
          r.stderr)
    # a frame loop carries the rigid measures: one step a frame is the
    # plain run, bit for bit
    a = sim_row("--model", "free-body", "--integrator", "rigid-rk4", "--dt", "0.05",
                "--t-end", "10", "--loop", "variable")
    b = sim_row("--model", "free-body", "--integrator", "rigid-rk4", "--dt", "0.05",
                "--t-end", "10")
    check(a.get("err_att_max") and a["err_att_max"] == b["err_att_max"] and
          a["err_angmom_max"] == b["err_angmom_max"],
          "sim --loop variable on a rigid body: the plain run's rigid errors", (a, b))


if __name__ == "__main__":
    sys.exit(S.main([test_orders_on_the_flip, test_no_gyro_on_a_principal_spin,
                     test_splitting_keeps_L_every_step, test_flip_period_exact,
                     test_tumble_time, test_trajectory_columns, test_readme_table,
                     test_bad_pairs]))
