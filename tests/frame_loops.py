#!/usr/bin/env python3
"""frame_loops.py BUILD_DIR — [loop] (docs/method.md §9), each metric held
to a truth the C code does not compute:

- a projectile thrown straight up, velocity Verlet (exact under constant
  force) in an accumulator of physics_dt = h, frames of 2h and 4h: `last`
  and `extrapolate` draw the exact state, `interpolate` misses by the
  closed form h(v0 - gF) + gh^2/2 at the first frame F;
- the spring in an accumulator whose step does not divide the frames, with
  a clamp: every number of its row (physics steps, err_pos_max, err_draw_max,
  err_draw_rms, lag_max) against a loop written out here, in Python, from
  "Fix Your Timestep" and docs/method.md §9;
- substeps(k) and semi-fixed: the same numbers as a plain run at dt/k;
  variable: a plain run's numbers, bit for bit;
- an accumulator's physics states are the same at every display rate, bit
  for bit, fixed and jittered frames;
- the drawn state's fitted orders: 1 for last and interpolate, 2 for
  extrapolate;
- the game checks of cases/: the drop (y after N steps of h in closed form
  for each method: Euler and symplectic Euler g T h/2 off, the others
  exact) and the jump's apex (the largest closed-form y_k over the frames;
  symplectic Euler short by v0 h/2 - g h^2/8 + g h^2 d^2/2);
- the push given in one frame (cases/impulse.case): Euler's carry is the
  impulse its steps gave, (J/tau) h #{k: k h < tau}, over the drag;
- the frame-rate table (cases/frame-loop.case): an accumulator's energy
  error is the same at every rate, fixed and random frames, one step a
  frame's is not; interpolation draws at most max|v| physics_dt off.
Ends with "N passed, N failed"."""
import csv
import io
import math
import os
import subprocess
import sys

import suite

S = suite.Suite("frame loops", guard=300)
check, vb = S.check, S.vb


def run_case(tmp, name, text):
    path = os.path.join(tmp, name + ".case")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(tmp, "out-" + name)
    r = vb("run", path, "--out", out)
    check(r.returncode == 0, "%s runs" % name, r.stderr)
    return out + "/" + name


def rows(d, table="runs.csv"):
    with open(os.path.join(d, table)) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def close(a, b, rel, absol=0.0):
    return abs(a - b) <= rel * abs(b) + absol


PROJECTILE = """[case]
model = projectile
g = 9.81
speed = 20
angle = 90
t_end = 1
[steps]
dt = %s
halvings = 2
[integrators]
use = velocity-verlet
[loop]
kind = accumulator
physics_dt = 1/32
draw = last, interpolate, extrapolate
"""


def test_projectile_closed_form(tmp):
    v0, g = 20 * math.sin(math.radians(90)), 9.81
    for frames in ("0.0625", "0.125"):
        d = run_case(tmp, "proj" + frames.replace(".", ""), PROJECTILE % frames)
        F = float(frames)
        for r in rows(d):
            h = float(r["dt"])  # physics_dt / 2^level: the frames are held
            check(r["plan"] == "fixed" and int(r["steps"]) == round(1 / h),
                  "projectile %s: %s takes 1/h steps of h" % (frames, r["integrator"]), r)
            draw = float(r["err_draw_max"])
            if r["integrator"].endswith(";interpolate)"):
                want = h * (v0 - g * F) + g * h * h / 2
                check(close(draw, want, 1e-12), "projectile frames %s, h %g: interpolate misses "
                      "by h(v0 - gF) + gh^2/2 = %.17g" % (frames, h, want), draw)
            else:
                # exact physics, A = 0 at every frame: round-off of |y| <= 20.4
                check(draw <= 1e-12, "projectile %s: %s draws the exact state"
                      % (frames, r["integrator"]), draw)


SPRING = """[case]
model = spring
k = 1
m = 1
x0 = 1
v0 = 0
t_end = 3
[steps]
dt = 0.0625
halvings = 2
[integrators]
use = velocity-verlet
[loop]
kind = accumulator
physics_dt = 0.015
draw = last, interpolate, extrapolate
max_substeps = 3
"""


def hand_loop(T, F, h, M, draw):
    """velocity Verlet on x'' = -x in an accumulator of step h, frames F, at
    most M steps a frame; the loop as "Fix Your Timestep" writes it, the
    clock as docs/method.md §9 keeps it."""
    x, v = 1.0, 0.0
    px, pv = x, v
    n, lag, steps = 0, 0.0, 0
    N = math.ceil(T / F - 1e-12)
    err_pos_max, draws = 0.0, [0.0]
    for k in range(1, N + 1):
        t = T if k == N else k * (T / N)
        A = t - lag - n * h
        due = max(0, math.floor(A / h + 1e-9))
        if due > M:
            lag += (due - M) * h
            due = M
        for _ in range(due):
            px, pv = x, v
            a = -x
            x = x + v * h + a * h * h / 2
            v = v + (a - x) * h / 2
            n += 1
            steps += 1
            tp = n * h
            err_pos_max = suite.max_or_nan(err_pos_max, abs(x - math.cos(tp)))
        alpha = min(1.0, max(0.0, (t - lag - n * h) / h))
        dx = {"last": x, "interpolate": x * alpha + px * (1 - alpha),
              "extrapolate": x + alpha * (x - px)}[draw]
        draws.append(abs(dx - math.cos(t)))
    rms = math.sqrt(sum(e * e for e in draws) / len(draws))
    return steps, err_pos_max, max(draws), rms, lag


