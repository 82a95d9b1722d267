#!/usr/bin/env python3
"""function_size.py BUILD_DIR — no function in src/ is longer than LIMIT
lines (issue 52.4; the guide: "no function over ~150 lines"), and this check
can fail.

A function's length is its lines from the line of its name to the line of
its closing brace, as Universal Ctags reads them (--fields=+ne: `line` and
`end`), in every .c, .h and .cpp file under src/.  One over LIMIT is named
with its file, its line and its length.

ALLOWED lists the functions still over LIMIT, each with why it is left for
now: a list that only shrinks.  An entry whose function is no longer over
LIMIT, or no longer exists, fails too (remove it), so the list says exactly
what is left.

The check is held against src/ as it is, and shown to fail: on trees made
here (a function of LIMIT + 1 lines beside one of LIMIT, one in a header,
an entry of the list that is over, one that is no longer over, one that is
gone), on a copy of src/ with one function lengthened past LIMIT, and with
no ctags to run (exit 2 of the check, said).  BUILD_DIR is not needed (the
check reads the sources); it is taken as every suite of tests/run.sh is.
Ends with "N passed, N failed"."""
import json
import os
import shutil
import subprocess
import sys

from suite import Suite, write_tree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
SRC = os.path.join(ROOT, "src")

# the longest a function may be, in lines: the guide's ~150 and issue 52.4's
LIMIT = 150

# "FILE:FUNCTION" (FILE under src/) -> why it is still over LIMIT.  Only
# ever shortened: an entry no longer over LIMIT fails the check.  Empty
# since the last two (check/baseline.c:read_runs_into, 195 lines, and
# driver/simulate.c:vb_simulate_grid, 163) were split: every function of
# src/ is within LIMIT, and a new entry would need a reason beside it.
ALLOWED = {}


def functions(src, path_env=None):
    """[(file under src, function, first line, lines)] of every function
    defined under SRC, or None when ctags cannot be run."""
    env = dict(os.environ)
    if path_env is not None:
        env["PATH"] = path_env
    try:
        r = subprocess.run(["ctags", "--output-format=json", "--languages=C,C++",
                            "--langmap=C:.c.h", "--kinds-C=f", "--kinds-C++=f",
                            "--fields=+ne", "-R", "-f", "-", "."],
                           cwd=src, capture_output=True, text=True, env=env)
    except OSError:
        return None
    if r.returncode != 0:
        return None
    out = []
    for line in r.stdout.splitlines():
        t = json.loads(line)
        if t.get("_type") != "tag" or t.get("kind") != "function":
            continue
        if "end" not in t:  # a function ctags saw no end of: say so, not pass it
            out.append((os.path.normpath(t["path"]), t["name"], t["line"], None))
            continue
        out.append((os.path.normpath(t["path"]), t["name"], t["line"], t["end"] - t["line"] + 1))
    return out


def judge(src, limit=LIMIT, allowed=None, path_env=None):
    """(exit status, messages): 0 and one line saying what was held, 1 and
    a line a function over LIMIT (or entry of ALLOWED out of date), 2 when
    ctags cannot be run."""
    allowed = ALLOWED if allowed is None else allowed
    found = functions(src, path_env)
    if found is None:
        return 2, ["function_size: ctags (Universal Ctags) cannot be run: it reads where each "
                   "function of %s begins and ends (apt-get install universal-ctags)" % src]
    problems, over_allowed, seen = [], [], set()
    longest = (0, "")
    for path, name, line, n in sorted(found):
        key = "%s:%s" % (path, name)
        seen.add(key)
        if n is None:
            problems.append("%s:%d: %s: ctags found no end of it: its length is unknown"
                            % (path, line, name))
            continue
        if n <= limit:
            if key in allowed:
                problems.append("%s:%d: %s is %d lines, no longer over %d: remove it from "
                                "ALLOWED in tests/function_size.py" % (path, line, name, n, limit))
            continue
        if key in allowed:
            over_allowed.append((n, key))
            continue
        problems.append("%s:%d: %s is %d lines, over the limit of %d: split it by what its "
                        "parts do" % (path, line, name, n, limit))
        if n > longest[0]:
            longest = (n, key)
    for key in sorted(set(allowed) - seen):
        problems.append("%s: ALLOWED in tests/function_size.py, but no such function: remove "
                        "it" % key)
    if problems:
        return 1, problems
    held = "function_size: %d functions in %s, none over %d lines" % (len(found), src, limit)
    if not over_allowed:  # ALLOWED empty (or all of it judged above): nothing to name
        return 0, [held]
    return 0, [held + " but the %d of ALLOWED (%s)" % (
        len(over_allowed),
        ", ".join("%s %d" % (k, n) for n, k in sorted(over_allowed, reverse=True)))]


S = Suite("function_size", 60)
check = S.check


def body(n):
    """a C function of exactly N lines (N >= 4): its name's line, its
    opening brace, N - 3 statements, its closing brace"""
    return "int f_%d(int a)\n{\n" % n + "    a += 1;\n" * (n - 4) + "    return a;\n}\n"


