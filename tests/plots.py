#!/usr/bin/env python3
"""plots.py BUILD_DIR — the charts: verletbench draw (and draw --article) on
real runs gives every expected figure as a valid PNG with the curves in it
(each integrator's colour, read from src/draw/palette.c, is found among the
pixels), and results/REPORT.md links only figures that exist.  A missing
column or scrambled rows stop a chart loudly, leaving no file; without
gnuplot the tables and the report are still written and the command says the
charts were skipped.  The contact charts say what is missing and keep their
keys beside the plot.  The program draw writes asks gnuplot for no `stats`
pass and runs no shell.  Ends with "N passed, N failed"."""
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import urllib.parse
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
results = {}


def check(cond, what):
    if not cond:
        print("FAIL plots: " + what)
    results[what] = bool(cond)


def decode_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB/RGBA PNG,
    unfiltered by hand (PNG spec section 9), so no imaging library is needed."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("no PNG signature")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype = ihdr[0], ihdr[1], ihdr[2], ihdr[3]
    if depth != 8 or ctype not in (2, 6):
        raise ValueError("not 8-bit RGB(A): depth %d colour type %d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def c_strings(text, array):
    """the string constants of a C array `static const char *const NAME[] = {...};`"""
    body = re.search(r"\b%s\[\] = \{(.*?)\};" % array, text, re.S).group(1)
    return re.findall(r'"([^"]*)"', body)


def c_ints(text, array):
    body = re.search(r"\b%s\[\] = \{(.*?)\};" % array, text, re.S).group(1)
    return [int(v) for v in re.findall(r"-?\d+", body)]


PALETTE = open(os.path.join(ROOT, "src", "draw", "palette.c")).read()


def rgb(c):
    return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))


def style_colours():
    """integrator -> (r, g, b) as src/draw/palette.c assigns them"""
    names, cols = c_strings(PALETTE, "builtin"), c_strings(PALETTE, "colours")
    return {n: rgb(c) for n, c in zip(names, cols)}


def colours_in(path):
    _, _, rows = decode_png(path)
    seen = set()
    for row in rows:
        seen.update(row)
    return seen


def colours_left_of(path, frac):
    """the colours of the pixels in the left FRAC of the image (the plot
    areas; the keys are on the right)"""
    w, _, rows = decode_png(path)
    seen = set()
    for row in rows:
        seen.update(row[:int(w * frac)])
    return seen


def svg_texts(path):
    """the text pieces of an SVG chart (key titles, labels)"""
    with open(path, errors="replace") as f:
        return set(t.strip() for t in re.findall(r">([^<>]+)<", f.read()) if t.strip())


def csv_rows(path):
    """the data rows of a results CSV as dicts (comment lines skipped)"""
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    head = lines[0].split(",")
    return [dict(zip(head, l.split(","))) for l in lines[1:] if l]


def first_of_pairs(rows):
    """{(plan, integrator): first row}"""
    out = {}
    for r in rows:
        out.setdefault((r["plan"], r["integrator"]), r)
    return out


def run(cmd, env=None, cwd=ROOT):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout


# the charts draw must make for a case, by whether the model conserves energy
PER_CASE = ["convergence", "band", "error-time", "path", "path-random", "work"]
ARTICLE = ["fig01-fixed-projectile", "fig02-fixed-spring", "fig03-fixed-orbit", "fig04-wrong-start",
           "fig05-random-projectile", "fig06-random-spring", "fig07-random-orbit",
           "fig08-random-projectile-var", "fig09-random-spring-var", "fig10-random-orbit-var",
           "fig11-orders-spring"]


def hostile_paths(vb, tmp):
    """No path reaches gnuplot's program, nor a shell: results and chart
    directories whose names hold ', ", $( ), ` `, {}, a space and a newline
    are drawn (by verletbench draw and run --draw), run no command, and a
    reference model's path chart still says "reference solution" (path.gp
    once asked grep through the shell, and a ' cut its command short)."""
    base = os.path.join(tmp, "hostile")
    os.makedirs(base)
    marker = os.path.join(base, "PWNED")
    name = "o'brien \"q\" $(touch $VB_MARK) `touch $VB_MARK` {} sp\nnl"
    env = dict(os.environ, VB_MARK=marker)
    case = os.path.join(base, "hh.case")
    with open(case, "w") as f:
        f.write("[case]\nmodel = henon-heiles\nt_end = 6\n[steps]\ndt = 0.1\nhalvings = 2\n"
                "[integrators]\nuse = velocity-verlet, rk4\n")
    res = os.path.join(base, "res " + name)
    rc, log = run([vb, "run", "--quiet", case, "--out", res, "--draw"], env=env)
    check(rc == 0, "run --draw into a results path with ', \", $( ) and a newline: exit %d\n%s" % (rc, log))
    out = os.path.join(base, "charts " + name)
    rc, log = run([vb, "draw", res, out], env=env)
    check(rc == 0 and os.path.exists(os.path.join(out, "hh", "path.png")),
          "verletbench draw into a path with ', \", $( ) and a newline draws the path chart: exit %d\n%s"
          % (rc, log))
    report = open(os.path.join(res, "REPORT.md")).read()
    links = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", report)
    gone = [l for l in links if not os.path.exists(os.path.join(res, urllib.parse.unquote(l)))]
    check(links and not gone, "REPORT.md's links to charts under a hostile path resolve (%d links; %s)"
          % (len(links), gone[:2]))
    svg = os.path.join(base, "path " + name + ".svg")
    rc, log = run([vb, "draw", "--chart", "path", os.path.join(res, "hh", "paths.csv"), svg,
                   "hh " + name], env=env)
    texts = svg_texts(svg) if os.path.exists(svg) else set()
    check("reference" in texts and "exact" not in texts,
          "draw --chart path on a reference model under a hostile path and title keys its grey path "
          "\"reference\" (exit %d): %s" % (rc, log.strip() or sorted(texts)))
    check(any("$(touch $VB_MARK)" in t and "`touch $VB_MARK`" in t for t in texts),
          "the hostile title is drawn as it was given, its ` and $( ) as text")
    check(not os.path.exists(marker), "no chart ran a command hidden in a path or a title")


def rates_readable(vb, tmp, row_cols):
    """The rates chart answers which loop and draw is best at which rate:
    frame-loop's eight rows (two methods, four loops) each have a colour of
    their own in the plot area (the scripts gave them two), the key's
    samples are all drawn alike (a thick black marker hid the points under
    it), and the lowest error at each rate is ringed: its key says so, and
    the table says which row that is."""
    src = os.path.join(ROOT, "results", "baseline", "frame-loop", "rates.csv")
    rows = csv_rows(src)
    names = list(dict.fromkeys(r["integrator"] for r in rows))
    png, svg = os.path.join(tmp, "fl-rates.png"), os.path.join(tmp, "fl-rates.svg")
    rc, log = run([vb, "draw", "--chart", "rates", src, png, "frame-loop"])
    run([vb, "draw", "--chart", "rates", src, svg, "frame-loop"])
    seen = colours_left_of(png, 0.42) if rc == 0 else set()
    want = row_cols[:len(names)]
    check(len(names) == 8 and len(set(want)) == 8 and all(c in seen for c in want),
          "frame-loop rates.png: %d rows, each its own colour in the plot area (missing %s)"
          % (len(names), [names[i] for i, c in enumerate(want) if c not in seen]))
    text = open(svg).read() if os.path.exists(svg) else ""
    check("ringed: the lowest error at a rate" in svg_texts(svg) if text else False,
          "the rates chart rings the lowest error at each rate and its key says so")
    # key samples: the point symbols right of the plots (the key's) are all
    # drawn at one size; the scripts drew the coinciding rows' samples twice
    # as large and 5 wide, hiding what they stood over
    width = float(re.search(r'width="(\d+)"', text).group(1)) if text else 0
    marks = re.findall(r"<use xlink:href='#gpPt\d+' transform='translate\(([\d.]+),[\d.]+\) "
                       r"scale\(([\d.]+)\)'", text)
    key = set(sc for x, sc in marks if float(x) > 0.6 * width)
    check(len(key) == 1, "the rates key draws every sample at one size (%s)" % sorted(key))