def test_spring_hand_loop(tmp):
    d = run_case(tmp, "springacc", SPRING)
    seen = 0
    for r in rows(d):
        name = r["integrator"]
        draw = name.split(";")[1]
        h = float(r["dt"])
        # the clamp scales with the halving: 3 steps of 0.015 a frame are
        # 6 of 0.0075 (docs/method.md §9), the same time a frame
        steps, epos, dmax, drms, lag = hand_loop(3.0, 0.0625, h, 3 * round(0.015 / h), draw)
        what = "spring %s at h = %g" % (name, h)
        check(int(r["steps"]) == steps, what + ": physics steps", (r["steps"], steps))
        check(close(float(r["err_pos_max"]), epos, 1e-9), what + ": err_pos_max",
              (r["err_pos_max"], epos))
        check(close(float(r["err_draw_max"]), dmax, 1e-9), what + ": err_draw_max",
              (r["err_draw_max"], dmax))
        check(close(float(r["err_draw_rms"]), drms, 1e-9), what + ": err_draw_rms",
              (r["err_draw_rms"], drms))
        check(close(float(r["lag_max"]), lag, 1e-12), what + ": lag_max", (r["lag_max"], lag))
        seen += 1
    # the clamp: 0.0625 / 0.015 = 4.2 steps owed a frame, 3 taken
    check(seen == 6 and all(float(r["lag_max"]) > 0.5 for r in rows(d) if float(r["dt"]) == 0.015),
          "spring: the clamp of 3 drops time at h = 0.015", seen)


SUBSTEPS = """[case]
model = orbit
e = 0.5
t_end = 3
[steps]
dt = 0.05
halvings = 2
jitter = 0.4
seeds = 1
[integrators]
use = %s
[loop]
kind = %s
substeps = 4
physics_dt = 0.02
"""


def test_substeps_are_finer_runs(tmp):
    loops = rows(run_case(tmp, "sub", SUBSTEPS % ("tcv, velocity-verlet", "variable, substeps, semi-fixed")))
    fine = rows(run_case(tmp, "fine", SUBSTEPS.replace("dt = 0.05", "dt = 0.0125").replace(
        "[loop]\nkind = %s\nsubsteps = 4\nphysics_dt = 0.02\n", "") % "tcv, velocity-verlet"))
    plain = rows(run_case(tmp, "plain", SUBSTEPS.replace("[loop]\nkind = %s\nsubsteps = 4\n"
                                                         "physics_dt = 0.02\n", "")
                          % "tcv, velocity-verlet"))
    by = {(r["integrator"], r["plan"], r["level"]): r for r in plain}
    byfine = {(r["integrator"], r["plan"], r["level"]): r for r in fine}
    keys = ("err_pos_max", "err_pos_final", "err_vel_max", "err_energy_max", "steps")
    for r in loops:
        m, loop = r["integrator"].split("@")
        if loop == "variable":
            p = by[(m, r["plan"], r["level"])]
            check(all(r[k] == p[k] for k in keys) and r["err_draw_max"] == p["err_pos_max"],
                  "orbit %s %s: the variable loop is a plain run, bit for bit" % (r["integrator"], r["plan"]))
        elif loop == "substeps(4)" and r["plan"] == "fixed":
            # 4 equal steps of a fixed frame are the fixed plan of dt/4
            p = byfine[(m, "fixed", r["level"])]
            check(int(r["steps"]) == int(p["steps"]) and
                  close(float(r["err_pos_max"]), float(p["err_pos_max"]), 1e-8),
                  "orbit %s: substeps(4) is the plain run at dt/4" % r["integrator"],
                  (r["err_pos_max"], p["err_pos_max"]))
        elif loop == "semi-fixed(0.02)" and r["plan"] == "fixed":
            # frames of 0.05 / 2^l split into ceil(0.05/0.02) = 3 steps, at every level
            frames = int(by[(m, "fixed", r["level"])]["steps"])
            check(int(r["steps"]) == 3 * frames, "orbit %s level %s: 3 steps a frame"
                  % (r["integrator"], r["level"]), (r["steps"], frames))


RATES = """[case]
model = spring
t_end = 1
[steps]
dt = %s
halvings = 2
jitter = 0.5
seeds = 2
[integrators]
use = tcv, velocity-verlet
[loop]
kind = accumulator
physics_dt = 1/64
draw = last, interpolate
"""


def test_accumulator_same_physics_at_every_rate(tmp):
    """frames of 1/30, 1/60, 1/144 and 1/240 s, fixed and jittered: the
    physics states of a fixed step are the rate's business not at all"""
    keys = ("steps", "err_pos_max", "err_pos_final", "err_pos_rms", "err_vel_max",
            "err_vel_final", "err_energy_max", "force_evals")
    seen = {}
    for hz in (30, 60, 144, 240):
        for r in rows(run_case(tmp, "rate%d" % hz, RATES % repr(1.0 / hz))):
            if r["plan"] == "random" and r["seed"] == "2":
                continue
            key = (r["integrator"], r["level"])
            got = tuple(r[k] for k in keys)
            seen.setdefault(key, []).append((hz, r["plan"], got))
    for key, runs in seen.items():
        check(len(runs) == 8 and len(set(g for _, _, g in runs)) == 1,
              "%s level %s: the same physics at 30, 60, 144, 240 Hz, fixed and jittered" % key,
              runs)


ORDERS = """[case]
model = spring
t_end = 6.283185307179586
[steps]
dt = 0.0625
halvings = 5
[integrators]
use = velocity-verlet
[loop]
kind = accumulator
physics_dt = 0.01
draw = last, interpolate, extrapolate
"""


