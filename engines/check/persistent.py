#!/usr/bin/env python3
"""persistent.py [--verletbench BIN] [--quick] — protocol version 2 from the
engine's side (docs/real-engines.md), before verletbench speaks it: a small
harness of its own drives each helper's test engine (check/euler-semi.*) and
every adapter as the spec says verletbench will, and checks that

- the first line of every output is a capability line the spec allows;
- one process serves many requests, each trajectory ended by its end line,
  written one request at a time (the harness waits for an end line before it
  sends the next request), and every trajectory is, byte for byte, what a
  process of its own writes for that request alone (protocol 1): nothing is
  carried from one run to the next;
- a request that fails mid-stream (in make, in step 3, a line that is not
  JSON) is answered by an error line naming the run, and the process goes on
  with the next request; its exit status at the end of the input is then 1;
- requests.jsonl's "case" line gets no answer;
- an engine that retires (Chipmunk after an abort inside its step) says so
  on its end line and exits, and a new worker serves the rest.

The requests come from `verletbench problem engines/check/cases/*.case`.
Run from anywhere after `make build` and `make -C engines npm all`.  Ends
with "N passed, N failed"."""
import argparse
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TIMEOUT = 120.0  # seconds for one answer; Rapier's first takes ~1 s

HELPERS = [
    ("c", "engines/build/vb-euler-semi-c"),
    ("js", "node engines/check/euler-semi.js"),
    ("py", "python3 engines/check/euler-semi.py"),
]
ADAPTERS = [
    ("matter-js", "node engines/matter-js/adapter.js"),
    ("planck", "node engines/planck/adapter.js"),
    ("cannon-es", "node engines/cannon-es/adapter.js"),
    ("rapier", "node engines/rapier/adapter.js"),
    ("box2d", "engines/build/box2d"),
    ("chipmunk", "engines/build/chipmunk"),
]

results = {}


def check(cond, what):
    if not cond:
        print("FAIL  " + what)
    results[what] = bool(cond)


# ---- the harness's side of protocol 2 ------------------------------------------------

CAP_KEYS = {
    "protocol": lambda v: v == "2",
    "persistent": lambda v: v in ("0", "1"),
    "precision": lambda v: v in ("float64", "float32"),
    "velocity": lambda v: v in ("state", "derived", "none"),
    "substeps": lambda v: re.fullmatch(r"[1-9][0-9]*", v) is not None,
    "engine": lambda v: re.fullmatch(r"\S{1,200}", v) is not None,
}


def parse_capabilities(line):
    """{key: value} of a capability line, or a message saying what is wrong"""
    lead = "# verletbench-engine "
    if not line.startswith(lead):
        return "not a capability line: %r" % line[:80]
    caps = {}
    for tok in line[len(lead):].split():
        k, eq, v = tok.partition("=")
        if not eq or k not in CAP_KEYS or k in caps or not CAP_KEYS[k](v):
            return "bad token %r" % tok
        caps[k] = v
    if "protocol" not in caps:
        return "no protocol="
    return caps


class Worker:
    """One engine process, its stdin a pipe: requests go in one at a time."""

    def __init__(self, command):
        self.err = tempfile.TemporaryFile()
        self.p = subprocess.Popen(command, shell=True, cwd=ROOT, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.caps = None

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.decode("utf-8").rstrip("\n"))
        self.lines.put(None)  # the end of its output

    def line(self):
        try:
            return self.lines.get(timeout=TIMEOUT)
        except queue.Empty:
            return "TIMEOUT"

    def send(self, text):
        self.p.stdin.write(text.encode("utf-8"))
        self.p.stdin.flush()

    def answer(self, run):
        """Read one answer: ("end", text, attrs), ("error", message) or
        ("died", what).  The first answer starts with the capability line."""
        rows = []
        while True:
            line = self.line()
            if line is None or line == "TIMEOUT":
                return ("died", line or "end of output")
            if self.caps is None:
                self.caps = parse_capabilities(line)
                continue
            if line.startswith("# verletbench-end "):
                attrs = dict(t.partition("=")[::2] for t in line.split()[2:])
                if attrs.get("run") != run:
                    return ("died", "end line of run %r, want %r" % (attrs.get("run"), run))
                return ("end", "\n".join(rows) + "\n", attrs)
            if line.startswith("# verletbench-error "):
                return ("error", line[len("# verletbench-error "):])
            rows.append(line)  # rows of a run that then fails are dropped

    def close(self):
        """stdin closed: the engine ends; its exit status"""
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.p.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return "killed"


