"""vbengine.py — the shared half of a verletbench engine adapter in Python
(standard library only): the request reader, the built-in models' force
laws, the row writer and the loop of protocol versions 2 and 3
(docs/real-engines.md).  An adapter is the part that knows its engine:

    import sys, os
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
    import vbengine as vb

    def make(req, opt):
        ... build the world from req (x0, v0, masses, params, rods) ...
        def step(h):
            ...                      # advance the engine by exactly h
            return x, v              # the state after the step, flat lists
        return step                  # or an object with .step(h) (and .free())

    vb.main("myengine", make, engine="pyode@1.2.0", precision="float64",
            velocity="state", options={"iters": "10", "force": ["before", "callback"]})

main() reads requests from standard input, one JSON line each, until the end
of the input: one request is protocol 1 (one process a run), many are
protocol 2's persistent mode.  For each it writes the request's header, the
column line and row 0 (from the request's x0 and v0), then a row after every
step(h), then the end line.  Every line it adds beyond protocol 1 starts with
'#', so a verletbench that speaks only protocol 1 reads the same trajectory.

An engine of rigid bodies (protocol 3, docs/real-engines.md "Protocol version
3: a rigid body") gives body= instead of, or beside, make:

    def body(req, opt):              # req["body"]: mass, inertia, x0, v0, q0, w0_body, w0_world, gravity, box
        ... build a world with one body ...
        def step(h):
            ...
            return x + q + v + w     # 13 numbers: x, q = (w, x, y, z), v, w in the frame of angvel
        return step

    vb.main("myengine", body=body, angvel="world")     # or "body"

Its capability line says protocol=3 and angvel=; its rows are
t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz, row 0 from the request's body, the
quaternion world-from-body with w first and the sign that continues the
previous row's (q and -q are one attitude).  A method of your own steps
RigidState (the body of the request in the body frame, as the built-in
rotation methods keep it) with quat_mul, quat_exp, quat_normalise, cross and
dot, which use the same operations in the same order as verletbench's
(src/numerics/quaternion.c): examples/engines/python/rigid_engine.py.

Numbers are written with repr(), the shortest text that reads back as the
same double.  The force laws use the same operations in the same order as
verletbench's models (src/models/NAME.c); math.sin is the C library's, so even
the pendulum's force is the built-in one to the last bit."""
import json
import math
import os
import re
import sys

# the protocol of an engine of particles; one that takes rigid bodies (an
# adapter with body=) says 3
PROTOCOL = 2
BODY_PROTOCOL = 3

# the models whose force law is gravity alone, and whose rods (the request's
# "rods") the engine must keep
ROD_MODELS = ("rod-pendulum", "double-pendulum", "hanging-chain")
MODELS = ("spring", "damped-spring", "pendulum", "projectile", "orbit", "chain", "two-body",
          "figure-eight", "henon-heiles") + ROD_MODELS


class RequestError(Exception):
    """A request this adapter cannot serve: one clear message."""


# ---- the force laws ----------------------------------------------------------------