def tree(tmp, files):
    return write_tree(os.path.join(tmp, "src"), files)


def test_src_holds(tmp):
    rc, out = judge(SRC)
    print("\n".join(out))
    check(rc == 0, "no function of src/ is over %d lines but those ALLOWED lists, and every "
          "entry of ALLOWED is still over" % LIMIT, "\n".join(out))
    for key, why in ALLOWED.items():
        check(why.strip() != "", "ALLOWED says why %s is left over the limit" % key)


def test_synthetic(tmp):
    # the function's lines counted from its name to its brace: 150 passes,
    # 151 fails, named with its file and line
    src = tree(tmp, {"a/ok.c": "/* one */\n" + body(LIMIT),
                     "a/big.c": "#include <stdio.h>\n\n" + body(LIMIT + 1)})
    rc, out = judge(src, allowed={})
    text = "\n".join(out)
    check(rc == 1 and "a/big.c:3: f_151 is 151 lines, over the limit of 150" in text,
          "a function of LIMIT + 1 lines fails, named with its file, line and length", text)
    check("f_150" not in text, "... and one of LIMIT lines beside it passes", text)
    # an empty list: a tree within LIMIT passes and says so, naming no list
    src = tree(tmp, {"a/ok.c": body(LIMIT), "a/small.c": body(4)})
    rc, out = judge(src, allowed={})
    text = "\n".join(out)
    check(rc == 0 and "2 functions in %s, none over 150 lines" % src in text
          and "ALLOWED" not in text,
          "with ALLOWED empty, a tree within LIMIT passes, saying none is over", text)
    # a header's (inline) function is a function of src/ too
    src = tree(tmp, {"a/ok.c": body(10), "a/inl.h": "static inline " + body(LIMIT + 5)})
    rc, out = judge(src, allowed={})
    check(rc == 1 and "a/inl.h:1: f_155 is 155 lines" in "\n".join(out),
          "a function in a header over LIMIT fails", "\n".join(out))
    # the list: an entry over LIMIT passes; one no longer over, or gone,
    # fails, so that the list only shrinks
    src = tree(tmp, {"a/big.c": body(LIMIT + 1), "a/ok.c": body(20)})
    rc, out = judge(src, allowed={"a/big.c:f_151": "later"})
    check(rc == 0 and "a/big.c:f_151 151" in out[0],
          "a function ALLOWED lists passes, and the check names it", "\n".join(out))
    rc, out = judge(src, allowed={"a/big.c:f_151": "later", "a/ok.c:f_20": "later"})
    check(rc == 1 and "a/ok.c:1: f_20 is 20 lines, no longer over 150: remove it from ALLOWED" in
          "\n".join(out), "an entry of ALLOWED no longer over LIMIT fails", "\n".join(out))
    rc, out = judge(src, allowed={"a/big.c:f_151": "later", "a/gone.c:f_9": "later"})
    check(rc == 1 and "a/gone.c:f_9: ALLOWED in tests/function_size.py, but no such function" in
          "\n".join(out), "an entry of ALLOWED for a function that is gone fails", "\n".join(out))
    # a function of the same name in another file is not the one allowed
    src = tree(tmp, {"a/big.c": body(LIMIT + 1), "b/big.c": body(LIMIT + 1)})
    rc, out = judge(src, allowed={"a/big.c:f_151": "later"})
    check(rc == 1 and "b/big.c:1: f_151 is 151 lines" in "\n".join(out),
          "ALLOWED names a file and a function: the same name elsewhere is judged", "\n".join(out))
    # without ctags the limit cannot be held: exit 2, saying so
    rc, out = judge(src, allowed={}, path_env=os.path.join(tmp, "no-such-dir"))
    check(rc == 2 and "ctags (Universal Ctags) cannot be run" in out[0],
          "without ctags the check stops (exit 2) and says why", "\n".join(out))


def test_real_tree_lengthened(tmp):
    """a copy of src/ with vb_cmd_run (commands/run.c) lengthened past
    LIMIT by comment lines: refused, named"""
    src = os.path.join(tmp, "real")
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(SRC, src)
    path = os.path.join(src, "commands", "run.c")
    lines = open(path).read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("int vb_cmd_run("))
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    pad = LIMIT + 1 - (end - start + 1)
    lines[start + 2:start + 2] = ["    /* a line */"] * max(pad, 0)
    with open(path, "w") as f:
        f.write("\n".join(lines))
    rc, out = judge(src)
    check(rc == 1 and "commands/run.c:%d: vb_cmd_run is %d lines, over the limit of %d" %
          (start + 1, LIMIT + 1, LIMIT) in "\n".join(out),
          "src/ with vb_cmd_run lengthened to LIMIT + 1 lines is refused, naming it",
          "\n".join(out))


if __name__ == "__main__":
    sys.exit(S.main([test_src_holds, test_synthetic, test_real_tree_lengthened]))
