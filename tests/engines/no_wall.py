#!/usr/bin/env python3
"""no_wall.py — a protocol-4 engine (docs/real-engines.md §6) whose body
ignores the wall, for the tests (tests/real_engines_contact.py): each
request's body moves at its initial velocity, x(t) = x0 + v0 t, v = v0,
under no force, whatever the request's contact says.  A ball fired at a
wall passes it at every speed."""
import json
import sys

sys.stdout.write("# verletbench-engine protocol=4 persistent=1 engine=no-wall@1\n")
sys.stdout.flush()
for line in sys.stdin:
    req = json.loads(line)
    if req.get("kind", "run") != "run":
        continue  # requests.jsonl's case line: no answer
    x0, v0, dim = req["x0"], req["v0"], req["dim"]
    axes = ["x", "y", "z"][:dim] if dim > 1 else ["x"]
    out = [req["header"], ",".join(["t"] + axes + ["v" + a for a in axes] if dim > 1 else ["t", "x", "v"])]
    t = 0.0
    for h in [0.0] + req["h"]:
        t += h
        out.append(",".join(repr(c) for c in [t] + [x + v * t for x, v in zip(x0, v0)] + v0))
    out.append("# verletbench-end run=%s" % req["run"])
    sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()