def force_law(model, p, n):
    """a(x, v) of a built-in model, flat lists of n = dim * particles; the
    comments name the C function each copies."""
    if model == "spring":  # src/models/spring.c accel
        w2 = p["k"] / p["m"]
        return lambda x, v: [-w2 * x[0]]
    if model == "damped-spring":  # src/models/damped_spring.c accel
        k, c, m = p["k"], p["c"], p["m"]
        return lambda x, v: [-(k * x[0] + c * v[0]) / m]
    if model == "pendulum":  # src/models/pendulum.c accel (w2: pendulum_solution.c)
        w2 = p["g"] / p["L"]
        return lambda x, v: [-w2 * math.sin(x[0])]
    if model == "projectile":  # src/models/projectile.c accel
        g = p["g"]
        return lambda x, v: [0.0, -g]
    if model == "orbit":  # src/models/orbit.c accel
        mu = p["mu"]

        def orbit(x, v):
            r2 = x[0] * x[0] + x[1] * x[1]
            k = -mu / (r2 * math.sqrt(r2))
            return [k * x[0], k * x[1]]
        return orbit
    if model == "chain":  # src/models/chain.c accel
        w2 = p["k"] / p["m"]

        def chain(x, v):
            a = [0.0] * n
            if n == 1:
                a[0] = w2 * ((0.0 - x[0]) + (0.0 - x[0]))
                return a
            left, mid = 0.0, x[0]
            for i in range(n - 1):
                right = x[i + 1]
                a[i] = w2 * ((left - mid) + (right - mid))
                left, mid = mid, right
            a[n - 1] = w2 * ((left - mid) + (0.0 - mid))
            return a
        return chain
    if model == "two-body":  # src/models/two_body.c accel
        G, m1, m2 = p["G"], p["m1"], p["m2"]

        def two_body(x, v):
            dx, dy = x[2] - x[0], x[3] - x[1]
            r2 = dx * dx + dy * dy
            k = G / (r2 * math.sqrt(r2))
            return [k * m2 * dx, k * m2 * dy, -k * m1 * dx, -k * m1 * dy]
        return two_body
    if model == "figure-eight":  # src/models/figure_eight.c accel
        def figure_eight(x, v):
            a = [0.0] * 6
            for i in range(3):
                for j in range(i + 1, 3):
                    dx, dy = x[2 * j] - x[2 * i], x[2 * j + 1] - x[2 * i + 1]
                    r2 = dx * dx + dy * dy
                    k = 1.0 / (r2 * math.sqrt(r2))
                    a[2 * i] += k * dx
                    a[2 * i + 1] += k * dy
                    a[2 * j] -= k * dx
                    a[2 * j + 1] -= k * dy
            return a
        return figure_eight
    if model == "henon-heiles":  # src/models/henon_heiles.c accel
        return lambda x, v: [-x[0] - 2.0 * x[0] * x[1], -x[1] - x[0] * x[0] + x[1] * x[1]]
    if model in ROD_MODELS:  # rod_pendulum.c accel, linkage.c vb_linkage_gravity
        g = p["g"]
        return lambda x, v: [0.0 if i % 2 == 0 else -g for i in range(n)]
    raise RequestError("model %r has no force law here (%s)" % (model, ", ".join(MODELS)))


def gravity_of(req):
    """The constant gravity (0, -g) of the projectile and the rod models, as
    -g, for an engine's own gravity setting; None for the other models."""
    if req["model"] == "projectile" or req["model"] in ROD_MODELS:
        return -req["params"]["g"]
    return None


# ---- the request ---------------------------------------------------------------------

def check_request(req):
    """The fields an adapter relies on, checked once: a bad request is one
    clear message, not a KeyError deep in an engine.  Returns n."""
    def bad(what):
        raise RequestError("the request's " + what)
    if not isinstance(req, dict):
        bad("line is not a JSON object")
    if not isinstance(req.get("model"), str):
        bad("'model' is not a string")
    dim, parts = req.get("dim"), req.get("particles")
    if not (isinstance(dim, int) and 1 <= dim <= 3):
        bad("'dim' is not 1, 2 or 3")
    if not (isinstance(parts, int) and parts >= 1):
        bad("'particles' is not a whole number >= 1")
    n = dim * parts
    for key, length in (("masses", parts), ("x0", n), ("v0", n)):
        a = req.get(key)
        if not (isinstance(a, list) and len(a) == length and
                all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in a)):
            bad("'%s' is not %d numbers" % (key, length))
    h = req.get("h")
    if not (isinstance(h, list) and all(isinstance(x, (int, float)) and x > 0 for x in h)):
        bad("'h' is not a list of positive steps")
    if not isinstance(req.get("header"), str) or "\n" in req["header"]:
        bad("'header' is not one line")
    if not isinstance(req.get("params"), dict):
        bad("'params' is not an object")
    if req["model"] in ROD_MODELS and not isinstance(req.get("rods"), list):
        bad("'rods' are missing (a model with rods)")
    return n


