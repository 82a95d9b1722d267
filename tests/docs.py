#!/usr/bin/env python3
"""docs.py BUILD_DIR — the documentation is self-contained and its links hold:

- no file a user gets (every tracked file outside tests/) names `../shared`
  or `SPEC`: the project's own docs/method.md says what those said;
- every relative link in README.md and docs/*.md names a file that exists,
  and every `#anchor` into a Markdown file names one of its headings (as
  GitHub makes anchors from headings);
- the man page is where `make install` takes it from;
- no two headings of one Markdown file say the same, their numbers aside;
- what the docs and cases say of a model holds: contact.md gives the
  slide's alpha in the unit the model takes, and dzhanibekov.case's flip
  times are the flips of Euler's equations integrated here.
Ends with "N passed, N failed"."""
import math
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


def headings_once(docs):
    """No two headings of one Markdown file say the same, their section
    numbers aside: rigid.md had "7. Run by the tool" and "8. Run by the
    tool" (issue 50.11), and a reader cannot tell which a reference means."""
    for doc in docs:
        seen = {}
        for n, line in enumerate(open(os.path.join(ROOT, doc), encoding="utf-8"), 1):
            m = re.match(r"#+\s+(?:\d+(?:\.\d+)*\.?\s+)?(.*\S)", line)
            if m and not line.startswith("#!"):
                text = m.group(1).lower()
                check(text not in seen, "%s:%d: the heading '%s' again (line %d)"
                      % (doc, n, m.group(1), seen.get(text, 0)))
                seen.setdefault(text, n)


def slide_alpha_unit(vb):
    """contact.md gives the slide's alpha as the model takes it: its range
    in the model's own words (sim's refusal of alpha = 100 says the unit),
    and not "[0, pi/2)", which reads as radians (issue 50.11)."""
    r = subprocess.run([vb, "sim", "--model", "slide", "--set", "alpha=100", "--integrator",
                        "euler-semi", "--contact", "toi"], capture_output=True, text=True)
    m = re.search(r"alpha must be \[0, (\d+)\) \(the plane's inclination, (\w+)\)", r.stderr)
    check(m is not None, "sim refuses alpha = 100 naming its range and unit: %s" % r.stderr.strip())
    if not m:
        return
    text = open(os.path.join(ROOT, "docs", "contact.md"), encoding="utf-8").read()
    slide = text.split("### `slide`", 1)[-1].split("\n### ", 1)[0]
    check("`alpha` %s, in `[0, %s)`" % (m.group(2), m.group(1)) in slide and "pi/2" not in slide,
          "contact.md gives the slide's alpha in %s, in [0, %s)" % (m.group(2), m.group(1)))


def dzhanibekov_flips():
    """cases/dzhanibekov.case says when the exact body flips.  By
    docs/rigid.md §4 a flip is c = L2/|L| going from >= 1/2 to <= -1/2 (or
    back), timed at the last zero of c before the far side, interpolated
    linearly.  Truth computed here, not by the C code: Euler's equations
    I1 w1' = (I2 - I3) w2 w3 (and cyclically), RK4 with h = 2e-3 over
    32 s (fourth order: at h = 1e-2 the flips move by 1e-8 s, far below the
    0.005 s that the case's two decimals claim).  It said 9.8 s and 29.3 s;
    the flips are at 10.92 s and 30.47 s (issue 50.11)."""
    text = open(os.path.join(ROOT, "cases", "dzhanibekov.case"), encoding="utf-8").read()
    m = re.search(r"at (?:about )?(\d+\.(\d+)) s and (\d+\.\d+) s", text)
    check(m is not None, "dzhanibekov.case says when the body flips")
    if not m:
        return
    p = dict(re.findall(r"^(I[123]|w[123]) = (\S+)$", text, re.M))
    inertia = [float(p["I%d" % i]) for i in (1, 2, 3)]
    w = [float(p["w%d" % i]) for i in (1, 2, 3)]

    def rate(w):
        i1, i2, i3 = inertia
        return [(i2 - i3) * w[1] * w[2] / i1, (i3 - i1) * w[2] * w[0] / i2,
                (i1 - i2) * w[0] * w[1] / i3]

    L = math.sqrt(sum((inertia[i] * w[i]) ** 2 for i in range(3)))  # conserved
    h, t, side, zero, flips = 2e-3, 0.0, 0, None, []
    while t < 32.0:
        k1 = rate(w)
        k2 = rate([w[i] + h / 2 * k1[i] for i in range(3)])
        k3 = rate([w[i] + h / 2 * k2[i] for i in range(3)])
        k4 = rate([w[i] + h * k3[i] for i in range(3)])
        nw = [w[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(3)]
        c0, c1 = inertia[1] * w[1] / L, inertia[1] * nw[1] / L
        if c0 * c1 <= 0 and c0 != c1:
            zero = t + h * c0 / (c0 - c1)
        w, t = nw, t + h
        now = 1 if c1 >= 0.5 else -1 if c1 <= -0.5 else 0
        if now and side and now != side:
            flips.append(zero)
        side = now or side
    claimed = [float(m.group(1)), float(m.group(3))]
    tol = 0.5 * 10.0 ** -len(m.group(2))  # half the last digit the case prints
    check(len(flips) == 2 and all(abs(a - b) <= tol for a, b in zip(claimed, flips)),
          "dzhanibekov.case's flips at %s s are the exact body's, %s s"
          % (claimed, ["%.4f" % x for x in flips]))


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
    headings_once(docs)
    slide_alpha_unit(os.path.join(sys.argv[1], "verletbench"))
    dzhanibekov_flips()
    print("%d passed, %d failed" % (count["passed"], count["failed"]))
    return 1 if count["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
