#!/usr/bin/env python3
"""schemas.py BUILD_DIR — every table verletbench writes is written from its
schema, one description of its columns (src/numerics/schema.h), and the
docs and the readers say the same columns (issue 52.3):

- `list --columns` prints each table's columns from its schema; every
  file the commands write here (run's case and grid directories, chart
  data, timing, a shard; stability, longrun, bench, list --csv, sim
  and its trajectories) has a header that is its table's, a column of a
  view (runs.csv's level, a loop's err_draw_max) only where the schema
  puts it, and the views a case calls for (a frame loop's, a rigid
  body's, energy, rods, a plane's y) present;
- the docs that list a table's columns after its name (`FILE`: `a,b,...`
  in docs/*.md) list exactly the schema's, view columns in brackets;
  runs.csv's are docs/method.md §4's table, in its order, and sim --help
  and the man page list the same; the trajectories' are method.md §8's
  examples and the protocol's rigid-body columns (docs/engines.md);
  plots/float32-sweep.sh prints its schema's header;
- draw/ and check/ read no column by a string of their own: a column is
  named through its table's schema (VB_RUNS_COL(DT), vb_schema_name), so
  a renamed column cannot leave a reader behind.  Each such read is
  found by its call (vb_csv_col(t, "dt"), a need[] = {"dt", ...} list).

The truths are the docs (written by hand) and the files the commands
write, never the schema's own text alone.  Ends with "N passed, N failed"."""
import glob
import os
import re

import suite

S = suite.Suite("schemas", guard=300)
check, vb = S.check, S.vb
ROOT = suite.ROOT


# ---- what list --columns says ----

def parse_pattern(text):
    """'a,b[,c][,d...]' into [(name, optional, group)]; nested brackets
    ('x[,y[,z]]') mark every name inside them optional."""
    out, depth = [], 0
    for tok in re.findall(r"\[|\]|,|[^\[\],]+", text):
        if tok == "[":
            depth += 1
        elif tok == "]":
            depth -= 1
        elif tok != ",":
            name = tok.strip()
            group = name.endswith("...") or name.endswith("…")
            out.append((name.rstrip(".…"), depth > 0, group))
    return out


def schemas():
    r = vb("list", "--columns")
    check(r.returncode == 0 and r.stdout, "list --columns prints the tables", r.stderr)
    tables = {}
    for line in r.stdout.splitlines():
        name, _, pattern = line.partition(": ")
        tables[name] = parse_pattern(pattern)
    return tables


def header_of(path):
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("#"):
                return line.rstrip("\n").split(",")
    return None


def matches(pattern, header):
    """The header is the pattern with some of its optional columns; a
    group (a grid's keys after point) is its name then one or more names.
    The optional columns present, or None when it does not match."""
    def go(i, j, present):
        if i == len(pattern):
            return present if j == len(header) else None
        name, optional, group = pattern[i]
        if j < len(header) and header[j] == name:
            if group:  # point, then the keys: up to the next column's name
                nxt = pattern[i + 1][0] if i + 1 < len(pattern) else None
                k = j + 1
                while k < len(header) and header[k] != nxt:
                    k += 1
                if k > j + 1:
                    got = go(i + 1, k, present)
                    if got is not None:
                        return got
            got = go(i + 1, j + 1, present | ({name} if optional else set()))
            if got is not None:
                return got
        return go(i + 1, j, present) if optional else None
    return go(0, 0, frozenset())


# ---- the files the commands write ----

CASES = ["spring", "frame-loop", "bounce", "tunnel", "rod-pendulum", "racket", "projectile",
         "spring-jitter", "roll", "stack"]
# the view columns a case's file must have: a loop's, a rigid body's, the
# energy and rods of timeseries.csv, the plane's y of paths.csv
WANT = {
    ("frame-loop", "runs.csv"): {"level", "resolved", "err_draw_max", "err_draw_rms", "lag_max"},
    ("racket", "runs.csv"): {"level", "resolved", "err_att_max", "err_angvel_max"},
    ("spring", "runs.csv"): {"level", "resolved"},
    ("spring", "timeseries.csv"): {"err_energy", "energy_same_as"},
    ("rod-pendulum", "timeseries.csv"): {"err_energy", "energy_same_as", "err_constraint"},
    ("projectile", "paths.csv"): {"y"},
    ("spring", "paths.csv"): set(),
}


