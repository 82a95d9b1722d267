#!/usr/bin/env python3
"""body_contact.py RESULTS_DIR — what each 3D engine setting does to a rolling
ball and a resting box (issue 54; docs/real-engines.md §6.6), from the
contact.csv that `make engines` writes for cases/engines/roll.case (mu 0.5 and
0.2), roll-incline.case, box-incline.case (mu 0.7, 0.6, 0.2) and
roll-drop.case (JoltPhysics#2121's drop), at 30, 60, 120 and 240 Hz.  A row a setting (the engines, and the lab's solvers round
rigid-explicit-gyro, the engines' step), a cell the four rates "30 / 60 / 120
/ 240 Hz":

- flat roll, mu 0.5 and 0.2: the rolling speed's error against (5/7) v0
  (v_roll against v_roll_exact) and t*'s (t_roll against t_roll_exact),
  relative; "never" where the measure found no roll;
- 30 degrees, mu 0.5: t*'s error, and the error of the acceleration after it
  over g (a_err: a rolling ball's g sin a / (1 + k));
- the cube at mu 0.7 and 0.6, which must stick: its creep over the 10 s
  (contact.csv's creep, exact 0);
- the cube at mu 0.2: the sliding acceleration's error over g (a_err);
- the drop (a ball from 1.25 m at vx = 2, e 0, mu 0.5): its rolling speed
  after the landing against (5/7) vx, and t*'s error (the exact t* is the
  landing, 0.5048 s: the exact impact stops the slip).

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
         "box-incline@mu_s=0.2", "roll-drop")
RATES = (30, 60, 120, 240)
# the lab's rows shown: the engines' step round each solver an engine uses
LAB = ("rigid-explicit-gyro+toi", "rigid-explicit-gyro+speculative", "rigid-explicit-gyro+regularized")


# the columns of contact.csv the reports read
NEEDED = ("integrator", "plan", "dt", "status", "t_roll", "t_roll_exact", "v_roll", "v_roll_exact", "a_err",
          "creep")


class TableError(ValueError):
    """a contact.csv the reports cannot read: "FILE:LINE: what" """


def missing_tables(results, cases, table="contact.csv"):
    """the cases of make engines' results directory that have no table
    (contact.csv), as a message ("" when none is missing)"""
    missing = [c for c in cases if not os.path.isfile(os.path.join(results, c, table))]
    return "%s: no %s of %s (run make engines)" % (results, table, ", ".join(missing)) if missing else ""


def read(d, case, table="contact.csv", needed=NEEDED, numbers=()):
    """a table of a case (contact.csv): its rows, and its engines' provenance
    lines.  TableError for a missing column, a row whose cells are not the
    header's (a file cut short or damaged), a dt that is not a number, or a
    cell of a column of `numbers` that is neither a number nor blank"""
    path = os.path.join(d, case, table)
    with open(path, encoding="utf-8") as f:
        text = f.read().splitlines()
    engines = [m.groups() for m in (re.match(r"# engine ([A-Za-z0-9_-]+): (.*)$", l) for l in text) if m]
    body = [(n, l) for n, l in enumerate(text, 1) if not l.startswith("#")]
    if not body:
        raise TableError("%s: no header line" % path)
    head = next(csv.reader([body[0][1]]))
    missing = [c for c in needed if c not in head]
    if missing:
        raise TableError("%s:%d: no column %s" % (path, body[0][0], ", ".join(missing)))
    rows = []
    for n, line in body[1:]:
        cells = next(csv.reader([line]))
        if len(cells) != len(head):
            raise TableError("%s:%d: %d cells, the header has %d (a file cut short or damaged?)"
                             % (path, n, len(cells), len(head)))
        try:
            float(cells[head.index("dt")])
        except ValueError:
            raise TableError("%s:%d: dt %r is not a number" % (path, n, cells[head.index("dt")])) from None
        for k in numbers:
            x = cells[head.index(k)]
            try:
                ok = not x or (float(x) == float(x) and x.strip() == x)
            except ValueError:
                ok = False
            if not ok:
                raise TableError("%s:%d: %s %r is neither a number nor blank" % (path, n, k, x))
        rows.append(dict(zip(head, cells)))
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
           ("mu 0.2: sliding acceleration (over g)", "box-incline@mu_s=0.2", over_g),
           ("#2121's drop from 1.25 m: speed vs (5/7) vx", "roll-drop", lambda r: rel(r, "v_roll")),
           ("t* (the landing)", "roll-drop", lambda r: rel(r, "t_roll")))


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


# The README's table ("What engines really do", a rolling ball and a resting
# box): each engine as it comes, and the setting its users reach for where
# it changes the answer (docs/real-engines.md §6.6), at 60 Hz
README_ROWS = (("mujoco", "MuJoCo", "defaults (pyramidal cone)"),
               ("mujoco-elliptic-impratio10", "MuJoCo", "elliptic cone, impratio 10"),
               ("jolt", "Jolt", "defaults"),
               ("jolt-spec0", "Jolt", "no speculative contacts"),
               ("bullet", "Bullet", "defaults (a plane ground)"),
               ("bullet-multipoint", "Bullet", "plane, multipoint"),
               ("rapier3d", "Rapier 3D", "defaults (4 substeps)"),
               ("cannon-body", "cannon-es", "defaults"),
               ("havok", "Havok", "defaults"),
               ("ode", "ODE", "dWorldStep, Coulomb friction"),
               ("ode-quick", "ODE", "dWorldQuickStep"))
README_HZ = 60


def percent(r, k):
    """the relative error of k against its exact, in %, two decimals ("0.00 %"
    below 0.005 %); "never" where the measure found none"""
    x, e = num(r, k), num(r, k + "_exact")
    if math.isinf(x):
        return "never"
    if not (math.isfinite(x) and math.isfinite(e) and e != 0):
        return "–"
    p = 100 * (x / e - 1)
    return "0.00 %" if abs(p) < 0.005 else "%+.2f %%" % p


def plain(x):
    """two significant digits, never an exponent: 110, 4.0, 0.0016"""
    if x == 0:
        return "0"
    return "%.*f" % (max(0, 1 - math.floor(math.log10(abs(x)))), x)


def length(x):
    """a length in m as mm or m, two significant digits ("–" for none)"""
    if not math.isfinite(x):
        return "–"
    return "%.1f m" % x if abs(x) >= 1 else plain(1000 * x) + " mm"


def creep_mm(r):
    return length(num(r, "creep"))


def over_g_plain(r):
    x = num(r, "a_err")
    if not math.isfinite(x):
        return "–"
    return "%.1e" % x if x != 0 and abs(x) < 1e-2 else plain(x)


README_COLUMNS = (("flat roll: speed vs (5/7) v0", "roll@mu=0.5", lambda r: percent(r, "v_roll")),
                  ("flat roll: t*", "roll@mu=0.5", lambda r: percent(r, "t_roll")),
                  ("30°: t*", "roll-incline", lambda r: percent(r, "t_roll")),
                  ("cube, μ 0.7: creep in 10 s (exact 0)", "box-incline@mu_s=0.7", creep_mm),
                  ("μ 0.6: creep", "box-incline@mu_s=0.6", creep_mm),
                  ("μ 0.2: sliding acceleration error, over g", "box-incline@mu_s=0.2", over_g_plain),
                  ("#2121's drop: speed vs (5/7) vx", "roll-drop", lambda r: percent(r, "v_roll")))


def package(engine, prov):
    """the engine and its version from the provenance: "MuJoCo 3.12.0" from
    "@mujoco/mujoco@3.12.0; protocol 4 ...", "Jolt (jolt-physics 1.1.0)",
    a Debian package's upstream version ("bullet@3.24+dfsg-2": Bullet 3.24)"""
    for part in prov.split("; "):
        m = re.match(r"^(@?[A-Za-z0-9_./-]+)@(?:[0-9]+:)?([0-9][0-9.]*)", part)
        if m:
            pkg, ver = m.groups()
            short = pkg.split("/")[-1].lower()
            e = engine.lower().replace(" ", "")
            # the engine's own version, or a wrapper's (jolt-physics is Jolt's)
            same = short in (e, e + "-compat")
            return "%s %s" % (engine, ver) if same else "%s (%s %s)" % (engine, pkg, ver)
    return engine