# ---- a rigid body (protocol 3) ------------------------------------------------------

# the columns of a rigid body's rows (docs/real-engines.md, protocol version 3)
BODY_COLUMNS = ["t", "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"]

# How far a request's numbers may be from what they claim, and why (the
# JavaScript helper's, with the same reasons):
# - q0 is unit to 1e-12: normalised in double it is unit to a few 1e-16, and
#   17 digits keep that; a quaternion that is not unit is another attitude to
#   every engine that does not normalise it first;
# - w0_world is R(q0) w0_body to 1e-12 (1 + |w|): both are the harness's
#   doubles, one rotated from the other (a few ulps);
# - a box gives the moments m (b^2 + c^2)/12, ... to 1e-10 relative: the
#   harness computes the edges with square roots from the moments.
UNIT_TOL, FRAME_TOL, BOX_TOL = 1e-12, 1e-12, 1e-10


def js_number(x):
    """x as JavaScript's String(x) writes it, so that a message names a number
    as the JavaScript helper's does (tests/real_engines_3d.py holds the helpers
    to the same words): a whole number without ".0", and the exponent only
    below 1e-6 or from 1e21 on, without a leading zero."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == int(x) and abs(x) < 1e21:
        return str(int(x))
    r = repr(x)
    if "e" not in r:
        return r
    mant, exp = r.split("e")
    e = int(exp)
    if -7 < e < 21:
        import decimal
        return format(decimal.Decimal(r), "f")
    return "%se%s%d" % (mant, "+" if e > 0 else "-", abs(e))


def dot(a, b):
    """a . b, as vb_vec3_dot"""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    """a x b, as vb_vec3_cross"""
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def norm(a):
    """|a|: the square root of the sum of squares, in order (vb_magnitude's
    way for every number a rotation meets)"""
    s = 0.0
    for c in a:
        s += c * c
    return math.sqrt(s)


def quat_mul(a, b):
    """the Hamilton product a b of quaternions (w, x, y, z), as vb_quat_mul"""
    return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]]


def quat_normalise(q):
    """q / |q| (q itself when |q| is 0 or not finite), as vb_quat_normalise"""
    n = norm(q)
    if not (n > 0.0) or not math.isfinite(n):
        return list(q)
    return [c / n for c in q]


def quat_exp(r):
    """the unit quaternion of the rotation by the angle |r| about r:
    (cos(|r|/2), sin(|r|/2) r/|r|), as vb_quat_exp (sin(x)/x by its series
    below 1e-4, where the quotient loses nothing but 0/0 at 0)"""
    angle = norm(r)
    half = 0.5 * angle
    sinc = 1.0 - half * half / 6.0 if abs(half) < 1e-4 else math.sin(half) / half
    s = 0.5 * sinc
    return [math.cos(half), s * r[0], s * r[1], s * r[2]]


def rotate(q, v):
    """R(q) v for a unit quaternion q = (w, x, y, z), world from body: the
    JavaScript helper's rotate, the same operations"""
    w, x, y, z = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz),
            v[2] + w * tz + (x * ty - y * tx)]