def alone(command, request_line):
    """protocol 1: the request alone on stdin, then its end; (status, output)"""
    r = subprocess.run(command, shell=True, cwd=ROOT, input=request_line.encode("utf-8"),
                       capture_output=True, timeout=TIMEOUT)
    return r.returncode, r.stdout.decode("utf-8")


def trajectory_of(output):
    """protocol 1's output less the lines protocol 2 adds (capability, end)"""
    return "".join(line + "\n" for line in output.splitlines()
                   if not line.startswith(("# verletbench-engine ", "# verletbench-end ")))


# ---- the checks ------------------------------------------------------------------------

def requests(verletbench, case, tmp):
    out = os.path.join(tmp, "problems")
    subprocess.run([verletbench, "problem", os.path.join(ROOT, "engines/check/cases/%s.case" % case),
                    "--out", out], check=True, capture_output=True)
    with open(os.path.join(out, case, "requests.jsonl"), encoding="utf-8") as f:
        return f.read().splitlines()


def pick(lines, quick):
    """the case line, then fixed, random and trace runs (fewer with quick)"""
    runs = [l for l in lines if json.loads(l)["kind"] == "run"]
    if quick:
        runs = [r for r in runs if re.search(r'"run":"(fixed-L[01]|random-L0-S[12]|trace-L0)"', r)]
    return lines[0], runs


def same_as_alone(name, command, runs, expect_caps):
    """many requests through one process = each alone, byte for byte"""
    w = Worker(command)
    t_persistent = time.time()
    answers = []
    for r in runs:
        run = json.loads(r)["run"]
        w.send(r + "\n")
        answers.append((run, w.answer(run)))
    status = w.close()
    t_persistent = time.time() - t_persistent
    caps = w.caps
    check(isinstance(caps, dict), "%s: a capability line first (%s)" % (name, caps))
    if isinstance(caps, dict):
        for k, v in expect_caps.items():
            check(caps.get(k) == v, "%s: capability %s=%s (got %s)" % (name, k, v, caps.get(k)))
    check(status == 0, "%s: exit status 0 at the end of the input (got %s)" % (name, status))
    t_alone = time.time()
    for (run, a), r in zip(answers, runs):
        st, out = alone(command, r + "\n")
        check(a[0] == "end", "%s: run %s answered with its end line (%s)" % (name, run, a[:1] + a[1:][:1]))
        check(st == 0 and out.splitlines()[0].startswith("# verletbench-engine ")
              and out.splitlines()[-1] == "# verletbench-end run=%s" % run,
              "%s: run %s alone (protocol 1): capability line, trajectory, end line, exit 0" % (name, run))
        if a[0] == "end":
            check(a[1] == trajectory_of(out),
                  "%s: run %s through one process = the run alone, byte for byte" % (name, run))
    t_alone = time.time() - t_alone
    # wall times with this harness reading every line in Python: what start-up
    # costs shows, but this is no benchmark (make bench is)
    print("# %-10s %2d runs: one process %.2f s, a process each %.2f s" % (name, len(runs), t_persistent, t_alone))


def errors_mid_stream(name, command, case_line, runs):
    """failing requests between good ones; the case line gets no answer"""
    good = [json.loads(r) for r in runs[:3]]
    fail_make = dict(good[0], run="fail-make")
    fail_step = dict(good[1], run="fail-step")
    w = Worker(command)
    seq = []

    def ask(req, text=None):
        w.send((text if text is not None else json.dumps(req)) + "\n")
        seq.append(w.answer(req["run"] if req else "?"))

    ask(good[0])
    ask(fail_make)
    w.send(case_line + "\n")  # no answer: the next answer is good[1]'s
    ask(good[1])
    ask(None, text='{"kind":"run","run":"broken", "h":[0.1')  # not JSON
    ask(fail_step)
    ask(good[2])
    status = w.close()
    kinds = [a[0] for a in seq]
    check(kinds == ["end", "error", "end", "error", "error", "end"],
          "%s: good, fail in make, good, not JSON, fail in step 3, good: %s" % (name, kinds))
    if len(seq) == 6:
        check(seq[1][1].startswith("run=fail-make "), "%s: the error line names run fail-make: %s" % (name, seq[1][1]))
        check(seq[3][1].startswith("run=? ") and "JSON" in seq[3][1],
              "%s: a line that is not JSON: run=? and says so: %s" % (name, seq[3][1]))
        check(seq[4][1].startswith("run=fail-step ") and "step 3" in seq[4][1],
              "%s: the error line names run fail-step and says why: %s" % (name, seq[4][1]))
        st, out = alone(command, runs[2] + "\n")
        check(seq[5][1] == trajectory_of(out), "%s: the run after the failures is the run alone, byte for byte" % name)
    check(status == 1, "%s: exit status 1 at the end of the input after a failed run (got %s)" % (name, status))
    # protocol 1: the failed run alone fails with exit status 1, an error line and a message
    st, out = alone(command, json.dumps(fail_step) + "\n")
    check(st == 1 and "# verletbench-error run=fail-step" in out,
          "%s: a failing request alone (protocol 1): exit status 1 and its error line" % name)


