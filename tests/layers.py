#!/usr/bin/env python3
"""layers.py [BUILD_DIR] — the include rule of docs/architecture.md holds for
src/, and its check (tests/includes.py) can fail: on small trees made here
with an include against the direction, a circle of two and of three, a
header named in angle brackets, a file in no layer, two headers of one
name and a file named as one in another folder; and on a copy of src/ itself with one include turned upward and one
circle added.  Each bad tree must be refused with exit status 1 (2 for a
rule that cannot be applied) and a message naming the file, the line and
what is wrong; each good one passed with 0.  Ends with "N passed, N failed"."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
CHECK = os.path.join(HERE, "includes.py")
RULES = os.path.join(ROOT, "docs", "architecture.md")
results = {}


def check(cond, what, detail=""):
    if not cond:
        print("FAIL layers: " + what + ("\n" + detail if detail else ""))
    results[what] = bool(cond)


def includes(src, rules):
    r = subprocess.run([sys.executable, CHECK, src, rules], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


# five layers on four floors, as docs/architecture.md writes its table
RULES_TEXT = """# a house

## The layers

| floor | layer | owns |
|---|---|---|
| 4 | `top/` | what calls the rest |
| 3 | `mid/` | the middle |
| 3 | `side/` | beside the middle |
| 2 | `low/` | below them |
| 1 | `abi.h` | the contract, the ground floor |

## Not the layers

