#!/bin/sh
# check.sh BUILD_DIR — `verletbench check` judges what it should and refuses
# what it cannot read:
#  - a false alarm that must not happen: tcv turned into verlet-var (as a
#    plugin, tests/plugins/improved.c) against a tcv baseline is better, not
#    worse, although its final-time errors and one coarse step size got worse;
#  - damaged baselines never pass: cut to the header, a column renamed, an
#    integrator's rows gone, cells blank or inf, a duplicate or a long key
#    (exit 2 naming file:line or the column); runs the baseline has and the
#    new results lack fail (exit 1); a CRLF copy is still the same baseline;
#  - --save onto the baseline is refused, however it is spelled;
#  - doctored baselines never pass (a small case's own fresh baseline,
#    edited): --save into the baseline tree (a subdirectory, one still to be
#    made, through a link or a bind mount); the '# integrators=' line gone
#    with rows, or listing an integrator without rows; orders.csv whose '#'
#    lines are gone or from other parameters; a column named twice; steps,
#    scales or dt that are not the run made now (they would set the
#    round-off floor); cells the writer never writes (garbage, hexadecimal,
#    blanks around a number, nan or inf where it writes none, an order
#    missing beside a verdict that has one): exit 2, naming file:line and
#    the column;
#  - check leaves no temporary directory, even when interrupted;
#  - contact.csv: each handler's measures judged by their distance from the
#    exact value (a mutant toi that gains energy, edited baselines and
#    results fail naming row and column; a damaged contact.csv exit 2);
#    a row a run of its runs.csv (cut to its header or rows deleted: exit
#    2; a dropped integrator's runs missing once; random runs paired by
#    their seed);
#  - contact_orders.csv: a body's contact measures' orders judged as
#    orders.csv's (an order lower by more than 0.05, a verdict of a lower
#    rank: worse, naming the row); a damaged cell, an order outside its
#    local orders or beside exact, the table gone: exit 2;
#  - flips.csv: read as contact.csv is (cut, emptied, damaged cells: exit 2),
#    its count and period judged; cells no run writes refused (contact.csv's
#    bounces 3.5, a status not its run's; an order 1e308 or outside its local
#    orders); compare names the integrator whose runs are gone;
#  - stacks.csv: read as flips.csv is (cut, a row deleted, damaged cells,
#    iterations not the case's: exit 2), a collapse where the baseline
#    stood and a larger drift worse (exit 1, naming the row);
#  - compare OLD NEW reports what check reports on the same tables, compares
#    6 halvings against 9 on the step sizes both have, refuses other
#    parameters (exit 2), and a case gone from NEW is missing (exit 1).
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
bad() { echo "FAIL check: $*"; fail=$((fail + 1)); }

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

cd "$ROOT" || exit 1

# ---- the false alarm: an improvement is not a regression ----
for v in TCV VAR; do
    $CC -std=c11 -fPIC -shared -ffp-contract=off -O2 -Isrc -DVARIANT=$v \
        -o "$tmp/improved-$v.so" tests/plugins/improved.c -lm || bad "build improved.c $v"
done
mkdir -p "$tmp/fa"
cp -r cases/traces "$tmp/fa/"
for c in spring orbit projectile damped-spring pendulum; do
    sed 's/^use = .*/use = tcv-ut/' "cases/$c.case" > "$tmp/fa/$c.case"
done
FA="$tmp/fa/spring.case $tmp/fa/orbit.case $tmp/fa/projectile.case $tmp/fa/damped-spring.case $tmp/fa/pendulum.case"
"$VB" run --quiet --no-chart-data --plugin "$tmp/improved-TCV.so" $FA --out "$tmp/fa-base" \
    >"$tmp/log" 2>&1 || { bad "the tcv baseline"; cat "$tmp/log"; }
expect "tcv made verlet-var passes" 0 "0 worse" -- \
    "$VB" check --plugin "$tmp/improved-VAR.so" --baseline "$tmp/fa-base" $FA
# ... and lists the improvement: the random-step order from 1 to 2
grep -E "spring +tcv-ut +random +all .*order err_pos_max +1\.0[0-9] below-label +2\.0[0-9] as-expected" \
    "$tmp/out" >/dev/null && ok || { bad "the improvement of the order is not listed"; head -30 "$tmp/out"; }
# the final-time errors that got worse are shown, not judged
grep -q "^final-time errors that changed" "$tmp/out" && ok || bad "final-time changes not listed"
# and the other way round it is a regression
"$VB" run --quiet --no-chart-data --plugin "$tmp/improved-VAR.so" "$tmp/fa/spring.case" \
    --out "$tmp/fa-varbase" >/dev/null 2>&1
expect "verlet-var made tcv fails" 1 "order err_pos_max" -- \
    "$VB" check --plugin "$tmp/improved-TCV.so" --baseline "$tmp/fa-varbase" "$tmp/fa/spring.case"

# ---- damaged baselines ----
B="$tmp/b"
fresh() { rm -rf "$B"; mkdir -p "$B"; cp -r results/baseline/spring "$B/"; }
R="$B/spring/runs.csv"
O="$B/spring/orders.csv"
chk() { "$VB" check --baseline "$B" cases/spring.case; }

fresh
expect "an intact copy passes" 0 "0 worse" -- chk
fresh; grep '^#\|^model,' results/baseline/spring/runs.csv > "$R"
expect "runs.csv cut to its header" 2 "runs.csv: no runs, only a header" -- chk
fresh; grep '^#\|^integrator,' results/baseline/spring/orders.csv > "$O"
expect "orders.csv cut to its header" 2 "orders.csv: no orders, only a header" -- chk
fresh; sed 's/,err_pos_max,/,err_pos_mx,/' results/baseline/spring/runs.csv > "$R"
expect "a metric column renamed" 2 "no column 'err_pos_max' in the header" -- chk
fresh; sed 's/,verdict,/,verdikt,/' results/baseline/spring/orders.csv > "$O"
expect "orders: a column renamed" 2 "no column 'verdict' in the header" -- chk
fresh; grep -v '^spring,tcv,' results/baseline/spring/runs.csv > "$R"
expect "the rows of one integrator deleted" 2 "0 runs of tcv, the plan in its header makes" -- chk
fresh; awk '!/^spring,tcv,random,/ || NR % 2' results/baseline/spring/runs.csv > "$R"
expect "half the random rows of one integrator deleted" 2 "runs of tcv, the plan in its header makes" -- chk
fresh; grep -v '^tcv,' results/baseline/spring/orders.csv > "$O"
expect "the orders of one integrator deleted" 2 "no order of tcv" -- chk
# a metric cell blank, then inf, on the first tcv row (field 11 is err_pos_max)
line=$(grep -n '^spring,tcv,' "$R" | head -1 | cut -d: -f1)
fresh; awk -F, -v n="$line" 'BEGIN{OFS=","} NR == n {$11 = ""} {print}' results/baseline/spring/runs.csv > "$R"
expect "a blank metric cell" 2 "runs.csv:$line: err_pos_max = ''" -- chk
fresh; awk -F, -v n="$line" 'BEGIN{OFS=","} NR == n {$11 = "inf"} {print}' results/baseline/spring/runs.csv > "$R"
expect "an inf metric cell in a finished run" 2 "runs.csv:$line: err_pos_max = 'inf'" -- chk
fresh; awk -F, -v n="$line" 'BEGIN{OFS=","} NR == n {$11 = "0.1x"} {print}' results/baseline/spring/runs.csv > "$R"
expect "a cell that is not a number" 2 "runs.csv:$line: err_pos_max = '0.1x'" -- chk
fresh; { cat results/baseline/spring/runs.csv; sed -n "${line}p" results/baseline/spring/runs.csv; } > "$R"
expect "a duplicate run" 2 "the same run as line $line" -- chk
fresh; awk -F, -v n="$line" 'BEGIN{OFS=","} NR == n {$2 = "t" sprintf("%0300d", 0)} {print}' results/baseline/spring/runs.csv > "$R"
expect "a 300-character key cell" 2 "runs.csv:$line: integrator 't000" -- chk
fresh; sed "${line}s/,ok,/,ok,extra,/" results/baseline/spring/runs.csv > "$R"
nf=$(grep -v '^#' results/baseline/spring/runs.csv | head -1 | awk -F, '{print NF}')
expect "a row with a field too many" 2 "runs.csv:$line: $((nf + 1)) fields, the header has $nf" -- chk
fresh; sed 's/^spring,tcv,/spring,tcv2,/' results/baseline/spring/runs.csv > "$R"
expect "an integrator the header does not list" 2 "integrator tcv2 is not in the header's list" -- chk
fresh; sed 's/$/\r/' results/baseline/spring/runs.csv > "$R"; sed 's/$/\r/' results/baseline/spring/orders.csv > "$O"
expect "a CRLF copy of the baseline passes" 0 "0 worse" -- chk
# runs the baseline has and the new results do not: exit 1, named
# (its orders.csv, written by the same run, lists and fits it too)
fresh; sed 's/^# integrators=\(.*\)$/# integrators=\1,extra-ut/' results/baseline/spring/runs.csv > "$R"
grep '^spring,tcv,' results/baseline/spring/runs.csv | sed 's/^spring,tcv,/spring,extra-ut,/' >> "$R"
sed 's/^# integrators=\(.*\)$/# integrators=\1,extra-ut/' results/baseline/spring/orders.csv > "$O"
grep '^tcv,' results/baseline/spring/orders.csv | sed 's/^tcv,/extra-ut,/' >> "$O"
expect "a baseline run no longer made" 1 "MISSING" -- chk
# the message names the case file, not a guess at cases/NAME.case
fresh; sed 's/^# dt=0.05/# dt=0.04/' results/baseline/spring/runs.csv > "$R"
cp cases/spring.case "$tmp/fa/other-place.case"
mkdir -p "$B/other-place"; cp "$B/spring/"* "$B/other-place/"
expect "another parameter names the case file" 2 "than $tmp/fa/other-place.case has now" -- \
    "$VB" check --baseline "$B" "$tmp/fa/other-place.case"

