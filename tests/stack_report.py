#!/usr/bin/env python3
"""stack_report.py BUILD_DIR — engines/check/stack.py, the report of make
engines' stacks.csv (issue 55), held to tables whose truth is known
without the report:

- a results directory written here by hand (the four cases' stacks.csv, an
  engine at its defaults, the same engine with iterations=20, the lab's
  pgs; cells chosen here): every line of the README's table "how long a
  stack stands" is the line written here from those cells (a collapse "½ edge
  off at T s", a stand "stands (drift D mm)"), the setting with a KEY=VALUE
  word is left out of it, a case's table has a row a setting and rate with
  its cells, and a run that failed says its status;
- damage named, exit 2, never a traceback: a drift_max 'zzz' (file:line),
  a file cut mid-line (file:line), a stacks.csv gone (the case), a
  column gone (its name);
- the lab's cases/stack*.case run by the tool: toi keeps every stack
  exactly (docs/contact.md, "Stacks": drift 0 to the bit, tests/stack_runs.py),
  so its README row says "stands (drift 0 mm)" in all four columns, and a
  case's table has a row for each fixed-step row of its stacks.csv.
Ends with "N passed, N failed"."""
import os
import shutil
import subprocess
import sys

import suite

S = suite.Suite("stack report", guard=300)
check, vb = S.check, S.vb
REPORT = os.path.join(suite.ROOT, "engines", "check", "stack.py")
CASES = ("stack", "stack-heavy@ratio=10", "stack-heavy@ratio=100", "stack-tall")

HEAD = ("model,integrator,plan,dt,status,iterations,substeps,drift_max,speed_rms,depth_max,t_collapse")
ENGINES = ("# engine jolt: node ../../engines/jolt/adapter.js; jolt-physics@1.1.0; protocol 5, persistent, "
           "float32, velocity state, angvel world\n"
           "# engine jolt-it20: node ../../engines/jolt/adapter.js iterations=20; jolt-physics@1.1.0; protocol 5, "
           "persistent, float32, velocity state, angvel world\n")
H60, H120 = "0.016666666666666666", "0.0083333333333333332"
# the cells of each case: (integrator, dt, status, iterations, substeps, drift, speed, depth, t_collapse)
CELLS = {
    "stack": [("rigid-explicit-gyro+pgs", H60, "ok", "10", "1", "0.0037", "0.011", "0.00098", ""),
              ("jolt", H60, "ok", "", "", "0.0042", "0.01", "0.002", ""),
              ("jolt", H120, "ok", "", "", "0.0011", "0.004", "0.001", ""),
              ("jolt-it20", H60, "ok", "20", "", "0.0009", "0.002", "0.001", "")],
    "stack-heavy@ratio=10": [("rigid-explicit-gyro+pgs", H60, "ok", "10", "1", "0.57", "0.59", "0.11", "0.1"),
                             ("jolt", H60, "ok", "", "", "0.6", "0.7", "0.05", "0.25"),
                             ("jolt-it20", H60, "ok", "20", "", "0.01", "0.02", "0.003", "")],
    "stack-heavy@ratio=100": [("rigid-explicit-gyro+pgs", H60, "ok", "10", "1", "1.27", "0.75", "0.12", "0.1"),
                              ("jolt", H60, "engine-failed", "", "", "", "", "", ""),
                              ("jolt-it20", H60, "ok", "20", "", "1.5", "1.2", "0.05", "0.6")],
    "stack-tall": [("rigid-explicit-gyro+pgs", H60, "ok", "10", "1", "2", "1.3", "0.068", "0.11666666666666667"),
                   ("jolt", H60, "ok", "", "", "0.0315", "0.05", "0.004", "")],
}
# the README's table, written from CELLS by hand: jolt-it20 has a KEY=VALUE
# word (a setting, not the defaults), so it has no row
README = ["| solver or engine (defaults), 60 Hz | 5 boxes, ratio 1 | ratio 10 | ratio 100 | 20 boxes, ratio 1 |",
          "|---|---|---|---|---|",
          "| lab: `rigid-explicit-gyro+pgs` | stands (drift 3.7 mm) | ½ edge off at 0.1 s | ½ edge off at 0.1 s "
          "| ½ edge off at 0.12 s |",
          "| jolt (jolt-physics 1.1.0) | stands (drift 4.2 mm) | ½ edge off at 0.25 s | engine-failed "
          "| stands (drift 32 mm) |"]
