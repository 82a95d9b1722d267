#!/bin/sh
# shards.sh BUILD_DIR — run --shard K/N and merge (issue 20): 4 shards run
# by GNU parallel and merged equal one whole run byte for byte, with and
# without chart data, on cases with an exact solution, a reference solution
# and adaptive methods, and on every other kind of case (issue 52 item 5):
# a rigid body, frame loops, contact handlers, and engines on particles, on
# a rigid body and at a contact; the shards share the work fairly (Graham's
# bound for the largest-first rule); and a missing, doubled, cut, foreign or
# stale shard is refused with exit 2, naming it.  Last line: N passed, N failed.
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VB=$(cd "$BUILD" && pwd)/verletbench
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL shards: $*"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vb-shards.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
expect() {  # WHAT STATUS TEXT -- CMD...
    what=$1 want=$2 text=$3
    shift 4
    "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" = "$want" ] && grep -qF -- "$text" "$tmp/out"; then ok
    else bad "$what: exit $got (want $want), output lacks '$text':"; sed 's/^/    /' "$tmp/out" | head -5; fi
}

cd "$ROOT" || exit 1
if ! command -v parallel >/dev/null 2>&1; then
    bad "GNU parallel is not installed (Debian: apt-get install parallel; make check installs it as root)"
    echo "$pass passed, $fail failed"
    exit 1
fi
# an exact solution, a reference solution, adaptive methods, many bodies,
# and a grid (five points, split over the shards together)
CASES="cases/spring.case cases/figure-eight.case cases/work-precision.case cases/chain-8.case cases/spring-jitter.case"

