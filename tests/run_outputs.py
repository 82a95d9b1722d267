#!/usr/bin/env python3
"""run_outputs.py BUILD_DIR — what `verletbench run` writes: CSV that parses,
the columns of SPEC §6 in order, values from the allowed sets, provenance
lines without timestamps, and the same bytes on a second run."""
import csv
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

SIM_COLUMNS = ("model,integrator,plan,dt,jitter,seed,steps,t_end,force_evals,err_pos_final,"
               "err_pos_max,err_pos_rms,err_vel_final,err_vel_max,err_energy_max,status").split(",")
ORDER_COLUMNS = "integrator,plan,norm,order,points,expected,verdict".split(",")
VERDICTS = {"as-expected", "below-label", "above-label", "exact", "undetermined",
            "not-converging", "no-asymptotic-range", "uncertain"}
NORMS = {"err_pos_final", "err_pos_max", "err_pos_rms", "err_vel_final", "err_vel_max",
         "err_energy_max", "err_angmom_max"}
FILES = ["runs.csv", "orders.csv", "bands.csv", "onestep.csv", "onestep_orders.csv",
         "reverse.csv", "summary.md"]

CASE = """# a small sweep for the tests
[case]
model = orbit
e = 0.6
t_end = 3.0
description = a test orbit
[steps]
dt = 0.02
halvings = 3
jitter = 0.4
seeds = 3
trace = %s
[integrators]
use = tcv, velocity-verlet, euler
"""

results = {}  # check -> passed; a check repeated over rows counts once


def check(cond, what, key=None):
    key = key or what
    if not cond and results.get(key, True):
        print("FAIL run: " + what)
    results[key] = results.get(key, True) and bool(cond)


def read_csv(path):
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    comments = [l for l in lines if l.startswith("#")]
    rows = list(csv.reader(l for l in lines if not l.startswith("#")))
    return comments, rows[0], rows[1:]


def summary_cells(path, n):
    """{integrator: its first n order cells} of a case's summary.md"""
    with open(path) as f:
        return {l.split("|")[1].strip(" `"): [c.strip() for c in l.split("|")[3:3 + n]]
                for l in f if l.startswith("| `")}


