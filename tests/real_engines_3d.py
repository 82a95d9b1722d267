#!/usr/bin/env python3
"""real_engines_3d.py BUILD_DIR — protocol 3 (a rigid body) and the 3D
engines of engines/ in make check (docs/real-engines.md, "Protocol version 3"
and "Adapting a 3D engine").  make check sets the engines up with
`make -C engines setup`.  No verletbench run is needed: this suite speaks
protocol 3 to the engines itself, to hold each to its source with requests
of its own making (tests/rigid_engines.py runs them through verletbench).

1. The helpers (engines/lib/vbengine.js, .py and .c, through their test
   engines engines/check/rigid-no-gyro.js, .py and .c): the capability line (protocol=3,
   angvel=) while the particle helpers still say protocol=2; the column line,
   row 0 from the request in the declared frame, one row a step, the end
   line; rows equal to the test engine's step computed here; the quaternion's
   sign continued when an engine returns -q; every bad body refused with one
   message (the same from the three helpers) and the next request served; many
   requests through one process byte for byte what each writes alone.
2. Each engine against what its own source says its step does, computed here
   (tests/engine_steps_3d.py has the steps and the source lines): cannon-es
   to the last bit; Bullet (float64 and float32, all four gyroscopic flags),
   ODE (gyroscopic on and off, infinitesimal and finite rotation, both
   steppers), Jolt (gyroscopic on and off), Rapier (1 and 4 substeps) and
   MuJoCo (Euler, RK4, implicit, implicitfast) to their precision's
   round-off; and each such step is far (100 times the tolerance) from every
   other engine scheme tried on the same body (10 times the tolerance), so
   each check can fail.  Two pairs are one scheme, as their sources say:
   Bullet's implicit flags in the world and in the body frame (the same
   Newton step, rotated), and MuJoCo's implicit and implicitfast on a
   standalone free body (engine_forward.c:1743-1763).
3. Havok has no source to read: it is held to the exact solution of a spin
   about a principal axis (w constant, the attitude turning about w), as
   every engine is, which checks each adapter's quaternion order and frames.

Ends with "N passed, N failed"."""
import json
import math
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_steps_3d as E  # noqa: E402
from suite import Suite, max_or_nan  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BUILD = os.path.join(ROOT, "engines", "build")
JS = lambda rel: "node " + os.path.join(ROOT, "engines", rel)  # noqa: E731
CHECK_JS = JS("check/rigid-no-gyro.js")
CHECK_C = os.path.join(BUILD, "vb-rigid-no-gyro-c")
CHECK_PY = "python3 " + os.path.join(ROOT, "engines", "check", "rigid-no-gyro.py")
GUARD = 300
EPS64 = 2.0 ** -52
EPS32 = 2.0 ** -23
COLUMNS = "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz"

SUITE = Suite("real engines 3D", GUARD)
check = SUITE.check


# ---- requests and answers ------------------------------------------------------------

def body_request(run, I=(1.0, 2.0, 3.0), w_body=(1.0, 2.0, 0.5), q0=None, h=None, m=1.0,
                 g=(0.0, 0.0, 0.0), x0=(0.0, 0.0, 0.0), v0=(0.0, 0.0, 0.0), box=None):
    """a protocol-3 request as the harness writes it (docs/real-engines.md §4.2)"""
    if q0 is None:  # 0.7 rad about (1, 2, 3): no axis of the body along a world axis
        q0 = E.qexp([1.0, 2.0, 3.0], 0.7 / math.sqrt(14.0))
    if h is None:  # 40 steps of 0.05 s +- 30 %: an adapter must take each h as it is
        h = [0.05 * (1.0 + 0.3 * math.sin(k)) for k in range(40)]
    body = {"mass": m, "inertia": list(I), "x0": list(x0), "v0": list(v0), "q0": list(q0),
            "w0_body": list(w_body), "w0_world": E.rotate(q0, w_body), "gravity": list(g)}
    if box:
        body["box"] = list(box)
    return {"kind": "run", "run": run, "model": "free-body", "protocol": 3, "plan": "random",
            "level": 0, "seed": 1, "dt": 0.05, "jitter": 0.3, "params": {}, "body": body,
            "h": h, "header": "# verletbench run=%s model=free-body" % run}


