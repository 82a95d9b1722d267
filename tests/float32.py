#!/usr/bin/env python3
"""float32.py BUILD_DIR — `sim --precision float32 --offset X`
(docs/float32.md) against a loop written here in single precision:

- every float operation is emulated exactly: an IEEE single sum, difference
  or product of two floats, computed in double and rounded once to single,
  is the correctly rounded single result (double has more than 2 * 24 + 2
  bits), so the loop below is what a float32 program computes, bit for bit;
- velocity Verlet, euler-semi and pefrl on the spring, at offsets 0, 1e3
  and 1e4, each step's position and velocity of sim's --trajectory equal
  to the loop's, to the bit, after the shift back to the scene's frame;
- the float64 run about a shifted origin is the float64 method (its errors
  the same but for round-off), and the float32 run's error floor is
  float32's, not float64's;
- methods that are not kicks and drifts are refused, as are an unknown
  precision and --precision with an engine;
- check's round-off floor of a float32 case is float32's (16 eps32 N
  scale), read from the tables (":precision=float32" in the run's name):
  a baseline whose position errors differ by float32 round-off (0.3 N
  eps32 of the positions' size, the largest docs/real-engines.md §1.6
  measured) passes, the same difference in a float64 case fails, and a
  10 % change of an error above the floor fails.
Ends with "N passed, N failed"."""
import csv
import io
import math
import os
import shutil
import struct
import subprocess

import suite

S = suite.Suite("float32", guard=300)
check, vb = S.check, S.vb


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


# the schemes of src/integrators/splitting.c, written out again here
CBRT2 = 1.2599210498948731648
W1 = 1.0 / (2.0 - CBRT2)
XI, LAM, CHI = 0.1786178958448091, -0.2123418310626054, -0.06626458266981849
D1 = 0.5 * (1.0 - 2.0 * LAM)
SCHEMES = {
    "euler-semi": ([("f", 0), ("k", 1.0), ("d", 1.0)], False),
    "velocity-verlet": ([("k", 0.5), ("d", 1.0), ("f", 0), ("k", 0.5)], True),
    "pefrl": ([("d", XI), ("f", 0), ("k", D1), ("d", CHI), ("f", 0), ("k", LAM),
               ("d", 1.0 - 2.0 * (CHI + XI)), ("f", 0), ("k", LAM), ("d", CHI), ("f", 0),
               ("k", D1), ("d", XI)], False),
}


def float_loop(name, x0, v0, w2, h, steps, offset):
    """The spring x'' = -w2 x in float32 about an origin shifted by offset:
    the force law (double, as the model's) at the float scene position,
    rounded to float; every update a float operation."""
    stages, carry = SCHEMES[name]
    off = f32(offset)
    x, v = f32(x0 + off), f32(v0)

    def force(x):
        xd = f32(x - off)
        return f32(-w2 * xd)

    a = force(x) if carry else 0.0
    out = []
    for _ in range(steps):
        for kind, c in stages:
            ch = f32(c * h)
            if kind == "f":
                a = force(x)
            elif kind == "k":
                v = f32(v + f32(a * ch))
            else:
                x = f32(x + f32(v * ch))
        out.append((x - off, v))
    return out


def trajectory(path):
    with open(path) as f:
        return list(csv.DictReader(io.StringIO("".join(l for l in f if not l.startswith("#")))))


def test_bits(tmp):
    for name in SCHEMES:
        for offset in (0.0, 1e3, 1e4):
            traj = os.path.join(tmp, "t.csv")
            r = vb("sim", "--model", "spring", "--set", "k=3", "--set", "x0=0.7", "--integrator",
                   name, "--precision", "float32", "--offset", "%g" % offset, "--t-end", "10",
                   "--dt", "0.125", "--trajectory", traj)
            if r.returncode != 0:
                check(False, "sim %s float32 offset %g runs" % (name, offset), r.stderr)
                continue
            rows = trajectory(traj)[1:]  # after the start
            want = float_loop(name, 0.7, 0.0, 3.0, 0.125, 80, offset)
            same = len(rows) == 80 and all(float(row["x"]) == x and float(row["v"]) == v
                                           for row, (x, v) in zip(rows, want))
            bad = next(((i, row["x"], row["v"], w) for i, (row, w) in enumerate(zip(rows, want))
                        if float(row["x"]) != w[0] or float(row["v"]) != w[1]), None)
            check(same, "%s in float32 about %g: every step the float loop's, to the bit"
                  % (name, offset), bad)


