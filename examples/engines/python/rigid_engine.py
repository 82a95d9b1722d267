#!/usr/bin/env python3
"""rigid_engine.py — a rotation method of your own for verletbench, in Python
with nothing but its standard library: a rigid body stepped by McLachlan's
splitting (second order, symplectic) or by Jolt's explicit gyroscopic step
(first order, what a game engine does).

    verletbench run cases/dzhanibekov.case --out mine --engine "py-split:2=python3 examples/engines/python/rigid_engine.py rigid-splitting"

verletbench sends each run of a rigid body's case (models free-body and
symmetric-top) as a body: its moments, mass, gravity and start
(docs/real-engines.md §4, protocol version 3), and measures the rows that
come back as it measures its built-in rotation methods: the attitude error
and its order, the flips, the flip period, the drift of the angular momentum.

To measure your own method, copy this file with engines/lib/vbengine.py
beside it and replace a class's step().  A step advances s, a
vb.RigidState: s.x, s.v (the centre of mass and its velocity, world frame),
s.q (the attitude (w, x, y, z), world from body) and s.w (the angular
velocity in the BODY frame, along the principal axes), for the body's
moments s.I, mass s.m and gravity s.g.  vbengine.py does the rest: it reads
the requests, checks each body, writes a row after every step with 17
significant digits (w in the body frame: angvel=body) and serves every run
of a sweep from one process.  vb.quat_mul, vb.quat_exp, vb.quat_normalise,
vb.cross and vb.dot use the same operations in the same order as
verletbench's C, so these two methods' rows equal the built-in
rigid-splitting's and rigid-explicit-gyro's to round-off
(tests/rigid_example_engines.py).
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
    sys.exit("rigid_engine.py: vbengine.py (verletbench's engines/lib/vbengine.py) is neither "
             "beside this file nor in the checkout it came from: copy it here")


def principal_rotation(s, L, k, tau):
    """The exact flow of L_k^2 / (2 I_k) for a time tau: the body turns about
    its principal axis k by alpha = tau L_k / I_k, q <- q (cos(alpha/2),
    sin(alpha/2) e_k), and the body-frame L, the same world vector seen from
    the turned body, by -alpha (cos and sin of alpha from the half angle, so
    that L turns exactly as q does and the world L stays put)."""
    alpha = tau * L[k] / s.I[k]
    ch, sh = math.cos(0.5 * alpha), math.sin(0.5 * alpha)
    r = [ch, 0.0, 0.0, 0.0]
    r[1 + k] = sh
    s.q = vb.quat_mul(s.q, r)
    c, sn = ch * ch - sh * sh, 2.0 * sh * ch
    i, j = (k + 1) % 3, (k + 2) % 3
    Li, Lj = L[i], L[j]
    L[i] = c * Li + sn * Lj
    L[j] = -sn * Li + c * Lj


class Splitting:
    """McLachlan (1993), Touma & Wisdom (1994): the free body's energy split
    into its three principal terms, each flow exact, composed symmetrically
    R1(h/2) R2(h/2) R3(h) R2(h/2) R1(h/2); the centre of mass by
    kick-drift-kick, exact under uniform gravity.  Second order, symplectic,
    the world angular momentum kept to round-off."""

    def step(self, s, h):
        L = [s.I[0] * s.w[0], s.I[1] * s.w[1], s.I[2] * s.w[2]]
        for k, tau in ((0, 0.5 * h), (1, 0.5 * h), (2, h), (1, 0.5 * h), (0, 0.5 * h)):
            principal_rotation(s, L, k, tau)
        s.q = vb.quat_normalise(s.q)
        s.w = [L[i] / s.I[i] for i in range(3)]
        for i in range(3):
            s.v[i] += 0.5 * h * s.g[i]
            s.x[i] += h * s.v[i]
            s.v[i] += 0.5 * h * s.g[i]


class ExplicitGyro:
    """Jolt's step with mApplyGyroscopicForce (MotionProperties.inl:99-125,
    Body.inl:81-98): L' = L - h w x L in the body, rescaled to the old |L|,
    w = I^-1 L'; then v += h g, x += h v (symplectic Euler) and the attitude
    by the exponential map of the new w.  First order; it keeps |L| but pumps
    energy in, so a stable spin tumbles (docs/rigid.md §4)."""

    def step(self, s, h):
        L = [s.I[0] * s.w[0], s.I[1] * s.w[1], s.I[2] * s.w[2]]
        c = vb.cross(s.w, L)
        Ln = [L[i] - h * c[i] for i in range(3)]
        n2 = vb.dot(Ln, Ln)
        scale = math.sqrt(vb.dot(L, L) / n2) if n2 > 0.0 else 0.0
        s.w = [Ln[i] * scale / s.I[i] for i in range(3)]
        for i in range(3):
            s.v[i] += h * s.g[i]
            s.x[i] += h * s.v[i]
        s.q = vb.quat_normalise(vb.quat_mul(s.q, vb.quat_exp([h * s.w[0], h * s.w[1], h * s.w[2]])))


METHODS = {"rigid-splitting": Splitting, "rigid-explicit-gyro": ExplicitGyro}


def body(req, opt):
    """One run: the method on the request's body."""
    s, method = vb.RigidState(req), METHODS[METHOD]()

    def step(h):
        method.step(s, h)
        return s.row()
    return step


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in METHODS:
        sys.stderr.write("usage: rigid_engine.py {%s} < request(s)\n" % ",".join(METHODS))
        sys.exit(2)
    METHOD = sys.argv[1]
    vb.main("rigid_engine.py", body=body, angvel="body", argv=sys.argv[2:])
