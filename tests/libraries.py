#!/usr/bin/env python3
"""libraries.py BUILD_DIR — every data file says which GSL and FFTW made it.

The numbers depend on the libraries: references are GSL's rk8pd, the chain's
exact solution is FFTW's transform (its plan the same bits for one FFTW
build).  So each file with provenance lines has, second, the line
"# libraries: GSL V, FFTW W", and --version says "libraries: GSL V, FFTW W",
with V and W what the libraries say of themselves at run time.

The truth is independent of verletbench: a C program written here, compiled
against the same libraries, prints their gsl_version and fftw_version; and
that program is held in turn to what the packaging says (pkg-config's
--modversion, Debian's package versions), where those tools are present.

Checked: --version; sim's --trajectory; runs.csv, orders.csv and every other CSV of a case with
provenance lines (a chain, which is FFTW's, and a grid's grid.csv); the run's
summary.md; longrun's and stability's files; shards, and merge refusing a
shard whose libraries line is another's (or missing) with exit 2, naming the
file and line.  Ends with "N passed, N failed"."""
import glob
import os
import shutil
import subprocess
import sys

import suite

S = suite.Suite("libraries", guard=300)
check, vb = S.check, S.vb

PROGRAM = r"""
#include <fftw3.h>
#include <gsl/gsl_version.h>
#include <stdio.h>
int main(void) { printf("%s\n%s\n", gsl_version, fftw_version); return 0; }
"""

CHAIN = """[case]
model = chain
N = 8
amp = 0.1
t_end = 2
[steps]
dt = 0.2
halvings = 2
jitter = 0.5
seeds = 2
[integrators]
use = velocity-verlet, rk4
"""

GRID = """[case]
model = spring
x0 = 1, 0.5
t_end = 1
[steps]
dt = 0.1
halvings = 2
jitter = 0.5
seeds = 2
[integrators]
use = velocity-verlet, euler
"""


def flags(pkg, fallback):
    pc = shutil.which("pkg-config")
    if pc:
        r = subprocess.run([pc, "--cflags", "--libs", pkg], capture_output=True, text=True)
        if r.returncode == 0:
            return r.stdout.split()
    return fallback


def truth(tmp):
    """(gsl_version, fftw_version) from a program compiled here"""
    src, exe = os.path.join(tmp, "v.c"), os.path.join(tmp, "v")
    with open(src, "w") as f:
        f.write(PROGRAM)
    cc = os.environ.get("CC") or "cc"
    cmd = [cc, src, "-o", exe] + flags("gsl", ["-lgsl", "-lgslcblas", "-lm"]) + \
        flags("fftw3", ["-lfftw3"])
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("could not compile the version program: " + r.stderr)
    gsl, fftw = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.split("\n")[:2]
    return gsl, fftw


def packaging(gsl, fftw):
    """the program's versions against pkg-config's and dpkg's, where present"""
    pc = shutil.which("pkg-config")
    if pc:
        for pkg, want in (("gsl", gsl), ("fftw3", fftw)):
            r = subprocess.run([pc, "--modversion", pkg], capture_output=True, text=True)
            if r.returncode == 0:
                v = r.stdout.strip()
                # gsl_version is "2.7.1"; fftw_version "fftw-3.3.10-sse2-avx"
                ok = want == v if pkg == "gsl" else want.startswith("fftw-" + v)
                check(ok, "%s: the library says %s, pkg-config --modversion %s" % (pkg, want, v))
    if shutil.which("dpkg-query"):
        for pkg, want in (("libgsl27", gsl), ("libfftw3-double3", fftw)):
            r = subprocess.run(["dpkg-query", "-W", "-f", "${Status} ${Version}", pkg],
                               capture_output=True, text=True)
            if r.returncode == 0 and r.stdout.startswith("install ok installed "):
                v = r.stdout.split()[-1].split(":")[-1]  # no epoch
                upstream = v.split("+")[0].split("-")[0]
                ok = want == upstream if pkg == "libgsl27" else want.startswith("fftw-" + upstream)
                check(ok, "%s: the library says %s, Debian's package %s" % (pkg, want, v))


def second_line(path):
    with open(path) as f:
        lines = f.read().splitlines()
    return lines[1] if len(lines) > 1 else ""