def serve(command, requests):
    """the engine's output for these request lines, its stderr and exit status"""
    text = "".join(json.dumps(r) + "\n" if not isinstance(r, str) else r + "\n" for r in requests)
    p = subprocess.run(command, shell=True, input=text, capture_output=True, text=True, timeout=GUARD,
                       cwd=ROOT)
    return p.stdout, p.stderr, p.returncode


def answers(out):
    """{run: {"lines": [...], "rows": [[floats]], "error": msg or None}} and the
    capability line"""
    lines = out.splitlines()
    cap = lines[0] if lines else ""
    runs, cur = {}, []
    for line in lines[1:]:
        if line.startswith("# verletbench-end run=") or line.startswith("# verletbench-error run="):
            end = line.split()[2][4:] if line.startswith("# verletbench-end") else None
            if end is None:
                rid, _, msg = line[len("# verletbench-error run="):].partition(" ")
                runs[rid] = {"lines": cur, "rows": [], "error": msg}
            else:
                rows = [[float(c) for c in l.split(",")] for l in cur if l and not l.startswith("#")
                        and not l.startswith("t,")]
                runs[end] = {"lines": cur, "rows": rows, "error": None}
            cur = []
        else:
            cur.append(line)
    return runs, cap


def caps(line):
    lead = "# verletbench-engine "
    return dict(t.split("=", 1) for t in line[len(lead):].split()) if line.startswith(lead) else None


def run_one(command, req):
    out, err, rc = serve(command, [req])
    got, _ = answers(out)
    a = got.get(req["run"])
    return (a["rows"] if a and a["error"] is None else None), err


# ---- the engines' rows against a step written out here --------------------------------

def scheme_rows(req, step, frame="world"):
    """the rows a step function gives on the request: [x, q, v, w] each step"""
    s = E.state0(req["body"])
    out = []
    for h in req["h"]:
        step(s, h)
        w = s["w"] if frame == "world" else E.unrotate(s["q"], s["w"])
        out.append(s["x"] + s["q"] + s["v"] + w)
    return out


def distance(rows, ref):
    """the largest difference over every row and column, each relative to
    max(1, |ref|) (the quaternion's sign ignored: q and -q are one attitude)"""
    worst = 0.0
    for r, s in zip(rows[1:], ref):
        q = r[4:8]
        if sum(a * b for a, b in zip(q, s[3:7])) < 0:
            q = [-c for c in q]
        got = r[1:4] + q + r[8:14]
        worst = max_or_nan(worst, max_or_nan(abs(a - b) / max(1.0, abs(b)) for a, b in zip(got, s)))
    return worst if len(rows) == len(ref) + 1 else float("inf")


def tolerance(eps, steps):
    """round-off of an engine in precision eps over `steps` steps: 16 eps a step.
    An engine's own arithmetic and this file's differ in the order of operations
    (and float32's rounding everywhere): each step adds a few eps to every
    quantity, and the body's tumbling carries it on.  Measured over the 40
    steps here: at most 0.15 of this (MuJoCo implicit, double; 0.06 for the
    float32 engines)."""
    return 16.0 * eps * steps


def held_to(name, command, req, own, others, eps, frame="world", exact=False):
    """the engine's rows equal its own scheme's to round-off (bit for bit if
    exact) and are 10 times the tolerance away from each other scheme: 50
    times the largest round-off measured, so that no scheme passes for
    another"""
    rows, err = run_one(command, req)
    check(rows is not None, "%s answers the request" % name, err)
    if rows is None:
        return
    tol = 0.0 if exact else tolerance(eps, len(req["h"]))
    d = distance(rows, scheme_rows(req, own[1], frame))
    check(d <= tol, "%s is %s to %s (largest difference %.3g, tolerance %.3g)"
          % (name, own[0], "the last bit" if exact else "round-off", d, tol))
    for other, step in others:
        d = distance(rows, scheme_rows(req, step, frame))
        check(d > 10.0 * max(tol, tolerance(eps, len(req["h"]))),
              "%s is not %s (difference %.3g): the check above can tell the schemes apart"
              % (name, other, d))