def test_draw_orders(tmp):
    d = run_case(tmp, "orders", ORDERS)
    want = {"last": 1, "interpolate": 1, "extrapolate": 2}
    for r in rows(d, "orders.csv"):
        if r["norm"] != "err_draw_max":
            continue
        draw = r["integrator"].split(";")[1].rstrip(")")
        check(abs(float(r["order"]) - want[draw]) < 0.15,
              "spring: the drawn state of %s is of order %d" % (draw, want[draw]), r["order"])


def summary_rows(d):
    """summary.md's first table: {integrator cell: {column: cell}}"""
    with open(os.path.join(d, "summary.md")) as f:
        lines = [l.strip() for l in f if l.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    out = {}
    for l in lines[2:]:
        if l.startswith("|---") or l.startswith("| integrator"):
            break
        cells = [c.strip() for c in l.strip("|").split("|")]
        out[cells[0]] = dict(zip(head, cells))
    return out


def test_summary_drawn_orders(tmp):
    """the summary's drawn column: the draw's order (1, 1, 2 from
    docs/method.md §9's closed forms), where the physics column reads the
    same for all three; and its caption says "=" is about the physics"""
    d = run_case(tmp, "sumorders", ORDERS)
    want = {"last": 1, "interpolate": 1, "extrapolate": 2}
    table = summary_rows(d)
    seen = 0
    for name, cells in table.items():
        draw = name.split(";")[1].rstrip(")`")
        cell = cells.get("drawn, fixed", "")
        try:
            order = float(cell.split()[0].rstrip("*"))
        except (ValueError, IndexError):
            order = float("nan")
        check(abs(order - want[draw]) < 0.15,
              "summary: the drawn column of %s reads order %d" % (draw, want[draw]), cell)
        seen += 1
    check(seen == 3, "summary: three accumulator rows", list(table))
    with open(os.path.join(d, "summary.md")) as f:
        text = f.read()
    check("\"=\" there says two loops compute the same physics, not that they draw the same"
          in text, "summary: '=' between loops is said to be about the physics", "")


CLAMP = """[case]
model = spring
t_end = 3
[steps]
dt = 0.05
halvings = 3
[integrators]
use = velocity-verlet
[loop]
kind = accumulator
physics_dt = 0.02
max_substeps = %d
"""


def test_clamp_same_scenario(tmp):
    """the clamp of M steps of physics_dt is a time a frame, M physics_dt, at
    every level of the sweep (docs/method.md §9): a frame of 0.05 owes at most
    ceil(2.5 2^k) <= 5 2^k steps of 0.02/2^k, so max_substeps = 5 never
    drops time at any level; with max_substeps = 1 every level drops what
    the hand-written loop (clamp 2^k) drops, and the summary says so"""
    d = run_case(tmp, "clamp5", CLAMP % 5)
    lags = [float(r["lag_max"]) for r in rows(d)]
    check(len(lags) == 3 and all(l == 0.0 for l in lags),
          "clamp 5 x 0.02 a frame of 0.05 drops no time at any level", lags)
    d = run_case(tmp, "clamp1", CLAMP % 1)
    want = []
    for r in rows(d):
        h = float(r["dt"])
        lag = hand_loop(3.0, 0.05, h, round(0.02 / h), "last")[4]
        want.append(lag)
        check(close(float(r["lag_max"]), lag, 1e-12), "clamp 1: lag_max at h = %g" % h,
              (r["lag_max"], lag))
    name = [n for n in summary_rows(d)][0]
    check("(the clamp dropped up to %.3g of t_end = 3)" % max(want) in name,
          "summary: the row says the time its clamp dropped", (name, want))


def case_rows(tmp, name, table="rates.csv"):
    out = os.path.join(tmp, "cases-" + name)
    r = vb("run", os.path.join(suite.ROOT, "cases", name + ".case"), "--out", out,
           "--no-chart-data")
    check(r.returncode == 0, "cases/%s.case runs" % name, r.stderr)
    return rows(os.path.join(out, name), table)


# y_k after k steps of h from y = 0 at v0 under gravity g (docs/method.md §9)
HEIGHT = {
    "euler": lambda v0, g, h, k: v0 * k * h - g * h * h * k * (k - 1) / 2,
    "euler-semi": lambda v0, g, h, k: v0 * k * h - g * h * h * k * (k + 1) / 2,
}
EXACT = lambda v0, g, h, k: v0 * k * h - g * (k * h) ** 2 / 2


def test_drop(tmp):
    """a box from rest for T = 1 s: y_N = -g h^2 N(N-1)/2 (Euler),
    -g h^2 N(N+1)/2 (symplectic Euler), -g T^2/2 (exact methods): the
    miss is g T h / 2 or nothing"""
    g, seen = 9.81, set()
    for r in case_rows(tmp, "drop"):
        if r["plan"] != "fixed":
            continue
        m, h, N = r["integrator"].split("@")[0], float(r["dt"]), int(r["frames"])
        seen.add((m, float(r["rate_hz"])))
        err = float(r["err_final"])
        if m in HEIGHT:
            want = abs(HEIGHT[m](0.0, g, h, N) - EXACT(0.0, g, h, N))
            check(close(err, want, 1e-9) and close(err, g * 1.0 * h / 2, 1e-9),
                  "drop: %s at %g ms lands g T h/2 = %.6g off" % (m, h * 1e3, g * h / 2), err)
        else:
            check(err <= 1e-12, "drop: %s at %g ms lands on the exact y(T)" % (m, h * 1e3), err)
    check(len(seen) == 20, "drop: five methods at 500, 200, 100, 50 Hz", sorted(seen))


def test_jump_apex(tmp):
    """the highest drawn point of a jump at v0 = 5: the largest of the
    closed forms y_k over the frames k = 0..N; symplectic Euler's short of
    v0^2/2g by v0 h/2 - g h^2/8 + g h^2 d^2/2 (d: the distance of
    v0/(gh) - 1/2 from a whole number), Euler's over by v0 h/2 + ..."""
    g, v0, seen = 9.81, 5.0, 0
    for r in case_rows(tmp, "jump"):
        if r["plan"] != "fixed":
            continue
        m, h, N = r["integrator"].split("@")[0], float(r["dt"]), int(r["frames"])
        y = HEIGHT.get(m, EXACT)
        want = suite.max_or_nan(y(v0, g, h, k) for k in range(N + 1))
        got = float(r["y_max"])
        check(close(got, want, 1e-12, 1e-13), "jump: %s at %s Hz peaks at max_k y_k = %.15g"
              % (m, r["rate_hz"], want), got)
        apex = v0 * v0 / (2 * g)
        if m == "euler-semi":
            ks = v0 / (g * h) - 0.5
            d = abs(ks - round(ks))
            short = v0 * h / 2 - g * h * h / 8 + g * h * h * d * d / 2
            check(close(apex - got, short, 1e-9, 1e-12) and abs(apex - got - v0 * h / 2) <= g * h * h,
                  "jump: symplectic Euler at %s Hz falls short by v0 h/2 to first order"
                  % r["rate_hz"], (apex - got, v0 * h / 2))
        seen += 1
    check(seen == 20, "jump: five methods at four rates", seen)


def test_rates_table(tmp):
    """frame-loop: an accumulator's physics is the same at every display
    rate (its energy error, fixed and random frames, to the bit), one step
    a frame spreads; the y_max column is the largest drawn height"""
    rs = case_rows(tmp, "frame-loop")
    by = {}
    for r in rs:
        by.setdefault((r["integrator"], r["plan"]), []).append(r)
    check(len(by) == 16 and all(len(v) == 4 for v in by.values()),
          "frame-loop: 8 loops x integrators, fixed and random frames, 4 rates", len(by))
    for (name, plan), v in by.items():
        energies = set(r["err_energy_max"] for r in v)
        if "@accumulator" in name:
            check(len(energies) == 1, "%s %s: the same energy error at every rate" % (name, plan),
                  energies)
        else:
            check(len(energies) == 4, "%s %s: one step a frame changes with the rate" % (name, plan),
                  energies)
    # the spread table names its height column as its caption does: the
    # spring is 1-D, so its height is x (docs/method.md §9)
    with open(os.path.join(tmp, "cases-frame-loop", "frame-loop", "summary.md")) as f:
        text = f.read()
    head = [l for l in text.splitlines() if l.startswith("| integrator | frames |")]
    check(head == ["| integrator | frames | final position | highest x | energy |"] and
          "highest x: the highest drawn x" in text,
          "frame-loop: the spread table's column and caption both say 'highest x'", head)
    # the drawn error of interpolation: one physics step late, |v| dt at most
    for r in rs:
        if r["integrator"].endswith(";interpolate)"):
            check(float(r["err_draw_max"]) <= 1.0 / 120 * 1.0000001,
                  "%s %s %s Hz: interpolation's drawn error is at most max|v| physics_dt"
                  % (r["integrator"], r["plan"], r["rate_hz"]), r["err_draw_max"])


def test_impulse(tmp):
    """a push J/tau for tau = 1/60 s against drag c: the body carries the
    impulse it was given over c.  Euler and symplectic Euler, one step of
    h a frame, give (J/tau) h n with n = #{k: k h < tau} (docs/method.md
    §9): 2J at 30 Hz, J at 60 and 240, 1.25 J at 144; an accumulator of
    1/120 s gives J at every rate"""
    J, c, tau, seen = 1.0, 1.0, 1.0 / 60, 0
    for r in case_rows(tmp, "impulse"):
        m, loop = r["integrator"].split("@")
        if r["plan"] != "fixed" or m not in ("euler", "euler-semi"):
            continue
        h = float(r["dt"]) if loop == "variable" else 1.0 / 120
        n = sum(1 for k in range(1000) if k * h < tau)
        given = J / tau * h * n
        err = float(r["err_final"])
        # t_end = 20 drag times: what is left to carry is below 1e-8
        check(abs(err - abs(given - J) / c) <= 1e-8,
              "impulse: %s at %s Hz carries (J/tau) h n / c = %.6g, %.6g off J/c"
              % (r["integrator"], r["rate_hz"], given / c, abs(given - J) / c), err)
        seen += 1
    check(seen == 16, "impulse: two methods, two loops, four rates", seen)


def test_step_limit(tmp):
    """the step limit counts a loop's physics steps, not its frames: at the
    finer level, 200 frames of 4 substeps are 800 steps, an accumulator of
    0.005/2 over 5 s at most 2001"""
    base = SUBSTEPS.replace("jitter = 0.4\nseeds = 1\n", "").replace("t_end = 3", "t_end = 5")
    for kind, limit, ok in (("substeps", 799, False), ("substeps", 800, True),
                            ("accumulator\nphysics_dt = 0.005", 2000, False),
                            ("accumulator\nphysics_dt = 0.005", 2001, True)):
        text = base.replace("kind = %s\nsubsteps = 4\nphysics_dt = 0.02\n",
                            "kind = %s\n%s" % (kind, "substeps = 4\n" if kind == "substeps" else ""))
        path = os.path.join(tmp, "limit.case")
        with open(path, "w") as f:
            f.write(text % "tcv")
        r = vb("run", path, "--out", os.path.join(tmp, "out-limit"), "--max-steps", limit,
               "--no-chart-data")
        check((r.returncode == 0) == ok and (ok or r.returncode == 2 and "over the limit" in r.stderr),
              "%s under --max-steps %d: %s" % (kind.split("\n")[0], limit, "runs" if ok else "refused"),
              (r.returncode, r.stderr))


def test_sharded(tmp):
    """a shard carries a frame loop's drawn-state errors, its physics steps
    and an accumulator's own step (issue 52 item 5; run --shard refused a
    [loop] before): the loops' case in 3 shards, merged, is its whole run
    byte for byte, the frame-rate table's rates.csv among it"""
    path = os.path.join(tmp, "shard.case")
    with open(path, "w") as f:
        f.write(SPRING + "rates = 30, 60\n")
    same, why = S.shards_merged(tmp, "loops-sharded", [path], 3, "--no-chart-data")
    check(os.path.exists(os.path.join(tmp, "loops-sharded", "merged", "shard", "rates.csv")),
          "the merge of the loops' shards writes rates.csv")
    check(same, "a case with a [loop] in 3 shards, merged, is its whole run", why)


def test_strict_names_the_row(tmp):
    """run --strict names a loop's row as its tables do (METHOD@LOOP):
    plain verlet one step a frame under random frames does not converge
    (docs/method.md §5), and the message must say verlet@variable, not
    verlet, which is another row of another case"""
    path = os.path.join(tmp, "strict.case")
    with open(path, "w") as f:
        f.write("[case]\nmodel = spring\nt_end = 6.283185307179586\n[steps]\ndt = 0.05\n"
                "halvings = 5\njitter = 0.5\nseeds = 4\n[integrators]\nuse = verlet\n"
                "[loop]\nkind = variable\n")
    r = vb("run", path, "--strict", "--no-chart-data", "--out", os.path.join(tmp, "out-strict"))
    lines = [l for l in r.stderr.splitlines() if "strict: %s:" % path in l]
    check(r.returncode == 1 and lines and all(": verlet@variable, " in l for l in lines),
          "run --strict on a [loop] case names the row verlet@variable", (r.returncode, r.stderr))


SEMI = """[case]
model = spring
t_end = 2
[steps]
dt = 1
halvings = 2
[integrators]
use = velocity-verlet
[loop]
kind = semi-fixed, substeps
physics_dt = 1e-4
substeps = 1000
"""


def semi_fixed_hand_loop(T, F, pdt):
    """velocity Verlet on x'' = -x in a semi-fixed loop: frames of F, each
    split into k = ceil(F/pdt - 1e-9) equal steps (docs/method.md §9), the
    last landing on the frame's time: (steps, err_pos_max)"""
    x, v, t, steps, worst = 1.0, 0.0, 0.0, 0, 0.0
    N = math.ceil(T / F - 1e-9)
    for f in range(1, N + 1):
        tf = T if f == N else f * (T / N)
        k = max(1, math.ceil(F / pdt - 1e-9))
        h = F / k
        for j in range(k):
            a = -x
            x = x + v * h + a * h * h / 2
            v = v + (a - x) * h / 2
            t = tf if j == k - 1 else t + h
            steps += 1
            worst = suite.max_or_nan(worst, abs(x - math.cos(t)))
    return steps, worst


def test_semi_fixed_every_step(tmp):
    """issue 38 item 2: frames of 1 s and physics_dt = 1e-4 take the
    ceil(h/physics_dt) = 10^4 steps a frame method.md promises (the loop
    took 1000 steps of 1e-3), at both levels (the frames and physics_dt
    halve together), and the summary does not call it "=" to substeps(1000),
    which takes 1000"""
    d = run_case(tmp, "semi", SEMI)
    seen = 0
    for r in rows(d):
        if "@semi-fixed" not in r["integrator"]:
            continue
        level = int(r["level"])
        F, pdt = 1.0 / 2 ** level, 1e-4 / 2 ** level
        steps, worst = semi_fixed_hand_loop(2.0, F, pdt)
        check(int(r["steps"]) == steps == 2 ** level * 2 * 10000,
              "semi-fixed(1e-4) at level %d: 10^4 steps a frame" % level, (r["steps"], steps))
        # the same steps of h, written here in another order of operations:
        # round-off of |x| <= 1 over N steps, at most N eps apart (the loop's
        # old 1000 steps of 1e-3 a frame miss by 100 times the error)
        check(close(float(r["err_pos_max"]), worst, 0.0, steps * 2.2e-16),
              "semi-fixed(1e-4) at level %d: err_pos_max of the hand loop" % level,
              (r["err_pos_max"], worst))
        seen += 1
    check(seen == 2, "semi-fixed: two levels", seen)
    table = summary_rows(d)
    name = "`velocity-verlet@semi-fixed(1e-4)`"
    check(name in table and "substeps" not in " ".join(table[name].values()),
          "summary: semi-fixed(1e-4) is not '=' to substeps(1000)", table.get(name))


LIMIT_RATES = """[case]
model = spring
t_end = 1
[steps]
dt = 0.25
halvings = 2
[integrators]
use = velocity-verlet
[loop]
kind = substeps
substeps = 4
rates = 100
"""


def test_rates_step_limit(tmp):
    """issue 38 item 1: the frame-rate table's runs are held to --max-steps
    as a level of the sweep is.  At 100 Hz over t_end = 1, ceil(1 * 100) =
    100 fixed frames of 4 substeps are 400 steps (the sweep itself takes at
    most 8 frames, 32 steps): refused, exit 2, naming the rates line, under
    399; run under 400.  And the issue's case: rates = 100000 under 1000."""
    path = os.path.join(tmp, "limitrates.case")
    for text, limit, ok in ((LIMIT_RATES, 399, False), (LIMIT_RATES, 400, True),
                            (LIMIT_RATES.replace("rates = 100", "rates = 100000"), 1000, False)):
        with open(path, "w") as f:
            f.write(text)
        out = os.path.join(tmp, "out-limitrates%d" % limit)
        r = vb("run", path, "--out", out, "--max-steps", limit, "--no-chart-data")
        what = "rates under --max-steps %d: %s" % (limit, "runs" if ok else "refused")
        if ok:
            check(r.returncode == 0, what, r.stderr)
        else:
            check(r.returncode == 2 and "%s:12: rates: velocity-verlet@substeps(4) at " % path
                  in r.stderr and "over the limit of" in r.stderr and
                  not os.path.exists(os.path.join(out, "limitrates")), what,
                  (r.returncode, r.stderr))


CLAMPED = """[case]
model = spring
t_end = 1
[steps]
dt = 0.25
halvings = 2
[integrators]
use = velocity-verlet
[loop]
kind = %s
physics_dt = 1/240
%srates = 30, 240
"""


def rates_caption(d):
    with open(os.path.join(d, "summary.md")) as f:
        return [l for l in f.read().splitlines() if l.startswith("The same scenario at display")][0]


def test_rates_caption_clamp(tmp):
    """issue 38 item 12: the caption says an accumulator's physics is the
    same at every rate only where it is.  With max_substeps = 2 and
    physics_dt = 1/240, a 30 Hz frame owes 8 steps and takes 2, so every
    frame drops 6/240 s: over 30 frames 0.75 of t_end = 1; at 240 Hz a frame
    owes one and nothing drops.  Without the clamp the caption says it;
    with one loop of one step a frame there is no accumulator to say it of"""
    same = "A fixed-step accumulator's physics is the same at every rate: what spreads is what it draws."
    text = rates_caption(run_case(tmp, "clamped", CLAMPED % ("accumulator", "max_substeps = 2\n")))
    lag = hand_loop(1.0, 1.0 / 30, 1.0 / 240, 2, "last")[4]
    check(close(lag, 0.75, 1e-12), "the hand loop drops 0.75 s at 30 Hz", lag)
    check(same not in text and "`velocity-verlet@accumulator(1/240;last;max=2)` up to %.3g of "
          "t_end = 1 at 30 Hz, fixed frames" % lag in text,
          "caption: the clamp's row named, and no claim of the same physics", text)
    text = rates_caption(run_case(tmp, "unclamped", CLAMPED % ("accumulator", "")))
    check(same in text, "caption: an accumulator without a clamp keeps the same physics", text)
    text = rates_caption(run_case(tmp, "noacc", CLAMPED.replace("physics_dt = 1/240\n", "")
                                  % ("variable", "")))
    check("accumulator" not in text, "caption: nothing of accumulators where there is none", text)


TRACE = """[case]
model = projectile
g = 9.81
speed = 0
angle = 90
t_end = 1
[steps]
dt = 0.02
halvings = 2
trace = %s
[integrators]
use = euler-semi, velocity-verlet
[loop]
kind = variable, accumulator
physics_dt = 1/120
rates = 30, 144
"""


def trace_steps(path):
    with open(path) as f:
        return [float(l.split("#")[0]) for l in f if l.split("#")[0].strip()]


def trace_frames(tr, scale, t_end):
    """plan.c's trace plan: the steps scaled and replayed (scale != 1), the
    last one landing on t_end when within 1e-9 of the mean step of it"""
    s = 0.0
    for h in tr:  # summed in order, as the reader sums them
        s += h
    land = 1e-9 * scale * s / len(tr)
    t, k, out = 0.0, 0, []
    while True:
        h = (tr[k] if k < len(tr) else t_end - t) if scale == 1.0 else tr[k % len(tr)] * scale
        k += 1
        if t + h >= t_end - land:
            out.append(t_end - t)
            return out
        t += h
        out.append(h)


def semi_euler_drop(frames, g):
    """symplectic Euler from rest under gravity, a step a frame: y_N"""
    y = v = 0.0
    for h in frames:
        v -= g * h
        y += h * v
    return y


def test_trace_in_rates(tmp):
    """issue 39, spikes: a case's trace enters the frame-rate table as a
    third kind of frames: the recorded frames scaled to a mean of 1/rate
    (their pattern kept) and replayed.  Each trace row's frames are the
    count of those frames (built here from plan.c's rule), symplectic
    Euler one step a frame lands at the closed form of its steps,
    -g sum_k h_k sum_{j<=k} h_j, velocity Verlet on the exact -g T^2/2;
    the accumulator's physics (its energy error) is the same at both rates"""
    tpath = os.path.join(suite.ROOT, "cases", "traces", "frames-60hz.trace")
    tr = trace_steps(tpath)
    s = 0.0
    for h in tr:
        s += h
    g, seen, energy = 9.81, 0, {}
    for r in rows(run_case(tmp, "tracerates", TRACE % tpath), "rates.csv"):
        if r["plan"] != "trace":
            continue
        rate = float(r["rate_hz"])
        frames = trace_frames(tr, len(tr) / (s * rate), 1.0)
        m, loop = r["integrator"].split("@")
        check(int(r["frames"]) == len(frames), "trace at %g Hz: %d frames" % (rate, len(frames)),
              r["frames"])
        err = float(r["err_final"])
        if loop == "variable":
            want = abs(semi_euler_drop(frames, g) + g / 2) if m == "euler-semi" else 0.0
            check(close(err, want, 1e-9, 1e-12), "trace at %g Hz: %s lands %.6g off" %
                  (rate, m, want), err)
        else:
            energy.setdefault(m, set()).add(r["err_energy_max"])
        seen += 1
    check(seen == 8, "trace rows: 2 methods x 2 loops x 2 rates", seen)
    check(len(energy) == 2 and all(len(e) == 1 for e in energy.values()),
          "trace frames: an accumulator's energy error is the same at every rate", energy)


def sim_row(r):
    lines = r.stdout.splitlines()
    return dict(zip(lines[0].split(","), lines[1].split(","))) if len(lines) >= 2 else {}


def test_sim_loop(tmp):
    """issue 39: sim takes the [loop] options.  The closed form of
    docs/method.md §9 (velocity Verlet, accumulator of h = 1/32, frames of
    2h: interpolate draws y(t - h), off by h(v0 - 2gh) + gh^2/2 at most), its
    trajectory a row a frame of the drawn state; symplectic Euler one step
    a frame under the recorded trace lands where its steps say; semi-fixed
    frames of 1 s at 1e-4 take 10^4 steps each"""
    v0, g, h = 20.0, 9.81, 1.0 / 32
    traj = os.path.join(tmp, "simloop.csv")
    r = vb("sim", "--model", "projectile", "--set", "angle=90", "--integrator", "velocity-verlet",
           "--t-end", "1", "--dt", repr(2 * h), "--loop", "accumulator", "--physics-dt", "1/32",
           "--draw", "interpolate", "--trajectory", traj)
    row = sim_row(r)
    want = h * (v0 - g * 2 * h) + g * h * h / 2
    check(r.returncode == 0 and row.get("integrator") == "velocity-verlet@accumulator(1/32;interpolate)"
          and row.get("steps") == "32" and close(float(row.get("err_draw_max", "nan")), want, 1e-12)
          and float(row.get("lag_max", "nan")) == 0.0,
          "sim --loop accumulator: 32 steps, interpolate off by h(v0 - 2gh) + gh^2/2", (r.stdout, r.stderr))
    y = lambda t: v0 * t - g * t * t / 2
    tr = []
    if os.path.exists(traj):
        with open(traj) as f:
            tr = list(csv.DictReader(l for l in f if not l.startswith("#")))
    check(len(tr) == 17 and all(close(float(p["t"]), 2 * h * k, 1e-15) for k, p in enumerate(tr)) and
          all(close(float(p["y"]), y(max(0.0, float(p["t"]) - h)), 1e-12, 1e-13) for p in tr[1:]),
          "sim --loop --trajectory: a row a frame, the drawn y(t - h)", tr[:3])
    tpath = os.path.join(suite.ROOT, "cases", "traces", "frames-60hz.trace")
    r = vb("sim", "--model", "projectile", "--set", "speed=0", "--integrator", "euler-semi",
           "--steps", tpath, "--t-end", "1", "--loop", "variable")
    row = sim_row(r)
    want = abs(semi_euler_drop(trace_frames(trace_steps(tpath), 1.0, 1.0), g) + g / 2)
    check(r.returncode == 0 and close(float(row.get("err_pos_final", "nan")), want, 1e-9, 1e-12),
          "sim --steps TRACE --loop variable: symplectic Euler lands where its steps say",
          (row.get("err_pos_final"), want, r.stderr))
    r = vb("sim", "--model", "spring", "--integrator", "velocity-verlet", "--dt", "1", "--t-end", "2",
           "--loop", "semi-fixed", "--physics-dt", "1e-4")
    row = sim_row(r)
    steps, worst = semi_fixed_hand_loop(2.0, 1.0, 1e-4)
    check(r.returncode == 0 and row.get("steps") == str(steps) and
          close(float(row.get("err_pos_max", "nan")), worst, 0.0, steps * 2.2e-16),
          "sim --loop semi-fixed: 10^4 steps a 1 s frame", (r.stdout, r.stderr))


def test_long_run_step_limit(tmp):
    """the charts' long run of a [loop] case is held to --max-steps by its
    physics steps, as the sweep is: substeps(1000) on frames of 0.05 over
    a period of the spring takes 1000 ceil(T/0.05) steps for a long run to
    T, and under a limit of 300000 (the sweep's finest level takes 252000)
    it must stop by 300000, not run its 50 periods (6.3e6 steps)"""
    text = ("[case]\nmodel = spring\nt_end = 6.283185307179586\n[steps]\ndt = 0.05\n"
            "halvings = 2\n[integrators]\nuse = velocity-verlet\n[loop]\nkind = substeps\n"
            "substeps = 1000\n")
    path = os.path.join(tmp, "longsub.case")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(tmp, "out-longsub")
    r = vb("run", path, "--out", out, "--max-steps", "300000")
    ts = suite.table_rows(os.path.join(out, "longsub", "timeseries.csv")) if r.returncode == 0 else []
    t = max([float(x["t"]) for x in ts] or [float("nan")])
    # t is printed to 10 digits: a hair under the frame it ends on
    steps = 1000 * math.ceil(t / 0.05 - 1e-6)
    check(r.returncode == 0 and steps <= 300000,
          "the long run of substeps(1000) stops within --max-steps 300000", (t, steps, r.stderr))


def test_long_names(tmp):
    """issue 38 items 10 and 11: names are whole.  A plugin method named in
    40 characters with four parameters of 30 (tests/plugins/long_names.c:
    velocity Verlet, its reported x moved by the last parameter) has a
    170-character name: set to 1.5 and to 3 in two cases of one run they are
    two methods, whose position error on the projectile is the offset
    (velocity Verlet is exact under constant force); three draws of it in
    one accumulator are three rows, no "=" to itself, and check accepts
    its own directory"""
    so = os.path.join(tmp, "long_names.so")
    r = subprocess.run([os.environ.get("CC") or "cc", "-std=c11", "-fPIC", "-shared", "-O2",
                        "-I" + os.path.join(suite.ROOT, "src"), "-o", so,
                        os.path.join(suite.ROOT, "tests", "plugins", "long_names.c"), "-lm"],
                       capture_output=True, text=True)
    check(r.returncode == 0, "the long-names plugin builds", r.stderr)
    method = ("velocity-verlet-shifted-by-a-long-offset:first_parameter_that_does_none=1:"
              "second_parameter_that_does_non=1:third_parameter_that_does_none=1:"
              "offset_added_to_the_position_x=")
    paths = []
    for off in ("1.5", "3"):
        paths.append(os.path.join(tmp, "long%s.case" % off.replace(".", "")))
        with open(paths[-1], "w") as f:
            f.write("[case]\nmodel = projectile\nt_end = 1\n[steps]\ndt = 0.1\nhalvings = 2\n"
                    "[integrators]\nuse = %s%s\n" % (method, off))
    out = os.path.join(tmp, "out-long")
    r = vb("run", "--plugin", so, paths[0], paths[1], "--out", out, "--no-chart-data")
    check(r.returncode == 0, "two cases of one long method", r.stderr)
    for off, path in zip((1.5, 3.0), paths):
        rs = rows(os.path.join(out, os.path.basename(path)[:-5]))
        check(len(rs) == 2 and all(x["integrator"] == method + ("%g" % off) for x in rs) and
              all(abs(float(x["err_pos_final"]) - off) <= 1e-12 for x in rs),
              "the method at offset %g is named whole and runs at %g" % (off, off),
              [(x["integrator"], x["err_pos_final"]) for x in rs])
    loop = paths[0].replace(".case", "-loop.case")
    with open(paths[0]) as f, open(loop, "w") as g:
        g.write(f.read() + "[loop]\nkind = accumulator\nphysics_dt = 1/64\n"
                "draw = last, interpolate, extrapolate\n")
    r = vb("run", "--plugin", so, loop, "--out", out, "--no-chart-data")
    d = os.path.join(out, "long15-loop")
    names = sorted(set(x["integrator"] for x in rows(d)))
    want = sorted(method + "1.5@accumulator(1/64;%s)" % w for w in ("last", "interpolate", "extrapolate"))
    check(r.returncode == 0 and names == want, "three draws of the long method: three rows named whole",
          (names, r.stderr))
    table = summary_rows(d)
    check(len(table) == 3 and all("= %s" % name not in " ".join(cells.values())
                                  for name, cells in table.items()),
          "summary: no row '=' to itself", table)
    r = vb("check", "--baseline", out, "--plugin", so, loop, "--quiet")
    check(r.returncode == 0, "check accepts the directory run just wrote", (r.returncode, r.stdout, r.stderr))
    # a baseline whose interpolating and extrapolating rows had 10 times
    # smaller position errors: both rows are worse now, and check names
    # each whole (its changes were folded by a name cut at 47 characters,
    # the two rows' into one)
    path = os.path.join(d, "runs.csv")
    with open(path) as f:
        lines = f.read().splitlines(True)
    head = next(i for i, l in enumerate(lines) if not l.startswith("#"))
    cols = lines[head].rstrip("\n").split(",")
    k = cols.index("err_pos_max")
    for i in range(head + 1, len(lines)):
        cells = lines[i].rstrip("\n").split(",")
        if not cells[cols.index("integrator")].endswith(";last)"):
            cells[k] = "%.17g" % (float(cells[k]) / 10)
            lines[i] = ",".join(cells) + "\n"
    with open(path, "w") as f:
        f.writelines(lines)
    r = vb("check", "--baseline", out, "--plugin", so, loop)
    worse = r.stdout.split("WORSE than the baseline", 1)[-1].split("\n\n")[0]
    check(r.returncode == 1 and all(w in worse for w in want[:2]) and want[2] not in worse,
          "check names each worse row whole", (r.returncode, r.stdout[-3000:], r.stderr))


if __name__ == "__main__":
    sys.exit(S.main([test_projectile_closed_form, test_spring_hand_loop,
                     test_substeps_are_finer_runs, test_accumulator_same_physics_at_every_rate,
                     test_draw_orders, test_summary_drawn_orders, test_clamp_same_scenario,
                     test_drop, test_jump_apex, test_rates_table,
                     test_step_limit, test_sharded, test_impulse,
                     test_strict_names_the_row, test_semi_fixed_every_step,
                     test_rates_step_limit, test_rates_caption_clamp, test_trace_in_rates,
                     test_sim_loop, test_long_names, test_long_run_step_limit]))
