#!/usr/bin/env python3
"""creep_chart.py RESULTS_DIR OUT_DIR — the chart "creep against dt per
engine" (issue 54.5; docs/real-engines.md §6.6): the creep over the run of
box-incline's cube that must stick (cases/engines/box-incline.case: mu 0.7
and 0.6 on 30 degrees, where tan 30 = 0.577, 10 s), at each rate the case ran
(30, 60, 120, 240 Hz), from the contact.csv that `make engines` writes
(RESULTS_DIR/box-incline@mu_s=0.7/, @mu_s=0.6/; the table
engines/check/body_contact.py reports): |creep| against dt, log-log, a line
per engine setting (each [engines] row of the case), a panel a mu.  The
exact creep is 0 at every dt, which a log axis cannot show: the title says
so, and the lab's rows (METHOD+SOLVER) are left out.  A cell a log axis
cannot show either (a creep of exactly 0, a run that failed) is not drawn,
and the line's key says how many; a creep up the slope (negative) is drawn
as its size and its key says so.

Writes OUT_DIR/body-contact-creep.csv (the points: mu_s, setting, dt,
creep as in contact.csv, the value drawn: its size, the same digits; a block of rows a line) and
OUT_DIR/body-contact-creep.png from it with gnuplot ($GNUPLOT, as
verletbench draw), each a temporary
file renamed.  Exit status 2 for a missing table or bad usage."""
import argparse
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from body_contact import read, missing_tables, TableError  # noqa: E402  contact.csv's rows and provenance

MUS = ("0.7", "0.6")
CASE = "box-incline@mu_s=%s"
NAME = "body-contact-creep"
# a colour an engine (the setting's first word), a dash and point a setting
COLOURS = {"mujoco": "#d62728", "jolt": "#1f77b4", "bullet": "#ff7f0e", "rapier3d": "#2ca02c",
           "cannon": "#8c564b", "ode": "#9467bd", "havok": "#17becf"}
OTHER = "#7f7f7f"