def check_body(req):
    """The request's rigid body, checked once here so that a bad one is one
    clear message naming the key, the JavaScript helper's words: an engine
    given moments that no body has, or a q0 that is not a rotation, computes
    something, and nobody would know.  Returns the body."""
    def bad(what):
        raise RequestError("the request's " + what)

    def finite(x):
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
    if req.get("protocol") != BODY_PROTOCOL:
        bad("'body' needs \"protocol\": 3")
    b = req["body"]
    if not isinstance(b, dict):
        bad("'body' is not an object")

    def vec(key, n):
        a = b.get(key)
        if not (isinstance(a, list) and len(a) == n and all(finite(x) for x in a)):
            bad("body '%s' is not %d numbers" % (key, n))
        return a
    if not finite(b.get("mass")) or not b["mass"] > 0:
        bad("body 'mass' is not a positive number")
    I = vec("inertia", 3)
    if not all(x > 0 for x in I):
        bad("body 'inertia' is not 3 positive numbers (principal moments)")
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        if I[i] > (I[j] + I[k]) * (1 + 1e-12):
            bad("body 'inertia' [%s] is no rigid body's: I%d = %s > I%d + I%d = %s"
                % (", ".join(map(js_number, I)), i + 1, js_number(I[i]), j + 1, k + 1,
                   js_number(I[j] + I[k])))
    for key in ("x0", "v0", "w0_body", "w0_world", "gravity"):
        vec(key, 3)
    q = vec("q0", 4)
    n = math.hypot(*q)
    if not abs(n - 1) <= UNIT_TOL:
        bad("body 'q0' is not a unit quaternion (|q0| = %s; want 1 to %s)"
            % (js_number(n), js_number(UNIT_TOL)))
    wb, ww = b["w0_body"], b["w0_world"]
    r = rotate(q, wb)
    gap = math.hypot(r[0] - ww[0], r[1] - ww[1], r[2] - ww[2])
    if not gap <= FRAME_TOL * (1 + math.hypot(*ww)):
        bad("body 'w0_world' is not R(q0) w0_body (they differ by %s)" % js_number(gap))
    if "box" in b:
        e = vec("box", 3)
        if not all(x > 0 for x in e):
            bad("body 'box' is not 3 positive edge lengths")
        for i in range(3):
            j, k = (i + 1) % 3, (i + 2) % 3
            want = b["mass"] * (e[j] * e[j] + e[k] * e[k]) / 12
            if not abs(want - I[i]) <= BOX_TOL * I[i]:
                bad("body 'box' [%s] does not give the moments: m (b^2 + c^2)/12 = %s for I%d = %s"
                    % (", ".join(map(js_number, e)), js_number(want), i + 1, js_number(I[i])))
    h = req.get("h")
    if not (isinstance(h, list) and all(finite(x) and x > 0 for x in h)):
        bad("'h' is not a list of positive steps")
    if not isinstance(req.get("header"), str) or "\n" in req["header"]:
        bad("'header' is not one line")
    if not isinstance(req.get("model"), str):
        bad("'model' is not a string")
    return b


def continue_sign(q, prev):
    """q or -q, whichever is nearer prev: one attitude, written without jumps"""
    if q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0:
        return [-c for c in q]
    return list(q)


class RigidState:
    """The request's body as verletbench's rotation methods keep it
    (src/models/rigid.h): x and v of the centre of mass in the world, the
    attitude q = (w, x, y, z) world from body, the angular velocity w in the
    BODY frame along the principal axes; and the body's moments I, mass m
    and gravity g.  row() is the 13 numbers of a row with angvel="body"."""

    def __init__(self, req):
        b = req["body"]
        self.x, self.v = [float(c) for c in b["x0"]], [float(c) for c in b["v0"]]
        self.q, self.w = [float(c) for c in b["q0"]], [float(c) for c in b["w0_body"]]
        self.I, self.m = [float(c) for c in b["inertia"]], float(b["mass"])
        self.g = [float(c) for c in b["gravity"]]

    def row(self):
        return self.x + self.q + self.v + self.w


def columns(dim, particles, velocity="state"):
    """The column line: t, the positions, the velocities (docs/engines.md)."""
    axes = "xyz"[:dim]
    if dim == 1 and particles == 1:
        pos = ["x"]
    elif particles == 1:
        pos = list(axes)
    else:
        pos = ["%s%d" % (c, i + 1) for i in range(particles) for c in axes]
    if velocity == "none":
        vel = []
    elif dim == 1 and particles == 1:
        vel = ["v"]
    else:
        vel = ["v" + c for c in pos]
    return ["t"] + pos + vel


# ---- options ---------------------------------------------------------------------------

