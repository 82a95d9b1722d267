#!/usr/bin/env python3
"""layers.py [BUILD_DIR] — the include rule of docs/architecture.md holds for
src/, and its check (tests/includes.py) can fail: on small trees made here
with an include against the direction, a circle of two and of three, a
header named in angle brackets, a file in no layer, two headers of one
name and a file named as one in another folder, a header declaring what
another file than its .c defines (and the circle of calls it hides), a
table so declared, a declaration defined nowhere or in another folder, and
the exceptions (a header with no .c of its name, inline functions, a
header listed under "Headers of several files"); and on a copy of src/
itself with one include turned upward, one circle added, and a function
of process.h defined in trajectory.c (the circle of 413bf44).  Each bad tree must be refused with exit status 1 (2 for a
rule that cannot be applied) and a message naming the file, the line and
what is wrong; each good one passed with 0.  Ends with "N passed, N failed"."""
import os
import shutil
import subprocess
import sys
import tempfile

from suite import write_tree

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
    src = write_tree(os.path.join(tmp, "src"), files)
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


SHARED_RULES = RULES_TEXT + """
## Headers of several files

| header | defined in | why |
|---|---|---|
| `low/face.h` | `face.c`, `part.c` | a face of two files |
"""


def test_declared_defined(tmp):
    """what x.h declares, x.c defines, and its exceptions"""
    # a header declaring what another file defines, the call its include
    # stands for closing a circle no include shows: b.c calls p.h's near()
    # (traj.c's), traj.c calls b.h's body() (b.c's)
    circle = {"low/p.h": "int near(double a);\n", "low/p.c": '#include "p.h"\n',
              "low/b.h": "int body(void);\n",
              "low/b.c": '#include "b.h"\n#include "p.h"\nint body(void) { return near(1); }\n',
              "low/traj.c": '#include "b.h"\n#include "p.h"\n'
                         'int near(double a) { return a > 0; }\nint t(void) { return body(); }\n'}
    src, doc = tree(tmp, with_(circle))
    rc, out = includes(src, doc)
    check(rc == 1 and "low/p.h:1: declares near, which low/traj.c defines, not low/p.c: what x.h "
          "declares, x.c defines" in out, "a declaration defined in another file than x.c is "
          "refused, with the header's line and both files", out)
    check("a circle of 3" in out and "low/p -> low/traj (declared at low/p.h:1, near)" in out and
          "low/b -> low/p" in out and "low/traj -> low/b" in out,
          "... and the circle of calls it hid is named as one", out)
    # moved to p.c, where p.h says it is: no circle, passed
    fixed = dict(circle)
    fixed["low/p.c"] = '#include "p.h"\nint near(double a) { return a > 0; }\n'
    fixed["low/traj.c"] = '#include "b.h"\nint t(void) { return body(); }\n'
    src, doc = tree(tmp, with_(fixed))
    rc, out = includes(src, doc)
    check(rc == 0, "the same functions, each defined in the .c of its header: passed", out)
    # a table (an extern object) is held as a function is
    src, doc = tree(tmp, with_({"low/a.h": "extern const int vb_table[3];\n",
                                "low/b.c": '#include "a.h"\nconst int vb_table[3] = {1, 2, 3};\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "low/a.h:1: declares vb_table, which low/b.c defines, not low/a.c" in out,
          "an extern table defined in another file than x.c is refused", out)
    # an interface with no .c of its name, its parts in its folder; an
    # inline function and a macro in a header: passed
    src, doc = tree(tmp, with_({"low/face.h": "int part_one(void);\nint part_two(void);\n"
                                              "static inline int twice(int a) { return 2 * a; }\n"
                                              "#define THRICE(a) (3 * (a))\n",
                                "low/one.c": '#include "face.h"\nint part_one(void) { return 1; }\n',
                                "low/two.c": '#include "face.h"\nint part_two(void) { return 2; }\n'}))
    rc, out = includes(src, doc)
    check(rc == 0, "a header with no .c of its name declares what files of its folder define; "
          "inline functions and macros are not judged", out)
    # ... but not what another folder defines
    src, doc = tree(tmp, with_({"low/face.h": "int part_one(void);\n",
                                "mid/one.c": '#include "face.h"\nint part_one(void) { return 1; }\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "low/face.h:1: declares part_one, which mid/one.c defines: outside the "
          "header's folder" in out, "a header's declaration defined in another folder is refused",
          out)
    # declared and defined nowhere
    src, doc = tree(tmp, with_({"low/a.h": '#include "abi.h"\nint lost(void);\n'}))
    rc, out = includes(src, doc)
    check(rc == 1 and "low/a.h:2: declares lost, which no file of" in out,
          "a declaration that no file defines is refused", out)
    # a header listed under 'Headers of several files'
    listed = {"low/face.h": "int part_one(void);\nint part_two(void);\n",
              "low/face.c": '#include "face.h"\nint part_one(void) { return 1; }\n',
              "low/part.c": '#include "face.h"\nint part_two(void) { return 2; }\n'}
    src, doc = tree(tmp, with_(listed), rules=SHARED_RULES)
    rc, out = includes(src, doc)
    check(rc == 0, "a header listed, with why, may declare what files of its folder define", out)
    src, doc = tree(tmp, with_(listed))
    rc, out = includes(src, doc)
    check(rc == 1 and "low/face.h:2: declares part_two, which low/part.c defines, not "
          "low/face.c" in out, "... and the same header unlisted is refused", out)
    alone = dict(listed)
    alone["low/face.c"] = ('#include "face.h"\nint part_one(void) { return 1; }\n'
                           'int part_two(void) { return 2; }\n')
    alone["low/part.c"] = '#include "face.h"\n'
    src, doc = tree(tmp, with_(alone), rules=SHARED_RULES)
    rc, out = includes(src, doc)
    check(rc == 1 and "low/face.h declares only what low/face.c defines: it needs no line" in out,
          "a listed header that no longer needs its line is refused", out)
    src, doc = tree(tmp, GOOD, rules=SHARED_RULES)
    rc, out = includes(src, doc)
    check(rc == 1 and "lists low/face.h" in out and "which is no header of" in out,
          "a listed header that does not exist is refused", out)
    # without ctags the rule cannot be held: exit 2, saying so
    src, doc = tree(tmp, GOOD)
    r = subprocess.run([sys.executable, CHECK, src, doc], capture_output=True, text=True,
                       env={"PATH": os.path.join(tmp, "no-such-dir")})
    check(r.returncode == 2 and "ctags (Universal Ctags) cannot be run" in r.stdout,
          "without ctags the check stops (exit 2) and says why", r.stdout + r.stderr)


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

    def refused(file, header, layer, where, what):
        """a copy of src/ with file including header of layer: refused,
        naming the line and where the layer stands"""
        src = copy_src(tmp)
        target = os.path.join(src, file)
        n = sum(1 for _ in open(target)) + 1
        append(target, '#include "%s"' % header)
        rc, out = includes(src, RULES)
        check(rc == 1 and "%s:%d: includes %s/%s of %s/, a layer %s its own %s/" % (
            file, n, layer, header, layer, where, file.split("/")[0]) in out, what, out)

    # the driver including the case file reader, which stands above it (a
    # case is described by the driver's profile.h)
    refused("driver/truth.c", "casefile.h", "casefile", "above",
            "src/ with the driver including casefile.h (the floor above it) is refused")
    # the sweep including the benchmark, which stands beside it
    refused("sweep/jobs.c", "fused.h", "bench", "beside",
            "src/ with the sweep including fused.h (the floor beside it) is refused")

    # what a sweep holds including the jobs, which include it: a circle
    src = copy_src(tmp)
    append(os.path.join(src, "sweep", "results.c"), '#include "jobs.h"')
    rc, out = includes(src, RULES)
    check(rc == 1 and "a circle of 2" in out and "sweep/results -> sweep/jobs" in out,
          "src/ with results.c including jobs.h (which includes results.h) is refused", out)


def test_real_tree_call_circle(tmp):
    # engine/: a function declared in process.h but defined in
    # trajectory.c, which calls body.c, which includes process.h: the
    # circle of 413bf44 (vb_engine_row0_near)
    src = copy_src(tmp)
    header = os.path.join(src, "engine", "process.h")
    text = open(header).read().replace("#endif", "int vb_engine_row0_again(double a);\n\n#endif")
    with open(header, "w") as f:
        f.write(text)
    n = text.splitlines().index("int vb_engine_row0_again(double a);") + 1
    append(os.path.join(src, "engine", "trajectory.c"),
           "int vb_engine_row0_again(double a) { return a > 0; }")
    rc, out = includes(src, RULES)
    check(rc == 1 and "engine/process.h:%d: declares vb_engine_row0_again, which "
          "engine/trajectory.c defines, not engine/process.c" % n in out and
          "engine/process -> engine/trajectory (declared at engine/process.h:%d" % n in out and
          "engine/trajectory -> engine/body" in out and "engine/body -> engine/process" in out,
          "src/ with a function of process.h defined in trajectory.c is refused, the circle "
          "body -> process -> trajectory -> body named", out)


def main():
    tmp = tempfile.mkdtemp(prefix="vb-layers-")
    try:
        test_src_holds()
        test_synthetic(tmp)
        test_declared_defined(tmp)
        test_real_tree_broken(tmp)
        test_real_tree_call_circle(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    passed = sum(results.values())
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