# rows of the case tables, from CELLS by hand
CASE_ROWS = ["| jolt (jolt-physics 1.1.0) | 120 | – | – | 0.0011 | 0.004 | 0.001 | stands |",
             "| jolt-it20 (jolt-physics 1.1.0) | 60 | 20 | – | 1.5 | 1.2 | 0.05 | 0.6 s |",
             "| jolt (jolt-physics 1.1.0) | 60 | – | – | engine-failed | | | |"]


def write_results(d):
    for case, rows in CELLS.items():
        os.makedirs(os.path.join(d, case), exist_ok=True)
        with open(os.path.join(d, case, "stacks.csv"), "w") as f:
            f.write("# verletbench 0.2.0 (git 0): the measures ... of cases/engines/%s.case\n" % case.split("@")[0])
            f.write("# model=stack n=5 size=0.1 ratio=1 shift=0 mu=0.5 m=1 g=9.81 t_end=2\n" + ENGINES + HEAD + "\n")
            for r in rows:
                f.write("stack,%s,fixed,%s\n" % (r[0], ",".join(r[1:])))


def report(d, *extra):
    return subprocess.run([sys.executable, REPORT, d] + list(extra), capture_output=True, text=True)


def test_hand_written(tmp):
    d = os.path.join(tmp, "hand")
    write_results(d)
    r = report(d)
    check(r.returncode == 0, "stack.py on a hand-written results directory", r.stderr[-400:])
    out = r.stdout.splitlines()
    start = out.index(README[0]) if README[0] in out else -1
    check(start >= 0 and out[start:start + len(README)] == README and
          (start + len(README) == len(out) or not out[start + len(README)].startswith("|")),
          "the README's table is the one written from the cells by hand",
          "\n".join(out[start:start + 6]) if start >= 0 else r.stdout[-800:])
    for line in CASE_ROWS:
        check(line in out, "a case's table has the row %s" % line, r.stdout[-1500:])
    with open(os.path.join(d, "stack.md")) as f:
        check(f.read() == r.stdout, "stack.md is what it printed")
    check(not os.path.exists(os.path.join(d, "stack.md.tmp")), "no temporary file left")


def damaged(tmp, name, edit, want):
    d = os.path.join(tmp, name)
    write_results(d)
    path = os.path.join(d, "stack-heavy@ratio=10", "stacks.csv")
    with open(path) as f:
        lines = f.read().splitlines()
    text = edit(lines)
    if text is None:
        os.remove(path)
    else:
        with open(path, "w") as f:
            f.write(text)
    r = report(d, "--out", os.path.join(tmp, name + ".md"))
    check(r.returncode == 2 and want in r.stderr and "Traceback" not in r.stderr,
          "stack.py on %s: exit 2 naming '%s'" % (name, want), (r.returncode, r.stderr[-400:]))


def test_damage(tmp):
    # line 6 is the first row (2 '#' lines, 2 engines, the header)
    damaged(tmp, "zzz", lambda l: "\n".join(l[:5] + [l[5].replace(",0.57,", ",zzz,")] + l[6:]) + "\n",
            "stack-heavy@ratio=10/stacks.csv:6: drift_max 'zzz' is neither a number nor blank")
    damaged(tmp, "cut", lambda l: "\n".join(l[:6]) + "\n" + l[6][:20], "stack-heavy@ratio=10/stacks.csv:7: ")
    damaged(tmp, "gone", lambda l: None, "no stacks.csv of stack-heavy@ratio=10")
    damaged(tmp, "column", lambda l: "\n".join(x.rsplit(",", 1)[0] if not x.startswith("#") else x for x in l) + "\n",
            "no column t_collapse")


