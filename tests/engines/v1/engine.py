#!/usr/bin/env python3
"""engine.py — a protocol-1 engine for the tests (tests/protocol2.py,
tests/engines/bad.py): the shipped example (examples/engines/python/) as it
was before it became persistent, one process a run, kept to hold protocol
version 1 to its tables.  In Python with nothing but its standard library: velocity Verlet, Dummer's time-corrected Verlet,
and position Verlet with Jakobsen's relaxation onto rods (for the models
with rods: the request's "rods").

verletbench runs it once a run, with the run as one line of JSON on standard
input, and reads the trajectory from standard output (docs/engines.md):

    verletbench run cases/spring.case --out mine --engine "py-vv:2=python3 examples/engines/python/engine.py velocity-verlet"

To measure your own method, replace step() (and start()/velocity() if it
keeps other state) and keep the rest: read the request, start from x0 and
v0, take exactly the steps h in "h", and print a row after every one of
them, with 17 significant digits (repr does).

The force laws below are written with the same operations, in the same
order, as verletbench's own models, so this engine's errors equal the
built-in velocity-verlet's and tcv's to the last bit (the same IEEE double
arithmetic; math.sin is the C library's sin)."""
import json
import math
import sys


def force_law(model, p, n):
    """a(x, v) for the models this engine knows, as flat lists of n."""
    if model == "spring":
        w2 = p["k"] / p["m"]
        return lambda x, v: [-w2 * x[0]]
    if model == "damped-spring":
        k, c, m = p["k"], p["c"], p["m"]
        return lambda x, v: [-(k * x[0] + c * v[0]) / m]
    if model == "pendulum":
        w2 = p["g"] / p["L"]
        return lambda x, v: [-w2 * math.sin(x[0])]
    if model == "projectile":
        g = p["g"]
        return lambda x, v: [0.0, -g]
    if model == "orbit":
        mu = p["mu"]

        def orbit(x, v):
            r2 = x[0] * x[0] + x[1] * x[1]
            k = -mu / (r2 * math.sqrt(r2))
            return [k * x[0], k * x[1]]
        return orbit
    if model == "chain":
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
    if model == "two-body":
        G, m1, m2 = p["G"], p["m1"], p["m2"]

        def two_body(x, v):
            dx, dy = x[2] - x[0], x[3] - x[1]
            r2 = dx * dx + dy * dy
            k = G / (r2 * math.sqrt(r2))
            return [k * m2 * dx, k * m2 * dy, -k * m1 * dx, -k * m1 * dy]
        return two_body
    if model in ("rod-pendulum", "double-pendulum", "hanging-chain"):
        # bodies on rods: the force law is gravity alone, and the rods are
        # the request's "rods", which the method keeps (Jakobsen below)
        g = p["g"]
        return lambda x, v: [0.0 if i % 2 == 0 else -g for i in range(n)]
    raise SystemExit("engine.py: model %r is not one this engine knows "
                     "(spring, damped-spring, pendulum, projectile, orbit, chain, two-body, "
                     "rod-pendulum, double-pendulum, hanging-chain)" % model)


class VelocityVerlet:
    """kick a h/2, drift v h, new a, kick a h/2"""

    def start(self, accel, x, v, h):
        self.x, self.v = list(x), list(v)
        self.a = accel(self.x, self.v)

    def step(self, accel, h):
        half = 0.5 * h
        x, v, a = self.x, self.v, self.a
        for i in range(len(x)):
            v[i] += a[i] * half
            x[i] += v[i] * h
        self.a = a = accel(x, v)   # a velocity-dependent force sees the half-step v
        for i in range(len(x)):
            v[i] += a[i] * half

    def velocity(self):
        return self.v


class TimeCorrectedVerlet:
    """x+ = x + (x - x-) h/h' + a h^2, kept as d = x - x- (no cancellation)"""

    def start(self, accel, x, v, h):
        self.hp = h
        self.x = list(x)
        self.a = accel(x, v)
        # the Taylor start: x_-1 = x0 - v0 h + a0 h^2/2
        self.d = [v[i] * h - 0.5 * self.a[i] * h * h for i in range(len(x))]

    def step(self, accel, h):
        r, c = h / self.hp, h * h
        x, d, a = self.x, self.d, self.a
        for i in range(len(x)):
            d[i] = d[i] * r + a[i] * c
            x[i] += d[i]
        self.hp = h
        self.a = accel(x, [di / h for di in d])

    def velocity(self):
        return [self.d[i] / self.hp + 0.5 * self.a[i] * self.hp for i in range(len(self.x))]