def row(*args):
    r = vb("sim", *args)
    return r.returncode, list(csv.DictReader(io.StringIO(r.stdout)))


def test_floors(tmp):
    # velocity Verlet on the spring at 2^14 steps a period: float64's error
    # is truncation (~3e-8), float32's is held up by its round-off, at
    # least eps32 = 1.2e-7 of the amplitude, and at offset 1e4 positions
    # move in steps of ulp(1e4) = 9.8e-4: the error is that size or more
    T = 2 * math.pi
    base = ("--model", "spring", "--integrator", "velocity-verlet", "--dt", repr(T / 2 ** 14))
    _, r64 = row(*base)
    _, r64s = row(*base, "--offset", "1000")
    _, r32 = row(*base, "--precision", "float32")
    _, r32o = row(*base, "--precision", "float32", "--offset", "1e4")
    e64, e64s = float(r64[0]["err_pos_max"]), float(r64s[0]["err_pos_max"])
    e32, e32o = float(r32[0]["err_pos_max"]), float(r32o[0]["err_pos_max"])
    check(abs(e64s - e64) <= 1e-3 * e64, "float64 about 1e3 is float64's method: %g against %g"
          % (e64s, e64))
    check(e32 > 10 * e64 and e32 >= 1.19e-7, "float32's error %g has a float32 floor (float64: %g)"
          % (e32, e64))
    check(e32o >= 2 ** -10, "at offset 1e4 float32's error %g is at least ulp(1e4)" % e32o)


def test_sweep_chart(tmp):
    """plots/float32-sweep.sh writes its table whole, and draw --chart float32
    draws it (a short sweep: the script takes the model's options)."""
    out = os.path.join(tmp, "sweep.csv")
    r = subprocess.run(["sh", "plots/float32-sweep.sh", S.vb_path, "spring", out, "--set", "k=4"],
                       cwd=suite.ROOT, capture_output=True, text=True, timeout=600)
    rows = list(csv.DictReader(io.StringIO("".join(l for l in open(out) if not l.startswith("#")))))\
        if r.returncode == 0 else []
    check(len(rows) == 5 * 4 * 18 and all(float(x["err_pos_max"]) >= 0 for x in rows),
          "the float32 sweep: 5 methods, 4 precisions and offsets, 18 steps", r.stderr)
    if rows and shutil.which("gnuplot"):
        png = os.path.join(tmp, "f32.png")
        g = S.vb("draw", "--chart", "float32", out, png, "pefrl", "spring")
        check(g.returncode == 0 and os.path.getsize(png) > 10000, "the float32 chart is drawn",
              g.stderr)


CASE = """[case]
model = spring
k = 3
x0 = 0.7
t_end = 10
[steps]
dt = 0.125
halvings = 3
[integrators]
use = %s
precision = float32
offset = %s
"""


