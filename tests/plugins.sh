#!/bin/sh
# plugins.sh BUILD_DIR — plugins and the regression check:
#  - the example plugins build from their Makefiles against the installed
#    header; the integrator measures the order its method has (Forest-Ruth:
#    4), the model (a Lennard-Jones dimer) conserves what it should under
#    rk4 and gives velocity Verlet its order 2 against a reference;
#  - a missing file, a foreign library, another ABI version or a malformed
#    table is refused with exit 2 and a message that says which;
#  - mutation check: a baseline from correct integrators (tests/plugins/
#    mutants.c), then each mutant must be below-label and fail `check`, naming
#    itself, while a mutant that only reorders additions passes;
#  - the committed baseline edited to claim tcv was 10x more accurate makes
#    `check` exit 1 naming tcv; a baseline from other parameters exits 2.
# Ends with "N passed, N failed".
set -u
BUILD=$1
VB="$(cd "$BUILD" && pwd)/verletbench"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL plugins: $*"; fail=$((fail + 1)); }

# expect NAME STATUS PATTERN -- COMMAND...: exit status and a fixed string in its output
expect() {
    name=$1 want=$2 pattern=$3
    shift 4
    "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" -ne "$want" ]; then
        bad "$name: exit $got, want $want"; sed 's/^/    /' "$tmp/out" | head -20
    elif ! grep -qF -- "$pattern" "$tmp/out"; then
        bad "$name: output lacks '$pattern'"; sed 's/^/    /' "$tmp/out" | head -20
    else
        ok
    fi
}

plugin_cc() {  # OUT SOURCE [FLAGS...]
    out=$1 src=$2
    shift 2
    $CC -std=c11 -fPIC -shared -ffp-contract=off -O2 -I"$ROOT/src" "$@" -o "$out" "$src" -lm
}

cd "$ROOT" || exit 1

# ---- the example plugin, built as the README says: install, then make ----
make -s install DESTDIR="$tmp/inst" PREFIX=/usr >"$tmp/log" 2>&1 || { bad "make install"; cat "$tmp/log"; }
cp -r examples/plugin "$tmp/example"
rm -f "$tmp/example/forest-ruth.so"
if make -s -C "$tmp/example" PREFIX="$tmp/inst/usr" >"$tmp/log" 2>&1 && [ -f "$tmp/example/forest-ruth.so" ]; then
    ok
else
    bad "examples/plugin does not build against the installed header"; cat "$tmp/log"
fi
FR="$tmp/example/forest-ruth.so"

# ---- what make install puts beside the binary: the man page; the charts need nothing ----
if MANPATH="$tmp/inst/usr/share/man" MANWIDTH=80 man verletbench 2>"$tmp/manerr" | grep -q "verletbench - measure how accurate"; then ok
else bad "man verletbench does not show the installed page"; cat "$tmp/manerr"; fi
man --warnings -l docs/verletbench.1 2>&1 >/dev/null | grep -q . && { bad "the man page has groff warnings"; man --warnings -l docs/verletbench.1 2>&1 >/dev/null | head; } || ok
# charts from a results directory anywhere, with the installed binary alone
# (the source tree out of its sight: a copy of the binary elsewhere draws too)
mkdir -p "$tmp/elsewhere"
cp -r cases/spring.case cases/traces "$tmp/elsewhere/"
(cd "$tmp/elsewhere" && "$tmp/inst/usr/bin/verletbench" run --quiet spring.case --out res) >"$tmp/log" 2>&1 || { bad "installed run"; cat "$tmp/log"; }
if command -v gnuplot >/dev/null 2>&1; then
    cp "$tmp/inst/usr/bin/verletbench" "$tmp/elsewhere/vb-copy"
    (cd "$tmp/elsewhere" && ./vb-copy draw res charts) >"$tmp/log" 2>&1
    if [ -s "$tmp/elsewhere/charts/spring/convergence.png" ] && [ -s "$tmp/elsewhere/res/REPORT.md" ]; then ok
    else bad "verletbench draw by a copy of the installed binary drew nothing"; cat "$tmp/log"; fi
    (cd "$tmp/elsewhere" && "$tmp/inst/usr/bin/verletbench" draw --chart convergence res/spring/convergence.csv one.png spring) >"$tmp/log" 2>&1
    if [ -s "$tmp/elsewhere/one.png" ]; then ok
    else bad "the installed verletbench draw --chart drew nothing"; cat "$tmp/log"; fi