| 9 | `nowhere/` | a table under another heading is not the rule |
"""


def tree(tmp, files, rules=RULES_TEXT):
    """A source tree of files {path: text} and its rules; their paths."""
    src = os.path.join(tmp, "src")
    shutil.rmtree(src, ignore_errors=True)
    for path, text in files.items():
        full = os.path.join(src, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    doc = os.path.join(tmp, "architecture.md")
    with open(doc, "w") as f:
        f.write(rules)
    return src, doc


GOOD = {
    "abi.h": "/* the contract */\n",
    "low/a.h": '#include "abi.h"\n',
    "low/a.c": '#include "a.h"\n#include <stdio.h>\n',
    "low/b.h": '#include "a.h"\n',
    "low/b.c": '#include "b.h"\n#include "a.h"\n',
    "mid/m.h": '#include "b.h"\n',
    "mid/m.c": '#include "m.h"\n#include "a.h"\n#include "version.h" /* made by the build */\n',
    "side/s.h": '#include "a.h"\n',
    "top/t.c": '#include "m.h"\n#include "b.h"\n#include "abi.h"\n#include "s.h"\n',
}


def with_(changes):
    files = dict(GOOD)
    files.update(changes)
    return files


def test_src_holds():
    rc, out = includes(os.path.join(ROOT, "src"), RULES)
    check(rc == 0, "src/ follows the include rule of docs/architecture.md", out)
    check("no circle" in out, "the check says what it held src/ to", out)


def test_synthetic(tmp):
    src, doc = tree(tmp, GOOD)
    rc, out = includes(src, doc)
    check(rc == 0, "a tree whose includes go down or level passes", out)

    # a file of the lowest folder including one of the middle
    src, doc = tree(tmp, with_({"low/a.c": '#include "a.h"\n\n#include "m.h"\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "low/a.c:3: includes mid/m.h of mid/, a layer above its own low/" in out,
          "an include against the direction is refused, with its file and line", out)

    # two layers side by side on one floor
    src, doc = tree(tmp, with_({"mid/m.c": '#include "m.h"\n#include "s.h"\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "mid/m.c:2: includes side/s.h of side/, a layer beside its own mid/" in out,
          "an include of a layer beside one's own, on the same floor, is refused", out)

    # the contract at the top of src/ including a folder's header
    src, doc = tree(tmp, with_({"abi.h": '#include "a.h"\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "abi.h:1: includes low/a.h" in out,
          "the bottom layer (a header at the top of src/) may include no folder", out)

    # the same header named in angle brackets: the build takes it from src/
    src, doc = tree(tmp, with_({"low/b.c": '#include "b.h"\n#include <m.h>\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "low/b.c:2: includes mid/m.h" in out,
          "an include in angle brackets of a header of src/ is judged as one in quotes", out)

    # two files of one layer that include each other: a circle
    src, doc = tree(tmp, with_({"low/a.c": '#include "a.h"\n#include "b.h"\n',
                                "low/b.c": '#include "b.h"\n#include "a.h"\n',
                                "low/b.h": '#include "abi.h"\n',
                                "low/a.h": '#include "b.h"\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "a circle of 2" in out and "low/a -> low/b" in out and "low/b -> low/a" in out,
          "two files (x.c with its x.h) that include each other are a circle", out)

    # a circle of three, round two folders' headers and a source file
    src, doc = tree(tmp, with_({"mid/m.h": '#include "b.h"\n',
                                "mid/n.h": '#include "m.h"\n',
                                "mid/n.c": '#include "n.h"\n',
                                "mid/m.c": '#include "m.h"\n#include "o.h"\n',
                                "mid/o.h": '#include "n.h"\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "a circle of 3" in out,
          "a circle of three modules is found", out)

    # a file that lies in no layer of the rule
    src, doc = tree(tmp, with_({"stray/s.c": '#include "a.h"\n'}))
    rc, out = includes(src, doc)
    check(rc == 2 and "stray/s.c lies in no layer" in out,
          "a folder the rule does not name stops the check (exit 2)", out)

    # two headers of one name: -I could take either
    src, doc = tree(tmp, with_({"mid/a.h": "/* another a.h */\n"}))
    rc, out = includes(src, doc)
    check(rc == 1 and "a.h: a header of this name in" in out,
          "two headers of one name in two folders are refused", out)

    # one name in two folders: a source file beside a header of its name
    # elsewhere (headers alone are the case above)
    src, doc = tree(tmp, with_({"top/a.c": '#include "m.h"\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "a: files of this name (a.c, a.h) in low/, top/" in out,
          "a file named as one in another folder is refused", out)
    src, doc = tree(tmp, with_({"top/m.c": '#include "m.h"\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "m: files of this name" in out,
          "two source files of one name, each in its folder, are refused", out)

    # a rule with no table of layers
    src, doc = tree(tmp, GOOD, rules="# a house\n\nno table\n")
    rc, out = includes(src, doc)
    check(rc == 2 and "no table of layers" in out, "a rule without its table is refused (exit 2)",
          out)


def copy_src(tmp):
    dst = os.path.join(tmp, "real")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "src"), dst)
    return dst


def append(path, line):
    with open(path, "a") as f:
        f.write(line + "\n")


def test_real_tree_broken(tmp):
    # a model including the sweep's header: models/ lies far below sweep/
    src = copy_src(tmp)
    target = os.path.join(src, "models", "spring.c")
    n = sum(1 for _ in open(target)) + 1
    append(target, '#include "sweep.h"')
    rc, out = includes(src, RULES)
    check(rc == 1 and "models/spring.c:%d: includes sweep/sweep.h of sweep/, a layer above its "
          "own models/" % n in out, "src/ with a model including sweep.h is refused", out)

    # the driver including the case file reader, which stands beside it
    src = copy_src(tmp)
    target = os.path.join(src, "driver", "truth.c")
    n = sum(1 for _ in open(target)) + 1
    append(target, '#include "casefile.h"')
    rc, out = includes(src, RULES)
    check(rc == 1 and "driver/truth.c:%d: includes casefile/casefile.h of casefile/, a layer "
          "beside its own driver/" % n in out,
          "src/ with the driver including casefile.h (the floor beside it) is refused", out)

    # what a sweep holds including the jobs, which include it: a circle
    src = copy_src(tmp)
    append(os.path.join(src, "sweep", "results.c"), '#include "jobs.h"')
    rc, out = includes(src, RULES)
    check(rc == 1 and "a circle of 2" in out and "sweep/results -> sweep/jobs" in out,
          "src/ with results.c including jobs.h (which includes results.h) is refused", out)


def main():
    tmp = tempfile.mkdtemp(prefix="vb-layers-")
    try:
        test_src_holds()
        test_synthetic(tmp)
        test_real_tree_broken(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    passed = sum(results.values())
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
