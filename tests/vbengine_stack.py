#!/usr/bin/env python3
"""vbengine_stack.py — both helpers' side of protocol 5, a stack of bodies
on the ground (docs/real-engines.md §7): the JavaScript one
(engines/lib/vbengine.js: spec.stack, checkStack, serveStack), held to the
protocol's text by a throw-away adapter written here, and the C one
(engines/lib/vbengine.c, vbserve.c: .stack, .step_stack, has_stack) by its
twin engines/check/stack-still.c (engines/build/vb-stack-still-c); each
answers every body's start for every step, or its attitude negated (q and
-q are one attitude: the helper must write the sign that continues the
previous row's).  The two helpers' refusals are the same words.

Independent truths: the request's own numbers (row 0 and the rows of a
world that does not move are the request's x0, q0, v0, w0 to the bit, as
String() writes a double exactly), the column names and the refusals'
messages the protocol states."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, "..", "engines", "lib", "vbengine.js")
ENGINES = os.path.join(HERE, "..", "engines", "build")
STILL_C = os.path.join(ENGINES, "vb-stack-still-c")
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


ADAPTER = """
const vb = require(%s);
const flip = process.argv.includes("flip");
vb.main({ name: "t", engine: "t@1", angvel: process.argv.includes("body") ? "body" : "world",
  argv: [], stack(req) {
    const bs = req.bodies;
    return { step(h) {
      return bs.flatMap((b) => [...b.x0, ...(flip ? b.q0.map((c) => -c) : b.q0), ...b.v0,
        ...(process.argv.includes("body") ? b.w0_body : b.w0_world)]);
    } };
  } });