def test_lab_cases(tmp):
    out = os.path.join(tmp, "lab")
    r = vb("run", "--quiet", "-j", "1", *[os.path.join(suite.ROOT, "cases", c + ".case")
                                           for c in ("stack", "stack-heavy", "stack-tall")], "--out", out)
    check(r.returncode == 0, "the lab's stack cases run", r.stderr[-400:])
    r = report(out)
    check(r.returncode == 0, "stack.py on the lab's cases", r.stderr[-400:])
    lines = r.stdout.splitlines()
    toi = [l for l in lines if l.startswith("| lab: `rigid-explicit-gyro+toi` |")]
    check(toi == ["| lab: `rigid-explicit-gyro+toi` | " + " | ".join(["stands (drift 0 mm)"] * 4) + " |"],
          "toi keeps every stack exactly: its README row stands with no drift", toi)
    for case in CASES:
        rows = [x for x in suite.table_rows(os.path.join(out, case, "stacks.csv")) if x["plan"] == "fixed"]
        at = lines.index("## %s" % case + next(l[len("## " + case):] for l in lines if l.startswith("## " + case + " ")))
        end = next((i for i, l in enumerate(lines[at + 4:]) if not l.startswith("|")), len(lines))
        check(end == len(rows),
              "%s: a row of the report a fixed-step row of stacks.csv" % case, (len(rows), end))


def test_readme_table(tmp):
    """The README's table "How long a stack stands" is what stack.py prints
    from the harness's stacks.csv of cases/engines/stack, stack-heavy and
    stack-tall as committed, cut to the engines at their defaults (no
    KEY=VALUE in the command: the README's rows) and to 60 and 120 Hz
    (halvings 2 from 1/60, which is 1/30 halved to the bit); a cell changed
    in the README, or an adapter that moves a number, fails it."""
    import re
    cases = []
    for c in ("stack", "stack-heavy", "stack-tall"):
        with open(os.path.join(suite.ROOT, "cases", "engines", c + ".case")) as f:
            text = f.read()
        out, section = [], ""
        for line in text.splitlines():
            if line.startswith("["):
                section = line.strip()
            m = re.match(r"([A-Za-z0-9_-]+)\s*=(.*)$", line)
            if section == "[steps]" and m and m.group(1) == "dt":
                line = "dt = %r" % (0.03333333333333333 / 2)
            elif section == "[steps]" and m and m.group(1) == "halvings":
                line = "halvings = 2"
            elif section == "[engines]" and m and "=" in m.group(2):
                continue  # a setting: not in the README
            out.append(line.replace("../../engines/", os.path.join(suite.ROOT, "engines") + "/"))
        cases.append(os.path.join(tmp, c + ".case"))
        with open(cases[-1], "w") as f:
            f.write("\n".join(out) + "\n")
    d = os.path.join(tmp, "readme-stacks")
    r = S.vb_engines("run", *cases, "--no-chart-data", "--quiet", "-j", "2", "--out", d)
    check(r.returncode == 0, "the README's engines on the stack cases run through verletbench", r.stderr[-800:])
    if r.returncode != 0:
        return
    r = report(d)
    printed = r.stdout.splitlines()
    at = next((i for i, l in enumerate(printed) if l.startswith("| solver or engine (defaults)")), None)
    want = []
    if at is not None:
        for l in printed[at:]:
            if not l.startswith("|"):
                break
            want.append(l)
    with open(os.path.join(suite.ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"\n(\| solver or engine \(defaults\), 60 Hz \|.*?)\n\n", text, re.S)
    shown = m.group(1).splitlines() if m else []
    check(len(want) > 10 and shown == want, "the README's stack table is what stack.py prints from the cases' runs",
          "\n".join(x for x in shown if x not in want) + "\n--- printed ---\n" +
          "\n".join(x for x in want if x not in shown))


if __name__ == "__main__":
    sys.exit(S.main([test_hand_written, test_damage, test_lab_cases, test_readme_table]))
