#!/bin/sh
# interrupt.sh BUILD_DIR — SIGINT and SIGTERM in the middle of `run` leave
# the output directory exactly as it was (same files, same bytes, no
# temporaries) and exit 130 and 143; after the case directories were
# swapped in, SIGINT says so and exits 1.  Ends with "N passed, N failed".
set -u
VB="$1/verletbench"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

snapshot() { (cd "$tmp/res" && find . -type f | sort | xargs md5sum); }

# the results before: spring with 8 seeds; the interrupted run redoes spring
# with its 16 seeds first, so a run that wrote case by case would change it
mkdir -p "$tmp/old"
sed "s/^seeds = 16/seeds = 8/; s|^trace = .*|trace = $ROOT/cases/traces/frames-60hz.trace|" "$ROOT/cases/spring.case" > "$tmp/old/spring.case"
"$VB" run --quiet "$tmp/old/spring.case" --out "$tmp/res" || { echo "FAIL interrupt: first run"; exit 1; }
# a case that takes seconds (7 s here, 1.5 s before the interrupt): 12 halvings, 64 seeds
sed "s/^halvings = 6/halvings = 12/; s/^seeds = 16/seeds = 64/; s|^trace = .*|trace = $ROOT/cases/traces/frames-60hz.trace|" "$ROOT/cases/spring.case" > "$tmp/long.case"
snapshot > "$tmp/before"

for sig in INT TERM; do
    want=$([ $sig = INT ] && echo 130 || echo 143)
    "$VB" run --quiet "$ROOT/cases/spring.case" "$tmp/long.case" --out "$tmp/res" 2>"$tmp/err" &
    pid=$!
    sleep 1.5
    kill -$sig $pid
    wait $pid
    rc=$?
    snapshot > "$tmp/after"
    if [ $rc -ne $want ]; then
        echo "FAIL interrupt: SIG$sig: exit $rc, want $want"; fail=$((fail + 1))
    else pass=$((pass + 1)); fi
    if cmp -s "$tmp/before" "$tmp/after"; then pass=$((pass + 1)); else
        echo "FAIL interrupt: SIG$sig changed the output directory:"; diff "$tmp/before" "$tmp/after" | head; fail=$((fail + 1)); fi
    left=$(find "$tmp/res" -name '*.tmp.*' | wc -l)
    if [ "$left" -eq 0 ] && [ ! -d "$tmp/res/long" ]; then pass=$((pass + 1)); else
        echo "FAIL interrupt: SIG$sig left $left temporaries or a partial case"; fail=$((fail + 1)); fi
    if grep -q "interrupted" "$tmp/err"; then pass=$((pass + 1)); else
        echo "FAIL interrupt: SIG$sig: no message"; fail=$((fail + 1)); fi
done

# ---- an interrupt after the case directories were swapped in ----
# run writes every case directory, then prints the tables; with stdout a
# pipe nobody reads it blocks there (a grid of 120 points: its tables are
# well over a pipe's 64 kB).  SIGINT then must not claim that no file was
# changed (it did, exit 130): it names the directory replaced, whole, and
# exits 1; every point and summary.md are there
cat > "$tmp/wide.case" <<'EOF'
[case]
model = spring
k = 1 .. 120 step 1
t_end = 6
[steps]
dt = 0.1
halvings = 2
[integrators]
use = velocity-verlet
EOF
mkfifo "$tmp/pipe"
sleep 120 < "$tmp/pipe" &
reader=$!
"$VB" run "$tmp/wide.case" --out "$tmp/wide" > "$tmp/pipe" 2>"$tmp/err" &
pid=$!
k=0
while [ ! -f "$tmp/wide/summary.md" ] && [ $k -lt 600 ]; do sleep 0.1; k=$((k + 1)); done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
kill $reader 2>/dev/null; wait $reader 2>/dev/null
if [ $rc -eq 1 ] && grep -q "interrupted after case directories in $tmp/wide were replaced (each whole" "$tmp/err" &&
        ! grep -q "no output file was changed" "$tmp/err"; then pass=$((pass + 1)); else
    echo "FAIL interrupt: SIGINT after the swap: exit $rc (want 1), said: $(cat "$tmp/err")"; fail=$((fail + 1)); fi
points=$(ls -d "$tmp/wide"/wide@k=* 2>/dev/null | wc -l)
if [ "$points" -eq 120 ] && [ -f "$tmp/wide/wide/grid.csv" ] && [ "$(grep -c '^## wide@' "$tmp/wide/summary.md")" -eq 120 ]; then
    pass=$((pass + 1)); else echo "FAIL interrupt: after the swap: $points points, summary.md or grid.csv missing"; fail=$((fail + 1)); fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
