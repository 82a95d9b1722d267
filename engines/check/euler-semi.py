#!/usr/bin/env python3
"""The Python helper's own test engine: symplectic Euler (v += a h, then
x += v h, as src/integrators/euler_semi.c) on the helper's force law.  Its
trajectories must be the built-in euler-semi's to the bit on every model
(check/persistent.py).  Not an engine to measure: a test."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import vbengine as vb  # noqa: E402


def make(req, opt):
    if opt["fail"] == "make" or req["run"] == "fail-make":
        raise vb.RequestError("asked to fail (make)")
    accel = vb.force_law(req["model"], req["params"], len(req["x0"]))
    x, v = list(req["x0"]), list(req["v0"])
    count = [0]

    def step(h):
        count[0] += 1
        if (opt["fail"] == "step" or req["run"] == "fail-step") and count[0] == 3:
            raise RuntimeError("asked to fail (step 3)")
        a = accel(x, v)
        for i in range(len(x)):
            v[i] += a[i] * h
            x[i] += v[i] * h
        return x, v
    return step


vb.main("vb-euler-semi-py", make, options={"fail": ["none", "make", "step"]})
