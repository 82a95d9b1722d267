#!/usr/bin/env python3
"""can_fail.py BUILD_DIR — the tests themselves can fail.

- NaN: suite.max_or_nan keeps a NaN where max() drops it (max(worst, nan)
  is worst), and no test accumulates a maximum in a way that drops one:
  `x = max(x, ...)` or a max() of absolute differences in Python,
  `x = fmax(x, ...)`, `if (d > x) x = d;` or `if (!(d <= x)) x = d;` in C
  (unit.h's max_or_nan and suite.max_or_nan instead).  The patterns are
  shown to catch what they are for on a sample of each.
- Every rigid method of the table (src/integrators/rigid_methods.c) and
  every rigid model of its table (src/models/rigid_models.c), read from
  the source here, is what `list --csv` prints, what `use = all` runs on
  each rigid model, and a row of every method table of docs/rigid.md, in
  the table's order: a method past rigid_entries.c's slots, or a model
  past rigid_face.c's, would otherwise be dropped without a word.
- Every test script of tests/ runs in make check: it is a suite of
  tests/run.sh, a module another test imports, or a helper another runs
  (tests/reference/pendulum.py was none of them, and never ran).
Ends with "N passed, N failed"."""
import ast
import csv
import glob
import io
import math
import os
import re
import subprocess
import sys

import suite
from suite import ROOT

S = suite.Suite("can_fail", 120)
check = S.check
TESTS = os.path.join(ROOT, "tests")


# ---- NaN in the maxima ----------------------------------------------------------------------

def test_max_or_nan(tmp):
    errs = [1e-9, 3e-9, float("nan"), 2e-9]
    worst = 0.0
    for e in errs:
        worst = suite.max_or_nan(worst, e)
    check(math.isnan(worst), "max_or_nan over errors with a NaN is NaN (got %r)" % worst)
    check(not worst <= 1e-6, "a bound on the worst error fails on a run gone NaN")
    # what it replaces: max() drops the NaN, and the same bound passed
    dropped = 0.0
    for e in errs:
        dropped = max(dropped, e)
    check(dropped == 3e-9 and max(errs) == 3e-9,
          "max() drops a NaN after the first value (the reason for max_or_nan)", (dropped, max(errs)))
    check(math.isnan(suite.max_or_nan(errs)) and math.isnan(suite.max_or_nan(float("nan"), 1.0)),
          "max_or_nan of an iterable, and of a NaN first")
    check(suite.max_or_nan([1.0, 3.0, 2.0]) == 3.0 and suite.max_or_nan(2.0, -1.0) == 2.0 and
          suite.max_or_nan([], default=math.inf) == math.inf,
          "max_or_nan is max() on numbers, with max()'s default")
    try:
        suite.max_or_nan([])
        check(False, "max_or_nan([]) raises, as max([]) does")
    except ValueError:
        check(True, "max_or_nan([]) raises, as max([]) does")


# a maximum accumulated in a way that drops a NaN
C_DROPS = [
    # x = fmax(x, ...)
    re.compile(r"(\*?[A-Za-z_][\w.\[\]>-]*)\s*=\s*fmax[lf]?\(\s*\1\s*,"),
    # if (d > x) x = d;   if (!(d <= x)) x = d;
    re.compile(r"if \((.+?) > ([A-Za-z_][\w.\[\]>-]*)\)\s*\n?\s*\2 = \1;"),
    re.compile(r"if \(!\((.+?) <= ([A-Za-z_][\w.\[\]>-]*)\)\)\s*\n?\s*\2 = \1;"),
]
# what the C patterns find that cannot be NaN, and why
NOT_NAN = {
    "most_iter": "test_models.c: an iteration count, an int",
}
# the Python maxima that cannot be NaN: (file, a piece of the call), and why
PY_NOT_NAN = {
    ("plots.py", "dark(px[y][x])"): "a count of a PNG's dark pixels, an int",
}
# files whose samples of the patterns are on purpose
SAMPLES = ("can_fail.py", "test_can_fail.c")


