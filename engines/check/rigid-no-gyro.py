#!/usr/bin/env python3
"""The Python helper's test engine for protocol 3 (a rigid body): the twin of
rigid-no-gyro.js, the same operations in the same order.  No gyroscopic term,
so the world angular velocity holds without torque (what cannon-es's
Body.integrate does), and the attitude turns by the exact rotation of angle
|w| h about w: q <- exp(h w / 2) q; then v += g h, x += v h.  Not an engine
to measure: a test of the helper (tests/real_engines_3d.py) and, with
quat=first (cannon-es's first-order update, q <- normalise(q + (h/2) (0, w) q),
the built-in rigid-no-gyro's step), of the harness's side of protocol 3.
angvel=body reports w in the body frame; sign=flip returns -q on every other
step, as an engine that keeps a matrix may (Bullet): the helper must write it
continued."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import vbengine as vb  # noqa: E402

OPTIONS = {"fail": ["none", "make", "step"], "angvel": ["world", "body"], "sign": ["keep", "flip"],
           "quat": ["exp", "first"]}


def body(req, o):
    if o["fail"] == "make" or req["run"] == "fail-make":
        raise vb.RequestError("asked to fail (make)")
    b = req["body"]
    x, v, w, g = list(b["x0"]), list(b["v0"]), list(b["w0_world"]), b["gravity"]
    state = {"q": list(b["q0"]), "k": 0, "n": 0}

    def step(h):
        state["n"] += 1
        if (o["fail"] == "step" or req["run"] == "fail-step") and state["n"] == 3:
            raise RuntimeError("asked to fail (step 3)")
        for i in range(3):
            v[i] += g[i] * h
            x[i] += v[i] * h
        q = state["q"]
        if o["quat"] == "first":
            # (0, w) q, then q += (h/2) that, normalised: the built-in's order
            d = [-w[0] * q[1] - w[1] * q[2] - w[2] * q[3],
                 w[0] * q[0] + w[1] * q[3] - w[2] * q[2],
                 -w[0] * q[3] + w[1] * q[0] + w[2] * q[1],
                 w[0] * q[2] - w[1] * q[1] + w[2] * q[0]]
            q = [c + 0.5 * h * d[i] for i, c in enumerate(q)]
            n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
            q = [c / n for c in q]
        else:
            length = math.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
            a = 0.5 * length * h
            s = math.sin(a) / length if length > 0 else 0.5 * h
            d = [math.cos(a), w[0] * s, w[1] * s, w[2] * s]
            q = [d[0] * q[0] - d[1] * q[1] - d[2] * q[2] - d[3] * q[3],
                 d[0] * q[1] + d[1] * q[0] + d[2] * q[3] - d[3] * q[2],
                 d[0] * q[2] - d[1] * q[3] + d[2] * q[0] + d[3] * q[1],
                 d[0] * q[3] + d[1] * q[2] - d[2] * q[1] + d[3] * q[0]]
        state["q"] = q
        # the body frame's w: R(q)^T w, the rotation by the conjugate
        out = vb.rotate([q[0], -q[1], -q[2], -q[3]], w) if o["angvel"] == "body" else list(w)
        flip = o["sign"] == "flip" and state["k"] % 2 == 0
        state["k"] += 1
        return x + ([-c for c in q] if flip else q) + v + out
    return step


if __name__ == "__main__":
    frame = "body" if "angvel=body" in sys.argv[1:] else "world"
    vb.main("vb-rigid-no-gyro-py", body=body, angvel=frame, options=OPTIONS)
