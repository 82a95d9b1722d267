#!/usr/bin/env python3
"""cost.py [--build DIR] [--out FILE] [CASE...] — what `make engines` costs,
split by engine and by scene: the CPU seconds of each engine's runs of each
case of cases/engines/ (default: all of them), and of the case's built-in
methods, measured one at a time.

`make engines` runs every case at once, each engine in persistent workers
(protocol 2 to 4), on every core: its CPU is one sum.  Here each [engines]
line of a case is run alone (`verletbench run CASE --engines-only` on a copy
of the case that keeps that line only), and the built-ins alone (the case
without its [engines]), one after another with -j 1, and each run's CPU
(user + system, of verletbench and every process it started: the engines'
workers, node or the C++ adapters) is read from getrusage(RUSAGE_CHILDREN)
around it.  A setting's cost is its adapter's start (node loading a WASM
engine: about 0.1 to 0.3 CPU-s a worker) plus its steps; "engine" folds an
engine's settings together by the adapter's folder (jolt, jolt-box and
jolt-spec0 are jolt's).  The sum is close to make engines' run step, less
the sharing of workers across cases that -j brings.

Prints a Markdown table (a row an engine, a column a scene, the totals) and,
with --settings, one a setting; --out writes it (a temporary file, renamed).
Needs the engines set up (make -C engines setup) and build/verletbench.
Exit status: 0, 1 a run failed, 2 bad usage.  A benchmark, never a test:
docs/speed.md gives a measured run."""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sections(text):
    """the case's lines, each with the section it is in ('' before any)"""
    sec, out = "", []
    for line in text.splitlines():
        m = re.match(r"\s*\[([A-Za-z0-9_-]+)\]\s*$", line)
        if m:
            sec = m.group(1)
        out.append((sec, line))
    return out


def engine_lines(text):
    """(name, command) of each line of the case's [engines]"""
    out = []
    for sec, line in sections(text):
        m = re.match(r"\s*([A-Za-z0-9_-]+)\s*=\s*(.*?)\s*$", line)
        if sec == "engines" and m:
            out.append(m.groups())
    return out


def keep_engines(text, keep):
    """the case with its [engines] reduced to the line named keep (None:
    without its [engines] section)"""
    lines = []
    for sec, line in sections(text):
        if sec != "engines":
            lines.append(line)
            continue
        m = re.match(r"\s*([A-Za-z0-9_-]+)\s*=", line)
        if keep is not None and (not m or m.group(1) == keep):
            lines.append(line)
    return "\n".join(lines) + "\n"


def engine_of(command):
    """the engine a command drives: its adapter's folder under engines/, or
    the C/C++ adapter's name in engines/build/ less -contact, -f64"""
    m = re.search(r"engines/build/([A-Za-z0-9_]+)", command)
    if m:
        return m.group(1)
    m = re.search(r"engines/([A-Za-z0-9_-]+)/", command)
    return m.group(1) if m else command.split()[0]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class BadInput(Exception):
    """a case verletbench refused (exit 2): the message names its file"""