def py_drops(text, name=""):
    """The lines of Python TEXT where a maximum drops a NaN: max(x, ...)
    assigned to x, or max() of a generator or a comprehension (of the
    values it accumulates); max(..., key=...) chooses, it does not measure."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, call = ast.unparse(node.targets[0]), node.value
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and
                    call.func.id == "max" and call.args and ast.unparse(call.args[0]) == target):
                out.append(node.lineno)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "max"
                and not any(k.arg == "key" for k in node.keywords) and len(node.args) == 1
                and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp))):
            code = ast.unparse(node)
            if not any(f == os.path.basename(name) and piece in code for f, piece in PY_NOT_NAN):
                out.append(node.lineno)
    return sorted(set(out))


def drops(text, patterns):
    """The lines where one of the patterns matches (of a maximum that may
    be a NaN)."""
    out = []
    for p in patterns:
        for m in p.finditer(text):
            if m.lastindex and m.group(m.lastindex) in NOT_NAN:
                continue
            out.append(text.count("\n", 0, m.start()) + 1)
    return sorted(set(out))


def test_no_nan_dropping_maxima(tmp):
    # the patterns catch what they are for, and pass what replaced it
    c_bad = ["worst = fmax(worst, fabs(a - b));", "*att = fmax(*att, e);",
             "if (d > worst)\n            worst = d;", "if (!(de <= worst_e))\n    worst_e = de;"]
    c_good = ["worst = max_or_nan(worst, fabs(a - b));", "double s = fmax(1.0, fabs(w));"]
    py_bad = ["worst = max(worst, abs(a - b))", "dx = max(abs(x - y) for x, y in z)",
              "worst = max((abs(e - w) for e in r), default=1)",
              "d = max(math.sqrt(e)\n        for e in rows)", "m = max([abs(e) for e in r])"]
    py_good = ["worst = suite.max_or_nan(worst, abs(a - b))", "x = tol * max(1.0, abs(b))",
               "fine = max(rk4, key=lambda f: f['level'])", "x = max(a, b)"]
    check(all(drops(t, C_DROPS) for t in c_bad) and not any(drops(t, C_DROPS) for t in c_good),
          "the C patterns find each NaN-dropping maximum of the samples, and none of the rest",
          [(t, drops(t, C_DROPS)) for t in c_bad + c_good])
    check(all(py_drops(t) for t in py_bad) and not any(py_drops(t) for t in py_good),
          "the Python check finds each NaN-dropping maximum of the samples, and none of the rest",
          [(t, py_drops(t)) for t in py_bad + py_good])
    found = []
    names = sorted(os.listdir(TESTS)) + ["reference/" + n for n in sorted(os.listdir(os.path.join(TESTS, "reference")))]
    for name in names:
        path = os.path.join(TESTS, name)
        if os.path.basename(name) in SAMPLES:
            continue
        if name.endswith((".c", ".h")):
            patterns = C_DROPS
        elif name.endswith(".py"):
            patterns = None  # py_drops
        else:
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        lines = py_drops(text, name) if patterns is None else drops(text, patterns)
        found += ["tests/%s:%d" % (name, n) for n in lines]
    check(not found, "no test accumulates a maximum that drops a NaN (max_or_nan in unit.h and "
          "suite.py)", " ".join(found))


# ---- the rigid tables, exposed whole --------------------------------------------------------

def table_names(table_file, folder, type_name):
    """The names of the entries of TABLE_FILE's `table[]`, in order: each
    symbol's definition (`const TYPE SYMBOL = {`) found in FOLDER and its
    `.name = "..."`."""
    with open(os.path.join(ROOT, table_file), encoding="utf-8") as f:
        text = f.read()
    body = re.search(r"\btable\[\]\s*=\s*\{(.*?)\};", text, re.S)
    symbols = re.findall(r"&(\w+)", body.group(1)) if body else []
    sources = {}
    for n in sorted(os.listdir(os.path.join(ROOT, folder))):
        if n.endswith(".c"):
            with open(os.path.join(ROOT, folder, n), encoding="utf-8") as f:
                sources[n] = f.read()
    names = []
    for sym in symbols:
        name = None
        for text in sources.values():
            m = re.search(r"\bconst %s %s\s*=\s*\{.*?\.name\s*=\s*\"([^\"]+)\"" % (type_name, sym), text, re.S)
            if m:
                name = m.group(1)
                break
        names.append(name or "?" + sym)
    return names


def rigid_tables():
    return (table_names("src/integrators/rigid_methods.c", "src/integrators", "vb_rigid_method"),
            table_names("src/models/rigid_models.c", "src/models", "vb_rigid_model_type"))


def test_list_has_the_tables(tmp):
    methods, models = rigid_tables()
    check(len(methods) >= 9 and not any(m.startswith("?") for m in methods),
          "the rigid method table read from the source (%s)" % ", ".join(methods))
    check(len(models) >= 2 and not any(m.startswith("?") for m in models),
          "the rigid model table read from the source (%s)" % ", ".join(models))
    r = S.vb("list", "--csv")
    rows = list(csv.reader(io.StringIO(r.stdout)))
    listed_m = [row[1] for row in rows if row and row[0] == "rigid-integrator"]
    listed_b = [row[1] for row in rows if row and row[0] == "rigid-model"]
    check(r.returncode == 0 and listed_m == methods,
          "list --csv: the rigid methods are the table's, in its order", (listed_m, methods))
    check(r.returncode == 0 and listed_b == models,
          "list --csv: the rigid models are the table's, in its order", (listed_b, models))
    text = S.vb("list").stdout
    check(all(re.search(r"^  %s " % re.escape(n), text, re.M) for n in methods + models),
          "list: a line for every rigid method and model",
          [n for n in methods + models if not re.search(r"^  %s " % re.escape(n), text, re.M)])


def model_has_contact(name):
    """Whether the rigid model of that name sets its type's contact hook
    (read from its file in src/models)."""
    for path in glob.glob(os.path.join(ROOT, "src", "models", "*.c")):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if re.search(r'\.name\s*=\s*"%s"' % re.escape(name), text) and "vb_rigid_model_type" in text:
            return re.search(r"\.contact\s*=\s*\w", text) is not None
    return False


def test_use_all_runs_every_method(tmp):
    """`use = all` on a rigid model runs every method of the table: the
    case is run, and runs.csv read."""
    methods, models = rigid_tables()
    for model in models:
        path = os.path.join(tmp, "all-%s.case" % model)
        # a body on the ground runs only inside a contact solver (the
        # rigid type's contact hook): its rows are METHOD+toi
        on_ground = model_has_contact(model)
        with open(path, "w") as f:
            f.write("[case]\ndescription = every rigid method on %s\nmodel = %s\nt_end = 0.5\n\n"
                    "[steps]\ndt = 0.1\nhalvings = 2\n\n[integrators]\nuse = all\n" % (model, model))
            if on_ground:
                f.write("\n[contact]\nhandler = toi\n")
        out = os.path.join(tmp, "out-" + model)
        r = S.vb("run", path, "--out", out, "--quiet", "--no-chart-data")
        runs = os.path.join(out, "all-" + model, "runs.csv")
        got = []
        if r.returncode == 0 and os.path.exists(runs):
            for row in suite.table_rows(runs):
                if row["integrator"] not in got:
                    got.append(row["integrator"])
        want = [m + "+toi" for m in methods] if on_ground else methods
        check(got == want, "use = all on %s runs every rigid method of the table, in its order"
              % model, (r.returncode, r.stderr[-500:], got, want))


def method_tables(text, methods):
    """The tables of a Markdown text whose header's first cell is
    "method" and whose rows begin with a rigid method's name in
    backticks: (line, [names in the rows])."""
    out, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        if re.match(r"\|\s*method\s*\|", lines[i]) and i + 1 < len(lines) and lines[i + 1].startswith("|-"):
            start, i, names = i + 1, i + 2, []
            while i < len(lines) and lines[i].startswith("|"):
                m = re.match(r"\|\s*`([^`]+)`", lines[i])
                names.append(m.group(1) if m else None)
                i += 1
            if any(n in methods for n in names):
                out.append((start, names))
        else:
            i += 1
    return out


def test_docs_list_every_method(tmp):
    methods, models = rigid_tables()
    with open(os.path.join(ROOT, "docs", "rigid.md"), encoding="utf-8") as f:
        text = f.read()
    tables = method_tables(text, methods)
    check(len(tables) >= 5, "docs/rigid.md: its tables of the rigid methods found (%d)" % len(tables))
    for line, names in tables:
        check(names == methods, "docs/rigid.md:%d: the table lists every rigid method of the table, "
              "in its order" % line, (names, methods))
    for m in models:
        check("`%s`" % m in text, "docs/rigid.md names the rigid model `%s`" % m)
    # the check can fail: a method more in the table than in a doc's table
    check(all(names != methods + ["rigid-extra"] for _, names in tables),
          "a table of docs/rigid.md is told from the table with a method more")


# ---- every test script runs -----------------------------------------------------------------

# the scripts of tests/ that are not a suite, and why
NOT_SUITES = {
    "run.sh": "runs the suites",
    "runner.py": "runs the suites (tests/run.sh)",
    "suite.py": "what the Python suites share",
    "speed_charts.py": "a benchmark (make bench-charts), never a test",
}


def test_every_script_runs(tmp):
    with open(os.path.join(TESTS, "run.sh"), encoding="utf-8") as f:
        runsh = f.read()
    listed = set(re.findall(r'"\$here/([\w./-]+)"', runsh))
    texts = {}
    for d in ("", "reference"):
        for n in os.listdir(os.path.join(TESTS, d)):
            if n.endswith((".py", ".sh")):
                with open(os.path.join(TESTS, d, n), encoding="utf-8") as f:
                    texts[os.path.join(d, n) if d else n] = f.read()
    orphans = []
    for name in sorted(texts):
        module = os.path.basename(name)[:-3]
        imported = any(re.search(r"^\s*(import|from) %s\b" % module, t, re.M)
                       for other, t in texts.items() if other != name)
        # named as a string in a suite ("spec_reference.py": compare.py runs it)
        run_by = any('"%s"' % os.path.basename(name) in t for other, t in texts.items()
                     if other != name and other in listed)
        if name not in listed and name not in NOT_SUITES and not imported and not run_by:
            orphans.append(name)
    check(not orphans, "every test script of tests/ is run by make check (a suite of tests/run.sh, "
          "imported or run by one)", " ".join(orphans))
    check("can_fail.py" in listed, "this suite is in tests/run.sh")


if __name__ == "__main__":
    sys.exit(S.main([test_max_or_nan, test_no_nan_dropping_maxima, test_list_has_the_tables,
                     test_use_all_runs_every_method, test_docs_list_every_method,
                     test_every_script_runs]))
