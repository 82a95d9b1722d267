#!/usr/bin/env python3
"""protocol2.py BUILD_DIR — the engine protocol's version 2
(docs/real-engines.md §1), from the harness's side.

- Version 1 unchanged: the protocol-1 example engines (Python and
  JavaScript, tests/engines/v1/: the shipped examples as they were before
  they became persistent) through this verletbench give byte for byte the tables that
  verletbench wrote before protocol 2 (tests/engines/v1-expected/, from
  tests/engines/v1.case); only the provenance comments may differ.
- Persistent workers: an engine that declares persistent=1
  (tests/engines/v2.py, symplectic Euler on the spring) serves many runs
  from a few processes; its tables are byte for byte those of one process a
  run (VERLETBENCH_ENGINE_PROCESSES=1), and its errors are the built-in
  euler-semi's to the last digit (the same operations in the same order:
  an independent truth, the built-in).
- Each misbehaviour of §1.4-§1.5 and §1.11 fails its run alone, with the
  message the spec gives, and a worker that fails is replaced: an error
  line, a crash, a hang past the time limit, another run's end line,
  retire=1, a banner before the column line, a bad capability line.
- No label: NAME=COMMAND is measured (verdict measured, expected blank),
  and the request carries the plan's fields.
- check's round-off floor of a float32 engine (precision=float32, read
  from the tables' provenance line) is float32's: the same engine with its
  operations reordered (round-off only) compares equal, a changed method
  does not, and the same float32 tables declared float64 are told apart
  by double's floor (what `compare` did before).
- One step for a failed run: each helper's test engine (C, JavaScript,
  Python) failing in its own third step is engine-failed at step 3, as a
  NaN in row 3 is diverged at step 3, and a rigid body's summary says
  "engine-failed at step 3 (t = 0.3 s)".
Ends with "N passed, N failed"."""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

from suite import max_or_nan

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
V2 = "python3 " + os.path.join(ROOT, "tests", "engines", "v2.py")
GUARD = 300
passed = failed = 0


