#!/usr/bin/env python3
"""roll_charts.py BUILD_DIR — a rigid body at a contact's charts
(src/draw/rollcharts.c, docs/contact.md "3D: rolling and resting bodies"):
motion.csv's exact v and w R against the closed forms derived here, toi
round rigid-splitting on them to the file's digits; the programs draw feeds
gnuplot (recorded by a stand-in) hold the roll map's exact boundary through
(mu_c(alpha), alpha), each point's verdict as its contact.csv's t_roll
says, and the creep chart's points as contact.csv's creep, toi's exact 0
not drawn but said.  Ends with "N passed, N failed"."""
import csv
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import max_or_nan  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
results = {}


def check(cond, what, detail=""):
    if not cond:
        print("FAIL roll_charts: " + what + (("\n    " + str(detail)[:600]) if detail else ""))
    results[what] = bool(cond)


def table(path):
    """a table's rows, or none (a missing file: the checks on it fail)"""
    if not os.path.exists(path):
        check(False, "%s exists" % os.path.relpath(path, os.path.dirname(os.path.dirname(path))))
        return []
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith("#")))


def flat_roll(t, v0, mu, g, k):
    """The ball on the flat, w0 = 0 (derived): while it slips, friction mu g
    slows the centre and spins it up, dw/dt = mu g/(k R), so v = v0 - mu g t
    and w R = mu g t/k, until they meet at t* = v0/(mu g (1 + 1/k)); from
    then on both are v* = v0 - mu g t* (5/7 v0 for k = 2/5)."""
    ts = v0 / (mu * g * (1 + 1 / k))
    if t <= ts:
        return v0 - mu * g * t, mu * g * t / k
    vs = v0 - mu * g * ts
    return vs, vs


def incline_roll(t, v0, mu, g, k, alpha):
    """Down an incline: slipping, dv/dt = g (sin - mu cos), d(w R)/dt =
    mu g cos/k; they meet at t* = v0/(g cos mu (1 + 1/k) - g sin); then
    both grow at g sin/(1 + k)."""
    s, c = math.sin(alpha), math.cos(alpha)
    ts = v0 / (g * c * mu * (1 + 1 / k) - g * s)
    if t <= ts:
        return v0 + g * (s - mu * c) * t, mu * g * c * t / k
    vs = v0 + g * (s - mu * c) * ts
    a = g * s / (1 + k)
    return vs + a * (t - ts), vs + a * (t - ts)


def drop_roll(t, v0, h0, mu, g, k):
    """JoltPhysics#2121's drop on the flat, w0 = 0, restitution 0 (derived):
    it flies at v0, w R = 0, for t_l = sqrt(2 h0/g), lands at c = g t_l;
    the impact's tangential impulse per unit mass stops the slip if
    v0 k/(1 + k) <= mu c, else is mu c (v0 - mu c, w R = mu c/k after it)
    and friction mu g slips it on; it rolls at last at v0/(1 + k), the
    angular momentum about the contact point kept (5/7 v0 for k = 2/5)."""
    tl = math.sqrt(2 * h0 / g)
    if t < tl:
        return v0, 0.0
    c, vs = g * tl, v0 / (1 + k)
    if v0 * k / (1 + k) <= mu * c:
        return vs, vs
    v1, wr1 = v0 - mu * c, mu * c / k
    ts = (v1 - wr1) / (mu * g * (1 + 1 / k))
    tau = t - tl
    return (v1 - mu * g * tau, wr1 + mu * g * tau / k) if tau <= ts else (vs, vs)


def close(a, b, scale):
    # motion.csv prints 10 significant digits (charts.c, VB_FMT_G10):
    # a value is within 5e-10 of itself relative, so 1e-9 of the scale
    return abs(a - b) <= 1e-9 * scale