def test_files(tmp):
    gsl, fftw = truth(tmp)
    packaging(gsl, fftw)
    text = "GSL %s, FFTW %s" % (gsl, fftw)
    line = "# libraries: " + text

    r = vb("--version")
    check(r.returncode == 0 and "libraries: %s\n" % text in r.stdout,
          "--version says 'libraries: %s'" % text, r.stdout)

    # a chain (FFTW's exact solution) and a grid: every CSV with provenance
    cases = os.path.join(tmp, "cases")
    os.makedirs(cases)
    for name, body in (("chain", CHAIN), ("grid", GRID)):
        with open(os.path.join(cases, name + ".case"), "w") as f:
            f.write(body)
    out = os.path.join(tmp, "out")
    r = vb("run", "--quiet", os.path.join(cases, "chain.case"), os.path.join(cases, "grid.case"),
           "--out", out)
    check(r.returncode == 0, "run of a chain and a grid", r.stderr)
    csvs = sorted(glob.glob(os.path.join(out, "*", "*.csv")))
    with_prov = [p for p in csvs if open(p).readline().startswith("# verletbench ")]
    names = {os.path.basename(p) for p in with_prov}
    check({"runs.csv", "orders.csv", "timeseries.csv", "grid.csv"} <= names,
          "runs, orders, timeseries and grid.csv carry provenance lines", sorted(names))
    bad = [p for p in with_prov if second_line(p) != line]
    check(not bad, "each of %d files' second line is '%s'" % (len(with_prov), line),
          "\n".join("%s: %s" % (p, second_line(p)) for p in bad))
    with open(os.path.join(out, "summary.md")) as f:
        check("libraries: %s)" % text in f.read(), "the run's summary.md names the libraries")

    # sim's trajectory of the chain
    traj = os.path.join(tmp, "traj.csv")
    r = vb("sim", "--model", "chain", "--integrator", "velocity-verlet", "--t-end", "1",
           "--trajectory", traj)
    check(r.returncode == 0 and second_line(traj) == line,
          "sim --trajectory: second line '%s'" % line, r.stderr or second_line(traj))

    # longrun's and stability's files
    lo = os.path.join(tmp, "longrun")
    r = vb("longrun", "--model", "spring", "--integrator", "velocity-verlet", "--periods", "1000",
           "--out", lo)
    check(r.returncode == 0, "longrun runs", r.stderr)
    st = os.path.join(tmp, "stability")
    r = vb("stability", "--model", "spring", "--integrator", "velocity-verlet", "--out", st)
    check(r.returncode == 0, "stability runs", r.stderr)
    for d in (lo, st):
        files = sorted(glob.glob(os.path.join(d, "*")))
        check(files, "%s wrote files" % d)
        for p in files:
            with open(p) as f:
                head = f.read().splitlines()[:2]
            if p.endswith(".md"):
                check(head and "; libraries: %s -->" % text in head[0],
                      "%s: its first comment names the libraries" % p, head)
            else:
                check(len(head) == 2 and head[1] == line, "%s: second line '%s'" % (p, line), head)


def test_merge_refuses_other_libraries(tmp):
    gsl, fftw = truth(tmp)
    case = os.path.join(suite.ROOT, "cases", "spring.case")
    s = [os.path.join(tmp, "s%d" % k) for k in (1, 2)]
    for k, d in enumerate(s, 1):
        r = vb("run", "--quiet", "--no-chart-data", "-j", "1", "--shard", "%d/2" % k, case,
               "--out", d)
        check(r.returncode == 0, "run --shard %d/2" % k, r.stderr)
    shard = os.path.join(s[1], "spring", "shard.csv")
    line = "# libraries: GSL %s, FFTW %s" % (gsl, fftw)
    check(second_line(shard) == line, "a shard's second line is '%s'" % line, second_line(shard))
    r = vb("merge", s[0], s[1], "--out", os.path.join(tmp, "m-ok"))
    check(r.returncode == 0, "shards of these libraries merge", r.stderr)

    # the same shard, said to be made with another FFTW, then another GSL,
    # then without the line: each refused, nothing written
    other = [("another FFTW", line.replace("FFTW " + fftw, "FFTW fftw-3.3.9-sse2")),
             ("another GSL", line.replace("GSL " + gsl, "GSL 2.6"))]
    for what, changed in other + [("no libraries line", None)]:
        d = os.path.join(tmp, "edited")
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(s[1], d)
        f = os.path.join(d, "spring", "shard.csv")
        with open(f) as fh:
            lines = fh.read().split("\n")
        if changed is None:
            del lines[1]
        else:
            lines[1] = changed
        with open(f, "w") as fh:
            fh.write("\n".join(lines))
        m = os.path.join(tmp, "m-" + what.replace(" ", "-"))
        r = vb("merge", s[0], d, "--out", m)
        check(r.returncode == 2, "merge refuses a shard with %s: exit 2" % what,
              "exit %d: %s" % (r.returncode, r.stderr))
        if changed is not None:
            check("spring/shard.csv:2: made with other libraries: '%s'" % changed[13:] in r.stderr
                  and ("'%s'" % line[13:]) in r.stderr,
                  "merge names the shard's line and this binary's libraries (%s)" % what, r.stderr)
        else:
            check("spring/shard.csv:2: made by another version or from other parameters"
                  in r.stderr, "merge names the line where the libraries should be", r.stderr)
        check(not os.path.exists(m), "a refused merge writes no --out (%s)" % what)


if __name__ == "__main__":
    sys.exit(S.main([test_files, test_merge_refuses_other_libraries]))