def parse_options(name, table, argv):
    """KEY=VALUE words against {key: default or [choices...]}: an unknown key
    or a value not among the choices stops with exit status 2."""
    opt = {k: (d[0] if isinstance(d, list) else float(d)) for k, d in table.items()}
    usage = " ".join("%s=%s" % (k, "|".join(d) if isinstance(d, list) else d)
                     for k, d in table.items())
    for a in argv:
        if a in ("--help", "-h"):
            sys.stdout.write("usage: %s [%s] < request(s)\n(defaults first; the requests are "
                             "JSON lines, docs/engines.md and docs/real-engines.md)\n"
                             % (name, usage))
            sys.exit(0)
        k, _, v = a.partition("=")
        if k not in table:
            die(name, "unknown option '%s'; the options are: %s" % (a, usage))
        d = table[k]
        if isinstance(d, list):
            if v not in d:
                die(name, "option %s=%s: want %s" % (k, v, " or ".join(d)))
            opt[k] = v
        else:
            try:
                opt[k] = float(v)
            except ValueError:
                die(name, "option %s=%s: want a number" % (k, v))
            if not math.isfinite(opt[k]):
                die(name, "option %s=%s: want a finite number" % (k, v))
    return opt


def die(name, msg):
    sys.stderr.write("%s: %s\n" % (name, msg))
    sys.exit(2)


# ---- the loop --------------------------------------------------------------------------

def capability_line(precision="float64", velocity="state", engine=None, substeps=None,
                    angvel=None):
    """Protocol 2's capability line (docs/real-engines.md): a comment to protocol 1.
    angvel (the frame of a body's w columns): an engine of rigid bodies, protocol 3."""
    caps = ["# verletbench-engine", "protocol=%d" % (BODY_PROTOCOL if angvel else PROTOCOL),
            "persistent=1", "precision=" + precision, "velocity=" + velocity]
    if angvel:
        caps.append("angvel=" + angvel)
    if substeps:
        caps.append("substeps=%d" % substeps)
    if engine:
        caps.append("engine=" + re.sub(r"\s", "_", engine))
    return " ".join(caps) + "\n"


def serve(line, make, opt, velocity, out, body=None, angvel=None):
    """One request: its trajectory and end line.  Returns False when the
    engine retires (serves no more).  Raises with .run set on failure."""
    run = "?"
    try:
        try:
            req = json.loads(line)
        except ValueError as e:
            raise RequestError("the request is not JSON: %s" % e)
        if isinstance(req, dict) and isinstance(req.get("run"), str) and \
                re.fullmatch(r"\S+", req["run"]):
            run = req["run"]
        if isinstance(req, dict) and req.get("kind", "run") != "run":
            return True  # requests.jsonl's "case" line: nothing to answer
        if isinstance(req, dict) and "body" in req:
            return serve_body(req, run, body, opt, angvel, out)
        if make is None:
            raise RequestError("this engine takes a rigid body (protocol %d); the request "
                               "(model '%s') has no 'body'"
                               % (BODY_PROTOCOL, req.get("model") if isinstance(req, dict) else None))
        n = check_request(req)
        world = make(req, opt)
        vel = velocity != "none"
        head = [req["header"], ",".join(columns(req["dim"], req["particles"], velocity)),
                ",".join(map(repr, [0.0] + req["x0"] + (req["v0"] if vel else [])))]

        def row_of(s, t):
            x, v = s[0], s[1]
            if len(x) != n or (vel and len(v) != n):
                raise RuntimeError("step() returned %d positions and %d velocities, want %d"
                                   % (len(x), len(v) if v else 0, n))
            return [t] + list(x) + (list(v) if vel else []), len(s) > 2 and s[2] == "retire"
        return write_trajectory(world, req, run, head, row_of, out)
    except Exception as e:
        e.run = run
        raise