def readme_table(d):
    """the README's table: README_ROWS at README_HZ, the row's engine named
    with its package and version from the run's provenance"""
    data = {c: read(d, c) for c in CASES}
    prov = dict(data[CASES[0]][1])
    out = ["| engine (setting), %d Hz | %s |" % (README_HZ, " | ".join(c[0] for c in README_COLUMNS)),
           "|---" * (len(README_COLUMNS) + 1) + "|"]
    for name, engine, setting in README_ROWS:
        if name not in prov:
            continue
        label = "%s, %s" % (package(engine, prov[name]), setting)
        cells = []
        for _, c, fn in README_COLUMNS:
            rr = [r for r in data[c][0] if r["integrator"] == name and r["plan"] == "fixed"
                  and abs(1.0 / float(r["dt"]) - README_HZ) < 1e-6 * README_HZ]
            cells.append("–" if not rr else rr[0]["status"] if rr[0]["status"] != "ok" else fn(rr[0]))
        out.append("| %s | %s |" % (label, " | ".join(cells)))
    return out


def report(d):
    data = {c: read(d, c) for c in CASES}
    rows0, engines = data[CASES[0]]
    names = [n for n, _ in engines] + [n for n in LAB if any(r["integrator"] == n for r in rows0)]
    lines = ["# What your engine does to a rolling ball and a resting box", "",
             "From `make engines` (`%s`): cases/engines/roll.case, roll-incline.case, "
             "box-incline.case and roll-drop.case, each engine building the scene from the request (protocol 4 with a "
             "body, docs/real-engines.md §6.5) and measured by the lab's contact measures; the lab's "
             "solvers round `rigid-explicit-gyro` (the engines' step) last.  A cell: 30 / 60 / 120 / "
             "240 Hz.  Made by engines/check/body_contact.py." % d, "",
             "| setting | " + " | ".join(c[0] for c in COLUMNS) + " |",
             "|---" * (len(COLUMNS) + 1) + "|"]
    for n in names:
        lines.append("| %s | %s |" % (n, " | ".join(cell(data[c][0], n, fn) for _, c, fn in COLUMNS)))
    lines += ["", "## The README's table", "", "At %d Hz (README.md, \"A rolling ball and a resting box\"):"
              % README_HZ, ""] + readme_table(d)
    lines += ["", "Engines:", ""] + ["- `%s`: %s" % (n, p) for n, p in engines] + [""]
    return "\n".join(lines)