def test_motion(out):
    rows = table(os.path.join(out, "roll", "motion.csv"))
    check(rows and set(rows[0]) == {"integrator", "plan", "dt", "t", "v", "w_r"},
          "motion.csv: integrator,plan,dt,t,v,w_r", rows[:1])
    ex = [r for r in rows if r["integrator"] == "exact"]
    # roll.case: v0 2, mu 0.5, k 0.4, g 9.81 (the model's default)
    bad = [r for r in ex if not all(close(float(r[c]), w, 2.0) for c, w in
                                    zip(("v", "w_r"), flat_roll(float(r["t"]), 2.0, 0.5, 9.81, 0.4)))]
    check(len(ex) > 1000 and not bad, "roll: the exact v and w R are the flat closed form "
          "(t* = 2 v0/(7 mu g), v* = 5/7 v0) at %d times" % len(ex), bad[:2])
    # t* = 0.11649..., v* = 1.428571...: the exact rows past t* hold v* in both
    ts = 2 * 2.0 / (7 * 0.5 * 9.81)
    after = [r for r in ex if float(r["t"]) > ts]
    check(after and all(close(float(r["v"]), 5 / 7 * 2.0, 2.0) and close(float(r["w_r"]), 5 / 7 * 2.0, 2.0)
                        for r in after), "roll: v = w R = 5/7 v0 after t* = %.5f" % ts)
    toi = [r for r in rows if r["integrator"] == "rigid-splitting+toi" and r["plan"] == "fixed"]
    bad = [r for r in toi if not all(close(float(r[c]), w, 2.0) for c, w in
                                     zip(("v", "w_r"), flat_roll(float(r["t"]), 2.0, 0.5, 9.81, 0.4)))]
    check(len(toi) > 50 and not bad, "roll: rigid-splitting+toi's v and w R are the closed form "
          "at each of its %d steps" % len(toi), bad[:2])
    rows = table(os.path.join(out, "roll-incline@mu=0.5", "motion.csv"))
    ex = [r for r in rows if r["integrator"] == "exact"]
    a = math.radians(30)
    bad = [r for r in ex if not all(close(float(r[c]), w, 5.0) for c, w in
                                    zip(("v", "w_r"), incline_roll(float(r["t"]), 2.0, 0.5, 9.81, 0.4, a)))]
    check(len(ex) > 1000 and not bad, "roll-incline@mu=0.5: the exact v and w R are the incline's "
          "closed form", bad[:2])
    check(not os.path.exists(os.path.join(out, "box-incline@mu_s=0.7", "polhode.csv")) and
          os.path.exists(os.path.join(out, "box-incline@mu_s=0.7", "motion.csv")),
          "a body at a contact writes motion.csv, no polhode")
    # nor rigid_timeseries.csv: its energy and L errors are of quantities a
    # body turned and slowed by its contact does not keep (it wrote an
    # err_angmom that grew as friction turned L, and err_energy nan)
    check(not any(os.path.exists(os.path.join(out, d, "rigid_timeseries.csv"))
                  for d in ("roll", "box-incline@mu_s=0.7")),
          "a body at a contact writes no rigid_timeseries.csv")