def write_trajectory(world, req, run, head, row_of, out):
    """One request's answer: the lines of head (the header, the column line,
    row 0), a row after each step(h) of the world made for it, row_of(state,
    t) giving its numbers and whether the engine retires, then the end line.
    Returns False when the engine retires."""
    step = world if callable(world) else world.step
    rows, t, retire = list(head), 0.0, False
    try:
        for h in req["h"]:
            s = step(h)
            t += h
            numbers, done = row_of(s, t)
            rows.append(",".join(map(repr, numbers)))
            retire = retire or done
            if len(rows) >= 4096:
                out.write("\n".join(rows) + "\n")
                rows.clear()
    except Exception:
        # the rows made before the failure go out before its error line, as
        # the C helper's stream and the JavaScript helper write them: what
        # the harness reads of a failed run (its fail_step, the summary's
        # "engine-failed at step N") must not depend on this buffer
        if rows:
            out.write("\n".join(rows) + "\n")
        raise
    if hasattr(world, "free"):
        world.free()
    rows.append("# verletbench-end run=%s%s" % (run, " retire=1" if retire else ""))
    out.write("\n".join(rows) + "\n")
    out.flush()
    return not retire


def serve_body(req, run, body, opt, angvel, out):
    """One request of a rigid body: its 14-column trajectory, then the end
    line (the JavaScript helper's serveBody)."""
    if body is None:
        raise RequestError("the request has a rigid body ('body'); this engine takes particles "
                           "only (protocol %d)" % PROTOCOL)
    b = check_body(req)
    world = body(req, opt)
    w0 = b["w0_body"] if angvel == "body" else b["w0_world"]
    head = [req["header"], ",".join(BODY_COLUMNS),
            ",".join(map(repr, [0.0] + [float(c) for c in b["x0"] + b["q0"] + b["v0"] + w0]))]
    prev = [b["q0"]]

    def row_of(s, t):
        if s is None or len(s) < 13:
            raise RuntimeError("step() returned %d numbers, want 13 (x, q, v, w)"
                               % (len(s) if s is not None else 0))
        q = prev[0] = continue_sign(s[3:7], prev[0])
        return [t] + list(s[0:3]) + q + list(s[7:13]), len(s) > 13 and s[13] == "retire"
    return write_trajectory(world, req, run, head, row_of, out)


def main(name, make=None, engine=None, precision="float64", velocity="state", substeps=None,
         options=None, argv=None, body=None, angvel="world"):
    """Serve every request on standard input (docs/real-engines.md): with
    make, particles (protocol 2); with body, a rigid body (protocol 3, its
    w columns in the frame angvel says, "world" or "body"); with both, either."""
    if make is None and body is None:
        raise ValueError("vbengine.main needs make (particles) or body (a rigid body)")
    if angvel not in ("world", "body"):
        raise ValueError("vbengine.main: angvel=%r: want 'world' or 'body'" % (angvel,))
    opt = parse_options(name, options or {}, sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    out.write(capability_line(precision, velocity, engine, substeps, angvel if body else None))
    out.flush()
    failed = False
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            if not serve(line, make, opt, velocity, out, body, angvel):
                break  # retired
        except Exception as e:  # one request failed; the next may not
            failed = True
            msg = str(e) if isinstance(e, RequestError) else "%s: %s" % (type(e).__name__, e)
            msg = msg.splitlines()[0] if msg else type(e).__name__
            out.write("# verletbench-error run=%s %s\n" % (getattr(e, "run", "?"), msg))
            out.flush()
            sys.stderr.write("%s: run %s: %s\n" % (name, getattr(e, "run", "?"), msg))
            sys.stderr.flush()
    out.flush()
    # exit status 1 after a failed request: a protocol-1 harness, which sends
    # one request, reads that as the run's failure
    sys.exit(1 if failed else 0)


def npm_engine(pkg):
    """"name@version" of an npm package in engines/node_modules (provenance)."""
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "node_modules",
                               pkg, "package.json"), encoding="utf-8") as f:
            return "%s@%s" % (pkg, json.load(f)["version"])
    except (OSError, ValueError, KeyError):
        return pkg + "@unknown"