def check(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL protocol2: " + what)
        if detail:
            print("    " + str(detail).strip().replace("\n", "\n    ")[:2000])


def vb(*args, env=None, cwd=None):
    e = dict(os.environ)
    e.pop("VERLETBENCH_ENGINE_PROCESSES", None)
    e.update(env or {})
    return subprocess.run([VB] + list(args), capture_output=True, text=True, timeout=GUARD, env=e,
                          cwd=cwd)


def body(path):
    """a file without its comment lines (version, provenance)"""
    with open(path) as f:
        return [l for l in f.read().splitlines() if not l.startswith("# ")]


def rows(path):
    return list(csv.DictReader(io.StringIO("\n".join(body(path)))))


SPRING = """[case]
model = spring
k = 1
m = 1
x0 = 1
v0 = 0
t_end = 6.283185307179586
[steps]
dt = 0.05
halvings = 3
jitter = 0.5
seeds = 3
[integrators]
use = euler-semi
"""


def spring_case(tmp):
    path = os.path.join(tmp, "spring.case")
    with open(path, "w") as f:
        f.write(SPRING)
    return path


def pids(path):
    with open(path) as f:
        return [l.split()[0] for l in f if l.strip()]


def test_v1_examples_byte_for_byte(tmp):
    out = os.path.join(tmp, "v1")
    # from the top of the checkout, as the expected tables were made (the
    # summary names the case by the path it was given)
    r = vb("run", os.path.join("tests", "engines", "v1.case"), "--quiet", "--no-chart-data",
           "--out", out, cwd=ROOT)
    check(r.returncode == 0, "the v1 examples run (exit %d)" % r.returncode, r.stderr)
    exp = os.path.join(ROOT, "tests", "engines", "v1-expected")
    for name in ("runs.csv", "orders.csv", "bands.csv", "summary.md"):
        with open(os.path.join(exp, name)) as f:
            want = f.read().splitlines()
        got = body(os.path.join(out, "v1", name))
        check(got == want, "v1 examples: %s byte for byte as before protocol 2" % name,
              "\n".join(l for l in got if l not in want)[:800])
    prov = [l for l in open(os.path.join(out, "v1", "orders.csv")) if l.startswith("# engine ")]
    check(len(prov) == 2 and all(l.rstrip().endswith("; protocol 1") for l in prov),
          "a v1 engine's provenance line says protocol 1", "".join(prov))


def test_persistent(tmp):
    case = spring_case(tmp)
    log = os.path.join(tmp, "pids")
    eng = "v2=" + V2 + " pids=" + log
    a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    r = vb("run", case, "--engine", eng, "-j", "2", "--quiet", "--out", a)
    check(r.returncode == 0, "a persistent engine's sweep exits 0", r.stderr)
    served = pids(log)
    check(len(served) >= 12 and len(set(served)) <= 4,
          "persistent: %d runs served by %d processes (at most 2 first runs one a process, "
          "then at most -j 2 workers)" % (len(served), len(set(served))))
    os.remove(log)
    r = vb("run", case, "--engine", eng, "-j", "2", "--quiet", "--out", b,
           env={"VERLETBENCH_ENGINE_PROCESSES": "1"})
    check(r.returncode == 0, "the same engine one process a run exits 0", r.stderr)
    served = pids(log)
    check(len(set(served)) == len(served), "VERLETBENCH_ENGINE_PROCESSES=1: a process a run")
    for name in os.listdir(os.path.join(a, "spring")):
        check(body(os.path.join(a, "spring", name)) == body(os.path.join(b, "spring", name)),
              "persistent and one process a run: %s byte for byte" % name)
    # the engine computes euler-semi's operations in its order: the same errors
    got = {(x["plan"], x["level"], x["seed"]): x for x in rows(os.path.join(a, "spring", "runs.csv"))}
    same = [k for k, x in got.items() if x["integrator"] == "v2"]
    diff = [k for k in same
            if any(got[k][c] != next(y for y in rows(os.path.join(a, "spring", "runs.csv"))
                                     if y["integrator"] == "euler-semi" and
                                     (y["plan"], y["level"], y["seed"]) == k)[c]
                   for c in ("err_pos_max", "err_pos_rms", "err_vel_max"))]
    check(same and not diff, "persistent answers equal the built-in euler-semi's errors to the "
          "last digit (%d runs differ)" % len(diff))
    orders = rows(os.path.join(a, "spring", "orders.csv"))
    mine = [o for o in orders if o["integrator"] == "v2" and o["norm"] == "err_pos_max"]
    check(mine and all(o["expected"] == "" and o["verdict"] == "measured" for o in mine),
          "NAME=COMMAND: expected blank, verdict measured", mine)
    summ = open(os.path.join(a, "spring", "summary.md")).read()
    line = [l for l in summ.splitlines() if l.startswith("| `v2`")]
    check(line and "| – |" in line[0] and "= `euler-semi`" in line[0] and "measured" not in line[0],
          "the summary: no label, the order and what it equals, no verdict word", line)
    prov = [l for l in open(os.path.join(a, "spring", "orders.csv")) if l.startswith("# engine v2")]
    check(prov and "v2-test@1.0; protocol 2, persistent, float64, velocity state" in prov[0],
          "engine=NAME@VERSION and the declarations in the provenance", prov)


def failing_run(tmp, name, opts, env_timeout=None):
    case = spring_case(tmp)
    log = os.path.join(tmp, name + ".pids")
    out = os.path.join(tmp, name)
    args = ["run", case, "--engine", "v2=" + V2 + " pids=" + log + " " + opts, "-j", "1",
            "--quiet", "--out", out]
    if env_timeout:
        args += ["--engine-timeout", str(env_timeout)]
    r = vb(*args)
    runs = [x for x in rows(os.path.join(out, "spring", "runs.csv")) if x["integrator"] == "v2"]
    bad = [x for x in runs if x["status"] != "ok"]
    return r, runs, bad, (pids(log) if os.path.exists(log) else [])


def test_failures(tmp):
    # an error line: that run fails with the engine's message; the worker goes on
    r, runs, bad, served = failing_run(tmp, "err", "error-on=fixed-L1")
    check(r.returncode == 1 and len(bad) == 1 and
          "the engine reported: told to fail here" in r.stderr,
          "an error line fails its run alone, with the engine's message", r.stderr)
    check(len(set(served)) <= 2, "after an error line the worker serves the next run "
          "(%d processes for %d runs)" % (len(set(served)), len(served)))
    # a crash: the run fails with its exit status, a new worker serves the rest
    r, runs, bad, served = failing_run(tmp, "crash", "crash-on=fixed-L1")
    check(r.returncode == 1 and len(bad) == 1 and "exit status 3" in r.stderr and
          len(runs) >= 12,
          "a worker that exits mid-run fails that run alone, said with its status", r.stderr)
    check(len(set(served)) == 3, "after a crash a new worker (3 processes: the first run's, "
          "the crashed worker, its replacement; got %d)" % len(set(served)))
    # a hang: the time limit kills it, the rest are served
    r, runs, bad, served = failing_run(tmp, "hang", "hang-on=fixed-L1", env_timeout=3)
    check(r.returncode == 1 and len(bad) == 1 and "timed out" in r.stderr and
          len(runs) >= 12, "a worker past the time limit: killed, that run alone fails",
          r.stderr)
    # another run's end line
    r, runs, bad, served = failing_run(tmp, "end", "wrong-end=fixed-L1")
    check(r.returncode == 1 and len(bad) == 1 and
          "end line of run 'other-run', but the request was run 'fixed-L1'" in r.stderr,
          "an end line of another run fails the run", r.stderr)
    # retire=1 after every answer: a new worker each run, and no failure
    r, runs, bad, served = failing_run(tmp, "retire", "retire=1")
    check(r.returncode == 0 and not bad and len(set(served)) == len(served) >= 12,
          "retire=1: no failure, a new worker for each run", r.stderr)
    # a banner on stdout before the column line
    r, runs, bad, served = failing_run(tmp, "banner", "banner=1")
    check(r.returncode == 1 and "'Initializing cpSpace - Chipmunk v7.0.3 (Debug Enabled)' comes "
          "before the column line: standard output must carry only the trajectory" in r.stderr,
          "a banner before the column line is named", r.stderr[:600])
    # a later process that declares otherwise than the first
    r, runs, bad, served = failing_run(tmp, "flip", "flip=" + os.path.join(tmp, "flipped"))
    check(r.returncode == 1 and len(bad) == len(runs) - 1 and
          "its capability line differs from the first run's: precision=float32, was float64"
          in r.stderr, "a capability line that differs from the first run's fails its run",
          r.stderr[:400])
    # capability lines the harness refuses
    for caps, want in [("protocol=6", "says protocol=6; this verletbench speaks 1 to 5"),
                       ("protocol=2 precision=half", "capability 'precision=half': want float64 or float32"),
                       ("protocol=2 colour=red", "capability 'colour=red': keys are"),
                       ("protocol=2 persistent=1 persistent=0", "capability 'persistent=0': a key given twice"),
                       ("persistent=1", "has no protocol="),
                       ("protocol=2 engine=noversion", "capability 'engine=noversion': want NAME@VERSION")]:
        r, runs, bad, served = failing_run(tmp, "caps%d" % len(caps), "'caps=%s'" % caps)
        check(r.returncode == 1 and runs and len(bad) == len(runs) and want in r.stderr,
              "capability line '%s' refused: %s" % (caps, want), r.stderr[:400])


SMALL = SPRING.replace("halvings = 3", "halvings = 2").replace("jitter = 0.5\nseeds = 3\n", "")


def test_worker_exits(tmp):
    """a persistent=1 engine that exits after one answer: the run its
    worker did not answer is said to be that, with the status it exited
    with (5, tests/engines/v2.py exit-after), not 'empty output'"""
    r, runs, bad, served = failing_run(tmp, "exitafter", "exit-after=5")
    check(r.returncode == 1 and bad and
          "its worker exited (exit status 5) before it answered run" in r.stderr and
          "no header line" not in r.stderr,
          "a worker that exits after one answer: said, with its status", r.stderr[:800])


def test_worker_without_caps(tmp):
    """§1.2, §1.4: every process of an engine begins its output with the
    same capability line, a persistent worker's too.  An engine whose first
    process declares persistent=1 and whose later ones write no line
    (tests/engines/v2.py caps-once): at -j 1 its workers' runs were
    accepted (the check was skipped for workers), at -j 2 the second
    process's run was refused, so the tables depended on -j.  At every -j
    the first process's run is ok and every other fails, said."""
    case = spring_case(tmp)
    for j in ("1", "2"):
        out = os.path.join(tmp, "j" + j)
        r = vb("run", case, "--engine", "v2=" + V2 + " caps-once=" + os.path.join(tmp, "once-" + j),
               "-j", j, "--quiet", "--no-chart-data", "--out", out)
        runs = [x for x in rows(os.path.join(out, "spring", "runs.csv")) if x["integrator"] == "v2"]
        fine = [x for x in runs if x["status"] == "ok"]
        failed = [x for x in runs if x["status"] == "engine-failed"]
        check(r.returncode == 1 and len(runs) == 12 and len(fine) == 1 and len(failed) == 11 and
              "line 1 of its output: not a capability line, but the engine's first run began "
              "with one" in r.stderr,
              "-j %s: a worker without the capability line fails its run (%d of %d ok)"
              % (j, len(fine), len(runs)), r.stderr[:600])


def test_lingering_engine(tmp):
    """an engine run one request a process that writes its whole trajectory
    and then never exits (stdout left open, or closed): each run judged by
    its rows, which are the built-in euler-semi's errors to the last digit,
    and said once that it was killed, not 'timed out'"""
    case = os.path.join(tmp, "small.case")
    with open(case, "w") as f:
        f.write(SMALL)
    for how in ("open", "closed"):
        out = os.path.join(tmp, "linger-" + how)
        # the limit is what kills the lingering process after its rows; 5 s
        # and not 1 so that a loaded machine's slow python3 start is not
        # taken for a hang (it was, under a load of 15 on 2 cores)
        r = vb("run", case, "--engine", "v2=" + V2 + " linger=" + how, "-j", "2",
               "--engine-timeout", "5", "--quiet", "--out", out,
               env={"VERLETBENCH_ENGINE_PROCESSES": "1"})
        got = rows(os.path.join(out, "small", "runs.csv")) if os.path.exists(out) else []
        mine = {x["plan"] + x["dt"]: x for x in got if x["integrator"] == "v2"}
        ref = {x["plan"] + x["dt"]: x for x in got if x["integrator"] == "euler-semi"}
        check(r.returncode == 0 and len(mine) == 2 and
              all(mine[k]["status"] == "ok" and mine[k]["err_pos_max"] == ref[k]["err_pos_max"]
                  for k in mine),
              "linger=%s: every run judged by its rows, euler-semi's errors" % how,
              (r.returncode, r.stderr[:600], [x.get("status") for x in got]))
        check(r.stderr.count("wrote its whole trajectory") == 1 and "timed out" not in r.stderr,
              "linger=%s: said once that it was killed after its trajectory" % how, r.stderr[:600])


def test_request_fields(tmp):
    case = spring_case(tmp)
    out = os.path.join(tmp, "p")
    r = vb("problem", case, "--out", out)
    check(r.returncode == 0, "problem exits 0", r.stderr)
    path = os.path.join(out, "spring", "requests.jsonl")
    if not os.path.exists(path):
        import glob
        found = glob.glob(os.path.join(out, "**", "requests.jsonl"), recursive=True)
        path = found[0] if found else path
    reqs = [json.loads(l) for l in open(path)][1:]
    fixed = [q for q in reqs if q["plan"] == "fixed"]
    rnd = [q for q in reqs if q["plan"] == "random"]
    check(all(q["protocol"] == 2 for q in reqs), "every request says protocol 2")
    # the nominal step of level k is dt/2^k, and a fixed plan's steps are t_end/N
    check(fixed and all(q["dt"] == 0.05 / 2 ** q["level"] for q in fixed),
          "a fixed request's dt is dt/2^level", [(q["level"], q["dt"]) for q in fixed])
    check(rnd and all(q["jitter"] == 0.5 and q["dt"] == 0.05 / 2 ** q["level"] for q in rnd),
          "a random request has jitter and dt")
    check(all("trace" not in q for q in fixed + rnd), "no trace field without a trace plan")


# Velocity Verlet (kick, drift, kick) on the spring in float32, every
# operation rounded to single precision (struct 'f' is IEEE binary32, round
# to nearest).  VARIANT "a": v += (h/2)*a, x += h*v, v += (h/2)*a; "b": each
# kick and the drift in two halves, the same in exact arithmetic (h/2 and
# h/4 are exact), another rounding; "euler": explicit Euler, another method.
F32_ENGINE = r"""
import struct, sys
sys.path.insert(0, %r)
import vbengine as vb
f = lambda y: struct.unpack("f", struct.pack("f", y))[0]
VARIANT, DECLARED = sys.argv[1], sys.argv[2]

def make(req, opt):
    w2 = f(req["params"]["k"] / req["params"]["m"])
    st = [f(req["x0"][0]), f(req["v0"][0])]
    def step(h):
        h = f(h)
        x, v = st
        acc = lambda y: f(-w2 * y)
        if VARIANT == "a":
            v = f(v + f(f(0.5 * h) * acc(x)))
            x = f(x + f(h * v))
            v = f(v + f(f(0.5 * h) * acc(x)))
        elif VARIANT == "b":
            kick = f(0.25 * h * acc(x))
            v = f(f(v + kick) + kick)
            drift = f(f(0.5 * h) * v)
            x = f(f(x + drift) + drift)
            kick = f(0.25 * h * acc(x))
            v = f(f(v + kick) + kick)
        else:
            x, v = f(x + f(h * v)), f(v + f(h * acc(x)))
        st[:] = [x, v]
        return [x], [v]
    return step

vb.main("f32", make, precision=DECLARED, argv=[])
"""


def test_check_float32_floor(tmp):
    eng = os.path.join(tmp, "f32.py")
    with open(eng, "w") as f:
        f.write(F32_ENGINE % os.path.join(ROOT, "engines", "lib"))
    case = spring_case(tmp)
    dirs = {}
    for variant in ("a", "b", "euler"):
        for declared in ("float32", "float64"):
            d = dirs[variant, declared] = os.path.join(tmp, variant + "-" + declared)
            r = vb("run", case, "--engine", "e32=python3 %s %s %s" % (eng, variant, declared),
                   "--quiet", "--no-chart-data", "--out", d)
            check(r.returncode == 0, "the float32 engine %s (declared %s) runs"
                  % (variant, declared), r.stderr)
    prov = [l for l in open(os.path.join(dirs["a", "float32"], "spring", "runs.csv"))
            if l.startswith("# engine e32: ")]
    check(len(prov) == 1 and ", float32, velocity state" in prov[0],
          "the tables record the engine's float32", "".join(prov))
    a = [float(r["err_pos_max"]) for r in rows(os.path.join(dirs["a", "float32"], "spring",
                                                            "runs.csv"))]
    b = [float(r["err_pos_max"]) for r in rows(os.path.join(dirs["b", "float32"], "spring",
                                                            "runs.csv"))]
    # the reorder moves the errors by float32 round-off: a change rtol
    # (1e-3) alone would call a change, at most 0.30 N eps32 (§1.6's bound)
    moved = max_or_nan(abs(x - y) / x for x, y in zip(a, b))
    check(moved > 1e-3, "reordering float32 operations moves some error by more than rtol "
          "(%.3g)" % moved)

    def compare(old, new):
        return vb("compare", old, new, "--quiet")
    r = compare(dirs["a", "float32"], dirs["b", "float32"])
    check(r.returncode == 0, "compare: a float32 engine's round-off alone is no change "
          "(floor 16 eps32 N scale)", r.stdout + r.stderr)
    r = compare(dirs["a", "float64"], dirs["b", "float64"])
    check(r.returncode == 1, "compare: the same errors declared float64 are judged by "
          "double's floor, and differ", r.stdout + r.stderr)
    r = compare(dirs["a", "float32"], dirs["euler", "float32"])
    check(r.returncode == 1 and "WORSE" in r.stdout,
          "compare: a float32 engine that became explicit Euler is worse", r.stdout + r.stderr)
    # either side's float32 decides: a baseline declared float32, a run now
    # declared float64, of the same float32 arithmetic
    r = compare(dirs["a", "float32"], dirs["b", "float64"])
    check(r.returncode == 0, "compare: float32 on either side sets the floor", r.stdout + r.stderr)


CHECK_ENGINES = os.path.join(ROOT, "engines", "check")
# each helper's test engine of a kind (engines/check/README.md): the C one
# built by make -C engines (make check sets the engines up)
HELPERS = {"C": os.path.join(ROOT, "engines", "build", "vb-%s-c"),
           "JavaScript": "node " + os.path.join(CHECK_ENGINES, "%s.js"),
           "Python": "python3 " + os.path.join(CHECK_ENGINES, "%s.py")}
CORRUPT = "python3 " + os.path.join(ROOT, "tests", "engines", "corrupt_row.py")


def sim_row(*args):
    """sim's exit status and its row (runs.csv's columns)"""
    r = vb("sim", *args)
    lines = r.stdout.splitlines()
    return r, dict(zip(lines[0].split(","), lines[1].split(","))) if len(lines) >= 2 else {}


def test_fail_step_alike(tmp):
    """One definition of a failed run's step (docs/method.md §4, fail_step):
    step N is the one whose row, at t_N, the run could not use.  Each
    helper's test engine fails in its own third step, fail=step: the third
    call of its step (euler-semi.c:44-46, euler-semi.js:20, euler-semi.py:22-23;
    rigid-no-gyro.c:53-54, rigid-no-gyro.js:28, rigid-no-gyro.py:33-34), so
    the rows of steps 1 and 2 come and then its error line: engine-failed
    at step 3 from every helper (the Python one lost the rows it held with
    its buffer: "before its first step"; the harness counted the last row
    it read: step 2).  A NaN in row 3 is diverged at step 3 too."""
    for kind, model in (("euler-semi", "spring"), ("rigid-no-gyro", "free-body")):
        got = {}
        for helper, command in HELPERS.items():
            r, row = sim_row("--model", model, "--dt", "0.1", "--t-end", "1", "--engine",
                             "e=%s fail=step" % (command % kind))
            got[helper] = (r.returncode, row.get("status"), row.get("fail_step"), row.get("steps"))
            check(got[helper] == (1, "engine-failed", "3", "3") and "asked to fail (step 3)" in r.stderr,
                  "%s helper's %s failing in its step 3: engine-failed, fail_step 3, steps 3"
                  % (helper, kind), (got[helper], r.stderr[-300:]))
        r, row = sim_row("--model", model, "--dt", "0.1", "--t-end", "1", "--engine",
                         "e=%s \"\" 3 1 nan %s" % (CORRUPT, HELPERS["Python"] % kind))
        check((r.returncode, row.get("status"), row.get("fail_step"), row.get("steps")) ==
              (1, "diverged", "3", "3"),
              "%s with a NaN in row 3: diverged, fail_step 3, the same step" % kind, (row, r.stderr[-300:]))
    # the summary of a rigid body says it at the same step, at t_3
    case = os.path.join(tmp, "flip.case")
    with open(case, "w") as f:
        f.write("[case]\nmodel = free-body\nt_end = 32\n[steps]\ndt = 0.1\nhalvings = 2\n"
                "[integrators]\nuse = rigid-splitting\n")
    args = ["run", case, "--quiet", "--no-chart-data", "--out", os.path.join(tmp, "out")]
    for helper, command in HELPERS.items():
        args += ["--engine", "%s=%s fail=step" % (helper.lower(), command % "rigid-no-gyro")]
    r = vb(*args)
    summary = os.path.join(tmp, "out", "flip", "summary.md")
    lines = open(summary).read().splitlines() if os.path.exists(summary) else []
    want = "engine-failed at step 3 (t = 0.3 s) / engine-failed at step 3 (t = 0.15 s)"
    for helper in HELPERS:
        line = next((l for l in lines if l.startswith("| `%s` |" % helper.lower())), "")
        check(r.returncode == 1 and line.count(want) == 2,
              "the summary's flip-period and L-drift cells of the %s helper's engine: %s"
              % (helper, want), line or r.stderr[-400:])


def main():
    global VB
    VB = os.path.join(os.path.abspath(sys.argv[1]), "verletbench")
    with tempfile.TemporaryDirectory() as tmp:
        for test in (test_v1_examples_byte_for_byte, test_persistent, test_failures,
                     test_worker_exits, test_worker_without_caps, test_lingering_engine, test_request_fields,
                     test_check_float32_floor, test_fail_step_alike):
            d = os.path.join(tmp, test.__name__)
            os.mkdir(d)
            try:
                test(d)
            except Exception as e:  # a test that breaks is a failure, not a stop
                check(False, "%s raised %s: %s" % (test.__name__, type(e).__name__, e))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
