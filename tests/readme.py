#!/usr/bin/env python3
"""readme.py BUILD_DIR — the README's examples run as printed, on a fresh
checkout, and what it shows is what the tool prints now:

- a copy of this tree's tracked files (a fresh clone: no results/) built
  with the CI recipe's own `make -C verletbench -j2 build`, outside the
  project directory, the objects of the build under test copied in first
  (seed_build: the build from nothing is .ci/run's and a clone's `make`);
- the CI recipe (the two blocks after "<!-- ci-recipe") run as printed with
  `sh -e` beside that checkout, a plugin of our own in my.c (the example's
  Forest-Ruth) and my.case: exit 0; the same with my.c made worse (a wrong
  weight: a second-order method) fails, check and --strict=mine each;
- docs/engines.md's CI recipe for an engine run the same way, with the
  Python example as my_engine.py: exit 0; made first order (uneven kicks),
  check and --strict=mine each fail, naming it; and with the rotation
  example and the page's rigid my.case: exit 0; its splitting made
  one-sided (first order), check and --strict=mine each fail;
- the plugin, model-plugin and engine examples run as printed in the
  checkout (no make install: the plugins build against its header);
- the "One run" block prints what the README shows, to the last digit;
- the table under "`verletbench list`" is what `list` prints;
- the spring's summary table is what a run of cases/spring.case writes;
- every statement of the plugin ABI version (README, docs, man page) is the
  header's VB_ABI_VERSION (and VB_ABI_VERSION_OLDEST where it says which
  older ones load), and the man page's version is VERSION's.
Ends with "N passed, N failed"."""
import csv
import io
import os
import re
import shutil
import subprocess
import sys

from suite import ROOT, Suite

S = Suite("readme", guard=900)


# The README is the front door; the examples, tables and lists it held
# live in the docs pages it links, one topic each, and are held there.
PAGES = ["README.md", "docs/install.md", "docs/methods.md", "docs/sweep.md", "docs/extending.md",
         "docs/findings.md"]


def readme():
    """The README and the pages its sections moved to, as one text: a
    block or a table is looked for in all of them (each once)."""
    text = ""
    for page in PAGES:
        with open(os.path.join(ROOT, page)) as f:
            text += f.read() + "\n"
    return text


def front_door():
    with open(os.path.join(ROOT, "README.md")) as f:
        return f.read()


def blocks(text, lang="sh"):
    """Every fenced block of a language: (the line before it, its text)."""
    out = []
    for m in re.finditer(r"(?:^|\n)([^\n]*)\n```%s\n(.*?)\n```" % lang, text, re.S):
        out.append((m.group(1), m.group(2)))
    return out


def block_with(text, needle, lang="sh"):
    found = [b for _, b in blocks(text, lang) if needle in b]
    if len(found) != 1:
        raise AssertionError("README: %d %s blocks hold %r" % (len(found), lang, needle))
    return found[0]


def tracked_files():
    """The tree as a clone would have it: git's tracked files (the working
    copy of each), or without git every file but what builds and runs make."""
    if shutil.which("git"):
        r = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True)
        if r.returncode == 0 and r.stdout:
            return [f for f in r.stdout.decode().split("\0") if f]
    files = []
    for d, dirs, names in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        dirs[:] = [x for x in dirs if not (rel == "." and (x == ".git" or x.startswith("build")))
                   and not (rel == "results" and x != "baseline") and not (rel == "plots")]
        files += [os.path.normpath(os.path.join(rel, n)) for n in names]
    return files


def clean_env(env=None):
    """The environment of a user's shell: not the make that runs these tests
    (make check SANITIZE=1 passes SANITIZE=1 to every make below it through
    MAKEFLAGS, and the recipe's make would build into build-sanitize/)."""
    env = dict(env or os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "SANITIZE", "BUILD", "NATIVE"):
        env.pop(k, None)
    return env