# ---- 1. the helpers ----------------------------------------------------------------------

def no_gyro_rows(req, frame):
    """the test engines' step (engines/check/rigid-no-gyro.*): v += g h, x += v h,
    q <- exp(h w / 2) q with the world w held, not normalised"""
    s = E.state0(req["body"])
    g = req["body"]["gravity"]
    out = []
    for h in req["h"]:
        E.kick_drift(s, h, g)
        s["q"] = E.qmul(E.qexp(s["w"], h), s["q"])
        w = s["w"] if frame == "world" else E.unrotate(s["q"], s["w"])
        out.append(s["x"] + s["q"] + s["v"] + w)
    return out


def test_capability_lines(tmp):
    """protocol=3 and angvel= from an engine of bodies; protocol 2, and no
    angvel, from the engines of particles, as before"""
    body_engines = [("check js", CHECK_JS, "world"), ("check c", CHECK_C, "world"),
                    ("check py", CHECK_PY, "world"),
                    ("check py angvel=body", CHECK_PY + " angvel=body", "body"),
                    ("check c angvel=body", CHECK_C + " angvel=body", "body"),
                    ("check js angvel=body", CHECK_JS + " angvel=body", "body"),
                    ("cannon-es body", JS("cannon-es/body.js"), "world"),
                    ("jolt", JS("jolt/adapter.js"), "world"), ("havok", JS("havok/adapter.js"), "world"),
                    ("rapier3d", JS("rapier3d/adapter.js"), "world"),
                    ("mujoco", JS("mujoco/adapter.js"), "body"),
                    ("bullet", os.path.join(BUILD, "bullet"), "world"),
                    ("bullet-f64", os.path.join(BUILD, "bullet-f64"), "world"),
                    ("ode", os.path.join(BUILD, "ode"), "world")]
    for name, cmd, frame in body_engines:
        out, err, rc = serve(cmd, [])
        c = caps(out.splitlines()[0] if out else "")
        check(c is not None and c.get("protocol") == "3" and c.get("angvel") == frame
              and c.get("persistent") == "1" and rc == 0,
              "%s: capability line says protocol=3 angvel=%s (%r)" % (name, frame, out[:160]), err)
    for name, cmd in [("euler-semi js", JS("check/euler-semi.js")),
                      ("euler-semi c", os.path.join(BUILD, "vb-euler-semi-c")),
                      ("euler-semi py", "python3 " + os.path.join(ROOT, "engines", "check", "euler-semi.py")),
                      ("planck", JS("planck/adapter.js")), ("chipmunk", os.path.join(BUILD, "chipmunk"))]:
        out, err, rc = serve(cmd, [])
        c = caps(out.splitlines()[0] if out else "")
        check(c is not None and c.get("protocol") == "2" and "angvel" not in c,
              "%s (particles): capability line still protocol=2, no angvel (%r)" % (name, out[:120]), err)


