#!/usr/bin/env python3
"""stack_engines.py BUILD_DIR — the harness's side of protocol 5, a stack of
bodies on the ground through the engine protocol (issue 55,
docs/real-engines.md §7), each number held to a truth the C code does not
compute:

- the request of model stack (`verletbench problem`): "protocol": 5, its
  'bodies' from the bottom up, body k (from 0) of mass m r^k, moments
  m r^k a^2 / 6, box [a, a, a], at (k s a, 0, (k + 1/2) a) and at rest, the
  ground's 'contact' with friction mu (the model's definition, stack.h);
- engines/check/stack-exact.js (every body where it started, at rest) is
  measured as the exact answer in stacks.csv: drift_max, speed_rms and
  depth_max 0 to the bit, t_collapse blank (boxes of 0.125 m, whose faces'
  heights are exact in binary; at 0.1 m its depth is toi's in the same run,
  the same states, and round-off);
- its option sink=D (body k lowered by k D) gives drift_max n D and
  depth_max D, speed_rms 0; drift=V (the top body sliding at V along x)
  gives drift_max V t_end, speed_rms V / sqrt(n), and t_collapse the first
  step's time at which V t reaches half the edge: closed forms, exact in
  binary for the numbers chosen (dt, V, D powers of 2);
- a protocol-4 engine (engines/check/body-contact-exact.js) is refused run
  by run with the contract's message, status engine-failed; an engine with
  a column too few, or a row with a field too few, is refused naming
  them, and so is a run that ends short; a row with a NaN in a body's
  quaternion is a run that diverged;
- `sim` with the engine on a stack prints stacks.csv's row after
  runs.csv's, drift=V's closed forms again;
- the engine's rows in 2 shards, merged, are its whole run byte for byte,
  and the summary's stack section has its rows.
Ends with "N passed, N failed"."""
import json
import math
import os
import shlex
import sys

import suite

S = suite.Suite("stack engines", guard=300)
check, vb = S.check, S.vb_engines

ROOT = suite.ROOT
EXACT = shlex.quote(os.path.join(ROOT, "engines", "check", "stack-exact.js"))
BODY4 = shlex.quote(os.path.join(ROOT, "engines", "check", "body-contact-exact.js"))
EPS = 2.0 ** -52

# a stack of boxes whose numbers are exact in binary: size 1/8, dt 1/8 and
# its halves (3 levels), t_end 1
CASE = """[case]
description = a stack through the engine protocol (tests/stack_engines.py)
model = stack
n = {n}
size = {size}
ratio = {ratio}
mu = 0.5
t_end = 1

[steps]
dt = 0.125
halvings = 3

[integrators]
use = rigid-explicit-gyro

[contact]
handler = toi

[engines]
{engines}
"""

# an engine of its own (protocol 5, one process a run) that writes what a
# test asks: MODE cols (a column too few), field (row 1 a field too few),
# nan (row 3 with a NaN in body 2's qw), short (rows 0 to 2 only)
ODD = r'''
import json, sys
mode = sys.argv[1]
req = json.loads(sys.stdin.readline())
print("# verletbench-engine protocol=5 persistent=0 precision=float64 velocity=state angvel=world")
bs = req["bodies"]
n = len(bs)
names = ["x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"]
cols = ["t"] + ["%s%d" % (c, k + 1) for k in range(n) for c in names]
if mode == "cols":
    cols = cols[:-1]
print(",".join(cols))
def row(t, i):
    out = [repr(t)]
    for k, b in enumerate(bs):
        q = list(b["q0"])
        if mode == "nan" and i == 3 and k == 1:
            q[0] = float("nan")
        out += [repr(float(x)) for x in b["x0"] + q + b["v0"] + b["w0_world"]]
    if mode == "field" and i == 1:
        out = out[:-1]
    return ",".join(out)
print(row(0.0, 0))
t = 0.0
for i, h in enumerate(req["h"]):
    if mode == "short" and i == 2:
        break
    t += h
    print(row(t, i + 1))
'''


def write_case(tmp, name, engines, n=5, size=0.125, ratio=1):
    path = os.path.join(tmp, name + ".case")
    with open(path, "w") as f:
        f.write(CASE.format(n=n, size=size, ratio=ratio, engines=engines))
    return path


def run_case(tmp, name, case, want_rc=0):
    out = os.path.join(tmp, "out-" + name)
    r = vb("run", "--quiet", "-j", "1", case, "--out", out)
    check(r.returncode == want_rc, "%s: run exits %d" % (name, want_rc),
          "exit %d: %s" % (r.returncode, r.stderr[-800:]))
    path = os.path.join(out, name, "stacks.csv")
    rows = suite.table_rows(path) if os.path.exists(path) else []
    check(rows, "%s: stacks.csv has rows" % name, path)
    return out, rows, r