def test_files_follow_their_schemas(tmp):
    tables = schemas()
    out = os.path.join(tmp, "run")
    r = vb("run", "--quiet", "-j", "2", "--timing", *[os.path.join(ROOT, "cases", c + ".case")
                                                      for c in CASES], "--out", out)
    check(r.returncode == 0, "run writes the cases", r.stderr)
    stab, lr = os.path.join(tmp, "stab"), os.path.join(tmp, "long")
    check(vb("stability", "--model", "spring", "--integrator", "velocity-verlet", "--jitter",
             "0.5", "--seeds", "2", "--periods", "50", "--out", stab).returncode == 0, "stability")
    check(vb("longrun", "--model", "spring", "--integrator", "velocity-verlet", "--periods", "1000",
             "--steps-per-period", "50", "--out", lr).returncode == 0, "longrun")
    shard = os.path.join(tmp, "shard")
    check(vb("run", "--quiet", "--shard", "1/2", os.path.join(ROOT, "cases", "spring.case"),
             "--out", shard).returncode == 0, "run --shard")
    bench = os.path.join(tmp, "bench.csv")
    check(vb("bench", "--model", "spring", "--steps", "1000", "--repeat", "1", "--modes", "single",
             "--out", bench).returncode == 0, "bench")
    seen = set()
    files = sorted(glob.glob(os.path.join(out, "*", "*.csv")) + glob.glob(os.path.join(stab, "*.csv")) +
                   glob.glob(os.path.join(lr, "*.csv")) + [bench] +
                   glob.glob(os.path.join(shard, "*", "shard.csv")))
    for path in files:
        name = os.path.basename(path)
        case = os.path.basename(os.path.dirname(path)).split("@")[0]
        pattern = tables.get(name)
        check(pattern is not None, "%s: a table on a schema (list --columns names it)" % path)
        if pattern is None:
            continue
        seen.add(name)
        head = header_of(path)
        present = matches(pattern, head or [])
        check(present is not None, "%s: its header is its schema's" % path,
              "header %s\nschema %s" % (head, pattern))
        want = WANT.get((case, name))
        if present is not None and want is not None:
            check(set(present) == want, "%s of %s: the views the case calls for" % (name, case),
                  "has %s, want %s" % (sorted(present), sorted(want)))
    # list --csv and sim's row, on the schemas of list and runs.csv
    r = vb("list", "--csv")
    present = matches(tables["list --csv"], r.stdout.splitlines()[0].split(","))
    check(r.returncode == 0 and present == frozenset(), "list --csv: its schema's header",
          r.stdout[:200])
    r = vb("sim", "--model", "spring", "--integrator", "verlet")
    present = matches(tables["runs.csv"], r.stdout.splitlines()[0].split(","))
    check(present == frozenset(), "sim's row: runs.csv's header without a view's columns",
          r.stdout[:300])
    r = vb("sim", "--model", "projectile", "--integrator", "euler-semi", "--loop", "accumulator",
           "--physics-dt", "0.01", "--t-end", "1", "--dt", "0.0166")
    present = matches(tables["runs.csv"], r.stdout.splitlines()[0].split(","))
    check(present == frozenset({"err_draw_max", "err_draw_rms", "lag_max"}),
          "sim --loop: runs.csv's header with the loop's columns", r.stdout[:300])
    every = {"runs.csv", "orders.csv", "bands.csv", "onestep.csv", "onestep_orders.csv",
             "reverse.csv", "rates.csv", "flips.csv", "contact.csv", "stacks.csv", "convergence.csv",
             "timeseries.csv", "paths.csv", "bounces.csv", "rigid_timeseries.csv", "polhode.csv",
             "timing.csv", "grid.csv", "stability.csv", "stability-summary.csv", "longrun.csv",
             "longrun-summary.csv", "bench.csv", "body.csv", "motion.csv", "shard.csv"}
    check(every <= seen, "every table of a run and of the studies was written and checked",
          "not seen: %s" % sorted(every - seen))