fi
[ -x "$tmp/inst/usr/share/verletbench/float32-sweep.sh" ] && ok || bad "make install leaves out the float32 sweep's script"
expect "draw without results" 2 "no such directory" -- "$tmp/inst/usr/bin/verletbench" draw "$tmp/none"
expect "list --plugin" 0 "forest-ruth      4" -- "$VB" list --plugin "$FR"
# a reader that goes away (`| head -1`) ends the command by SIGPIPE, with
# a plugin as without one, and with no word of a plugin's doing: the
# pipe's reading end is closed before the command starts (deterministic,
# where a shell's `| head`, or closing it after the start, races the
# writer: on a loaded machine the command wrote its 12 kB into the pipe
# first and exited 0)
for with in "" "--plugin $FR"; do
    got=$(python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.Popen(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
os.close(w)
err = p.stderr.read().decode()
print(p.wait(), repr(err))' "$VB" list $with 2>&1)
    if [ "$got" = "-13 ''" ]; then ok
    else bad "list ${with:-without a plugin} into a closed pipe: killed by SIGPIPE, nothing said (got: $got)"; fi
done
expect "sim --plugin" 0 "orbit,forest-ruth,fixed" -- "$VB" sim --plugin "$FR" --integrator forest-ruth --model orbit --dt 0.01
# a plugin built against the ABI-2 header (its vb_integrator ends before
# set_tolerance) still loads, and runs to the same bits as built today
$CC -std=c11 -fPIC -shared -ffp-contract=off -O2 -I"$ROOT/tests/plugins/abi2" \
    -o "$tmp/fr2.so" examples/plugin/forest_ruth.c -lm 2>"$tmp/log" || { bad "the ABI-2 build"; cat "$tmp/log"; }
if "$VB" sim --plugin "$tmp/fr2.so" --integrator forest-ruth --model orbit --dt 0.01 >"$tmp/abi2.out" 2>&1 &&
    "$VB" sim --plugin "$FR" --integrator forest-ruth --model orbit --dt 0.01 >"$tmp/abi3.out" 2>&1 &&
    cmp -s "$tmp/abi2.out" "$tmp/abi3.out"; then ok
else bad "an ABI-2 plugin: $(cat "$tmp/abi2.out")"; fi
cat > "$tmp/fr.case" <<'EOF'
[case]
model = spring
t_end = 6.283185307179586
[steps]
dt = 0.2
halvings = 4
jitter = 0.5
seeds = 4
[integrators]
use = forest-ruth, velocity-verlet
EOF
if "$VB" run --plugin "$FR" "$tmp/fr.case" --out "$tmp/fr" --quiet --no-chart-data >"$tmp/log" 2>&1; then
    # Forest-Ruth is fourth order: with fixed and with random steps (one-step method)
    for plan in fixed random; do
        line=$(grep "^forest-ruth,$plan,err_pos_max," "$tmp/fr/fr/orders.csv")
        order=$(echo "$line" | cut -d, -f4)
        verdict=$(echo "$line" | cut -d, -f7)
        if [ "$verdict" = as-expected ] && awk "BEGIN{exit !($order > 3.8 && $order < 4.3)}"; then ok; else
            bad "forest-ruth $plan order $order ($verdict), want 4 as-expected"; fi
    done
else
    bad "run --plugin"; cat "$tmp/log"
fi

# ---- the example model plugin (your own force law), built the same way ----
cp -r examples/model-plugin "$tmp/model"
rm -f "$tmp/model/lj-dimer.so"
if make -s -C "$tmp/model" PREFIX="$tmp/inst/usr" >"$tmp/log" 2>&1 && [ -f "$tmp/model/lj-dimer.so" ]; then
    ok
else
    bad "examples/model-plugin does not build against the installed header"; cat "$tmp/log"
fi
LJ="$tmp/model/lj-dimer.so"
expect "list a plugin model" 0 "lj-dimer        3-D, 2 particles" -- "$VB" list --plugin "$LJ"
expect "a plugin model's own check" 2 "the dimer is not bound" -- "$VB" sim --plugin "$LJ" --model lj-dimer --set spin=2 --integrator rk4
# Its force must be minus the gradient of its energy, pairwise and opposite:
# then rk4 at dt = 1e-3 keeps the energy to ~C dt^4 (4.6e-10 over ten
# vibrations; a force off by any factor or sign loses it at 1e-3 or worse),
# and the momentum, zero at the start, stays zero to round-off (1e-13).
if "$VB" sim --plugin "$LJ" --model lj-dimer --integrator rk4 --dt 0.001 --t-end 6 >"$tmp/lj.csv" 2>"$tmp/log"; then
    if python3 -c '
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[0]
ok = (r["status"] == "ok" and float(r["err_energy_max"]) < 1e-9 and float(r["err_momentum_max"]) <= 1e-13
      and float(r["err_angmom_max"]) < 1e-9 and 0 < float(r["ref_err_pos"]) < 1e-12)
sys.exit(0 if ok else 1)' "$tmp/lj.csv"; then ok; else bad "lj-dimer under rk4 does not conserve what it should"; cat "$tmp/lj.csv"; fi
else
    bad "sim on the plugin model"; cat "$tmp/log"
fi
# a sweep of it, from the example's case file: velocity Verlet is second
# order on it with fixed steps, measured against the reference
if (cd "$tmp/model" && "$VB" run --plugin ./lj-dimer.so lj-dimer.case --out "$tmp/ljres" --quiet --no-chart-data) >"$tmp/log" 2>&1; then
    line=$(grep "^velocity-verlet,fixed,err_pos_max," "$tmp/ljres/lj-dimer/orders.csv")
    order=$(echo "$line" | cut -d, -f4)
    verdict=$(echo "$line" | cut -d, -f7)
    if [ "$verdict" = as-expected ] && awk "BEGIN{exit !($order > 1.9 && $order < 2.1)}"; then ok; else
        bad "velocity-verlet on lj-dimer: order $order ($verdict), want 2 as-expected"; fi
    grep -q "^# truth: no exact solution; a reference" "$tmp/ljres/lj-dimer/runs.csv" && ok || bad "lj-dimer's runs.csv does not say its truth is a reference"
else
    bad "run on the plugin model"; cat "$tmp/log"
fi

# ---- a model whose force stops being a number ----
plugin_cc "$tmp/breaking.so" tests/plugins/breaking.c
plugin_cc "$tmp/bad-default.so" tests/plugins/breaking.c -DBAD_DEFAULT
expect "a default outside its own range" 2 "parameter breaks: its default 0.5 is not in its own range >= 1" -- "$VB" list --plugin "$tmp/bad-default.so"
expect "sim: the reference stops where the force fails" 1 "the reference solution could not go on past t = 3" -- "$VB" sim --plugin "$tmp/breaking.so" --model breaking --integrator velocity-verlet --dt 0.01
mkdir -p "$tmp/brk"
cp cases/spring.case "$tmp/brk/spring.case"
cp -r cases/traces "$tmp/brk/"
cat > "$tmp/brk/breaking.case" <<'CASE'
[case]
model = breaking
t_end = 6
[steps]
dt = 0.05
halvings = 3
jitter = 0.5
seeds = 2
[integrators]
use = velocity-verlet, rk4
CASE
# one case whose truth fails does not take the others down: both written, exit 0
if "$VB" run --quiet --plugin "$tmp/breaking.so" "$tmp/brk/spring.case" "$tmp/brk/breaking.case" --out "$tmp/brkres" >"$tmp/log" 2>&1 &&
        [ -s "$tmp/brkres/spring/runs.csv" ] && grep -q ',exact-failed,' "$tmp/brkres/breaking/runs.csv" &&
        ! grep -q ',ok,' "$tmp/brkres/breaking/runs.csv"; then ok
else bad "a case whose reference fails: run did not finish both cases"; cat "$tmp/log"; fi
if command -v gnuplot >/dev/null 2>&1; then
    if "$VB" draw "$tmp/brkres" "$tmp/brkplots" >"$tmp/log" 2>&1 && [ -s "$tmp/brkplots/breaking/convergence.png" ]; then ok
    else bad "charts of a case with no finite error failed"; cat "$tmp/log"; fi
fi

# ---- bad plugins: exit 2, and the message says what is wrong ----
expect "missing plugin" 2 "--plugin $tmp/none.so: cannot load" -- "$VB" list --plugin "$tmp/none.so"
echo "int x;" > "$tmp/foreign.c"
plugin_cc "$tmp/foreign.so" "$tmp/foreign.c"
expect "not a plugin" 2 "no symbol 'verletbench_plugin': not a verletbench plugin" -- "$VB" list --plugin "$tmp/foreign.so"
for variant in ABI COUNT NOSTEP TAKEN RESERVED NEWLINE TWICE MODEL_TAKEN MODEL_DIM; do
    plugin_cc "$tmp/bad-$variant.so" tests/plugins/malformed.c -DBAD_$variant
done
expect "a summary with a line break" 2 "integrator malformed: its summary holds a control character" -- "$VB" list --plugin "$tmp/bad-NEWLINE.so"
# list --csv is CSV: a plugin's summary with a quote and a comma stays one field
plugin_cc "$tmp/quoted.so" tests/plugins/malformed.c -DQUOTED
"$VB" list --csv --plugin "$tmp/quoted.so" > "$tmp/list.csv"
if python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
ok = all(len(r) == 8 for r in rows) and ["integrator", "malformed", "2", "no", "", "", "says \"hello\", then more", ""] in rows
sys.exit(0 if ok else 1)' "$tmp/list.csv"; then ok; else bad "list --csv is not valid CSV"; cat "$tmp/list.csv"; fi
expect "wrong ABI" 2 "built for plugin ABI version 99, this verletbench has version 4 (and loads 2)" -- "$VB" list --plugin "$tmp/bad-ABI.so"
expect "count 0" 2 "malformed table: 0 integrators and 0 models" -- "$VB" sim --plugin "$tmp/bad-COUNT.so" --model spring --integrator tcv
expect "no step" 2 "start, step, observe and reverse are required (step is NULL)" -- "$VB" run --plugin "$tmp/bad-NOSTEP.so" "$tmp/fr.case"
expect "name taken" 2 "integrator name 'tcv' is already taken" -- "$VB" check --plugin "$tmp/bad-TAKEN.so"
expect "reserved name" 2 "integrator name 'exact' is reserved" -- "$VB" list --plugin "$tmp/bad-RESERVED.so"
expect "plugin twice" 2 "integrator name 'forest-ruth' is already taken" -- "$VB" list --plugin "$FR" --plugin "$FR"
expect "one name twice in a plugin" 2 "the name 'malformed' appears twice" -- "$VB" list --plugin "$tmp/bad-TWICE.so"
expect "a plugin model named as a built-in" 2 "model name 'spring' is already taken" -- "$VB" list --plugin "$tmp/bad-MODEL_TAKEN.so"
expect "a plugin model of 4 dimensions" 2 "model hyper: dim" -- "$VB" list --plugin "$tmp/bad-MODEL_DIM.so"
expect "--plugin without a value" 2 "--plugin needs a value" -- "$VB" list --plugin

# ---- plugins that end their process: kept apart from everything else ----
# tests/plugins/failing.c: 'fragile' (velocity Verlet) does FAIL on its
# finest step size of the three, 'steady' (the same method) never fails.
# Each way of ending fails fragile's runs at that step size alone, with
# the reason, and exit 1; everything else is the same bytes as beside the
# well-behaved build (a plugin's exit(0) made run write nothing and check
# exit 0 with no output)
cat > "$tmp/fl.case" <<'EOF'
[case]
model = spring
t_end = 6.283185307179586
[steps]
dt = 0.2
halvings = 3
[integrators]
use = fragile, steady, velocity-verlet
EOF
for v in GOOD EXIT QUICK CRASH ABORT HANG; do
    plugin_cc "$tmp/failing-$v.so" tests/plugins/failing.c -DFAIL=$v
done
plugin_cc "$tmp/failing-load.so" tests/plugins/failing.c -DLOAD_EXIT
"$VB" run --quiet --plugin "$tmp/failing-GOOD.so" "$tmp/fl.case" --out "$tmp/fl-GOOD" >"$tmp/log" 2>&1 || { bad "the well-behaved build of failing.c"; cat "$tmp/log"; }
for m in "EXIT exit status 0" "QUICK exit status 0" "CRASH signal 11" "ABORT signal 6" "HANG no result within 1 s"; do
    v=${m%% *} why=${m#* }
    "$VB" run --quiet --plugin "$tmp/failing-$v.so" --plugin-timeout 1 "$tmp/fl.case" --out "$tmp/fl-$v" >"$tmp/out" 2>&1
    rc=$?
    failed=$(grep -c ',plugin-failed,' "$tmp/fl-$v/fl/runs.csv" 2>/dev/null)
    if [ $rc -eq 1 ] && [ "$failed" = 1 ] && grep -q '^spring,fragile,fixed,0.0498665[0-9]*,.*,plugin-failed,' "$tmp/fl-$v/fl/runs.csv" &&
            grep -q "plugin integrator fragile (failing-$v.so): run fixed-L2 (plan fixed, level 2): .*$why" "$tmp/out"; then ok
    else bad "$v: exit $rc (want 1), $failed plugin-failed rows (want fragile's at dt 0.05), reason '$why'"; sed 's/^/    /' "$tmp/out" | head -5; fi
    # every other result as beside the good build: steady's and the
    # built-in's rows, and whatever does not name fragile
    same=1
    for f in runs orders onestep reverse timeseries paths; do
        grep -v fragile "$tmp/fl-GOOD/fl/$f.csv" | grep -v '^# verletbench' > "$tmp/a"
        grep -v fragile "$tmp/fl-$v/fl/$f.csv" | grep -v '^# verletbench' > "$tmp/b"
        cmp -s "$tmp/a" "$tmp/b" || { same=0; echo "    $f.csv differs"; }
    done
    [ $same = 1 ] && ok || bad "$v: the results of the integrators that did not fail changed"
done
# a plugin model whose force crashes after t = 3: every run on it fails,
# the other case of the run stands
cat > "$tmp/br.case" <<'EOF'
[case]
model = brittle
t_end = 6
[steps]
dt = 0.2
halvings = 3
jitter = 0.5
seeds = 2
[integrators]
use = velocity-verlet, rk4
EOF
"$VB" run --quiet --plugin "$tmp/failing-CRASH.so" "$tmp/br.case" "$tmp/fl.case" --out "$tmp/br" >"$tmp/out" 2>&1
rc=$?
rows=$(grep -vc '^#' "$tmp/br/br/runs.csv" 2>/dev/null)
failed=$(grep -c ',plugin-failed,' "$tmp/br/br/runs.csv" 2>/dev/null)
if [ $rc -eq 1 ] && [ "$rows" -eq 19 ] && [ "$failed" -eq 18 ] && cmp -s "$tmp/br/fl/runs.csv" "$tmp/fl-CRASH/fl/runs.csv" &&
        grep -q "velocity-verlet on the plugin model brittle (failing-CRASH.so): run fixed-L0 (plan fixed, level 0): its worker process crashed: killed by signal 11" "$tmp/out"; then ok
else bad "a crashing plugin model: exit $rc, $failed of $rows rows plugin-failed (want 18 of 19 lines), the other case as alone"; head -3 "$tmp/out"; fi
expect "check with the plugin that exits: never a pass" 1 "FAILED:" -- \
    "$VB" check --plugin "$tmp/failing-EXIT.so" --baseline "$tmp/fl-GOOD" "$tmp/fl.case"
grep -q "WORSE" "$tmp/out" && grep -q "plugin-failed" "$tmp/out" && ok || bad "check does not list fragile's plugin-failed run as worse"
# a plugin that ends the process as it is loaded (_exit(0): no atexit
# handler can see it): the command never exits 0 as if it had done its work
expect "check with a plugin that _exit(0)s when loaded" 1 "ended before it was done (exit status 0)" -- \
    "$VB" check --plugin "$tmp/failing-load.so" --baseline "$tmp/fl-GOOD" "$tmp/fl.case"
expect "run with a plugin that _exit(0)s when loaded" 1 "ended before it was done" -- \
    "$VB" run --plugin "$tmp/failing-load.so" "$tmp/fl.case" --out "$tmp/fl-load"
[ ! -e "$tmp/fl-load/fl" ] && ok || bad "run with a plugin that exits when loaded wrote results"
# shards with the crashing build, merged: the same bytes as one run, and
# the failed run said again (exit 1)
for k in 1 2; do "$VB" run --quiet --plugin "$tmp/failing-CRASH.so" --shard $k/2 "$tmp/fl.case" --out "$tmp/fls$k" >/dev/null 2>&1; done
expect "merge of shards with a plugin-failed run" 1 "run fixed-L2 (plan fixed, level 2): its worker process crashed" -- \
    "$VB" merge --quiet --plugin "$tmp/failing-CRASH.so" "$tmp/fls1" "$tmp/fls2" --out "$tmp/flm"
diff -r "$tmp/flm" "$tmp/fl-CRASH" >/dev/null 2>&1 && ok || bad "the merge of shards with a plugin-failed run differs from the run"

# ---- a plugin whose code forks: its children end with their worker ----
# fragile (FORK) forks a child once a worker process and goes on as
# velocity Verlet; the child would hold the worker's stdout, our stdout,
# for 20 s and then make $VB_TEST_OUTLIVED.  `run | cat` ends when the
# last writer of the pipe does: with the worker's process group killed
# after it finished, the children are gone with it, and the file is never
# made; the tables are the good build's.
plugin_cc "$tmp/failing-FORK.so" tests/plugins/failing.c -DFAIL=FORK
rm -f "$tmp/outlived"
{ VB_TEST_OUTLIVED="$tmp/outlived" "$VB" run --quiet --plugin "$tmp/failing-FORK.so" "$tmp/fl.case" \
    --out "$tmp/fl-FORK" 2>&1; echo "exit $?"; } | cat > "$tmp/out"
if grep -qx 'exit 0' "$tmp/out" && [ ! -e "$tmp/outlived" ]; then ok
else bad "a plugin that forks: its child outlived the run (exit: $(tail -1 "$tmp/out"))"; fi
same=1
for f in runs orders onestep reverse timeseries paths; do
    grep -v '^# verletbench' "$tmp/fl-GOOD/fl/$f.csv" > "$tmp/a"
    grep -v '^# verletbench' "$tmp/fl-FORK/fl/$f.csv" > "$tmp/b" 2>/dev/null
    cmp -s "$tmp/a" "$tmp/b" || { same=0; echo "    $f.csv differs"; }
done
[ $same = 1 ] && ok || bad "a plugin that forks: its tables are not the good build's"

# ---- a plugin's method in a [loop] case: its frame-rate table and its
# charts' long runs go to workers too ----
# rates = 10, 30 Hz: fragile fails on frames of 1/30 s (< 0.07) alone, in
# the frame-rate table alone (the sweep's frames are 0.2 and 0.1).  Its
# 30 Hz row says plugin-failed with its N = ceil(2 pi 30) = 189 frames and
# no number but inf, the run is said with why (a crash; a hang killed by
# --plugin-timeout 1), and every other row and file is the good build's.
# The table's runs were made in this process: the crash killed the
# command, the hang never ended.
cat > "$tmp/rl.case" <<'EOF'
[case]
model = spring
t_end = 6.283185307179586
[steps]
dt = 0.2
halvings = 2
[integrators]
use = fragile, steady, velocity-verlet
[loop]
rates = 10, 30
EOF
"$VB" run --quiet --plugin "$tmp/failing-GOOD.so" "$tmp/rl.case" --out "$tmp/rl-GOOD" >"$tmp/log" 2>&1 ||
    { bad "the well-behaved build of failing.c in a [loop] case with rates"; cat "$tmp/log"; }
for m in "CRASH its worker process crashed: killed by signal 11" "HANG no result within 1 s"; do
    v=${m%% *} why=${m#* }
    timeout 120 "$VB" run --quiet --plugin "$tmp/failing-$v.so" --plugin-timeout 1 "$tmp/rl.case" \
        --out "$tmp/rl-$v" >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 1 ] && [ "$(grep -c ',plugin-failed,' "$tmp/rl-$v/rl/rates.csv" 2>/dev/null)" = 1 ] &&
            grep -q '^fragile@variable,fixed,30,[^,]*,189,plugin-failed,inf,inf,,inf,inf,inf$' "$tmp/rl-$v/rl/rates.csv" &&
            grep -q "plugin integrator fragile@variable (failing-$v.so): run rates-30-fixed (the frame-rate table, 30 Hz, fixed frames): $why" "$tmp/out"; then ok
    else bad "rates, $v: exit $rc (want 1), fragile's 30 Hz row plugin-failed and said ('$why')"; sed 's/^/    /' "$tmp/out" | head -5; fi
    same=1
    for f in rates runs orders timeseries paths; do
        grep -v '^fragile@variable,fixed,30,\|^# verletbench' "$tmp/rl-GOOD/rl/$f.csv" > "$tmp/a"
        grep -v '^fragile@variable,fixed,30,\|^# verletbench' "$tmp/rl-$v/rl/$f.csv" > "$tmp/b" 2>/dev/null
        cmp -s "$tmp/a" "$tmp/b" || { same=0; echo "    $f.csv differs"; }
    done
    [ $same = 1 ] && ok || bad "rates, $v: the rows that did not fail changed"
done
# dt = 0.05: fragile@variable fails on every step size; its sweep's runs
# went to workers, but its charts' long run and path were made in this
# process (the loop's entry is no plugin's; the method inside it is), and
# the crash killed the command with nothing written
sed 's/^dt = 0.2/dt = 0.05/; s/^rates = .*/kind = variable/' "$tmp/rl.case" > "$tmp/sl.case"
# (what the others' charts are: the case without fragile, whose rows the
# good build's name the same as steady's)
mkdir -p "$tmp/slref"; sed 's/^use = .*/use = steady, velocity-verlet/' "$tmp/sl.case" > "$tmp/slref/sl.case"
"$VB" run --quiet --plugin "$tmp/failing-GOOD.so" "$tmp/slref/sl.case" --out "$tmp/sl-GOOD" >"$tmp/log" 2>&1 ||
    { bad "the [loop] case without fragile"; cat "$tmp/log"; }
timeout 120 "$VB" run --quiet --plugin "$tmp/failing-CRASH.so" "$tmp/sl.case" --out "$tmp/sl-CRASH" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "plugin integrator fragile@variable (failing-CRASH.so): run long-fixed (the charts' long run, plan fixed): its worker process crashed" "$tmp/out" &&
        grep -q "plugin integrator fragile@variable (failing-CRASH.so): its path for the charts, plan fixed (left out): its worker process crashed" "$tmp/out"; then ok
else bad "a [loop] case's long run of a crashing plugin: exit $rc (want 1), its long run and path said"; sed 's/^/    /' "$tmp/out" | head -5; fi
for f in timeseries paths; do
    grep -v 'fragile\|^#' "$tmp/sl-GOOD/sl/$f.csv" > "$tmp/a"
    grep -v 'fragile\|^#' "$tmp/sl-CRASH/sl/$f.csv" > "$tmp/b" 2>/dev/null
    cmp -s "$tmp/a" "$tmp/b" && ok || bad "a [loop] case's $f.csv: the rows of the methods that did not fail changed"
done

# ---- mutation check ----
for v in GOOD VV_SWAPPED VVAR_H2 PV_NO_HALF ROUNDOFF; do
    plugin_cc "$tmp/mut-$v.so" tests/plugins/mutants.c -DVARIANT=$v
done
# a spring, an orbit and a projectile: round-off behaves differently on each
for model in spring orbit projectile; do
    cat > "$tmp/ut-$model.case" <<EOF
[case]
model = $model
t_end = 5
[steps]
dt = 0.05
halvings = 5
jitter = 0.5
seeds = 8
[integrators]
use = vv-ut, vvar-ut, pv-ut, velocity-verlet
EOF
done
CASES="$tmp/ut-spring.case $tmp/ut-orbit.case $tmp/ut-projectile.case"
"$VB" run --plugin "$tmp/mut-GOOD.so" $CASES --out "$tmp/base" --quiet --no-chart-data >"$tmp/log" 2>&1 || { bad "baseline of the correct plugin"; cat "$tmp/log"; }
expect "correct plugin against its own baseline" 0 "passed:" -- "$VB" check --plugin "$tmp/mut-GOOD.so" --baseline "$tmp/base" $CASES
expect "round-off-only mutant passes" 0 "0 worse" -- "$VB" check --plugin "$tmp/mut-ROUNDOFF.so" --baseline "$tmp/base" $CASES

# mutant  integrator  plan whose verdict must fail the label
for m in "VV_SWAPPED vv-ut fixed" "VVAR_H2 vvar-ut random" "PV_NO_HALF pv-ut fixed"; do
    set -- $m
    v=$1 integ=$2 plan=$3
    "$VB" check --plugin "$tmp/mut-$v.so" --baseline "$tmp/base" $CASES >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 1 ]; then ok; else bad "$v: check exit $rc, want 1"; sed 's/^/    /' "$tmp/out" | head; fi
    # the table names the mutated integrator, and nothing the mutant left alone
    worse=$(sed -n '/^WORSE/,/^$/p' "$tmp/out" | awk 'NR > 2 && NF {print $2}' | sort -u | tr '\n' ' ')
    case " $worse" in
        *" $integ "*) ok ;;
        *) bad "$v: WORSE table does not name $integ (names: $worse)" ;;
    esac
    case " $worse" in
        *" velocity-verlet "*) bad "$v: the built-in velocity-verlet is reported worse" ;;
        *) ok ;;
    esac
    "$VB" run --plugin "$tmp/mut-$v.so" "$tmp/ut-spring.case" --out "$tmp/mut-$v" --quiet --no-chart-data >/dev/null 2>&1
    verdict=$(grep "^$integ,$plan,err_pos_max," "$tmp/mut-$v/ut-spring/orders.csv" | cut -d, -f7)
    # below its label, or (vv_swapped: its error does not fall at all) not converging
    case $verdict in below-label | not-converging) ok ;;
        *) bad "$v: $integ $plan verdict '$verdict', want below-label or not-converging" ;; esac
