#!/usr/bin/env python3
"""bad.py MODE [RUN] — an engine that goes wrong in one way, for tests/engines.sh.

It computes the correct velocity-Verlet trajectory with the protocol-1
Python example (tests/engines/v1/engine.py, the shipped example before it
became persistent) and then breaks it as MODE says.  With
RUN, only the run of that id ("fixed-L1", ...) is broken; the others are
right, so a test can check that they are kept."""
import io
import json
import os
import signal
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "v1"))
import engine  # noqa: E402

mode = sys.argv[1]
only = sys.argv[2] if len(sys.argv) > 2 else None
line = sys.stdin.readline()
req = json.loads(line)

buf = io.StringIO()
sys.stdin = io.StringIO(line)
sys.argv = ["engine.py", "velocity-verlet"]
real_stdout, sys.stdout = sys.stdout, buf
engine.main()
sys.stdout = real_stdout
lines = buf.getvalue().splitlines()
# lines[0] the '# verletbench' header, [1] the columns, [2] row 0, [3] row 1...

if only is not None and req["run"] != only:
    mode = "good"

if mode == "good":
    pass
elif mode == "crash":
    sys.stdout.write("\n".join(lines[:50]) + "\n")
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGSEGV)
elif mode == "exit3":
    sys.stdout.write("\n".join(lines) + "\n")
    sys.stderr.write("bad.py: the solver blew up\n")
    sys.exit(3)
elif mode == "hang":
    sys.stdout.write("\n".join(lines[:10]) + "\n")
    sys.stdout.flush()
    time.sleep(3600)
elif mode == "truncated":
    lines = lines[:40]
elif mode == "halfrow":
    lines = lines[:40]
    lines[-1] = lines[-1][: len(lines[-1]) // 2]
    sys.stdout.write("\n".join(lines))  # no newline: cut mid-row
    sys.exit(0)
elif mode == "malformed":
    cells = lines[12].split(",")
    cells[1] = "1.2.3"
    lines[12] = ",".join(cells)
elif mode == "wrongtime":
    cells = lines[20].split(",")
    cells[0] = repr(float(cells[0]) * 1.01)
    lines[20] = ",".join(cells)
elif mode == "extrarow":
    lines.append(lines[-1])
elif mode == "columns":
    lines[1] = lines[1].replace(",v", ",vel", 1)
elif mode == "header":
    lines[0] = lines[0].replace("plan=", "plan=x", 1)
elif mode == "row0":
    cells = lines[2].split(",")
    cells[1] = repr(float(cells[1]) + 1e-6)
    lines[2] = ",".join(cells)
elif mode == "nan":
    for k in range(30, len(lines)):
        cells = lines[k].split(",")
        lines[k] = ",".join([cells[0]] + ["nan"] * (len(cells) - 1))
elif mode == "silent":
    lines = []
elif mode == "trailingcomma":
    lines[25] += ","
elif mode == "evalsdown":
    # a count of evaluations so far, one a row, that falls at row 20
    lines[1] += ",evals"
    for k in range(2, len(lines)):
        lines[k] += ",%d" % (k - 1 if k != 22 else 5)
elif mode == "background":
    # a child left running in the background that holds the output open;
    # the engine itself ends normally
    import subprocess
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "vbbackground"],
                     stdout=sys.stdout)
else:
    sys.exit("bad.py: unknown mode " + mode)
if lines:
    sys.stdout.write("\n".join(lines) + "\n")
