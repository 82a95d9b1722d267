#!/usr/bin/env python3
"""includes.py [SRC [RULES]] — the include rule of docs/architecture.md, held
against the #include lines of every C file under SRC (default: src).

RULES (default: docs/architecture.md) lists the layers in its table under
"## The layers": a row "| FLOOR | `name/` | ... |" for a folder of SRC, or
"| FLOOR | `name.h` | ... |" for a header at SRC's top.  A file may include

  - a file of its own layer, and
  - a file of a layer on a lower floor,

never one on a higher floor, nor one of another layer on its own floor
(layers side by side know nothing of each other).  A file's name (x.c,
x.h) lies in one folder only.  And no two modules (a
module: x.c with its x.h) may include each other, directly or round a
longer loop: a circle.  Both are read from the lines `#include "x.h"` and
`#include <x.h>`, a name resolved as the build resolves it (-I for SRC and
each folder: header names are unique), so an include the build would take
from SRC is never mistaken for a system one.  A name that no file of SRC
bears is the system's, or the build's own version.h, and not judged.

And what x.h declares, x.c defines: each function prototype and `extern`
table of a header (file scope, read with Universal Ctags) is defined in
the .c of the header's name, so that an include names the file a call
goes to and a circle of calls is a circle of includes.  A header with no
.c of its name (an interface whose parts are files: model.h) and a header
listed in RULES' table under "## Headers of several files" (with why) may
declare what other files of its own folder define; inline functions and
macros are definitions, not judged.  A declaration defined nowhere, or in
another folder, is refused too, and so is a listed header that no longer
needs its line.

Prints what breaks the rule, each with the file and line of its include
(or its declaration), and exits 1; exits 0 with one line saying what was
checked.  Exit 2 when the rule cannot be read (no such table), a file
lies in no layer, or ctags cannot be run."""
import json
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def read_layers(rules):
    """{layer: floor} from the table under '## The layers'."""
    layers, inside = {}, False
    for line in open(rules, encoding="utf-8"):
        if line.startswith("## "):
            if inside and layers:
                break
            inside = line.strip() == "## The layers"
            continue
        m = re.match(r"\|\s*(\d+)\s*\|\s*`([A-Za-z0-9_.-]+/?)`\s*\|", line) if inside else None
        if m:
            layers[m.group(2)] = int(m.group(1))
    return layers


def read_shared_headers(rules):
    """{header: line of RULES} from the table under '## Headers of several
    files': a row "| `folder/x.h` | ... | ... |"."""
    shared, inside = {}, False
    for no, line in enumerate(open(rules, encoding="utf-8"), 1):
        if line.startswith("## "):
            inside = line.strip() == "## Headers of several files"
            continue
        m = re.match(r"\|\s*`([A-Za-z0-9_./-]+\.h)`\s*\|", line) if inside else None
        if m:
            shared[m.group(1)] = no
    return shared


def tags(src, files):
    """Universal Ctags over the C files of SRC: (declarations, definitions),
    each {name: [(file, line)]}: the prototypes and extern tables at file
    scope of the headers, and the functions and tables with external
    linkage (static ones are left out: --extras=-F) of every file; None
    when ctags cannot be run."""
    try:
        r = subprocess.run(["ctags", "--output-format=json", "--languages=C",
                            "--langmap=C:.c.h", "--kinds-C=fpxv", "--fields=+n",
                            "--extras=-F", "-f", "-"] + files,
                           cwd=src, capture_output=True, text=True)
    except OSError:
        return None
    if r.returncode != 0:
        return None
    decl, defs = {}, {}
    for line in r.stdout.splitlines():
        t = json.loads(line)
        if t.get("_type") != "tag" or "scope" in t:  # a member, not a declaration
            continue
        path, kind = os.path.normpath(t["path"]), t["kind"]
        if kind in ("prototype", "externvar") and path.endswith(".h"):
            decl.setdefault(t["name"], []).append((path, t["line"]))
        elif kind in ("function", "variable"):
            defs.setdefault(t["name"], []).append((path, t["line"]))
    return decl, defs


def declared_defined(src, files, rules):
    """What x.h declares, x.c defines: (the problems, the headers of several
    files that declare what other files define, and (header, file, where)
    for each declaration against the rule: the call its include stands
    for), or None when ctags cannot be run."""
    got = tags(src, files)
    if got is None:
        return None
    decl, defs = got
    shared = read_shared_headers(rules)
    problems, used, unlisted, calls = [], set(), False, []
    present = set(files)
    for h in sorted(shared):
        if h not in present:
            problems.append("%s:%d: lists %s under 'Headers of several files', which is no "
                            "header of %s" % (rules, shared[h], h, src))
    for name in sorted(decl):
        homes = sorted({f for f, _ in defs.get(name, ())})
        for h, line in sorted(set(decl[name])):
            own = h[:-2] + ".c"
            if h in homes or own in homes:
                continue  # an inline function, or x.c's
            folder = os.path.dirname(h)
            where = "%s/%s:%d: declares %s" % (src, h, line, name)
            if not homes:
                problems.append("%s, which no file of %s defines" % (where, src))
                continue
            if all(os.path.dirname(f) != folder for f in homes):
                problems.append("%s, which %s defines: outside the header's folder"
                                % (where, ", ".join(homes)))
                continue
            if own not in present or h in shared:
                used.add(h)
                continue
            problems.append("%s, which %s defines, not %s: what x.h declares, x.c defines"
                            % (where, ", ".join(homes), own))
            unlisted = True
            # the call an include of h stands for goes there: a circle
            # through it is a circle
            for f in homes:
                calls.append((h, f, "%s:%d, %s" % (h, line, name)))
    for h in sorted(set(shared) & present - used):
        problems.append("%s:%d: %s declares only what %s defines: it needs no line under "
                        "'Headers of several files'" % (rules, shared[h], h, h[:-2] + ".c"))
    if unlisted:
        problems.append("(an include names the file a call goes to, so a circle of calls is one "
                        "of includes; a header that is the face of several files is listed, "
                        "with why, under 'Headers of several files' in %s)" % rules)
    return problems, used, calls


