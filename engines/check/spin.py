#!/usr/bin/env python3
"""spin.py [--quick] [--only NAME] [--speeds 1,5,20] [--horizon 600] [--wobble 0.01]
— what each 3D engine setting does to a
spinning body, measured through its adapter (protocol 3) at 60 Hz:

- the time until a stable spin tumbles: I = (1, 2, 3), the spin about the
  major axis I3 with a 1 % wobble, w0 = (0.01, 0.01, 1) * W in the body frame
  for W = 1, 5 and 20 rad/s, for up to 600 s (--wobble, --speeds, --horizon).  The body tumbles when it
  first flips (docs/rigid.md §4): its intermediate axis turns from within
  60 degrees of L to within 60 degrees of -L (exact motion keeps L^2 and T,
  and this spin's intermediate axis stays near 90 degrees from L).
  An engine that puts the body to sleep (w set to 0, or the attitude frozen
  while w says it turns) is said to;
- the Dzhanibekov flip: I = (1, 2, 3), w0 = (0.01, 1, 0.01) (body frame),
  120 s.  Its flips are counted as verletbench counts them (docs/rigid.md
  §4): the intermediate axis turning over against L, c = L_2/|L| from
  beyond +1/2 to beyond -1/2 or back (a wobble that only changes the sign
  of w2 is none).  The flip period is twice the mean time between
  successive flips, against the exact 4 K(k) / lambda (Landau and Lifshitz,
  Mechanics, section 37: L^2 > 2 E I2 here), where the flips are regular
  (§4: every gap within 25 % of their mean, and no stretch without a flip
  longer than two mean gaps at the start or the end); "irregular" where
  they are not;
- over the first 60 s of that run, the largest relative change of |L| (the
  world angular momentum) and of the kinetic energy T.

Each adapter setting is one persistent process serving the four requests.
Run from the top of the repository after `make -C engines setup`; it needs
no verletbench.  A few minutes of processor time (--quick: only W = 5).  Prints a
Markdown table, with the engines' capability lines as its provenance."""
import argparse
import json
import math
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
B = "engines/build/"
SETTINGS = [
    # (name, command): every setting that changes the method, then the engines' defaults
    ("cannon-es", "node engines/cannon-es/body.js"),
    ("havok", "node engines/havok/adapter.js"),
    ("jolt", "node engines/jolt/adapter.js gyro=off"),
    ("jolt gyro=on", "node engines/jolt/adapter.js gyro=on"),
    ("rapier3d iters=4", "node engines/rapier3d/adapter.js iters=4 compile=turbofan"),
    ("rapier3d iters=1", "node engines/rapier3d/adapter.js iters=1 compile=turbofan"),
    ("mujoco Euler", "node engines/mujoco/adapter.js integrator=Euler"),
    ("mujoco RK4", "node engines/mujoco/adapter.js integrator=RK4"),
    ("mujoco implicit", "node engines/mujoco/adapter.js integrator=implicit"),
    ("mujoco implicitfast", "node engines/mujoco/adapter.js integrator=implicitfast"),
    ("bullet implicit-body", B + "bullet gyro=implicit-body"),
    ("bullet implicit-world", B + "bullet gyro=implicit-world"),
    ("bullet explicit", B + "bullet gyro=explicit"),
    ("bullet none", B + "bullet gyro=none"),
    ("bullet-f64 implicit-body", B + "bullet-f64 gyro=implicit-body"),
    ("bullet-f64 explicit", B + "bullet-f64 gyro=explicit"),
    ("ode", B + "ode gyro=on"),
    ("ode gyro=off", B + "ode gyro=off"),
    ("ode rot=finite", B + "ode gyro=on rot=finite"),
    ("ode gyro=off rot=finite", B + "ode gyro=off rot=finite"),
    ("ode stepper=quick", B + "ode gyro=on stepper=quick"),
    # what the engines' own defaults (damping, caps, sleeping) do
    ("cannon-es defaults=engine", "node engines/cannon-es/body.js defaults=engine"),
    ("havok defaults=engine", "node engines/havok/adapter.js defaults=engine"),
    ("jolt defaults=engine", "node engines/jolt/adapter.js defaults=engine"),
    ("jolt gyro=on defaults=engine", "node engines/jolt/adapter.js gyro=on defaults=engine"),
    ("rapier3d defaults=engine", "node engines/rapier3d/adapter.js defaults=engine compile=turbofan"),
    ("bullet defaults=engine", B + "bullet defaults=engine"),
    ("bullet explicit defaults=engine", B + "bullet gyro=explicit defaults=engine"),
]
I = (1.0, 2.0, 3.0)
H = 1.0 / 60.0


