#!/usr/bin/env python3
"""engines.py BUILD_DIR — external engines (docs/engines.md).

- The Python and JavaScript examples (persistent, protocol 2, through
  engines/lib) compute velocity Verlet and TCV with
  the same IEEE operations as the built-ins, so every number of their rows
  in runs.csv and orders.csv must equal the built-ins' (only the name
  differs).  That holds to the bit for every model whose force uses only
  + - * / and sqrt (IEEE 754 rounds them alike everywhere); the pendulum
  calls sin, which node computes with its own code, so there the errors
  need only agree to round-off.
- problem -> an engine run by hand on each request -> score DIR gives the
  same tables as --engine; score FILE gives sim's row.
- The requests hold the step sequences of docs/method.md §3: a fixed plan
  takes N = ceil(t_end/dt - 1e-9) steps of t_end/N, a trace plan the trace's
  steps times 2^-level, and every plan's steps add up to t_end.
- Each way an engine goes wrong (tests/engines/bad.py) fails its run alone,
  says which run (plan, level, seed), the command and what was wrong, keeps
  every other result and makes `run` exit 1; a NaN is a run that diverged.
- SIGINT during a run leaves no engine running.
Ends with "N passed, N failed"."""
import csv
import io
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PY = "python3 " + os.path.join(ROOT, "examples", "engines", "python", "engine.py")
JS = "node " + os.path.join(ROOT, "examples", "engines", "js", "engine.js")
# the protocol-1 example as it was (one process a run, the header on line 1):
# what the tests of score's header reading write their files with
PY_V1 = "python3 " + os.path.join(ROOT, "tests", "engines", "v1", "engine.py")
BAD = "python3 " + os.path.join(ROOT, "tests", "engines", "bad.py")
TRACE = os.path.join(ROOT, "cases", "traces", "frames-60hz.trace")

# hang guard only: a broken timeout would otherwise stop the suite forever
GUARD = 300

passed = failed = 0