def of(rows, who):
    return [r for r in rows if r["integrator"] == who]


def test_request(tmp):
    n, size, ratio = 4, 0.1, 10.0
    case = write_case(tmp, "req", "e = node %s" % EXACT, n=n, size=size, ratio=ratio)
    out = os.path.join(tmp, "problem")
    r = vb("problem", case, "--out", out)
    check(r.returncode == 0, "problem: exit 0", r.stderr[-400:])
    lines = open(os.path.join(out, "req", "requests.jsonl")).read().splitlines()
    runs = [json.loads(l) for l in lines if json.loads(l).get("kind") == "run"]
    check(len(runs) == 3, "problem: a request per level", len(runs))
    req = runs[0]
    check(req["protocol"] == 5 and req["model"] == "stack", "the request says protocol 5",
          {k: req.get(k) for k in ("protocol", "model")})
    check("body" not in req and "particles" not in req and "x0" not in req,
          "a stack's request has 'bodies' alone", sorted(req))
    bs = req.get("bodies", [])
    check(len(bs) == n, "bodies: n of them", len(bs))
    for k, b in enumerate(bs):
        m = ratio ** k  # m = 1 (the default) times ratio^k
        want = {"mass": m, "x0": [0.0, 0.0, (k + 0.5) * size], "v0": [0, 0, 0],
                "q0": [1, 0, 0, 0], "w0_body": [0, 0, 0], "w0_world": [0, 0, 0],
                "box": [size] * 3, "gravity": [0, 0, -9.81]}
        got = {key: b.get(key) for key in want}
        check(got == want, "body %d: its mass, start, box and gravity" % (k + 1), (got, want))
        # the moments of a cube: m a^2 / 6, to the rounding of one product
        check(all(abs(I - m * size * size / 6) <= 2 * EPS * m * size * size / 6
                  for I in b["inertia"]), "body %d: moments m a^2/6" % (k + 1), b["inertia"])
    c = req.get("contact", {})
    check(c.get("wall") == {"normal": [0, 0, 1], "offset": 0} and c.get("gravity") == [0, 0, -9.81]
          and c.get("friction") == 0.5 and c.get("friction_static") == 0.5
          and c.get("friction_kinetic") == 0.5 and c.get("restitution") == 0
          and c.get("shape") == {"kind": "box", "edges": [size] * 3} and c.get("centre") == [0, 0, 0],
          "the contact: the ground, gravity, mu for every pair, the boxes' shape", c)


def test_exact(tmp):
    case = write_case(tmp, "exact", "stack-exact = node %s" % EXACT)
    out, rows, r = run_case(tmp, "exact", case)
    e = of(rows, "stack-exact")
    check(len(e) == 3, "the exact engine: a row a level", len(e))
    for row in e:
        what = "the exact engine at dt %s" % row["dt"]
        check(row["status"] == "ok", what + ": ok", row)
        check(row["drift_max"] == "0" and row["speed_rms"] == "0" and row["depth_max"] == "0"
              and row["t_collapse"] == "" and row["iterations"] == "" and row["substeps"] == "",
              what + ": drift, speed and depth 0 to the bit, t_collapse blank", row)
    summary = open(os.path.join(out, "exact", "summary.md")).read()
    section = summary[summary.find("### The stack (stacks.csv)"):]
    check(section.count("| `stack-exact` | 0.") == 3 and section.count("| 0 | 0 | 0 | stood |") == 6, "the summary's stack section has its rows",
          summary[-1500:])
    # boxes of 0.1 m (the cases' size): the same states as toi's, which
    # keeps them to the bit (tests/stack_runs.py), so the same depth
    case = write_case(tmp, "tenth", "stack-exact = node %s" % EXACT, size=0.1)
    out, rows, r = run_case(tmp, "tenth", case)
    toi = {row["dt"]: row for row in of(rows, "rigid-explicit-gyro+toi")}
    for row in of(rows, "stack-exact"):
        d = float(row["depth_max"])
        check(row["drift_max"] == "0" and row["speed_rms"] == "0" and row["t_collapse"] == ""
              and row["depth_max"] == toi[row["dt"]]["depth_max"]
              and 0.0 <= d <= 8.0 * EPS * 5 * 0.1,
              "0.1 m boxes at dt %s: drift 0, depth toi's round-off" % row["dt"],
              (row, toi[row["dt"]]))


