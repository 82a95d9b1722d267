#!/usr/bin/env python3
"""stack_engines_js.py [BUILD_DIR] — the JavaScript 3D engines on a stack of
boxes (protocol 5, issue 55; docs/contact.md "Stacks"): Jolt, Havok and
Rapier 3D through their contact adapters (engines/{jolt,havok,rapier3d}/
contact.js), driven directly with requests written here from the contract
(docs/real-engines.md §7), no verletbench run needed.

Independent truths:
1. the contract's text: the capability line says protocol=5; the rows are
   t and 13 columns a body numbered from 1, row 0 the request's numbers,
   a row a step, each quaternion's sign continuing the previous row's;
   a bad body is refused with the contract's message naming bodies[k];
2. a stack of one box is the same world as that box alone on the ground,
   so its rows equal the protocol-4 answer for the box to the bit (the
   same engine calls in the same order);
3. a fact from each engine's source:
   - Jolt: PhysicsSystem::Update(h, N) takes N whole steps of h / N
     (Jolt/Physics/PhysicsSystem.cpp:215 `step_delta_time = inDeltaTime /
     inCollisionSteps`, the loop :269), and f32(1/30)/2 is f32(1/60)
     exactly (a halving), so substeps=2 at 30 Hz is the 60 Hz run, every
     second row to the bit;
   - Jolt: the world's first step is cold whatever warm= says (the
     warm-start ratio is step_delta_time / mPreviousStepDeltaTime, 0
     while that is 0, PhysicsSystem.cpp:216, PhysicsSystem.h:395), and
     from the second on warm=on multiplies last step's impulses by 1
     (:1397) where warm=off takes 0: row 1 the same to the bit, row 2 not
     (the stack's contacts carry its weight: the impulses are not 0);
   - Rapier: contacts are springs of 30 Hz (box on box) and 60 Hz (on a
     fixed body), each damping ratio 10 (src/dynamics/
     integration_parameters.rs:55-76 at ccd01cd2), of the point's
     projected mass; at rest the damper carries nothing, so contact k
     sinks by its load over k = m_eff omega^2: a cube's corner on the
     ground has m_eff = m/4 (1/m + |r x n|^2/I with |r x n|^2 = a^2/2 and
     I = m a^2/6), on a cube of the same mass m/8, four corners a face:
     the ground contact sinks n g / omega_s^2, the one under box k
     2 (n - k + 1) g / omega_d^2; the top box of n rests
     n g / omega_s^2 + n (n - 1) g / omega_d^2 below its start (5.867 mm
     for five boxes, 106 mm for twenty);
   - Havok: HP_World_SetIdealStepTime (HavokPhysics.d.ts:524-528): the
     solver is adjusted only for a step that differs from the ideal one,
     and 0 disables the adjustment, so at h = 1/60 the ideal 1/60 and 0
     give the same rows to the bit.

Ends with "N passed, N failed"."""
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import max_or_nan  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# the adapters' folder (another tree's, to show the checks failing against it)
ENGINES = os.environ.get("VB_STACK_ENGINES", os.path.join(ROOT, "engines"))
ENGINE_FILES = {"jolt": "jolt/contact.js", "havok": "havok/contact.js", "rapier3d": "rapier3d/contact.js"}
G = 9.81
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def box(k, n_size=0.1, m=1.0, ratio=1.0, shift=0.0, g=G):
    """box k (0 the bottom) of the model stack (src/models/stack.c): mass m
    ratio^k, moments m a^2/6, centre at (k shift a, 0, (k + 1/2) a)"""
    a, mk = n_size, m * ratio ** k
    inertia = mk * a * a / 6.0
    return {"mass": mk, "inertia": [inertia] * 3, "x0": [k * shift * a, 0.0, (k + 0.5) * a],
            "v0": [0.0, 0.0, 0.0], "q0": [1.0, 0.0, 0.0, 0.0], "w0_body": [0.0, 0.0, 0.0],
            "w0_world": [0.0, 0.0, 0.0], "gravity": [0.0, 0.0, -g], "box": [a, a, a]}


def stack(run, n=5, hz=60, seconds=1.0, mu=0.5, ratio=1.0, bodies=None):
    """the contract's request: n boxes of 0.1 m, mu on every pair"""
    dt = 1.0 / hz
    return {"kind": "run", "run": run, "model": "stack", "protocol": 5,
            "params": {"n": n, "size": 0.1, "ratio": ratio, "shift": 0, "mu": mu, "m": 1, "g": G},
            "bodies": bodies if bodies is not None else [box(k, ratio=ratio) for k in range(n)],
            "contact": {"wall": {"normal": [0, 0, 1], "offset": 0}, "gravity": [0, 0, -G], "restitution": 0,
                        "threshold": 0, "friction": mu, "friction_static": mu, "friction_kinetic": mu,
                        "shape": {"kind": "box", "edges": [0.1, 0.1, 0.1]}, "centre": [0, 0, 0]},
            "plan": "fixed", "level": 0, "dt": dt, "h": [dt] * int(round(seconds * hz)),
            "header": "# verletbench run=%s model=stack" % run}


