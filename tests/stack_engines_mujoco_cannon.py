#!/usr/bin/env python3
"""stack_engines_mujoco_cannon.py — MuJoCo (engines/mujoco/contact.js) and
cannon-es (engines/cannon-es/body-contact.js) on a stack of boxes, protocol 5
(issue 55; docs/real-engines.md §7), each adapter driven directly with
hand-written requests of the contract's form (five boxes of 0.1 m, mu 0.5).

Independent truths:
- the contract's text: the capability line, 1 + 13 n columns named x1 ..
  wz_n, row 0 the request's bodies, the refusals' messages;
- q and -q are one attitude: each row's quaternion continues the previous
  row's sign (a non-negative dot product);
- the adapter's own one-body answer (protocol 4): a stack of one box is the
  same world, so its rows are the bodyContact rows to the bit;
- MuJoCo's source (tag 3.12.0): a contact at distance 0 is excluded
  (engine_collision_driver.c:1855, exclude = dist >= includemargin, margin 0),
  so boxes that only touch fall freely for the first step: after it every box
  is g h^2 lower (mj_Euler: qvel += h qacc, then qpos += h qvel,
  engine_forward.c), to round-off;
- the engines' memory of a step: cannon's GSSolver starts every lambda at 0
  each step (dist/cannon-es.cjs.js:9923: no warm starting), so a world built
  afresh from the rows at step k steps to row k + 1 but for round-off, even
  with 1 iteration; MuJoCo with
  warm=off starts from qacc_smooth (engine_forward.c:1120-1125) and does the
  same; with warm=on (its default, disableflags 0, engine_init.c:99) it starts
  from last step's qacc (:1394, :1059-1065), which a fresh world has not, and
  its rows differ (the option reaches the engine);
- MuJoCo resets every body to qpos0 when a qvel passes 1e10
  (engine_forward.c:54-112): the run must fail, not go on."""
import json
import os
import subprocess
import sys

from suite import max_or_nan

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINES = os.path.join(HERE, "..", "engines")
MUJOCO = os.path.join(ENGINES, "mujoco", "contact.js")
CANNON = os.path.join(ENGINES, "cannon-es", "body-contact.js")
A, G, MU = 0.1, 9.81, 0.5
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def box(k, n_ratio=1.0):
    m = n_ratio ** k
    inertia = m * (A * A + A * A) / 12
    return {"mass": m, "inertia": [inertia] * 3, "x0": [0.0, 0.0, A / 2 + k * A], "v0": [0.0, 0.0, 0.0],
            "q0": [1.0, 0.0, 0.0, 0.0], "w0_body": [0.0, 0.0, 0.0], "w0_world": [0.0, 0.0, 0.0],
            "gravity": [0.0, 0.0, -G], "box": [A, A, A]}


def stack(run, bodies, h=1 / 60, steps=60, **kw):
    r = {"kind": "run", "run": run, "model": "stack", "protocol": 5,
         "params": {"n": len(bodies), "size": A, "ratio": 1, "shift": 0, "mu": MU, "m": 1, "g": G},
         "bodies": bodies,
         "contact": {"wall": {"normal": [0, 0, 1], "offset": 0}, "gravity": [0, 0, -G],
                     "restitution": 0, "threshold": 0, "friction": MU,
                     "friction_static": MU, "friction_kinetic": MU,
                     "shape": {"kind": "box", "edges": [A, A, A]}, "centre": [0, 0, 0]},
         "plan": "fixed", "level": 0, "dt": h, "h": [h] * steps, "header": "# verletbench run=" + run}
    r.update(kw)
    return r