def test_rows(tmp):
    """header, columns, row 0 from the request, one row a step, the test
    engine's step, in each frame, from both helpers"""
    req = body_request("fixed-L0", g=(0.5, -9.81, 0.25), v0=(1.0, 2.0, -1.0), x0=(0.1, 0.2, 0.3))
    b = req["body"]
    for name, cmd, frame, eps in [("js", CHECK_JS, "world", EPS64), ("c", CHECK_C, "world", EPS64),
                                  ("py", CHECK_PY, "world", EPS64),
                                  ("py angvel=body", CHECK_PY + " angvel=body", "body", EPS64),
                                  ("js angvel=body", CHECK_JS + " angvel=body", "body", EPS64),
                                  ("c angvel=body", CHECK_C + " angvel=body", "body", EPS64)]:
        out, err, rc = serve(cmd, [req])
        got, _ = answers(out)
        a = got.get("fixed-L0")
        ok = a is not None and a["error"] is None
        check(ok and rc == 0, "%s: answers the request, exit 0" % name, err)
        if not ok:
            continue
        check(a["lines"][:2] == [req["header"], COLUMNS],
              "%s: the request's header, then the column line %s" % (name, COLUMNS), a["lines"][:2])
        w0 = b["w0_world"] if frame == "world" else b["w0_body"]
        check(a["rows"][0] == [0.0] + b["x0"] + b["q0"] + b["v0"] + w0,
              "%s: row 0 is the request's x0, q0, v0 and w0_%s exactly" % (name, frame), a["rows"][0])
        t = [0.0]
        for h in req["h"]:
            t.append(t[-1] + h)
        check(len(a["rows"]) == len(req["h"]) + 1 and [r[0] for r in a["rows"]] == t,
              "%s: one row a step, t the sum of the steps" % name)
        # the same operations here, in doubles: V8's and glibc's sin and cos may
        # differ in the last bit, 4 eps a step covers it
        d = distance(a["rows"], no_gyro_rows(req, frame))
        check(d <= 4 * eps * len(req["h"]), "%s: rows are the test engine's step (difference %.3g)"
              % (name, d))
    # angvel=body is the world w turned into the body: the helpers agree on it
    out_js, _, _ = serve(CHECK_JS + " angvel=body", [req])
    out_c, _, _ = serve(CHECK_C + " angvel=body", [req])
    out_py, _, _ = serve(CHECK_PY + " angvel=body", [req])
    rj, rc_ = answers(out_js)[0]["fixed-L0"]["rows"], answers(out_c)[0]["fixed-L0"]["rows"]
    rp = answers(out_py)[0]["fixed-L0"]["rows"]
    worst = max_or_nan(abs(x - y) for a, b2 in zip(rj, rc_) for x, y in zip(a, b2))
    check(worst <= 4 * EPS64 * len(req["h"]), "the js and c helpers' rows agree (%.3g)" % worst)
    # Python's math.sin and cos are the C library's: the same operations in
    # the same order as the C test engine give the same bits
    check(rp == rc_, "the py and c helpers' rows are the same numbers",
          [(a, b2) for a, b2 in zip(rp, rc_) if a != b2][:2])


def test_sign(tmp):
    """an engine that returns -q on every other step is written continued:
    the same bytes as without the flips"""
    req = body_request("fixed-L0", w_body=(3.0, 8.0, 2.0))  # several turns: q passes -q0
    for name, cmd in [("js", CHECK_JS), ("c", CHECK_C), ("py", CHECK_PY)]:
        keep, _, _ = serve(cmd, [req])
        flip, err, rc = serve(cmd + " sign=flip", [req])
        rows = answers(flip)[0]["fixed-L0"]["rows"]
        dots = [sum(a * b for a, b in zip(r[4:8], s[4:8])) for r, s in zip(rows, rows[1:])]
        check(rc == 0 and min(dots) > 0 and flip == keep,
              "%s: -q written as the q that continues the last row (smallest dot %.3g)"
              % (name, min(dots)), err)