def test_drop(out, progs):
    """roll-drop.case (height 1.25, mu 0.5: it rolls from the landing) and
    the same at mu 0.05 (it slides on after it): motion.csv's exact v and
    w R, toi round rigid-splitting on them, and the chart's title and axis
    say where it lands and what it ends at"""
    for case, mu in (("roll-drop", 0.5), ("roll-drop-slides", 0.05)):
        rows = table(os.path.join(out, case, "motion.csv"))
        ex = [r for r in rows if r["integrator"] == "exact"]
        tl = math.sqrt(2 * 1.25 / 9.81)
        # the exact rows at the landing's own time may be either side of it
        bad = [r for r in ex if abs(float(r["t"]) - tl) > 1e-9 and not all(
            close(float(r[c]), w, 2.0) for c, w in zip(("v", "w_r"), drop_roll(float(r["t"]), 2.0, 1.25, mu, 9.81, 0.4)))]
        check(len(ex) > 1000 and not bad, "%s: the exact v and w R are the drop's closed form (lands at "
              "%.5f s, ends at 5/7 v0)" % (case, tl), bad[:2])
        toi = [r for r in rows if r["integrator"] == "rigid-splitting+toi" and r["plan"] == "fixed"]
        bad = [r for r in toi if not all(close(float(r[c]), w, 2.0) for c, w in
                                         zip(("v", "w_r"), drop_roll(float(r["t"]), 2.0, 1.25, mu, 9.81, 0.4)))]
        check(len(toi) > 40 and not bad, "%s: rigid-splitting+toi's v and w R are the closed form at each of "
              "its %d steps" % (case, len(toi)), bad[:2])
    drops = [p for p in progs if 'title "roll-drop: v (solid) and w R (dashed) along the floor against time, '
             'dt = 1/60 s\\nafter the drop from 1.25 m (its lowest point): the exact ball lands at %.4g s and '
             'ends at %.4g m/s' % (math.sqrt(2 * 1.25 / 9.81), 2.0 / 1.4) in p]
    check(len(drops) == 1, "roll-time of roll-drop: its title says the drop, the landing and the exact end",
          [p[:600] for p in progs if "roll-drop" in p][:1])
    m = re.search(r"set xrange \[([0-9.e+-]+):\*\]", drops[0]) if drops else None
    check(m and abs(float(m.group(1)) - (math.sqrt(2 * 1.25 / 9.81) - 0.1)) < 1e-12,
          "roll-time of roll-drop: from a tenth of a second before the landing", m and m.group(1))


def fed_programs(vb, res, tmp, cases, also=()):
    """the chart programs draw feeds gnuplot for these cases, by a stand-in
    that keeps them and draws nothing (as plots.py's program_of); the case
    directories `also` lie beside each (a chart that reads its neighbours)"""
    log = os.path.join(tmp, "fed")
    os.makedirs(log)
    fake = os.path.join(tmp, "fake-gnuplot")
    with open(fake, "w") as f:
        f.write("#!/usr/bin/env python3\nimport os, re, shutil, sys\n"
                "for line in sys.stdin:\n"
                "    m = re.match(r'load \"(c\\d+\\.gp)\"', line)\n"
                "    if m:\n"
                "        shutil.copy(m.group(1), os.path.join(%r, '%%d-%%s' %% (os.getpid(), m.group(1))))\n"
                "    m = re.match(r'print \"\\\\001(VB \\d+)\"', line)\n"
                "    if m:\n"
                "        sys.stderr.write('\\001' + m.group(1) + '\\n'); sys.stderr.flush()\n"
                "    if line.startswith('exit'):\n"
                "        break\n" % log)
    os.chmod(fake, 0o755)
    progs = []
    for case in cases:
        one = os.path.join(tmp, "one-" + case.replace("@", "_").replace("=", "_"))
        os.makedirs(one)
        for d in os.listdir(res):
            if d == case or d.startswith(case + "@") or d in also:
                os.symlink(os.path.join(res, d), os.path.join(one, d))
        before = set(os.listdir(log))
        subprocess.run([vb, "draw", "-j", "1", one, os.path.join(tmp, "charts-" + os.path.basename(one))],
                       env=dict(os.environ, GNUPLOT=fake), capture_output=True, text=True)
        progs += [open(os.path.join(log, f)).read() for f in sorted(set(os.listdir(log)) - before)]
    return progs


def blocks(prog):
    """{id: [[fields], ...]} of the program's data blocks ($cN << EOD)"""
    out, cur = {}, None
    for line in prog.splitlines():
        m = re.match(r"\$c(\d+) << EOD", line)
        if m:
            cur = out.setdefault(int(m.group(1)), [])
        elif line == "EOD":
            cur = None
        elif cur is not None:
            cur.append(line.split(","))
    return out