def printed_commands(vb, tmp):
    """Every chart command the tool prints works from any directory: the
    ones `longrun --help` and `stability --help` print, run as printed (the
    binary by its path) in a directory far from the source tree, and
    docs/float32.md's."""
    away = os.path.join(tmp, "away")
    os.makedirs(away)
    for cmd, study, table in (("longrun", ["--model", "spring", "--integrator", "velocity-verlet",
                                           "--periods", "1000", "--steps-per-period", "50"], "longrun.csv"),
                              ("stability", ["--model", "spring", "--integrator", "velocity-verlet"],
                               "stability-summary.csv")):
        out = os.path.join(tmp, "study-" + cmd)
        rc, log = run([vb, cmd] + study + ["--out", out], cwd=away)
        rc, hlp = run([vb, cmd, "--help"], cwd=away)
        lines = hlp.splitlines()
        at = [i for i, l in enumerate(lines) if l.startswith("Chart")]
        printed = lines[at[0] + 1].strip() if at else ""
        png = os.path.join(away, cmd + ".png")
        line = printed.replace("DIR/", out + "/").replace("out.png", png).replace("[TITLE]", "t")
        words = line.split()
        rc, log = run([vb] + words[1:], cwd=away) if words[:1] == ["verletbench"] else (-1, printed)
        check(rc == 0 and os.path.exists(png) and os.path.getsize(png) > 10000,
              "%s --help's chart command works from another directory: %s (exit %d) %s"
              % (cmd, printed, rc, log.strip()[-300:]))
    doc = open(os.path.join(ROOT, "docs", "float32.md")).read()
    cmds = re.findall(r"^(verletbench draw --chart float32 .*)$", doc, re.M)
    check(len(cmds) == 1, "docs/float32.md prints its chart command (%s)" % cmds)


def issue_charts(vb, tmp):
    """The charts that told a new user something false, or nothing: the
    jump's path has an x axis about its value, not round-off stretched over
    the chart; the article's figure 1 names the step it ran (0.1922, where
    the case asks 0.2: t_end = 2.883 is 15 steps of 2.883/15); the apex
    chart holds each row to the exact apex v^2 / 2g; the constraint chart
    does not call a rod's length L (the chain's)."""
    d = os.path.join(tmp, "jump")
    os.makedirs(d)
    g, speed = 9.81, 5.0
    with open(os.path.join(d, "jump.case"), "w") as f:
        f.write("[case]\nmodel = projectile\ng = %g\nspeed = %g\nangle = 90\nt_end = %r\n[steps]\n"
                "dt = 0.03125\nhalvings = 3\n[integrators]\nuse = euler, velocity-verlet\n[loop]\n"
                "rates = 30, 60\n" % (g, speed, 2 * speed / g))
    rc, log = run([vb, "run", "--quiet", os.path.join(d, "jump.case"), "--out", os.path.join(d, "res"),
                   "--draw"])
    charts = os.path.join(d, "res", "plots", "jump")
    check(rc == 0 and os.path.exists(os.path.join(charts, "apex.png")) and
          os.path.exists(os.path.join(charts, "rates.png")),
          "a [loop] case gets apex.png beside rates.png (exit %d) %s" % (rc, log.strip()[-300:]))
    svg = os.path.join(d, "path.svg")
    run([vb, "draw", "--chart", "path", os.path.join(d, "res", "jump", "paths.csv"), svg, "jump"])
    apex = speed ** 2 / (2 * g)
    # the x tic labels: the axis spans a good part of the jump's height, not 3e-16
    xs = []
    for t in svg_texts(svg) if os.path.exists(svg) else []:
        try:
            xs.append(float(t.replace("\u2212", "-")))
        except ValueError:
            pass
    check(xs and max(xs) - min(xs) >= 0.5 * apex,
          "jump path: a vertical throw's x axis spans its value +- half the height (tics %s)" % sorted(set(xs)))
    svg = os.path.join(d, "apex.svg")
    rc, log = run([vb, "draw", "--chart", "apex", os.path.join(d, "res", "jump", "rates.csv"), svg, "jump"])
    texts = svg_texts(svg) if os.path.exists(svg) else set()
    check(any(("the exact apex, %.6g" % apex) in t for t in texts),
          "the apex chart holds the drawn apex to v^2/2g = %.6g (%s)" % (apex, [t for t in texts if "apex" in t]))
    check(any(t.endswith("velocity-verlet@variable") for t in texts) and
          any(t.startswith("euler@variable") for t in texts),
          "the apex chart keys every row (%s)" % sorted(t for t in texts if "@" in t))


def article_step(vb, res, tmp):
    """Figures 1 and 4 name the step the runs took: t_end = 2.883 and dt =
    0.2 make N = ceil(2.883 / 0.2) = 15 steps of 2.883 / 15 = 0.1922."""
    h = 2.883 / math.ceil(2.883 / 0.2)
    for stem, integ in (("fig01", "euler-semi verlet"), ("fig04", "verlet-naive verlet")):
        svg = os.path.join(tmp, stem + ".svg")
        run([vb, "draw", "--chart", "path", os.path.join(res, "article-projectile", "paths.csv"), svg,
             "Fig", "fixed", integ, "single"])
        texts = svg_texts(svg) if os.path.exists(svg) else set()
        check(any(t.endswith("fixed steps, dt = %g" % h) for t in texts),
              "%s names the step it ran, dt = %g (%s)" % (stem, h, [t for t in texts if "dt" in t]))


def rod_label(vb, hc_dir, tmp):
    """The constraint chart's y axis names a rod's own length, not L (the
    chain's, N rods of L/N)."""
    svg = os.path.join(tmp, "rods.svg")
    run([vb, "draw", "--chart", "constraint-time", os.path.join(hc_dir, "timeseries.csv"), svg, "hc"])
    texts = svg_texts(svg) if os.path.exists(svg) else set()
    label = [t for t in texts if "x_i - x_j" in t]
    check(label and not any("- L |" in t for t in label),
          "the rod chart's label does not call a rod's length L (%s)" % label)


