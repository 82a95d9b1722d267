#!/usr/bin/env python3
"""contact.py RESULTS_DIR [--out FILE] — "what your engine does at a contact":
the report of `verletbench run cases/engines/*.case --out RESULTS_DIR` (make
engines) for the six 2D engines at a contact (protocol 4, docs/real-engines.md
§6; docs/contact.md).  Nothing is measured here: verletbench drove each
engine's contact adapter (engines/*/contact.*) with the case's numbers and
measured its rows with the contact measures of src/contact/contact_metrics.c,
and this reads the contact.csv of the contact cases:

- bounce: the measured restitution of each of the first three bounces at 30,
  60 and 120 Hz, a ball of radius 0.1 m dropped from h0 = 1 m, e = 0.8
  (contact.csv's e_bounce1..3: sqrt(E after / E before) of the flight energy);
- bounce-elastic: the energy gained at e = 1 after 10 bounces at 60 Hz
  (energy_gain_10, exact 0);
- bounce-count and bounce-threshold: the bounces in 5 s at 60 Hz, h0 = 1,
  e = 0.55, against the exact count with each engine's own restitution
  threshold: Box2D's and planck's 1 m/s (bounce-threshold: impacts at 4.43,
  2.44, 1.34, 0.74 m/s, so 3), none for the others (bounce-count: infinitely
  many, the rest at t_inf = 1.55 s);
- slide: a square block of edge 0.2 m at v0 = 3 m/s, mu = 0.5, its stop at
  60 Hz (stop_x: where its velocity is 0, reversed or below 1e-6 v0) against
  v0^2 / (2 mu g) = 0.9174 m;
- tunnel: the smallest speed at which a ball (r = 0.1 m) passes a wall of
  thickness w = 0.05 m at 60 Hz (pass_speed: six start phases, a grid of
  speeds refined twice), against the bound (w + 2r)/dt = 15 m/s; "never" when
  no speed up to 100 times that passes, "≤ x" when the lowest speed tried
  passed (pass_at_most: an upper bound, not a measured speed).

Writes RESULTS_DIR/contact.md (or FILE: a temporary file, then renamed) and
prints it: the table a setting a row, with the engines' provenance lines, and
the README's short table ("At a contact"), which tests/real_engines_contact.py
holds the README to."""
import argparse
import csv
import io
import math
import os
import re
import sys

CASES = ("bounce", "bounce-elastic", "bounce-count", "bounce-threshold", "slide", "tunnel")
RATES = (30, 60, 120)
# the README's rows: an engine, or engines whose cells are shown together
README_ROWS = (("Box2D 2.4.1, planck", ("box2d", "planck")), ("Rapier 2D", ("rapier",)),
               ("matter-js", ("matter",)), ("cannon-es", ("cannon",)), ("Chipmunk", ("chipmunk",)))


def read(d, case):
    """contact.csv of a case: its rows, and its engines' provenance lines in order"""
    with open(os.path.join(d, case, "contact.csv"), encoding="utf-8") as f:
        text = f.read().splitlines()
    engines = []
    for line in text:
        m = re.match(r"# engine ([a-z0-9_-]+): (.*)$", line)
        if m:
            engines.append((m.group(1), m.group(2)))
    rows = list(csv.DictReader(io.StringIO("\n".join(l for l in text if not l.startswith("#")))))
    return rows, engines


def num(s):
    return float(s) if s not in ("", None) else None


class Results:
    def __init__(self, d):
        self.rows, self.engines = {}, {}
        for c in CASES:
            self.rows[c], self.engines[c] = read(d, c)

    def row(self, case, name, hz):
        """the fixed-step row of an engine at hz, or None"""
        return next((r for r in self.rows[case] if r["integrator"] == name and r["plan"] == "fixed"
                     and abs(float(r["dt"]) - 1.0 / hz) <= 1e-12 / hz), None)

    def settings(self):
        return [n for n, _ in self.engines["bounce"]]

    def count_case(self, name):
        """an engine at its own threshold: bounce-threshold if it has one"""
        return "bounce-threshold" if any(n == name for n, _ in self.engines["bounce-threshold"]) \
            else "bounce-count"


def failed(r):
    return r is None or r["status"] != "ok"


def e_cell(r):
    if failed(r):
        return r["status"] if r else "–"
    es = [num(r["e_bounce%d" % i]) for i in (1, 2, 3)]
    es = [e for e in es if e is not None]
    return ", ".join("%.3f" % e for e in es) if es else "none"


def gain_cell(r):
    if failed(r):
        return r["status"] if r else "–"
    g = num(r["energy_gain_10"])
    return "%+.1f %%" % (100 * g) if g is not None else "fewer than 10 bounces (%s)" % r["bounces"]


def count_cell(r):
    if failed(r):
        return r["status"] if r else "–"
    exact = num(r["bounces_exact"])
    if exact == math.inf:
        ex = "∞, rest at %.2f s" % num(r["t_rest_exact"])
    else:
        ex = "%d" % exact
    return "%d (exact %s)" % (num(r["bounces"]), ex)


def slide_cell(r):
    if failed(r):
        return r["status"] if r else "–"
    x, exact = num(r["stop_x"]), num(r["stop_x_exact"])
    if x is None or x == math.inf:
        return "slides on"
    return "%.4f m (%+.1f %%)" % (x, 100 * (x / exact - 1))