def test_case_keys(tmp):
    """precision and offset in a case file: run's errors are the float
    loop's against the exact solution, computed here."""
    for offset in ("0", "1e3"):
        path = os.path.join(tmp, "f32.case")
        with open(path, "w") as f:
            f.write(CASE % ("velocity-verlet, pefrl", offset))
        out = os.path.join(tmp, "out-" + offset)
        r = vb("run", path, "--out", out, "--quiet", "--no-chart-data")
        check(r.returncode == 0, "run a float32 case at offset %s" % offset, r.stderr)
        if r.returncode != 0:
            continue
        rows = trajectory(os.path.join(out, "f32", "runs.csv"))
        check(len(rows) == 6, "two methods, three step sizes", len(rows))
        for row in rows:
            name = row["integrator"].split(":")[0]
            check(row["integrator"] == "%s:precision=float32:offset=%s"
                  % (name, {"0": "0", "1e3": "1000"}[offset]),
                  "the run names its precision and origin", row["integrator"])
            h = float(row["dt"])
            n = int(row["steps"])
            want = suite.max_or_nan(abs(x - 0.7 * math.cos(math.sqrt(3.0) * (k + 1) * h))
                       for k, (x, _) in enumerate(float_loop(name, 0.7, 0.0, 3.0, h, n,
                                                             float(offset))))
            got = float(row["err_pos_max"])
            check(abs(got - want) <= 1e-9 * want, "%s at h = %g, offset %s: err_pos_max %r "
                  "against the float loop's %r" % (name, h, offset, got, want))
        summary = open(os.path.join(out, "f32", "summary.md")).read()
        check("2·ε₃₂·N" in summary and "16·ε·N^1.5" not in summary,
              "the summary states float32's '=' rule, not float64's")
    path = os.path.join(tmp, "all.case")
    with open(path, "w") as f:
        f.write(CASE % ("all", "0"))
    r = vb("run", path, "--out", os.path.join(tmp, "all"), "--quiet", "--no-chart-data")
    names = sorted(x["integrator"].split(":")[0]
                   for x in trajectory(os.path.join(tmp, "all", "all", "runs.csv"))
                   if x["dt"] == "0.125") if r.returncode == 0 else []
    check(names == sorted(["euler", "euler-semi", "velocity-verlet", "yoshida4", "pefrl"]),
          "use = all in float32: the methods that have the form", names)
    for text, line, word in [
        (CASE % ("velocity-verlet, rk4", "0"), 11, "rk4"),
        ((CASE % ("velocity-verlet", "0")).replace("float32", "float16"), 11, "precision"),
        ((CASE % ("velocity-verlet", "0")).replace("offset = 0", "offset = far"), 12, "offset"),
    ]:
        with open(path, "w") as f:
            f.write(text)
        r = vb("run", path, "--out", os.path.join(tmp, "bad"), "--quiet")
        check(r.returncode == 2 and "all.case:%d:" % line in r.stderr and word in r.stderr,
              "a bad float32 case: exit 2, file:line naming %s" % word, r.stderr)


def shifted_baseline(src, dst, shift):
    """runs.csv of src with shift(row) added to err_pos_max and err_pos_rms,
    written as `run` writes numbers (%.17g), the rest as it was"""
    shutil.copytree(src, dst)
    path = os.path.join(dst, "c", "runs.csv")
    with open(path) as f:
        lines = f.read().splitlines()
    head = next(i for i, l in enumerate(lines) if not l.startswith("#"))
    cols = lines[head].split(",")
    for i in range(head + 1, len(lines)):
        cells = lines[i].split(",")
        row = dict(zip(cols, cells))
        for name in ("err_pos_max", "err_pos_rms"):
            k = cols.index(name)
            cells[k] = "%.17g" % (float(cells[k]) + shift(row))
        lines[i] = ",".join(cells)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def test_check_floor(tmp):
    eps32 = 2.0 ** -23
    roundoff = lambda row: -0.3 * int(row["steps"]) * eps32 * float(row["pos_scale"])
    for prec in ("float32", "float64"):
        d = os.path.join(tmp, prec)
        os.mkdir(d)
        case = os.path.join(d, "c.case")
        text = CASE % ("euler-semi, velocity-verlet", "0")
        if prec == "float64":
            text = text.replace("precision = float32\n", "").replace("offset = 0\n", "")
        with open(case, "w") as f:
            f.write(text)
        base = os.path.join(d, "base")
        r = vb("run", case, "--out", base, "--quiet", "--no-chart-data")
        check(r.returncode == 0, "run the %s case" % prec, r.stderr)
        if r.returncode != 0:
            continue
        names = {x["integrator"] for x in trajectory(os.path.join(base, "c", "runs.csv"))}
        check(all(n.endswith(":precision=float32:offset=0") == (prec == "float32")
                  for n in names), "the %s case's runs name their precision" % prec, names)
        rounded = os.path.join(d, "rounded")
        shifted_baseline(base, rounded, roundoff)
        r = vb("check", case, "--baseline", rounded, "--quiet")
        if prec == "float32":
            check(r.returncode == 0, "check: float32 round-off under a float32 case's errors "
                  "is no change", r.stdout + r.stderr)
        else:
            check(r.returncode == 1 and "err_pos_max" in r.stdout,
                  "check: the same difference in a float64 case is a change", r.stdout + r.stderr)
    # a real change: euler-semi's errors at the coarsest step (above the
    # floor: 16 eps32 N scale is 1.5e-4 there) 10 % lower in the baseline
    d = os.path.join(tmp, "float32")
    changed = os.path.join(d, "changed")
    if os.path.isdir(os.path.join(d, "base")):
        shifted_baseline(os.path.join(d, "base"), changed,
                         lambda row: -0.1 * float(row["err_pos_max"])
                         if row["integrator"].startswith("euler-semi:") and row["dt"] == "0.125"
                         else 0.0)
        r = vb("check", os.path.join(d, "c.case"), "--baseline", changed, "--quiet")
        check(r.returncode == 1 and "euler-semi" in r.stdout and "WORSE" in r.stdout.upper(),
              "check: a 10 % change of a float32 error above the floor is worse",
              r.stdout + r.stderr)