def program_of(vb, res, tmp):
    """What draw hands gnuplot: one process for many charts, each chart's
    program decided in C.  A gnuplot stand-in (GNUPLOT=) records what it is
    fed and fails every chart: no program asks for a `stats` pass or a
    `system`/backquote command, every chart resets gnuplot first, and one
    stand-in process serves a whole case."""
    log = os.path.join(tmp, "fed")
    os.makedirs(log)
    fake = os.path.join(tmp, "fake-gnuplot")
    with open(fake, "w") as f:
        # keeps each program it is told to load, answers the markers on
        # stderr as gnuplot's print does, and draws nothing
        f.write("#!/usr/bin/env python3\nimport os, re, shutil, sys\n"
                "open(os.path.join(%r, 'feed-%%d' %% os.getpid()), 'w').close()\n"
                "for line in sys.stdin:\n"
                "    m = re.match(r'load \"(c\\d+\\.gp)\"', line)\n"
                "    if m:\n"
                "        shutil.copy(m.group(1), %r)\n"
                "    m = re.match(r'print \"\\\\001(VB \\d+)\"', line)\n"
                "    if m:\n"
                "        sys.stderr.write('\\001' + m.group(1) + '\\n'); sys.stderr.flush()\n"
                "    if line.startswith('exit'):\n"
                "        break\n" % (log, log))
    os.chmod(fake, 0o755)
    one = os.path.join(tmp, "one-case")
    shutil.copytree(os.path.join(res, "article-orbit"), os.path.join(one, "article-orbit"))
    rc, out = run([vb, "draw", "-j", "1", one, os.path.join(tmp, "fed-charts")],
                  env=dict(os.environ, GNUPLOT=fake))
    feeds = [f for f in os.listdir(log) if f.startswith("feed-")]
    programs = [open(os.path.join(log, f)).read() for f in os.listdir(log) if f.endswith(".gp")]
    check(rc == 1 and len(feeds) == 1 and len(programs) >= 7,
          "one gnuplot process is fed the case's %d chart programs (exit %d, %d processes)"
          % (len(programs), rc, len(feeds)))
    check(programs and all(p.startswith("reset\n") for p in programs),
          "every chart program begins with reset")
    bad = [p[:80] for p in programs if re.search(r"^\s*stats\b|\bsystem\s*\(|`|^\s*!", p, re.M)]
    check(programs and not bad, "no chart program has a stats pass or runs a command (%s)" % bad[:1])


def draw_usage(vb, tmp):
    """draw reads its options with the one parser (src/commands/options.c):
    what follows --chart or --palette is theirs, even a word that starts
    with '-', and a word before them is no one's, so it is bad usage (it
    was once passed over in silence and the chart drawn without it).  The
    messages are what a user should read, written here."""
    def said(cmd, status, first_line):
        p = subprocess.run([vb] + cmd, capture_output=True, text=True, cwd=tmp)
        got = p.stderr.splitlines()[0] if p.stderr else ""
        check(p.returncode == status and got == first_line,
              "draw %s: exit %d, '%s' (got %d, '%s')" % (" ".join(cmd[1:]), status, first_line,
                                                       p.returncode, got))
        return p
    table, png = os.path.join(tmp, "t.csv"), os.path.join(tmp, "t.png")
    said(["draw", "results", "--chart", "convergence", table, png], 2,
         "verletbench draw: unexpected argument 'results' before --chart (what --chart reads "
         "follows it)")
    said(["draw", "-j", "2", "somewhere", "--palette", "verlet"], 2,
         "verletbench draw: unexpected argument 'somewhere' before --palette (what --palette "
         "reads follows it)")
    said(["draw", "--article", "--chart", "convergence", table, png], 2,
         "verletbench draw: --article, --chart and --palette are one at a time")
    said(["draw", "--chart", "--article", table, png], 2,
         "verletbench draw: --chart --article: no such chart (see --help)")
    said(["draw", "-j", "0"], 2,
         "verletbench draw: --jobs: '0': give a whole number of threads from 1 to 1024")
    said(["draw", "a", "b", "c"], 2, "verletbench draw: unexpected argument 'c'")
    # the words after --palette are names, '-j' and '--help' too: a line each
    p = said(["draw", "-j", "1", "--palette", "-j", "--help", "verlet"], 0, "")
    names = [line.split(" ")[0] for line in p.stdout.splitlines()]
    check(names == ["-j", "--help", "verlet"],
          "draw --palette -j --help verlet: a line a name, in order (got %s)" % names)
    # --help: the usage lines name every option it lists
    p = subprocess.run([vb, "draw", "--help"], capture_output=True, text=True)
    usage = p.stdout.split("\n\n", 1)[0]
    listed = re.findall(r"^  (?:-j, )?(--[a-z]+)", p.stdout.split("\nOptions:\n", 1)[-1], re.M)
    check(p.returncode == 0 and sorted(listed) == ["--article", "--chart", "--dt", "--help", "--jobs",
                                                   "--methods", "--palette"],
          "draw --help lists --dt, --methods, --article, --chart, --palette, -j/--jobs and --help "
          "(got %s)" % listed)
    check(all(o in usage for o in ("--article", "--chart", "--palette", "-j N", "--dt X",
                                   "--methods A,B")),
          "draw --help: its usage lines show each way to call it")


def chart_data_m4(vb, tmp):
    """Chart data at the pixel resolution, held to the full data: a
    projectile at 5766 steps (more than the 2000 a path keeps whole) keeps,
    of each of 1000 equal windows of time, the first and last step and every
    coordinate's lowest and highest, each a row of the full path (run
    --full-chart-data) and nothing else (M4, computed here from the full
    rows); at 577 steps the path is every step, as the full one; the full
    time series has a row a step (t = h, 2h, ... t_end), the default one a
    row a window."""
    d = os.path.join(tmp, "m4")
    os.makedirs(d)
    t_end = 2.883
    for name, dt in (("fine", 0.0005), ("coarse", 0.005)):
        with open(os.path.join(d, name + ".case"), "w") as f:
            f.write("[case]\nmodel = projectile\ng = 9.81\nspeed = 20\nangle = 45\nt_end = %r\n[steps]\n"
                    "dt = %r\nhalvings = 2\n[integrators]\nuse = euler, velocity-verlet\n" % (t_end, dt))
        runs = {}
        for how in ("default", "full"):
            out = os.path.join(d, how)
            rc, log = run([vb, "run", "--quiet", os.path.join(d, name + ".case"), "--out", out] +
                          (["--full-chart-data"] if how == "full" else []))
            check(rc == 0, "run %s %s: exit %d %s" % (name, how, rc, log.strip()[-300:]))
            runs[how] = out
        for integ in ("euler", "velocity-verlet"):
            def path(how):
                rows = csv_rows(os.path.join(runs[how], name, "paths.csv"))
                return [(r["t"], r["x"], r["y"]) for r in rows if r["integrator"] == integ and r["plan"] == "fixed"]
            red, full = path("default"), path("full")
            steps = int(math.ceil(t_end / dt - 1e-9))
            if name == "coarse":
                check(red == full and len(full) == steps + 1,
                      "%s at %d steps: the path is every step (%d rows, the full %d)" % (integ, steps, len(red), len(full)))
                continue
            windows = {}
            for row in full:
                w = min(999, int(math.floor(float(row[0]) / (t_end / 1000))))
                windows.setdefault(w, []).append(row)
            want = set()
            for rows in windows.values():
                want |= {rows[0], rows[-1]}
                for c in (1, 2):
                    want.add(min(rows, key=lambda r: float(r[c])))
                    want.add(max(rows, key=lambda r: float(r[c])))
            got = set(red)
            check(len(full) == steps + 1 and got <= set(full) and
                  all(any(float(r[c]) == float(e[c]) and r in got for r in windows[w]) for w in windows
                      for c in (1, 2) for e in (min(windows[w], key=lambda r: float(r[c])),
                                                max(windows[w], key=lambda r: float(r[c])))) and
                  all(windows[w][0] in got and windows[w][-1] in got for w in windows) and
                  len(red) <= len(want) and len(red) < len(full),
                  "%s at %d steps: the path keeps each window's first, last, lowest and highest (%d of %d "
                  "rows; M4 of the full path: %d)" % (integ, steps, len(red), len(full), len(want)))
            series = [r for r in csv_rows(os.path.join(runs["full"], name, "timeseries.csv"))
                      if r["integrator"] == integ and r["plan"] == "fixed"]
            h = t_end / steps
            check(len(series) == steps and all(abs(float(r["t"]) - (k + 1) * h) <= 1e-9 * t_end
                                               for k, r in enumerate(series)),
                  "%s: the full time series has a row a step, t = h .. t_end (%d rows, %d steps)"
                  % (integ, len(series), steps))
            series = [r for r in csv_rows(os.path.join(runs["default"], name, "timeseries.csv"))
                      if r["integrator"] == integ and r["plan"] == "fixed"]
            check(len(series) == 1000, "%s: the default time series has a row a window (%d)" % (integ, len(series)))