BAD = [
    # (what is wrong, change to the request, the message's text)
    ("protocol 2", lambda r: r.update(protocol=2), "the request's 'body' needs \"protocol\": 3"),
    ("no inertia", lambda r: r["body"].pop("inertia"), "the request's body 'inertia' is not 3 numbers"),
    ("a moment <= 0", lambda r: r["body"].update(inertia=[1.0, 0.0, 1.0]),
     "the request's body 'inertia' is not 3 positive numbers (principal moments)"),
    ("no rigid body's moments", lambda r: r["body"].update(inertia=[1.0, 2.0, 4.0]),
     "the request's body 'inertia' [1, 2, 4] is no rigid body's: I3 = 4 > I1 + I2 = 3"),
    ("mass 0", lambda r: r["body"].update(mass=0), "the request's body 'mass' is not a positive number"),
    ("q0 not unit", lambda r: r["body"].update(q0=[1.0, 0.0, 0.0, 0.001]),
     "the request's body 'q0' is not a unit quaternion (|q0| = 1.000000499999875; want 1 to 1e-12)"),
    ("q0 of 3", lambda r: r["body"].update(q0=[1.0, 0.0, 0.0]), "the request's body 'q0' is not 4 numbers"),
    ("w0_world not R w0_body", lambda r: r["body"].update(w0_world=[1.0, 2.0, 0.5]),
     "the request's body 'w0_world' is not R(q0) w0_body (they differ by"),
    ("box of other moments", lambda r: r["body"].update(box=[1.0, 1.0, 1.0]),
     "the request's body 'box' [1, 1, 1] does not give the moments: m (b^2 + c^2)/12 = 0.16666666666666666 "
     "for I1 = 1"),
    ("body not an object", lambda r: r.update(body=[1, 2]), "the request's 'body' is not an object"),
    ("no gravity", lambda r: r["body"].pop("gravity"), "the request's body 'gravity' is not 3 numbers"),
]


def test_bad_requests(tmp):
    """each bad body: one error line naming the key, the same from both
    helpers; the next request served; exit status 1 at the end"""
    good = body_request("good")
    for what, change, text in BAD:
        bad = body_request("bad")
        change(bad)
        msgs = []
        for name, cmd in [("js", CHECK_JS), ("c", CHECK_C), ("py", CHECK_PY)]:
            out, err, rc = serve(cmd, [bad, good])
            got, _ = answers(out)
            e = got.get("bad", {}).get("error")
            msgs.append(e)
            check(e is not None and e.startswith(text) and "good" in got and got["good"]["error"] is None
                  and len(got["good"]["rows"]) == 41 and rc == 1,
                  "%s, %s: refused with %r, the next request served, exit 1 (got %r, exit %d)"
                  % (name, what, text, e, rc), err)
        check(msgs[0] == msgs[1] == msgs[2], "%s: the same message from the three helpers" % what,
              msgs)
    # a body to an engine of particles, particles to an engine of bodies
    spring = {"kind": "run", "run": "spring", "model": "spring", "dim": 1, "particles": 1,
              "masses": [1.0], "x0": [1.0], "v0": [0.0], "params": {"k": 1.0, "m": 1.0},
              "h": [0.1, 0.1], "header": "# verletbench run=spring", "protocol": 2}
    for name, cmd in [("euler-semi js", JS("check/euler-semi.js")),
                      ("euler-semi c", os.path.join(BUILD, "vb-euler-semi-c")),
                      ("euler-semi py", "python3 " + os.path.join(ROOT, "engines", "check", "euler-semi.py"))]:
        out, err, rc = serve(cmd, [good, spring])
        got, _ = answers(out)
        check(got.get("good", {}).get("error") == "the request has a rigid body ('body'); this engine "
              "takes particles only (protocol 2)" and got.get("spring", {}).get("error") is None,
              "%s: a body refused by an engine of particles, which goes on" % name, out[-300:])
    for name, cmd in [("js", CHECK_JS), ("c", CHECK_C), ("py", CHECK_PY)]:
        out, err, rc = serve(cmd, [spring, good])
        got, _ = answers(out)
        check(got.get("spring", {}).get("error") == "this engine takes a rigid body (protocol 3); the "
              "request (model 'spring') has no 'body'" and got.get("good", {}).get("error") is None,
              "%s: particles refused by an engine of bodies, which goes on" % name, out[-300:])