def timed_run(vb, case_text, case_name, tmpdir, engines_only, original):
    """CPU-s of `verletbench run` on case_text, written beside the cases of
    cases/engines/ (the same depth, so its ../../engines/ paths hold)"""
    path = os.path.join(tmpdir, case_name + ".case")
    with open(path, "w", encoding="utf-8") as f:
        f.write(case_text)
    out = os.path.join(tmpdir, "out")
    shutil.rmtree(out, ignore_errors=True)
    args = [vb, "run", path, "--quiet", "--no-chart-data", "-j", "1", "--out", out]
    if engines_only:
        args.append("--engines-only")
    before = children_cpu()
    r = subprocess.run(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    cpu = children_cpu() - before
    # exit 1 is a run that failed as a finding (an engine that resets or
    # overflows: make engines goes on too), but a run that never reached its
    # engine (a command not found) costs nothing and says nothing: refused;
    # 2 is bad usage or input, named in the user's file, not this copy
    said = r.stderr.replace(path, original)
    if r.returncode == 2:
        raise BadInput("engines/cost.py: %s" % said.strip())
    failed = []
    runs = os.path.join(out, case_name, "runs.csv")
    if r.returncode == 1 and os.path.isfile(runs):
        with open(runs, encoding="utf-8") as f:
            failed = [l for l in f if ",engine-failed," in l]
    if r.returncode not in (0, 1) or (r.returncode == 1 and not failed):
        sys.stderr.write("engines/cost.py: %s: verletbench exited %d\n%s" % (original, r.returncode, said[-800:]))
        return None
    if failed and cpu < 0.05:
        sys.stderr.write("engines/cost.py: %s: its engine failed every run at once (%d engine-failed rows, "
                         "%.2f CPU-s): not a cost\n%s" % (original, len(failed), cpu, said[-400:]))
        return None
    return cpu


def table(title, rows, scenes, cost):
    lines = ["| %s | %s | total |" % (title, " | ".join(scenes)), "|---" * (len(scenes) + 2) + "|"]
    for row in rows:
        cells = [cost.get((row, s)) for s in scenes]
        total = sum(c for c in cells if c is not None)
        lines.append("| %s | %s | %.1f |" % (row, " | ".join("%.1f" % c if c is not None else "–" for c in cells),
                                           total))
    col = [sum(cost.get((row, s), 0.0) for row in rows) for s in scenes]
    lines.append("| total | %s | %.1f |" % (" | ".join("%.1f" % c for c in col), sum(col)))
    return lines


def main():
    ap = argparse.ArgumentParser(description="What make engines costs, split by engine and by scene: the CPU "
                                             "seconds of each engine's runs of each case, measured one at a time.",
                                 epilog="Example: python3 engines/cost.py cases/engines/roll*.case "
                                        "cases/engines/box-incline.case")
    ap.add_argument("cases", nargs="*", help="case files (default: cases/engines/*.case)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="where verletbench is (default build/)")
    ap.add_argument("--settings", action="store_true", help="also a row for each setting, not only each engine")
    ap.add_argument("--out", help="also write the tables to FILE")
    a = ap.parse_args()
    vb = os.path.join(a.build, "verletbench")
    if not os.access(vb, os.X_OK):
        print("engines/cost.py: no %s (make build)" % vb, file=sys.stderr)
        return 2
    cases = a.cases or sorted(os.path.join(ROOT, "cases", "engines", f)
                              for f in os.listdir(os.path.join(ROOT, "cases", "engines")) if f.endswith(".case"))
    if a.out and not os.path.isdir(os.path.dirname(os.path.abspath(a.out))):
        print("engines/cost.py: --out %s: no such directory" % a.out, file=sys.stderr)
        return 2
    texts, paths = {}, {}
    for c in cases:
        try:
            with open(c, encoding="utf-8") as f:
                texts[os.path.basename(c)[:-len(".case")]] = f.read()
            paths[os.path.basename(c)[:-len(".case")]] = c
        except OSError as e:
            print("engines/cost.py: %s: %s" % (c, e.strerror), file=sys.stderr)
            return 2
    by_setting, by_engine, failed = {}, {}, 0
    tmpdir = tempfile.mkdtemp(prefix=".cost-", dir=os.path.join(ROOT, "cases"))
    try:
        for scene, text in texts.items():
            runs = [("built-ins", "built-ins", None)] + [(n, engine_of(cmd), n) for n, cmd in engine_lines(text)]
            for setting, engine, keep in runs:
                cpu = timed_run(vb, keep_engines(text, keep), scene, tmpdir, keep is not None, paths[scene])
                if cpu is None:
                    failed += 1
                    continue
                print("engines/cost.py: %-18s %-28s %6.2f CPU-s" % (scene, setting, cpu), file=sys.stderr)
                by_setting[(setting, scene)] = cpu
                by_engine[(engine, scene)] = by_engine.get((engine, scene), 0.0) + cpu
    except BadInput as e:
        print(e, file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    scenes = list(texts)
    engines = sorted({e for e, _ in by_engine}, key=lambda e: (e != "built-ins", e))
    lines = ["CPU-s of `make engines`' runs, one at a time (engines/cost.py; %s):" % " ".join(
        os.path.relpath(c, ROOT) for c in cases), ""] + table("engine", engines, scenes, by_engine)
    if a.settings:
        settings = sorted({s for s, _ in by_setting}, key=lambda s: (s != "built-ins", s))
        lines += [""] + table("setting", settings, scenes, by_setting)
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if a.out:
        with open(a.out + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(a.out + ".tmp", a.out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