def one_body(req, run):
    """the same box alone on the ground: protocol 4's request (§6.5)"""
    r = {k: v for k, v in req.items() if k != "bodies"}
    r.update(run=run, protocol=4, model="box-incline", body=req["bodies"][0])
    return r


def serve(engine, requests, *opts):
    """the adapter's output for the requests, one process: (exit status,
    its lines, {run: [rows]} of the runs that ended)"""
    p = subprocess.run(["node", os.path.join(ENGINES, ENGINE_FILES[engine]), *opts],
                       input="".join(json.dumps(r) + "\n" for r in requests), capture_output=True, text=True,
                       timeout=120)
    lines = p.stdout.splitlines()
    runs, cur, rows = {}, None, []
    for line in lines:
        if line.startswith("# verletbench run="):
            cur, rows = line.split()[2][4:], [line]
        elif line.startswith("# verletbench-end run="):
            runs[line.split()[2][4:]] = rows
        elif cur is not None and not line.startswith("#"):
            rows.append(line)
    return p.returncode, lines, runs


def numbers(row):
    return [float(x) for x in row.split(",")]


def columns(n):
    names = ["x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"]
    return ",".join(["t"] + ["%s%d" % (c, k) for k in range(1, n + 1) for c in names])


def round_trip(engine):
    """the contract's rows for five boxes at 60 Hz"""
    req = stack("rt", seconds=0.5)
    rc, lines, runs = serve(engine, [req])
    check(rc == 0 and lines and lines[0].startswith("# verletbench-engine protocol=5 "),
          f"{engine}: capability line {lines[:1]}, exit {rc}: want protocol=5")
    rows = runs.get("rt")
    if not rows:
        check(False, f"{engine}: no rows for a stack: {lines[:4]}")
        return
    check(rows[0] == req["header"] and rows[1] == columns(5), f"{engine}: header and columns {rows[:2]}")
    data = [numbers(r) for r in rows[2:]]
    check(len(data) == len(req["h"]) + 1, f"{engine}: {len(data)} rows, want {len(req['h']) + 1}")
    want0 = [0.0] + [x for b in req["bodies"] for x in b["x0"] + b["q0"] + b["v0"] + b["w0_world"]]
    check(data[0] == want0, f"{engine}: row 0 {data[0][:14]} is not the request's bodies")
    check(all(len(r) == 1 + 13 * 5 and all(math.isfinite(x) for x in r) for r in data),
          f"{engine}: a row not 66 finite numbers")
    # t the steps summed in order (the helper's t += h); each quaternion
    # unit (float32: 1e-6) and its sign continuing the previous row's
    ts, t = [0.0], 0.0
    for h in req["h"]:
        t += h
        ts.append(t)
    check([r[0] for r in data] == ts, f"{engine}: t is not the steps summed")
    dots, norms = [], []
    for k in range(5):
        o = 1 + 13 * k + 3
        for a, b in zip(data, data[1:]):
            dots.append(sum(a[o + j] * b[o + j] for j in range(4)))
            norms.append(abs(math.sqrt(sum(b[o + j] ** 2 for j in range(4))) - 1))
    # NaN-keeping: a NaN makes both bounds fail
    worst_dot, worst_norm = -max_or_nan(-d for d in dots), max_or_nan(norms)
    check(worst_dot > 0.99 and worst_norm < 1e-6,
          f"{engine}: quaternion sign jumps (least q.q' {worst_dot}) or not unit ({worst_norm})")


def one_box(engine, *opts):
    """a stack of one box is that box alone on the ground, to the bit"""
    req = stack("s1", n=1, seconds=1.0)
    rc, lines, runs = serve(engine, [req, one_body(req, "b1")], *opts)
    a, b = runs.get("s1"), runs.get("b1")
    check(a is not None and b is not None and len(a) == len(req["h"]) + 3 and a[2:] == b[2:],
          f"{engine} {' '.join(opts)}: a stack of one box is not the box alone on the ground (exit {rc}, "
          f"{len(a or [])} and {len(b or [])} lines)")