def test_map(progs, out):
    maps = [p for p in progs if "where each solver's ball rolled" in p]
    check(len(maps) == 1, "roll-map: one roll-map program for the grid (%d)" % len(maps))
    if not maps:
        return
    p = maps[0]
    b = blocks(p)
    k = 0.4
    boundary = b.get(1, [])
    # the boundary: tan(alpha) = mu (1 + k)/k, so at alpha the curve's mu is
    # mu_c = k tan(alpha)/(1 + k) (the block's 10 digits: 1e-8 in degrees)
    bad = [r for r in boundary if abs(math.tan(math.radians(float(r[1]))) - float(r[0]) * (1 + k) / k)
           > 1e-8 * (1 + math.tan(math.radians(float(r[1])))) ** 2]
    check(len(boundary) > 100 and not bad, "roll-map: the exact curve is tan(alpha) = mu (1 + k)/k", bad[:2])
    # it passes through (mu_c(alpha), alpha) for alpha = 10 ... 60
    for alpha in (10, 30, 60):
        mu_c = k * math.tan(math.radians(alpha)) / (1 + k)
        seg = [(float(r[0]), float(r[1])) for r in boundary]
        hit = [a0 + (a1 - a0) * (mu_c - m0) / (m1 - m0) for (m0, a0), (m1, a1) in zip(seg, seg[1:])
               if m0 <= mu_c <= m1]
        check(hit and abs(hit[0] - alpha) < 0.05, "roll-map: the curve passes (mu_c = %.4f, %d deg)"
              % (mu_c, alpha), hit)
    # each panel: its title, then its rolled and never-rolled blocks (in
    # order), against each point's contact.csv at the coarsest step
    panels = re.findall(r'set title "([^"]+)" noenhanced\n.*?plot (.*?)\n(?=\S)', p, re.S)
    seen = 0
    for integ, plot in panels:
        ids = [int(x) for x in re.findall(r"\$c(\d+) using", plot)]
        keys = re.findall(r'title "(rolled|never rolled within t_end|unmeasured) \((\d+)\)"', plot)
        got = {}
        i = 1  # ids[0] is the boundary
        for name, n in keys:
            if int(n):
                got[name] = sorted((float(r[0]), float(r[1])) for r in b[ids[i]])
                i += 1
        want = {"rolled": [], "never rolled within t_end": []}
        for d in os.listdir(out):
            if not d.startswith("roll-map@"):
                continue
            kv = dict(x.split("=") for x in d.split("@")[1].split(","))
            rows = [r for r in table(os.path.join(out, d, "contact.csv"))
                    if r["integrator"] == integ and r["plan"] == "fixed"]
            # the coarsest step (a NaN dt would be no step: kept, it fails below)
            dt = max_or_nan(float(r["dt"]) for r in rows)
            r = [r for r in rows if float(r["dt"]) == dt][0]
            t_roll = float(r["t_roll"])
            want["rolled" if math.isfinite(t_roll) else "never rolled within t_end"].append(
                (float(kv["mu"]), float(kv["alpha"])))
        want = {n: sorted(v) for n, v in want.items() if v}
        check(got == want, "roll-map: %s's points are its contact.csv's t_roll verdicts" % integ,
              "%s\n%s" % (got, want))
        seen += 1
    check(seen == 6, "roll-map: a panel for each of the six solvers (%d)" % seen)


def test_creep(progs, out):
    cr = [p for p in progs if "the creep of a body that must stick" in p]
    check(len(cr) == 2, "creep: a chart for box-incline's two points that must stick (%d)" % len(cr))
    for p in cr:
        point = re.search(r'title "(box-incline@mu_s=[0-9.]+):', p)
        if not point:
            check(False, "creep: the chart's title names its point")
            continue
        rows = table(os.path.join(out, point.group(1), "contact.csv"))
        b = blocks(p)
        # toi's exact 0: said in its key, never drawn as a number
        check(re.search(r'keyentry[^\n]*title "toi: 0 at every dt \(exact; not on a log axis\)"', p),
              "creep %s: toi's exact 0 is a key, not a point" % point.group(1))
        drawn = sorted(tuple(float(x) for x in r) for blk in b.values() for r in blk)
        want = sorted((float(r["dt"]), abs(float(r["creep"]))) for r in rows
                      if r["plan"] == "fixed" and r["creep"] and float(r["creep"]) != 0.0)
        ok = len(drawn) == len(want) and all(abs(a[0] - c[0]) <= 1e-9 * c[0] and
                                             abs(a[1] - c[1]) <= 1e-9 * c[1]
                                             for a, c in zip(drawn, want))
        check(ok and len(want) == 30, "creep %s: the points are contact.csv's |creep| against dt "
              "(%d; toi's 0 left out)" % (point.group(1), len(want)), "%s\n%s" % (drawn[:3], want[:3]))


