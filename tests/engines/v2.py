#!/usr/bin/env python3
"""v2.py [KEY=VALUE]... — a protocol-2 engine for the tests
(tests/protocol2.py), which misbehaves on purpose when told to.

It speaks docs/real-engines.md §1: the capability line first, then for each
request line on stdin the trajectory of symplectic Euler (kick, then drift:
the built-in euler-semi's operations, in its order) on the spring, ended by
"# verletbench-end run=ID".  Options:

  caps=TEXT       the capability line's tokens after "# verletbench-engine "
                  (default: protocol=2 persistent=1 engine=v2-test@1.0)
  error-on=RUN    answer run RUN with an error line, after two rows
  crash-on=RUN    exit with status 3 in the middle of run RUN
  hang-on=RUN     stop answering in run RUN (for the time limit)
  wrong-end=RUN   end run RUN with another run's end line
  retire=1        end every answer with retire=1, and exit
  exit-after=S    after its first answer, wait 0.3 s (its next request is sent
                  meanwhile) and exit with status S, though persistent=1
  linger=open     at the end of its input, stay: never exit, stdout open
  linger=closed   at the end of its input, close stdout and stay: never exit
  banner=1        print a library's banner before the column line
  pids=FILE       append "PID RUN" to FILE for every request
  flip=FILE       the first process (FILE absent: made) declares float64,
                  every later one precision=float32
  caps-once=FILE  the first process (FILE absent: made) writes the
                  capability line, every later one none (after 1 s: the
                  first one's is read first, whatever -j)
"""
import json
import os
import sys
import time


def main():
    opt = dict(a.split("=", 1) for a in sys.argv[1:])
    out = sys.stdout
    caps = opt.get("caps", "protocol=2 persistent=1 engine=v2-test@1.0")
    if "flip" in opt:
        if os.path.exists(opt["flip"]):
            caps = "protocol=2 persistent=1 precision=float32 engine=v2-test@1.0"
        else:
            open(opt["flip"], "w").close()
    first = True
    if "caps-once" in opt:
        try:
            os.close(os.open(opt["caps-once"], os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            first = False
            time.sleep(1)
    if first:
        out.write("# verletbench-engine %s\n" % caps)
        out.flush()
    failed = False
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("kind") != "run":
            continue
        run = req["run"]
        if "pids" in opt:
            with open(opt["pids"], "a") as f:
                f.write("%d %s\n" % (os.getpid(), run))
        if opt.get("banner") == "1":
            out.write("Initializing cpSpace - Chipmunk v7.0.3 (Debug Enabled)\n")
        p = req["params"]
        w2 = p["k"] / p["m"]
        x, v = req["x0"][0], req["v0"][0]
        out.write("t,x,v\n%r,%r,%r\n" % (0.0, x, v))
        t = 0.0
        for n, h in enumerate(req["h"]):
            if n == 2 and opt.get("error-on") == run:
                out.write("# verletbench-error run=%s told to fail here\n" % run)
                failed = True
                break
            if n == 2 and opt.get("crash-on") == run:
                out.flush()
                os._exit(3)
            if n == 2 and opt.get("hang-on") == run:
                out.flush()
                time.sleep(3600)
            a = -w2 * x
            v = v + h * a
            x = x + h * v
            t += h
            out.write("%r,%r,%r\n" % (t, x, v))
        else:
            end = "other-run" if opt.get("wrong-end") == run else run
            out.write("# verletbench-end run=%s%s\n" % (end, " retire=1" if opt.get("retire") == "1" else ""))
        out.flush()
        if opt.get("retire") == "1":
            break
        if "exit-after" in opt:
            time.sleep(0.3)
            os._exit(int(opt["exit-after"]))
    if opt.get("linger") == "closed":
        os.close(1)
    if opt.get("linger") in ("open", "closed"):
        time.sleep(3600)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