# ---- --save onto the baseline ----
fresh
before=$(cat "$B"/spring/*.csv | cksum)
expect "--save DIR = --baseline DIR" 2 "is the baseline itself" -- "$VB" check --baseline "$B" --save "$B" cases/spring.case
expect "--save DIR/. " 2 "is the baseline itself" -- "$VB" check --baseline "$B" --save "$B/." cases/spring.case
ln -s "$B" "$tmp/link"
expect "--save through a symbolic link" 2 "is the baseline itself" -- "$VB" check --baseline "$B" --save "$tmp/link/" cases/spring.case
mkdir -p "$tmp/sub"
expect "--save by a path through .." 2 "is the baseline itself" -- "$VB" check --baseline "$B" --save "$tmp/sub/../b" cases/spring.case
[ "$(cat "$B"/spring/*.csv | cksum)" = "$before" ] && ok || bad "the baseline was changed by a refused --save"
expect "--save elsewhere works" 0 "0 worse" -- "$VB" check --baseline "$B" --save "$tmp/saved" cases/spring.case
# the same tables but for the line naming the version that made them
if [ "$(tail -n +2 "$tmp/saved/spring/runs.csv" | cksum)" = "$(tail -n +2 "$B/spring/runs.csv" | cksum)" ]; then ok
else bad "--save did not write the same runs.csv"; fi

# ---- doctored baselines: a small case, its fresh baseline edited ----
mkdir -p "$tmp/sm"
cp -r cases/traces "$tmp/sm/"
cat > "$tmp/sm/small.case" <<EOF
[case]
model = spring
t_end = 6.283185307179586
[steps]
dt = 0.05
halvings = 4
jitter = 0.5
seeds = 3
trace = traces/frames-60hz.trace
[integrators]
use = euler, tcv, rk4
EOF
SC="$tmp/sm/small.case"
"$VB" run --quiet --no-chart-data "$SC" --out "$tmp/sm-base" >"$tmp/log" 2>&1 || { bad "the small baseline"; cat "$tmp/log"; }
S="$tmp/s"
SR0="$tmp/sm-base/small/runs.csv"
SO0="$tmp/sm-base/small/orders.csv"
SR="$S/small/runs.csv"
SO="$S/small/orders.csv"
sfresh() { rm -rf "$S"; mkdir -p "$S"; cp -r "$tmp/sm-base/small" "$S/"; }
schk() { "$VB" check --baseline "$S" "$SC"; }
# cell COLUMN VALUE PATTERN FILE: the table with COLUMN set to VALUE on every
# row matching the regular expression PATTERN
cell() {
    awk -F, -v col="$1" -v val="$2" -v pat="$3" 'BEGIN{OFS=","}
        /^#/ {print; next}
        !h {h = 1; for (i = 1; i <= NF; i++) if ($i == col) c = i; print; next}
        $0 ~ pat {$c = val} {print}' "$4"
}
# the line number of the first row matching PATTERN
first() { grep -n -- "$1" "$2" | head -1 | cut -d: -f1; }

sfresh
expect "the small baseline passes intact" 0 "0 worse" -- schk

# --save into the baseline tree: whatever it writes there becomes the baseline
sfresh
before=$(cat "$S"/small/*.csv | cksum)
expect "--save into a case directory of the baseline" 2 "lies inside the baseline" -- \
    "$VB" check --baseline "$S" --save "$S/small" "$SC"
expect "--save to a directory still to be made in the baseline" 2 "lies inside the baseline" -- \
    "$VB" check --baseline "$S" --save "$S/new/deeper/" "$SC"
[ -e "$S/new" ] && bad "a refused --save made $S/new" || ok
ln -s "$S/small" "$tmp/small-link"
expect "--save through a link into the baseline" 2 "lies inside the baseline" -- \
    "$VB" check --baseline "$S" --save "$tmp/small-link/x" "$SC"
mkdir -p "$tmp/elsewhere"
expect "--save through .. into the baseline" 2 "lies inside the baseline" -- \
    "$VB" check --baseline "$S" --save "$tmp/elsewhere/../s/small/../x" "$SC"
# the same directory under another name: a bind mount (in a user and mount
# namespace of our own, where the system allows one)
if unshare -rm true 2>/dev/null; then
    mkdir -p "$tmp/bind"
    expect "--save into a bind mount of the baseline" 2 "lies inside the baseline" -- \
        unshare -rm sh -c 'mount --bind "$1" "$2" && exec "$3" check --baseline "$1" --save "$2/small" "$4"' \
        sh "$S" "$tmp/bind" "$VB" "$SC"
    expect "--save onto a bind mount of the baseline" 2 "is the baseline itself" -- \
        unshare -rm sh -c 'mount --bind "$1" "$2" && exec "$3" check --baseline "$1" --save "$2" "$4"' \
        sh "$S" "$tmp/bind" "$VB" "$SC"
else
    echo "check: no unshare -rm here: the bind-mount cases are skipped"
fi
[ "$(cat "$S"/small/*.csv | cksum)" = "$before" ] && ok || bad "a refused --save changed the baseline"
expect "--save beside the baseline works" 0 "0 worse" -- \
    "$VB" check --baseline "$S" --save "$tmp/s-beside" "$SC"

# the '# integrators=' line: deleted together with an integrator's rows, the
# integrator would have passed as new
sfresh
grep -v '^# integrators=\|^spring,tcv,' "$SR0" > "$SR"
grep -v '^# integrators=\|^tcv,' "$SO0" > "$SO"
expect "integrators line and tcv's rows deleted" 2 "runs.csv: no '# integrators=' line" -- schk
# an integrator listed in both files, with no rows in either
sfresh
sed 's/^# integrators=.*/&,ghost/' "$SR0" > "$SR"
sed 's/^# integrators=.*/&,ghost/' "$SO0" > "$SO"
expect "a listed integrator without runs" 2 "0 runs of ghost, the plan in its header makes" -- schk
# ... with its runs but without its orders
grep '^spring,tcv,' "$SR0" | sed 's/^spring,tcv,/spring,ghost,/' >> "$SR"
expect "a listed integrator without orders" 2 "no order of ghost, which its header lists" -- schk

# orders.csv: the same '#' lines as its runs.csv, none gone, none changed (the
# line numbers: the version line, the libraries line, the model, the steps,
# the integrators, the columns)
sfresh
grep -v '^#' "$SO0" > "$SO"
expect "orders.csv without its comment lines" 2 "orders.csv: lacks the line '# verletbench" -- schk
sfresh
sed 's/^# dt=0.05/# dt=0.04/' "$SO0" > "$SO"
expect "orders.csv from other parameters" 2 "orders.csv:4: '# dt=0.04" -- schk
sfresh
sed 's/^\(# verletbench [^:]*\): fitted orders of/\1: runs of/' "$SO0" > "$SO"
expect "orders.csv claiming to be runs" 2 "orders.csv:1: '# verletbench" -- schk

# a column named twice: one copy is read, the other could say anything
sfresh
sed 's/,resolved$/,level/' "$SR0" > "$SR"
expect "runs.csv: a column named twice" 2 "runs.csv:6: column 'level' appears twice" -- schk
sfresh
sed 's/,order_ci95$/,order/' "$SO0" > "$SO"
expect "orders.csv: a column named twice" 2 "orders.csv:6: column 'order' appears twice" -- schk

# steps and scales set the round-off floor: a baseline claiming a billion
# steps, or a huge scale, made a real regression look like round-off
sfresh
awk -F, 'BEGIN{OFS=","} /^#/ || /^model,/ {print; next}
    $2 == "tcv" {for (i = 10; i <= 15; i++) if ($i != "") $i = $i / 1000; $7 = 1000000000} {print}' \
    "$SR0" > "$SR"
line=$(first '^spring,tcv,' "$SR")
expect "steps of a billion hiding tcv 1000x worse" 2 "runs.csv:$line: column steps: 1000000000 in the baseline" -- schk
sfresh
awk -F, 'BEGIN{OFS=","} /^#/ || /^model,/ {print; next}
    $2 == "tcv" {for (i = 10; i <= 15; i++) if ($i != "") $i = $i / 1000; $19 = 1e30; $20 = 1e30} {print}' \
    "$SR0" > "$SR"
expect "scales of 1e30 hiding tcv 1000x worse" 2 "runs.csv:$line: column pos_scale: 1e+30 in the baseline" -- schk
sfresh; cell vel_scale 1.0001 '^spring,rk4,fixed,' "$SR0" > "$SR"
expect "a scale off by 1e-4" 2 "column vel_scale: 1.0001 in the baseline" -- schk
sfresh; line=$(first '^spring,euler,random,' "$SR0")
awk -F, -v n="$line" 'BEGIN{OFS=","} NR == n {$4 = $4 * 1.5} {print}' "$SR0" > "$SR"
expect "another dt under the same key" 2 "runs.csv:$line: column dt:" -- schk
sfresh; cell model orbit '^spring,euler,' "$SR0" > "$SR"; line=$(first '^orbit,euler,' "$SR")
expect "another model under the same key" 2 "runs.csv:$line: column model: orbit in the baseline, spring" -- schk
sfresh; cell t_end 7 '^spring,rk4,' "$SR0" > "$SR"; line=$(first '^spring,rk4,' "$SR")
expect "another t_end under the same key" 2 "runs.csv:$line: column t_end: 7 in the baseline" -- schk

# cells the writer never writes: refused, naming file, line and column
# srun NAME COLUMN VALUE PATTERN: runs.csv with that cell
srun() {
    sfresh; cell "$2" "$3" "$4" "$SR0" > "$SR"
    expect "$1" 2 "runs.csv:$(first "$4" "$SR0"): column $2: '$3'" -- schk
}
srun "garbage in dt" dt 0.05x '^spring,tcv,fixed,'
srun "garbage in model" model 'spr ing' '^spring,tcv,fixed,'
srun "garbage in t_end" t_end 6.28pi '^spring,tcv,fixed,'
srun "inf in t_end" t_end inf '^spring,tcv,fixed,'
srun "nan in dt" dt nan '^spring,tcv,fixed,'
srun "garbage in jitter" jitter half '^spring,tcv,random,'
srun "a jitter on a trace run" jitter 0 '^spring,tcv,trace,'
srun "a jitter with a leading blank" jitter ' 0.5' '^spring,tcv,random,'
srun "garbage in force_evals" force_evals 12a '^spring,tcv,fixed,'
srun "a negative force_evals" force_evals -1 '^spring,tcv,fixed,'
srun "a fail_step on a finished run" fail_step 3 '^spring,tcv,fixed,'
srun "steps with a leading blank" steps ' 126' '^spring,tcv,fixed,'
srun "steps in hexadecimal" steps 0x7e '^spring,tcv,fixed,'
srun "a scale in hexadecimal" pos_scale 0x1p+0 '^spring,tcv,fixed,'
srun "a scale with a trailing blank" vel_scale '1 ' '^spring,tcv,fixed,'
srun "a seed on a fixed run" seed 1 '^spring,tcv,fixed,'
srun "garbage in resolved" resolved maybe '^spring,tcv,fixed,'
line=$(first '^spring,tcv,fixed,' "$SR0")
sfresh; cell err_pos_max 0x1p-3 '^spring,tcv,fixed,' "$SR0" > "$SR"
expect "an error in hexadecimal" 2 "runs.csv:$line: err_pos_max = '0x1p-3'" -- schk
sfresh; cell err_pos_max ' 0.001' '^spring,tcv,fixed,' "$SR0" > "$SR"
expect "an error with a leading blank" 2 "runs.csv:$line: err_pos_max = ' 0.001'" -- schk
# sord NAME COLUMN VALUE PATTERN: orders.csv with that cell
sord() {
    sfresh; cell "$2" "$3" "$4" "$SO0" > "$SO"
    expect "$1" 2 "orders.csv:$(first "$4" "$SO0"): column $2: '$3'" -- schk
}
sord "garbage in points" points five '^tcv,fixed,err_pos_max,'
sord "garbage in expected" expected two '^tcv,fixed,err_pos_max,'
sord "garbage in range" range sideways '^tcv,fixed,err_pos_max,'
sord "dt_first in hexadecimal" dt_first 0x1p-5 '^tcv,fixed,err_pos_max,'
sord "nan in dt_last" dt_last nan '^tcv,fixed,err_pos_max,'
sord "garbage in local_orders" local_orders '2.0 two' '^tcv,fixed,err_pos_max,'
sord "an order with a leading blank" order ' 2.000000' '^tcv,fixed,err_pos_max,'
sord "an order in hexadecimal" order 0x2p+0 '^tcv,fixed,err_pos_max,'
sfresh; cell verdict exact '^tcv,fixed,err_pos_max,' "$SO0" > "$SO"
expect "an order beside a verdict that has none" 2 \
    "orders.csv:$(first '^tcv,fixed,err_pos_max,' "$SO0"): column order: '1.99" -- schk
sord "no order beside a verdict that has one" order '' '^tcv,fixed,err_pos_max,'

# ---- every column the writer prints, damaged one at a time ----
# The writer prints no "nan" anywhere (a NaN is a blank cell,
# output/tables.c), so "nan" in any cell of any column is damage: check
# refuses it (exit 2), naming the file, the line and the column.  The
# columns are read from the tables themselves, so a column the writer
# gains is damaged here too; one the reader skipped (lag_max, tol,
# order_se and order_ci95 were never read) fails.  Two small cases fill
# every column between them: frame loops with a clamp (err_draw_*, and
# lag_max > 0: 4 steps due a frame, 2 taken), and an adaptive method on a
# model without an exact solution (tol, ref_err_*, resolved).
mkdir -p "$tmp/cols"
printf '%s\n' '[case]' 'model = spring' 't_end = 6.283185307179586' '[steps]' 'dt = 0.2' \
    'halvings = 3' 'jitter = 0.5' 'seeds = 2' '[integrators]' 'use = euler-semi, velocity-verlet' \
    '[loop]' 'kind = variable, accumulator' 'physics_dt = 1/20' 'max_substeps = 2' \
    > "$tmp/cols/loops.case"
printf '%s\n' '[case]' 'model = henon-heiles' 't_end = 2' '[steps]' 'dt = 0.1' 'halvings = 3' \
    '[integrators]' 'use = velocity-verlet, rkf45' > "$tmp/cols/adaptive.case"
"$VB" run --quiet --no-chart-data "$tmp/cols/loops.case" "$tmp/cols/adaptive.case" --out "$tmp/cols/base" \
    >"$tmp/log" 2>&1 || { bad "the two cases of every column"; cat "$tmp/log"; }
C="$tmp/cols/damaged"
cfresh() { rm -rf "$C"; mkdir -p "$C"; cp -r "$tmp/cols/base/loops" "$tmp/cols/base/adaptive" "$C/"; }
cchk() { "$VB" check --baseline "$C" "$tmp/cols/$1.case"; }
# cellat COLUMN VALUE LINE FILE: the table with COLUMN set to VALUE on line LINE
cellat() {
    awk -F, -v col="$1" -v val="$2" -v n="$3" 'BEGIN{OFS=","}
        /^#/ {print; next}
        !h {h = 1; for (i = 1; i <= NF; i++) if ($i == col) c = i; print; next}
        NR == n {$c = val} {print}' "$4"
}
cfresh
expect "the two cases of every column pass intact" 0 "0 worse" -- \
    "$VB" check --baseline "$C" "$tmp/cols/loops.case" "$tmp/cols/adaptive.case"
ncols=0
for spec in "loops runs ^spring,euler-semi@accumulator" "loops orders ^euler-semi@accumulator" \
            "adaptive runs ^henon-heiles,rkf45," "adaptive orders ^velocity-verlet,fixed,err_pos_max,"; do
    set -- $spec
    case_=$1 file=$2 pat=$3
    T0="$tmp/cols/base/$case_/$file.csv"
    line=$(first "$pat" "$T0")
    for col in $(grep -v '^#' "$T0" | head -1 | tr ',' ' '); do
        ncols=$((ncols + 1))
        cfresh; cellat "$col" nan "$line" "$T0" > "$C/$case_/$file.csv"
        expect "$case_/$file.csv: nan in column $col" 2 "$file.csv:$line" -- cchk "$case_"
        grep -F "$file.csv:$line" "$tmp/out" | grep -qF -- "$col" ||
            bad "$case_/$file.csv: nan in column $col: the message does not name it"
    done
done
# 31 columns of a frame loop's runs.csv, 28 without, 13 of orders.csv twice
[ "$ncols" -eq 85 ] && ok || bad "damaged $ncols columns, want 31 + 13 + 28 + 13"
# lag_max, as issue 38 found it: -5, blank, 1e300 (longer than the run),
# or another lag than the frames and physics_dt make (match.c: the same
# run made now drops the same time)
line=$(first "^spring,euler-semi@accumulator" "$tmp/cols/base/loops/runs.csv")
for v in -5 '' 1e300 0 2.5; do
    cfresh; cellat lag_max "$v" "$line" "$tmp/cols/base/loops/runs.csv" > "$C/loops/runs.csv"
    expect "lag_max = '$v'" 2 "runs.csv:$line: column lag_max: " -- cchk loops
done
# an adaptive method's tolerance gone, or one on a method without
line=$(first '^henon-heiles,rkf45,' "$tmp/cols/base/adaptive/runs.csv")
cfresh; cellat tol '' "$line" "$tmp/cols/base/adaptive/runs.csv" > "$C/adaptive/runs.csv"
expect "rkf45's tol blank" 2 "runs.csv:$line: column tol: blank in the baseline" -- cchk adaptive
line=$(first '^henon-heiles,velocity-verlet,' "$tmp/cols/base/adaptive/runs.csv")
cfresh; cellat tol 1e-08 "$line" "$tmp/cols/base/adaptive/runs.csv" > "$C/adaptive/runs.csv"
expect "a tol on velocity-verlet" 2 "runs.csv:$line: column tol: 1e-08 in the baseline, blank" -- cchk adaptive
# resolved is what err_pos_max and ref_err_pos say (VB_REF_RESOLUTION, 100)
cfresh; cellat resolved no "$line" "$tmp/cols/base/adaptive/runs.csv" > "$C/adaptive/runs.csv"
expect "resolved no where the error is over 100 ref_err_pos" 2 "runs.csv:$line: column resolved: 'no'" -- cchk adaptive
# the reference solution's columns blank on every row (as a model with an
# exact solution writes them): not the case's, whose model has none
cfresh; awk -F, 'BEGIN{OFS=","} /^#/ {print; next} !h {h = 1; for (i = 1; i <= NF; i++) if ($i ~ /^ref_err_|^resolved$/) d[i] = 1; print; next}
    {for (i in d) $i = ""; print}' "$tmp/cols/base/adaptive/runs.csv" > "$C/adaptive/runs.csv"
expect "ref_err_* and resolved blanked" 2 "column ref_err_pos is blank, but the case has a reference solution" -- cchk adaptive
# order_se blank beside an order fitted to three points
line=$(first '^velocity-verlet,fixed,err_pos_max,' "$tmp/cols/base/adaptive/orders.csv")
cfresh; cellat order_se '' "$line" "$tmp/cols/base/adaptive/orders.csv" > "$C/adaptive/orders.csv"
expect "order_se blank beside a fitted order" 2 "orders.csv:$line: column order_se: ''" -- cchk adaptive
# a column the writer never prints
cfresh; sed 's/^model,.*$/&,note/; s/^spring,.*$/&,x/' "$tmp/cols/base/loops/runs.csv" > "$C/loops/runs.csv"
expect "a column the writer never prints" 2 "column 'note' is not one verletbench writes" -- cchk loops
# A frame loop's baseline with its err_draw_* columns deleted was read as
# an older baseline and not compared on them: a 10x drawn error then
# passed.  NEW is the baseline with every err_draw_* cell of one loop 10x;
# against the intact baseline compare calls it worse, so the deleted
# columns are what hid it.
L="$tmp/cols/draw"
rm -rf "$L"; mkdir -p "$L/old" "$L/new" "$L/cut"
cp -r "$tmp/cols/base/loops" "$L/old/"; cp -r "$tmp/cols/base/loops" "$L/new/"; cp -r "$tmp/cols/base/loops" "$L/cut/"
awk -F, 'BEGIN{OFS=","} /^#/ {print; next} !h {h = 1; for (i = 1; i <= NF; i++) if ($i ~ /^err_draw_/) d[i] = 1; print; next}
    $2 == "velocity-verlet@variable" {for (i in d) $i = $i * 10} {print}' \
    "$tmp/cols/base/loops/runs.csv" > "$L/new/loops/runs.csv"
awk -F, 'BEGIN{OFS=","} /^#/ {print; next} !h {h = 1; for (i = 1; i <= NF; i++) if ($i !~ /^err_draw_/) k[++n] = i}
    {s = $k[1]; for (j = 2; j <= n; j++) s = s "," $k[j]; print s}' \
    "$tmp/cols/base/loops/runs.csv" > "$L/cut/loops/runs.csv"
expect "compare: drawn errors 10x worse" 1 "err_draw_max" -- "$VB" compare --quiet "$L/old" "$L/new"
expect "compare: the err_draw_* columns deleted from OLD" 2 "no column 'err_draw_max' in the header" -- \
    "$VB" compare --quiet "$L/cut" "$L/new"
cfresh; cp "$L/cut/loops/runs.csv" "$C/loops/runs.csv"
expect "check: the err_draw_* columns deleted" 2 "no column 'err_draw_max' in the header" -- cchk loops

# ---- run and check agree on what a run may hold ----
# explicit Euler on the spring at dt = 30 grows by sqrt(1 + 900) a step:
# after 105 steps x ~ 30^105 ~ 1e155 is finite, but the energy ~ x^2
# overflows.  Such a run is diverged (its errors inf), never ok with an
# infinite energy error: then check, against that very output, exits 0
# (it called it a damaged baseline, exit 2)
mkdir -p "$tmp/ovf"
cat > "$tmp/ovf/ovf.case" <<'EOF'
[case]
model = spring
t_end = 4500
[steps]
dt = 30
halvings = 2
[integrators]
use = euler, velocity-verlet
EOF
"$VB" run --quiet --no-chart-data "$tmp/ovf/ovf.case" --out "$tmp/ovf/base" >"$tmp/out" 2>&1 || { bad "run of the overflowing case"; cat "$tmp/out"; }
if awk -F, '$2 == "euler" && $16 == "ok" && /inf/ { bad = 1 } $2 == "euler" && $16 == "diverged" { dv++ }
        END { exit bad || dv != 2 }' "$tmp/ovf/base/ovf/runs.csv"; then ok
else bad "euler at dt = 30 on the spring: a run whose energy overflows is not diverged"; grep '^spring,euler' "$tmp/ovf/base/ovf/runs.csv"; fi
expect "check against the very output of a run whose energy overflowed" 0 "0 worse" -- \
    "$VB" check --baseline "$tmp/ovf/base" "$tmp/ovf/ovf.case"
expect "sim says why a finite state is diverged" 1 "diverged at step 105: its energy error is not a finite number" -- \
    "$VB" sim --model spring --integrator euler --dt 30 --t-end 4500

# ---- no temporary directory, even when interrupted ----
mkdir -p "$tmp/t"
TMPDIR="$tmp/t" "$VB" check --quiet -j 1 >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT $pid 2>/dev/null
wait $pid
[ -z "$(ls -A "$tmp/t")" ] && ok || { bad "an interrupted check left $(ls "$tmp/t")"; }

# ---- compare OLD NEW: check's rules and report on two results directories ----
# The same tables as check: a results directory made with tcv turned
# verlet-var, compared with the verlet-var baseline, reports what check
# reports, line for line after the first, and exits 1 as check does; the
# other way round it passes, as check does.
"$VB" run --quiet --no-chart-data --plugin "$tmp/improved-TCV.so" "$tmp/fa/spring.case" \
    --out "$tmp/fa-tcv" >/dev/null 2>&1
"$VB" check --plugin "$tmp/improved-TCV.so" --baseline "$tmp/fa-varbase" "$tmp/fa/spring.case" >"$tmp/chk.out" 2>&1
crc=$?
"$VB" compare "$tmp/fa-varbase" "$tmp/fa-tcv" >"$tmp/cmp.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && [ $crc -eq 1 ] && [ "$(tail -n +2 "$tmp/chk.out")" = "$(tail -n +2 "$tmp/cmp.out")" ]; then ok
else bad "compare of a worse run: exit $rc (check $crc), want 1, and check's report"; diff "$tmp/chk.out" "$tmp/cmp.out" | head -20; fi
grep -q "^verletbench compare: 1 case of $tmp/fa-tcv against $tmp/fa-varbase (rtol 0.001" "$tmp/cmp.out" && ok || \
    { bad "compare's first line"; head -2 "$tmp/cmp.out"; }
expect "compare of a better run passes" 0 "order err_pos_max" -- "$VB" compare "$tmp/fa-tcv" "$tmp/fa-varbase"
expect "compare --rtol 1e12 --order-tol 9: nothing worse" 1 "order err_pos_max" -- \
    "$VB" compare --rtol 1e12 --order-tol 9 "$tmp/fa-varbase" "$tmp/fa-tcv"
# 6 halvings against 9 (the same case otherwise): the six step sizes both
# have are compared run by run; the other three levels' runs, 3 x (1 fixed
# + 4 seeds + 1 trace) x 2 integrators = 36, are counted, not compared
cp -r cases/traces "$tmp/"
for h in 6 9; do
    mkdir -p "$tmp/h$h"
    printf '[case]\nmodel = spring\nt_end = 6.283185307179586\n[steps]\ndt = 0.05\nhalvings = %s\njitter = 0.5\nseeds = 4\ntrace = traces/frames-60hz.trace\n[integrators]\nuse = tcv, verlet-var\n' $h > "$tmp/hv.case"
    "$VB" run --quiet --no-chart-data "$tmp/hv.case" --out "$tmp/h$h" >/dev/null 2>&1 || bad "run of $h halvings"
done
# tcv's order on the trace is uncertain over 6 (1.28: three points above
# its floor) and below its label over 9: check's rules call the drop of
# the order worse, and the errors of the runs both have are the same
expect "compare 6 against 9 halvings" 1 "36 runs at step sizes only one side has were not compared" -- \
    "$VB" compare "$tmp/h6" "$tmp/h9"
grep -E "^  hv +tcv +trace +all +- +order err_pos_max +1\.2[0-9] uncertain +1\.0[0-9] below-label" "$tmp/out" >/dev/null && \
    ! grep -E "^  hv .* (fixed|random|trace) +0\.0" "$tmp/out" >/dev/null && ok || \
    { bad "6 against 9: tcv's trace order from uncertain to below-label, no error of a run changed"; cat "$tmp/out"; }
expect "compare 9 against 6 halvings: nothing missing" 0 "0 baseline runs missing" -- \
    "$VB" compare "$tmp/h9" "$tmp/h6"
# other parameters than halvings are other runs: exit 2
sed 's/seeds = 4/seeds = 5/' "$tmp/hv.case" > "$tmp/hs.case"
mkdir -p "$tmp/hs"; cp "$tmp/hs.case" "$tmp/hv.case"
"$VB" run --quiet --no-chart-data "$tmp/hv.case" --out "$tmp/hs" >/dev/null 2>&1
expect "compare of other seeds" 2 "made with other parameters" -- "$VB" compare "$tmp/h9" "$tmp/hs"
# two results directories: no baseline to remake, so no advice to make one
grep -q "run both from the same case file" "$tmp/out" && ! grep -q "make baseline" "$tmp/out" && ok ||
    { bad "compare of other seeds: advice for two results directories, not make baseline"; cat "$tmp/out"; }
# a case only OLD has is missing (exit 1), only NEW has is new (exit 0)
mkdir -p "$tmp/two"; cp -r "$tmp/h6/hv" "$tmp/two/"; cp -r "$tmp/fa-tcv/spring" "$tmp/two/"
expect "a case gone from NEW" 1 "spring" -- "$VB" compare "$tmp/two" "$tmp/h6"
grep -q "^MISSING" "$tmp/out" && ok || bad "a case gone from NEW is not listed as MISSING"
expect "a case new in NEW" 0 "new: no baseline to compare with" -- "$VB" compare "$tmp/h6" "$tmp/two"
expect "compare NAME: only that case" 0 "verletbench compare: 1 case" -- "$VB" compare "$tmp/h6" "$tmp/two" hv
expect "compare a name neither has" 2 "nope: no case of that name" -- "$VB" compare "$tmp/h6" "$tmp/two" nope
expect "compare without a directory" 2 "no such directory" -- "$VB" compare "$tmp/h6" "$tmp/nowhere"
expect "compare of a file, not a directory" 2 "$tmp/h6/hv/runs.csv: not a directory" -- \
    "$VB" compare "$tmp/h6/hv/runs.csv" "$tmp/h6"
expect "compare with one argument" 2 "give two results directories" -- "$VB" compare "$tmp/h6"
# an empty name is said to be empty, not printed blank (issue 50.11: "--baseline :
# no such directory ... --out '")
expect "compare of an empty name" 2 "OLD: an empty directory name" -- "$VB" compare "" "$tmp/h6"
expect "check --baseline=" 2 "--baseline: empty directory name" -- \
    "$VB" check --baseline= cases/spring.case
expect "check --save=" 2 "--save: empty directory name" -- "$VB" check --save= cases/spring.case
expect "compare of empty directories" 2 "nothing to compare" -- "$VB" compare "$tmp/t" "$tmp/t"

# ---- contact.csv: each handler's measures against their exact values ----
# The baseline's contact.csv is edited to claim a better handler, so that
# the run made now is worse by the rule of docs/check.md ("Contact
# handlers"): a measure is worse when its distance from its exact value
# grows by more than rtol.  Truths: stop_x_exact = v0²/(2 mu g) =
# 9/(2·0.5·9.81) = 0.91743119266055 (the slide's closed form); the bounce's
# e = 0.8 (cases/bounce.case); a projection lets the ball through at half
# (w + 2r)/dt (docs/contact.md), never inf.
mkdir -p "$tmp/cb"
for c in slide tunnel bounce; do cp -r "results/baseline/$c" "$tmp/cb/"; done
CB="cases/slide.case cases/tunnel.case cases/bounce.case"
# the unmodified run passes (a false alarm would fail; the same runs as the
# baseline's, so every contact measure is equal)
expect "contact: the unmodified run passes" 0 "0 worse" -- \
    "$VB" check --baseline "$tmp/cb" $CB
# contact_copy DIR CASE FILTER...: the baseline's CASE in DIR, its
# contact.csv passed through FILTER
contact_copy() {
    dir=$1 case=$2
    shift 2
    mkdir -p "$dir" && rm -rf "${dir:?}/$case" && cp -r "results/baseline/$case" "$dir/" &&
        "$@" < "results/baseline/$case/contact.csv" > "$dir/$case/contact.csv"
}
# contact_worse CASE METRIC ROW FILTER...: a baseline whose CASE's
# contact.csv went through FILTER to claim a better handler: check fails
# naming METRIC, its row matching ROW; then the baseline as it was
contact_worse() {
    case=$1 metric=$2 row=$3
    shift 3
    contact_copy "$tmp/cb" "$case" "$@"
    expect "contact: $metric further from its exact value fails" 1 "$metric" -- \
        "$VB" check --baseline "$tmp/cb" $CB
    grep -E "$row" "$tmp/out" >/dev/null && ok || { bad "contact: the $metric row not named"; head -20 "$tmp/out"; }
    contact_copy "$tmp/cb" "$case" cat
}
# a baseline whose project stopped the block exactly where it stops
contact_worse slide stop_x \
    "^  slide +euler-semi\+project +fixed +0\.0333333 +- +stop_x +0\.9174311926605504 +0\.96805" \
    sed 's/^\(slide,euler-semi+project,fixed,0.033333333333333333,ok,,,,,,,,,,,,,\)[0-9.]*,/\10.9174311926605504,/'
# a baseline whose toi round symplectic Euler reached the exact height
# after its first bounce, e^2 h0 = 0.8^2 * 1 = 0.64 (cases/bounce.case)
contact_worse bounce height1 \
    "^  bounce +euler-semi\+toi +fixed +0\.0333333 +- +height1 +0\.64000000000000001 +0\.53.*off e\^2n h0 by" \
    awk -F, 'BEGIN{OFS=","} /^bounce,euler-semi\+toi,fixed,0.033333333333333333,/{$9 = "0.64000000000000001"} {print}'
# a baseline whose project never let the ball through the wall
contact_worse tunnel pass_speed "^  tunnel +euler-semi\+project +fixed +0\.0333333 +- +pass_speed +inf +3\.75" \
    sed 's/^\(tunnel,euler-semi+project,fixed,0.033333333333333333,ok,,,,,,,,,,,,,,,,,\)[0-9.]*,/\1inf,/'
# compare: a results directory whose first bounce gained energy (e 0.9, not 0.8)
# (0.9 as %.17g prints it: a cell that it never prints, "0.9", is damage)
contact_copy "$tmp/co" bounce cat
contact_copy "$tmp/cn" bounce sed 's/^\(bounce,euler-semi+toi,fixed,0.0041666666666666666,ok,\)[0-9.]*,/\10.90000000000000002,/'
expect "contact: compare, a bounce that gains energy fails" 1 "e_bounce1" -- \
    "$VB" compare "$tmp/co" "$tmp/cn"
grep -E "^  bounce +euler-semi\+toi +fixed +0\.00416667 +- +e_bounce1 .* 0\.90000000000000002 " \
    "$tmp/out" >/dev/null && ok || { bad "contact: the e_bounce1 row not named"; head -20 "$tmp/out"; }
# a mutant handler: toi's impulse (1 + 1.05 e) u in place of (1 + e) u
# (src/contact/handler_toi.c), so that every bounce leaves at 1.05 e u and
# gains energy; linked from this build's objects with the mutant in front.
# Its restitution is 1.05 · 0.8 = 0.84 where toi's was e = 0.8 to round-off.
sed 's/(1\.0 + g->restitution) \* u;/(1.0 + 1.05 * g->restitution) * u;/' \
    src/contact/handler_toi.c > "$tmp/handler_toi.c"
if cmp -s src/contact/handler_toi.c "$tmp/handler_toi.c"; then
    bad "contact: the mutant of handler_toi.c was not made (its line changed?)"
else
    INC="-Isrc -I$BUILD"
    for d in src/*/; do INC="$INC -I${d%/}"; done
    LIBS="$(pkg-config --libs gsl fftw3 inih 2>/dev/null || echo -lgsl -lgslcblas -lfftw3 -linih)"
    # a build of make check SANITIZE=1 (its objects call ASan and UBSan):
    # the mutant compiled and linked with the Makefile's SAN_FLAGS too
    SAN=
    if nm "$BUILD/commands/main.o" 2>/dev/null | grep -q __asan_init; then
        SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
    fi
    if $CC -std=c11 -D_DEFAULT_SOURCE -pthread -ffp-contract=off -O2 $SAN $INC -c "$tmp/handler_toi.c" \
           -o "$tmp/handler_toi.o" &&
       $CC -pthread $SAN -o "$tmp/vb-toi-mutant" "$BUILD/commands/main.o" "$tmp/handler_toi.o" \
           "$BUILD/libverletbench.a" $LIBS -ldl -lpthread -lm; then
        expect "contact: a handler whose bounces gain energy fails" 1 "e_bounce1" -- \
            "$tmp/vb-toi-mutant" check --baseline results/baseline cases/bounce.case
        grep -E "^  bounce +velocity-verlet\+toi +fixed +[0-9.]+ +- +e_bounce1 +0\.(79999|80000)[0-9]* +0\.(83999|84000)" \
            "$tmp/out" >/dev/null && ok || { bad "contact: the mutant's e_bounce1 row not named"; head -20 "$tmp/out"; }
    else
        bad "contact: the mutant handler does not build"
    fi
    # and the false alarm: (1 + e) u computed as u + e u, the same in exact
    # arithmetic, moves e_bounce1 by about 1e-16 and must pass
    sed 's/(1\.0 + g->restitution) \* u;/u + g->restitution * u;/' \
        src/contact/handler_toi.c > "$tmp/handler_toi.c"
    if $CC -std=c11 -D_DEFAULT_SOURCE -pthread -ffp-contract=off -O2 $SAN $INC -c "$tmp/handler_toi.c" \
           -o "$tmp/handler_toi.o" &&
       $CC -pthread $SAN -o "$tmp/vb-toi-reorder" "$BUILD/commands/main.o" "$tmp/handler_toi.o" \
           "$BUILD/libverletbench.a" $LIBS -ldl -lpthread -lm; then
        expect "contact: a handler changed by round-off only passes" 0 "0 worse" -- \
            "$tmp/vb-toi-reorder" check --baseline results/baseline cases/bounce.case \
            cases/bounce-elastic.case
    else
        bad "contact: the reordered handler does not build"
    fi
fi
# a damaged baseline contact.csv is refused, naming file, line and column
sed 's/^\(slide,euler-semi+project,fixed,0.033333333333333333,ok,,,,,,,,,,,,,\)\([0-9.]*\),/\1\2x,/' \
    results/baseline/slide/contact.csv > "$tmp/cb/slide/contact.csv"
expect "contact: a cell that is no number" 2 "slide/contact.csv:8: column stop_x" -- \
    "$VB" check --baseline "$tmp/cb" $CB
sed '/^#/!s/,[^,]*$//' results/baseline/slide/contact.csv > "$tmp/cb/slide/contact.csv"
expect "contact: a column gone" 2 "no column 'pass_at_most'" -- \
    "$VB" check --baseline "$tmp/cb" $CB
cp results/baseline/slide/contact.csv "$tmp/cb/slide/contact.csv"
# pass_at_most says whether a passing speed is an upper bound: 0 or 1, or
# blank with no passing speed (docs/check.md), nothing else
sed 's/^\(tunnel,euler-semi+project,fixed,0.033333333333333333,.*\),0$/\1,2/' \
    results/baseline/tunnel/contact.csv > "$tmp/cb/tunnel/contact.csv"
expect "contact: a pass_at_most that is neither 0 nor 1" 2 \
    "tunnel/contact.csv:8: column pass_at_most" -- "$VB" check --baseline "$tmp/cb" $CB
cp results/baseline/tunnel/contact.csv "$tmp/cb/tunnel/contact.csv"
sed 's/^\(slide,euler-semi+project,fixed,0.033333333333333333,ok,,,,,,,,,,,,,[0-9.]*,\)[0-9.]*,/\11,/' \
    results/baseline/slide/contact.csv > "$tmp/cb/slide/contact.csv"
expect "contact: an exact value that is not the model's" 2 "slide/contact.csv:8: column stop_x_exact" -- \
    "$VB" check --baseline "$tmp/cb" $CB
rm "$tmp/cb/slide/contact.csv"
expect "contact: a baseline without contact.csv" 2 "slide/contact.csv" -- \
    "$VB" check --baseline "$tmp/cb" $CB

# ---- contact_orders.csv: a body's contact measures' orders in dt ----
# Judged as orders.csv's (docs/check.md, "Contact handlers"): a verdict of
# a lower rank, or an order lower by more than the order tolerance (0.05),
# is worse.  The baseline is edited to claim a better solver.  Truths: pgs's
# s_roll on the flat under symplectic Euler is first order, its fit 0.94
# (tests/contact_orders.py derives it), below a claimed 1.00 by more than
# 0.05; soft rolls a step late (first order), never exact.
mkdir -p "$tmp/ko"
cp -r results/baseline/roll "$tmp/ko/"
KO="$tmp/ko/roll/contact_orders.csv"
expect "contact orders: the unmodified run passes" 0 "0 worse" -- \
    "$VB" check --baseline "$tmp/ko" cases/roll.case
sed 's/^\(rigid-explicit-gyro+pgs,fixed,s_roll,\)0\.94[0-9]*,/\11.000000,/' \
    results/baseline/roll/contact_orders.csv > "$KO"
expect "contact orders: an order lower than the baseline's fails" 1 "order s_roll" -- \
    "$VB" check --baseline "$tmp/ko" cases/roll.case
grep -E "^  roll +rigid-explicit-gyro\+pgs +fixed +all +- +order s_roll +1\.00 measured +0\.94 measured" \
    "$tmp/out" >/dev/null && ok || { bad "contact orders: the s_roll row not named"; head -20 "$tmp/out"; }
awk -F, 'BEGIN{OFS=","} /^rigid-explicit-gyro\+soft,fixed,t_roll,/{$4=""; $5="0"; $6="exact"; $7="none"; $8=""; $9=""; $11=""; $12=""} {print}' \
    results/baseline/roll/contact_orders.csv > "$KO"
expect "contact orders: a verdict of a lower rank fails" 1 "order t_roll" -- \
    "$VB" check --baseline "$tmp/ko" cases/roll.case
grep -E "^  roll +rigid-explicit-gyro\+soft +fixed +all +- +order t_roll +exact +1\.01 measured" \
    "$tmp/out" >/dev/null && ok || { bad "contact orders: the t_roll row not named"; head -20 "$tmp/out"; }
# damage: a cell no writer prints, an order outside its local orders, an
# order where the verdict has none, the table gone: exit 2
sed 's/^\(rigid-explicit-gyro+pgs,fixed,s_roll,\)0\.94[0-9]*,/\10.94x,/' \
    results/baseline/roll/contact_orders.csv > "$KO"
expect "contact orders: a cell that is no order" 2 "contact_orders.csv:16: column order: '0.94x'" -- \
    "$VB" check --baseline "$tmp/ko" cases/roll.case
sed 's/^\(rigid-explicit-gyro+pgs,fixed,s_roll,\)0\.94[0-9]*,/\11.100000,/' \
    results/baseline/roll/contact_orders.csv > "$KO"
expect "contact orders: an order no least-squares slope of its points gives" 2 \
    "contact_orders.csv:16: column order: '1.100000' is not an order between" -- \
    "$VB" check --baseline "$tmp/ko" cases/roll.case
sed 's/^\(rigid-splitting+toi,fixed,t_roll,\),/\11.000000,/' \
    results/baseline/roll/contact_orders.csv > "$KO"
expect "contact orders: an order beside exact" 2 "column order: '1.000000' is not blank" -- \
    "$VB" check --baseline "$tmp/ko" cases/roll.case
rm "$KO"
expect "contact orders: a baseline without contact_orders.csv" 2 "roll/contact_orders.csv" -- \
    "$VB" check --baseline "$tmp/ko" cases/roll.case

# ---- contact.csv holds a row a run of its runs.csv (issue 50.2) ----
# A baseline contact.csv cut to its header, or lacking rows its runs.csv
# has, left those rows' measures unjudged, and check and compare passed
# with every e_bounce1 made 0.99 (e = 0.8): such a table is damage,
# refused with exit 2 in check and in compare, either side.
contact_copy "$tmp/cw" bounce sed 's/^\(bounce,[^,]*,fixed,[^,]*,ok,\)[0-9.]*,/\10.98999999999999999,/'
# (the worse rows fail against the whole baseline: the test can fail)
expect "contact: compare, every e_bounce1 made 0.99, fails" 1 "e_bounce1" -- \
    "$VB" compare "$tmp/co" "$tmp/cw"
contact_copy "$tmp/cr" bounce grep -v '^bounce,'
expect "contact: check, a baseline contact.csv cut to its header" 2 \
    "bounce/contact.csv: no rows, only a header" -- "$VB" check --baseline "$tmp/cr" cases/bounce.case
expect "contact: compare, an old contact.csv cut to its header" 2 \
    "bounce/contact.csv: no rows, only a header" -- "$VB" compare "$tmp/cr" "$tmp/cw"
expect "contact: compare, a new contact.csv cut to its header" 2 \
    "bounce/contact.csv: no rows, only a header" -- "$VB" compare "$tmp/cw" "$tmp/cr"
contact_copy "$tmp/cr" bounce grep -v '^bounce,euler-semi+toi,'
expect "contact: check, a baseline lacking a handler's rows" 2 \
    "cr/bounce/contact.csv:16: integrator 'velocity-verlet+project' where the run of" -- \
    "$VB" check --baseline "$tmp/cr" cases/bounce.case
expect "contact: compare, an old contact.csv lacking a handler's rows" 2 \
    "contact.csv holds a row a run of runs.csv" -- "$VB" compare "$tmp/cr" "$tmp/cw"
contact_copy "$tmp/cr" bounce grep -v '^bounce,velocity-verlet+toi,'
expect "contact: check, a baseline lacking its last rows" 2 \
    "contact.csv: 20 rows where $tmp/cr/bounce/runs.csv has 24 runs, the last ones missing" -- \
    "$VB" check --baseline "$tmp/cr" cases/bounce.case
# an integrator dropped: its runs are missing once (runs.csv's 12), not
# again for their contact rows (24 before)
mkdir -p "$tmp/cd"
sed 's/^use = euler-semi, velocity-verlet$/use = euler-semi/' cases/bounce.case > "$tmp/cd/bounce.case"
expect "contact: an integrator dropped, its runs missing once" 1 \
    "0 worse, 0 better, 12 baseline runs missing, 0 new runs" -- \
    "$VB" check --baseline results/baseline "$tmp/cd/bounce.case"
# random steps: contact rows pair by their run's seed (runs.csv's), not
# the first row of the same dt: a directory compared with itself passes
# (seed 2's e_bounce1 was judged against seed 1's and failed), and a
# change of seed 2's row is named with its seed
printf '[case]\nmodel = bounce\nt_end = 1\n[steps]\ndt = 0.01\nhalvings = 2\njitter = 0.5\nseeds = 2\n[integrators]\nuse = euler-semi\n[contact]\nhandler = toi\n' \
    > "$tmp/cd/jit.case"
"$VB" run --quiet --no-chart-data "$tmp/cd/jit.case" --out "$tmp/cj" >"$tmp/log" 2>&1 ||
    { bad "contact: run a random-step contact case"; cat "$tmp/log"; }
expect "contact: random steps, a directory against itself" 0 "0 worse, 0 better" -- \
    "$VB" compare "$tmp/cj" "$tmp/cj"
mkdir -p "$tmp/cj2"
cp -r "$tmp/cj/jit" "$tmp/cj2/"
awk -F, 'BEGIN{OFS=","} /^bounce,euler-semi\+toi,random,0.01,/{n++; if (n == 2) $6 = "0.5"} {print}' \
    "$tmp/cj/jit/contact.csv" > "$tmp/cj2/jit/contact.csv"
expect "contact: random steps, seed 2's restitution made 0.5" 1 "e_bounce1" -- \
    "$VB" compare "$tmp/cj" "$tmp/cj2"
grep -E "^  jit +euler-semi\+toi +random +0\.01 +2 +e_bounce1 .* 0\.5 " "$tmp/out" >/dev/null && ok ||
    { bad "contact: seed 2's e_bounce1 row not named with its seed"; head -20 "$tmp/out"; }

# ---- a signed zero is a zero (issue 50.11) ----
# %.17g prints a negative zero "-0": -0 is 0, not "not a number"; a
# negative depth is refused for its sign, and the message says so
contact_copy "$tmp/cz" bounce sed 's/^\(bounce,euler-semi+project,fixed,0.033333333333333333,.*,\)0,,,,,,,$/\1-0,,,,,,,/'
grep -q ',-0,,,,,,,$' "$tmp/cz/bounce/contact.csv" || bad "contact: the -0 depth was not written (its row changed?)"
expect "contact: a depth of -0 is 0" 0 "0 worse, 0 better" -- \
    "$VB" check --baseline "$tmp/cz" cases/bounce.case
sed -i 's/,-0,,,,,,,$/,-0.5,,,,,,,/' "$tmp/cz/bounce/contact.csv"
expect "contact: a negative depth, refused for its sign" 2 \
    "column depth_max: '-0.5' is not a number >= 0 as %.17g prints it, inf or blank" -- \
    "$VB" check --baseline "$tmp/cz" cases/bounce.case

# ---- flips.csv: a rigid body's flips, period and tumble (attack 6, item 4) ----
# check and compare never read flips.csv: cut, emptied, flips=zzz or
# flip_period_err=99 passed.  Now it is read as contact.csv is: a row a
# run of its runs.csv, each cell what vb_write_flips prints, and its
# measures judged.  Truths: flip_period_err is (flip_period -
# flip_period_exact) / flip_period_exact of its row (output/tables.c), so
# 99 beside a period 0.4 % off is no row the writer prints; the exact
# period 4K(m)/lambda is in the row, and a run whose period was at it
# (distance 0) is better than the run made now, whose period is 0.004
# off: now is worse; the Dzhanibekov flip flips twice in 32 s (the exact
# count, flips_exact), so 3 flips lie further from it than 2.
mkdir -p "$tmp/fl"
cp -r results/baseline/dzhanibekov "$tmp/fl/"
FL=cases/dzhanibekov.case
expect "flips: the unmodified run passes" 0 "0 worse, 0 better" -- \
    "$VB" check --baseline "$tmp/fl" $FL
# flips_copy DIR FILTER...: the baseline's dzhanibekov in DIR, its
# flips.csv passed through FILTER
flips_copy() {
    dir=$1
    shift
    mkdir -p "$dir" && rm -rf "${dir:?}/dzhanibekov" && cp -r results/baseline/dzhanibekov "$dir/" &&
        "$@" < results/baseline/dzhanibekov/flips.csv > "$dir/dzhanibekov/flips.csv"
}
flips_copy "$tmp/fl" grep '^#'
expect "flips: a baseline flips.csv emptied of its header and rows" 2 \
    "dzhanibekov/flips.csv: no header line" -- "$VB" check --baseline "$tmp/fl" $FL
flips_copy "$tmp/fl" grep -v '^rigid-'
expect "flips: a baseline flips.csv cut to its header" 2 \
    "dzhanibekov/flips.csv: no rows, only a header" -- "$VB" check --baseline "$tmp/fl" $FL
# 60 lines and the first 20 bytes of the next: mid-line wherever the
# numbers move (a cut at a byte count landed on a line's end once they did)
flips_copy "$tmp/fl" awk 'NR <= 60 { print; next } { printf "%s", substr($0, 1, 20); exit }'
expect "flips: a baseline flips.csv cut mid-line" 2 "fields, the header has 13" -- \
    "$VB" check --baseline "$tmp/fl" $FL
flips_copy "$tmp/fl" sed '12s/^\(rigid-euler,fixed,0,,[^,]*,32,ok,\)2,/\1zzz,/'
expect "flips: flips=zzz" 2 "flips.csv:12: column flips: 'zzz' is not a count" -- \
    "$VB" check --baseline "$tmp/fl" $FL
flips_copy "$tmp/fl" sed '12s/,[^,]*,$/,99,/'
expect "flips: flip_period_err=99" 2 "flips.csv:12: column flip_period_err: '99' is not" -- \
    "$VB" check --baseline "$tmp/fl" $FL
flips_copy "$tmp/fl" sed '13d'
expect "flips: a row deleted" 2 "flips.csv:13: level '2' where the run of" -- \
    "$VB" check --baseline "$tmp/fl" $FL
flips_copy "$tmp/fl" sed '12s/^\(rigid-euler,fixed,0,,[^,]*,32,ok,2,2,\)[^,]*,\([^,]*\),[^,]*,$/\1\2,\2,0,/'
expect "flips: a baseline period at the exact one: now is worse" 1 "flip_period" -- \
    "$VB" check --baseline "$tmp/fl" $FL
grep -E "^  dzhanibekov +rigid-euler +fixed +0\.1 +- +flip_period +39\.105734197268717 +39\.24844484065467" \
    "$tmp/out" >/dev/null && ok || { bad "flips: the worse flip_period row not named"; head -20 "$tmp/out"; }
# compare, either side
flips_copy "$tmp/fo" cat
flips_copy "$tmp/fn" sed '12s/,[^,]*,$/,99,/'
expect "flips: compare, a new flip_period_err=99" 2 "fn/dzhanibekov/flips.csv:12: column flip_period_err" -- \
    "$VB" compare "$tmp/fo" "$tmp/fn"
expect "flips: compare, an old flip_period_err=99" 2 "fn/dzhanibekov/flips.csv:12: column flip_period_err" -- \
    "$VB" compare "$tmp/fn" "$tmp/fo"
flips_copy "$tmp/fn" grep -v '^rigid-'
expect "flips: compare, a new flips.csv cut to its header" 2 "no rows, only a header" -- \
    "$VB" compare "$tmp/fo" "$tmp/fn"
flips_copy "$tmp/fn" sed '12s/^\(rigid-euler,fixed,0,,[^,]*,32,ok,\)2,/\13,/'
expect "flips: compare, 3 flips where the exact motion makes 2" 1 "flips" -- \
    "$VB" compare "$tmp/fo" "$tmp/fn"
grep -E "^  dzhanibekov +rigid-euler +fixed +0\.1 +- +flips +2 +3 " "$tmp/out" >/dev/null && ok ||
    { bad "flips: the worse count not named"; head -20 "$tmp/out"; }
rm "$tmp/fn/dzhanibekov/flips.csv"
expect "flips: compare, flips.csv gone from NEW" 2 "fn/dzhanibekov/flips.csv: no such file" -- \
    "$VB" compare "$tmp/fo" "$tmp/fn"

# ---- stacks.csv: a stack of boxes, judged as contact.csv (issue 55) ----
# check never read stacks.csv: a stack that stood in the baseline and
# collapses now, a drift twice the baseline's, a damaged cell all passed.
# Truths: the exact stack stands for ever, every measure 0 and t_collapse
# blank (docs/contact.md, "Stacks"); pgs at 10 iterations lets twenty
# boxes fall at 60 Hz (stack-tall.case, Bullet's own does at 0.1 s), so a
# baseline where that run stood (t_collapse blank) is better than now;
# a baseline whose 60 Hz pgs drift on five boxes is half the run's is
# better by 2, more than 1 + rtol (rtol 0.05 by default: docs/check.md);
# the writer prints a count of iterations as a whole number, a time no
# later than t_end=2, a row a run of runs.csv (stack_table.c).
# stack_copy DIR CASE FILTER...: the baseline's CASE in DIR, its stacks.csv
# passed through FILTER
stack_copy() {
    dir=$1 case=$2
    shift 2
    mkdir -p "$dir" && rm -rf "${dir:?}/$case" && cp -r "results/baseline/$case" "$dir/" &&
        "$@" < "results/baseline/$case/stacks.csv" > "$dir/$case/stacks.csv"
}
stack_copy "$tmp/st" stack cat
stack_copy "$tmp/st" stack-tall cat
expect "stacks: the unmodified runs pass" 0 "0 worse, 0 better" -- \
    "$VB" check --baseline "$tmp/st" cases/stack.case cases/stack-tall.case
stack_copy "$tmp/st" stack-tall sed '8s/,[^,]*$/,/'
expect "stacks: a baseline where twenty boxes stood at 60 Hz: now collapses, worse" 1 \
    "collapses where it stood" -- "$VB" check --baseline "$tmp/st" cases/stack-tall.case
grep -E "^  stack-tall +rigid-explicit-gyro\+pgs +fixed +0\.0166667 +- +t_collapse +blank +0\.11666666666666667 " \
    "$tmp/out" >/dev/null && ok || { bad "stacks: the collapse row not named"; head -20 "$tmp/out"; }
stack_copy "$tmp/st" stack-tall cat
stack_copy "$tmp/st" stack sed '8s/^\(\([^,]*,\)\{7\}\)[^,]*,/\10.0018710845765725996,/'
expect "stacks: a baseline drift half the run's: worse" 1 "drift_max" -- \
    "$VB" check --baseline "$tmp/st" cases/stack.case
grep -E "^  stack +rigid-explicit-gyro\+pgs +fixed +0\.0166667 +- +drift_max +0\.0018710845765725996 +0\.0037421691531451993 " \
    "$tmp/out" >/dev/null && ok || { bad "stacks: the drift row not named"; head -20 "$tmp/out"; }
stack_copy "$tmp/st" stack sed '8s/^\(\([^,]*,\)\{7\}\)[^,]*,/\1zzz,/'
expect "stacks: drift_max=zzz" 2 "stack/stacks.csv:8: column drift_max: 'zzz' is not" -- \
    "$VB" check --baseline "$tmp/st" cases/stack.case
stack_copy "$tmp/st" stack sed '8s/,ok,10,/,ok,3.5,/'
expect "stacks: iterations=3.5" 2 "stack/stacks.csv:8: column iterations: '3.5' is not a count" -- \
    "$VB" check --baseline "$tmp/st" cases/stack.case
stack_copy "$tmp/st" stack sed '8s/,ok,10,/,ok,20,/'
expect "stacks: iterations 20 where the case runs 10" 2 "stack/stacks.csv:8: column iterations: '20' where the run made now has '10'" -- \
    "$VB" check --baseline "$tmp/st" cases/stack.case
stack_copy "$tmp/st" stack-tall sed '9s/,[^,]*$/,99/'
expect "stacks: t_collapse 99 in a run of 2 s" 2 "stack-tall/stacks.csv:9: column t_collapse: '99' is not a time" -- \
    "$VB" check --baseline "$tmp/st" cases/stack-tall.case
stack_copy "$tmp/st" stack-tall sed '9s/,1,/,-1,/'
expect "stacks: substeps -1" 2 "stack-tall/stacks.csv:9: column substeps: '-1' is not" -- \
    "$VB" check --baseline "$tmp/st" cases/stack-tall.case
stack_copy "$tmp/st" stack-tall sed '9d'
expect "stacks: a row deleted" 2 "stack-tall/stacks.csv:9: dt '0.0041666666666666666' where the run of" -- \
    "$VB" check --baseline "$tmp/st" cases/stack-tall.case
stack_copy "$tmp/st" stack-tall grep -v '^stack,'
expect "stacks: cut to its header" 2 "stack-tall/stacks.csv: no rows, only a header" -- \
    "$VB" check --baseline "$tmp/st" cases/stack-tall.case
# compare, either side
stack_copy "$tmp/so" stack cat
stack_copy "$tmp/sn" stack sed '8s/^\(\([^,]*,\)\{7\}\)[^,]*,/\1zzz,/'
expect "stacks: compare, a new drift_max=zzz" 2 "sn/stack/stacks.csv:8: column drift_max" -- \
    "$VB" compare "$tmp/so" "$tmp/sn"
expect "stacks: compare, an old drift_max=zzz" 2 "sn/stack/stacks.csv:8: column drift_max" -- \
    "$VB" compare "$tmp/sn" "$tmp/so"
stack_copy "$tmp/sn" stack sed '9s/,[^,]*$/,0.5/'
expect "stacks: compare, a collapse where it stood" 1 "collapses where it stood" -- \
    "$VB" compare "$tmp/so" "$tmp/sn"
expect "stacks: compare, no collapse where it fell is better" 0 "1 better" -- \
    "$VB" compare "$tmp/sn" "$tmp/so"

# ---- compare names the integrator whose runs are gone (attack 6, item 9) ----
# a rigid-euler row deleted: "63 runs of rigid-no-gyro, the plan in its
# header makes 62" blamed the next integrator (the count was the first's)
flips_copy "$tmp/fn" cat
sed -i '10d' "$tmp/fn/dzhanibekov/runs.csv"
expect "compare: a deleted rigid-euler run blames rigid-euler" 2 \
    "62 runs of rigid-euler, where the others have 63" -- "$VB" compare "$tmp/fn" "$tmp/fo"

# ---- cells no run writes (attack 6, item 10) ----
# each is refused with exit 2 naming file, line and column: a bounce count
# of 3.5 or 1e30 (%.17g prints a whole count as digits, 1e30 as 1e+30, and
# a run counts at most a bounce a step, contact_metrics.c), a status no
# run has or not its run's (runs.csv says ok), another model than the
# '# model=' line's; an order %.6f never prints (1e308, -0), one outside
# its local orders (a least-squares slope is a weighted mean of them),
# and a label that is not the integrator's (euler's is 1)
cell_refused() { # NAME CASE FILE LINE SED-EXPR PATTERN
    name=$1 case=$2 file=$3 line=$4 expr=$5 pattern=$6
    rm -rf "$tmp/cv" && mkdir -p "$tmp/cv" && cp -r "results/baseline/$case" "$tmp/cv/" &&
        sed -i "${line}s/$expr" "$tmp/cv/$case/$file"
    expect "$name" 2 "$pattern" -- "$VB" compare "$tmp/cv" results/baseline "$case"
}
cell_refused "contact: bounces 3.5" bounce contact.csv 8 '^\(\([^,]*,\)\{11\}\)5,/\13.5,/' \
    "contact.csv:8: column bounces: '3.5' is not"
cell_refused "contact: bounces 1e30" bounce contact.csv 8 '^\(\([^,]*,\)\{11\}\)5,/\11e30,/' \
    "contact.csv:8: column bounces: '1e30' is not"
cell_refused "contact: bounces 1e+30" bounce contact.csv 8 '^\(\([^,]*,\)\{11\}\)5,/\11e+30,/' \
    "contact.csv:8: column bounces: '1e+30' is not a count of bounces no larger than its run's steps"
cell_refused "contact: status zzz" bounce contact.csv 8 ',ok,/,zzz,/' \
    "contact.csv:8: status 'zzz' where the run of"
cell_refused "contact: status diverged against runs.csv's ok" bounce contact.csv 8 ',ok,/,diverged,/' \
    "contact.csv:8: status 'diverged' where the run of"
cell_refused "contact: model=slide in a bounce table" bounce contact.csv 8 '^bounce,/slide,/' \
    "contact.csv:8: column model: 'slide' is not the model of the '# model=' line"
cell_refused "orders: order 1e308" spring orders.csv 8 '^\(euler,fixed,err_pos_final,\)[^,]*,/\11e308,/' \
    "orders.csv:8: column order: '1e308' is not"
cell_refused "orders: order -0" spring orders.csv 8 '^\(euler,fixed,err_pos_final,\)[^,]*,/\1-0,/' \
    "orders.csv:8: column order: '-0' is not"
big=$(python3 -c 'print("%.6f" % 1e308)') # the double's digits (bash's printf takes a long double)
cell_refused "orders: order 1e308 as %.6f prints it" spring orders.csv 8 \
    "^\\(euler,fixed,err_pos_final,\\)[^,]*,/\\1$big,/" \
    "orders.csv:8: column order: '1000000000000000010979"
cell_refused "orders: an order outside its local orders, as-expected" spring orders.csv 8 \
    '^\(euler,fixed,err_pos_final,\)[^,]*,/\11.200000,/' \
    "orders.csv:8: column order: '1.200000' is not an order between the least and the greatest local order"
cell_refused "orders: expected=7 for euler" spring orders.csv 8 \
    '^\(euler,fixed,err_pos_final,[^,]*,[^,]*,\)1,/\17,/' \
    "orders.csv:8: column expected: '7' is not the integrator's label order"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