def test_trajectories(tmp):
    """method.md §8's examples; a rigid body's: the protocol's columns
    (docs/engines.md), each with its _exact twin, then err_att, energy."""
    method = open(os.path.join(ROOT, "docs", "method.md")).read()
    one_d = re.search(r"1-D models: `([^`]+)`", method).group(1).split(",")
    two_d = re.search(r"2-D models: `([^`]+)`", method).group(1).split(",")
    several = re.search(r"1-based:\s*`([^`]+)`", method).group(1).split(",")
    engines = open(os.path.join(ROOT, "docs", "engines.md")).read()
    rigid = re.search(r"`(t,x,y,z,qw[^`]*)`", engines).group(1).split(",")
    runs = {"spring": ["--model", "spring", "--integrator", "verlet"],
            "orbit": ["--model", "orbit", "--integrator", "verlet"],
            "figure-eight": ["--model", "figure-eight", "--integrator", "verlet"],
            "free-body": ["--model", "free-body", "--integrator", "rigid-splitting"]}
    heads = {}
    for name, args in runs.items():
        path = os.path.join(tmp, name + ".csv")
        r = vb("sim", *args, "--trajectory", path)
        check(r.returncode == 0, "sim --trajectory on %s" % name, r.stderr)
        heads[name] = header_of(path) or []
    check(heads["spring"] == one_d, "a 1-D model's trajectory: method.md's columns",
          "%s\n%s" % (heads["spring"], one_d))
    check(heads["orbit"] == two_d, "a 2-D model's trajectory: method.md's columns",
          "%s\n%s" % (heads["orbit"], two_d))
    # the figure-eight: three bodies in 2-D, numbered by body as the example
    # (t,x1,y1,x2,y2,..., then the velocities, the truth's, err_pos, energy)
    h = heads["figure-eight"]
    xs = ["x1", "y1", "x2", "y2", "x3", "y3"]
    want = ["t"] + xs + ["v" + c for c in xs] + [c + "_exact" for c in xs] + \
        ["v" + c + "_exact" for c in xs] + ["err_pos", "energy"]
    check(h == want and several[:5] == want[:5] and several[-2:] == want[-2:],
          "several bodies: numbered by body as method.md's example", "%s\n%s" % (h, several))
    state = rigid[1:]
    want = ["t"] + state + [c + "_exact" for c in state] + ["err_att", "energy"]
    check(heads["free-body"] == want, "a rigid body's trajectory: the protocol's columns",
          "%s\n%s" % (heads["free-body"], want))


# ---- the docs ----