done

# ---- run --strict: a CI job guarding its own integrators ----
cat > "$tmp/strict-fixed.case" <<EOF
[case]
model = spring
t_end = 5
[steps]
dt = 0.05
halvings = 5
[integrators]
use = vv-ut, vvar-ut, pv-ut
EOF
cat > "$tmp/strict-random.case" <<EOF
[case]
model = spring
t_end = 5
[steps]
dt = 0.05
halvings = 5
jitter = 0.5
seeds = 8
[integrators]
use = vvar-ut
EOF
SC="$tmp/strict-fixed.case $tmp/strict-random.case"
expect "strict: the correct plugin meets every label" 0 "| \`vvar-ut\` | 2 |" -- "$VB" run --strict --plugin "$tmp/mut-GOOD.so" $SC --out "$tmp/strict" --no-chart-data
# each mutant fails, naming what it broke, the plan and the verdict, and
# nothing it left alone (PV_NO_HALF breaks the start that pv-ut and
# vvar-ut share: both)
for v in VV_SWAPPED VVAR_H2 PV_NO_HALF; do
    case $v in
        VV_SWAPPED) want="vv-ut fixed;" ;;
        VVAR_H2) want="vvar-ut random;" ;;
        PV_NO_HALF) want="pv-ut fixed;vvar-ut fixed;vvar-ut random;" ;;
    esac
    "$VB" run --strict --plugin "$tmp/mut-$v.so" $SC --out "$tmp/strict-$v" --quiet --no-chart-data >"$tmp/out" 2>&1
    rc=$?
    named=$(grep "strict: .*case: " "$tmp/out" | sed 's/.*case: \([^,]*\), \([a-z]*\) steps.*/\1 \2/' | sort -u | tr '\n' ';')
    if [ $rc -eq 1 ] && [ "$named" = "$want" ] && grep -q "label 2: \(below-label\|not-converging\)" "$tmp/out"; then
        ok
    else
        bad "strict, $v: exit $rc (want 1), named '$named' (want '$want')"; sed 's/^/    /' "$tmp/out" | head
    fi
    # and everything is still written
    [ -f "$tmp/strict-$v/strict-fixed/orders.csv" ] && ok || bad "strict, $v: the tables are written"
