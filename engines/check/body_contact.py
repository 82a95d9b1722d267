#!/usr/bin/env python3
"""body_contact.py RESULTS_DIR — what each 3D engine setting does to a rolling
ball and a resting box (issue 54; docs/real-engines.md §6.6), from the
contact.csv that `make engines` writes for cases/engines/roll.case (mu 0.5 and
0.2), roll-incline.case and box-incline.case (mu 0.7, 0.6, 0.2), at 30, 60,
120 and 240 Hz.  A row a setting (the engines, and the lab's solvers round
rigid-explicit-gyro, the engines' step), a cell the four rates "30 / 60 / 120
/ 240 Hz":

- flat roll, mu 0.5 and 0.2: the rolling speed's error against (5/7) v0
  (v_roll against v_roll_exact) and t*'s (t_roll against t_roll_exact),
  relative; "never" where the measure found no roll;
- 30 degrees, mu 0.5: t*'s error, and the error of the acceleration after it
  over g (a_err: a rolling ball's g sin a / (1 + k));
- the cube at mu 0.7 and 0.6, which must stick: its creep over the 10 s
  (contact.csv's creep, exact 0);
- the cube at mu 0.2: the sliding acceleration's error over g (a_err).

Writes RESULTS_DIR/body-contact.md (a temporary file, renamed) and prints
it."""
import argparse
import csv
import io
import math
import os
import re
import sys

CASES = ("roll@mu=0.5", "roll@mu=0.2", "roll-incline", "box-incline@mu_s=0.7", "box-incline@mu_s=0.6",
         "box-incline@mu_s=0.2")
RATES = (30, 60, 120, 240)
# the lab's rows shown: the engines' step round each solver an engine uses
LAB = ("rigid-explicit-gyro+toi", "rigid-explicit-gyro+speculative", "rigid-explicit-gyro+regularized")


def read(d, case):
    """contact.csv of a case: its rows, and its engines' provenance lines"""
    with open(os.path.join(d, case, "contact.csv"), encoding="utf-8") as f:
        text = f.read().splitlines()
    engines = [m.groups() for m in (re.match(r"# engine ([A-Za-z0-9_-]+): (.*)$", l) for l in text) if m]
    rows = list(csv.DictReader(io.StringIO("\n".join(l for l in text if not l.startswith("#")))))
    return rows, engines


def num(r, k):
    try:
        return float(r[k])
    except (KeyError, ValueError):
        return math.nan


def rel(r, k):
    x, e = num(r, k), num(r, k + "_exact")
    if math.isinf(x):
        return "never"
    if not (math.isfinite(x) and math.isfinite(e) and e != 0):
        return "–"
    return "%+.2g %%" % (100 * (x / e - 1))


def creep(r):
    x = num(r, "creep")
    if not math.isfinite(x):
        return "–"
    return "%.2g mm" % (1000 * x) if abs(x) < 1 else "%.3g m" % x


def over_g(r):
    x = num(r, "a_err")
    return "%+.1e" % x if math.isfinite(x) else "–"


COLUMNS = (("flat, mu 0.5: speed vs (5/7) v0", "roll@mu=0.5", lambda r: rel(r, "v_roll")),
           ("t*", "roll@mu=0.5", lambda r: rel(r, "t_roll")),
           ("flat, mu 0.2: speed", "roll@mu=0.2", lambda r: rel(r, "v_roll")),
           ("t*", "roll@mu=0.2", lambda r: rel(r, "t_roll")),
           ("30°, mu 0.5: t*", "roll-incline", lambda r: rel(r, "t_roll")),
           ("rolling acceleration (over g)", "roll-incline", over_g),
           ("cube, mu 0.7: creep in 10 s", "box-incline@mu_s=0.7", creep),
           ("mu 0.6: creep", "box-incline@mu_s=0.6", creep),
           ("mu 0.2: sliding acceleration (over g)", "box-incline@mu_s=0.2", over_g))


def cell(rows, name, fn):
    out = []
    for hz in RATES:
        rr = [r for r in rows if r["integrator"] == name and r["plan"] == "fixed"
              and abs(1.0 / float(r["dt"]) - hz) < 1e-6 * hz]
        if not rr:
            out.append("–")
        elif rr[0]["status"] != "ok":
            out.append(rr[0]["status"])
        else:
            out.append(fn(rr[0]))
    return " / ".join(out)


def report(d):
    data = {c: read(d, c) for c in CASES}
    rows0, engines = data[CASES[0]]
    names = [n for n, _ in engines] + [n for n in LAB if any(r["integrator"] == n for r in rows0)]
    lines = ["# What your engine does to a rolling ball and a resting box", "",
             "From `make engines` (`%s`): cases/engines/roll.case, roll-incline.case and "
             "box-incline.case, each engine building the scene from the request (protocol 4 with a "
             "body, docs/real-engines.md §6.5) and measured by the lab's contact measures; the lab's "
             "solvers round `rigid-explicit-gyro` (the engines' step) last.  A cell: 30 / 60 / 120 / "
             "240 Hz.  Made by engines/check/body_contact.py." % d, "",
             "| setting | " + " | ".join(c[0] for c in COLUMNS) + " |",
             "|---" * (len(COLUMNS) + 1) + "|"]
    for n in names:
        lines.append("| %s | %s |" % (n, " | ".join(cell(data[c][0], n, fn) for _, c, fn in COLUMNS)))
    lines += ["", "Engines:", ""] + ["- `%s`: %s" % (n, p) for n, p in engines] + [""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", help="the results directory of make engines (results/engines)")
    ap.add_argument("--out", help="where to write the report (default RESULTS/body-contact.md)")
    a = ap.parse_args()
    missing = [c for c in CASES if not os.path.isfile(os.path.join(a.results, c, "contact.csv"))]
    if missing:
        print("engines/check/body_contact.py: %s: no contact.csv of %s (run make engines)" %
              (a.results, ", ".join(missing)), file=sys.stderr)
        return 2
    text = report(a.results)
    path = a.out or os.path.join(a.results, "body-contact.md")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
