#!/usr/bin/env python3
"""docs.py BUILD_DIR — the documentation is self-contained and its links hold:

- no file a user gets (every tracked file outside tests/) names `../shared`
  or `SPEC`: the project's own docs/method.md says what those said;
- every relative link in README.md and docs/*.md names a file that exists,
  and every `#anchor` into a Markdown file names one of its headings (as
  GitHub makes anchors from headings);
- the man page is where `make install` takes it from.
Ends with "N passed, N failed"."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# every check counted, each failure once (no message can hide another: a
# dict by message let a later pass overwrite an earlier failure)
count = {"passed": 0, "failed": 0}


def check(cond, what):
    if cond:
        count["passed"] += 1
    else:
        count["failed"] += 1
        print("FAIL docs: " + what)


def user_files():
    """The tracked files outside tests/ (without git: the tree, minus what
    the build and the runs generate)."""
    if shutil.which("git"):
        r = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True)
        if r.returncode == 0 and r.stdout:
            return [f for f in r.stdout.splitlines() if not f.startswith("tests/")]
    files = []
    for d, dirs, names in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        dirs[:] = [x for x in dirs if not (rel == "." and (x in ("tests", ".git") or x.startswith("build")))
                   and not (rel == "results" and x != "baseline")
                   and not (rel == "plots" and x != ".")]
        files += [os.path.normpath(os.path.join(rel, n)) for n in names]
    return files


def anchors(path):
    """GitHub's anchors of a Markdown file's headings."""
    out = set()
    for line in open(path, encoding="utf-8"):
        m = re.match(r"#+\s+(.*)", line)
        if m:
            a = m.group(1).strip().lower()
            a = re.sub(r"[^\w\- ]", "", a).replace(" ", "-")
            out.add(a)
    return out


def options_of(help_text):
    """The options a command's --help lists: the --names (and -j) that
    begin a line of its Options, up to its description."""
    opts = set()
    for line in help_text.split("\nOptions:", 1)[-1].splitlines():
        if not line.startswith("  -"):
            continue
        head = re.split(r"  |: ", line.strip(), 1)[0]
        opts |= set(re.findall(r"--[a-z][a-z-]*", head))
        if re.match(r"-j\b", head):
            opts.add("-j")
    return opts - {"--help", "--jobs"}


def usage_lines():
    """Every option a command's --help lists is in its Usage line and in
    the man page's SYNOPSIS for it (the run SYNOPSIS once left out
    --strict, --plugin, --quiet, --engines-only, --engine-timeout, --draw
    and --engine)."""
    vb = os.path.join(sys.argv[1], "verletbench")
    top = subprocess.run([vb, "--help"], capture_output=True, text=True).stdout
    cmds = re.findall(r"^  ([a-z]+) ", top.split("Commands:", 1)[1], re.M)
    check(len(cmds) >= 10, "verletbench --help lists the commands (%s)" % cmds)
    with open(os.path.join(ROOT, "docs", "verletbench.1"), encoding="utf-8") as f:
        man = f.read()
    synopsis = man.split(".SH SYNOPSIS", 1)[1].split(".SH", 1)[0].replace("\\-", "-")
    for cmd in cmds:
        text = subprocess.run([vb, cmd, "--help"], capture_output=True, text=True).stdout
        usage = text.split("\n\n", 1)[0]
        syn = " ".join(part for part in synopsis.split(".br")
                       if re.search(r"^\.B verletbench %s\b" % cmd, part.strip(), re.M))
        check(syn != "", "the man page's SYNOPSIS has `verletbench %s`" % cmd)
        for o in sorted(options_of(text)):
            check(re.search(re.escape(o) + r"\b", usage) is not None,
                  "%s --help: its Usage line lacks %s" % (cmd, o))
            check(re.search(re.escape(o) + r"\b", syn) is not None,
                  "the man page's SYNOPSIS of %s lacks %s" % (cmd, o))


def main():
    files = user_files()
    check(len(files) > 20, "found the project's files (%d)" % len(files))
    named = 0
    for f in files:
        p = os.path.join(ROOT, f)
        if not os.path.isfile(p) or f.endswith(".png"):
            continue
        try:
            text = open(p, encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if "../shared" in line or re.search(r"\bSPEC\b", line):
                named += 1
                print("    %s:%d names ../shared or SPEC: %s" % (f, n, line.strip()[:80]))
    check(named == 0, "no file names ../shared or SPEC (%d lines do)" % named)

    docs = ["README.md"] + ["docs/" + x for x in sorted(os.listdir(os.path.join(ROOT, "docs")))
                            if x.endswith(".md")]
    for doc in docs:
        base = os.path.dirname(os.path.join(ROOT, doc))
        for target in re.findall(r"\]\(([^)\s]+)\)", open(os.path.join(ROOT, doc), encoding="utf-8").read()):
            if re.match(r"[a-z]+://", target) or target.startswith("mailto:"):
                continue
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(base, path)) if path else os.path.join(ROOT, doc)
            check(os.path.exists(full), "%s links %s, which does not exist" % (doc, target))
            if anchor and full.endswith(".md") and os.path.exists(full):
                check(anchor in anchors(full), "%s links %s: no such heading" % (doc, target))
    check(os.path.isfile(os.path.join(ROOT, "docs", "verletbench.1")), "docs/verletbench.1 exists")
    usage_lines()
    print("%d passed, %d failed" % (count["passed"], count["failed"]))
    return 1 if count["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