def test_persistent(tmp):
    """many requests through one process: each answer byte for byte what a
    process of its own writes (nothing carried from one run to the next)"""
    reqs = [body_request("a"), body_request("b", I=(2.0, 3.0, 4.0), w_body=(0.3, 0.1, 5.0), m=2.0,
                                            box=[math.sqrt(15.0), 3.0, math.sqrt(3.0)]),
            body_request("c", g=(0.0, -9.81, 0.0), v0=(1.0, 0.0, 0.0))]
    for name, cmd in [("check js", CHECK_JS), ("check c", CHECK_C), ("check py", CHECK_PY),
                      ("ode", os.path.join(BUILD, "ode")),
                      ("jolt gyro=on", JS("jolt/adapter.js") + " gyro=on")]:
        together, err, rc = serve(cmd, reqs)
        alone = ""
        for i, r in enumerate(reqs):
            out, _, _ = serve(cmd, [r])
            alone += out if i == 0 else out.split("\n", 1)[1]  # one capability line
        check(rc == 0 and together == alone and together.count("# verletbench-end") == 3,
              "%s: three requests in one process, each as alone, byte for byte" % name, err)


# ---- 2. each engine against its source --------------------------------------------------------

def test_cannon(tmp):
    """Body.integrate: the world w changes only by torque, q by the first-order
    update and normalize: the same double operations, so to the last bit"""
    req = body_request("cannon", g=(0.5, -9.81, 0.25), v0=(1.0, 2.0, -1.0), m=2.0)
    b, g = req["body"], req["body"]["gravity"]
    rows, err = run_one(JS("cannon-es/body.js"), req)
    check(rows is not None and all(r[11:14] == b["w0_world"] for r in rows),
          "cannon-es: the world angular velocity of a tumbling body is w0 exactly, every row", err)
    held_to("cannon-es", JS("cannon-es/body.js"), req,
            ("cannon's Body.integrate", lambda s, h: E.cannon_step(s, h, b["mass"], g)),
            [("the exponential map", lambda s, h: E.bullet_step(s, h, b["inertia"], "none", g))],
            EPS64, exact=True)


def bullet_schemes(I, g):
    return [(flag, (lambda f: lambda s, h: E.bullet_step(s, h, I, f, g))(flag))
            for flag in ("implicit-body", "implicit-world", "explicit", "none")]


# computeGyroscopicImpulseImplicit_World (btRigidBody.cpp:336-370) is the body
# frame's Newton step with every vector and the tensor turned by R (a x b and
# the Jacobian turn with it): one scheme, equal to round-off (2.8e-15 measured)
SAME = {"implicit-body": "implicit-world", "implicit-world": "implicit-body"}


def test_bullet(tmp):
    """each gyroscopic flag against its btRigidBody formula and
    integrateTransform; float64 and Bullet's default float build"""
    req = body_request("bullet", g=(0.5, -9.81, 0.25), v0=(1.0, 2.0, -1.0))
    schemes = bullet_schemes(req["body"]["inertia"], req["body"]["gravity"])
    for build, eps in (("bullet-f64", EPS64), ("bullet", EPS32)):
        for flag, step in schemes:
            if build == "bullet" and flag in ("implicit-world", "explicit"):
                continue  # the float build: two flags are enough to show the same code
            held_to("%s gyro=%s" % (build, flag), "%s gyro=%s" % (os.path.join(BUILD, build), flag), req,
                    (flag + " (btRigidBody.cpp, btTransformUtil.h)", step),
                    [(f, s) for f, s in schemes if f != flag and f != SAME.get(flag)], eps)