def refusals(engine):
    bodies = [box(k) for k in range(3)]
    bad = [(stack("r1", bodies=[bodies[0], dict(bodies[1], mass=-1.0), bodies[2]]),
            "the request's bodies[2] 'mass' is not a positive number"),
           (stack("r2", bodies=[bodies[0], bodies[1], dict(bodies[2], box=[0.1, 0.1, 0.2])]),
            "the request's bodies[3] 'box'"),
           (dict(stack("r3", bodies=bodies), protocol=4), "the request's 'bodies' needs \"protocol\": 5"),
           (stack("r4", bodies=[bodies[0], dict(bodies[1], gravity=[0.0, 0.0, -1.0]), bodies[2]]),
            "the request's bodies[2] 'gravity' is not bodies[1]'s")]
    if engine != "havok":  # Jolt's and Rapier's one friction coefficient
        r = stack("r5", bodies=bodies)
        r["contact"] = dict(r["contact"], friction_kinetic=0.4)
        bad.append((r, "the request's contact has mu_s = 0.5 and mu_k = 0.4"))
    rc, lines, _ = serve(engine, [r for r, _ in bad] + [stack("after", bodies=bodies, seconds=0.1)])
    errors = [l for l in lines if l.startswith("# verletbench-error")]
    check(rc == 1 and len(errors) == len(bad), f"{engine}: exit {rc} and {len(errors)} error lines, want 1 and {len(bad)}")
    for (r, msg), line in zip(bad, errors + [""] * len(bad)):
        check(line.startswith(f"# verletbench-error run={r['run']} {msg}"), f"{engine}: {line!r}, want {msg!r}")
    check(any(l == "# verletbench-end run=after" for l in lines), f"{engine}: the stack after the refusals not served")


def bad_options():
    for engine, opt, msg in [("jolt", "iterations=0", "iterations=0: want a whole number >= 1"),
                             ("jolt", "substeps=1.5", "substeps=1.5: want a whole number >= 1"),
                             ("rapier3d", "iterations=0", "iterations=0: want a whole number >= 1")]:
        rc, lines, _ = serve(engine, [stack("o", n=2, seconds=0.1)], opt)
        check(rc == 1 and any(l.startswith("# verletbench-error run=o " + msg) for l in lines),
              f"{engine} {opt}: {lines[-1:]}, want {msg!r}")
    p = subprocess.run(["node", os.path.join(ENGINES, ENGINE_FILES["jolt"]), "warm=maybe"], input="",
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 2 and "option warm=maybe: want on or off" in p.stderr, f"jolt warm=maybe: {p.stderr!r}")


def jolt_substeps():
    """substeps=2 at 30 Hz is the 60 Hz run, every second row, to the bit"""
    rc, _, a = serve("jolt", [stack("s", seconds=1.0, hz=30)], "substeps=2")
    rc2, _, b = serve("jolt", [stack("s", seconds=1.0, hz=60)])
    ra, rb = a.get("s", [])[2:], b.get("s", [])[2:]
    strip = lambda row: row.split(",", 1)[1]  # t is the request's sum of steps, 1/30 against 2 x 1/60
    check(len(ra) == 31 and len(rb) == 61 and all(strip(x) == strip(y) for x, y in zip(ra, rb[::2])),
          f"jolt: substeps=2 at 30 Hz is not the 60 Hz run's every second row ({len(ra)}, {len(rb)} rows)")


def jolt_cold_start():
    """warm=on and warm=off: the first step the same, the second not"""
    _, _, a = serve("jolt", [stack("w", seconds=0.05)])
    _, _, b = serve("jolt", [stack("w", seconds=0.05)], "warm=off")
    ra, rb = a.get("w", []), b.get("w", [])
    check(len(ra) == 6 and len(rb) == 6 and ra[3] == rb[3] and ra[4] != rb[4],
          f"jolt: warm=on and off not the same first step and another second ({len(ra)}, {len(rb)} lines)")


def rapier_sink():
    """each box's rest below its start, the springs' closed form"""
    ws, wd = 2 * math.pi * 60.0, 2 * math.pi * 30.0
    for n, hz in [(5, 60), (5, 240), (3, 120)]:
        _, _, runs = serve("rapier3d", [stack("k", n=n, hz=hz, seconds=3.0)])
        rows = runs.get("k")
        if not rows:
            check(False, f"rapier3d: no rows for {n} boxes at {hz} Hz")
            continue
        last = numbers(rows[-1])
        worst = 0.0
        for k in range(n):
            sink = (k + 0.5) * 0.1 - last[1 + 13 * k + 2]
            want = n * G / ws ** 2 + sum(2 * (n - j) * G / wd ** 2 for j in range(1, k + 1))
            worst = max_or_nan(worst, abs(sink - want) / want)
        # 1 %: measured within 6e-4 (float32 positions of 0.5 m, a residue of
        # the overdamped settling); a wrong frequency is a factor of 4
        check(worst <= 0.01, f"rapier3d: {n} boxes at {hz} Hz rest {worst:.3g} off the springs' closed form")


def havok_ideal():
    """at h = 1/60 the ideal step 1/60 and 0 are the same run"""
    _, _, a = serve("havok", [stack("i", seconds=1.0)])
    _, _, b = serve("havok", [stack("i", seconds=1.0)], "ideal=0.016666666666666666")
    check(a.get("i") is not None and a.get("i") == b.get("i"), "havok: ideal=1/60 is not ideal=0 at 60 Hz")


def main():
    for e in ENGINE_FILES:
        round_trip(e)
        one_box(e)
        refusals(e)
    one_box("jolt", "ground=box")
    one_box("rapier3d", "iters=1")
    bad_options()
    jolt_substeps()
    jolt_cold_start()
    rapier_sink()
    havok_ideal()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