# ---- four shards through GNU parallel, merged, against one whole run ----
for mode in charts tables; do
    flag=""; [ $mode = tables ] && flag=--no-chart-data
    rm -rf "$tmp/s" "$tmp/merged" "$tmp/whole"
    # --will-cite: parallel's one-time notice would otherwise ask on a tty
    if parallel --will-cite "$VB" run --quiet $flag -j 1 --shard {}/4 $CASES --out "$tmp/s/{}" \
            ::: 1 2 3 4 >"$tmp/log" 2>&1; then ok; else bad "parallel run --shard ($mode)"; cat "$tmp/log"; fi
    "$VB" merge --quiet $flag "$tmp"/s/* --out "$tmp/merged" >"$tmp/log" 2>&1 || { bad "merge ($mode)"; cat "$tmp/log"; }
    "$VB" run --quiet $flag $CASES --out "$tmp/whole" >"$tmp/log" 2>&1 || { bad "whole run ($mode)"; cat "$tmp/log"; }
    if diff -r "$tmp/merged" "$tmp/whole" >"$tmp/diff" 2>&1; then ok
    else bad "the merge of 4 shards differs from the whole run ($mode)"; head -5 "$tmp/diff"; fi
done
# ---- every kind of case (issue 52 item 5: these were refused, exit 2): a
# rigid body (the racket, with an engine), frame loops with the frame-rate table, an
# accumulator's own physics step and a semi-fixed loop's own step count,
# contact handlers on the bounce, the slide and the tunnel, and engines
# from a case file's [engines] and from --engine: on particles (protocol
# 2), on a rigid body (protocol 3) and at a contact (protocol 4, the
# closed-form engine); four shards through GNU parallel, merged, against
# one whole run, byte for byte ----
mkdir -p "$tmp/k"
cp -r cases/traces "$tmp/k/"
{ cat cases/spring.case
  printf '\n[engines]\npy = python3 %s/examples/engines/python/engine.py velocity-verlet\npy.order = 2\n' "$ROOT"
} > "$tmp/k/spring-engine.case"
{ cat cases/racket.case
  printf '\n[engines]\nrig = python3 %s/examples/engines/python/rigid_engine.py rigid-splitting\nrig.order = 2\n' "$ROOT"
} > "$tmp/k/racket-engine.case"
KINDS="cases/frame-loop.case cases/frame-loop-orbit.case cases/jump.case cases/drop.case cases/impulse.case cases/bounce.case cases/bounce-elastic.case cases/slide.case cases/tunnel.case cases/roll.case cases/box-incline.case $tmp/k/spring-engine.case $tmp/k/racket-engine.case"
CLOSED="closed=node $ROOT/engines/check/contact-exact.js"
# with the chart data (the tables and the charts' files: the two modes of
# the cases above differ in nothing a kind of case adds), and an engine of
# --engine at a contact without
for mode in charts; do
    flag=""
    rm -rf "$tmp/ks" "$tmp/km" "$tmp/kw" "$tmp/ke"
    if parallel --will-cite "$VB" run --quiet $flag -j 1 --shard {}/4 $KINDS --out "$tmp/ks/{}" \
            ::: 1 2 3 4 >"$tmp/log" 2>&1; then ok; else bad "parallel run --shard of every kind ($mode)"; tail -5 "$tmp/log"; fi
    "$VB" merge --quiet $flag "$tmp"/ks/* --out "$tmp/km" >"$tmp/log" 2>&1 || { bad "merge of every kind ($mode)"; tail -5 "$tmp/log"; }
    "$VB" run --quiet $flag $KINDS --out "$tmp/kw" >"$tmp/log" 2>&1 || { bad "whole run of every kind ($mode)"; tail -5 "$tmp/log"; }
    if diff -r "$tmp/km" "$tmp/kw" >"$tmp/diff" 2>&1; then ok
    else bad "the merge of 4 shards of every kind differs from the whole run ($mode)"; head -5 "$tmp/diff"; fi
    # an engine of --engine at a contact: merge is given it as run was
    flag=--no-chart-data
    parallel --will-cite "$VB" run --quiet $flag -j 1 --engine "'$CLOSED'" --shard {}/3 cases/bounce.case cases/tunnel.case \
        --out "$tmp/ke/s{}" ::: 1 2 3 >"$tmp/log" 2>&1 || { bad "run --shard --engine at a contact (tables)"; tail -5 "$tmp/log"; }
    "$VB" merge --quiet $flag --engine "$CLOSED" "$tmp"/ke/s* --out "$tmp/ke/m" >"$tmp/log" 2>&1 || { bad "merge --engine (tables)"; tail -5 "$tmp/log"; }
    "$VB" run --quiet $flag --engine "$CLOSED" cases/bounce.case cases/tunnel.case --out "$tmp/ke/w" >"$tmp/log" 2>&1 || { bad "whole run --engine (tables)"; tail -5 "$tmp/log"; }
    if diff -r "$tmp/ke/m" "$tmp/ke/w" >"$tmp/diff" 2>&1; then ok
    else bad "the merge of 3 shards with an engine at a contact differs from the whole run (tables)"; head -5 "$tmp/diff"; fi
done
# what the shards carried and the tables were made of, not an empty run:
# the racket's flips, a loop's drawn errors, the handlers' contact rows and
# the engines' rows, every one finished
grep -q '^rig,fixed,' "$tmp/km/racket-engine/flips.csv" 2>/dev/null && ok || bad "the rigid engine's runs are not in racket-engine's flips.csv"
# a rigid body at a contact (a solver's rows): its body measures survive the
# shards (merge refused them before shard.csv carried them: has_angmom, and
# err_angmom_max of a body whose L its contact turns)
grep -v '^#' "$tmp/km/roll/contact.csv" 2>/dev/null | head -1 | grep -q ',t_roll,' &&
    grep -q '^roll,rigid-splitting+toi,fixed,' "$tmp/km/roll/contact.csv" && ok ||
    bad "the roll's solver rows or their body measures are not in the merged contact.csv"
# and their orders in dt, derived from the merged runs (the diff above
# holds them to the whole run's): fitted ones, and none for a wall's case
grep -q '^rigid-explicit-gyro+pgs,fixed,s_roll,0\.9' "$tmp/km/roll/contact_orders.csv" 2>/dev/null &&
    grep -q '^rigid-splitting+toi,fixed,creep,,0,exact,' "$tmp/km/box-incline@mu_s=0.7/contact_orders.csv" &&
    [ ! -e "$tmp/km/bounce/contact_orders.csv" ] && ok ||
    bad "the merged contact_orders.csv lacks the roll's or the held box's fitted orders, or a wall's case has one"
grep -q '^spring,py,fixed,' "$tmp/km/spring-engine/runs.csv" && ok || bad "the engine's runs are not in spring-engine's runs.csv"
[ "$(grep -c ',engine-failed,' "$tmp/km/spring-engine/runs.csv" "$tmp/km/racket-engine/runs.csv" | awk -F: '{ s += $2 } END { print s }')" = 0 ] && ok ||
    bad "engine runs failed in the shards: $(grep -h ',engine-failed,' "$tmp/km"/*-engine/runs.csv | head -2)"
grep -q '^tunnel,closed,fixed,' "$tmp/ke/m/tunnel/contact.csv" && grep -q '^bounce,velocity-verlet+toi,' "$tmp/km/bounce/contact.csv" && ok || bad "contact.csv of the merge lacks the handlers' or the engine's rows"
[ -s "$tmp/km/frame-loop/rates.csv" ] && head -n 40 "$tmp/km/frame-loop/runs.csv" | grep -q 'err_draw_max' && ok || bad "the frame loop's merge lacks rates.csv or the drawn errors"
# a rigid body's row damaged in a shard: its attitude error NaN, and its
# flag of the attitude's measures 0 where run writes 1 (columns 39, 38)
f=$(grep -l '^[0-9]*,rigid-rk4,fixed,0,' "$tmp"/ks/*/racket-engine/shard.csv | head -1)
if [ -n "$f" ]; then
    line=$(grep -n '^[0-9]*,rigid-rk4,fixed,0,' "$f" | cut -d: -f1)
    for edit in '$39 = "nan"' '$38 = 0'; do
        rm -rf "$tmp/kd"; cp -r "$tmp/ks" "$tmp/kd"
        g="$tmp/kd/${f#$tmp/ks/}"
        awk -F, -v OFS=, -v n="$line" "NR == n { $edit } { print }" "$f" > "$g"
        col=$([ "$edit" = '$38 = 0' ] && echo has_attitude || echo err_att_max)
        expect "merge refuses a rigid body's row with $edit" 2 "racket-engine/shard.csv:$line: column $col" -- \
            "$VB" merge --no-chart-data "$tmp"/kd/* --out "$tmp/kdm"
    done
else
    bad "no rigid-rk4 fixed level-0 row in the racket-engine's shards"
fi
# a shard of an engine's case merged without the engine given: refused
expect "merge without the --engine the shards ran with" 2 "made by another version or from other parameters" -- \
    "$VB" merge --quiet --no-chart-data "$tmp"/ke/s* --out "$tmp/ke/none"

# a shard writes its runs and nothing else
[ "$(ls "$tmp/s/1/spring")" = "shard.csv" ] && [ ! -e "$tmp/s/1/summary.md" ] && ok || bad "a shard wrote more than shard.csv: $(ls "$tmp/s/1" "$tmp/s/1/spring")"
# one shard, or as many as the runs, is a whole run too
"$VB" run --quiet --no-chart-data --shard 1/1 cases/spring.case --out "$tmp/one" >/dev/null 2>&1 &&
    "$VB" merge --quiet --no-chart-data "$tmp/one" --out "$tmp/onem" >/dev/null 2>&1 &&
    "$VB" run --quiet --no-chart-data cases/spring.case --out "$tmp/onew" >/dev/null 2>&1 &&
    diff -r "$tmp/onem" "$tmp/onew" >/dev/null && ok || bad "--shard 1/1 and merge differ from a run"

# ---- balance: the largest-first rule keeps every shard within 4/3 of the
# best possible (Graham 1969), which is at least the mean and the largest
# task; the costs are the runs' steps (random plans' as generated) ----
python3 - "$tmp/s" <<'PY' || bad "shards unbalanced"
import csv, glob, os, sys
loads, tasks = {}, {}
for f in glob.glob(os.path.join(sys.argv[1], "*", "*", "shard.csv")):
    k = f.split(os.sep)[-3]
    rows = [r for r in csv.DictReader(l for l in open(f) if not l.startswith("#"))]
    for r in rows:
        case = f.split(os.sep)[-2]
        key = (case, r["plan"], r["level"], r["seed"])
        tasks[key] = tasks.get(key, 0) + int(r["steps"])
        loads[k] = loads.get(k, 0) + int(r["steps"])
mean = sum(loads.values()) / len(loads)
bound = 4 / 3 * max(mean, max(tasks.values()))
# 10 %: the rule balances the plans' step bounds; random plans take a
# little fewer steps than their bound
ok = max(loads.values()) <= 1.1 * bound
print("loads", sorted(loads.values()), "mean %.0f, largest task %d" % (mean, max(tasks.values())))
sys.exit(0 if ok else 1)
PY
[ $? = 0 ] && ok

# ---- what merge refuses, exit 2, naming the shard ----
S="$tmp/s"
expect "a missing shard" 2 "chain-8: shard 3/4 is missing" -- "$VB" merge "$S/1" "$S/2" "$S/4" --out "$tmp/m1"
cp -r "$S/2" "$tmp/again"
expect "a shard twice" 2 "shard 2/4 given twice" -- "$VB" merge "$S"/* "$tmp/again" --out "$tmp/m2"
[ ! -e "$tmp/m1" ] && [ ! -e "$tmp/m2" ] && ok || bad "a refused merge wrote its --out"
cp -r "$S/3" "$tmp/cut"
head -n 20 "$S/3/spring/shard.csv" > "$tmp/cut/spring/shard.csv"
expect "a cut shard" 2 "a cut shard" -- "$VB" merge "$S/1" "$S/2" "$tmp/cut" "$S/4" --out "$tmp/m3"
cp -r "$S/4" "$tmp/old"
sed -i '1s/^# verletbench [^:]*:/# verletbench 0.0.1 (git 000000000000):/' "$tmp/old/spring/shard.csv"
expect "another version" 2 "made by another version or from other parameters" -- "$VB" merge "$S/1" "$S/2" "$S/3" "$tmp/old" --out "$tmp/m4"
cp -r "$S/4" "$tmp/row"
sed -i '/^[0-9]/{s/,ok,/,nope,/;}' "$tmp/row/spring/shard.csv"
expect "a damaged row" 2 "column status: 'nope'" -- "$VB" merge "$S/1" "$S/2" "$S/3" "$tmp/row" --out "$tmp/m5"
# rows run could never have written: each refused, exit 2, naming
# shard.csv:LINE and the column (merge took them, and the fit dropped a
# NaN error silently).  doctor NAME STATUS AWK-ASSIGNMENT COLUMN: the first
# row of that status in shard 4's spring, changed so
doctor() {
    rm -rf "$tmp/doc"; cp -r "$S/4" "$tmp/doc"
    f="$tmp/doc/spring/shard.csv"
    line=$(awk -F, -v st="$2" '$6 == st { print NR; exit }' "$f")
    awk -F, -v OFS=, -v n="$line" "NR == n { $3 } { print }" "$S/4/spring/shard.csv" > "$f"
    expect "merge refuses $1" 2 "spring/shard.csv:$line: column $4" -- \
        "$VB" merge --no-chart-data "$S/1" "$S/2" "$S/3" "$tmp/doc" --out "$tmp/mdoc"
}
doctor "an ok run with a NaN error" ok '$19 = "nan"' "err_pos_max: nan"
doctor "an ok run with a negative error" ok '$22 = "-0x1p-3"' "err_vel_max: -0x1p-3"
doctor "an ok run with an infinite energy error" ok '$23 = "inf"' "err_energy_max: inf"
doctor "an ok run of fewer steps than its plan" ok '$7 = $7 - 1' "steps:"
doctor "a t_end not the plan's" ok '$17 = "0x1.8p+1"' "t_end: 0x1.8p+1"
doctor "a dt not the plan's" ok '$16 = "0x1p-4"' "dt: 0x1p-4"
doctor "a fail_step on an ok run" ok '$9 = 3' "fail_step: 3"
doctor "a flag the case does not have" ok '$15 = 1' "has_constraint: 1"
doctor "an error the case does not measure" ok '$25 = "0x1p-40"' "err_momentum_max: 0x1p-40"
doctor "diverged with finite errors" ok '$6 = "diverged"; $9 = $7' "err_pos_final:"
[ ! -e "$tmp/mdoc" ] && ok || bad "a refused merge wrote its --out"
# shards of a case file that changed between them
mkdir -p "$tmp/c"
cp -r cases/traces "$tmp/c/"
cp cases/spring.case "$tmp/c/spring.case"
for k in 1 2; do "$VB" run --quiet --no-chart-data --shard $k/2 "$tmp/c/spring.case" --out "$tmp/c/s$k" >/dev/null 2>&1; done
sed -i 's/^dt = 0.05/dt = 0.04/' "$tmp/c/spring.case"
expect "other parameters" 2 "where this verletbench and $tmp/c/spring.case give '# dt=0.040000000000000001" -- \
    "$VB" merge --no-chart-data "$tmp/c/s1" "$tmp/c/s2" --out "$tmp/m6"
"$VB" run --quiet --no-chart-data --shard 1/3 "$tmp/c/spring.case" --out "$tmp/c/t1" >/dev/null 2>&1
expect "shards of another N" 2 "in 2 shards" -- "$VB" merge --no-chart-data "$tmp/c/s2" "$tmp/c/t1" --out "$tmp/m7"
expect "not a shard directory" 2 "no NAME/shard.csv in it" -- "$VB" merge "$tmp/c" --out "$tmp/m8"
expect "no directories" 2 "no shard directories given" -- "$VB" merge --out "$tmp/m9"
# a grid's tables need every point: one left out of every shard is named
mkdir -p "$tmp/nopoint"
for k in 1 2 3 4; do cp -r "$S/$k" "$tmp/nopoint/$k"; rm -rf "$tmp/nopoint/$k/spring-jitter@jitter=0.5"; done
expect "a grid point missing" 2 "grid point spring-jitter@jitter=0.5 has no shards in the directories given" -- \
    "$VB" merge "$tmp"/nopoint/* --out "$tmp/m10"
# a shard of a point the grid no longer has (the case file's grid changed)
cp -r "$S/1" "$tmp/stray"
mv "$tmp/stray/spring-jitter@jitter=0.5" "$tmp/stray/spring-jitter@jitter=0.6"
expect "a point not in the grid" 2 "in a directory named spring-jitter@jitter=0.6, but its case file cases/spring-jitter.case is a grid whose points are" -- \
    "$VB" merge "$tmp/stray" "$S/2" "$S/3" "$S/4" --out "$tmp/m11"

# ---- shards of two builds: refused, naming which ----
# two builds of one plugin (tests/plugins/mutants.c, correct and with its
# velocity Verlet's 1/2 on the wrong term: the same names), one a shard,
# merged, mixed two methods into one order; now each shard records every
# plugin its case uses by content, and a merge with another build is
# refused, whichever build it loads
CC=${CC:-cc}
mkdir -p "$tmp/pl/a" "$tmp/pl/b"
for v in GOOD VV_SWAPPED; do
    d=$([ $v = GOOD ] && echo a || echo b)
    $CC -std=c11 -fPIC -shared -ffp-contract=off -O2 -Isrc -DVARIANT=$v -o "$tmp/pl/$d/mut.so" tests/plugins/mutants.c -lm \
        || bad "build mutants.c $v"
done
cat > "$tmp/pl/ut.case" <<'EOF'
[case]
model = spring
t_end = 5
[steps]
dt = 0.05
halvings = 4
[integrators]
use = vv-ut, velocity-verlet
EOF
"$VB" run --quiet --no-chart-data --plugin "$tmp/pl/a/mut.so" --shard 1/2 "$tmp/pl/ut.case" --out "$tmp/pl/s1" >/dev/null 2>&1 &&
    "$VB" run --quiet --no-chart-data --plugin "$tmp/pl/b/mut.so" --shard 2/2 "$tmp/pl/ut.case" --out "$tmp/pl/s2" >/dev/null 2>&1 &&
    "$VB" run --quiet --no-chart-data --plugin "$tmp/pl/a/mut.so" --shard 2/2 "$tmp/pl/ut.case" --out "$tmp/pl/s2a" >/dev/null 2>&1 ||
    bad "shards with a plugin"
grep -q "^# inputs: build .* plugin mut.so fnv1a=" "$tmp/pl/s1/ut/shard.csv" && ok || bad "a shard does not record its plugin: $(grep '^# inputs' "$tmp/pl/s1/ut/shard.csv")"
for d in a b; do
    expect "shards of two builds of a plugin, merged with build $d" 2 "made with another build of a plugin" -- \
        "$VB" merge --quiet --no-chart-data --plugin "$tmp/pl/$d/mut.so" "$tmp/pl/s1" "$tmp/pl/s2" --out "$tmp/pl/m$d"
done
"$VB" merge --quiet --no-chart-data --plugin "$tmp/pl/a/mut.so" "$tmp/pl/s1" "$tmp/pl/s2a" --out "$tmp/pl/ma" >"$tmp/out" 2>&1 &&
    [ -s "$tmp/pl/ma/ut/runs.csv" ] && ok || { bad "shards of one build of a plugin do not merge"; cat "$tmp/out"; }
# two builds of verletbench with one version text (two -dirty builds of a
# commit): the shard records the build's own id, a hash of its sources
# and compile command, which --version prints
id=$("$VB" --version | sed -n 's/^build //p')
# make gives one source tree and compile command one id, and another
# (a comment added to a source file, or other flags) another
mkdir -p "$tmp/tree"
cp -r src Makefile VERSION "$tmp/tree/"
buildid() { make -s -C "$tmp/tree" BUILD="$tmp/tree/$1" "$tmp/tree/$1/version.h" ${2:-} >/dev/null 2>&1; sed -n 's/.*VB_BUILD_ID "\(.*\)"/\1/p' "$tmp/tree/$1/version.h"; }
i1=$(buildid b1); i2=$(buildid b2)
echo "/* a change */" >> "$tmp/tree/src/numerics/plan.c"
i3=$(buildid b3); i4=$(buildid b4 CFLAGS=-O3)
if [ -n "$i1" ] && [ "$i1" = "$i2" ] && [ "$i3" != "$i1" ] && [ -n "$i3" ] && [ "$i4" != "$i3" ]; then ok
else bad "build ids: the same tree $i1 $i2, a source changed $i3, other flags $i4"; fi
grep -q "^# inputs: build $id trace" "$tmp/pl/s1/ut/shard.csv" && [ ${#id} = 16 ] && ok || bad "a shard does not record the build ($id)"
cp -r "$tmp/pl/s2a" "$tmp/pl/other"
sed -i "s/^# inputs: build $id /# inputs: build 0123456789abcdef /" "$tmp/pl/other/ut/shard.csv"
expect "a shard of another build of verletbench, its version the same" 2 "made by another build of verletbench" -- \
    "$VB" merge --quiet --no-chart-data --plugin "$tmp/pl/a/mut.so" "$tmp/pl/s1" "$tmp/pl/other" --out "$tmp/pl/mo"

# ---- the Slurm example, with the variables Slurm would set ----
mkdir -p "$tmp/slurm/cases" "$tmp/slurm/shards"
cp -r cases/spring.case cases/traces "$tmp/slurm/cases/"
(
    cd "$tmp/slurm" && export PATH="$(dirname "$VB"):$PATH" CASES=cases/spring.case &&
    for k in 1 2 3; do
        SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_ID=$k bash "$ROOT/examples/slurm/sweep.sbatch" || exit 1
    done &&
    bash "$ROOT/examples/slurm/merge.sbatch" && verletbench run --quiet cases/spring.case --out whole
) >"$tmp/log" 2>&1
if [ $? = 0 ] && diff -r "$tmp/slurm/results" "$tmp/slurm/whole" >/dev/null 2>&1; then ok
else bad "examples/slurm: the array's merge differs from a run"; tail -5 "$tmp/log"; fi

# a trace edited between the shards and the merge
for k in 1 2; do "$VB" run --quiet --no-chart-data --shard $k/2 "$tmp/c/spring.case" --out "$tmp/c/r$k" >/dev/null 2>&1; done
sed -i '0,/^0\.0/s/^0\.0\([0-9]\)/0.0\1\1/' "$tmp/c/traces/frames-60hz.trace"
expect "a trace changed since" 2 "the trace changed since the shard was made" -- \
    "$VB" merge --no-chart-data "$tmp/c/r1" "$tmp/c/r2" --out "$tmp/m10"
# --out must not be, hold or lie in a shard directory: it would replace them
expect "--out a shard" 2 "the merge would replace what it reads" -- "$VB" merge "$S"/* --out "$S/2"
expect "--out in a shard" 2 "the merge would replace what it reads" -- "$VB" merge "$S"/* --out "$S/2/new"
expect "--out above the shards" 2 "the merge would replace what it reads" -- "$VB" merge "$S"/* --out "$S"
[ -f "$S/2/spring/shard.csv" ] && [ ! -e "$S/2/new" ] && ok || bad "a refused --out touched the shards"
# a FIFO in place of a shard: refused at once, not waited on
cp -r "$S/1" "$tmp/fifo" && rm "$tmp/fifo/spring/shard.csv" && mkfifo "$tmp/fifo/spring/shard.csv"
expect "a FIFO shard" 2 "not a shard of verletbench run --shard: a regular file" -- \
    timeout 20 "$VB" merge "$tmp/fifo" "$S/2" "$S/3" "$S/4" --out "$tmp/m11"
cp -r "$S/1" "$tmp/bign" && sed -i '1s|shard 1/4 |shard 1/2000000000 |' "$tmp/bign/spring/shard.csv"
expect "a huge N" 2 "1 <= K <= N <= 10000" -- timeout 20 "$VB" merge "$tmp/bign" --out "$tmp/m12"

# ---- run --shard's own usage ----
for bad_spec in 0/4 5/4 1/0 a/b 1/4x 2 -1/4 1/10001; do
    expect "--shard $bad_spec" 2 "--shard: '$bad_spec' is not K/N" -- "$VB" run --shard "$bad_spec" cases/spring.case --out "$tmp/u"
done
expect "--shard with --strict" 2 "--strict needs them all" -- "$VB" run --strict --shard 1/2 cases/spring.case --out "$tmp/u"
expect "merge --help" 0 "verletbench merge SHARDDIR" -- "$VB" merge --help

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
