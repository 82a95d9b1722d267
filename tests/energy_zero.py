#!/usr/bin/env python3
"""energy_zero.py BUILD_DIR — where each model's potential energy is zero
(docs/method.md §3, "Where the potential energy is zero"), held to the code.

err_energy_max is |E_n - E_0|/|E_0|: the zero of the potential sets E_0.
`verletbench list` must say it for every built-in model with an energy (its
summary: "its potential zero ...") and say that the others have none; and
the energy the tool computes (`sim --trajectory`'s energy column) must be
the energy docs/method.md writes for each model, with its zero where the
page puts it, evaluated here from the same rows' positions and velocities:
a zero moved (the hanging chain's measured from the pivot, say) changes
every value by a constant and fails.  Rows 0 and the last of a short run
of each model, away from the zero, so a wrong zero cannot hide in a state
that happens to sit on it.  Tolerance 1e-12 of the energy's largest term:
the same arithmetic in another order differs by a few ulps of its terms.
Ends with "N passed, N failed"."""
import csv
import io
import math
import os
import sys

from suite import Suite, max_or_nan

S = Suite("energy zero", guard=300)
g_default = 9.81


def state(row, cols):
    pos = [c for c in cols if c not in ("t", "err_pos", "energy") and "_exact" not in c and
           not c.startswith("v")]
    vel = [c for c in cols if c.startswith("v") and "_exact" not in c]
    return [float(row[c]) for c in pos], [float(row[c]) for c in vel]


def pairs(x, dim):
    return [x[i:i + dim] for i in range(0, len(x), dim)]


def sq(a):
    return sum(t * t for t in a)


def dist(a, b):
    return math.sqrt(sum((p - q) ** 2 for p, q in zip(a, b)))


# model, sets, integrator, the energy as docs/method.md writes it: (terms)
# whose sum is E; terms, so the tolerance can scale with the largest
def projectile(x, v, p):
    return [sq(v) / 2, p["g"] * x[1]]  # zero at the launch height, y = 0


def spring(x, v, p):
    return [v[0] ** 2 / 2, p["k"] / p["m"] * x[0] ** 2 / 2]  # zero at x = 0


def orbit(x, v, p):
    return [sq(v) / 2, -p["mu"] / math.sqrt(sq(x))]  # zero at infinity


def pendulum(x, v, p):
    return [v[0] ** 2 / 2, p["g"] / p["L"] * (1 - math.cos(x[0]))]  # zero hanging down


def chain(x, v, p):
    ext = [0.0] + x + [0.0]  # the walls at 0: zero at rest, every mass at 0
    return [p["m"] * sq(v) / 2] + [p["k"] * (ext[i + 1] - ext[i]) ** 2 / 2
                                   for i in range(len(ext) - 1)]


def two_body(x, v, p):
    b = pairs(x, 2)
    u = pairs(v, 2)
    return [p["m1"] * sq(u[0]) / 2, p["m2"] * sq(u[1]) / 2,
            -p["G"] * p["m1"] * p["m2"] / dist(b[0], b[1])]  # zero at infinite separation


def figure_eight(x, v, p):
    b = pairs(x, 2)
    return [sq(v) / 2] + [-1.0 / dist(b[i], b[j]) for i in range(3) for j in range(i + 1, 3)]


def henon_heiles(x, v, p):
    X, Y = x
    return [sq(v) / 2, (X * X + Y * Y) / 2, X * X * Y, -Y ** 3 / 3]  # zero at the origin


def rod_pendulum(x, v, p):
    return [sq(v) / 2, p["g"] * (x[1] + p["L"])]  # zero at the bottom, y = -L


def linkage(lengths, masses):
    """sum m (|v|^2/2 + g h), h the height above the bead's place hanging
    straight down from the pivot at the origin: y_i + (l_0 + ... + l_i)"""
    def energy(x, v, p):
        b, u, terms, depth = pairs(x, 2), pairs(v, 2), [], 0.0
        for i, (m, l) in enumerate(zip(masses, lengths)):
            depth += l
            terms += [m * sq(u[i]) / 2, m * p["g"] * (b[i][1] + depth)]
        return terms
    return energy