done

# --strict=mine judges the plugin's methods alone: beside the built-ins
# verlet and tcv, which random steps put below their label (not-converging,
# below-label), the correct plugin passes and --strict fails; a mutant
# still fails, naming itself and no built-in; a case of built-ins alone
# is refused (it would judge nothing)
sed 's/^use = .*/use = verlet, tcv, vvar-ut/' "$tmp/strict-random.case" > "$tmp/strict-mine.case"
expect "strict: built-ins below their label fail --strict" 1 "tcv, random steps" -- "$VB" run --strict --plugin "$tmp/mut-GOOD.so" "$tmp/strict-mine.case" --out "$tmp/sm" --quiet --no-chart-data
expect "strict=mine: the plugin meets its label, the built-ins are not judged" 0 "| \`vvar-ut\` | 2 |" -- "$VB" run --strict=mine --plugin "$tmp/mut-GOOD.so" "$tmp/strict-mine.case" --out "$tmp/sm" --no-chart-data
"$VB" run --strict=mine --plugin "$tmp/mut-VVAR_H2.so" "$tmp/strict-mine.case" --out "$tmp/sm" --quiet --no-chart-data >"$tmp/out" 2>&1
rc=$?
named=$(grep "strict: .*case: " "$tmp/out" | sed 's/.*case: \([^,]*\), .*/\1/' | sort -u | tr '\n' ' ')
[ $rc -eq 1 ] && [ "$named" = "vvar-ut " ] && ok || { bad "strict=mine, VVAR_H2: exit $rc (want 1), named '$named' (want vvar-ut only)"; head "$tmp/out"; }
expect "strict=mine without a method of yours" 2 "--strict=mine: none of these cases runs a method of yours" -- "$VB" run --strict=mine cases/spring.case --out "$tmp/sm2"
[ ! -e "$tmp/sm2" ] && ok || bad "strict=mine refused, yet it wrote $tmp/sm2"
expect "strict=what" 2 "--strict=some: give --strict" -- "$VB" run --strict=some "$tmp/strict-mine.case" --out "$tmp/sm2"