def sh(script, cwd, env=None):
    return subprocess.run(["sh", "-e", "-c", script], cwd=cwd, capture_output=True, text=True,
                          timeout=S.guard, env=clean_env(env))


def test_fresh_checkout(tmp):
    ci = os.path.join(tmp, "ci")
    co = os.path.join(ci, "verletbench")
    for f in tracked_files():
        src, dst = os.path.join(ROOT, f), os.path.join(co, f)
        if os.path.isfile(src) and not os.path.islink(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
    seed_build(co)
    text = readme()

    # ---- the CI recipe, outside the checkout ----
    once = re.search(r"<!-- ci-recipe: once[^\n]*\n```sh\n(.*?)\n```", text, re.S)
    every = re.search(r"<!-- ci-recipe: every job[^\n]*\n```sh\n(.*?)\n```", text, re.S)
    S.check(once and every, "README: the two ci-recipe blocks")
    if not (once and every):
        return
    shutil.copy(os.path.join(ROOT, "examples", "plugin", "forest_ruth.c"), os.path.join(ci, "my.c"))
    with open(os.path.join(ci, "my.case"), "w") as f:
        f.write("[case]\nmodel = spring\nt_end = 6.283185307179586\n[steps]\ndt = 0.2\n"
                "halvings = 4\njitter = 0.5\nseeds = 4\n[integrators]\n"
                "use = forest-ruth, velocity-verlet, tcv\n")
    r = sh(once.group(1), ci)
    S.check(r.returncode == 0 and os.path.isfile(os.path.join(ci, "my-baseline", "my", "runs.csv")),
            "the CI recipe's once-block runs as printed (exit %d)" % r.returncode,
            r.stdout[-1500:] + r.stderr[-1500:])
    r = sh(every.group(1), ci)
    S.check(r.returncode == 0 and "passed:" in r.stdout,
            "the CI recipe's every-job block runs as printed and passes (exit %d)" % r.returncode,
            r.stdout[-1500:] + r.stderr[-1500:])
    # a wrong weight makes a second-order method of it: the recipe fails,
    # in check (worse than the baseline) and in --strict=mine (below 4)
    with open(os.path.join(ci, "my.c")) as f:
        worse = f.read().replace("1.0 / (2.0 - cbrt(2.0))", "1.0 / (2.0 - cbrt(2.1))")
    S.check("cbrt(2.1)" in worse, "my.c made worse (the weight of forest_ruth.c)")
    with open(os.path.join(ci, "my.c"), "w") as f:
        f.write(worse)
    lines = every.group(1).split("\n")
    r = sh(every.group(1), ci)
    S.check(r.returncode != 0 and "FAILED:" in r.stdout and "forest-ruth" in r.stdout,
            "the every-job block fails on a worse method, naming it (exit %d)" % r.returncode,
            r.stdout[-1500:] + r.stderr[-800:])
    strict = [l for l in lines if "--strict=mine" in l]
    r = sh("\n".join(lines[:2] + strict), ci)
    S.check(r.returncode == 1 and "strict: " in r.stderr and "forest-ruth" in r.stderr and
            "tcv" not in r.stderr.replace("my.case", ""),
            "--strict=mine fails on the worse method alone (exit %d)" % r.returncode, r.stderr[-1500:])

    engine_ci_recipe(ci)

    # ---- the examples in the checkout, verletbench on the PATH ----
    env = dict(os.environ, PATH=os.path.join(co, "build") + os.pathsep + os.environ["PATH"])
    plug = block_with(text, "make -C examples/plugin ")
    r = sh(plug, co, env)
    S.check(r.returncode == 0 and "forest-ruth" in r.stdout,
            "the plugin example runs as printed in a checkout (exit %d)" % r.returncode,
            r.stdout[-800:] + r.stderr[-800:])
    row = [l for l in open_or_empty(os.path.join(co, "mine", "spring", "summary.md"))
           if l.startswith("| `forest-ruth` |")]
    cells = [c.strip() for c in row[0].split("|")[3:5]] if row else []
    said = re.search(r"order (\S+ ± \S+) on the spring with fixed steps and (\S+ ± \S+) with\s+random",
                     text)
    S.check(said and cells and cells[0].startswith(said.group(1) + " as-expected") and
            cells[0].endswith("= `yoshida4`") and cells[1].startswith(said.group(2)),
            "the README's Forest-Ruth orders are the summary's", "%s / %s" % (said and said.groups(), cells))

    model = block_with(text, "make -C examples/model-plugin")
    r = sh(model, co, env)
    S.check(r.returncode == 0 and os.path.isfile(
        os.path.join(co, "examples", "model-plugin", "my-results", "lj-dimer", "orders.csv")),
        "the model-plugin example runs as printed (exit %d)" % r.returncode, r.stderr[-800:])

    eng = block_with(text, "cp examples/engines/python/engine.py my_engine.py")
    r = sh(eng, co, env)
    S.check(r.returncode == 0 and any(l.startswith("| `mine` |") for l in
                                      open_or_empty(os.path.join(co, "mine", "spring", "summary.md"))),
            "the engine example runs as printed (exit %d)" % r.returncode, r.stderr[-800:])
    if shutil.which("gnuplot"):
        S.check(os.path.isfile(os.path.join(co, "mine", "plots", "spring", "convergence.png")),
                "the engine example's charts are in mine/plots/, as the README says")


def seed_build(co):
    """The objects of the build under test, copied into the checkout's
    build/ with their times, when that build is the plain one the recipe's
    `make build` makes (not build-sanitize/, whose flags differ): the
    recipe's make then finds them current and compiles only what the copy's
    version.h changes.  Compiling the whole tree again was a third of this
    suite's processor time, and proves nothing .ci/run and a fresh clone's
    `make` do not: both build from nothing first."""
    build = os.path.dirname(S.vb_path)
    if os.path.basename(build) != "build" or not os.path.isfile(os.path.join(build, "libverletbench.a")):
        return
    # not the files a suite running beside this one may be writing: the
    # install's version.h.tmp (renamed away as copytree reached it: a CI
    # flake, 1 copy in 82 under a make install loop) and the runner's log
    shutil.copytree(build, os.path.join(co, "build"), symlinks=True,
                    ignore=shutil.ignore_patterns("make.log", "tests", "*.tmp", "check.log"))


def engine_ci_recipe(ci):
    """docs/engines.md's CI recipe for an engine, as printed, beside the
    fresh checkout the plugin recipe built: the Python example as
    my_engine.py with its helper, my.case as the page shows it.  It passes;
    the example with uneven kicks (0.6 h, then 0.4 h: a first-order method,
    its error a whole order worse) fails check and --strict=mine, naming
    mine and no built-in.  The same blocks with the rotation example as
    my_engine.py and the page's rigid my.case: it passes, and its splitting
    made one-sided, R1(h) R2(h) R3(h) in place of R1(h/2) R2(h/2) R3(h)
    R2(h/2) R1(h/2) (Lie-Trotter: first order), fails both."""
    with open(os.path.join(ROOT, "docs", "engines.md")) as f:
        text = f.read()
    case = re.search(r"<!-- ci-recipe-engine: my.case[^\n]*\n```ini\n(.*?)\n```", text, re.S)
    rigid = re.search(r"<!-- ci-recipe-engine: rigid my.case[^\n]*\n```ini\n(.*?)\n```", text, re.S)
    once = re.search(r"<!-- ci-recipe-engine: once[^\n]*\n```sh\n(.*?)\n```", text, re.S)
    every = re.search(r"<!-- ci-recipe-engine: every job[^\n]*\n```sh\n(.*?)\n```", text, re.S)
    S.check(case and rigid and once and every, "docs/engines.md: the four ci-recipe-engine blocks")
    if not (case and rigid and once and every):
        return
    kick = "v[i] += a[i] * half"
    engine_recipe(ci, "engine", "engine.py", case.group(1), once.group(1), every.group(1), [
        (kick, "v[i] += a[i] * (0.6 * h)", 1), (kick, "v[i] += a[i] * (0.4 * h)", 1)])
    composition = "((0, 0.5 * h), (1, 0.5 * h), (2, h), (1, 0.5 * h), (0, 0.5 * h))"
    engine_recipe(ci, "rigid-engine", "rigid_engine.py", rigid.group(1), once.group(1),
                  every.group(1), [(composition, "((0, h), (1, h), (2, h))", 1)])


def engine_recipe(ci, dirname, example, case, once, every, worse):
    """The recipe in ci/DIRNAME with examples/engines/python/EXAMPLE as
    my_engine.py: it passes; with the replacements of worse made (each
    (old, new, count), the old text there exactly count times), check and
    --strict=mine fail, naming mine alone."""
    d = os.path.join(ci, dirname)
    os.makedirs(d)
    os.symlink(os.path.join(ci, "verletbench"), os.path.join(d, "verletbench"))
    shutil.copy(os.path.join(ROOT, "examples", "engines", "python", example),
                os.path.join(d, "my_engine.py"))
    shutil.copy(os.path.join(ROOT, "engines", "lib", "vbengine.py"), os.path.join(d, "vbengine.py"))
    with open(os.path.join(d, "my.case"), "w") as f:
        f.write(case + "\n")
    r = sh(once, d)
    S.check(r.returncode == 0 and os.path.isfile(os.path.join(d, "my-baseline", "my", "runs.csv")),
            "%s: the engine CI recipe's once-block runs as printed (exit %d)" % (dirname, r.returncode),
            r.stdout[-1500:] + r.stderr[-1500:])
    r = sh(every, d)
    S.check(r.returncode == 0 and "passed:" in r.stdout,
            "%s: the engine CI recipe's every-job block runs as printed and passes (exit %d)"
            % (dirname, r.returncode), r.stdout[-1500:] + r.stderr[-1500:])
    with open(os.path.join(d, "my_engine.py")) as f:
        src = f.read()
    for old in set(o for o, _, _ in worse):
        want = sum(c for o, _, c in worse if o == old)
        S.check(src.count(old) == want, "%s: my_engine.py holds %r %d times, as the example has it"
                % (dirname, old, want))
    for old, new, count in worse:
        src = src.replace(old, new, count)
    with open(os.path.join(d, "my_engine.py"), "w") as f:
        f.write(src)
    lines = every.split("\n")
    check_line = [l for l in lines if " check " in l]
    strict = [l for l in lines if "--strict=mine" in l]
    r = sh("\n".join(lines[:1] + check_line), d)
    S.check(r.returncode == 1 and "FAILED:" in r.stdout and " mine " in r.stdout,
            "%s: the engine made first order fails check, naming mine (exit %d)"
            % (dirname, r.returncode), r.stdout[-1500:] + r.stderr[-800:])
    r = sh("\n".join(lines[:1] + strict), d)
    said = [l for l in r.stderr.splitlines() if "strict: " in l and "case: " in l]
    S.check(r.returncode == 1 and said and all(": mine, " in l for l in said),
            "%s: the engine made first order fails --strict=mine, naming mine alone (exit %d)"
            % (dirname, r.returncode), r.stderr[-1500:])


def open_or_empty(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except OSError:
        return []


def test_one_run(tmp):
    text = front_door()
    b = block_with(text, "$ build/verletbench sim", "console")
    cmd, *want = b.split("\n")
    r = subprocess.run(cmd[2:].replace("build/verletbench", S.vb_path), shell=True,
                       capture_output=True, text=True)
    S.check(r.returncode == 0 and r.stdout.splitlines() == want,
            "README \"One run\": the output is what sim prints", r.stdout + r.stderr)


def md_table(text, intro):
    """The rows of the Markdown table after the paragraph holding intro."""
    m = re.search(re.escape(intro) + r".*?\n\n(\|.*?)\n\n", text, re.S)
    if not m:
        return None
    return [[x.strip() for x in l.split("|")[1:-1]] for l in m.group(1).splitlines()[2:]]


def test_list_table(tmp):
    text = readme()
    r = S.vb("list", "--csv")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    integ = md_table(text, "The integrators, in the order of `verletbench list`")
    S.check(integ is not None, "README: the table of integrators")
    shown = [(c[0].strip("`"), c[1], c[2]) for c in integ or []]
    listed = [(x["name"], x["order"], x["symplectic"]) for x in rows if x["kind"] == "integrator"]
    S.check(shown == listed, "README's table of integrators is what `list` prints (name, order, "
            "symplectic, in order)", "README %s\nlist   %s" % (shown, listed))
    models = md_table(text, "The models, which `verletbench list` prints")
    S.check(models is not None, "README: the table of models")

    def params(cell):
        if cell == "none":
            return {}
        out = {}
        for kv in cell.replace("`", "").split():
            k, v = kv.split("=")
            num, _, den = v.partition("/")
            out[k] = float(num) / float(den) if den else float(v)
        return out

    shown = [(c[0].strip("`"), c[1].split(",")[0].split(" × ")[0], params(c[2])) for c in models or []]
    listed = [(x["name"], x["dim"], {k: float(v) for k, v in (kv.split("=") for kv in x["params"].split())})
              for x in rows if x["kind"] == "model"]
    same = len(shown) == len(listed) and all(
        a[0] == b[0] and a[1] == b[1] and a[2].keys() == b[2].keys() and
        all(abs(a[2][k] - b[2][k]) <= 1e-6 * max(1, abs(b[2][k])) for k in a[2])
        for a, b in zip(shown, listed))
    S.check(same, "README's table of models is what `list` prints (name, dimension, parameters "
            "and their defaults, in order)", "README %s\nlist   %s" % (shown, listed))


def test_spring_table(tmp):
    text = readme()
    m = re.search(r"This is the spring's table from `results/summary.md`.*?\n\n(\| integrator .*?)\n\n",
                  text, re.S)
    S.check(m is not None, "README: the spring's table")
    if not m:
        return
    r = S.vb("run", os.path.join(ROOT, "cases", "spring.case"), "--out", os.path.join(tmp, "spring"),
             "--quiet", "--no-chart-data")
    with open(os.path.join(tmp, "spring", "spring", "summary.md")) as f:
        table = [l for l in f.read().splitlines() if l.startswith("|")]
    S.check(r.returncode == 0 and m.group(1).splitlines() == table,
            "README's spring table is what run writes for cases/spring.case",
            "\n".join(x for x in m.group(1).splitlines() if x not in table))


def test_contact_solver_table(tmp):
    """The README's table of the contact solvers is the rigid-explicit-gyro
    table run writes at the end of summary.md for the three cases it names
    (output/contact_table.c, vb_contact_overview)."""
    text = readme()
    m = re.search(r"the\s+table\s+`build/verletbench\s+run\s+(cases/roll.case\s+cases/roll-incline.case\s+"
                  r"cases/box-incline.case)`\s+ends\s+its\s+summary.md\s+with:\n\n"
                  r"(\| case: measure .*?)\n\n", text, re.S)
    S.check(m is not None, "README: the contact solvers' table")
    if not m:
        return
    cases = [os.path.join(ROOT, c) for c in m.group(1).split()]
    r = S.vb("run", *cases, "--out", os.path.join(tmp, "solvers"), "--quiet", "--no-chart-data")
    with open(os.path.join(tmp, "solvers", "summary.md")) as f:
        got = re.search(r"\*\*`rigid-explicit-gyro`\*\*\n\n(\|.*?)\n\n", f.read(), re.S)
    table = got.group(1).splitlines() if got else []
    S.check(r.returncode == 0 and m.group(2).splitlines() == table,
            "README's contact solvers' table is what run writes for the three cases at 60 Hz",
            "\n".join(x for x in m.group(2).splitlines() if x not in table) or "no table written")


def test_abi_version(tmp):
    with open(os.path.join(ROOT, "src", "verletbench.h")) as f:
        h = f.read()
    abi = re.search(r"#define VB_ABI_VERSION (\d+)", h).group(1)
    oldest = re.search(r"#define VB_ABI_VERSION_OLDEST (\d+)", h).group(1)
    docs = ["README.md", "docs/verletbench.1"] + ["docs/" + f for f in os.listdir(os.path.join(ROOT, "docs"))
                                                  if f.endswith(".md")]
    seen = 0
    for d in docs:
        with open(os.path.join(ROOT, d)) as f:
            t = f.read().replace("\\-", "-")
        # "ABI version N" states the current version; "ABI N" alone marks
        # when a field came (the header's own comments do the same)
        for m in re.finditer(r"ABI version (\d+)", t):
            seen += 1
            S.check(m.group(1) == abi, "%s says ABI version %s, the header %s" % (d, m.group(1), abi))
        for m in re.finditer(r"ABI-(\d+) plugins still load|oldest (?:it )?loads?:? (?:ABI )?(\d+)", t):
            seen += 1
            n = m.group(1) or m.group(2)
            S.check(n == oldest, "%s says ABI %s plugins still load, the header's oldest is %s" % (d, n, oldest))
    S.check(seen >= 3, "the ABI version is stated in the README, method.md and the man page (%d)" % seen)
    r = S.vb("--version")
    S.check(("plugin ABI version %s (the oldest it loads: %s)" % (abi, oldest)) in r.stdout, "--version states the plugin ABI", r.stdout)
    with open(os.path.join(ROOT, "VERSION")) as f:
        version = f.read().strip()
    with open(os.path.join(ROOT, "docs", "verletbench.1")) as f:
        th = f.readline()
    S.check('"verletbench %s"' % version in th, "the man page is of version %s: %s" % (version, th.strip()))


def test_committed_figures(tmp):
    """Each figure the README shows (the Makefile's docs-figures copies)
    draws every integrator of its case as a fresh run has them (the
    committed baseline's "# integrators=" line, which make check holds to a
    fresh run): its colour from src/draw/palette.c is among the pixels.  Four
    figures once showed 9 of the 12 integrators a fresh make draws."""
    from plots import decode_png, c_strings
    with open(os.path.join(ROOT, "src", "draw", "palette.c")) as f:
        palette = f.read()
    with open(os.path.join(ROOT, "src", "draw", "rateschart.c")) as f:
        row_colours = c_strings(f.read(), "row_colours")
    builtin = dict(zip(c_strings(palette, "builtin"), c_strings(palette, "colours")))
    extra, user = c_strings(palette, "extra_colours"), c_strings(palette, "user_colours")
    with open(os.path.join(ROOT, "Makefile")) as f:
        copies = re.findall(r"^\tcp plots/([^/\s]+)/([^/\s]+)\.png (docs/figures/\S+\.png)$", f.read(), re.M)
    S.check(len(copies) >= 8, "the Makefile's docs-figures copies the README's figures (%d)" % len(copies))
    for case, stem, fig in copies:
        colour_of = builtin
        base = os.path.join(ROOT, "results", "baseline")
        runs = os.path.join(base, case, "runs.csv")
        if not os.path.exists(runs):  # a grid: its first point's
            points = sorted(d for d in os.listdir(base) if d.startswith(case + "@"))
            runs = os.path.join(base, points[0], "runs.csv") if points else runs
        with open(runs) as f:
            names = re.search(r"^# integrators=(.*)$", f.read(), re.M).group(1).split(",")
        if stem == "roll-map":  # a panel a solver: its two colours are a point's verdict
            with open(os.path.join(ROOT, "src", "draw", "rollcharts.c")) as f:
                verdict = c_strings(f.read(), "colours")
            names = ["rolled", "never rolled"]
            colour_of = dict(zip(names, verdict))
        if stem == "stack-cost":  # a colour a mass ratio (1, 10, 100), one solver
            with open(os.path.join(ROOT, "src", "draw", "stackcharts.c")) as f:
                by_ratio = c_strings(f.read(), "colours")
            names = ["ratio 1", "ratio 10", "ratio 100"]
            colour_of = dict(zip(names, by_ratio))
        if stem in ("convergence", "band"):  # against dt: an adaptive method has none
            names = [n for n in names if n not in ("rkf45", "rk8pd")]
        want, unknown = {}, 0
        for k, n in enumerate(names):
            if stem == "rates":
                want[n] = row_colours[k % len(row_colours)]  # a row's own, in the order of the file
            elif n in colour_of:
                want[n] = colour_of[n]
            elif n.startswith("rigid-") and n.split("@")[0] in builtin:
                want[n] = builtin[n.split("@")[0]]  # palette.c's whole_index: a rotation method in a loop
            else:  # palette.c's extra_index: by its place among the unknown names
                unknown += 1
                base_name = n.split(":")[0]
                want[n] = (extra if base_name in builtin else user)[(unknown + 7) % 8]
        w, h, rows = decode_png(os.path.join(ROOT, fig))
        seen = set()
        for row in rows:
            seen.update(row)
        missing = [n for n, c in want.items() if tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) not in seen]
        S.check(not missing, "%s draws every integrator of %s (%d): missing %s; make docs-figures"
                % (fig, case, len(want), missing))


def test_dependency_list(tmp):
    """The README names every Debian package make can install
    (.ci/ensure-deps's and engines/ensure-deps's "add PKG"), and the hint for a user who is not root
    is a command a minimal Debian can run (no sudo there)."""
    deps = ""
    for script in ((".ci", "ensure-deps"), ("engines", "ensure-deps")):
        with open(os.path.join(ROOT, *script)) as f:
            deps += f.read()
    pkgs = set(re.findall(r"\badd ([a-z0-9][a-z0-9.+-]+)", deps))
    text = readme()
    S.check(len(pkgs) >= 10, "ensure-deps adds packages (%s)" % sorted(pkgs))
    missing = sorted(p for p in pkgs if "`%s`" % p not in text)
    S.check(not missing, "the README's list of packages names them all: missing %s" % missing)
    S.check("sudo" not in deps and "sudo" not in text,
            "neither ensure-deps's hint nor the README asks for sudo (a minimal Debian has none)")


def test_front_door(tmp):
    """The README is a front door (issue 40): about 200 lines at most, the
    sections in the order a newcomer needs them, and a link to every page
    of docs/, so nothing that moved there is out of reach; and nothing of
    the pages the README's sections moved to is orphaned."""
    text = front_door()
    n = len(text.splitlines())
    S.check(n <= 200, "the README is %d lines, at most 200" % n)
    heads = re.findall(r"^## (.*)$", text, re.M)
    want = ["Two commands", "One run", "What engines really do", "The commands", "Documentation"]
    S.check(heads == want, "the README's sections, in order: %s" % heads)
    docs = sorted(f for f in os.listdir(os.path.join(ROOT, "docs"))
                  if f.endswith(".md") or f.endswith(".1"))
    linked = set(re.findall(r"\]\(docs/([^)#\s]+)", text))
    missing = [d for d in docs if d not in linked]
    S.check(not missing, "the README links every page of docs/: missing %s" % missing)
    # after make the tool is build/verletbench (make install puts it on the
    # PATH): a command the README prints works as printed after make
    bare = re.findall(r"`verletbench [^`]*`", text)
    S.check(not bare and "make install" in text,
            "the README's commands are build/verletbench's, and it says make install: %s" % bare)


if __name__ == "__main__":
    sys.exit(S.main([test_front_door, test_abi_version, test_list_table, test_one_run, test_spring_table,
                     test_contact_solver_table,
                     test_committed_figures, test_dependency_list, test_fresh_checkout]))