def test_ode(tmp):
    """gyroscopic mode on (Lacoursiere's implicit step, step.cpp:650-703) and
    off, infinitesimal and finite rotation (util.cpp:600-660), both steppers"""
    req = body_request("ode", g=(0.5, -9.81, 0.25), v0=(1.0, 2.0, -1.0))
    I, g = req["body"]["inertia"], req["body"]["gravity"]
    schemes = {(gy, fin): (lambda a, b: lambda s, h: E.ode_step(s, h, I, a, b, g))(gy, fin)
               for gy in (True, False) for fin in (False, True)}
    label = lambda gy, fin: "gyro %s, %s rotation" % ("on" if gy else "off", "finite" if fin else "infinitesimal")  # noqa: E731
    for stepper in ("step", "quick"):
        for (gy, fin), step in schemes.items():
            if stepper == "quick" and (gy, fin) != (True, False):
                continue  # quickstep.cpp:1192-1250 has the same gyroscopic code: its default is enough
            cmd = "%s gyro=%s rot=%s stepper=%s" % (os.path.join(BUILD, "ode"), "on" if gy else "off",
                                                   "finite" if fin else "infinitesimal", stepper)
            held_to("ode %s %s" % (stepper, label(gy, fin)), cmd, req, (label(gy, fin), step),
                    [(label(*k), s) for k, s in schemes.items() if k != (gy, fin)]
                    + [("Bullet's implicit body step", lambda s, h: E.bullet_step(s, h, I, "implicit-body", g))],
                    EPS64)


def no_rescale(I, g):
    """Jolt's step without its rescaling of |L|: explicit Euler on L"""
    def step(s, h):
        wb = E.unrotate(s["q"], s["w"])
        L = E.mul_elem(I, wb)
        L2 = E.sub(L, E.scale(E.cross(wb, L), h))
        s["w"] = E.rotate(s["q"], [L2[i] / I[i] for i in range(3)])
        E.kick_drift(s, h, g)
        s["q"] = E.qnormalize(E.qmul(E.qexp(s["w"], h), s["q"]))
    return step


def test_jolt(tmp):
    """ApplyGyroscopicForceInternal (explicit, |L| rescaled) when on, nothing
    when off; the exponential map (Body::AddRotationStep); float32"""
    req = body_request("jolt", g=(0.5, -9.81, 0.25), v0=(1.0, 2.0, -1.0))
    I, g = req["body"]["inertia"], req["body"]["gravity"]
    on = ("the explicit step rescaled to |L| (MotionProperties.inl:99-125)",
          lambda s, h: E.jolt_step(s, h, I, True, g))
    off = ("no gyroscopic term", lambda s, h: E.jolt_step(s, h, I, False, g))
    rows, err = run_one(JS("jolt/adapter.js") + " gyro=off", req)
    f32 = [struct.unpack("f", struct.pack("f", c))[0] for c in req["body"]["w0_world"]]
    check(rows is not None and all(max_or_nan(abs(a - b) for a, b in zip(r[11:14], f32)) <= EPS32 for r in rows),
          "jolt gyro=off: the world angular velocity holds (to float32's rounding of w0)", err)
    held_to("jolt gyro=on", JS("jolt/adapter.js") + " gyro=on", req, on,
            [off, ("the explicit step without the rescaling", no_rescale(I, g)),
             ("Bullet's implicit body step", lambda s, h: E.bullet_step(s, h, I, "implicit-body", g))], EPS32)
    held_to("jolt gyro=off", JS("jolt/adapter.js") + " gyro=off", req, off, [on], EPS32)


def test_rapier(tmp):
    """Jolt's gyroscopic step at every substep, the first-order rotation
    update, numSolverIterations substeps (worker.rs); float32"""
    req = body_request("rapier", v0=(1.0, 2.0, -1.0))
    I, g = req["body"]["inertia"], req["body"]["gravity"]
    sub = lambda n: ("%d substeps of the rescaled explicit step, first-order rotation" % n,  # noqa: E731
                     lambda s, h: E.rapier_step(s, h, I, n, g))
    jolt = ("Jolt's step (the exponential map)", lambda s, h: E.jolt_step(s, h, I, True, g))
    held_to("rapier3d iters=1", JS("rapier3d/adapter.js") + " iters=1", req, sub(1), [sub(4), jolt], EPS32)
    held_to("rapier3d iters=4", JS("rapier3d/adapter.js") + " iters=4", req, sub(4), [sub(1), jolt], EPS32)