# ---- the requests ----------------------------------------------------------------------

def qmul(a, b):
    return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]]


def rotate(q, v):
    return qmul(qmul(q, [0.0] + list(v)), [q[0], -q[1], -q[2], -q[3]])[1:]


def request(run, w_body, seconds):
    q0 = [1.0, 0.0, 0.0, 0.0]  # body axes on the world's: w0_world = w0_body
    body = {"mass": 1.0, "inertia": list(I), "x0": [0.0] * 3, "v0": [0.0] * 3, "q0": q0,
            "w0_body": list(w_body), "w0_world": rotate(q0, w_body), "gravity": [0.0] * 3}
    return {"kind": "run", "run": run, "model": "free-body", "protocol": 3, "plan": "fixed",
            "level": 0, "dt": H, "params": {}, "body": body, "h": [H] * int(round(seconds / H)),
            "header": "# verletbench run=%s" % run}


def spins(speeds, horizon, wobble):
    out = []
    for W in speeds:
        out.append(request("spin-%g" % W, (wobble * W, wobble * W, W), horizon))
    out.append(request("flip", (0.01, 1.0, 0.01), 120.0))
    return out


# ---- what the rows say ---------------------------------------------------------------------

def body_w(row, frame):
    w = row[11:14]
    return w if frame == "body" else rotate([row[4], -row[5], -row[6], -row[7]], w)


def asleep(r, prev):
    """the engine put the body to sleep: w set to 0 (Jolt, Bullet), or the
    attitude frozen while w says it turns (Havok keeps reporting the last w)"""
    if r[11:14] == [0.0, 0.0, 0.0]:
        return True
    turn = math.sqrt(sum(c * c for c in r[11:14])) * (r[0] - prev[0]) if prev else 0.0
    return prev is not None and r[4:8] == prev[4:8] and turn > 1e-5


def band_flips(rows, frame):
    """the body's flips (docs/rigid.md §4, src/models/rigid_analysis.c):
    c = L_2/|L|, the cosine of the angle between the intermediate axis and
    L, goes from beyond +1/2 to beyond -1/2 or back, at the last zero of c
    before the far side (interpolated between rows).  Returns the flips'
    times, the times of the first and the last row looked at, and why it
    stopped looking: None, ("sleeps", t) when the engine puts the body to
    sleep (a sleeping body's state is no flip) or ("diverges", t)"""
    side, prev, last, zero, out, first = 0, None, None, None, [], None
    for r in rows:
        w = body_w(r, frame)
        L = [I[i] * w[i] for i in range(3)]
        n = math.sqrt(sum(x * x for x in L))
        if not math.isfinite(n):
            return out, first, prev[0] if prev else r[0], ("diverges", r[0])
        if asleep(r, last):
            return out, first, prev[0] if prev else r[0], ("sleeps", r[0])
        last = r
        first = r[0] if first is None else first
        c = L[1] / n if n > 0 else 0.0
        if prev is not None and ((prev[1] > 0 and c <= 0) or (prev[1] < 0 and c >= 0)):
            zero = prev[0] + (r[0] - prev[0]) * prev[1] / (prev[1] - c)
        elif c == 0.0:
            zero = r[0]
        beyond = 1 if c >= 0.5 else -1 if c <= -0.5 else 0
        if beyond and beyond != side:
            if side:
                out.append(zero)
            side = beyond
        prev = (r[0], c)
    return out, first, prev[0] if prev else None, None


GAP_TOL = 0.25  # src/models/rigid_analysis.h's VB_FLIP_GAP_TOL, with its reason