def retire(verletbench, tmp):
    """Chipmunk aborts inside cpSpaceStep on a body gone infinite
    (cpBody.c:104-127): the run is diverged (NaN rows), its end line says
    retire=1, the process exits; a new worker serves the next request"""
    h = [1000.0] * 200  # explicit Euler on the spring grows ~1000x a step: past doubles in ~100
    big = {"kind": "run", "run": "huge-steps", "model": "spring", "params": {"k": 1, "m": 1, "x0": 1, "v0": 0},
           "dim": 1, "particles": 1, "masses": [1], "x0": [1], "v0": [0], "plan": "fixed", "level": 0,
           "t_end": 200000.0, "header": "# verletbench run=huge-steps", "h": h, "steps": len(h)}
    small = dict(big, run="after", h=[0.1] * 5, steps=5, t_end=0.5)
    w = Worker("engines/build/chipmunk")
    w.send(json.dumps(big) + "\n")
    a = w.answer("huge-steps")
    check(a[0] == "end" and a[2].get("retire") == "1", "chipmunk: the aborted run ends with retire=1 (%s)" % (a[2:] or a[:2],))
    if a[0] == "end":
        rows = a[1].splitlines()[2:]
        check(len(rows) == 201 and rows[-1].endswith(",nan,nan") and rows[50].count("nan") == 0,
              "chipmunk: 201 rows, finite at first, NaN after the abort (a diverged run)")
    check(w.line() is None, "chipmunk: after retire=1 its output ends")
    check(w.close() == 0, "chipmunk: a retired worker exits with status 0")
    w2 = Worker("engines/build/chipmunk")
    w2.send(json.dumps(small) + "\n")
    b = w2.answer("after")
    check(b[0] == "end" and len(b[1].splitlines()) == 2 + 6, "chipmunk: a new worker serves the next request")
    w2.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verletbench", default=os.path.join(ROOT, "build", "verletbench"))
    ap.add_argument("--quick", action="store_true", help="6 runs a case, not all")
    ap.add_argument("--only", help="only the engines whose name contains this")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        spring_case, spring = pick(requests(args.verletbench, "spring", tmp), args.quick)
        orbit_case, orbit = pick(requests(args.verletbench, "orbit", tmp), args.quick)
        _, rod = pick(requests(args.verletbench, "rod-pendulum", tmp), True)
        for name, command in HELPERS:
            if args.only and args.only not in "helper-" + name:
                continue
            same_as_alone("helper-" + name, command, spring + orbit,
                          {"protocol": "2", "persistent": "1", "precision": "float64", "velocity": "state"})
            errors_mid_stream("helper-" + name, command, spring_case, spring)
        expect = {"matter-js": {"velocity": "derived"}, "rapier": {"precision": "float32", "substeps": "4"},
                  "box2d": {"precision": "float32"}}
        for name, command in ADAPTERS:
            if args.only and args.only not in name:
                continue
            few = 3 if name == "rapier" else len(spring)  # Rapier: ~1 s a process
            same_as_alone(name, command, spring[:few] + orbit[:few] + rod[:2],
                          dict({"protocol": "2", "persistent": "1"}, **expect.get(name, {})))
        if not args.only or "chipmunk" in args.only:
            retire(args.verletbench, tmp)
    passed = sum(results.values())
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
