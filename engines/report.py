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

And "what your engine does to a spinning body", from the rotation cases
(dzhanibekov, spin-major-1, -5, -20, symmetric-top), each 3D setting a row
(protocol 3, docs/real-engines.md §4), the built-in rotation methods
below them:

- the built-in method it equals to round-off in every run of a plan of the
  flip (the summary's "= name", float32 engines by float32's rule), or none;
- the fitted order of the attitude error (orders.csv, err_att_max) with
  fixed steps on the flip and on the symmetric top, with its 95 % interval;
- the flip period's relative error at 60 Hz (flips.csv, against 4K(m)/lambda,
  where the flips are regular, docs/rigid.md §4; "irregular" where they are
  not; the flips seen and the exact motion's in 60 s);
- the drift of the world angular momentum, max |L - L0|/|L0|, and of the
  energy, max |E - E0|/|E0|, over the flip's 60 s at 60 Hz (runs.csv);
- the time a stable spin first tumbles at 60 Hz, at 1, 5 and 20 rad/s
  (flips.csv's t_tumble of spin-major-W; "none in T s": not within t_end).
"""
import csv
import io
import os
import re
import sys

CASES = ("spring", "projectile", "orbit", "rod-pendulum")
FLIP, TOP, SPINS = "dzhanibekov", "symmetric-top", (1, 5, 20)
HZ60 = 1.0 / 60.0
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
        # a plan's column of positions ("fixed", "random (median)"), or a
        # rigid body's of its attitude ("attitude, fixed"), which carries
        # its "= name"
        plan = (col[len("attitude, "):] if col.startswith("attitude, ") else col).split()[0]
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
    if not per_case:
        return "\n".join(out + rotation_report(d))
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
    if os.path.isfile(os.path.join(d, FLIP, "orders.csv")):
        out += rotation_report(d)
    return "\n".join(out)


def at_60hz(rows, name):
    """the fixed-step run of name at h = 1/60 s, or None"""
    return next((r for r in rows if r["integrator"] == name and r["plan"] == "fixed"
                 and abs(float(r["dt"]) - HZ60) <= 1e-12), None)


def rotation_rows(d):
    """a row a setting of the rotation cases: the engines (in the flip's
    order), then the built-in rotation methods"""
    flip = os.path.join(d, FLIP)
    orders = table(os.path.join(flip, "orders.csv"))
    runs = table(os.path.join(flip, "runs.csv"))
    flips = table(os.path.join(flip, "flips.csv"))
    plans = [p for p in PLANS if any(r["plan"] == p for r in orders)]
    top = os.path.join(d, TOP)
    top_orders = table(os.path.join(top, "orders.csv")) if os.path.isdir(top) else []
    spins = {}
    for w in SPINS:
        sd = os.path.join(d, "spin-major-%d" % w)
        if os.path.isdir(sd):
            spins[w] = (table(os.path.join(sd, "flips.csv")), table(os.path.join(sd, "runs.csv")))
    engines = engines_of(os.path.join(flip, "orders.csv"))
    names = [(n, declared(p)) for n, p in engines]
    builtins = []
    for r in runs:
        if r["integrator"] not in builtins and r["integrator"] not in dict(names):
            builtins.append(r["integrator"])
    out = []
    for name, decl in names + [(b, None) for b in builtins]:
        def att(rows):
            fit = next((r for r in rows if r["integrator"] == name and r["plan"] == "fixed"
                        and r["norm"] == "err_att_max"), None)
            return order_text(fit)
        marks = same_marks(os.path.join(flip, "summary.md"), name)
        run = at_60hz(runs, name)
        fl = at_60hz(flips, name)
        tumbles = []
        for w in SPINS:
            if w not in spins:
                tumbles.append("–")
                continue
            f = at_60hz(spins[w][0], name)
            if not f:
                tumbles.append("–")
            elif f["t_tumble"]:
                # a method that tumbles may go on to diverge (explicit Euler)
                tumbles.append("%.3g s%s" % (float(f["t_tumble"]), ", then %s" % f["status"]
                                             if f["status"] != "ok" else ""))
            elif f["status"] != "ok":
                tumbles.append(f["status"])
            else:
                tumbles.append("none in %g s" % float(f["t_end"]))
        out.append({
            "name": name, "declared": decl, "builtin": decl is None,
            "equals": equals_text(marks, plans) if decl is not None else "",
            "flip_order": att(orders), "top_order": att(top_orders) if top_orders else "–",
            "flips": fl, "run": run, "tumbles": tumbles})
    return out


def period_text(f):
    if not f:
        return "–"
    if f["status"] != "ok":
        return f["status"]
    seen = "%s of %s flips" % (f["flips"], f["flips_exact"])
    if not f["flip_period_err"] and int(f["flips"]) >= 2 and int(f["flips_exact"]) >= 2:
        return "irregular (%s)" % seen  # no period: docs/rigid.md §4
    if not f["flip_period_err"]:
        return "none (%s)" % seen
    return "%+.2g %% (%s)" % (100.0 * float(f["flip_period_err"]), seen)


def drift_text(run, col):
    if not run:
        return "–"
    if run["status"] != "ok":
        return run["status"]
    return sci(float(run[col])) if run[col] else "–"


def rotation_report(d):
    rows = rotation_rows(d)
    out = ["## What your engine does to a spinning body", "",
           "The rotation cases (`cases/engines/dzhanibekov.case`, `spin-major-1`, `-5`, `-20`, "
           "`symmetric-top`), each 3D setting of `engines/` a row (protocol 3, "
           "docs/real-engines.md §4), the built-in rotation methods below them. \"= name\": "
           "its attitude and packed-state errors equal the built-in's to round-off in every "
           "run of that plan of the flip (float32 engines by float32's rule). Attitude order: "
           "the fitted order of the largest attitude error with fixed steps 1/15, 1/30, "
           "1/60 s, with its 95 % interval (`*`: a trend, no asymptotic range), on the flip "
           "(I = (1, 2, 3), w = (0.01, 1, 0.01)) and on the symmetric top. Flip period: its "
           "relative error at 60 Hz against 4K(m)/λ = 39.11 s where the flips are regular "
           "(docs/rigid.md §4; irregular: they are not, and no period is given), and the "
           "flips seen against the exact motion's in 60 s. Drift: the largest |L − L0|/|L0| "
           "of the world "
           "angular momentum and |E − E0|/|E0| of the energy over the flip's 60 s at 60 Hz. "
           "Tumbles: the time a stable spin about the major axis (1 % wobble) first tumbles "
           "at 60 Hz (flips.csv's t_tumble), at 1, 5 and 20 rad/s; none: not within the "
           "case's 90 s.", "",
           "| setting | declares | equals | attitude order, flip | attitude order, top | "
           "flip period at 60 Hz | L drift, 60 s | E drift, 60 s | tumbles, 1 rad/s | "
           "tumbles, 5 rad/s | tumbles, 20 rad/s |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            "`%s`" % r["name"] if not r["builtin"] else "built-in `%s`" % r["name"],
            r["declared"] or "", r["equals"], r["flip_order"], r["top_order"],
            period_text(r["flips"]), drift_text(r["run"], "err_angmom_max"),
            drift_text(r["run"], "err_energy_max"), " | ".join(r["tumbles"])))
    out.append("")
    return out


def main():
    if len(sys.argv) != 2:
        print("usage: engines/report.py RESULTS_DIR", file=sys.stderr)
        return 2
    d = sys.argv[1]
    if not any(os.path.isfile(os.path.join(d, c, "orders.csv")) for c in CASES + (FLIP,)):
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