def serve(path, reqs, *args):
    p = subprocess.run(["node", path, *args], input="".join(json.dumps(r) + "\n" for r in reqs),
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout.splitlines()


def rows(lines):
    return [[float(x) for x in l.split(",")] for l in lines if l and l[0] not in "#t"]


def round_trip(name, path, angvel):
    n, steps = 5, 120
    bodies = [box(k) for k in range(n)]
    rc, out = serve(path, [stack("rt", bodies, steps=steps)])
    check(rc == 0, f"{name}: exit status {rc}")
    check(out[:1] and out[0].startswith("# verletbench-engine protocol=5 ") and f" angvel={angvel} " in out[0],
          f"{name}: capability line {out[:1]}")
    cols = ["t"] + [f"{c}{k}" for k in range(1, n + 1) for c in "x y z qw qx qy qz vx vy vz wx wy wz".split()]
    check(out[2:3] == [",".join(cols)], f"{name}: column line {out[2:3]}")
    rs = rows(out)
    check(len(rs) == steps + 1 and all(len(r) == 1 + 13 * n for r in rs),
          f"{name}: {len(rs)} rows of {set(len(r) for r in rs)} numbers, want {steps + 1} of {1 + 13 * n}")
    want0 = [0.0] + [x for b in bodies for x in b["x0"] + b["q0"] + b["v0"] + b["w0_" + angvel]]
    check(rs[:1] == [want0], f"{name}: row 0 is not the request's bodies: {rs[:1]}")
    jumps = [(i, k) for i in range(1, len(rs)) for k in range(n)
             if sum(rs[i][1 + 13 * k + 3 + j] * rs[i - 1][1 + 13 * k + 3 + j] for j in range(4)) < 0]
    check(not jumps, f"{name}: quaternion sign jumps at (row, body) {jumps[:5]}")
    check(out[-1:] == ["# verletbench-end run=rt"], f"{name}: end line {out[-1:]}")
    return rs


def single_box(name, path):
    """a stack of one box against the adapter's one-body answer (protocol 4)"""
    b = dict(box(0), v0=[0.3, 0.1, 0.0], w0_body=[0.0, 0.0, 2.0], w0_world=[0.0, 0.0, 2.0])
    one = stack("one", [b])
    body = dict(stack("body", [b]), protocol=4, model="box-incline", body=b)
    del body["bodies"]
    rc, out = serve(path, [one, body])
    split = [i for i, l in enumerate(out) if l.startswith("# verletbench run=")] + [len(out)] * 2
    a, c = rows(out[split[0]:split[1]]), rows(out[split[1]:])
    check(rc == 0 and len(a) == 61 and a == c, f"{name}: a stack of one box is not its one-body rows to the bit")
    # the box slides and turns: the comparison is of a moving body
    check(len(a) == 61 and abs(a[-1][1]) > 1e-4, f"{name}: the single box did not move: {a[-1][:4]}")


def restart(path, *args):
    """row k + 1 of a run, and the row a fresh world built from row k steps to"""
    n, k = 5, 30
    rc, out = serve(path, [stack("whole", [box(j) for j in range(n)], steps=k + 1)], *args)
    rs = rows(out)
    if len(rs) != k + 2:
        return [], []
    fresh = []
    for j in range(n):
        s = rs[k][1 + 13 * j:1 + 13 * (j + 1)]
        w = s[10:13]
        # the body frame's w from the world frame's: R(q)^T w (only the w
        # columns of the adapter's own frame are passed on; the other is
        # checked to 1e-12 against it by the helper)
        fresh.append(dict(box(j), x0=s[0:3], q0=s[3:7], v0=s[7:10], w0_world=w, w0_body=w))
    return rs[k + 1][1:], fresh


def memory(name, path, args, angvel, tol):
    """a world built afresh from row 30 against row 31: within tol (None:
    must differ)"""
    last, fresh = restart(path, *args)
    n = len(fresh)
    if angvel == "body":  # rotate the body frame's w into the world's for the request
        for f in fresh:
            f["w0_world"] = rotate(f["q0"], f["w0_body"])
    else:
        for f in fresh:
            f["w0_body"] = rotate([f["q0"][0], -f["q0"][1], -f["q0"][2], -f["q0"][3]], f["w0_world"])
    rc, out = serve(path, [stack("fresh", fresh, steps=1)], *args) if fresh else (1, [])
    rs = rows(out)
    got = rs[1][1:] if len(rs) == 2 else []
    check(rc == 0 and len(got) == 13 * n, f"{name} {args}: the fresh world's run failed: {out[-2:]}")
    gap = max_or_nan((abs(a - b) for a, b in zip(got, last)), default=float("nan"))  # a NaN row fails
    if tol is None:
        check(gap > 0, f"{name} {args}: a world built afresh from row 30 steps to row 31 to the bit "
              "(warm starting has no effect)")
    else:
        check(gap <= tol, f"{name} {args}: a world built afresh from row 30 steps to row 31 "
              f"{gap} away, want {tol} (it remembers more than the rows)")


def rotate(q, v):
    w, x, y, z = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)]