def png_rows(path):
    """(width, height, bytes a pixel, the decompressed IDAT stream) of a PNG"""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", data[pos + 8:pos + 8 + n])
        elif kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    return ihdr[0], ihdr[1], 3 if ihdr[3] == 2 else 4, zlib.decompress(idat)


def png_encoding(vb, out, tmp):
    """draw has gnuplot write its PNGs with no filter (pngfast.so, preloaded):
    by the PNG format (spec section 9, "Filtering") each row of the image
    data begins with its filter type byte, 0 for none, so every row of a
    chart draw made starts with 0; libpng's default search gives most rows
    of a chart another filter.  And the pixels are what plain gnuplot draws
    from the same program: the program draw fed gnuplot, drawn again by a
    gnuplot without the library, decoded by hand (decode_png), equal pixel
    for pixel."""
    png = os.path.join(out, "article-orbit", "convergence.png")
    w, h, bpp, raw = png_rows(png)
    filters = set(raw[y * (w * bpp + 1)] for y in range(h))
    check(filters == {0}, "every row of a chart draw made is written with no PNG filter (filter bytes %s)"
          % sorted(filters))
    # the same chart, from the program draw wrote, by gnuplot alone
    fed = os.path.join(tmp, "fed")
    programs = sorted((f for f in os.listdir(fed) if f.endswith(".gp")), key=lambda f: int(f[1:-3]))
    conv = [f for f in programs if 'set ylabel "max position error' in open(os.path.join(fed, f)).read()]
    if not conv:
        check(False, "the convergence chart's program was fed to gnuplot")
        return
    plain_dir = os.path.join(tmp, "plain-gnuplot")
    os.makedirs(plain_dir)
    shutil.copy(os.path.join(fed, conv[0]), plain_dir)
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    r = subprocess.run([os.environ.get("GNUPLOT", "gnuplot"), conv[0]], cwd=plain_dir, env=env,
                       capture_output=True, text=True)
    plain = os.path.join(plain_dir, conv[0][:-3] + ".png")
    if r.returncode != 0 or not os.path.exists(plain):
        check(False, "gnuplot draws the convergence chart's program on its own: %s" % r.stderr[-300:])
        return
    pw, ph, pbpp, praw = png_rows(plain)
    check(set(praw[y * (pw * pbpp + 1)] for y in range(ph)) != {0},
          "plain gnuplot filters some rows (else the test above tells nothing)")
    check(decode_png(plain) == decode_png(png),
          "draw's convergence chart has plain gnuplot's pixels, every one")


def svg_placed(path):
    """(x, text) of each text an SVG chart places (gnuplot puts each in a
    group translated to where it stands)"""
    with open(path, errors="replace") as f:
        svg = f.read()
    return [(float(x), re.sub(r"<[^>]*>", "", t).strip()) for x, t in
            re.findall(r'translate\(([-\d.]+),[-\d.]+\)[^>]*>\s*<text[^>]*>(.*?)</text>', svg)]