def test_stall(tmp):
    """docs/float32.md §2, README: at offset 1e4 and 2^15 steps a period,
    velocity Verlet's drifts stall under half an ulp of 1e4 (the float
    loop here): x sticks at 1 while v builds past -2.5, then crosses to -1;
    sim's final error is the loop's, 2.  At 2^17 x never leaves 1.  The
    docs say so, not that the spring "does not move" at 2^15."""
    for e in (15, 17):
        n = 2 ** e
        h = 2 * math.pi / n
        loop = float_loop("velocity-verlet", 1.0, 0.0, 1.0, h, n, 1e4)
        moved = next((k for k, (x, _) in enumerate(loop) if x != 1.0), None)
        if e == 15:
            check(moved is not None and moved > n // 3 and loop[moved - 1][1] < -2.5 and
                  loop[-1][0] == -1.0, "2^15: x sticks at 1 while v passes -2.5, ends at -1",
                  (moved, loop[moved - 1] if moved else None, loop[-1]))
        else:
            check(moved is None and loop[-1][1] < -6.0, "2^17: x never leaves 1, v ends near -2 pi",
                  loop[-1])
        rc, rows = row("--model", "spring", "--integrator", "velocity-verlet", "--precision",
                       "float32", "--offset", "1e4", "--dt", repr(h))
        got = rows[0] if rc == 0 and rows else {}
        want = abs(loop[-1][0] - 1.0)
        check(got and float(got["err_pos_final"]) == want and float(got["err_pos_max"]) == 2.0,
              "2^%d: sim's final error %s is the loop's %g, its largest 2" % (e, got.get(
                  "err_pos_final"), want))
    for path in ("docs/float32.md", "README.md"):
        text = open(os.path.join(suite.ROOT, path)).read()
        check("does not move" not in text and "error is its amplitude" not in text,
              "%s does not say the spring does not move at 2^15 steps" % path)


REV_CASE = """[case]
model = spring
t_end = 6.283185307179586
[steps]
dt = 0.1
halvings = 4
jitter = 0.5
seeds = 2
[integrators]
use = all
precision = float32
offset = %s
"""


