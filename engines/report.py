#!/usr/bin/env python3
"""report.py RESULTS_DIR — "what your engine really does": the summary of a
`verletbench run cases/engines/*.case --out RESULTS_DIR` (make engines).

Reads what verletbench wrote for each case (orders.csv, runs.csv,
timeseries.csv, summary.md; nothing is recomputed) and writes
RESULTS_DIR/engines.md (a temporary file, then renamed), and prints it.
For each engine and setting:

- what it declared (engine=NAME@VERSION, precision, velocity, substeps);
- the built-in method (or an engine above it in the case) it equals to
  round-off in every run of a plan (the summary's "= name"), or none;
- the fitted order of the largest position error per plan, with its 95 %
  interval (`*`: a trend over every point, no asymptotic range);
- the energy error over the long run, 50 times the case's t_end (50 periods)
  at the coarsest step: the largest |E - E0|/|E0| over it;
- the largest position error at the finest fixed step.
"""
import csv
import io
import os
import re
import sys

CASES = ("spring", "projectile", "orbit", "rod-pendulum")
PLANS = ("fixed", "random", "trace")


def lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def table(path):
    body = [l for l in lines(path) if not l.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(body))))


def engines_of(path):
    """the engines of a case, in order, with their provenance line"""
    out = []
    for l in lines(path):
        m = re.match(r"# engine ([a-z0-9_-]+): (.*)$", l)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def declared(prov):
    """what the provenance line says the engine declared, shortly"""
    parts = [p.strip() for p in prov.split(";")]
    said = []
    for p in parts[1:]:
        if "@" in p and " " not in p:
            said.append(p)
        elif p.startswith("protocol"):
            for d in p.split(","):
                d = d.strip()
                if d in ("float32",):
                    said.append("float32")
                elif d == "velocity derived":
                    said.append("derived v")
                elif d == "velocity none":
                    said.append("no v")
                elif d.endswith("substeps"):
                    said.append(d)
            if p.startswith("protocol 1"):
                said.append("protocol 1")
    return ", ".join(said)


def same_marks(summary_path, name):
    """the '= name' of each plan, from the summary's row of the engine"""
    head, row = None, None
    for l in lines(summary_path):
        if l.startswith("| integrator |"):
            head = [c.strip() for c in l.strip("|").split("|")]
        elif head and re.match(r"\| `%s`" % re.escape(name), l):
            row = [c.strip() for c in l.strip().strip("|").split("|")]
            break
    marks = {}
    if not row:
        return marks
    for col, cell in zip(head, row):
        plan = col.split()[0]
        if plan in PLANS:
            m = re.search(r"= `([^`]+)`", cell)
            marks[plan] = m.group(1) if m else None
    return marks


def order_text(r):
    if not r:
        return "–"
    if r["verdict"] == "exact":
        return "exact"
    if not r["order"]:
        return r["verdict"]
    o = float(r["order"])
    o = 0.0 if abs(o) < 0.005 else o
    if r["range"] == "asymptotic" and r["order_ci95"]:
        return "%.2f ± %.2f" % (o, float(r["order_ci95"]))
    return "%.2f*" % o


def equals_text(marks, plans):
    got = [marks.get(p) for p in plans]
    if got and all(g == got[0] for g in got):
        return "= `%s`" % got[0] if got[0] else "none"
    return ", ".join("%s: %s" % (p, "= `%s`" % g if g else "none") for p, g in zip(plans, got))


def sci(x):
    if x is None:
        return "–"
    if x != x or x == float("inf"):
        return "diverged"
    return "%.2g" % x