def contact_charts(vb, tmp):
    """The contact charts say what is missing and never draw it as a
    finding (issue 50.5), and their keys stay readable (issue 51.10):
    - tunnel.png: a blank passing speed (not measured) is keyed as such, an
      inf one as "never passes": all-blank and all-inf data give different
      charts (they gave the same, both "never pass"); a contact.csv with a
      header and no rows fails the chart, naming the file (no tunnel.png
      was drawn and nothing said);
    - the key stands right of the plot, no text of it inside the plot (the
      "never pass" label lay over the bound line), and takes less than 40 %
      of the width (half, with four names on one line);
    - bounces.png: two handlers whose curves agree at every bounce both
      have a height at (to 9 digits, read here from bounces.csv) are keyed together,
      "A" and "= B" (velocity-verlet+project, one bounce longer, hid
      velocity-verlet+impulse under it with a key entry each);
    - draw --help names every chart kind of src/draw/drawing.c's table (it
      left out bounces and tunnel)."""
    res = os.path.join(tmp, "contact")
    rc, log = run([vb, "run", "--quiet", os.path.join(ROOT, "cases", "tunnel.case"),
                   os.path.join(ROOT, "cases", "bounce.case"), "--out", res])
    check(rc == 0, "run the tunnel and the bounce (exit %d) %s" % (rc, log[-300:]))
    if rc:
        return
    table = os.path.join(res, "tunnel", "contact.csv")
    lines = open(table).read().splitlines()
    head = [l for l in lines if not l.startswith("#")][0].split(",")
    col = head.index("pass_speed")

    def variant(name, value):
        path = os.path.join(tmp, name + ".csv")
        with open(path, "w") as f:
            for l in lines:
                if l.startswith("#") or l.split(",") == head:
                    f.write(l + "\n")
                    continue
                cells = l.split(",")
                cells[col] = value(cells[col])
                f.write(",".join(cells) + "\n")
        svg = os.path.join(tmp, name + ".svg")
        rc, log = run([vb, "draw", "--chart", "tunnel", path, svg, "tunnel"])
        return rc, log, (svg_placed(svg) if os.path.exists(svg) else [])

    rc_b, log_b, blank = variant("tunnel-blank", lambda v: "")
    rc_i, log_i, never = variant("tunnel-inf", lambda v: "inf")
    tb, ti = " ".join(t for _, t in blank), " ".join(t for _, t in never)
    check(rc_b == 0 and "no passing speed (blank: not measured)" in tb and "never passes" not in tb,
          "tunnel chart, every speed blank: keyed 'not measured', never 'never passes' (%s)" % tb[:300])
    check(rc_i == 0 and "never passes" in ti and "not measured" not in ti,
          "tunnel chart, every speed inf: keyed 'never passes' (%s)" % ti[:300])
    check(tb != ti, "tunnel chart: blank and inf speeds give different charts")
    rc, log, real = variant("tunnel-real", lambda v: v)
    tics = [x for x, t in real if t == "0.1"]  # the x axis's last tic: the plot's right border
    inside = [t for x, t in real if tics and x < max(tics) and re.search(r"[a-z]+\+[a-z]+|never", t)]
    width = float(re.search(r'<svg[^>]*width="(\d+)', open(os.path.join(tmp, "tunnel-real.svg")).read())
                  .group(1)) if os.path.exists(os.path.join(tmp, "tunnel-real.svg")) else 0
    check(rc == 0 and tics and not inside and any("never passes" in t for _, t in real),
          "tunnel chart: the key and what never passes stand right of the plot (inside: %s)" % inside)
    check(tics and width and (width - max(tics)) < 0.4 * width,
          "tunnel chart: the key takes less than 40 %% of the width (%.0f of %.0f px)"
          % (width - max(tics) if tics else 0, width))
    # a contact.csv of a tunnel with its header alone: the chart fails, naming it
    cut = os.path.join(tmp, "cut")
    shutil.copytree(os.path.join(res, "tunnel"), os.path.join(cut, "tunnel"))
    with open(os.path.join(cut, "tunnel", "contact.csv"), "w") as f:
        f.write("\n".join(l for l in lines if l.startswith("#") or l.split(",") == head) + "\n")
    rc, log = run([vb, "draw", cut, os.path.join(tmp, "cut-plots")])
    check(rc == 1 and "tunnel/contact.csv: no rows, only a header: no passing speed to draw" in log,
          "draw of a tunnel whose contact.csv has no rows: exit 1 naming it (exit %d) %s"
          % (rc, log.strip()[-300:]))
    # bounces.png: curves equal where both have points are keyed together
    rows = csv_rows(os.path.join(res, "bounce", "bounces.csv"))
    dt = sorted(float(r["dt"]) for r in rows)[-1]  # the coarsest step
    ys = {}
    for r in rows:
        if float(r["dt"]) == dt:
            ys.setdefault(r["integrator"], []).append("%.9g" % float(r["height"]) if r["height"] else "")
    pairs = [(a, b) for a in ys for b in ys if a < b and ys[a] != ys[b] and
             all(x == y for x, y in zip(ys[a], ys[b]) if x and y)]
    svg = os.path.join(tmp, "bounces.svg")
    rc, log = run([vb, "draw", "--chart", "bounces", os.path.join(res, "bounce", "bounces.csv"), svg, "b"])
    texts = " ".join(t for _, t in svg_placed(svg)) if os.path.exists(svg) else ""
    check(rc == 0 and pairs and all(("= " + a in texts) or ("= " + b in texts) for a, b in pairs),
          "bounces chart: curves equal on the bounces both have are keyed together, 'A = B' (%s; %s)"
          % (pairs, texts[:400]))
    # draw --help names every chart kind: each an entry of its builder's
    # file (const vb_chart_kind vb_kind_NAME = {.name = ...}), and each of
    # those in chartkinds.c's table (an entry left out links and is never
    # drawn)
    draw_src = os.path.join(ROOT, "src", "draw")
    entries = []
    for name in sorted(os.listdir(draw_src)):
        if name.endswith(".c"):
            entries += re.findall(r'^const vb_chart_kind (vb_kind_\w+) = \{\s*\.name = "([^"]+)"',
                                  open(os.path.join(draw_src, name)).read(), re.M)
    kinds = [k for _, k in entries]
    table = open(os.path.join(draw_src, "chartkinds.c")).read()
    table = table[table.index("table[] = {"):]
    listed = re.findall(r"&(vb_kind_\w+)", table[:table.index("};")])
    unlisted = [v for v, _ in entries if v not in listed]
    # the 21 kinds of issue 52.6's table and the three of a rigid body at a
    # contact that charts53 brought (rollcharts.c): none may go missing
    roll = {"roll-time", "creep", "roll-map"}
    check(len(kinds) >= 24 and roll <= set(kinds) and not unlisted and
          len(listed) == len(set(listed)) == len(entries),
          "every chart kind's entry is in chartkinds.c's table once, the roll charts among them "
          "(%d entries, %d listed; not listed: %s; roll charts missing: %s)"
          % (len(entries), len(listed), unlisted, sorted(roll - set(kinds))))
    # and the binary's table has each: draw --chart NAME is that kind (a
    # table that is not there fails naming the file, exit 1), never "no such
    # chart" (exit 2)
    refused = []
    for k in kinds:
        args = [vb, "draw", "--chart", k, os.path.join(tmp, "absent.csv"), os.path.join(tmp, "k.png")]
        rc, log = run(args + (["velocity-verlet"] if k == "float32" else []))
        if rc != 1 or "no such chart" in log or "absent.csv" not in log:
            refused.append("%s: exit %d %s" % (k, rc, log.strip()[-120:]))
    check(kinds and not refused,
          "draw --chart takes every entry's name (%d kinds; refused: %s)" % (len(kinds), refused))
    rc, hlp = run([vb, "draw", "--help"])
    chart_row = hlp.split("\nOptions:", 1)[-1].split("\n  --chart", 1)[-1].split("\n  --", 1)[0]
    missing = [k for k in kinds if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(k), chart_row)]
    check(len(kinds) >= 15 and not missing,
          "draw --help's --chart names every chart kind (%d; missing %s)" % (len(kinds), missing))