def test_known_errors(tmp):
    D, V, n, size, t_end = 2.0 ** -10, 0.5, 5, 0.125, 1.0
    case = write_case(tmp, "errors", "sink = node %s sink=%r\ndrift = node %s drift=%r"
                      % (EXACT, D, EXACT, V))
    out, rows, r = run_case(tmp, "errors", case)
    sink, drift = of(rows, "sink"), of(rows, "drift")
    check(len(sink) == 3 and len(drift) == 3, "a row a level each", (len(sink), len(drift)))
    for row in sink:
        check(row["status"] == "ok" and float(row["drift_max"]) == n * D
              and float(row["depth_max"]) == D and row["speed_rms"] == "0"
              and row["t_collapse"] == "",
              "sink=D at dt %s: drift n D, depth D, speed 0, stood" % row["dt"], row)
    for row in drift:
        dt = float(row["dt"])
        # the first step k dt with V k dt >= size / 2 (every number a power of 2)
        t_c = math.ceil(size / 2 / V / dt) * dt
        check(row["status"] == "ok" and float(row["drift_max"]) == V * t_end
              and float(row["speed_rms"]) == math.sqrt(V * V / n)
              and row["depth_max"] == "0" and float(row["t_collapse"]) == t_c,
              "drift=V at dt %s: drift V t_end, speed V/sqrt(n), t_collapse %g" % (dt, t_c), row)


def test_sim(tmp):
    V, n, size, t_end, dt = 0.5, 5, 0.125, 1.0, 2.0 ** -6
    r = vb("sim", "--model", "stack", "--set", "size=%r" % size, "--engine",
           "drift:1=node %s drift=%r" % (EXACT, V), "--dt", repr(dt), "--t-end", repr(t_end))
    lines = [l for l in r.stdout.splitlines() if l]
    check(r.returncode == 0 and len(lines) == 4, "sim with a stack engine: exit 0, two tables",
          (r.returncode, r.stdout, r.stderr[-400:]))
    if len(lines) == 4:
        row = dict(zip(lines[2].split(","), lines[3].split(",")))
        t_c = math.ceil(size / 2 / V / dt) * dt
        check(row.get("status") == "ok" and float(row.get("drift_max", "nan")) == V * t_end
              and float(row.get("speed_rms", "nan")) == math.sqrt(V * V / n)
              and row.get("depth_max") == "0" and float(row.get("t_collapse") or "nan") == t_c,
              "sim, drift=V: stacks.csv's row, drift V t_end, speed V/sqrt(n), t_collapse %g"
              % t_c, row)


def test_refused(tmp):
    odd = os.path.join(tmp, "odd.py")
    with open(odd, "w") as f:
        f.write(ODD)
    odd = shlex.quote(odd)
    case = write_case(tmp, "refused", "\n".join([
        "body4 = node %s" % BODY4,
        "cols = python3 %s cols" % odd,
        "field = python3 %s field" % odd,
        "nan = python3 %s nan" % odd,
        "short = python3 %s short" % odd,
        "fine = python3 %s fine" % odd]), n=3)
    out, rows, r = run_case(tmp, "refused", case, want_rc=1)
    msg = ("the request is a stack of bodies (model 'stack': 3 boxes on the ground); this engine "
           "takes none (its capability line says protocol=4; a stack needs protocol=5: "
           "docs/real-engines.md §7)")
    check(all(x["status"] == "engine-failed" for x in of(rows, "body4")) and len(of(rows, "body4")) == 3,
          "a protocol-4 engine: engine-failed, run by run", of(rows, "body4"))
    check(r.stderr.count(msg) == 3, "a protocol-4 engine: the contract's message", r.stderr[-1200:])
    check(all(x["status"] == "engine-failed" for x in of(rows, "cols"))
          and "39 columns, want 1 + 13 n = 40" in r.stderr,
          "a column too few: engine-failed, named", r.stderr[-1500:])
    check(all(x["status"] == "engine-failed" for x in of(rows, "field"))
          and "39 fields, the header has 40" in r.stderr,
          "a row with a field too few: engine-failed, named", r.stderr[-1500:])
    check(all(x["status"] == "diverged" for x in of(rows, "nan")) and len(of(rows, "nan")) == 3,
          "a NaN in body 2's quaternion: diverged", of(rows, "nan"))
    check(all(x["status"] == "engine-failed" for x in of(rows, "short")) and len(of(rows, "short")) == 3
          and "its output ends after 3 rows; the run has more steps" in r.stderr,
          "a run that ends short: engine-failed", r.stderr[-1500:])
    check(all(x["status"] == "ok" and x["drift_max"] == "0" for x in of(rows, "fine")),
          "the same engine with every row sound: ok, drift 0", of(rows, "fine"))


def test_shards(tmp):
    case = write_case(tmp, "sharded", "stack-exact = node %s\nsink = node %s sink=0.0009765625"
                      % (EXACT, EXACT))
    same, why = S.shards_merged(tmp, "stack-engine-sharded", [case], 2)
    check(same, "an engine's stack in 2 shards, merged, is its whole run", why)


if __name__ == "__main__":
    sys.exit(S.main([test_request, test_exact, test_known_errors, test_sim, test_refused,
                     test_shards]))