# ---- the committed baseline, edited to claim tcv used to be 10x more accurate ----
mkdir -p "$tmp/edited"
cp -r results/baseline/spring "$tmp/edited/"
awk -F, 'BEGIN{OFS=","} /^#/ || /^model,/ {print; next}
    { if ($2 == "tcv") for (i = 10; i <= 15; i++) if ($i != "" && $i != "inf") $i = $i / 10; print }' \
    results/baseline/spring/runs.csv > "$tmp/edited/spring/runs.csv"
"$VB" check --baseline "$tmp/edited" cases/spring.case >"$tmp/out" 2>&1
rc=$?
worse=$(sed -n '/^WORSE/,/^$/p' "$tmp/out" | awk 'NR > 2 && NF {print $2}' | sort -u | tr '\n' ' ')
if [ $rc -eq 1 ] && [ "$worse" = "tcv " ]; then ok; else
    bad "baseline claiming tcv 10x better: exit $rc (want 1), worse: '$worse' (want tcv only)"; head -20 "$tmp/out"; fi
grep -q "x10 " "$tmp/out" && ok || bad "the change column does not show the factor 10"

# the unedited baseline passes, and a stale or absent one is bad input
expect "committed baseline, spring" 0 "0 worse" -- "$VB" check cases/spring.case
sed 's/^# dt=0.05/# dt=0.04/' results/baseline/spring/runs.csv > "$tmp/edited/spring/runs.csv"
expect "baseline from other parameters" 2 "the baseline was made with other parameters" -- "$VB" check --baseline "$tmp/edited" cases/spring.case
expect "no baseline dir" 2 "--baseline $tmp/nowhere: no such directory" -- "$VB" check --baseline "$tmp/nowhere"
expect "no baseline for a case" 2 "no baseline for case 'fr'" -- "$VB" check --baseline "$tmp/edited" "$tmp/fr.case" --plugin "$FR"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