def regular_period(flips, first, end):
    """twice the mean gap between the flips where they are regular
    (docs/rigid.md §4: at least two, every gap within GAP_TOL of the mean,
    the first flip within two mean gaps of the first row and the last within
    two of the last row), else None"""
    if len(flips) < 2:
        return None
    g = (flips[-1] - flips[0]) / (len(flips) - 1)
    gaps = [b - a for a, b in zip(flips, flips[1:])]
    if g > 0 and all(abs(x - g) <= GAP_TOL * g for x in gaps) and \
            flips[0] - first <= 2 * g and end - flips[-1] <= 2 * g:
        return 2 * g
    return None


def tumble_time(rows, frame):
    """("tumbles", t) at the body's first flip (docs/rigid.md §4);
    ("sleeps", t) or ("diverges", t) where that came first; or None"""
    flips, _, _, stopped = band_flips(rows, frame)
    return ("tumbles", flips[0]) if flips else stopped


def sleep_time(rows):
    """the time the engine puts the body to sleep, or None"""
    last = None
    for r in rows:
        if asleep(r, last):
            return r[0]
        last = r
    return None


def agm_K(k2):
    """K(k), the complete elliptic integral of the first kind, by the AGM"""
    a, b = 1.0, math.sqrt(1.0 - k2)
    while abs(a - b) > 1e-16 * a:
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def exact_flip_period(w):
    """4 K(k) / lambda for L^2 > 2 E I2 (Landau and Lifshitz section 37)"""
    I1, I2, I3 = I
    E2 = sum(I[i] * w[i] * w[i] for i in range(3))  # 2 E
    M2 = sum((I[i] * w[i]) ** 2 for i in range(3))
    lam = math.sqrt((I3 - I2) * (M2 - E2 * I1) / (I1 * I2 * I3))
    k2 = (I2 - I1) * (E2 * I3 - M2) / ((I3 - I2) * (M2 - E2 * I1))
    return 4.0 * agm_K(k2) / lam


def drifts(rows, frame, seconds=60.0):
    """the largest relative change of |L| (world) and of T over the first
    seconds, as the rows say (a sleeping body's, whatever it reports)"""
    def LT(r):
        wb = body_w(r, frame)
        Lb = [I[i] * wb[i] for i in range(3)]
        return math.sqrt(sum(c * c for c in Lb)), 0.5 * sum(I[i] * wb[i] * wb[i] for i in range(3))
    L0, T0 = LT(rows[0])
    dl = dt = 0.0
    for r in rows:
        if r[0] > seconds + 1e-9:
            break
        L, T = LT(r)
        # a NaN kept (max() drops it): a body gone NaN has no drift to print
        a, b = abs(L / L0 - 1.0), abs(T / T0 - 1.0)
        dl = a if math.isnan(a) or a > dl else dl
        dt = b if math.isnan(b) or b > dt else dt
    return dl, dt


# ---- driving the adapters ------------------------------------------------------------------

class Failed(list):
    """the rows of a run the engine failed (an error line), up to the step
    it failed in; .at: the time that step starts, .why: the engine's words"""


def answers(command, reqs):
    text = "".join(json.dumps(r) + "\n" for r in reqs)
    p = subprocess.run(command, shell=True, input=text, capture_output=True, text=True, cwd=ROOT,
                       timeout=1800)
    lines = p.stdout.splitlines()
    cap = lines[0] if lines else ""
    runs, errors, cur = {}, {}, []
    for line in lines[1:]:
        if line.startswith("# verletbench-end run="):
            runs[line.split()[2][4:]] = [[float(c) for c in l.split(",")] for l in cur]
            cur = []
        elif line.startswith("# verletbench-error run="):
            errors[line.split()[2][4:]] = line.split(" ", 3)[3]
            cur = []
        elif line and line[0] in "0123456789-" and "," in line:
            cur.append(line)
    return p, cap, runs, errors


