#!/usr/bin/env python3
"""runner.py JOBS [LOG] — run the test suites tests/run.sh lists, JOBS at a
time (0: one a CPU).

Reads the suites from stdin, one a line: "COST<TAB>NAME<TAB>COMMAND" (COMMAND
run by /bin/sh; COST, its CPU seconds on the machine the list was measured
on, decides only which starts first: the costly ones, so that no long
suite starts last and runs alone).  The suites are independent: each
writes in temporary directories of its own.

It prints one line a suite as the suite ends: "ok" or "FAIL", its number
in the list, its name, its "N passed, N failed" and its wall seconds; under
a suite that failed, its output (the lines of the checks that passed left
out).  Each suite's whole output goes to LOG (default build/check.log),
under its "== NAME" heading, as it ends.  A suite whose last line is not
"N passed, N failed" counts as one failure.  The last line sums them:
"N passed, N failed"; the exit status is 0 when none failed."""
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

LAST = re.compile(r"^(\d+) passed, (\d+) failed$")
# a failing suite's lines shown under its line: at most this many, the rest
# in the log (a suite that fails everything can print thousands)
SHOWN = 80


def shown(text):
    """What a failing suite's output shows on the terminal: its lines less
    those of the checks that passed (the unit tests' "ok   NAME"), at most
    SHOWN of them."""
    lines = [l for l in text.rstrip("\n").splitlines() if not l.startswith("ok   ")]
    if lines and LAST.match(lines[-1]):
        lines.pop()  # the counts: on the suite's line
    if len(lines) > SHOWN:
        lines = lines[:SHOWN] + ["... %d lines more" % (len(lines) - SHOWN)]
    return "".join("    " + l + "\n" for l in lines)


def main():
    asked = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 0
    jobs = asked if asked > 0 else os.cpu_count() or 1  # 0 or none: one a CPU
    log_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join("build", "check.log")
    suites = []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip():
            continue
        cost, name, cmd = line.split("\t", 2)
        suites.append({"cost": float(cost), "name": name, "cmd": cmd})
    order = sorted(range(len(suites)), key=lambda i: -suites[i]["cost"])
    lock = threading.Lock()
    pending = list(order)
    os.makedirs(os.path.dirname(log_path) or ".", exist_ok=True)
    log = open(log_path, "w")
    jobs = min(jobs, len(suites)) or 1
    print("check: %d suites, %d at a time; their whole output: %s" % (len(suites), jobs, log_path))
    sys.stdout.flush()
    totals = {"passed": 0, "failed": 0, "ended": 0, "failing": []}

    def ended(i, s):
        """a suite's line, its output to the log and, failed, on the terminal
        (under the lock: one suite's lines at a time)"""
        text = s["output"]
        lines = text.rstrip("\n").splitlines()
        m = LAST.match(lines[-1]) if lines else None
        if m:
            p, f = int(m.group(1)), int(m.group(2))
            counts = "%d passed, %d failed" % (p, f)
        else:
            p, f = 0, 1
            counts = "did not finish (no \"N passed, N failed\" line)"
        totals["passed"] += p
        totals["failed"] += f
        totals["ended"] += 1
        log.write("== %s\n%s" % (s["name"], text if text.endswith("\n") or not text else text + "\n"))
        log.write("(%.0f s wall)\n" % s["wall"])
        log.flush()
        print("%-4s [%2d/%d] %s: %s (%.0f s)" % ("FAIL" if f else "ok", i + 1, len(suites), s["name"],
                                                counts, s["wall"]))
        if f:
            totals["failing"].append(s["name"])
            sys.stdout.write(shown(text))
        sys.stdout.flush()

    def worker():
        while True:
            with lock:
                if not pending:
                    return
                i = pending.pop(0)
            s = suites[i]
            with tempfile.TemporaryFile(mode="w+") as out:
                t0 = time.monotonic()
                subprocess.run(s["cmd"], shell=True, stdout=out, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL)
                out.seek(0)
                s["output"] = out.read()
                s["wall"] = time.monotonic() - t0
            with lock:
                ended(i, s)

    t0 = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    if totals["failing"]:
        print("check: %d of %d suites failed (%s); their whole output: %s"
              % (len(totals["failing"]), len(suites), "; ".join(totals["failing"]), log_path))
    else:
        print("check: %d suites in %.0f s wall; their whole output: %s" % (len(suites), wall, log_path))
    summary = "%d passed, %d failed" % (totals["passed"], totals["failed"])
    log.write(summary + "\n")
    log.close()
    print(summary)
    return 0 if totals["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