MODELS = [
    ("projectile", {"g": g_default}, "velocity-verlet", projectile),
    ("spring", {"k": 2.0, "m": 1.0}, "velocity-verlet", spring),
    ("orbit", {"mu": 1.0}, "velocity-verlet", orbit),
    ("pendulum", {"g": g_default, "L": 1.0}, "velocity-verlet", pendulum),
    ("chain", {"N": 5, "k": 1.0, "m": 1.0}, "velocity-verlet", chain),
    ("two-body", {"m1": 1.0, "m2": 0.5, "G": 1.0}, "velocity-verlet", two_body),
    ("figure-eight", {}, "velocity-verlet", figure_eight),
    ("henon-heiles", {}, "velocity-verlet", henon_heiles),
    ("rod-pendulum", {"g": g_default, "L": 1.0}, "shake", rod_pendulum),
    ("double-pendulum", {"g": g_default, "L1": 1.0, "L2": 0.5, "m1": 1.0, "m2": 2.0}, "shake",
     linkage([1.0, 0.5], [1.0, 2.0])),
    ("hanging-chain", {"N": 4, "g": g_default, "L": 2.0, "m": 1.0}, "shake",
     linkage([0.5] * 4, [0.25] * 4)),
]
# the contact models have no energy callback: their wall takes energy away
# (e < 1, friction), and a handler's energy is measured in contact.csv
DISSIPATIVE = ("damped-spring", "impulse", "bounce", "slide", "tunnel")


def test_list_says_it(tmp):
    r = S.vb("list", "--csv")
    rows = {x["name"]: x for x in csv.DictReader(io.StringIO(r.stdout)) if x["kind"] == "model"}
    for name, *_ in MODELS:
        S.check(name in rows and "its potential zero " in rows[name]["summary"],
                "list: %s says where its potential energy is zero" % name,
                rows.get(name, {}).get("summary"))
    for name in DISSIPATIVE:
        S.check(name in rows and "dissipates energy" in rows[name]["summary"],
                "list: %s says it has no energy to conserve" % name)
    S.check(set(rows) == {m[0] for m in MODELS} | set(DISSIPATIVE),
            "every built-in model is one of these (a new one must say its zero too)",
            sorted(rows))
    r = S.vb("list")
    S.check("its potential zero at the launch height" in r.stdout.replace("\n", " ")
            .replace("                     ", ""), "list (text) says it too", r.stdout[-600:])


def test_energy_is_documented_one(tmp):
    for name, params, integ, energy in MODELS:
        traj = os.path.join(tmp, name + ".csv")
        args = ["sim", "--model", name, "--integrator", integ, "--t-end", "0.3", "--dt", "0.01",
                "--trajectory", traj]
        for k, v in params.items():
            args += ["--set", "%s=%s" % (k, v)]
        r = S.vb(*args)
        S.check(r.returncode == 0, "%s: sim exits 0" % name, r.stderr)
        if r.returncode != 0:
            continue
        with open(traj) as f:
            body = [l for l in f if not l.startswith("#")]
        rows = list(csv.DictReader(io.StringIO("".join(body))))
        cols = list(rows[0].keys())
        for row in (rows[0], rows[-1]):
            x, v = state(row, cols)
            terms = energy(x, v, params)
            want, got = math.fsum(terms), float(row["energy"])
            scale = max_or_nan(abs(t) for t in terms)
            S.check(abs(got - want) <= 1e-12 * scale,
                    "%s at t = %s: the energy is docs/method.md's, its zero where it says "
                    "(%r, want %r)" % (name, row["t"], got, want))


if __name__ == "__main__":
    sys.exit(S.main([test_list_says_it, test_energy_is_documented_one]))