def test_mujoco(tmp):
    """mj_Euler, mj_RungeKutta, mj_implicit with implicit and implicitfast
    (engine_forward.c); w in the body frame"""
    req = body_request("mujoco", g=(0.5, -9.81, 0.25), v0=(1.0, 2.0, -1.0))
    I, g = req["body"]["inertia"], req["body"]["gravity"]
    step = lambda integ: (lambda s, h: E.mujoco_step(s, h, I, integ, g))  # noqa: E731
    names = {"Euler": "semi-implicit Euler on Euler's equations", "RK4": "classical RK4",
             "implicit": "one Newton step of backward Euler in the body frame",
             "implicitfast": "one Newton step of backward Euler in the body frame"}
    for integ in ("Euler", "RK4", "implicit", "implicitfast"):
        others = [(o, step(o)) for o in ("Euler", "RK4", "implicit") if names[o] != names[integ]]
        held_to("mujoco integrator=%s" % integ, JS("mujoco/adapter.js") + " integrator=" + integ, req,
                (names[integ], step(integ)), others, EPS64, frame="body")


# ---- 3. the exact solution of a spin about a principal axis --------------------------------------

def test_principal_spin(tmp):
    """a spin about a principal axis is steady: w stays w0 and the attitude
    turns about w0 (q q0^-1 has its vector part along w0).  Every engine,
    every scheme: the gyroscopic term is 0 there.  It checks each adapter's
    quaternion order and frames; Havok, whose source is closed, is held to it
    alone.  Tolerance: the precision's round-off (16 eps a step)."""
    q0 = E.qexp([1.0, 2.0, 3.0], 0.7 / math.sqrt(14.0))
    req = body_request("spin", w_body=(0.0, 0.0, 5.0), q0=q0, h=[1.0 / 60.0] * 60)
    axis = req["body"]["w0_world"]
    for name, cmd, eps, frame in [
            ("havok", JS("havok/adapter.js"), EPS32, "world"), ("jolt", JS("jolt/adapter.js") + " gyro=on", EPS32, "world"),
            ("rapier3d", JS("rapier3d/adapter.js"), EPS32, "world"), ("cannon-es", JS("cannon-es/body.js"), EPS64, "world"),
            ("mujoco", JS("mujoco/adapter.js"), EPS64, "body"), ("bullet", os.path.join(BUILD, "bullet"), EPS32, "world"),
            ("ode", os.path.join(BUILD, "ode"), EPS64, "world")]:
        rows, err = run_one(cmd, req)
        check(rows is not None, "%s answers the spin" % name, err)
        if rows is None:
            continue
        tol = tolerance(eps, 60) * 5.0  # |w| = 5: the w columns' size
        w_want = axis if frame == "world" else req["body"]["w0_body"]
        dw = max_or_nan(abs(a - b) for r in rows for a, b in zip(r[11:14], w_want))
        perp = 0.0
        for r in rows:
            d = E.qmul(r[4:8], E.qconj(q0))  # the rotation since t = 0, world frame
            perp = max_or_nan(perp, E.norm(E.cross(d[1:], axis)) / 5.0)
        check(dw <= tol and perp <= tolerance(eps, 60),
              "%s: a spin about a principal axis is steady (w off by %.3g, tolerance %.3g; the turn off "
              "its axis by %.3g)" % (name, dw, tol, perp))


def main():
    missing = [p for p in (os.path.join(ROOT, "engines", "node_modules", "jolt-physics"),
                           os.path.join(ROOT, "engines", "node_modules", "@mujoco", "mujoco"), CHECK_C,
                           os.path.join(BUILD, "bullet-f64"), os.path.join(BUILD, "ode"))
               if not os.path.exists(p)]
    if missing:
        check(False, "the engines are set up (make check runs make -C engines setup): missing %s" % missing)
        print("%d passed, %d failed" % (SUITE.passed, SUITE.failed))
        return 1
    return SUITE.main([test_capability_lines, test_rows, test_sign, test_bad_requests, test_persistent,
                       test_cannon, test_bullet, test_ode, test_jolt, test_rapier, test_mujoco,
                       test_principal_spin])


if __name__ == "__main__":
    sys.exit(main())