"""

A = 0.1


def body(k, w=0.0):
    m = 2.0 ** k
    inertia = m * (A * A + A * A) / 12
    c, s = 0.6, 0.8  # a unit quaternion of exact doubles: a turn about x
    q = [c, s, 0.0, 0.0]
    # w0_world = R(q) w0_body for w0_body = (0, 0, w): R turns z to (0, -sin 2t, cos 2t)
    # with cos 2t = c^2 - s^2 and sin 2t = 2 c s
    return {"mass": m, "inertia": [inertia] * 3, "x0": [0.01 * k, 0.0, A / 2 + k * A],
            "v0": [0.0, 0.0, 0.0], "q0": q, "w0_body": [0.0, 0.0, w],
            "w0_world": [0.0, -2 * c * s * w, (c * c - s * s) * w],
            "gravity": [0.0, 0.0, -9.81], "box": [A, A, A]}


def request(run, bodies, **kw):
    r = {"kind": "run", "run": run, "model": "stack", "protocol": 5, "params": {},
         "bodies": bodies,
         "contact": {"wall": {"normal": [0, 0, 1], "offset": 0}, "gravity": [0, 0, -9.81],
                     "restitution": 0, "threshold": 0, "friction": 0.5,
                     "friction_static": 0.5, "friction_kinetic": 0.5,
                     "shape": {"kind": "box", "edges": [A, A, A]}, "centre": [0, 0, 0]},
         "plan": "fixed", "level": 0, "dt": 0.25, "h": [0.25, 0.25, 0.25],
         "header": "# verletbench run=" + run}
    r.update(kw)
    return r


def without(r, key):
    r = dict(r)
    del r[key]
    return r


def serve(cmd, reqs, *args):
    p = subprocess.run([*cmd, *args], input="".join(json.dumps(r) + "\n" for r in reqs),
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout.splitlines()


def helper_checks(name, cmd, flip, body_frame, p4_engine):
    """the rows, the refusals and a protocol-4 engine's refusal through one
    helper (cmd its test adapter; flip, body_frame its arguments for a
    negated quaternion and angvel=body); returns the refusals' messages"""
    bodies = [body(k, w=1.5) for k in range(3)]
    for args in ((), (flip,), (body_frame,)):
        rc, out = serve(cmd, [request("ok", bodies)], *args)
        check(rc == 0, f"{name} {args}: exit status {rc}")
        want_cap = "# verletbench-engine protocol=5 persistent=1 precision=float64 velocity=state"
        check(out and out[0].startswith(want_cap), f"{name} {args}: capability line {out[:1]}")
        cols = ["t"] + [f"{c}{k}" for k in (1, 2, 3) for c in
                        "x y z qw qx qy qz vx vy vz wx wy wz".split()]
        check(len(out) == 8 and out[2] == ",".join(cols), f"{name} {args}: the column line {out[2:3]}")
        wkey = "w0_body" if body_frame in args else "w0_world"
        want = [x for b in bodies for x in b["x0"] + b["q0"] + b["v0"] + b[wkey]]
        for i, line in enumerate(out[3:7]):
            row = [float(x) for x in line.split(",")]
            t = 0.25 * i
            check(row[0] == t and row[1:] == want,
                  f"{name} {args}: row {i} is not t = {t} and the request's bodies (q's sign kept): {line}")
        check(out[7:8] == ["# verletbench-end run=ok"], f"{name} {args}: end line {out[7:8]}")

    bad = [
        (request("b1", [body(0), dict(body(1), mass=-1)]),
         "the request's bodies[2] 'mass' is not a positive number"),
        (request("b2", bodies, protocol=4), "the request's 'bodies' needs \"protocol\": 5"),
        (request("b3", []), "the request's 'bodies' is not a list of 1 to 100 bodies"),
        (request("b4", [body(0)] * 101), "the request's 'bodies' is not a list of 1 to 100 bodies"),
        (request("b5", [body(0), dict(body(1), box=[A, A, 2 * A],
                                      inertia=[2 * 5 * A * A / 12, 2 * 5 * A * A / 12, 2 * 2 * A * A / 12])]),
         "the request's bodies[2] 'box' is not the contact's shape edges"),
        (request("b6", bodies, body=body(0)), "the request has both 'body' and 'bodies'"),
        (request("b7", [body(0), dict(body(1), q0=[1, 1, 0, 0])]),
         "the request's bodies[2] 'q0' is not a unit quaternion"),
        (without(request("b8", bodies), "contact"), "the request's 'contact' is missing (the ground under a stack)"),
        (request("b9", [body(0), dict(body(1), x0=[0.0, 0.0])]), "the request's bodies[2] 'x0' is not 3 numbers"),
    ]
    rc, out = serve(cmd, [r for r, _ in bad] + [request("after", bodies)])
    check(rc == 1, f"{name} refusals: exit status {rc}, want 1 (a request failed)")
    errors = [l for l in out if l.startswith("# verletbench-error")]
    for (r, msg), line in zip(bad, errors + [""] * len(bad)):
        check(line.startswith(f"# verletbench-error run={r['run']} {msg}"),
              f"{name} {r['run']}: {line!r}, want {msg!r}")
    check(len(errors) == len(bad), f"{name}: {len(errors)} error lines, want {len(bad)}")
    check("# verletbench-end run=after" in out, f"{name}: the request after the refusals was not served")

    # an engine of one body on the ground (protocol 4) refuses a stack by name
    rc, out = serve(p4_engine, [request("p4", bodies)])
    p4 = [l for l in out if l.startswith("# verletbench-error run=p4 ")]
    check(p4[:1] and p4[0].startswith("# verletbench-error run=p4 the request is a stack of bodies ('bodies', model "
                                      "'stack'); this engine takes none (protocol 4; a stack needs protocol 5)"),
          f"{name}: a protocol-4 engine: {out}")
    return errors + p4


def main():
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "stack-adapter.js")
    with open(path, "w") as f:
        f.write(ADAPTER % json.dumps(os.path.abspath(LIB)))
    said_js = helper_checks("js", ["node", path], "flip", "body",
                            ["node", os.path.join(HERE, "..", "engines", "check", "body-contact-exact.js")])
    if not os.access(STILL_C, os.X_OK):
        check(False, f"{STILL_C} is not built (make -C engines)")
    else:
        said_c = helper_checks("c", [STILL_C], "sign=flip", "angvel=body",
                               [os.path.join(ENGINES, "chipmunk-contact")])
        # the two helpers word every refusal alike (past the run's name)
        for js, c in zip(said_js, said_c):
            check(js == c, f"the C and the JavaScript helper word a refusal alike:\n  js: {js}\n   c: {c}")
        check(len(said_js) == len(said_c), f"{len(said_js)} refusals from js, {len(said_c)} from c")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
