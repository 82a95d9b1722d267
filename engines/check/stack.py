#!/usr/bin/env python3
"""stack.py RESULTS_DIR — how long each 3D engine's stack of boxes stands, and
how far it drifts, sinks and jitters before (issue 55; protocol 5,
docs/real-engines.md §7), from the stacks.csv that `make engines` writes for
cases/engines/stack.case (5 equal boxes of 0.1 m), stack-heavy.case (each
box 10 and 100 times heavier than the one below) and stack-tall.case (20
boxes), 2 s at 30 to 480 Hz.  The exact answer is that no box moves: drift,
speed and depth 0, and the stack stands for ever.

A table a case: a row a setting (each [engines] row of the case, its
settings the KEY=VALUE words of its command, and the lab's solvers round
rigid-explicit-gyro) and rate, its stacks.csv measures: drift_max (the
largest displacement of any box), speed_rms (the boxes' speeds' root mean
square), depth_max (the deepest penetration) and t_collapse (the first time
a box had moved by half its edge; "stands" when it never did).

Then the README's table "how long a stack stands" at 60 Hz: a row each lab
solver and each engine at its defaults (an [engines] row whose command has
no KEY=VALUE setting), a column a case (ratio 1, 10, 100, and 20 boxes): the
time the stack collapsed, or "stands" with its drift.

Writes RESULTS_DIR/stack.md (a temporary file, renamed) and prints it.
Exit status 2, naming file:line, for a missing or damaged stacks.csv."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_contact import read, run_report, num, package, length  # noqa: E402

TABLE = "stacks.csv"
# the cases of make engines, each with its README column's heading
CASES = (("stack", "5 boxes, ratio 1"), ("stack-heavy@ratio=10", "ratio 10"),
         ("stack-heavy@ratio=100", "ratio 100"), ("stack-tall", "20 boxes, ratio 1"))
MEASURES = ("drift_max", "speed_rms", "depth_max", "t_collapse")
NEEDED = ("integrator", "plan", "dt", "status", "iterations", "substeps") + MEASURES
README_HZ = 60


def read_stacks(d, case):
    """stacks.csv of a case: its rows and its engines' provenance lines
    (TableError naming file:line for a damaged one)"""
    return read(d, case, TABLE, NEEDED, ("iterations", "substeps") + MEASURES)


def hz_of(r):
    return 1.0 / float(r["dt"])


def at_hz(rows, name, hz):
    """the row of a setting's fixed-step run at hz, or None"""
    rr = [r for r in rows if r["integrator"] == name and r["plan"] == "fixed"
          and abs(hz_of(r) - hz) < 1e-6 * hz]
    return rr[0] if rr else None


def short(x):
    """a measure, three significant digits; "–" for none"""
    return "%.3g" % x if math.isfinite(x) else "–"


def collapse(r):
    """when the stack collapsed ("stands": it never did in the run)"""
    t = num(r, "t_collapse")
    return "stands" if not r["t_collapse"] else "%.3g s" % t


def settings(rows, engines):
    """the case's settings in order: its engines (the [engines] rows), then
    the lab's solvers (integrator+solver)"""
    names = [n for n, _ in engines]
    for r in rows:
        if r["integrator"] not in names:
            names.append(r["integrator"])
    return names


def case_table(rows, engines):
    """the markdown table of a case: a row a setting and rate"""
    prov = dict(engines)
    out = ["| setting | Hz | iterations | substeps | drift_max (m) | speed_rms (m/s) | depth_max (m) "
           "| t_collapse |", "|---|---|---|---|---|---|---|---|"]
    for name in settings(rows, engines):
        label = package(name, prov[name]) if name in prov else "`%s`" % name
        for r in sorted((r for r in rows if r["integrator"] == name and r["plan"] == "fixed"), key=hz_of):
            head = "| %s | %.0f | %s | %s |" % (label, hz_of(r), r["iterations"] or "–", r["substeps"] or "–")
            if r["status"] != "ok":
                out.append("%s %s | | | |" % (head, r["status"]))
            else:
                out.append("%s %s | %s | %s | %s |" % (head, short(num(r, "drift_max")), short(num(r, "speed_rms")),
                                                      short(num(r, "depth_max")), collapse(r)))
    return out


def at_defaults(command):
    """whether an [engines] row runs the engine at its own defaults: its
    command has no KEY=VALUE setting (protocol 5, "the engine's own default")"""
    return not any("=" in w for w in command.split())


def readme_rows(data):
    """the README's rows: each lab solver (integrator+solver) and each
    engine at its defaults (not the test engines of engines/check/), in the
    order of the first case that has them"""
    names, prov = [], {}
    for rows, engines in data.values():
        for n, p in engines:
            prov.setdefault(n, p)
            # the harness's own test engines (engines/check/) answer the
            # exact stack: the report has them, the README's findings not
            if at_defaults(p.split("; ")[0]) and "engines/check/" not in p.split("; ")[0] and n not in names:
                names.append(n)
    lab = []
    for rows, _ in data.values():
        for r in rows:
            if "+" in r["integrator"] and r["integrator"] not in lab:
                lab.append(r["integrator"])
    return lab + names, prov


def readme_cell(r):
    """when a box had first moved by half its edge (t_collapse: said as
    that, not as a fall, for a stack that stands taller, as Box2D's skin
    lifts its boxes, moves a box too), or "stands" with its drift"""
    if r is None:
        return "–"
    if r["status"] != "ok":
        return r["status"]
    if r["t_collapse"]:
        return "½ edge off at %.2g s" % num(r, "t_collapse")
    return "stands (drift %s)" % length(num(r, "drift_max"))


def readme_table(d):
    """the README's table "how long a stack stands", at README_HZ"""
    data = {c: read_stacks(d, c) for c, _ in CASES}
    names, prov = readme_rows(data)
    out = ["| solver or engine (defaults), %d Hz | %s |" % (README_HZ, " | ".join(h for _, h in CASES)),
           "|---" * (len(CASES) + 1) + "|"]
    for name in names:
        label = package(name, prov[name]) if name in prov else "lab: `%s`" % name
        out.append("| %s | %s |" % (label, " | ".join(readme_cell(at_hz(data[c][0], name, README_HZ))
                                                       for c, _ in CASES)))
    return out


def report(d):
    lines = ["# How long your engine's stack stands", "",
             "From `make engines` (`%s`): cases/engines/stack.case, stack-heavy.case and stack-tall.case, each "
             "engine building the boxes and the ground from the request (protocol 5, docs/real-engines.md §7) "
             "and measured by the lab's stack measures (stacks.csv); the lab's solvers round "
             "`rigid-explicit-gyro` (the engines' step) last.  The exact stack never moves: drift, speed and "
             "depth 0, and it stands.  Made by engines/check/stack.py." % d, ""]
    for case, heading in CASES:
        rows, engines = read_stacks(d, case)
        lines += ["## %s (%s)" % (case, heading), ""] + case_table(rows, engines) + [""]
    lines += ["## The README's table", "", "At %d Hz (README.md, \"How long a stack stands\"):" % README_HZ, ""]
    lines += readme_table(d) + [""]
    return "\n".join(lines)


def main():
    return run_report("stack.py", "How long each 3D engine's stack of boxes stands, from make engines' "
                      "stacks.csv: results/engines/stack.md and the README's table.",
                      "stack.md", [c for c, _ in CASES], report, TABLE)


if __name__ == "__main__":
    sys.exit(main())