def run_report(script, description, name, cases, report_of, table="contact.csv"):
    """the main of a report of make engines' tables: RESULTS [--out FILE];
    the report of RESULTS (report_of(RESULTS)) written to FILE (default
    RESULTS/NAME, a temporary file renamed) and printed.  Exit status 2,
    the message prefixed with engines/check/SCRIPT, for a --out in no
    directory, a case without its table, or a table the report cannot read"""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("results", help="the results directory of make engines (results/engines)")
    ap.add_argument("--out", help="where to write the report (default RESULTS/%s)" % name)
    a = ap.parse_args()
    if a.out and not os.path.isdir(os.path.dirname(os.path.abspath(a.out))):
        print("engines/check/%s: --out %s: no such directory" % (script, a.out), file=sys.stderr)
        return 2
    missing = missing_tables(a.results, cases, table)
    if missing:
        print("engines/check/%s: %s" % (script, missing), file=sys.stderr)
        return 2
    try:
        text = report_of(a.results)
    except TableError as e:
        print("engines/check/%s: %s" % (script, e), file=sys.stderr)
        return 2
    path = a.out or os.path.join(a.results, name)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    sys.stdout.write(text)
    return 0


def main():
    return run_report("body_contact.py", "What each 3D engine setting does to a rolling ball and a resting box, "
                      "from make engines' contact.csv: results/engines/body-contact.md and the README's table.",
                      "body-contact.md", CASES, report)


if __name__ == "__main__":
    sys.exit(main())
