"""suite.py — what the Python suites share: the count of checks, the
binary under test and how a suite runs (tests/run.sh reads the last line,
"N passed, N failed")."""
import csv
import io
import math
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PY_ENGINE = "python3 " + os.path.join(ROOT, "examples", "engines", "python", "engine.py")


def max_or_nan(*values, default=None):
    """max() that keeps a NaN: the largest of the values (of the one
    iterable when given one argument), or NaN when any of them is NaN.
    max(worst, nan) is worst (nan > worst is False), and so is max() over
    values with a NaN after the first, so a run gone NaN would pass a bound
    on its worst error: every maximum a suite accumulates is taken with
    this.  Of nothing: default, or ValueError as max() without one."""
    items = list(values[0]) if len(values) == 1 else list(values)
    if not items:
        if default is None:
            raise ValueError("max_or_nan() of nothing")
        return default
    for v in items:
        if v != v:
            return float("nan")
    return max(items)


def least_squares(xs, ys):
    """The least-squares slope of ys against xs and its standard error: the
    textbook formulas, written here, not read from the C code."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    icpt = my - slope * mx
    ssr = sum((y - icpt - slope * x) ** 2 for x, y in zip(xs, ys))
    return slope, math.sqrt(ssr / (n - 2) / sxx) if n > 2 else float("nan")


def table_body(path):
    """A table's lines without its provenance lines ("# ...")."""
    with open(path) as f:
        return [l for l in f.read().splitlines() if not l.startswith("# ")]


def table_rows(path):
    """A CSV table's rows as dicts, its provenance lines left out."""
    return list(csv.DictReader(io.StringIO("\n".join(table_body(path)))))


def write_tree(root, files):
    """A tree of files {path under root: text} made afresh under root;
    root."""
    shutil.rmtree(root, ignore_errors=True)
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    return root


class Suite:
    def __init__(self, name, guard):
        self.name = name
        self.guard = guard  # seconds a command may take: a hang guard, not a timing
        self.vb_path = None
        self.passed = self.failed = 0

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL %s: %s" % (self.name, what))
            if detail:
                print("    " + str(detail).strip().replace("\n", "\n    ")[:2000])

    def vb(self, *args, **kw):
        return subprocess.run([self.vb_path] + [str(a) for a in args], capture_output=True,
                              text=True, timeout=self.guard, **kw)

    def vb_engines(self, *args, env=None):
        """The binary with env over this environment, less
        VERLETBENCH_ENGINE_PROCESSES (one process a run): an engine test
        chooses its workers itself."""
        e = dict(os.environ)
        e.pop("VERLETBENCH_ENGINE_PROCESSES", None)
        e.update(env or {})
        return self.vb(*args, env=e)

    def shards_merged(self, tmp, name, cases, n, *flags):
        """cases run in n shards (run --shard K/N), merged, and run whole,
        each with flags: (the merge's files equal the whole run's byte for
        byte, what differs or failed)."""
        top = os.path.join(tmp, name)
        for k in range(1, n + 1):
            r = self.vb("run", "--quiet", "--shard", "%d/%d" % (k, n), *flags, *cases,
                        "--out", os.path.join(top, "s%d" % k))
            if r.returncode != 0:
                return False, "run --shard %d/%d: exit %d: %s" % (k, n, r.returncode, r.stderr[-600:])
        r = self.vb("merge", "--quiet", *flags,
                    *[os.path.join(top, "s%d" % k) for k in range(1, n + 1)],
                    "--out", os.path.join(top, "merged"))
        if r.returncode != 0:
            return False, "merge: exit %d: %s" % (r.returncode, r.stderr[-600:])
        r = self.vb("run", "--quiet", *flags, *cases, "--out", os.path.join(top, "whole"))
        if r.returncode != 0:
            return False, "the whole run: exit %d: %s" % (r.returncode, r.stderr[-600:])
        differ = []
        for a, dirs, files in os.walk(os.path.join(top, "whole")):
            rel = os.path.relpath(a, os.path.join(top, "whole"))
            for f in files:
                b = os.path.join(top, "merged", rel, f)
                if not os.path.exists(b) or open(os.path.join(a, f), "rb").read() != open(b, "rb").read():
                    differ.append(os.path.join(rel, f))
        for a, dirs, files in os.walk(os.path.join(top, "merged")):
            rel = os.path.relpath(a, os.path.join(top, "merged"))
            differ += [os.path.join(rel, f) for f in files
                       if not os.path.exists(os.path.join(top, "whole", rel, f))]
        return not differ, "files that differ: %s" % differ[:8]

    def main(self, tests):
        """Run each test(tmp) with BUILD_DIR from the command line; a test
        that raises is a failure, not the end of the suite."""
        self.vb_path = os.path.abspath(os.path.join(sys.argv[1], "verletbench"))
        tmp = tempfile.mkdtemp(prefix="vb-%s." % self.name)
        try:
            for t in tests:
                try:
                    t(tmp)
                except Exception as e:
                    self.check(False, "%s raised %r" % (t.__name__, e))
        finally:
            shutil.rmtree(tmp)
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0