def main():
    vb = os.path.join(sys.argv[1], "verletbench")
    here = os.path.dirname(os.path.abspath(__file__))
    trace = os.path.join(here, "..", "cases", "traces", "frames-60hz.trace")
    with tempfile.TemporaryDirectory() as tmp:
        case = os.path.join(tmp, "small.case")
        with open(case, "w") as f:
            f.write(CASE % trace)
        outs = [os.path.join(tmp, d) for d in ("a", "b")]
        for out in outs:
            r = subprocess.run([vb, "run", case, "--out", out], capture_output=True, text=True)
            check(r.returncode == 0, "run exited %d: %s" % (r.returncode, r.stderr))
            check("| `tcv` | 2 |" in r.stdout, "the summary table is printed")
        # a second run in place: the same bytes
        subprocess.run([vb, "run", case, "--out", outs[0], "--quiet"], check=True)
        d = os.path.join(outs[0], "small")
        for name in FILES:
            check(os.path.exists(os.path.join(d, name)), name + " written")
            check(filecmp.cmp(os.path.join(d, name), os.path.join(outs[1], "small", name),
                              shallow=False), name + " is byte-identical on a rerun")
        # any number of threads: the same bytes as one (chart data included)
        for j in ("1", "2", "3", "7"):
            out = os.path.join(tmp, "j" + j)
            subprocess.run([vb, "run", case, "--out", out, "--quiet", "-j", j], check=True)
            for name in FILES + ["convergence.csv", "timeseries.csv", "paths.csv"]:
                check(filecmp.cmp(os.path.join(out, "small", name),
                                  os.path.join(tmp, "j1", "small", name), shallow=False),
                      "%s is byte-identical with -j %s and -j 1" % (name, j))
        env = dict(os.environ, VERLETBENCH_THREADS="2")
        subprocess.run([vb, "run", case, "--out", os.path.join(tmp, "env"), "--quiet"], check=True,
                       env=env)
        check(filecmp.cmp(os.path.join(tmp, "env", "small", "runs.csv"),
                          os.path.join(tmp, "j1", "small", "runs.csv"), shallow=False),
              "VERLETBENCH_THREADS=2 gives the same bytes")
        check(os.path.exists(os.path.join(outs[0], "summary.md")), "DIR/summary.md written")
        check(not [f for f in os.listdir(d) if ".tmp." in f], "no temporary files left")

        comments, header, rows = read_csv(os.path.join(d, "runs.csv"))
        check(header[:len(SIM_COLUMNS)] == SIM_COLUMNS, "runs.csv starts with the sim columns")
        text = "\n".join(comments)
        # the version from VERSION; the commit when built in a git checkout
        version = open(os.path.join(ROOT, "VERSION")).read().strip()
        git = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"],
                             capture_output=True, text=True).returncode == 0 \
            if shutil.which("git") else False
        pattern = r"# verletbench %s%s: runs of " % (re.escape(version),
                                                    r" \(git [0-9a-f]{12}(-dirty)?\)" if git else "")
        check(re.search(pattern, text) is not None, "runs.csv records version and commit")
        check("model=orbit mu=1 a=1 e=0.59999999999999998 t_end=3" in text,
              "runs.csv records the parameters")
        check(re.search(r"\b20\d\d-\d\d-\d\d\b|\d\d:\d\d:\d\d", text) is None, "no timestamps")
        # 3 integrators x 3 step sizes x (fixed + 3 seeds + trace)
        check(len(rows) == 3 * 3 * 5, "runs.csv has %d rows, want 45" % len(rows))
        for row in rows:
            check(len(row) == len(header), "a runs.csv row has %d fields" % len(row), "row width")
            rec = dict(zip(header, row))
            check(rec["plan"] in ("fixed", "random", "trace"), "plan " + rec["plan"], "plans")
            check(rec["status"] == "ok", "status " + rec["status"], "status")
            for col in SIM_COLUMNS[9:15]:
                check(re.fullmatch(r"[-+0-9.e]+|inf", rec[col]) is not None,
                      "%s = '%s' is not a number" % (col, rec[col]), "numbers")

        _, header, rows = read_csv(os.path.join(d, "orders.csv"))
        check(header[:len(ORDER_COLUMNS)] == ORDER_COLUMNS, "orders.csv columns: %s" % header)
        for row in rows:
            rec = dict(zip(header, row))
            check(rec["verdict"] in VERDICTS, "verdict " + rec["verdict"], "verdicts")
            check(rec["norm"] in NORMS, "norm " + rec["norm"], "norms")
            check(rec["expected"] == {"tcv": "2", "velocity-verlet": "2", "euler": "1"}[rec["integrator"]],
                  "expected order of " + rec["integrator"], "expected")
            if rec["verdict"] == "exact":
                check(rec["order"] == "", "an exact row has no order", "exact")
            elif rec["verdict"] != "undetermined":
                check(int(rec["points"]) >= 2, "a fitted order uses two points or more", "points")
                float(rec["order"])
        check(len(rows) == 3 * 3 * 7, "orders.csv has %d rows, want 63" % len(rows))

        # curves that coincide are named (same_as): with fixed steps tcv and
        # velocity Verlet give the same positions (the method's facts), with
        # random steps they do not, and Euler never matches either
        _, header, rows = read_csv(os.path.join(d, "convergence.csv"))
        same = {}
        for row in rows:
            rec = dict(zip(header, row))
            same.setdefault((rec["integrator"], rec["plan"]), set()).add(rec["same_as"])
        check(same.get(("velocity-verlet", "fixed")) == {"tcv"},
              "convergence.csv: velocity-verlet fixed same_as tcv, got %s"
              % same.get(("velocity-verlet", "fixed")))
        check(all(v == {""} for k, v in same.items() if k != ("velocity-verlet", "fixed")),
              "convergence.csv: no other curve coincides: %s" % same)
        _, header, rows = read_csv(os.path.join(d, "timeseries.csv"))
        same = {}
        for row in rows:
            rec = dict(zip(header, row))
            same.setdefault((rec["integrator"], rec["plan"]), set()).add(
                (rec["same_as"], rec["energy_same_as"]))
        check(same.get(("velocity-verlet", "fixed")) == {("tcv", "tcv")},
              "timeseries.csv: velocity-verlet fixed same as tcv in position and energy, got %s"
              % same.get(("velocity-verlet", "fixed")))
        check(same.get(("velocity-verlet", "random")) == {("", "")},
              "timeseries.csv: velocity-verlet random is its own curve")
        # and the summary says so in the cell: "= `tcv`" for velocity Verlet
        # with fixed steps (tcv comes first in use), nowhere else
        table = summary_cells(os.path.join(d, "summary.md"), 3)
        check(table.get("velocity-verlet", [""])[0].endswith(", = `tcv`"),
              "summary: velocity-verlet's fixed cell says = `tcv`: %s" % table.get("velocity-verlet"))
        check(sum("= `" in c for cells in table.values() for c in cells) == 1,
              "summary: no other cell claims a match: %s" % table)
        # the facts of docs/method.md §2: euler-semi is verlet-naive with fixed
        # steps, verlet-var is velocity-verlet under any steps
        fact = os.path.join(tmp, "facts.case")
        with open(fact, "w") as f:
            f.write("[case]\nmodel = spring\nt_end = 3\n[steps]\ndt = 0.05\nhalvings = 3\n"
                    "jitter = 0.5\nseeds = 3\n[integrators]\n"
                    "use = euler-semi, verlet-naive, verlet-var, velocity-verlet, euler\n")
        r = subprocess.run([vb, "run", fact, "--out", os.path.join(tmp, "facts"), "--quiet",
                            "--no-chart-data"], capture_output=True, text=True)
        table = summary_cells(os.path.join(tmp, "facts", "facts", "summary.md"), 2)
        check(table["verlet-naive"][0].endswith("= `euler-semi`") and
              "= `" not in table["verlet-naive"][1],
              "summary: verlet-naive = euler-semi with fixed steps only: %s" % table["verlet-naive"])
        check(table["velocity-verlet"][0].endswith("= `verlet-var`") and
              table["velocity-verlet"][1].endswith("= `verlet-var`"),
              "summary: velocity-verlet = verlet-var, fixed and random: %s"
              % table["velocity-verlet"])
        check(all("= `" not in c for c in table["euler"] + table["euler-semi"] +
                  table["verlet-var"]), "summary: the first of a pair and euler say no match")

        # "=" means the same positions, not errors of the same size: on a
        # projectile (constant g) explicit Euler's height lags the exact
        # y(t) by g h t / 2 at every step and symplectic Euler's leads by as
        # much (y_n = y0 + v0 t -+ g h^2 n (n -+ 1) / 2 against g t^2 / 2), so
        # every norm of their errors agrees while their positions differ by
        # g h t.  verlet-naive is symplectic Euler's recurrence (method.md §2)
        # and is "= euler-semi"; euler-semi is never "= euler", in the
        # summary, the convergence chart's data or the time series'.
        proj = os.path.join(tmp, "mirror.case")
        with open(proj, "w") as f:
            f.write("[case]\nmodel = projectile\nt_end = 2\n[steps]\ndt = 0.05\nhalvings = 3\n"
                    "[integrators]\nuse = euler, euler-semi, verlet-naive\n")
        r = subprocess.run([vb, "run", proj, "--out", os.path.join(tmp, "mirror"), "--quiet"],
                           capture_output=True, text=True)
        check(r.returncode == 0, "the projectile runs: %s" % r.stderr)
        md = os.path.join(tmp, "mirror", "mirror")
        table = summary_cells(os.path.join(md, "summary.md"), 1)
        check("= `" not in table.get("euler-semi", ["= `?"])[0],
              "projectile summary: euler-semi is not = euler (mirror errors): %s"
              % table.get("euler-semi"))
        check(table.get("verlet-naive", [""])[0].endswith("= `euler-semi`"),
              "projectile summary: verlet-naive = euler-semi: %s" % table.get("verlet-naive"))
        for name in ("convergence.csv", "timeseries.csv"):
            _, header, rows = read_csv(os.path.join(md, name))
            recs = [dict(zip(header, row)) for row in rows]
            check(recs and all(x["same_as"] != "euler" for x in recs),
                  "projectile %s: no curve keyed = euler" % name)
            check(any(x["integrator"] == "verlet-naive" and x["same_as"] == "euler-semi"
                      for x in recs), "projectile %s: verlet-naive = euler-semi" % name)

        # "=" is relative to what it compares: on the e = 0.5 orbit (63 000
        # steps in the long run, whose round-off floor is 5.6e-8) yoshida4's
        # and pefrl's energy errors lie 10x and 0.8x rk4's, all far under
        # that floor, and were once keyed "= rk4".  Every claim in the chart
        # data must hold against the data beside it: the two curves never 2x
        # apart; the true equalities of docs/method.md §2 still claimed.
        orbit = os.path.join(tmp, "same.case")
        with open(orbit, "w") as f:
            f.write("[case]\nmodel = orbit\ne = 0.5\nt_end = 6.283185307179586\n[steps]\n"
                    "dt = 0.005\nhalvings = 4\njitter = 0.5\nseeds = 4\n[integrators]\n"
                    "use = verlet, tcv, verlet-var, velocity-verlet, leapfrog, euler-semi, "
                    "verlet-naive, rk4, yoshida4, pefrl\n")
        r = subprocess.run([vb, "run", orbit, "--out", os.path.join(tmp, "same"), "--quiet"],
                           capture_output=True, text=True)
        check(r.returncode == 0, "the orbit runs: %s" % r.stderr)
        sd = os.path.join(tmp, "same", "same")
        claims = 0
        for name, value_of in (("convergence.csv", {"same_as": "err_pos_max"}),
                               ("timeseries.csv", {"same_as": "err_pos", "energy_same_as": "err_energy"})):
            _, header, rows = read_csv(os.path.join(sd, name))
            recs = [dict(zip(header, row)) for row in rows]
            where = "t" if name == "timeseries.csv" else "level"
            at = {(x["integrator"], x["plan"], x[where]): x for x in recs}
            for x in recs:
                for col, val in value_of.items():
                    if not x[col]:
                        continue
                    claims += 1
                    y = at.get((x[col], x["plan"], x[where]))
                    a, b = float(x[val]), float(y[val]) if y else float("nan")
                    check(y is not None and max(a, b) < 2 * min(a, b),
                          "%s: %s %s %s = %s, but %s at %s=%s is %g against %g"
                          % (name, x["integrator"], x["plan"], col, x[col], val, where, x[where], a, b),
                          "every = holds: %s %s" % (name, col))
            for integ in ("yoshida4", "pefrl"):
                check(all(not x[c] for x in recs if x["integrator"] == integ for c in value_of),
                      "%s: %s is no other method's curve" % (name, integ))
        check(claims > 0, "the orbit's chart data make claims to test")
        table = summary_cells(os.path.join(sd, "summary.md"), 3)
        for integ in ("tcv", "verlet-var", "velocity-verlet", "leapfrog"):
            check(table[integ][0].endswith("= `verlet`"),
                  "orbit summary: %s = verlet with fixed steps (method.md §2): %s" % (integ, table[integ]))
        check(table["velocity-verlet"][1].endswith("= `verlet-var`"),
              "orbit summary: velocity-verlet = verlet-var with random steps: %s" % table["velocity-verlet"])
        check(table["verlet-naive"][0].endswith("= `euler-semi`"),
              "orbit summary: verlet-naive = euler-semi with fixed steps: %s" % table["verlet-naive"])
        check(all("= `" not in c for i in ("rk4", "yoshida4", "pefrl") for c in table[i]),
              "orbit summary: the fourth-order methods are none the same")

        # an uncertain verdict says how many more halvings would settle it
        # (docs/method.md §5): tcv on the spring's 60 Hz trace is uncertain
        # over the 6 halvings of cases/spring.case, "+1 halving"; over 7 it
        # is settled (below its label 2), as the rule expected
        spring = open(os.path.join(ROOT, "cases", "spring.case")).read()
        cells = {}
        for h in (6, 7):
            hd = os.path.join(tmp, "settle%d" % h)
            os.makedirs(hd)
            shutil.copytree(os.path.join(ROOT, "cases", "traces"), os.path.join(hd, "traces"))
            with open(os.path.join(hd, "spring.case"), "w") as f:
                f.write(re.sub(r"(?m)^halvings = 6", "halvings = %d" % h, spring))
            subprocess.run([vb, "run", os.path.join(hd, "spring.case"), "--out", os.path.join(hd, "out"),
                            "--quiet", "--no-chart-data"], check=True)
            cells[h] = summary_cells(os.path.join(hd, "out", "spring", "summary.md"), 3)["tcv"]
        check(cells[6][2].endswith("uncertain (+1 halving)"),
              "spring, 6 halvings: tcv's trace cell says +1 halving: %s" % cells[6][2])
        check("below-label" in cells[7][2] and "uncertain" not in cells[7][2],
              "spring, 7 halvings: tcv's trace verdict is settled: %s" % cells[7][2])
        check(all("halving" not in c for h in (6, 7) for c in cells[h][:2]),
              "no note on verdicts that are not uncertain: %s" % cells)

        # memory stays flat in the number of steps: a 1e7-step coarsest level
        # (2e7 at the finer) once kept every step for the reversal test, 80 MB
        # of them; now a checkpoint every ~sqrt(N) steps
        long_case = os.path.join(tmp, "long.case")
        with open(long_case, "w") as f:
            f.write("[case]\nmodel = spring\nt_end = 10000\n[steps]\ndt = 0.001\nhalvings = 2\n"
                    "[integrators]\nuse = velocity-verlet\n")
        # in a fresh process, so its children's peak is this run's alone
        measure = ("import resource, subprocess, sys\n"
                   "r = subprocess.run(sys.argv[1:], capture_output=True)\n"
                   "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
        r = subprocess.run([sys.executable, "-c", measure, vb, "run", "--quiet", "--no-chart-data",
                            long_case, "--out", os.path.join(tmp, "long")],
                           capture_output=True, text=True)
        code, rss = (int(w) for w in r.stdout.split())
        check(code == 0, "the 1e7-step case runs")
        check(rss < 40000, "a 1e7-step sweep used %d kB (more than 40 MB)" % rss)
        _, header, rows = read_csv(os.path.join(tmp, "long", "long", "reverse.csv"))
        rec = dict(zip(header, rows[0]))
        check(rec["steps"] == "10000000" and rec["reversible"] == "yes",
              "the reversal ran over every step: %s" % rec)

        # bad input: exit 2, file:line:key, and nothing written
        bad = os.path.join(tmp, "bad.case")
        with open(bad, "w") as f:
            f.write((CASE % trace).replace("dt = 0.02", "dt = -0.02"))
        out = os.path.join(tmp, "never")
        r = subprocess.run([vb, "run", case, bad, "--out", out], capture_output=True, text=True)
        check(r.returncode == 2, "a bad case file exits 2, not %d" % r.returncode)
        check(bad + ":8: dt = -0.02 must be > 0" in r.stderr, "message: " + r.stderr.strip())
        check(not os.path.exists(out), "nothing is written when a case file is bad")
    failed = sum(1 for ok in results.values() if not ok)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
