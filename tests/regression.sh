#!/bin/sh
# regression.sh BUILD_DIR — `verletbench check`: every case in cases/ against
# the committed baseline (results/baseline), at zero tolerance: the README
# says a rerun gives the same bits, so not one value may differ, better or
# worse, and every table file must be the same bytes but for the line that
# names the version that made it and the line that names the GSL and FFTW it
# ran against ("# libraries: ..." in a CSV file, "libraries: ..." inside a
# Markdown file's first comment or sentence): those say which machine made the
# file, not what the code computes, and another GSL or FFTW that gives the same
# bits must pass (one that gives other bits fails the zero-tolerance check
# above and the bytes below).  Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

"$1/verletbench" check --quiet --rtol 0 --floor-ulps 0 --order-tol 0 --save "$tmp/now" >"$tmp/out" 2>&1
rc=$?
tail -n 1 "$tmp/out"
if [ $rc -eq 0 ] && tail -n 1 "$tmp/out" | grep -q "; 0 worse, 0 better, 0 baseline runs missing, 0 new runs"; then
    pass=$((pass + 1))
else
    cat "$tmp/out"
    echo "regression check at zero tolerance failed (exit $rc): if the change is intended, 'make baseline'"
    fail=$((fail + 1))
fi

# the same bytes, file by file, the first line (the version and commit) and
# the libraries line aside (compared in one process: a shell loop spent
# three processes a file on 400 files)
if python3 - "$tmp/now" <<'PY'
import os, sys
now, base = sys.argv[1], "results/baseline"
def body(path):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")[1:]
    return [l for l in lines if not l.startswith(b"# libraries: ")]
differ = 0
def files(root):
    return {os.path.join(d, f) for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))
            for f in os.listdir(os.path.join(root, d))}
b, n = files(base), files(now)
for f in sorted(b):
    if f not in n:
        print("regression: %s/%s has no counterpart in a fresh run" % (base, f)); differ += 1
    elif body(os.path.join(base, f)) != body(os.path.join(now, f)):
        print("regression: %s/%s differs from a fresh run" % (base, f)); differ += 1
for f in sorted(n - b):
    print("regression: a fresh run writes %s/%s, which the baseline lacks" % (base, f)); differ += 1
sys.exit(1 if differ else 0)
PY
then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