def doc_lists():
    """Each `NAME` followed (within 40 characters of text) by a backticked
    list of column names: (doc, NAME, list) over docs/*.md, a paragraph or
    table row at a time, its white space made single."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        text = open(path).read()
        for para in re.split(r"\n\s*\n|\n(?=\|)", text):
            parts = re.sub(r"\s+", " ", para).split("`")  # odd: the code spans
            for i in range(1, len(parts) - 2, 2):
                between, listed = parts[i + 1], parts[i + 2]
                if len(between) <= 40 and "," in listed:
                    out.append((os.path.basename(path), parts[i], listed.replace(" ", "")))
    return out


# where a table's columns are listed under another name than its file's
ANCHOR = {"list --csv": "--csv"}


def test_docs_list_the_schemas(tmp):
    tables = schemas()
    lists = doc_lists()
    for name, pattern in tables.items():
        anchor = ANCHOR.get(name, name)
        found = [(d, l) for d, a, l in lists if a == anchor]
        if name.startswith("sim --trajectory") or name == "runs.csv":
            continue  # their own checks
        check(found, "%s: a doc lists its columns after its name" % name)
        for doc, text in found:
            got = parse_pattern(text.replace(",KEY…", "..."))
            check([(n, o) for n, o, _ in got] == [(n, o) for n, o, _ in pattern],
                  "%s: %s lists the schema's columns" % (name, doc),
                  "doc    %s\nschema %s" % (text, ",".join(n for n, _, _ in pattern)))
    # runs.csv: the columns of method.md §4's table, in its order, are its
    # columns without a view's; sim --help and the man page list the same
    method = open(os.path.join(ROOT, "docs", "method.md")).read()
    sec = method[method.index("## 4. Metrics of one run"):method.index("## 5.")]
    table = [l for l in sec.splitlines() if l.startswith("| `")]
    documented = [n for l in table for n in re.findall(r"`([a-z_0-9]+)`", l.split("|")[1])]
    base = [n for n, o, _ in tables["runs.csv"] if not o]
    check(documented == base, "runs.csv: method.md §4's columns in its order",
          "doc    %s\nschema %s" % (documented, base))
    r = vb("sim", "--help")
    m = re.search(r"one row:\n((?:  \S+\n)+)", r.stdout)
    listed = m.group(1).replace("\n", "").replace(" ", "").split(",") if m else None
    check(listed == base, "sim --help lists runs.csv's columns", listed)
    man = open(os.path.join(ROOT, "docs", "verletbench.1")).read()
    m = re.search(r"One run\. Prints a CSV header and one row:\n((?:\.BR [^\n]*\n|then\n)+)", man)
    named = re.findall(r"([a-z_0-9]+)", m.group(1).replace(".BR", "").replace("then", "")) if m else None
    check(named == base, "the man page's sim lists runs.csv's columns", named)
    # the float32 sweep's script prints its schema's header
    script = open(os.path.join(ROOT, "plots", "float32-sweep.sh")).read()
    m = re.search(r'echo "([a-z_0-9,]+)"', script)
    f32 = [n for n, _, _ in tables["plots/float32-sweep.sh"]]
    check(m and m.group(1).split(",") == f32, "plots/float32-sweep.sh prints its schema's header",
          m.group(1) if m else script[:200])


# ---- the readers ----

# the calls that take a column's name, and the lists of the names a chart
# needs: a column read by a string of the reader's own is one of these with
# a string literal for an argument or an element
READS = ["vb_csv_col", "vb_csv_has", "vb_need_column", "vb_table_column", "vb_schema_find",
         "vb_check_metric_index", "vb_curves_init", "peek", "run_col", "order_col", "schema_col"]


def calls(text, fn):
    """(offset, its arguments' text) of each call of fn in text."""
    for m in re.finditer(r"\b%s\(" % fn, text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        yield m.start(), text[m.end():i - 1]


def literal_reads(text):
    """Where text reads a column by a string of its own: a call of READS
    with a string argument, or a need[] list of strings."""
    for fn in READS:
        for at, args in calls(text, fn):
            if re.search(r'(^|,)\s*"[a-z][a-z0-9_]*"\s*(,|$)', args):
                yield at, "%s(%s)" % (fn, args)
    for m in re.finditer(r'need\w*\[\d*\]\s*=\s*\{\s*"', text):
        yield m.start(), m.group(0)


def test_readers_name_columns_by_schema(tmp):
    tables = schemas()
    names = {n for p in tables.values() for n, _, _ in p}
    bad, literals = [], 0
    for path in sorted(glob.glob(os.path.join(ROOT, "src", "draw", "*.[ch]")) +
                       glob.glob(os.path.join(ROOT, "src", "check", "*.[ch]"))):
        text = open(path).read()
        for at, what in literal_reads(text):
            line = text.count("\n", 0, at) + 1
            bad.append("%s:%d: %s" % (os.path.relpath(path, ROOT), line, what[:80]))
        literals += sum(1 for w in re.findall(r'"([a-z][a-z0-9_]*)"', text) if w in names)
    check(not bad, "draw/ and check/ read every column through its schema", "\n".join(bad))
    # what is left of the names as strings there: words of a key or a
    # message ("bounces", "steps"), a model line's keys (t_end); said, not held
    print("note: %d string literals in src/draw and src/check are column names of some table"
          % literals)


S.main([test_files_follow_their_schemas, test_trajectories, test_docs_list_the_schemas,
        test_readers_name_columns_by_schema])