class Jakobsen:
    """Position Verlet, then a sweep over the rods as Jakobsen's "Advanced
    Character Physics" (2001) writes it: for each rod, delta = x1 - x2,
    diff = (|delta| - L)/|delta|, and the two ends moved along delta by
    their shares of diff (inverse masses; a pivot does not move).  Written
    from the paper, not from verletbench's C; with the same operations in
    the same order its positions are the built-in jakobsen's to the bit.
    The velocity is what a game engine has: (x - x-)/h."""

    def __init__(self, rods=(), dim=2, masses=()):
        self.rods, self.dim = rods, dim
        self.w = [1.0 / m for m in masses]

    def start(self, accel, x, v, h):
        self.hp = h
        self.x = list(x)
        self.a = accel(x, v)
        self.d = [v[i] * h - 0.5 * self.a[i] * h * h for i in range(len(x))]

    def relax(self, x):
        dim = self.dim
        for rod in self.rods:
            i, j = rod["i"] * dim, rod["j"] * dim
            pivot = rod["j"] < 0
            other = rod["pivot"] if pivot else x[j:j + dim]
            delta = [x[i + a] - other[a] for a in range(dim)]
            length2 = 0.0
            for a in range(dim):
                length2 += delta[a] * delta[a]
            length = math.sqrt(length2)
            if not length > 0.0:
                continue
            diff = (length - rod["length"]) / length
            wi = self.w[rod["i"]]
            wj = 0.0 if pivot else self.w[rod["j"]]
            w = wi + wj
            fi, fj = wi / w * diff, wj / w * diff
            for a in range(dim):
                x[i + a] -= fi * delta[a]
                if not pivot:
                    x[j + a] += fj * delta[a]

    def step(self, accel, h):
        x, d, a = self.x, self.d, self.a
        for i in range(len(x)):
            d[i] = d[i] * 1.0 + a[i] * (h * h)
            x[i] += d[i]
        before = list(x)
        self.relax(x)
        for i in range(len(x)):
            d[i] += x[i] - before[i]   # the rods' correction is part of the step
        self.hp = h
        self.a = accel(x, [di / h for di in d])

    def velocity(self):
        return [di / self.hp for di in self.d]


METHODS = {"velocity-verlet": VelocityVerlet, "tcv": TimeCorrectedVerlet, "jakobsen": Jakobsen}


def columns(dim, particles):
    """the trajectory's header: t, the positions, then the velocities"""
    axes = "xyz"[:dim]
    if dim == 1 and particles == 1:
        return ["t", "x", "v"]
    if particles == 1:
        pos = list(axes)
    else:
        pos = ["%s%d" % (c, i + 1) for i in range(particles) for c in axes]
    return ["t"] + pos + ["v" + c for c in pos]


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in METHODS:
        raise SystemExit("usage: engine.py {%s} < request.json" % ",".join(METHODS))
    req = json.loads(sys.stdin.readline())
    n = req["dim"] * req["particles"]
    accel = force_law(req["model"], req["params"], n)
    steps = req["h"]
    if sys.argv[1] == "jakobsen":
        method = Jakobsen(req.get("rods", []), req["dim"], req["masses"])
    elif req.get("rods"):
        # the force is gravity alone: without the rods' correction the
        # bodies would fall, and the scores would measure that
        raise SystemExit("engine.py %s: the model %s has rods, and only jakobsen keeps them"
                         % (sys.argv[1], req["model"]))
    else:
        method = METHODS[sys.argv[1]]()
    out = sys.stdout
    out.write(req["header"] + "\n")
    out.write(",".join(columns(req["dim"], req["particles"])) + "\n")
    x, v = req["x0"], req["v0"]
    t = 0.0
    out.write(",".join(map(repr, [t] + x + v)) + "\n")
    method.start(accel, x, v, steps[0])
    rows = []
    for h in steps:
        method.step(accel, h)
        t += h
        rows.append(",".join(map(repr, [t] + method.x + method.velocity())))
        if len(rows) == 4096:
            out.write("\n".join(rows) + "\n")
            rows.clear()
    if rows:
        out.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
