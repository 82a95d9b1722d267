#!/usr/bin/env python3
"""engine.py — an external engine for verletbench, in Python with nothing
but its standard library: velocity Verlet, Dummer's time-corrected Verlet,
and position Verlet with Jakobsen's relaxation onto rods (for the models
with rods: the request's "rods").

    verletbench run cases/spring.case --out mine --engine "py-vv:2=python3 examples/engines/python/engine.py velocity-verlet"

To measure your own method, copy this file with engines/lib/vbengine.py
beside it and replace a class's start() and step() (and velocity() if it
keeps other state).  vbengine.py does the rest (docs/real-engines.md §1):
it reads the requests, gives each method the built-in model's force law
(the same operations in the same order as verletbench's, so this engine's
errors equal the built-in velocity-verlet's, tcv's and jakobsen's to the
last bit), writes a row after every step with 17 significant digits, and
serves every run of a sweep from one process that verletbench keeps
(protocol version 2's persistent mode: Python starts once, not once a run).
"""
import math
import os
import sys

# vbengine.py: beside this file (copied with it), else in the checkout
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "..", "engines", "lib")]
try:
    import vbengine as vb
except ImportError:
    sys.exit("engine.py: vbengine.py (verletbench's engines/lib/vbengine.py) is neither beside "
             "this file nor in the checkout it came from: copy it here")


class VelocityVerlet:
    """kick a h/2, drift v h, new a, kick a h/2"""

    def start(self, accel, x, v, h):
        self.accel, self.x, self.v = accel, list(x), list(v)
        self.a = accel(self.x, self.v)

    def step(self, h):
        half = 0.5 * h
        x, v, a = self.x, self.v, self.a
        for i in range(len(x)):
            v[i] += a[i] * half
            x[i] += v[i] * h
        self.a = a = self.accel(x, v)  # a velocity-dependent force sees the half-step v
        for i in range(len(x)):
            v[i] += a[i] * half

    def velocity(self):
        return self.v


class TimeCorrectedVerlet:
    """x+ = x + (x - x-) h/h' + a h^2, kept as d = x - x- (no cancellation)"""

    def start(self, accel, x, v, h):
        self.accel, self.hp, self.x = accel, h, list(x)
        self.a = accel(x, v)
        # the Taylor start: x_-1 = x0 - v0 h + a0 h^2/2
        self.d = [v[i] * h - 0.5 * self.a[i] * h * h for i in range(len(x))]

    def step(self, h):
        r, c = h / self.hp, h * h
        x, d, a = self.x, self.d, self.a
        for i in range(len(x)):
            d[i] = d[i] * r + a[i] * c
            x[i] += d[i]
        self.hp = h
        self.a = self.accel(x, [di / h for di in d])

    def velocity(self):
        return [self.d[i] / self.hp + 0.5 * self.a[i] * self.hp for i in range(len(self.x))]


class Jakobsen(TimeCorrectedVerlet):
    """Position Verlet, then a sweep over the rods as Jakobsen's "Advanced
    Character Physics" (2001) writes it: for each rod, delta = x1 - x2,
    diff = (|delta| - L)/|delta|, and the two ends moved along delta by
    their shares of diff (inverse masses; a pivot does not move).  Written
    from the paper, not from verletbench's C; with the same operations in
    the same order its positions are the built-in jakobsen's to the bit.
    The velocity is what a game engine has: (x - x-)/h."""

    def __init__(self, req):
        self.rods, self.dim = req.get("rods", []), req["dim"]
        self.w = [1.0 / m for m in req["masses"]]

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
            fi, fj = wi / (wi + wj) * diff, wj / (wi + wj) * diff
            for a in range(dim):
                x[i + a] -= fi * delta[a]
                if not pivot:
                    x[j + a] += fj * delta[a]

    def step(self, h):
        x, d, a = self.x, self.d, self.a
        for i in range(len(x)):
            d[i] = d[i] * 1.0 + a[i] * (h * h)
            x[i] += d[i]
        before = list(x)
        self.relax(x)
        for i in range(len(x)):
            d[i] += x[i] - before[i]  # the rods' correction is part of the step
        self.hp = h
        self.a = self.accel(x, [di / h for di in d])

    def velocity(self):
        return [di / self.hp for di in self.d]


METHODS = {"velocity-verlet": VelocityVerlet, "tcv": TimeCorrectedVerlet, "jakobsen": Jakobsen}


def make(req, opt):
    """One run: the method started from the request's x0, v0 and first step."""
    if req.get("rods") and METHOD != "jakobsen":
        # the force is gravity alone: without the rods' correction the
        # bodies would fall, and the scores would measure that
        raise vb.RequestError("the model %s has rods, and only jakobsen keeps them" % req["model"])
    method = Jakobsen(req) if METHOD == "jakobsen" else METHODS[METHOD]()
    method.start(vb.force_law(req["model"], req["params"], len(req["x0"])), req["x0"], req["v0"],
                 req["h"][0])

    def step(h):
        method.step(h)
        return method.x, method.velocity()
    return step


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in METHODS:
        sys.stderr.write("usage: engine.py {%s} < request(s)\n" % ",".join(METHODS))
        sys.exit(2)
    METHOD = sys.argv[1]
    vb.main("engine.py", make, argv=sys.argv[2:])
