#!/usr/bin/env python3
"""corrupt_row.py PREFIX ROW COLUMN VALUE COMMAND... — a persistent engine
(COMMAND, which speaks docs/real-engines.md §1) with one cell of its answers
replaced, for the tests (tests/protocol2.py, tests/real_engines_contact.py).

Each request is passed on to COMMAND and its answer read to the end or error
line; in the answer to a run whose id starts with PREFIX ("" for every
run), the cell COLUMN (0 is t) of row ROW (0 the start, -1 the last) is
written as VALUE ("nan", "inf", "-inf", ...).  Everything else, the
capability line first, is COMMAND's, byte for byte."""
import json
import subprocess
import sys

prefix, at, column, value = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
inner = subprocess.Popen(sys.argv[5:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
sys.stdout.write(inner.stdout.readline())  # the capability line
sys.stdout.flush()
for line in sys.stdin:
    inner.stdin.write(line)
    inner.stdin.flush()
    req = json.loads(line)
    if req.get("kind", "run") != "run":
        continue  # requests.jsonl's case line: no answer
    out = []
    while not out or not out[-1].startswith(("# verletbench-end", "# verletbench-error")):
        out.append(inner.stdout.readline())
        if not out[-1]:
            break
    rows = [i for i, l in enumerate(out) if not l.startswith("#")][1:]  # after the column line
    if req.get("run", "").startswith(prefix) and -len(rows) <= at < len(rows):
        cells = out[rows[at]].rstrip("\n").split(",")
        cells[column] = value
        out[rows[at]] = ",".join(cells) + "\n"
    sys.stdout.write("".join(out))
    sys.stdout.flush()
inner.stdin.close()
sys.exit(inner.wait())
