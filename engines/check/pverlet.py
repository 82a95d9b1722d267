#!/usr/bin/env python3
"""pverlet.py [columns=v] — a position-based engine for
the tests (tests/velocity_none.py), written with the shared Python helper
(engines/lib/vbengine.py); pverlet.js and pverlet.c are its twins on the
other two helpers: position Verlet as the textbook states it,

    x_1     = x_0 + v_0 h_0 + a(x_0) h_0^2 / 2          (the Taylor start)
    x_{n+1} = 2 x_n - x_{n-1} + a(x_n) h_n^2,

which keeps no velocity at all, so it declares velocity=none and its rows
are t and the positions (docs/real-engines.md §1.7).  The built-in `verlet`
is the same method (src/integrators/verlet.c: x+ = 2x - x- + a h^2 with the
Taylor start, blind to a change of step, as this is): its positions must
equal this engine's to round-off, and its order is 2.

  columns=v   declare velocity=none, but write velocity columns anyway (zeros):
              what the harness must refuse, by name

With PVERLET_PIDS=FILE in its environment it appends "PID RUN" to FILE for
every request (which process served which run).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import vbengine as vb  # noqa: E402


def make(req, opt):
    n = vb.check_request(req)
    if req["model"] == "damped-spring":
        raise vb.RequestError("its force reads v, and position Verlet keeps none")
    if os.environ.get("PVERLET_PIDS"):
        with open(os.environ["PVERLET_PIDS"], "a") as f:
            f.write("%d %s\n" % (os.getpid(), req["run"]))
    accel = vb.force_law(req["model"], req["params"], n)
    state = {"x": list(req["x0"]), "prev": None}
    v0 = list(req["v0"])

    def step(h):
        x, prev = state["x"], state["prev"]
        a = accel(x, None)
        if prev is None:
            new = [x[i] + v0[i] * h + a[i] * h * h / 2.0 for i in range(n)]
        else:
            new = [2.0 * x[i] - prev[i] + a[i] * h * h for i in range(n)]
        state["x"], state["prev"] = new, x
        return new, [0.0] * n  # no velocity: written only by columns=v
    return step


def main():
    opt = vb.parse_options("pverlet", {"columns": ["", "v"]}, sys.argv[1:])
    if opt["columns"] == "v":
        # the capability line says none, the rows carry velocities anyway:
        # the helper's own writer would not, so this writes the rows itself
        orig = vb.columns
        vb.columns = lambda dim, particles, velocity="state": orig(dim, particles, "state")
        real_serve = vb.serve
        vb.serve = lambda line, mk, o, velocity, out, *body: real_serve(line, mk, o, "state", out,
                                                                      *body)
    vb.main("pverlet", make, engine="pverlet-test@1.0", velocity="none", argv=[])


if __name__ == "__main__":
    main()
