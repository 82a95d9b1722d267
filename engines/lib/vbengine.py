"""vbengine.py — the shared half of a verletbench engine adapter in Python
(standard library only): the request reader, the built-in models' force
laws, the row writer and the loop of protocol version 2
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

Numbers are written with repr(), the shortest text that reads back as the
same double.  The force laws use the same operations in the same order as
verletbench's models (src/models/NAME.c); math.sin is the C library's, so even
the pendulum's force is the built-in one to the last bit."""
import json
import math
import os
import re
import sys

PROTOCOL = 2

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

def capability_line(precision="float64", velocity="state", engine=None, substeps=None):
    """Protocol 2's capability line (docs/real-engines.md): a comment to protocol 1."""
    caps = ["# verletbench-engine", "protocol=%d" % PROTOCOL, "persistent=1",
            "precision=" + precision, "velocity=" + velocity]
    if substeps:
        caps.append("substeps=%d" % substeps)
    if engine:
        caps.append("engine=" + re.sub(r"\s", "_", engine))
    return " ".join(caps) + "\n"


def serve(line, make, opt, velocity, out):
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
        n = check_request(req)
        world = make(req, opt)
        step = world if callable(world) else world.step
        vel = velocity != "none"
        rows = [req["header"], ",".join(columns(req["dim"], req["particles"], velocity)),
                ",".join(map(repr, [0.0] + req["x0"] + (req["v0"] if vel else [])))]
        t, retire = 0.0, False
        for h in req["h"]:
            s = step(h)
            t += h
            x, v = s[0], s[1]
            if len(x) != n or (vel and len(v) != n):
                raise RuntimeError("step() returned %d positions and %d velocities, want %d"
                                   % (len(x), len(v) if v else 0, n))
            rows.append(",".join(map(repr, [t] + list(x) + (list(v) if vel else []))))
            if len(s) > 2 and s[2] == "retire":
                retire = True
            if len(rows) >= 4096:
                out.write("\n".join(rows) + "\n")
                rows.clear()
        if hasattr(world, "free"):
            world.free()
        rows.append("# verletbench-end run=%s%s" % (run, " retire=1" if retire else ""))
        out.write("\n".join(rows) + "\n")
        out.flush()
        return not retire
    except Exception as e:
        e.run = run
        raise


def main(name, make, engine=None, precision="float64", velocity="state", substeps=None,
         options=None, argv=None):
    """Serve every request on standard input (docs/real-engines.md)."""
    opt = parse_options(name, options or {}, sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    out.write(capability_line(precision, velocity, engine, substeps))
    out.flush()
    failed = False
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            if not serve(line, make, opt, velocity, out):
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