def model_of(d, case):
    """the model's parameters from contact.csv's provenance line
    "# model=box-incline size=... alpha=... mu_s=... mu_k=... m=... t_end=..." """
    with open(os.path.join(d, case, "contact.csv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("# model="):
                return dict(w.split("=", 1) for w in line[2:].split())
    return {}


def lines_of(rows, engines):
    """(setting, [(dt, creep text, value drawn or None, why not)]) for each
    engine setting, in the case's order, dt largest first"""
    out = []
    for name, _ in engines:
        pts = []
        mine = [r for r in rows if r["integrator"] == name and r["plan"] == "fixed"]
        for r in sorted(mine, key=lambda r: -float(r["dt"])):
            text = r["creep"]
            try:
                c = float(text)
            except ValueError:
                c = math.nan
            if r["status"] != "ok" or not math.isfinite(c):
                pts.append((r["dt"], text, None, r["status"] if r["status"] != "ok" else "unmeasured"))
            elif c == 0.0:
                pts.append((r["dt"], text, None, "0"))
            else:
                pts.append((r["dt"], text, abs(c), "up the slope" if c < 0 else ""))
        out.append((name, pts))
    return out


def key_of(name, pts):
    """a line's key: the setting, and what of it is not drawn"""
    notes = []
    zero = sum(1 for p in pts if p[3] == "0")
    up = sum(1 for p in pts if p[3] == "up the slope")
    failed = sorted({p[3] for p in pts if p[2] is None and p[3] != "0"})
    if zero:
        notes.append("0 at %d dt, not drawn" % zero)
    if up:
        notes.append("up the slope at %d dt" % up)
    for f in failed:
        notes.append("%s at %d dt, not drawn" % (f, sum(1 for p in pts if p[3] == f)))
    return name + (" (" + "; ".join(notes) + ")" if notes else "")


def gp_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dts(panels):
    """every step the chart has a point at, as numbers"""
    return sorted({float(p[0]) for _, lines in panels for _, pts in lines for p in pts}) or [1.0]


def data_file(panels, provenance):
    """the chart's points, a block a line (blank line between: gnuplot's
    'every :::k::k'), with how they were made"""
    out = ["# %s.csv: the points of %s.png, made by engines/check/creep_chart.py from %s" %
           (NAME, NAME, ", ".join("%s/contact.csv" % (CASE % m) for m in MUS))]
    out += ["# engine %s: %s" % e for e in provenance]
    out.append("mu_s,setting,dt,creep,drawn")
    blocks = []
    for mu, lines in panels:
        for name, pts in lines:
            blocks.append("\n".join("%s,%s,%s,%s,%s" % (mu, name, dt, text, "" if v is None else text.lstrip("-"))
                                    for dt, text, v, _ in pts))
    return "\n".join(out) + "\n" + "\n\n".join(blocks) + "\n"


def script(panels, models, csv_path, png_path):
    """the gnuplot program: a panel a mu, a line a setting, each reading
    its block of the data file; the titles from the cases' own parameters"""
    p = models[0]
    num = lambda k: float(p.get(k, "nan"))
    rates = ", ".join("%d" % round(1 / d) for d in reversed(dts(panels)))
    styles = {}
    g = ["reset", "set encoding utf8", "set datafile separator comma", 'set datafile missing ""',
         "set terminal pngcairo size 1200, %d enhanced font \"DejaVu Sans,11\" linewidth 1.5" %
         (520 * len(panels) + 90),
         "set output " + gp_str(png_path),
         'set grid xtics ytics mxtics mytics lc rgb "#dddddd" lw 0.6',
         "set logscale xy", 'set format y "10^{%T}"', 'set xlabel "dt (s), fixed steps"',
         'set ylabel "|creep| over the run (m)"',
         'set key outside right top vertical noenhanced font ",9" samplen 2.5 spacing 1.05',
         # the same plot area in every panel, whatever its key's width
         "set lmargin at screen 0.08", "set rmargin at screen 0.70",
         # a tic at each rate the case ran
         "set xtics (%s)" % ", ".join('"1/%d" %r' % (round(1 / d), d) for d in dts(panels)),
         "set xrange [%r:%r]" % (min(dts(panels)) / 1.25, max(dts(panels)) * 1.25),
         "set multiplot layout %d, 1 title %s" % (len(panels), gp_str(
             "A cube that must stick on %g° (box-incline: edge %g m, %g kg, %g s): how far each 3D engine "
             "lets it creep, against dt\nExact creep: 0 at every dt (not on a log axis; the lab's toi gives "
             "it). |creep| on log axes, a line per engine setting" %
             (num("alpha"), num("size"), num("m"), num("t_end"))))]
    block = 0
    for (mu, lines), q in zip(panels, models):
        mu_k = float(q.get("mu_k", "nan"))
        g.append("set title %s noenhanced" % gp_str(
            "mu_s = %s, mu_k = %s (tan %g° = %.3f): the creep over %g s of fixed steps at %s Hz" %
            (mu, mu if mu_k < 0 else "%g" % mu_k, num("alpha"), math.tan(math.radians(num("alpha"))),
             float(q.get("t_end", "nan")), rates)))
        plots, drawn = [], 0
        for name, pts in lines:
            engine = name.split("-")[0]
            colour = COLOURS.get(engine, OTHER)
            k = styles.setdefault(engine, {}).setdefault(name, len(styles[engine]))
            if any(p[2] is not None for p in pts):
                drawn += 1
                plots.append("%s every :::%d::%d using 3:5 with linespoints lc rgb %s dt %d pt %d ps 1.2 "
                             "lw 1.4 title %s" % (gp_str(csv_path), block, block, gp_str(colour), 1 + k,
                                                  (4, 6, 8, 10, 12)[k % 5], gp_str(key_of(name, pts))))
            else:
                plots.append("keyentry with points lc rgb %s pt %d title %s" %
                             (gp_str(colour), (4, 6, 8, 10, 12)[k % 5], gp_str(key_of(name, pts))))
            block += 1
        # gnuplot 5.4 stops at a plot of key entries alone: a panel with
        # nothing to draw gets the steps' range and an empty curve
        if not drawn:
            steps = dts(panels)
            g += ["set xrange [%.10g:%.10g]" % (steps[0] / 1.5, steps[-1] * 1.5), "set yrange [1e-9:1]"]
            plots.insert(0, "NaN notitle")
        if len(plots) == 1 and not drawn:
            plots.append('keyentry title "no engine rows"')
        g.append("plot " + ", \\\n     ".join(plots))
        if not drawn:
            g.append("set autoscale xy")
    g += ["unset multiplot", "unset output"]
    return "\n".join(g) + "\n"


def main():
    ap = argparse.ArgumentParser(description="The chart 'creep against dt per engine' from make engines' "
                                             "box-incline contact.csv: OUT_DIR/body-contact-creep.png and its "
                                             "points, body-contact-creep.csv.")
    ap.add_argument("results", help="the results directory of make engines (results/engines)")
    ap.add_argument("out", help="where the chart and its points go (plots/engines)")
    a = ap.parse_args()
    missing = missing_tables(a.results, [CASE % m for m in MUS])
    if missing:
        print("engines/check/creep_chart.py: " + missing, file=sys.stderr)
        return 2
    panels, provenance, models = [], [], []
    for mu in MUS:
        try:
            rows, engines = read(a.results, CASE % mu)
        except TableError as e:
            print("engines/check/creep_chart.py: %s" % e, file=sys.stderr)
            return 2
        panels.append((mu, lines_of(rows, engines)))
        models.append(model_of(a.results, CASE % mu))
        provenance += [e for e in engines if e not in provenance]
    os.makedirs(a.out, exist_ok=True)
    csv_path, png_path = os.path.join(a.out, NAME + ".csv"), os.path.join(a.out, NAME + ".png")
    # the points and the chart are replaced together, or neither: gnuplot
    # reads the points from their temporary file
    with open(csv_path + ".tmp", "w", encoding="utf-8") as f:
        f.write(data_file(panels, provenance))
    r = subprocess.run([os.environ.get("GNUPLOT") or "gnuplot"],
                       input=script(panels, models, csv_path + ".tmp", png_path + ".tmp"), text=True,
                       capture_output=True)
    if r.returncode != 0 or not os.path.isfile(png_path + ".tmp"):
        print("engines/check/creep_chart.py: gnuplot failed: %s" % r.stderr.strip(), file=sys.stderr)
        for p in (png_path + ".tmp", csv_path + ".tmp"):
            if os.path.exists(p):
                os.remove(p)
        return 1
    os.replace(csv_path + ".tmp", csv_path)
    os.replace(png_path + ".tmp", png_path)
    print("engines/check/creep_chart.py: %s, %s" % (png_path, csv_path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
