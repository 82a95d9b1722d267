#!/usr/bin/env python3
"""runner.py JOBS — run the test suites tests/run.sh lists, JOBS at a time
(0: one a CPU).

Reads the suites from stdin, one a line: "COST<TAB>NAME<TAB>COMMAND" (COMMAND
run by /bin/sh; COST, its CPU seconds on the machine the list was measured
on, decides only which starts first: the costly ones, so that no long
suite starts last and runs alone).  The suites are independent: each
writes in temporary directories of its own.  Each suite's output is kept
and printed whole under its "== NAME" heading, in the order of the list, as
soon as it and every suite before it have ended; a suite whose last line is
not "N passed, N failed" counts as one failure; "(N s wall)" ends each.  The last line sums them:
"N passed, N failed"; the exit status is 0 when none failed."""
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

LAST = re.compile(r"^(\d+) passed, (\d+) failed$")


def main():
    asked = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 0
    jobs = asked if asked > 0 else os.cpu_count() or 1  # 0 or none: one a CPU
    suites = []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip():
            continue
        cost, name, cmd = line.split("\t", 2)
        suites.append({"cost": float(cost), "name": name, "cmd": cmd, "done": threading.Event()})
    order = sorted(range(len(suites)), key=lambda i: -suites[i]["cost"])
    lock = threading.Lock()
    pending = list(order)

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
            s["done"].set()

    threads = [threading.Thread(target=worker) for _ in range(min(jobs, len(suites)))]
    for t in threads:
        t.start()
    passed = failed = 0
    for s in suites:
        s["done"].wait()
        print("== " + s["name"])
        text = s["output"]
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
        lines = text.rstrip("\n").splitlines()
        m = LAST.match(lines[-1]) if lines else None
        if m:
            passed += int(m.group(1))
            failed += int(m.group(2))
        else:
            print("FAIL %s: the suite did not finish" % s["name"])
            failed += 1
        print("(%.0f s wall)" % s["wall"])
        sys.stdout.flush()
    for t in threads:
        t.join()
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