def main():
    vb = os.path.abspath(os.path.join(sys.argv[1], "verletbench"))
    if not shutil.which(os.environ.get("GNUPLOT", "gnuplot")):
        print("FAIL plots: gnuplot is not installed (apt-get install gnuplot-nox): the charts cannot be tested")
        print("0 passed, 1 failed")
        return 1
    colours = style_colours()
    with tempfile.TemporaryDirectory() as tmp:
        res, out = os.path.join(tmp, "results"), os.path.join(tmp, "plots")
        cases = [os.path.join(ROOT, "cases", c) for c in
                 ("article-projectile.case", "article-spring.case", "article-orbit.case",
                  "damped-spring.case")]
        rc, log = run([vb, "run"] + cases + ["--out", res])
        check(rc == 0, "verletbench run of the article cases and damped-spring: exit %d\n%s" % (rc, log))

        # --- every chart of every case ---
        rc, log = run([vb, "draw", res, out])
        check(rc == 0, "draw exits 0 (got %d)\n%s" % (rc, log))
        for case in ("article-projectile", "article-spring", "article-orbit", "damped-spring"):
            want = PER_CASE + ([] if case == "damped-spring" else ["energy-time"])
            for stem in want:
                png = os.path.join(out, case, stem + ".png")
                if not os.path.exists(png):
                    check(False, "%s/%s.png exists" % (case, stem))
                    continue
                try:
                    w, h, _ = decode_png(png)
                    ok = True
                except Exception as e:  # noqa: BLE001 - any decoding failure is the finding
                    ok, w, h = False, 0, 0
                    check(False, "%s/%s.png decodes: %s" % (case, stem, e))
                check(ok and w >= 800 and h >= 400,
                      "%s/%s.png is a real chart (%dx%d, want >= 800x400)" % (case, stem, w, h))
            # energy-time is drawn only where energy is conserved
            if case == "damped-spring":
                check(not os.path.exists(os.path.join(out, case, "energy-time.png")),
                      "no energy chart for the damped spring (it has no err_energy column)")
            # the curves are there: each integrator's own colour appears in the convergence chart
            used = re.search(r"^# integrators=(.*)$",
                             open(os.path.join(res, case, "convergence.csv")).read(), re.M).group(1).split(",")
            seen = colours_in(os.path.join(out, case, "convergence.png"))
            missing = [n for n in used if colours[n] not in seen]
            check(not missing, "%s convergence.png draws every integrator (colour missing for %s)"
                  % (case, ", ".join(missing)))
        leftovers = [f for _, ds, fs in os.walk(out) for f in fs + ds if ".tmp." in f or f.startswith(".drawing-")]
        check(not leftovers, "no temporary files or scratch directories left in plots (%s)" % leftovers)

        # --- the report links only what exists, by relative paths ---
        report = os.path.join(res, "REPORT.md")
        check(os.path.exists(report), "REPORT.md written")
        text = open(report).read() if os.path.exists(report) else ""
        links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
        check(len(links) >= 4 * 6, "REPORT.md links the charts (%d links)" % len(links))
        bad = [l for l in links if l.startswith("/") or not os.path.exists(os.path.join(res, l))]
        check(not bad, "every REPORT.md link is relative and resolves (%s)" % bad[:3])
        check(text.count("| integrator | label |") == 4, "REPORT.md has the order table of each case")

        # --- the article set ---
        art = os.path.join(tmp, "article")
        rc, log = run([vb, "draw", "--article", res, art])
        check(rc == 0, "draw --article exits 0 (got %d)\n%s" % (rc, log))
        for stem in ARTICLE:
            png = os.path.join(art, stem + ".png")
            check(os.path.exists(png) and os.path.getsize(png) > 10000,
                  "article figure %s.png exists and is not empty" % stem)
        # figure 8 shows tcv, verlet, euler-semi and verlet-var over the exact path
        seen = colours_in(os.path.join(art, "fig08-random-projectile-var.png"))
        for n in ("tcv", "verlet", "euler-semi", "verlet-var"):
            check(colours[n] in seen, "figure 8 draws %s" % n)

        # --- charts a reader can tell apart ---
        # a curve equal to an earlier one (same_as) says so in the key, in
        # every chart that draws it, and nothing else does; the SVG output of
        # the same charts gives the key and the labels as text
        def notes(texts):
            return set(m.groups() for m in (re.match(r"^(\S+)  (?:errors )?= (\S+)$", t) for t in texts) if m)

        for case in ("article-spring", "article-orbit", "damped-spring"):
            conv = os.path.join(res, case, "convergence.csv")
            ts = os.path.join(res, case, "timeseries.csv")
            pairs = first_of_pairs(csv_rows(conv))
            tpairs = first_of_pairs(csv_rows(ts))
            charts = [("convergence", conv, pairs, "same_as", None), ("work", conv, pairs, "same_as", None),
                      ("band", conv, pairs, "same_as", "random"), ("error-time", ts, tpairs, "same_as", None)]
            if case != "damped-spring":
                charts.append(("energy-time", ts, tpairs, "energy_same_as", None))
            for script, data, pr, col, only in charts:
                svg = os.path.join(tmp, "%s-%s.svg" % (case, script))
                rc, log = run([vb, "draw", "--chart", script, data, svg, case])
                if not os.path.exists(svg):
                    check(False, "draw --chart %s writes SVG for %s (exit %d): %s" % (script, case, rc, log.strip()))
                    continue
                want = set((i, r[col]) for (p, i), r in pr.items() if r.get(col) and (only is None or p == only))
                got = notes(svg_texts(svg))
                check(want and got == want, "%s %s: the key notes every coincident curve, \"NAME  = EARLIER\" "
                      "(want %s, got %s)" % (case, script, sorted(want), sorted(got)))

            # slope guides only for the orders some curve of the figure has,
            # and the * explained when an order carries one
            texts = svg_texts(os.path.join(tmp, "%s-convergence.svg" % case))
            orders = [r["order"] for r in pairs.values()]
            slopes = set()
            for o in orders:
                try:
                    v = float(o.rstrip("*"))
                except ValueError:
                    continue
                if v >= 0.5:
                    slopes.add(int(v + 0.5))
            got = set(int(t.split()[1]) for t in texts if re.match(r"^slope \d+$", t))
            check(got == slopes, "%s convergence: slope guides %s, for the rounded orders %s" % (case, sorted(got), sorted(slopes)))
            starred = any(o.endswith("*") for o in orders)
            check(any("trend over all points" in t for t in texts) == starred,
                  "%s convergence: the * is explained on the chart exactly when an order has one" % case)
            check(not any(re.match(r"^slope \d+$", t) for t in svg_texts(os.path.join(tmp, "%s-error-time.svg" % case))),
                  "%s: no slope guides on a time chart" % case)

            # coincident curves stay visible: in the plot areas alone (the
            # left of the canvas, keys excluded) every integrator's colour is
            # found, also those drawn over another
            for stem in ("convergence", "error-time", "work"):
                seen = colours_left_of(os.path.join(out, case, stem + ".png"), 0.7)
                used = sorted(set(i for _, i in pairs))
                missing = [n for n in used if colours[n] not in seen]
                check(not missing, "%s %s.png: every integrator's colour among the curves themselves (missing %s)"
                      % (case, stem, ", ".join(missing)))
        def small_run(d, name, text):
            """NAME.case in directory d, run into d/out: the case's directory"""
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, name + ".case"), "w") as f:
                f.write(text)
            rc, log = run([vb, "run", "--quiet", os.path.join(d, name + ".case"), "--out", os.path.join(d, "out")])
            return rc, log, os.path.join(d, "out", name)

        # --- yours apart from the built-ins, hidden curves striped, keys
        # outside the plot, titles that say what was run ---
        builtin_cols = set(c_strings(PALETTE, "colours"))
        builtin_pts = set(str(v) for v in c_ints(PALETTE, "points"))
        rc, log = run([vb, "draw", "--palette", "euler", "mine", "jakobsen:sweeps=10", "theirs"])
        marks = [l.split()[1:] for l in log.splitlines() if l.split()[:1] in (["mine"], ["theirs"])]
        check(len(marks) == 2 and all(c not in builtin_cols and p not in builtin_pts for c, p in marks)
              and marks[0] != marks[1],
              "a plugin's or an engine's curve takes a colour and a point type no built-in has, each its own (%s)" % marks)
        # a convergence chart with such a curve (euler-semi's rows renamed) shows its colour
        conv = os.path.join(res, "article-spring", "convergence.csv")
        mine = os.path.join(tmp, "mine.csv")
        with open(conv) as f, open(mine, "w") as g:
            for line in f:
                g.write(line.replace("euler-semi,", "mine,", 1) if line.startswith("euler-semi,") else line)
        png = os.path.join(tmp, "mine.png")
        rc, log = run([vb, "draw", "--chart", "convergence", mine, png, "mine"])
        want = tuple(int(marks[0][0][i:i + 2], 16) for i in (1, 3, 5)) if marks else None
        check(rc == 0 and want in colours_left_of(png, 0.7),
              "the curve named mine is drawn in its own colour %s (exit %d) %s" % (marks[:1], rc, log.strip()))
        # a curve within a line width of an earlier one, without "=" in the
        # data, is keyed "≈" and both colours stay visible; one 2x away is not
        near = os.path.join(tmp, "near.csv")
        rows = [l for l in open(conv) if not l.startswith("#")]
        head = rows[0].rstrip("\n").split(",")
        base = [dict(zip(head, l.rstrip("\n").split(","))) for l in rows[1:] if l.startswith("verlet-var,")]
        with open(near, "w") as g:
            g.write(rows[0])
            for name, factor in (("verlet-var", 1.0), ("tcv", 1.01), ("leapfrog", 2.0)):
                for r in base:
                    r2 = dict(r, integrator=name, same_as="")
                    for c in ("err_pos_max", "p10", "p90"):
                        r2[c] = repr(float(r[c]) * factor)
                    g.write(",".join(r2[c] for c in head) + "\n")
        svg = os.path.join(tmp, "near.svg")
        rc, log = run([vb, "draw", "--chart", "convergence", near, svg, "near"])
        texts = svg_texts(svg) if os.path.exists(svg) else set()
        check(any(re.match(r"^tcv  p = \S+  ≈ verlet-var$", t) for t in texts) and
              not any(t.startswith("leapfrog") and "≈" in t for t in texts) and
              any(t.startswith("≈ NAME: within a line width") for t in texts),
              "a curve 1 %% from another is keyed \"≈ verlet-var\", one 2x away is not (%s)"
              % sorted(t for t in texts if "≈" in t or t.startswith(("tcv", "leapfrog"))))
        png = os.path.join(tmp, "near.png")
        run([vb, "draw", "--chart", "convergence", near, png, "near"])
        seen = colours_left_of(png, 0.7)
        check(all(colours[n] in seen for n in ("verlet-var", "tcv", "leapfrog")),
              "near.png: the curve drawn over another stays visible (its colour is in the plot area)")
        # the frame-rate chart (rates.csv has no same_as column) keys a
        # curve with the same errors at every rate "=", one within a line
        # width of an earlier one "≈" and draws it striped over it, so both
        # colours stay visible; one 2x away is neither.  Built from velocity
        # Verlet's variable-step rows, each copy scaled
        rates = os.path.join(tmp, "rates.csv")
        src = [l for l in open(os.path.join(ROOT, "results", "baseline", "frame-loop", "rates.csv"))
               if not l.startswith("#")]
        head = src[0].rstrip("\n").split(",")
        base = [dict(zip(head, l.rstrip("\n").split(","))) for l in src[1:]
                if l.startswith("velocity-verlet@variable,")]
        with open(rates, "w") as g:
            g.write(src[0])
            for name, factor in (("velocity-verlet@variable", 1.0), ("tcv@variable", 1.0),
                                 ("verlet-var@variable", 1.001), ("leapfrog@variable", 2.0)):
                for r in base:
                    g.write(",".join(dict(r, integrator=name, err_draw_max=repr(
                        float(r["err_draw_max"]) * factor))[c] for c in head) + "\n")
        svg = os.path.join(tmp, "rates.svg")
        rc, log = run([vb, "draw", "--chart", "rates", rates, svg, "r"])
        texts = svg_texts(svg) if os.path.exists(svg) else set()
        check(rc == 0 and "tcv@variable  = velocity-verlet@variable" in texts and
              "verlet-var@variable  ≈ velocity-verlet@variable" in texts and
              not any(t.startswith("leapfrog") and ("≈" in t or "=" in t) for t in texts) and
              any(t.startswith("≈ NAME: within a line width") for t in texts),
              "rates: an equal curve is keyed \"= velocity-verlet@variable\" (the whole row "
              "name), one 0.1 %% away \"≈ velocity-verlet@variable\", one 2x away neither (exit %d; %s)"
              % (rc, sorted(t for t in texts if "@" in t or "NAME" in t)))
        # each row its own colour (src/draw/rateschart.c's, in the order of
        # the file), all four visible in the plot area though two lie on one
        # line
        row_cols = [rgb(c) for c in c_strings(open(os.path.join(ROOT, "src", "draw", "rateschart.c")).read(),
                                              "row_colours")]
        png = os.path.join(tmp, "rates.png")
        run([vb, "draw", "--chart", "rates", rates, png, "r"])
        seen = colours_left_of(png, 0.5) if os.path.exists(png) else set()
        check(len(set(row_cols[:4])) == 4 and all(c in seen for c in row_cols[:4]),
              "rates.png: each of four rows, two of them on one line, keeps a colour of its own in the "
              "plot area")
        rates_readable(vb, tmp, row_cols)
        # keys stay out of the plot area: in the 6 px right of each panel's
        # frame (its right border, the longest dark vertical line) nothing
        # is drawn, though the hanging chain's titles run to 41 characters
        rc, log, hc = small_run(os.path.join(tmp, "hc"), "hc",
                                "[case]\nmodel = hanging-chain\nN = 3\nt_end = 0.5\n[steps]\ndt = 0.01\nhalvings = 3\n"
                                "jitter = 0.5\nseeds = 2\n[integrators]\nuse = jakobsen, jakobsen:sweeps=10, "
                                "tcv-jakobsen:sweeps=10, jakobsen:sweeps=10:along_old=1, shake, rattle\n")
        for script, data in (("convergence", "convergence.csv"), ("band", "convergence.csv"),
                             ("constraint-time", "timeseries.csv"), ("error-time", "timeseries.csv")):
            png = os.path.join(tmp, "hc-%s.png" % script)
            rc2, log2 = run([vb, "draw", "--chart", script, os.path.join(hc, data), png, "hc"])
            if rc or rc2 or not os.path.exists(png):
                check(False, "hc %s.png drawn (%d %d): %s %s" % (script, rc, rc2, log, log2))
                continue
            w, h, px = decode_png(png)
            dark = lambda p: max(p) < 110
            runs = [max((sum(1 for y in range(h) if dark(px[y][x])), x) for x in range(w // 3, w))]
            xr = runs[0][1]
            # the rows the frame spans (the x tic labels below it may reach past it)
            band = [(x, y) for y in range(h) if dark(px[y][xr])
                    for x in range(xr + 2, min(w, xr + 8)) if dark(px[y][x])]
            check(runs[0][0] > h // 4 and not band,
                  "hc %s.png: nothing drawn in the gap right of the plot's frame at x=%d (%d dark pixels: "
                  "a key title runs into the plot)" % (script, xr, len(band)))
        # the trace panel is titled by the trace the run replayed, not "60 Hz"
        # whatever it was: a trace of 31 frames at 30 Hz
        tr = os.path.join(tmp, "tr")
        os.makedirs(tr)
        with open(os.path.join(tr, "slow-30hz.trace"), "w") as f:
            f.write("# 30 Hz\n" + "0.0333\n" * 31)
        _, _, trd = small_run(tr, "tr", "[case]\nmodel = spring\nt_end = 1\n[steps]\ndt = 0.05\nhalvings = 3\n"
                              "trace = slow-30hz.trace\n[integrators]\nuse = tcv, rk4\n")
        for script in ("convergence", "work"):
            svg = os.path.join(tmp, "trace-%s.svg" % script)
            run([vb, "draw", "--chart", script, os.path.join(trd, "convergence.csv"), svg, "t"])
            titles = [t for t in svg_texts(svg) if "trace" in t] if os.path.exists(svg) else []
            check(titles == ["recorded frame trace slow-30hz.trace (31 steps)"],
                  "%s: the trace panel's title names the trace from the data (%s)" % (script, titles))
        # a chain of more than 8 bodies: 6 of them drawn, the first, the last
        # and four evenly between, each labelled (16 bodies: 1 4 7 10 13 16)
        _, _, ch = small_run(os.path.join(tmp, "ch"), "ch", "[case]\nmodel = chain\nN = 16\nt_end = 2\n[steps]\n"
                             "dt = 0.05\nhalvings = 2\n[integrators]\nuse = velocity-verlet, euler\n")
        svg = os.path.join(tmp, "ch.svg")
        rc, log = run([vb, "draw", "--chart", "path", os.path.join(ch, "paths.csv"), svg, "ch", "fixed"])
        ticks = [t for t in svg_texts(svg) if re.fullmatch(r"\d+", t)] if rc == 0 else []
        check(rc == 0 and {"1", "4", "7", "10", "13", "16"} <= set(ticks) and
              not {"3", "5", "8", "15"} & set(ticks) and
              any("6 of 16" in t for t in svg_texts(svg)),
              "a 16-body waterfall draws bodies 1 4 7 10 13 16 and says so (%s) %s" % (sorted(set(ticks)), log.strip()))
        # a grid's error chart: a unit on its y axis
        _, _, g = small_run(os.path.join(tmp, "g"), "g", "[case]\nmodel = spring\nk = 1, 4\nt_end = 3\n[steps]\n"
                            "dt = 0.1\nhalvings = 3\n[integrators]\nuse = tcv, rk4\n")
        svg = os.path.join(tmp, "g.svg")
        run([vb, "draw", "--chart", "grid-error", os.path.join(g, "grid.csv"), svg, "g"])
        check("max position error at the finest step (length units)" in svg_texts(svg),
              "grid-error's y axis has its unit")
        # a run that overflows leaves the time chart at the top: the y axis
        # spans at most 20 decades (+ the round-up to whole decades)
        ts = os.path.join(res, "article-orbit", "timeseries.csv")
        big = os.path.join(tmp, "big.csv")
        with open(ts) as f, open(big, "w") as g2:
            for line in f:
                if line.startswith("euler-semi,"):
                    parts = line.rstrip("\n").split(",")
                    parts[4] = "1e300"
                    line = ",".join(parts) + "\n"
                g2.write(line)
        svg = os.path.join(tmp, "big.svg")
        run([vb, "draw", "--chart", "error-time", big, svg, "big"])
        exps = [int(e) for t in svg_texts(svg) for e in re.findall(r"^10\^\{(-?\d+)\}$", t)]
        exps += [int(e) for e in re.findall(r">10</tspan>.*?>(-?\d+)<", open(svg).read())]
        check(exps and max(exps) - min(exps) <= 22,
              "an overflowing run does not stretch the time chart past 20 decades (tics 10^%s .. 10^%s)"
              % (min(exps) if exps else "?", max(exps) if exps else "?"))

        # figure 11 has no fourth-order method, so no slope-4 guide
        fig11 = svg_texts(os.path.join(tmp, "article-spring-convergence.svg"))
        check("slope 4" not in fig11 and "slope 2" in fig11, "figure 11 (article-spring): slope 2 drawn, no slope 4")

        # --- a missing column fails loudly and leaves no chart ---
        src = os.path.join(res, "article-spring", "convergence.csv")
        broken = os.path.join(tmp, "broken.csv")
        with open(src) as f, open(broken, "w") as g:
            for line in f:
                g.write(line.replace("err_pos_max", "err_pos_mux", 1) if line.startswith("integrator,") else line)
        for script in ("convergence", "band", "work"):
            png = os.path.join(tmp, script + "-broken.png")
            rc, log = run([vb, "draw", "--chart", script, broken, png])
            check(rc != 0 and 'no column "err_pos_max"' in log,
                  "draw --chart %s stops on a missing column (exit %d): %s" % (script, rc, log.strip()))
            check(not os.path.exists(png) or os.path.getsize(png) == 0,
                  "draw --chart %s drew nothing from a file without its column" % script)
        # through draw: exit 1, that chart absent, the case's other charts drawn
        res3, out3 = os.path.join(tmp, "results3"), os.path.join(tmp, "plots3")
        shutil.copytree(os.path.join(res, "article-spring"), os.path.join(res3, "article-spring"))
        shutil.copy(broken, os.path.join(res3, "article-spring", "convergence.csv"))
        rc, log = run([vb, "draw", res3, out3])
        check(rc == 1 and "failed" in log, "draw exits 1 when a chart fails (got %d)" % rc)
        check(not os.path.exists(os.path.join(out3, "article-spring", "convergence.png")),
              "a failed chart leaves no file")
        check(os.path.exists(os.path.join(out3, "article-spring", "path.png")),
              "the charts that can be drawn still are")

        # --- rows of one curve not together: refused ---
        ts = os.path.join(res, "article-orbit", "timeseries.csv")
        lines = open(ts).read().splitlines(True)
        body = [l for l in lines if not l.startswith("#")]
        head, rows = body[0], body[1:]
        scrambled = os.path.join(tmp, "scrambled.csv")
        with open(scrambled, "w") as g:
            g.write(head)
            g.writelines(rows[0::2] + rows[1::2])
        rc, log = run([vb, "draw", "--chart", "error-time", scrambled, os.path.join(tmp, "s.png")])
        check(rc != 0 and "not contiguous" in log, "draw --chart error-time refuses scrambled rows (exit %d)" % rc)

        # --- without gnuplot: tables and report still there, and it says so ---
        res2 = os.path.join(tmp, "results2")
        env = dict(os.environ, GNUPLOT="/nonexistent/gnuplot")
        rc, log = run([vb, "run"] + cases[:3] + ["--out", res2])
        rc, log = run([vb, "draw", res2, os.path.join(tmp, "plots2")], env=env)
        check(rc == 0 and "charts skipped: gnuplot not found" in log,
              "without gnuplot draw exits 0 and says the charts were skipped (exit %d): %s" % (rc, log))
        check(os.path.exists(os.path.join(res2, "article-spring", "orders.csv")), "the tables are there")
        r2 = open(os.path.join(res2, "REPORT.md")).read() if os.path.exists(os.path.join(res2, "REPORT.md")) else ""
        check("| integrator | label |" in r2 and "Charts were skipped" in r2 and "![" not in r2,
              "without gnuplot REPORT.md has the tables, says why there are no charts, links none")
        rc, log = run([vb, "draw", "--article", res2, os.path.join(tmp, "art2")], env=env)
        check("figures skipped: gnuplot not found" in log, "draw --article says the figures were skipped")

        # --- the report holds the cases of the last run, not every directory ---
        rc, log = run([vb, "run", "--quiet", cases[3], "--out", res2])
        rc, log = run([vb, "draw", res2, os.path.join(tmp, "plots2")], env=env)
        r2 = open(os.path.join(res2, "REPORT.md")).read()
        last = os.path.basename(cases[3])[:-5]
        earlier = [os.path.basename(c)[:-5] for c in cases[:3]]
        check(("## " + last) in r2 and not any(("## " + e + "\n") in r2 for e in earlier),
              "REPORT.md holds the last run's case (%s) only" % last)

        hostile_paths(vb, tmp)
        printed_commands(vb, tmp)
        issue_charts(vb, tmp)
        article_step(vb, res, tmp)
        rod_label(vb, hc, tmp)
        program_of(vb, res, tmp)
        png_encoding(vb, out, tmp)
        chart_data_m4(vb, tmp)
        draw_usage(vb, tmp)
        contact_charts(vb, tmp)

    passed = sum(results.values())
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