def case_rows(d, case):
    orders = table(os.path.join(d, case, "orders.csv"))
    runs = table(os.path.join(d, case, "runs.csv"))
    series = table(os.path.join(d, case, "timeseries.csv"))
    plans = [p for p in PLANS if any(r["plan"] == p for r in orders)]
    rows = []
    for name, prov in engines_of(os.path.join(d, case, "orders.csv")):
        fit = {p: next((r for r in orders if r["integrator"] == name and r["plan"] == p
                        and r["norm"] == "err_pos_max"), None) for p in plans}
        marks = same_marks(os.path.join(d, case, "summary.md"), name)
        energy = [float(r["err_energy"]) for r in series
                  if r["integrator"] == name and r["plan"] == "fixed" and r["err_energy"]]
        fixed = [r for r in runs if r["integrator"] == name and r["plan"] == "fixed"]
        finest = max(fixed, key=lambda r: int(r["level"])) if fixed else None
        rows.append({
            "name": name, "declared": declared(prov), "plans": plans,
            "equals": equals_text(marks, plans), "marks": marks,
            "orders": [order_text(fit[p]) for p in plans],
            "energy": max(energy) if energy else None,
            "finest": float(finest["err_pos_max"]) if finest and finest["status"] == "ok" else None,
            "finest_dt": float(finest["dt"]) if finest else None,
        })
    return rows


def report(d):
    out = ["# What your engine really does", "",
           "Written by `make engines` (engines/report.py) from `verletbench run "
           "cases/engines/*.case --out %s`: every engine setting of `engines/` measured "
           "without an order label, beside the built-in methods. \"= name\": its position "
           "errors equal those of the built-in (or of an engine above it) to round-off in "
           "every run of that plan (float32 "
           "engines by float32's rule, docs/real-engines.md §1.6). Orders: the largest "
           "position error's, with the 95 %% interval (`*`: a trend, no asymptotic range). "
           "Energy: the largest relative energy error over 50 periods (50 × t_end) at the "
           "coarsest step. Finest: the largest position error at the finest fixed step." % d,
           ""]
    per_case = {c: case_rows(d, c) for c in CASES if os.path.isdir(os.path.join(d, c))}
    # the overview: one row a setting, one column a case
    names = []
    for rows in per_case.values():
        for r in rows:
            if r["name"] not in names:
                names.append(r["name"])
    decl = {}
    for rows in per_case.values():
        for r in rows:
            decl.setdefault(r["name"], r["declared"])
    out.append("## All cases: fixed-step order, and the method it equals")
    out.append("")
    out.append("| engine (setting) | declares | " + " | ".join(per_case) + " |")
    out.append("|---|---|" + "---|" * len(per_case))
    for n in names:
        cells = []
        for c, rows in per_case.items():
            r = next((x for x in rows if x["name"] == n), None)
            if not r:
                cells.append("")
                continue
            m = r["marks"].get("fixed")
            cells.append(r["orders"][0] + (", = `%s`" % m if m else ""))
        out.append("| `%s` | %s | %s |" % (n, decl[n], " | ".join(cells)))
    out.append("")
    for c, rows in per_case.items():
        plans = rows[0]["plans"] if rows else list(PLANS)
        out.append("## %s" % c)
        out.append("")
        out.append("| engine (setting) | equals | " + " | ".join("order, %s" % p for p in plans)
                   + " | energy error, 50 periods | finest error (dt) |")
        out.append("|---|---|" + "---|" * len(plans) + "---|---|")
        for r in rows:
            # an engine of velocity=none has no energy (docs/real-engines.md §1.7)
            energy = "no velocity" if "no v" in r["declared"].split(", ") else sci(r["energy"])
            out.append("| `%s` | %s | %s | %s | %s (%.3g) |" % (
                r["name"], r["equals"], " | ".join(r["orders"]), energy,
                sci(r["finest"]), r["finest_dt"] or 0))
        out.append("")
    return "\n".join(out)


def main():
    if len(sys.argv) != 2:
        print("usage: engines/report.py RESULTS_DIR", file=sys.stderr)
        return 2
    d = sys.argv[1]
    if not any(os.path.isfile(os.path.join(d, c, "orders.csv")) for c in CASES):
        print("engines/report.py: %s: no results of cases/engines/ (run make engines)" % d,
              file=sys.stderr)
        return 2
    text = report(d)
    path = os.path.join(d, "engines.md")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text + "\n")
    os.replace(path + ".tmp", path)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