def return_error64(name, h, t_end):
    """The spring (k = m = 1, x0 = 1, v0 = 0) run to t_end in double with
    steps h and a last shorter one, v reversed, the same steps back: how far
    it lands from x0.  euler: x += v h, v += a(x_old) h; euler-semi:
    v += a h, x += v h; velocity Verlet: kick, drift, kick."""
    n = int(math.ceil(t_end / h - 1e-9))
    steps = [h] * (n - 1) + [t_end - (n - 1) * h]

    def run(x, v, hs):
        for s in hs:
            if name == "euler":
                x, v = x + v * s, v - x * s
            elif name == "euler-semi":
                v = v - x * s
                x = x + v * s
            else:
                v = v - 0.5 * s * x
                x = x + v * s
                v = v - 0.5 * s * x
        return x, v

    x, v = run(1.0, 0.0, steps)
    x, v = run(x, -v, steps[::-1])
    return abs(x - 1.0)


def test_reversal_floor(tmp):
    """A float32 floor that swamps a method's return error cannot say
    "reversible": euler and euler-semi are not (their return error in
    double, computed here, is far above float64's round-off), so where
    float32's floor is above it the verdict is below-resolution, never
    yes; velocity Verlet is reversible and stays yes.  An order not
    fitted is printed as its verdict alone, never "nan"."""
    for offset in ("1000", "0"):
        path = os.path.join(tmp, "rev.case")
        with open(path, "w") as f:
            f.write(REV_CASE % offset)
        out = os.path.join(tmp, "rev-" + offset)
        r = vb("run", path, "--out", out, "--quiet", "--no-chart-data")
        check(r.returncode == 0, "run the reversal case at offset %s" % offset, r.stderr)
        if r.returncode != 0:
            continue
        rows = trajectory(os.path.join(out, "rev", "reverse.csv"))
        for row in rows:
            name = row["integrator"].split(":")[0]
            if name not in ("euler", "euler-semi", "velocity-verlet") or row["plan"] != "fixed":
                continue
            e64 = return_error64(name, 0.1, 2 * math.pi)
            floor = float(row["roundoff"])
            if e64 > 1e-9:  # not reversible in double: float32 cannot say yes
                want = "no" if float(row["return_err_pos"]) > floor else "below-resolution"
            else:
                want = "yes" if float(row["return_err_pos"]) <= floor else "no"
            check(row["reversible"] == want, "offset %s, %s: return error in double %.3g, "
                  "float32's %s against floor %s: %s, not %s" % (
                      offset, name, e64, row["return_err_pos"], row["roundoff"], want,
                      row["reversible"]))
        summary = open(os.path.join(out, "rev", "summary.md")).read()
        check("nan" not in summary.lower(), "no nan in the summary at offset %s" % offset,
              summary)
        check(("below-resolution / below-resolution" if offset == "1000" else "yes / yes")
              in summary, "the summary's reversible column at offset %s" % offset, summary)
        lines = [l for l in summary.splitlines() if l.startswith("| `euler:")]
        check(lines and "| yes" not in lines[0], "euler is never reversible (offset %s)" % offset,
              lines)


def test_bad(tmp):
    for args, word in [
        (("--integrator", "rk4", "--precision", "float32"), "rk4"),
        (("--integrator", "verlet", "--precision", "float32"), "verlet"),
        (("--integrator", "velocity-verlet", "--precision", "float16"), "--precision"),
        (("--integrator", "velocity-verlet", "--offset", "x"), "--offset"),
        (("--integrator", "velocity-verlet", "--offset", "1e300"), "--offset"),
        (("--integrator", "rk4", "--offset", "1000"), "--offset"),
        (("--engine", "e:2=cat", "--precision", "float32"), "--precision"),
    ]:
        r = vb("sim", "--model", "spring", *args)
        check(r.returncode == 2 and word in r.stderr and
              ("--precision" in args or "--precision" not in r.stderr),
              "sim %s: exit 2 naming %s"
              % (" ".join(args), word), "%d %s" % (r.returncode, r.stderr))


if __name__ == "__main__":
    raise SystemExit(S.main([test_bits, test_floors, test_case_keys, test_sweep_chart, test_check_floor,
                           test_reversal_floor, test_stall, test_bad]))