TOI_ONLY = """[case]
model = box-incline
size = 0.1
alpha = 30
mu_s = 0.7
v0 = 0
t_end = 1
[steps]
dt = 0.03333333333333333
halvings = 2
[integrators]
use = rigid-explicit-gyro
[contact]
handler = toi%s
"""


def test_creep_drawn(vb, tmp):
    """The creep chart reaches a PNG through the real gnuplot where nothing
    in a panel can be drawn on a log axis: a cube held exactly by toi
    alone (gnuplot 5.4 stopped at a plot of key entries only: "Assertion
    failed: uses_axis[SECOND_X_AXIS]", and make engines' draw with it);
    beside an engine's rows it has no panel of the engine's own (they are
    engines/check/creep_chart.py's, and drew as empty panels)"""
    gp = os.environ.get("GNUPLOT", "gnuplot")
    if not shutil.which(gp):
        check(False, "creep drawn: gnuplot is installed (make check installs it)")
        return
    exact = "node " + os.path.join(ROOT, "engines", "check", "body-contact-exact.js")
    for name, extra in (("toi-only", ""), ("toi-engine", "\n[engines]\nclosed = " + exact)):
        case = os.path.join(tmp, name + ".case")
        with open(case, "w") as f:
            f.write(TOI_ONLY % extra)
        out = os.path.join(tmp, "drawn-" + name)
        r = subprocess.run([vb, "run", "--quiet", "--draw", "-j", "1", case, "--out", out],
                           capture_output=True, text=True)
        png = os.path.join(out, "plots", name, "creep.png")
        check(r.returncode == 0 and os.path.isfile(png) and os.path.getsize(png) > 0,
              "creep drawn by gnuplot for %s: every solver exact (toi), keys alone" % name, r.stderr[-600:])
    fed = os.path.join(tmp, "creep-fed")
    os.makedirs(fed)
    progs = fed_programs(vb, os.path.join(tmp, "drawn-toi-engine"), fed, ["toi-engine"])
    cr = [p for p in progs if "the creep of a body that must stick" in p]
    titles = re.findall(r'set title "([^"]*) round each solver', cr[0]) if cr else []
    check(titles == ["rigid-explicit-gyro"], "creep beside an engine: a panel for the lab's method only", titles)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    vb = os.path.join(os.path.abspath(build), "verletbench")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "res")
        slides = os.path.join(tmp, "roll-drop-slides.case")
        with open(os.path.join(ROOT, "cases", "roll-drop.case")) as f:
            text = f.read()
        with open(slides, "w") as f:
            f.write(text.replace("mu = 0.5\n", "mu = 0.05\n").replace("t_end = 1.5\n", "t_end = 2\n"))
        r = subprocess.run([vb, "run", "--quiet", "-j", "2", "--out", out] +
                           [os.path.join(ROOT, "cases", c + ".case")
                            for c in ("roll", "roll-incline", "box-incline", "roll-map", "roll-drop")] + [slides],
                           capture_output=True, text=True)
        check(r.returncode == 0, "run the six cases", r.stderr)
        if r.returncode == 0:
            test_motion(out)
            progs = fed_programs(vb, out, tmp, ["roll-map", "box-incline", "roll", "roll-drop"])
            times = [p for p in progs
                     if 'title "roll: the speed down the slope v (solid) and w R (dashed) against '
                        'time, dt = 1/60 s' in p]
            check(len(times) == 1, "roll-time: drawn for roll at dt = 1/60 s, its title says so")
            test_map(progs, out)
            test_creep(progs, out)
            test_drop(out, progs)
        test_creep_drawn(vb, tmp)
    n_pass = sum(results.values())
    print("%d passed, %d failed" % (n_pass, len(results) - n_pass))
    sys.exit(0 if n_pass == len(results) else 1)


if __name__ == "__main__":
    main()
