#!/usr/bin/env python3
"""long_commands.py BUILD_DIR — long commands print a line a step as it
ends, and keep the whole output in a log (issue 51.7: make check printed
nothing for 11 minutes, then everything; make engines some 170 lines).

- tests/runner.py, which make check runs (tests/run.sh), on sample suites
  written here (one passing, one failing, one that dies before its count,
  one slow), two at a time: one line a suite as it ends, with "ok" or
  "FAIL", its place in the list, its name, its counts and its seconds; the
  failing suites' output under their lines (the passing checks' "ok"
  lines and the count left out); every suite's whole output in the log
  under its "== NAME", as each ended; the last line the sum, "N passed,
  N failed" (CI reads it), the exit status 1; the slow suite's line after
  the quick ones' (as they end, not in the list's order).
- .ci/step, each step of make engines: one line, the step's name then
  its seconds; what the command prints in the log only; a failing step
  shows the log's end and where the log is, with the command's status;
  V=1 prints everything instead.
- The Makefile's engines target runs its steps through .ci/step into
  build/engines.log, and make check names build/check.log.
- No doc but docs/speed.md says how long make check or make engines
  takes (docs/findings.md said "about two and a half minutes"; issue 51
  measured 15 on a loaded machine): speed.md gives the command, the date
  and the load of each figure.
Ends with "N passed, N failed"."""
import os
import re
import subprocess
import sys

from suite import ROOT, Suite

S = Suite("long commands", 120)
check = S.check

SUITES = [
    # cost, name, command
    # 5 s: the quick suites' lines come first unless the machine stalls
    # them that long (it was 2 s)
    (9, "slow", "sleep 5; echo 'ok   slow_a'; echo '1 passed, 0 failed'"),
    (1, "quick", "echo 'ok   t1'; echo 'ok   t2'; echo '2 passed, 0 failed'"),
    (1, "broken", "echo 'ok   t3'; echo '    file.c:1: got 2, want 1'; echo 'FAIL t4'; "
                  "echo '1 passed, 1 failed'"),
    (1, "dies", "echo 'half way'; exit 3"),
]
LINE = re.compile(r"^(ok  |FAIL) \[ ?(\d+)/(\d+)\] (.+): (.+) \((\d+) s\)$")


def test_runner(tmp):
    log = os.path.join(tmp, "sub", "check.log")
    text = "".join("%s\t%s\t%s\n" % s for s in SUITES)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "runner.py"), "2", log],
                       input=text, capture_output=True, text=True, timeout=60)
    out = r.stdout.splitlines()
    check(r.returncode == 1, "runner: exit 1 when a suite failed", r.returncode)
    check(out and out[-1] == "4 passed, 2 failed",
          "runner: the last line sums the suites, a suite that died counted one failure", out[-1:])
    lines = [LINE.match(l) for l in out]
    got = {m.group(4): m for m in lines if m}
    check(sorted(got) == sorted(s[1] for s in SUITES), "runner: one line a suite", out)
    want = {"slow": ("ok  ", "1 passed, 0 failed"), "quick": ("ok  ", "2 passed, 0 failed"),
            "broken": ("FAIL", "1 passed, 1 failed"),
            "dies": ("FAIL", 'did not finish (no "N passed, N failed" line)')}
    for name, (verdict, counts) in want.items():
        m = got.get(name)
        check(m is not None and m.group(1) == verdict and m.group(5) == counts and
              m.group(3) == "4" and int(m.group(2)) == [s[1] for s in SUITES].index(name) + 1,
              "runner: %s's line says %s, %s, its place in the list" % (name, verdict.strip(), counts),
              m.group(0) if m else out)
    slow = got.get("slow")
    check(slow is not None and int(slow.group(6)) >= 5 and
          all(out.index(slow.group(0)) > out.index(got[n].group(0)) for n in ("quick", "broken", "dies")
              if n in got),
          "runner: a line as a suite ends: the slow suite's after the quick ones', with its 5 s", out)
    # under a failing suite its output, without the passing checks and the count
    if "broken" in got:
        i = out.index(got["broken"].group(0))
        check(out[i + 1:i + 3] == ["        file.c:1: got 2, want 1", "    FAIL t4"],
              "runner: a failing suite's output under its line, its 'ok' lines and count left out",
              out[i + 1:i + 4])
    if "dies" in got:
        i = out.index(got["dies"].group(0))
        check(out[i + 1:i + 2] == ["    half way"], "runner: a suite that died shows what it printed",
              out[i + 1:i + 3])
    check(not any(l.strip() in ("ok   t1", "ok   t2", "ok   slow_a") for l in out),
          "runner: a passing suite's output only in the log", out)
    body = open(log).read() if os.path.exists(log) else ""
    for _, name, cmd in SUITES:
        check("== %s\n" % name in body, "runner: the log holds %s under its heading" % name, body[:600])
    check("== quick\nok   t1\nok   t2\n2 passed, 0 failed\n" in body and
          "== dies\nhalf way\n" in body and body.endswith("4 passed, 2 failed\n"),
          "runner: the log holds each suite's whole output, and the sum last", body)
    check("== slow" in body and "== quick" in body and body.index("== slow") > body.index("== quick"),
          "runner: the log in the order the suites ended")
    check(any(log in l for l in out[:1]) and any(log in l for l in out[-2:-1]),
          "runner: its first line and its next to last name the log", out[:1] + out[-2:-1])


