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
# the libraries line aside
body() { tail -n +2 "$1" | grep -v '^# libraries: ' | cksum; }
differ=0
for f in results/baseline/*/*; do
    case_dir=$(basename "$(dirname "$f")")
    g="$tmp/now/$case_dir/$(basename "$f")"
    if [ ! -f "$g" ]; then
        echo "regression: $f has no counterpart in a fresh run"; differ=$((differ + 1))
    elif [ "$(body "$f")" != "$(body "$g")" ]; then
        echo "regression: $f differs from a fresh run"; differ=$((differ + 1))
    fi
done
for g in "$tmp"/now/*/*; do
    f="results/baseline/$(basename "$(dirname "$g")")/$(basename "$g")"
    [ -f "$f" ] || { echo "regression: a fresh run writes $f, which the baseline lacks"; differ=$((differ + 1)); }
done
if [ $differ -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