def tunnel_cell(r):
    if failed(r):
        return r["status"] if r else "–"
    v, bound = num(r["pass_speed"]), num(r["pass_bound"])
    if v == math.inf:
        return "never (to %g m/s)" % (100 * bound)
    if r.get("pass_at_most") == "1":  # an upper bound: the lowest speed tried passed
        return "≤ %.4g m/s (≤ %.4f of the bound: the lowest speed tried passed)" % (v, v / bound)
    return "%.4g m/s (%.2f of the bound)" % (v, v / bound)


def table(res):
    r60 = lambda case, n: res.row(case, n, 60)  # noqa: E731
    s0 = next(r for r in res.rows["slide"] if r["plan"] == "fixed")
    t0 = res.row("tunnel", res.settings()[0], 60)
    head = ["setting"] + ["e per bounce, %d Hz (e = 0.8)" % RATES[0]] + ["%d Hz" % h for h in RATES[1:]] + [
        "energy gain at e = 1, 10 bounces, 60 Hz", "bounces in 5 s, e = 0.55, 60 Hz (its own threshold)",
        "slide stop, 60 Hz (exact %.4f m)" % float(s0["stop_x_exact"]),
        "tunnelling speed, 60 Hz (bound (w+2r)/dt = %g m/s)" % float(t0["pass_bound"])]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for n in res.settings():
        cells = [n] + [e_cell(res.row("bounce", n, hz)) for hz in RATES]
        cells += [gain_cell(r60("bounce-elastic", n)), count_cell(r60(res.count_case(n), n)),
                  slide_cell(r60("slide", n)), tunnel_cell(r60("tunnel", n))]
        out.append("| " + " | ".join(cells) + " |")
    return out


def readme_cells(res, name):
    """an engine's cells of the README's table, at 60 Hz"""
    b, g = res.row("bounce", name, 60), res.row("bounce-elastic", name, 60)
    s, t = res.row("slide", name, 60), res.row("tunnel", name, 60)
    gain = 100 * float(g["energy_gain_10"])
    v = float(t["pass_speed"])
    passes = "never" if v == math.inf else ("≤ %.2g m/s" if t.get("pass_at_most") == "1" else "%.1f m/s") % v
    return ["%.2f" % float(b["e_bounce1"]), "%+.*f %%" % (1 if abs(gain) < 10 else 0, gain),
            "%.3f m" % float(s["stop_x"]), passes]


def readme_table(res):
    """the README's "At a contact" table: each row's cells, a second engine's
    in parentheses where they differ"""
    exact = float(next(r for r in res.rows["slide"] if r["plan"] == "fixed")["stop_x_exact"])
    out = ["| engine | e = 0.8, first bounce | e = 1: energy after 10 bounces | slide stop (exact %.3f m) "
           "| a ball (r = 0.1 m) passes a 5 cm wall from |" % exact, "|---|---|---|---|---|"]
    for label, names in README_ROWS:
        cells = [readme_cells(res, n) for n in names]
        row = []
        for k, first in enumerate(cells[0]):
            others = ["%s %s" % (n, c[k]) for n, c in zip(names[1:], cells[1:]) if c[k] != first]
            row.append(first + (" (%s)" % ", ".join(others) if others else ""))
        out.append("| %s | %s |" % (label, " | ".join(row)))
    return out


def report(d):
    res = Results(d)
    prov = []
    for c in CASES:
        for n, p in res.engines[c]:
            line = "<!-- engine %s: %s -->" % (n, p)
            if line not in prov:
                prov.append(line)
    out = ["# What your engine does at a contact", "",
           "<!-- made by: python3 engines/check/contact.py %s, from the contact.csv of "
           "cases/engines/%s.case (docs/contact.md) -->" % (d, ",".join(CASES))] + prov
    out += ["", "Each engine's contact adapter driven by verletbench with the case's numbers (protocol 4, "
            "docs/real-engines.md §6) and measured with the contact measures of docs/contact.md. "
            "Bounces: a ball of radius 0.1 m dropped from 1 m; e per bounce is sqrt(E after / E before) "
            "of the flight energy u²/2 + g y. The count is at each engine's own restitution threshold "
            "(Box2D's and planck's 1 m/s, none for the others). The slide: a block of edge 0.2 m at "
            "3 m/s, friction 0.5. The tunnel: a ball of radius 0.1 m, a wall 0.05 m thick.", ""]
    out += table(res)
    out += ["", "## The README's table", "", "At 60 Hz (README.md, \"At a contact\"):", ""]
    out += readme_table(res)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", help="the results directory of make engines (results/engines)")
    ap.add_argument("--out", help="where to write the report (default RESULTS/contact.md)")
    a = ap.parse_args()
    missing = [c for c in CASES if not os.path.isfile(os.path.join(a.results, c, "contact.csv"))]
    if missing:
        print("engines/check/contact.py: %s: no contact.csv of %s (run make engines)" %
              (a.results, ", ".join(missing)), file=sys.stderr)
        return 2
    text = report(a.results)
    path = a.out or os.path.join(a.results, "contact.md")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
