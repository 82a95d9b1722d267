#!/usr/bin/env python3
"""speed_charts.py BUILD_DIR [--against OTHER_TREE] [--repeats N] — what a
user waits for besides the sweep, measured in one run (a benchmark: never a
test; `make bench-charts`).

Times, in CPU seconds of the commands and every process they start (user +
sys, from getrusage of the children), each repeat of each step in turn:

  sweep    verletbench run cases/*.case -j 1 --no-chart-data   (the tables)
  charted  verletbench run cases/*.case -j 1                   (and chart data)
  draw     verletbench draw of those results, and draw --article

and prints the medians and draw / sweep.  With --against OTHER_TREE (a
checkout with its own build/ and, for one before this draw, plots/draw and
plots/draw-article), the same steps of that tree are timed interleaved with
these, repeat by repeat, on the same results, and the ratios printed: on a
machine shared with others only ratios taken side by side mean anything.
The load average is printed with them.  With --against, every PNG of the
two trees' last draws is also held against its namesake with ImageMagick's
`compare -metric AE` (pixels that differ): the charts each drew, those
missing from either, and the five that differ most."""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))


def cpu_of(cmd, cwd):
    """CPU seconds (user + sys) of a command and its children, and its exit status"""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.stderr.write("speed_charts: %s failed (exit %d): %s\n" % (" ".join(cmd), r.returncode,
                                                                     r.stderr[-500:]))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def pngs_under(top):
    return sorted(os.path.relpath(os.path.join(d, f), top) for d, _, fs in os.walk(top)
                  for f in fs if f.endswith(".png"))


def compare_pixels(mine, theirs):
    """what `compare -metric AE` says of every PNG of mine against theirs"""
    if not shutil.which("compare"):
        return "pixels: not compared (ImageMagick's compare is not installed)"
    a, b = pngs_under(mine), pngs_under(theirs)
    diffs = []
    for rel in sorted(set(a) & set(b)):
        r = subprocess.run(["compare", "-metric", "AE", os.path.join(mine, rel), os.path.join(theirs, rel),
                            "null:"], capture_output=True, text=True)
        try:
            diffs.append((float(r.stderr.split()[0]), rel))
        except (ValueError, IndexError):
            diffs.append((float("inf"), rel + " (" + r.stderr.strip()[:80] + ")"))
    diffs.sort(reverse=True)
    same = sum(1 for d, _ in diffs if d == 0)
    return ("pixels: %d charts compared, %d identical to the pixel, largest difference %s; only here %d, "
            "only there %d; most: %s" % (len(diffs), same, "%g" % diffs[0][0] if diffs else "-",
                                          len(set(a) - set(b)), len(set(b) - set(a)),
                                          ", ".join("%s %g" % (r, d) for d, r in diffs[:5])))


def steps_of(tree, vb, tmp, tag):
    cases = sorted(os.path.join(tree, "cases", c) for c in os.listdir(os.path.join(tree, "cases"))
                   if c.endswith(".case"))
    res = os.path.join(tmp, tag + "-res")
    plots = os.path.join(tmp, tag + "-plots")
    old = os.path.exists(os.path.join(tree, "plots", "draw"))

    def draw():
        shutil.rmtree(plots, ignore_errors=True)
        if old:  # the scripts of before: plots/draw, then plots/draw-article
            a = cpu_of(["sh", "plots/draw", res, plots], tree)
            return a + cpu_of(["sh", "plots/draw-article", res, os.path.join(plots, "article")], tree)
        a = cpu_of([vb, "draw", res, plots], tree)
        return a + cpu_of([vb, "draw", "--article", res, os.path.join(plots, "article")], tree)

    return [
        ("sweep", lambda: cpu_of([vb, "run", "-j", "1", "--quiet", "--no-chart-data", *cases, "--out",
                                  os.path.join(tmp, tag + "-tables")], tree)),
        ("charted", lambda: cpu_of([vb, "run", "-j", "1", "--quiet", *cases, "--out", res], tree)),
        ("draw", draw),
    ], plots


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    build, against, repeats = args[0], None, 1
    if "--against" in args:
        against = os.path.abspath(args[args.index("--against") + 1])
    if "--repeats" in args:
        repeats = int(args[args.index("--repeats") + 1])
    trees = [("this", ROOT, os.path.abspath(os.path.join(build, "verletbench")))]
    if against:
        trees.append(("other", against, os.path.join(against, "build", "verletbench")))
    times = {}
    charts = {}
    with tempfile.TemporaryDirectory() as tmp:
        plans = [(tag, steps_of(tree, vb, tmp, tag)) for tag, tree, vb in trees]
        for _ in range(repeats):
            for k in range(3):
                for tag, (steps, plots) in plans:
                    name, fn = steps[k]
                    times.setdefault((tag, name), []).append(fn())
        for tag, (_, plots) in plans:
            charts[tag] = sum(1 for _, _, fs in os.walk(plots) for f in fs if f.endswith(".png"))
        if against:
            pixels = compare_pixels(plans[0][1][1], plans[1][1][1])
    load = os.getloadavg()
    print("load average %.1f %.1f %.1f; %d repeat(s); CPU seconds (user + sys), medians"
          % (load + (repeats,)))
    for tag, _, _ in trees:
        t = {n: statistics.median(times[(tag, n)]) for n in ("sweep", "charted", "draw")}
        print("%-5s sweep %.1f s, with chart data %.1f s, draw %.1f s (%d charts): draw / sweep %.2f, "
              "draw / sweep with chart data %.2f" % (tag, t["sweep"], t["charted"], t["draw"], charts[tag],
                                                     t["draw"] / t["sweep"], t["draw"] / t["charted"]))
    if against:
        print(pixels)
        for n in ("sweep", "charted", "draw"):
            r = [a / b for a, b in zip(times[("this", n)], times[("other", n)])]
            print("this / other, %s: %s (median %.3f)" % (n, " ".join("%.3f" % x for x in r),
                                                         statistics.median(r)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