def refusals(name, path, own):
    bodies = [box(k) for k in range(3)]
    bad = [
        (stack("r1", bodies, protocol=4), "the request's 'bodies' needs \"protocol\": 5"),
        (stack("r2", [box(0), dict(box(1), mass=-1)]), "the request's bodies[2] 'mass' is not a positive number"),
        (stack("r3", [box(0), dict(box(1), box=[A, A, 2 * A],
                                   inertia=[5 * A * A / 12, 5 * A * A / 12, 2 * A * A / 12])]),
         "the request's bodies[2] 'box' is not the contact's shape edges"),
        (stack("r4", bodies, body=box(0)), "the request has both 'body' and 'bodies'"),
    ] + own
    rc, out = serve(path, [r for r, _ in bad] + [stack("after", bodies, steps=2)])
    errors = [l for l in out if l.startswith("# verletbench-error")]
    check(rc == 1 and len(errors) == len(bad), f"{name}: exit {rc}, {len(errors)} error lines, want 1 and {len(bad)}")
    for (r, msg), line in zip(bad, errors + [""] * len(bad)):
        check(line.startswith(f"# verletbench-error run={r['run']} {msg}"), f"{name} {r['run']}: {line!r}, want {msg!r}")
    check("# verletbench-end run=after" in out, f"{name}: the request after the refusals was not served")
    p = subprocess.run(["node", path, "iterations=0"], input=json.dumps(stack("i0", bodies, steps=1)) + "\n",
                       capture_output=True, text=True, timeout=60)
    check("# verletbench-error run=i0 iterations=0: want a whole number >= 1" in p.stdout,
          f"{name}: iterations=0 {p.stdout.splitlines()[-1:]}")


def mujoco_first_step(rs):
    """engine_collision_driver.c:1855: boxes that only touch have no contact
    row, so the first step is a free fall of every box by g h^2.  The
    tolerance, 1e-15 m, is round-off of 0.05 + h (-g h) (a contact row of
    MuJoCo's impedance 0.9 would hold a box by 0.9 g h^2 = 2.5e-3 m)."""
    h = 1 / 60
    falls = [rs[0][1 + 13 * k + 2] - rs[1][1 + 13 * k + 2] for k in range(5)]
    check(all(abs(f - G * h * h) < 1e-15 for f in falls),
          f"mujoco: the first step's fall of each box {falls}, want g h^2 = {G * h * h}")


def mujoco_reset():
    """engine_forward.c:54-112: a qvel past mjMAXVAL = 1e10 (box 2's vx, dof
    6) makes mj_step reset every box to qpos0 at rest; the run fails, saying
    when and which dof, rather than write rows that are not MuJoCo's stack"""
    r = stack("reset", [box(0), dict(box(1), v0=[2e10, 0.0, 0.0])], steps=3)
    rc, out = serve(MUJOCO, [r])
    want = ("# verletbench-error run=reset MuJoCo reset the stack in its step from t = 0 to 0.01666667: "
            "mjWARN_BADQVEL (qvel[6] not finite or past mjMAXVAL = 1e10)")
    check(rc == 1 and any(l.startswith(want) for l in out), f"mujoco: a reset's run {out[-1:]}, want {want!r}")


def main():
    mj = [(stack("m1", [box(0)], contact=dict(stack("x", [])["contact"], restitution=0.5)),
           "the request's contact 'restitution' is 0.5: MuJoCo has no coefficient of restitution"),
          (stack("m2", [box(0)], contact=dict(stack("x", [])["contact"], friction_kinetic=0.4)),
           "the request's contact has mu_s = 0.5 and mu_k = 0.4: MuJoCo has one friction coefficient")]
    cn = [(stack("c1", [box(0)], contact=dict(stack("x", [])["contact"], friction_kinetic=0.4)),
           "the request's contact has mu_s = 0.5 and mu_k = 0.4: cannon-es has one friction coefficient")]
    for name, path, angvel, own in (("mujoco", MUJOCO, "body", mj), ("cannon-es", CANNON, "world", cn)):
        rs = round_trip(name, path, angvel)
        if name == "mujoco" and len(rs) == 121:
            mujoco_first_step(rs)
        single_box(name, path)
        refusals(name, path, own)
    # cannon keeps round-off between steps (measured 2e-15 m, m/s: its
    # polyhedra's cached world vertices, contact order), not impulses: a
    # warm start of its 1-iteration solver would carry a step's impulse,
    # velocities of order g h = 0.16 m/s; 1e-12 is far from both
    mujoco_reset()
    memory("cannon-es", CANNON, ("iterations=1",), "world", 1e-12)
    memory("mujoco", MUJOCO, ("warm=off",), "body", 0.0)
    memory("mujoco", MUJOCO, (), "body", None)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