def step(tmp, *cmd, v=None):
    env = dict(os.environ)
    env.pop("V", None)
    if v:
        env["V"] = v
    log = os.path.join(tmp, "engines.log")
    return subprocess.run(["sh", os.path.join(ROOT, ".ci", "step"), log, "make engines: a step"]
                          + list(cmd), capture_output=True, text=True, env=env, timeout=60), log


def test_step(tmp):
    r, log = step(tmp, "sh", "-c", "echo printed; echo to-stderr >&2; sleep 1")
    # a 1 s step: its whole seconds, at least 1 (more on a loaded machine)
    m = re.fullmatch(r"make engines: a step \.\.\. (\d+) s\n", r.stdout)
    check(r.returncode == 0 and m is not None and int(m.group(1)) >= 1
          and r.stderr == "",
          "step: one line, the step's name and its seconds, nothing else", (r.stdout, r.stderr))
    body = open(log).read() if os.path.exists(log) else ""
    check(body == "== make engines: a step\nprinted\nto-stderr\n",
          "step: what the command prints, both streams, in the log under the step's name", body)
    r, log = step(tmp, "sh", "-c", "echo the-cause; exit 3")
    check(r.returncode == 3, "step: a failing step exits with its command's status", r.returncode)
    check(r.stdout.startswith("make engines: a step ... failed\n") and "the-cause" in r.stdout and
          "make engines: a step: failed (exit 3); the whole log: %s" % log in r.stderr,
          "step: a failing step shows the log's end and where the log is", (r.stdout, r.stderr))
    r, log = step(tmp, "echo", "shown", v="1")
    check(r.returncode == 0 and r.stdout.startswith("make engines: a step\nshown\nmake engines: a step: ")
          and "== make engines: a step\nshown" not in open(log).read(),
          "step: V=1 prints the command's output, not into the log", r.stdout)


def test_makefile(tmp):
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as f:
        mk = f.read()
    recipe = mk.split("\nengines: $(BIN)\n", 1)[-1].split("\n\n", 1)[0]
    steps = re.findall(r'\$\(STEP\) "make engines: ([^"]+)"', recipe)
    check(len(steps) >= 5 and "ENGINES_LOG = $(BUILD)/engines.log" in mk and
          "STEP = V=$(V) sh .ci/step $(ENGINES_LOG)" in mk,
          "make engines runs its steps through .ci/step into build/engines.log", steps)
    # each command of the recipe a step: none left printing to the terminal
    commands = [c for c in re.findall(r"\$\(BIN\) (run|draw)|python3 [\w/.]+|\$\(MAKE\)[^;]*", recipe)]
    check(len(commands) == len(steps),
          "every command of make engines is a step (%d commands, %d steps)" % (len(commands), len(steps)))
    with open(os.path.join(ROOT, "tests", "run.sh"), encoding="utf-8") as f:
        check('"$BUILD/check.log"' in f.read(), "make check's log: BUILD/check.log (tests/run.sh)")


# "`make engines` takes about two and a half minutes": a duration claimed
# for the whole command, in the sentence that names it
CLAIM = re.compile(r"`make (?:engines|check)`[^.`]{0,60}?\b(?:takes|took|lasts|runs? in|in about|within)\b"
                   r"[^.`]{0,40}?(?:\d|minute|second|hour)")


def test_docs_time_only_in_speed(tmp):
    check(CLAIM.search("`make engines` takes about two and a half minutes on 2 cores") and
          CLAIM.search("`make check` runs in 9 s") and
          not CLAIM.search("`make engines` prints a line a step with its seconds") and
          not CLAIM.search("`make check` takes the regression check to zero tolerance."),
          "the duration pattern finds a claimed duration, and not a mention of seconds")
    docs = ["README.md"] + ["docs/" + x for x in sorted(os.listdir(os.path.join(ROOT, "docs")))
                            if x.endswith(".md") and x != "speed.md"]
    found = []
    for d in docs:
        with open(os.path.join(ROOT, d), encoding="utf-8") as f:
            text = " ".join(f.read().split())
        found += ["%s: %s" % (d, m.group(0)) for m in CLAIM.finditer(text)]
    check(not found, "no doc but docs/speed.md claims how long make check or make engines takes",
          "\n".join(found))
    with open(os.path.join(ROOT, "docs", "speed.md"), encoding="utf-8") as f:
        speed = f.read()
    check("## `make check` and `make engines`" in speed and "/usr/bin/time -v make\nengines" in speed,
          "docs/speed.md measures make engines, with the command")


if __name__ == "__main__":
    sys.exit(S.main([test_runner, test_step, test_makefile, test_docs_time_only_in_speed]))