def measure(command, reqs):
    """each request's rows; a run the engine failed (MuJoCo's reset, Bullet's
    overflow: docs/real-engines.md §5.8) asked again up to the step it
    failed in (its error line says "in its step from t = T"), its rows then
    a Failed list"""
    p, cap, runs, errors = answers(command, reqs)
    frame = "body" if " angvel=body" in cap else "world"
    again = []
    for r in reqs:
        m = re.search(r"in its step from t = ([0-9.e+-]+)", errors.get(r["run"], ""))
        if m:
            again.append(dict(r, h=r["h"][:int(round(float(m.group(1)) / H))]))
    if again:
        p2, _, runs2, errors2 = answers(command, again)
        for r in again:
            if r["run"] in runs2 and r["run"] not in errors2:
                rows = Failed(runs2[r["run"]])
                rows.at, rows.why = len(r["h"]) * H, errors[r["run"]]
                runs[r["run"]] = rows
    if len(runs) != len(reqs):
        raise RuntimeError("%s: exit %d, %d answers: %s" % (command, p.returncode, len(runs),
                                                           p.stderr[-500:]))
    return cap, frame, runs


def failed_note(rows):
    """what a failed run's cell adds: what the engine did, and when"""
    if not isinstance(rows, Failed):
        return ""
    return " (then %s at %.4g s)" % (failure_kind(rows), rows.at)


def failure_kind(rows):
    return "reset" if "reset" in rows.why else "overflow" if "overflow" in rows.why else \
        "capped" if "cap" in rows.why else "failed"


HORIZON = 600.0


def fmt_time(t):
    if t is None:
        return "none in %g s" % HORIZON
    return "%.4g s" % t[1] if t[0] == "tumbles" else "%s at %.3g s" % t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="only the 5 rad/s spin and the flip")
    ap.add_argument("--only", help="the settings whose name contains this")
    ap.add_argument("--speeds", default="1,5,20", help="the spins' rates W in rad/s (default 1,5,20)")
    ap.add_argument("--horizon", type=float, default=600.0, help="seconds of each spin (default 600)")
    ap.add_argument("--wobble", type=float, default=0.01, help="w0 = (wobble, wobble, 1) W (default 0.01)")
    a = ap.parse_args()
    global HORIZON
    HORIZON = a.horizon
    speeds = (5.0,) if a.quick else tuple(float(x) for x in a.speeds.split(","))
    reqs = spins(speeds, a.horizon, a.wobble)
    exact = exact_flip_period((0.01, 1.0, 0.01))
    caps, table = {}, []
    for name, cmd in SETTINGS:
        if a.only and a.only not in name:
            continue
        cap, frame, runs = measure(cmd, reqs)
        caps[cmd.split()[1] if cmd.startswith("node") else cmd.split()[0]] = cap
        row = [name]
        for r in reqs[:-1]:
            rows = runs[r["run"]]
            t = tumble_time(rows, frame)
            if t is None and isinstance(rows, Failed):
                row.append("none before: %s at %.4g s" % (failure_kind(rows), rows.at))
            else:
                row.append(fmt_time(t) + failed_note(rows))
        fl, first, end, _ = band_flips(runs["flip"], frame)
        period = regular_period(fl, first, end)
        slept = sleep_time(runs["flip"])
        row.append("%d" % len(fl) + (" (sleeps at %.3g s)" % slept if slept is not None else "")
                   + failed_note(runs["flip"]))
        if period:
            row.append("%.4g s (%+.2g %%)" % (period, 100 * (period / exact - 1)))
        elif len(fl) >= 2:
            row.append("irregular (the last flip at %.3g s)" % fl[-1])
        else:
            row.append("none")
        dl, dt = drifts(runs["flip"], frame)
        row.append("%.2g" % dl)
        row.append("%.2g" % dt)
        table.append(row)
        print("  " + " | ".join(row), file=sys.stderr)
    for c in sorted(set(caps.values())):
        print("<!-- %s -->" % c)
    head = ["setting"] + ["tumbles, %s" % r["run"].replace("spin-", "") + " rad/s" for r in reqs[:-1]] + \
        ["flips in 120 s", "flip period (exact %.4g s)" % exact, "drift of L, 60 s", "drift of T, 60 s"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in table:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