def c_files(src):
    out = []
    for d, dirs, names in os.walk(src):
        dirs.sort()
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                out.append(os.path.relpath(os.path.join(d, n), src))
    return out


def layer_of(path, floor):
    """The layer a file of SRC lies in: its folder, or itself at the top."""
    parts = path.split(os.sep)
    key = parts[0] + "/" if len(parts) > 1 else parts[0]
    return key if key in floor else None


def circles(edges, nodes):
    """Tarjan's strongly connected components of more than one node."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def check(src, rules):
    layers = read_layers(rules)
    if not layers:
        print("includes: %s has no table of layers under '## The layers'" % rules)
        return 2
    floor = layers
    files = c_files(src)
    problems, lost = [], []
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)
        if layer_of(f, floor) is None:
            lost.append(f)
    if lost:
        for f in lost:
            print("includes: %s/%s lies in no layer of %s" % (src, f, rules))
        return 2
    for name, where in sorted(by_name.items()):
        if name.endswith(".h") and len(where) > 1:
            problems.append("%s: a header of this name in %s: the build cannot tell them apart"
                            % (name, ", ".join(where)))
    # a name says what a file holds, once: x.c (with its x.h) in one folder
    # only, so that a name in a message, a diff or a doc means one file
    folders = {}
    for f in files:
        folders.setdefault(os.path.splitext(os.path.basename(f))[0], set()).add(
            os.path.dirname(f) or ".")
    for name, where in sorted(folders.items()):
        if len(where) > 1:
            problems.append("%s: files of this name (%s.c, %s.h) in %s: a name says what a "
                            "file holds, once" % (name, name, name, ", ".join(
                                (w + "/") if w != "." else "src/" for w in sorted(where))))
    module = lambda f: os.path.splitext(f)[0]
    edges, why, n_includes = {}, {}, 0
    for f in files:
        for no, line in enumerate(open(os.path.join(src, f), encoding="utf-8", errors="replace"), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            name = m.group(2)
            # a path as written from the file's own folder, then from SRC,
            # then a bare name from any folder (the -I list)
            own = os.path.normpath(os.path.join(os.path.dirname(f), name))
            if m.group(1) == '"' and own in files:
                target = own
            elif os.path.normpath(name) in files:
                target = os.path.normpath(name)
            elif len(by_name.get(os.path.basename(name), [])) == 1 and "/" not in name:
                target = by_name[os.path.basename(name)][0]
            else:
                continue  # the system's, or generated by the build
            n_includes += 1
            a, b = layer_of(f, floor), layer_of(target, floor)
            if a != b and floor[b] >= floor[a]:
                problems.append("%s/%s:%d: includes %s of %s, a layer %s its own %s"
                                % (src, f, no, target, b,
                                   "above" if floor[b] > floor[a] else "beside", a))
            if module(f) != module(target):
                edges.setdefault(module(f), set()).add(module(target))
                why.setdefault((module(f), module(target)), "%s:%d" % (f, no))
    defined = declared_defined(src, files, rules)
    if defined is None:
        print("includes: ctags (Universal Ctags) cannot be run: it reads what the headers of "
              "%s declare and where it is defined (apt-get install universal-ctags)" % src)
        return 2
    problems += defined[0]
    for h, f, at in defined[2]:
        if module(h) != module(f):
            edges.setdefault(module(h), set()).add(module(f))
            why.setdefault((module(h), module(f)), "declared at " + at)
    for comp in circles(edges, {module(f) for f in files}):
        ties = ["%s -> %s (%s)" % (a, b, why[(a, b)])
                for a in comp for b in sorted(edges.get(a, ())) if b in comp]
        problems.append("a circle of %d: %s" % (len(comp), "; ".join(ties)))
    for p in problems:
        print("includes: " + p)
    if problems:
        print("includes: %d against the rule of %s" % (len(problems), rules))
        return 1
    print("includes: %d files, %d includes within %s, %d layers on %d floors: every one "
          "within its layer or down, no circle; what each header declares, the .c of its name "
          "defines, or its folder's files for the %d headers of several files"
          % (len(files), n_includes, src, len(layers), len(set(layers.values())),
             len(defined[1])))
    return 0


if __name__ == "__main__":
    here = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "src")
    rules = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "docs", "architecture.md")
    sys.exit(check(src, rules))