def check(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL engines: " + what)
        if detail:
            print("    " + detail.strip().replace("\n", "\n    ")[:2000])


def vb(*args, **kw):
    return subprocess.run([VB] + list(args), capture_output=True, text=True, timeout=GUARD, **kw)


def pids_with(mark):
    """live processes whose command line holds mark"""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if mark.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return live(found)


def table(path):
    with open(path, newline="") as f:
        lines = [l for l in f.read().splitlines() if not l.startswith("#")]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    return rows


def case_text(model, params, t_end, dt, halvings=3, jitter=0.5, seeds=2, trace=True,
              use="velocity-verlet, tcv", engines=""):
    text = "[case]\nmodel = %s\n" % model
    for k, v in params.items():
        text += "%s = %s\n" % (k, v)
    if t_end:
        text += "t_end = %s\n" % t_end
    text += "[steps]\ndt = %s\nhalvings = %d\n" % (dt, halvings)
    if jitter:
        text += "jitter = %s\nseeds = %d\n" % (jitter, seeds)
    if trace:
        text += "trace = %s\n" % TRACE
    text += "[integrators]\nuse = %s\n" % use
    if engines:
        text += "[engines]\n" + engines
    return text


def write_case(tmp, name, text):
    path = os.path.join(tmp, name + ".case")
    with open(path, "w") as f:
        f.write(text)
    return path


NUMERIC_SKIP = {"integrator"}


def compare_runs(rows, engine, builtin, tol=0.0, scale_col="pos_scale"):
    """(number of runs compared, first difference or None)"""
    mine = {(r["plan"], r["level"], r["seed"]): r for r in rows if r["integrator"] == engine}
    ref = {(r["plan"], r["level"], r["seed"]): r for r in rows if r["integrator"] == builtin}
    if set(mine) != set(ref) or not mine:
        return 0, "runs %s vs %s" % (sorted(mine), sorted(ref))
    for key in sorted(ref):
        a, b = mine[key], ref[key]
        for col in b:
            if col in NUMERIC_SKIP or a[col] == b[col]:
                continue
            if tol > 0.0 and col.startswith("err_") and a[col] and b[col]:
                scale = float(b[scale_col]) if col.startswith("err_pos") else 1.0
                if abs(float(a[col]) - float(b[col])) <= tol * max(scale, 1.0):
                    continue
            return len(ref), "%s %s: %s=%s, %s has %s" % (key, engine, col, a[col], builtin,
                                                          b[col])
    return len(ref), None


def compare_orders(rows, engine, builtin):
    mine = [r for r in rows if r["integrator"] == engine]
    ref = [r for r in rows if r["integrator"] == builtin]
    if len(mine) != len(ref) or not mine:
        return "%d rows vs %d" % (len(mine), len(ref))
    for a, b in zip(mine, ref):
        for col in b:
            if col != "integrator" and a[col] != b[col]:
                return "%s %s %s: %s vs %s" % (b["plan"], b["norm"], col, a[col], b[col])
    return None


# ---------------------------------------------------------------------------


def test_examples_equal_builtins(tmp):
    models = [
        ("spring", {"k": 1, "m": 1, "x0": 1, "v0": 0}, "6.283185307179586", "0.05"),
        ("damped-spring", {"k": 4, "c": 0.3, "m": 1}, "3", "0.05"),
        ("orbit", {"e": 0.6}, "3", "0.02"),
        ("chain", {"N": 8}, "3", "0.05"),
        ("two-body", {}, "3", "0.02"),
        ("projectile", {}, "1", "0.05"),
        ("pendulum", {"theta0": 2.5}, "3", "0.05"),
    ]
    for model, params, t_end, dt in models:
        engines = ("py-vv = %s velocity-verlet\npy-vv.order = 2\n"
                   "py-tcv = %s tcv\npy-tcv.order = 2\n"
                   "js-vv = %s velocity-verlet\njs-vv.order = 2\n"
                   "js-tcv = %s tcv\njs-tcv.order = 2\n") % (PY, PY, JS, JS)
        case = write_case(tmp, "ex-" + model,
                          case_text(model, params, t_end, dt, engines=engines))
        out = os.path.join(tmp, "ex-out")
        r = vb("run", case, "--out", out, "--quiet", "--no-chart-data")
        check(r.returncode == 0, "%s: run with four engines exits 0 (got %d)" %
              (model, r.returncode), r.stderr)
        if r.returncode != 0:
            continue
        d = os.path.join(out, "ex-" + model)
        # the examples are the fast path to copy: persistent (protocol 2,
        # through engines/lib), one process serving many runs
        with open(os.path.join(d, "orders.csv")) as f:
            prov = [l for l in f if l.startswith("# engine ")]
        check(len(prov) == 4 and all("; protocol 2, persistent," in l for l in prov),
              "%s: the four example engines speak protocol 2, persistent" % model, "".join(prov))
        runs = table(os.path.join(d, "runs.csv"))
        orders = table(os.path.join(d, "orders.csv"))
        for eng, builtin in (("py-vv", "velocity-verlet"), ("py-tcv", "tcv"),
                             ("js-vv", "velocity-verlet"), ("js-tcv", "tcv")):
            # sin: node's own code, so the pendulum to round-off: at most
            # an ulp a step apart, over at most 10^4 steps
            tol = 1e-12 if (model == "pendulum" and eng.startswith("js")) else 0.0
            n, diff = compare_runs(runs, eng, builtin, tol)
            check(diff is None and n > 0, "%s: %s's runs equal %s's %s (%d runs)" %
                  (model, eng, builtin, "to the bit" if tol == 0 else "to 1e-12", n),
                  diff or "")
            if tol == 0.0:
                diff = compare_orders(orders, eng, builtin)
                check(diff is None, "%s: %s's orders and verdicts equal %s's" %
                      (model, eng, builtin), diff or "")
        shutil.rmtree(out)


def test_requests(tmp):
    case = write_case(tmp, "req", case_text("spring", {"k": 1}, "6.283185307179586", "0.05"))
    out = os.path.join(tmp, "problems")
    r = vb("problem", case, "--out", out)
    check(r.returncode == 0, "problem exits 0", r.stderr)
    if r.returncode != 0:
        return
    with open(os.path.join(out, "req", "requests.jsonl")) as f:
        lines = [json.loads(l) for l in f]
    head, runs = lines[0], lines[1:]
    check(head.get("kind") == "case" and head.get("runs") == len(runs) == 3 + 3 * 2 + 3 + 2,
          "the first line says the case and its 14 runs (3 fixed, 6 random, 3 trace, and "
          "the charts' 2 long runs)", json.dumps(head))
    ids = [q["run"] for q in runs]
    check(ids[:3] == ["fixed-L0", "fixed-L1", "fixed-L2"] and "random-L1-S2" in ids and
          ids[-3:] == ["trace-L2", "long-fixed", "long-random-S1"],
          "runs are named by plan, level and seed", " ".join(ids))
    with open(TRACE) as f:
        trace = [float(l) for l in f if l.strip() and not l.lstrip().startswith("#")]
    period = 6.283185307179586
    for q in runs:
        h = q["h"]
        t_end = period
        if q["run"].startswith("long-"):
            # the charts' long run: 50 periods of the spring at the coarsest dt
            check(q["t_end"] == 50 * period and q["level"] == 0,
                  "%s: 50 periods" % q["run"], repr(q["t_end"]))
            t_end = q["t_end"]
        if q["plan"] == "fixed":
            dt = 0.05 / 2 ** q["level"]
            n = math.ceil(t_end / dt - 1e-9)
            check(len(h) == n and all(x == t_end / n for x in h),
                  "%s: N = ceil(t_end/dt - 1e-9) = %d steps of t_end/N" % (q["run"], n))
        elif q["plan"] == "trace":
            # cut at t_end: the last step shortened to land on it
            s = 2.0 ** -q["level"]
            # (level k > 0: replayed, step i = recorded step i mod n, times 2^-k)
            want = [trace[i % len(trace)] * s for i in range(len(h))]
            check(h[:-1] == want[:-1] and 0 < h[-1] <= want[-1],
                  "%s: the trace's steps times 2^-%d, the last cut to land on t_end" %
                  (q["run"], q["level"]))
        else:
            dt = 0.05 / 2 ** q["level"]
            # the last step may be cut short to land on t_end
            check(all(x <= dt * 1.5 * (1 + 1e-15) for x in h) and
                  all(x >= dt * 0.5 * (1 - 1e-15) for x in h[:-1]),
                  "%s: steps within dt (1 +- jitter)" % q["run"])
        if True:
            check(abs(math.fsum(h) - t_end) <= 1e-12 * t_end,
                  "%s: the steps add up to t_end" % q["run"], "%r" % math.fsum(h))
        check(q["x0"] == [1.0] and q["v0"] == [0.0] and q["masses"] == [1.0] and
              q["dim"] == 1 and q["particles"] == 1, "%s: the initial state" % q["run"])
        check(q["header"].startswith("# verletbench run=%s model=spring" % q["run"]),
              "%s: the header to echo names the run" % q["run"])


def run_engine_by_hand(requests, trajdir, cmd):
    os.makedirs(trajdir, exist_ok=True)
    with open(requests) as f:
        lines = f.read().splitlines()
    for line in lines[1:]:
        q = json.loads(line)
        with open(os.path.join(trajdir, q["run"] + ".csv"), "w") as out:
            subprocess.run(cmd, shell=True, input=line + "\n", stdout=out, text=True, check=True,
                           timeout=GUARD)


def test_problem_score_round_trip(tmp):
    case = write_case(tmp, "rt", case_text("orbit", {"e": 0.5}, "3", "0.04"))
    r = vb("problem", case, "--out", os.path.join(tmp, "p"))
    check(r.returncode == 0, "problem exits 0", r.stderr)
    traj = os.path.join(tmp, "traj-vv")
    run_engine_by_hand(os.path.join(tmp, "p", "rt", "requests.jsonl"), traj,
                       PY + " velocity-verlet")
    r = vb("score", traj, "--case", case, "--order", "2", "--name", "mine", "--out",
           os.path.join(tmp, "scored"), "--quiet")
    check(r.returncode == 0, "score DIR exits 0", r.stderr)
    r2 = vb("run", case, "--engine", "mine:2=" + PY + " velocity-verlet", "--engines-only",
            "--out", os.path.join(tmp, "direct"), "--quiet")
    check(r2.returncode == 0, "run --engine --engines-only exits 0", r2.stderr)
    if r.returncode == 0 and r2.returncode == 0:
        for name in ("runs.csv", "orders.csv", "bands.csv", "summary.md", "timeseries.csv"):
            a = open(os.path.join(tmp, "scored", "rt", name)).read().splitlines()
            b = open(os.path.join(tmp, "direct", "rt", name)).read().splitlines()
            # the provenance comment names the engine's command or directory
            a = [l for l in a if not l.startswith("#")]
            b = [l for l in b if not l.startswith("#")]
            check(a == b and a, "score DIR writes the %s of run --engine" % name)
        rows = table(os.path.join(tmp, "scored", "rt", "runs.csv"))
        check({r["integrator"] for r in rows} == {"mine"},
              "--engines-only: only the engine's runs")
    # one file: the row of sim
    f = os.path.join(traj, "random-L1-S2.csv")
    r = vb("score", f, "--name", "mine")
    s = vb("sim", "--model", "orbit", "--set", "e=0.5", "--integrator", "velocity-verlet",
           "--t-end", "3", "--dt", "0.02", "--jitter", "0.5", "--seed", "2")
    check(r.returncode == 0 and s.returncode == 0, "score FILE and sim exit 0",
          r.stderr + s.stderr)
    if r.returncode == 0 and s.returncode == 0:
        a = r.stdout.splitlines()[1].split(",")
        b = s.stdout.splitlines()[1].split(",")
        check(a[0] == b[0] and a[2:] == b[2:], "score FILE gives sim's row",
              r.stdout + s.stdout)
    # a trajectory of other parameters is refused, naming the key
    other = os.path.join(tmp, "other.csv")
    with open(f) as src, open(other, "w") as dst:
        text = src.read()
        dst.write(text)
    os.makedirs(os.path.join(tmp, "traj-bad"), exist_ok=True)
    for name in os.listdir(traj):
        shutil.copy(os.path.join(traj, name), os.path.join(tmp, "traj-bad", name))
    p = os.path.join(tmp, "traj-bad", "fixed-L1.csv")
    with open(p) as fi:
        text = fi.read()
    with open(p, "w") as fo:
        fo.write(text.replace(" e=0.5 ", " e=0.25 ", 1))
    os.remove(os.path.join(tmp, "traj-bad", "random-L2-S1.csv"))
    r = vb("score", os.path.join(tmp, "traj-bad"), "--case", case, "--order", "2", "--out",
           os.path.join(tmp, "scored-bad"), "--quiet")
    check(r.returncode == 1, "score DIR with a wrong and a missing file exits 1 (got %d)" %
          r.returncode, r.stderr)
    # line 2: the example's first line is protocol 2's capability line
    check("run fixed-L1 (plan fixed, level 1): line 2 of " + p + ": the header says 'e=0.25', "
          "but this run has 'e=0.5'" in r.stderr, "a trajectory of other parameters: which key",
          r.stderr)
    check("run random-L2-S1 (plan random, level 2, seed 1)" in r.stderr and
          "random-L2-S1.csv" in r.stderr, "a missing trajectory: which file", r.stderr)
    rows = table(os.path.join(tmp, "scored-bad", "rt", "runs.csv"))
    st = {(r["plan"], r["level"], r["seed"]): r["status"] for r in rows}
    check(st.get(("fixed", "1", "")) == "engine-failed" and
          st.get(("random", "2", "1")) == "engine-failed" and
          sum(v == "ok" for v in st.values()) == len(st) - 2,
          "the other runs are measured", repr(st))
    # check: a baseline from velocity Verlet's trajectories; TCV's under the
    # same name are worse (first order with random steps) and fail it
    base = os.path.join(tmp, "scored")
    r = vb("check", case, "--baseline", base, "--trajectories", "mine:2=" + traj,
           "--engines-only")
    check(r.returncode == 0, "check --trajectories against their own baseline: exit 0 (%d)" %
          r.returncode, r.stdout + r.stderr)
    traj_tcv = os.path.join(tmp, "traj-tcv")
    run_engine_by_hand(os.path.join(tmp, "p", "rt", "requests.jsonl"), traj_tcv, PY + " tcv")
    r = vb("check", case, "--baseline", base, "--trajectories", "mine:2=" + traj_tcv,
           "--engines-only")
    check(r.returncode == 1 and "mine" in r.stdout + r.stderr,
          "check: TCV's trajectories under velocity Verlet's name are worse: exit 1 naming it "
          "(got %d)" % r.returncode, r.stdout + r.stderr)


BAD_CASES = [
    # mode, run broken, exit, what the message must say, status of that run
    ("crash", "fixed-L1", "(plan fixed, level 1)", "the shell's report of signal 11 (Segmentation fault)", "engine-failed"),
    ("exit3", "random-L0-S2", "(plan random, level 0, seed 2)",
     "exit status 3; it said: bad.py: the solver blew up", "engine-failed"),
    ("truncated", "trace-L0", "(plan trace, level 0)", "its output ends after 38 rows",
     "engine-failed"),
    ("halfrow", "fixed-L0", "(plan fixed, level 0)", "line 40 of its output: 2 fields",
     "engine-failed"),
    ("malformed", "fixed-L2", "(plan fixed, level 2)",
     "line 13 of its output, field 2: not a number", "engine-failed"),
    ("wrongtime", "fixed-L0", "(plan fixed, level 0)",
     "line 21 of its output: row 18 is at t = ", "engine-failed"),
    ("extrarow", "fixed-L0", "(plan fixed, level 0)", "more rows than the run's",
     "engine-failed"),
    ("columns", "fixed-L0", "(plan fixed, level 0)", "column 3 is 'vel', want 'v'",
     "engine-failed"),
    ("header", "fixed-L0", "(plan fixed, level 0)", "the header says 'plan=xfixed'",
     "engine-failed"),
    ("row0", "fixed-L0", "(plan fixed, level 0)", "row 0 is not the initial state",
     "engine-failed"),
    ("silent", "fixed-L0", "(plan fixed, level 0)", "its output is empty", "engine-failed"),
    ("trailingcomma", "fixed-L1", "(plan fixed, level 1)",
     "line 26 of its output: 4 fields, the header has 3", "engine-failed"),
    ("hang", "fixed-L1", "(plan fixed, level 1)", "timed out: no answer within 2 s", "engine-failed"),
    ("evalsdown", "fixed-L0", "(plan fixed, level 0)",
     "line 23 of its output: evals 5 is less than the row before's 20", "engine-failed"),
    ("nan", "fixed-L1", None, None, "diverged"),
]


def test_bad_engines(tmp):
    case = write_case(tmp, "bad", case_text("spring", {"k": 1}, "6.283185307179586", "0.01",
                                            halvings=3, seeds=2, use="velocity-verlet"))
    for mode, run_id, plan_text, what, status in BAD_CASES:
        cmd = "%s %s %s" % (BAD, mode, run_id)
        out = os.path.join(tmp, "bad-" + mode)
        # only the hanging engine needs the 2 s limit (its message names it);
        # every other run gets a limit no loaded machine reaches, so a slow
        # start of python3 is never mistaken for a hang
        limit = "2" if mode == "hang" else "120"
        r = vb("run", case, "--engine", "bad:2=" + cmd, "--engine-timeout", limit, "--out", out,
               "--quiet", "-j", "2")
        if status == "engine-failed":
            check(r.returncode == 1, "%s: run exits 1 (got %d)" % (mode, r.returncode),
                  r.stderr)
            want = "engine bad (%s): run %s %s: " % (cmd, run_id, plan_text)
            check(want in r.stderr and what in r.stderr,
                  "%s: the message names the command, the run and what: '%s'" % (mode, what),
                  r.stderr)
        else:
            check(r.returncode == 0, "%s: a NaN is a result: run exits 0 (got %d)" %
                  (mode, r.returncode), r.stderr)
        path = os.path.join(out, "bad", "runs.csv")
        if not os.path.exists(path):
            check(False, "%s: runs.csv written" % mode)
            continue
        rows = table(path)
        mine = [r for r in rows if r["integrator"] == "bad"]
        broken = [r for r in mine if "%s-L%s%s" % (r["plan"], r["level"],
                                                    "-S" + r["seed"] if r["seed"] else "")
                  == run_id]
        check(len(broken) == 1 and broken[0]["status"] == status,
              "%s: run %s is %s" % (mode, run_id, status),
              repr([(b["plan"], b["level"], b["status"]) for b in broken]))
        others_ok = [r for r in rows if r not in broken]
        n, diff = compare_runs([r for r in rows if r not in broken], "bad", "velocity-verlet")
        check(all(r["status"] == "ok" for r in others_ok) and
              len(mine) == len([r for r in rows if r["integrator"] == "velocity-verlet"]),
              "%s: every other run kept and measured" % mode)
        if status == "diverged":
            check(broken[0]["err_pos_max"] == "inf" and broken[0]["fail_step"] == "28",
                  "nan: diverged at the first NaN row (step 28), errors inf",
                  repr(broken[0]))
        check(os.path.exists(os.path.join(out, "bad", "orders.csv")) and
              os.path.exists(os.path.join(out, "summary.md")), "%s: every table written" % mode)


def engine_processes(mark):
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if mark.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def live(pids):
    out = []
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[-1].split()[0] != "Z":
                    out.append(pid)
        except OSError:
            pass
    return out


def test_interrupt_leaves_no_engine(tmp):
    case = write_case(tmp, "intr", case_text("spring", {"k": 1}, "6", "0.05", halvings=2,
                                             jitter=0, trace=False, use="velocity-verlet"))
    mark = "vbtestmark%d" % os.getpid()
    # an engine that hangs, with a child of its own (the process group dies);
    # both carry the mark in their command line
    cmd = ("python3 -c 'import os, time; os.fork(); time.sleep(3600)' %s" % mark)
    p = subprocess.Popen([VB, "run", case, "--engine", "hang:2=" + cmd, "--out",
                          os.path.join(tmp, "intr-out"), "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while len(engine_processes(mark)) < 2 and time.time() < deadline:
        time.sleep(0.05)
    check(bool(engine_processes(mark)), "the engine started")
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=GUARD)
    check(p.returncode == 130, "SIGINT: exit 130 (got %d)" % p.returncode)
    # a killed process is a zombie until its new parent reaps it (where
    # init does not, for ever): only a live one counts
    deadline = time.time() + 10
    left = live(engine_processes(mark))
    while left and time.time() < deadline:
        time.sleep(0.05)
        left = live(engine_processes(mark))
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    check(not left, "SIGINT: no engine process is left", repr(left))
    check(not os.path.exists(os.path.join(tmp, "intr-out", "intr")),
          "SIGINT: nothing written")


def test_usage(tmp):
    case = write_case(tmp, "u", case_text("spring", {"k": 1}, "6", "0.05", halvings=2, jitter=0,
                                          trace=False, use="velocity-verlet"))
    for args, what in [
        # NAME=COMMAND is an engine without a label (docs/real-engines.md §1.8);
        # a spec without '=' is not an engine at all
        (["run", case, "--engine", "x"], "want NAME:ORDER=COMMAND or NAME=COMMAND"),
        (["run", case, "--engine", "Bad Name:2=true"], "the name before ':' must be a-z"),
        (["run", case, "--engine", "x:0=true"], "the order between ':' and '=' must be 1 to 16"),
        (["run", case, "--engine-timeout", "0", "--engine", "x:2=true"], "--engine-timeout"),
        (["run", case, "--engines-only"], "--engines-only, but no engine"),
        (["run", case, "--trajectories", "x:2=" + os.path.join(tmp, "nowhere")], "nowhere"),
        (["score", tmp], "--case CASEFILE"),
        (["score", tmp, "--case", case], "--order P"),
        (["score", os.path.join(tmp, "nofile.csv")], "no such file"),
        (["score", case], "the first line is not"),
        (["run", case, "--engine", "rk4:4=true"], "an integrator's"),
        (["run", case, "--engine", "x:+2=true"], "the order between"),
        (["problem"], "no case files"),
    ]:
        r = vb(*args)
        check(r.returncode == 2 and what in r.stderr, "usage: %s -> exit 2, '%s' (got %d)" %
              (" ".join(a.replace(tmp, "TMP") for a in args[:4]), what, r.returncode), r.stderr)
    bad_case = write_case(tmp, "badeng", case_text("spring", {}, "6", "0.05", halvings=2,
                                                   jitter=0, trace=False,
                                                   engines="py = true\npy.ordr = 2\n"))
    r = vb("run", bad_case)
    check(r.returncode == 2 and "badeng.case" in r.stderr and ":" in r.stderr and
          "py.ordr" in r.stderr, "a case's [engines] with a bad key: exit 2, file:line: key",
          r.stderr)


def test_spelling_said_alike(tmp):
    """An engine's spelling is parsed once, where the option is read
    (engine.c: vb_engine_spec_parse), and every command that takes it says
    the same mistake in the same words, exit 2, before any run: run and
    check (whose cases are then given the parsed engine) and sim.  The
    messages are written here from the grammar of docs/engines.md
    (NAME:ORDER=COMMAND, NAME a-z 0-9 - _, ORDER 1 to 16), not copied
    from what the tool printed."""
    case = write_case(tmp, "sp", case_text("spring", {"k": 1}, "6", "0.05", halvings=2, jitter=0,
                                           trace=False, use="velocity-verlet"))
    out = os.path.join(tmp, "sp-out")
    nowhere = os.path.join(tmp, "nowhere")
    spellings = [
        ("--engine", "vv", "'vv': want NAME:ORDER=COMMAND or NAME=COMMAND "
                           "(for example my-vv:2='python3 engine.py')"),
        ("--engine", "My-VV:2=true", "'My-VV:2=true': the name before ':' must be a-z, 0-9, "
                                     "'-', '_'"),
        ("--engine", "my vv=true", "'my vv=true': the name before '=' must be a-z, 0-9, '-', '_'"),
        ("--engine", "vv:0=true", "'vv:0=true': the order between ':' and '=' must be 1 to 16"),
        ("--engine", "vv:17=true", "'vv:17=true': the order between ':' and '=' must be 1 to 16"),
        ("--engine", "vv:two=true", "'vv:two=true': the order between ':' and '=' must be 1 to 16"),
        ("--engine", "verlet:2=true", "engine name 'verlet' is an integrator's: choose another"),
        ("--engine", "exact=true", "engine name 'exact' is reserved (the charts' exact path)"),
        ("--engine", "vv:2=", "engine vv: no command"),
        ("--trajectories", "vv:2=" + nowhere, nowhere + ": no such directory"),
    ]
    for opt, spelling, said in spellings:
        commands = [("run", [case, "--out", out]), ("check", [case, "--baseline", out])]
        if opt == "--engine":
            commands.append(("sim", ["--model", "spring", "--t-end", "1", "--dt", "0.1"]))
        for cmd, rest in commands:
            r = vb(cmd, *rest, opt, spelling)
            first = r.stderr.splitlines()[0] if r.stderr else ""
            want = "verletbench %s: %s: %s" % (cmd, opt, said)
            check(r.returncode == 2 and first == want,
                  "%s %s '%s': exit 2, '%s' (got %d)" % (cmd, opt, spelling, want, r.returncode),
                  r.stderr)
        check(not os.path.exists(out), "%s '%s': nothing written" % (opt, spelling))
    # the parts of a good spelling reach every case: a ':' after the '=' is
    # the command's, and NAME=COMMAND an engine without a label (order 0:
    # the verdict "measured", docs/real-engines.md §1.8); two cases, an
    # engine each
    fits = [write_case(tmp, name, case_text("spring", {"k": k}, "6", "0.05", halvings=4,
                                            jitter=0, trace=False, use="velocity-verlet"))
            for name, k in (("sp1", 1), ("sp2", 2))]
    r = vb("run", *fits, "--engines-only", "--engine",
           "py=%s velocity-verlet # a:b" % PY, "--out", out, "--quiet")
    check(r.returncode == 0, "run of two cases with NAME=COMMAND: exit 0", r.stderr)
    for name in ("sp1", "sp2"):
        runs = table(os.path.join(out, name, "runs.csv")) if r.returncode == 0 else []
        orders = table(os.path.join(out, name, "orders.csv")) if r.returncode == 0 else []
        check(runs and all(x["integrator"] == "py" and x["status"] == "ok" for x in runs),
              "%s: every run the engine's, measured" % name)
        check(orders and all(x["verdict"] == "measured" and x["expected"] == "" for x in orders),
              "%s: no label, so no expected order and the verdict 'measured'" % name,
              repr([(x.get("expected"), x.get("verdict")) for x in orders]))


def test_threads_same_bytes(tmp):
    case = write_case(tmp, "thr", case_text("orbit", {"e": 0.3}, "3", "0.05", halvings=3,
                                            seeds=3, engines="py = %s tcv\npy.order = 2\n" % PY))
    outs = []
    for j in ("1", "2"):
        out = os.path.join(tmp, "thr-" + j)
        r = vb("run", case, "--out", out, "--quiet", "-j", j)
        check(r.returncode == 0, "-j %s with an engine: exit 0" % j, r.stderr)
        outs.append(out)
    for name in ("runs.csv", "orders.csv", "bands.csv", "timeseries.csv"):
        a = open(os.path.join(outs[0], "thr", name), "rb").read()
        b = open(os.path.join(outs[1], "thr", name), "rb").read()
        check(a == b, "%s: the same bytes on 1 and 2 threads with an engine" % name)


def test_engine_processes(tmp):
    case = write_case(tmp, "proc", case_text("spring", {"k": 1}, "6.283185307179586", "0.05",
                                             halvings=2, seeds=2, use="velocity-verlet"))
    # the engine ends but a child it left holds its output: the run goes on
    # (the time limit is only the hang guard here) and the child is killed
    r = vb("run", case, "--engine", "bg:2=%s background" % BAD, "--engine-timeout", "60",
           "--out", os.path.join(tmp, "bg"), "--quiet", "--no-chart-data")
    check(r.returncode == 0, "an engine that leaves a background child: exit 0 (got %d)" %
          r.returncode, r.stderr)
    rows = table(os.path.join(tmp, "bg", "proc", "runs.csv")) if r.returncode == 0 else []
    check(rows and all(x["status"] == "ok" for x in rows),
          "an engine that leaves a background child: every run measured")
    left = pids_with("vbbackground")
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    check(not left, "the background child is killed with its engine", repr(left))
    # --draw: the charts, and run's exit status kept (1: an engine run failed)
    r = vb("run", case, "--engine", "bad:2=%s exit3 fixed-L1" % BAD, "--out",
           os.path.join(tmp, "drawn"), "--draw", cwd=tmp)
    check(r.returncode == 1 and "| `bad` | 2 |" in r.stdout,
          "run --draw with a failed engine run: exit 1, the table printed (got %d)" %
          r.returncode, r.stdout[-500:] + r.stderr)
    # into DIR/plots for any --out but results: an example run beside
    # make's results/ never replaces make's charts in plots/
    check(os.path.exists(os.path.join(tmp, "drawn", "plots", "proc", "convergence.png")) and
          not os.path.exists(os.path.join(tmp, "plots")),
          "run --draw --out DIR draws the charts into DIR/plots, not plots/")
    # a failed long run of the charts is said, and fails the run
    r = vb("run", case, "--engines-only", "--engine", "bad:2=%s malformed long-fixed" % BAD,
           "--out", os.path.join(tmp, "long"), "--quiet")
    check(r.returncode == 1 and "run long-fixed (the charts' long run, plan fixed): line 13 "
          "of its output, field 2: not a number" in r.stderr,
          "a failed long run: exit 1 and said (got %d)" % r.returncode, r.stderr)
    # --engine-timeout holds for a case file's [engines] too
    hang = write_case(tmp, "hang", case_text("spring", {}, "6", "0.05", halvings=2, jitter=0,
                                             trace=False, use="velocity-verlet",
                                             engines="h = %s hang\nh.order = 2\n" % BAD))
    r = vb("run", hang, "--engine-timeout", "1", "--out", os.path.join(tmp, "hang-out"),
           "--quiet")
    check(r.returncode == 1 and "timed out: no answer within 1 s" in r.stderr,
          "--engine-timeout holds for [engines] (got %d)" % r.returncode, r.stderr)
    # at most 32 engines a case (the 3D rotation cases of cases/engines/ have
    # 20); without .order keys, which would pass a section's 64 keys first
    many = "".join("e%d = true\n" % i for i in range(33))
    c33 = write_case(tmp, "many", case_text("spring", {}, "6", "0.05", halvings=2, jitter=0,
                                            trace=False, engines=many))
    r = vb("run", c33, "--out", os.path.join(tmp, "many-out"))
    check(r.returncode == 2 and "many.case:" in r.stderr and "at most 32 engines" in r.stderr,
          "33 engines in a case: exit 2 naming the line", r.stderr)
    # SIGINT while many engines start on every thread: none is left
    mark = "vbmanymark%d" % os.getpid()
    busy = write_case(tmp, "busy", case_text("spring", {}, "6", "0.05", halvings=4,
                                             seeds=16, trace=False, use="velocity-verlet"))
    for attempt in range(3):
        p = subprocess.Popen([VB, "run", busy, "-j", "16", "--engines-only", "--engine",
                              "m:2=python3 -c 'import time; time.sleep(300)' %s" % mark,
                              "--out", os.path.join(tmp, "busy-out")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(0.3 + 0.4 * attempt)
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=GUARD)
        deadline = time.time() + 10
        left = pids_with(mark)
        while left and time.time() < deadline:
            time.sleep(0.05)
            left = pids_with(mark)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        check(p.returncode == 130 and not left,
              "SIGINT while 16 threads start engines (try %d): exit 130, none left (got %d, "
              "%d left)" % (attempt + 1, p.returncode, len(left)))


def test_score_edges(tmp):
    case = write_case(tmp, "se", case_text("spring", {"k": 1}, "6.283185307179586", "0.05",
                                           halvings=2, seeds=2, use="velocity-verlet"))
    r = vb("problem", case, "--out", os.path.join(tmp, "p"))
    traj = os.path.join(tmp, "traj")
    run_engine_by_hand(os.path.join(tmp, "p", "se", "requests.jsonl"), traj,
                       PY_V1 + " velocity-verlet")
    f = os.path.join(traj, "random-L1-S2.csv")
    a = vb("score", f, "--name", "mine")
    with open(f) as src:
        b = subprocess.run([VB, "score", "/dev/stdin", "--name", "mine"], stdin=src,
                           capture_output=True, text=True, timeout=GUARD)
    with open(f) as src:
        c = subprocess.run("cat | %s score /dev/stdin --name mine" % VB, shell=True, stdin=src,
                           capture_output=True, text=True, timeout=GUARD)
    check(a.returncode == 0 and a.stdout == b.stdout == c.stdout,
          "score FILE, from a redirect and from a pipe: the same row", a.stderr + b.stderr +
          c.stderr)
    for name, want in (("Bad Name", "use a-z"), ("exact", "reserved"),
                       ("velocity-verlet", "an integrator's")):
        r = vb("score", f, "--name", name)
        check(r.returncode == 2 and want in r.stderr, "score --name '%s': exit 2 (got %d)" %
              (name, r.returncode), r.stderr)
    text = open(f).read()
    for old, new, want in ((" seed=2", " seed=1.5", "seed=1.5: not a number"),
                           (" level=1", " level=1 level=1", "level= is given twice")):
        bad = os.path.join(tmp, "bad.csv")
        with open(bad, "w") as out:
            out.write(text.replace(old, new, 1))
        r = vb("score", bad)
        check(r.returncode == 2 and want in r.stderr and "bad.csv:1:" in r.stderr,
              "score FILE with '%s' in its header: exit 2, file:1 (got %d)" % (new.strip(),
                                                                             r.returncode),
              r.stderr)


def test_score_header_by_key(tmp):
    """score FILE reads its header key by key: the same run with its
    parameters in another order, or a number spelt otherwise, is the same
    run (it was refused: the header's keys were compared by position); a
    trace= naming a file that is not a trace is refused without quoting
    what that file holds."""
    case = write_case(tmp, "hk", case_text("spring", {"k": 1, "m": 1}, "6.283185307179586", "0.05",
                                           halvings=2, seeds=1, use="velocity-verlet"))
    vb("problem", case, "--out", os.path.join(tmp, "p"))
    traj = os.path.join(tmp, "traj")
    run_engine_by_hand(os.path.join(tmp, "p", "hk", "requests.jsonl"), traj,
                       PY_V1 + " velocity-verlet")
    f = os.path.join(traj, "random-L0-S1.csv")
    a = vb("score", f, "--name", "mine")
    text = open(f).read()
    check(" k=1 m=1 " in text, "the header names k=1 m=1", text[:300])
    for old, new in ((" k=1 m=1 ", " m=1 k=1 "), (" k=1 m=1 ", " k=1.0 m=1e0 ")):
        swapped = os.path.join(tmp, "swapped.csv")
        with open(swapped, "w") as out:
            out.write(text.replace(old, new, 1))
        b = vb("score", swapped, "--name", "mine")
        check(a.returncode == 0 and b.returncode == 0 and a.stdout == b.stdout,
              "score FILE with '%s' in its header for '%s': the same run, the same row (exit %d)"
              % (new.strip(), old.strip(), b.returncode), b.stderr)
    # score DIR: a header in another order is the case's run; one of another
    # k is not, and fails its run alone, naming the key
    d = os.path.join(tmp, "traj2")
    shutil.copytree(traj, d)
    for name, new in (("fixed-L0.csv", " m=1 k=1 "), ("fixed-L1.csv", " m=1 k=2 ")):
        g = os.path.join(d, name)
        t = open(g).read()
        with open(g, "w") as out:
            out.write(t.replace(" k=1 m=1 ", new, 1))
    r = vb("score", d, "--case", case, "--order", "2", "--name", "mine", "--out",
           os.path.join(tmp, "scored"), "--quiet")
    rows = {(x["plan"], x["level"], x["seed"]): x["status"]
            for x in table(os.path.join(tmp, "scored", "hk", "runs.csv"))} if r.returncode != 2 else {}
    check(r.returncode == 1 and rows.get(("fixed", "0", "")) == "ok" and
          rows.get(("fixed", "1", "")) == "engine-failed" and
          "the header says 'k=2', but this run has 'k=1'" in r.stderr,
          "score DIR: a header in another order is ok, one with k=2 fails its run naming k "
          "(exit %d, %s)" % (r.returncode, rows), r.stderr)
    # trace= naming a file that is not a trace: refused, its content unsaid
    t = os.path.join(traj, "trace-L0.csv")
    secret = os.path.join(tmp, "secret.txt")
    with open(secret, "w") as out:
        out.write("root:TOPSECRET-hash:0:0\n")
    ttext = open(t).read()
    head = ttext.split("\n", 1)[0]
    check(" trace=" in head, "the trace run's header names its trace", head)
    bad = os.path.join(tmp, "secret-trace.csv")
    with open(bad, "w") as out:
        out.write(re.sub(r" trace=\S+", " trace=" + secret, ttext, count=1))
    r = vb("score", bad)
    check(r.returncode == 2 and "secret.txt:1: not a trace" in r.stderr and "TOPSECRET" not in r.stderr,
          "score FILE whose header's trace= is another file: exit 2, where, and not what it holds "
          "(exit %d)" % r.returncode, r.stderr)


def main():
    global VB
    VB = os.path.join(os.path.abspath(sys.argv[1]), "verletbench")
    have_node = shutil.which("node") is not None
    if not have_node:
        check(False, "node is installed (make check installs nodejs; the JavaScript example "
                     "is tested here)")
    with tempfile.TemporaryDirectory() as tmp:
        for test in (test_examples_equal_builtins, test_requests, test_problem_score_round_trip,
                     test_bad_engines, test_interrupt_leaves_no_engine, test_usage,
                     test_spelling_said_alike,
                     test_threads_same_bytes, test_engine_processes, test_score_edges,
                     test_score_header_by_key):
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
