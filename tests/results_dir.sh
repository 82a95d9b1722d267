#!/bin/sh
# results_dir.sh BUILD_DIR — what `run` does to its output directory when
# things go wrong:
#  - SIGKILL at any moment (20 kills spread over a run): every case
#    directory is wholly the old one or wholly the new one, and the next run
#    removes what the killed ones left (.NAME.new-*, .NAME.old-*, *.tmp.*);
#  - a file-size limit (EFBIG) halfway: exit 1, nothing changed, nothing left;
#  - a second run into the same --out while one is writing: exit 2, named;
#  - a read-only result file, or a directory that is not a case's: exit 2,
#    nothing changed;
#  - summary.md holds the cases of this run only;
#  - what an earlier draw made of the tables a run replaces (REPORT.md, the
#    charts of the cases written) is removed, in DIR/plots and in make's
#    plots/; other cases' charts and the user's files stay;
#  - make restores the whole report after a run of some cases into
#    results/ (the Makefile's own results rule, run on two small cases).
# Ends with "N passed, N failed".
set -u
VB="$(cd "$1" && pwd)/verletbench"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL results dir: $*"; fail=$((fail + 1)); }
cd "$tmp" || exit 1

# two cases, each in an old (8 seeds) and a new (SEEDS seeds) version; the
# big one writes a 16 MB runs.csv, so a good share of the kills land while
# files are being written
mkcase() {  # NAME SEEDS
    cat > "$1.case" <<EOF
[case]
model = spring
t_end = 0.01
[steps]
dt = 0.005
halvings = 8
jitter = 0.5
seeds = $2
[integrators]
use = all
EOF
}
mkdir old new
(cd old && mkcase small 8 && mkcase big 8)
(cd new && mkcase small 16 && mkcase big 1000)
FILES="bands.csv onestep.csv onestep_orders.csv orders.csv reverse.csv runs.csv summary.md"

# whole DIR NAME: prints "old" or "new" if every file of the case is there
# and comes from one version, else what is wrong
whole() {
    d=$1/$2
    [ -d "$d" ] || { echo "missing"; return; }
    have=$(cd "$d" && ls | sort | tr '\n' ' ')
    want=$(echo $FILES | tr ' ' '\n' | sort | tr '\n' ' ')
    [ "$have" = "$want" ] || { echo "files: $have"; return; }
    seeds=$(grep -h '^# dt=' "$d"/*.csv | sed 's/.*seeds=\([0-9]*\).*/\1/' | sort -u | tr '\n' ' ')
    case "$seeds" in
        "8 ") echo old ;;
        "16 " | "1000 ") echo new ;;
        *) echo "mixed seeds: $seeds" ;;
    esac
}

"$VB" run --quiet --no-chart-data old/small.case old/big.case --out res >/dev/null 2>&1 || bad "the first run"
start=$(date +%s%N)
"$VB" run --quiet --no-chart-data new/small.case new/big.case --out timing >/dev/null 2>&1
took=$((($(date +%s%N) - start) / 1000000))

# ---- SIGKILL at 20 moments across the run; the last one after its end
# whatever the machine's load (it waits for the run, then kills: a run that
# ended must leave the case new), where timed kills at 1.4 times the timing
# run's length could all land before it under load ----
mixed=0 seen_new=0
for k in $(seq 1 20); do
    ms=$((took * k / 14))
    "$VB" run --quiet --no-chart-data new/small.case new/big.case --out res >/dev/null 2>&1 &
    pid=$!
    if [ "$k" -eq 20 ]; then
        wait $pid 2>/dev/null
    else
        sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    fi
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    for c in small big; do
        w=$(whole res $c)
        case $w in
            old) ;;
            new) seen_new=$((seen_new + 1)) ;;
            *) mixed=$((mixed + 1)); echo "  kill $k at ${ms} ms: $c: $w" ;;
        esac
    done
    # back to the old results for the next kill, through a run, which also
    # removes what the killed one left
    "$VB" run --quiet --no-chart-data old/small.case old/big.case --out res >/dev/null 2>&1 || bad "rerun after kill $k"
done
[ $mixed -eq 0 ] && ok || bad "$mixed case directories were neither wholly old nor wholly new after SIGKILL"
[ $seen_new -gt 0 ] && ok || bad "no kill came late enough to leave a new case (the run took $took ms)"
# a kill in the middle of writing leaves a hidden temporary; the next run removes it
mkdir res/.big.new-AbC123 && echo x > res/.big.new-AbC123/runs.csv
echo x > res/big/runs.csv.tmp.QwErTy
echo x > res/summary.md.tmp.ZxCvBn
"$VB" run --quiet --no-chart-data old/small.case --out res >/dev/null 2>&1
# ... but only what is its own: a user's files of similar names stay
echo mine > res/notes.tmp.123456
mkdir res/.photos.old-AbC123 && echo mine > res/.photos.old-AbC123/cat.jpg
echo mine > res/big/draft.tmp.abcdef
"$VB" run --quiet --no-chart-data old/small.case --out res >/dev/null 2>&1
left=$(find res \( -name '.*.new-*' -o -name '.*.old-*' -o -name '*.tmp.*' \) -prune -print | sort | tr '\n' ' ')
[ "$left" = "res/.photos.old-AbC123 res/big/draft.tmp.abcdef res/notes.tmp.123456 " ] && ok || bad "stale temporaries left after the next run, or a user's file removed: $left"
rm -rf res/notes.tmp.123456 res/.photos.old-AbC123 res/big/draft.tmp.abcdef

snapshot() { (cd res && find . -type f | sort | xargs md5sum); }

# ---- a file-size limit halfway: nothing changes ----
snapshot > before
( ulimit -f 2000; "$VB" run --quiet --no-chart-data new/small.case new/big.case --out res ) >out 2>&1
rc=$?
snapshot > after
[ $rc -eq 1 ] && grep -q "File too large" out && ok || { bad "EFBIG: exit $rc, want 1 with 'File too large'"; cat out; }
cmp -s before after && ok || { bad "EFBIG changed the results"; diff before after | head; }
left=$(find res -name '.*.new-*' -o -name '.*.old-*' -o -name '*.tmp.*' | wc -l)
[ "$left" -eq 0 ] && ok || bad "EFBIG left $left temporaries"

# ---- a second run into the same directory ----
"$VB" run --quiet --no-chart-data new/big.case --out res >first.out 2>&1 &
pid=$!
# the second starts once the first holds its flock on res (/proc/locks
# lists it by the directory's inode), not after a guessed 0.3 s that a
# loaded machine may not give it; at most 30 s, or until the first ended
ino=$(stat -c %i res)
i=0
until grep -q ":$ino " /proc/locks || ! kill -0 $pid 2>/dev/null || [ $i -ge 600 ]; do
    sleep 0.05
    i=$((i + 1))
done
"$VB" run --quiet --no-chart-data old/small.case --out res >second.out 2>&1
rc=$?
wait $pid
rc1=$?
[ $rc -eq 2 ] && grep -q "another verletbench is writing there" second.out && ok || \
    { bad "second run: exit $rc, want 2 naming the lock"; cat second.out; }
[ $rc1 -eq 0 ] && [ "$(whole res big)" = new ] && ok || bad "the first run did not finish whole (exit $rc1)"

# ---- what must not be replaced ----
"$VB" run --quiet --no-chart-data old/small.case --out res >/dev/null 2>&1
chmod 444 res/small/runs.csv
snapshot > before
"$VB" run --quiet --no-chart-data new/small.case --out res >out 2>&1
rc=$?
snapshot > after
[ $rc -eq 2 ] && grep -q "res/small/runs.csv is read-only: not replacing it" out && cmp -s before after && ok || \
    { bad "a read-only result: exit $rc, want 2, nothing changed"; cat out; }
chmod 644 res/small/runs.csv
mkdir -p res/notes/sub
cp old/small.case notes.case
"$VB" run --quiet --no-chart-data notes.case --out res >out 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "res/notes holds a directory (sub): not a case directory" out && [ -d res/notes/sub ] && ok || \
    { bad "a directory that is not a case's: exit $rc, want 2"; cat out; }

# ---- summary.md: this run's cases only ----
"$VB" run --quiet --no-chart-data old/big.case --out res >/dev/null 2>&1
grep -q '^## big' res/summary.md && ! grep -q '^## small' res/summary.md && ok || \
    bad "summary.md does not hold exactly this run's case: $(grep '^## ' res/summary.md | tr '\n' ' ')"

# ---- what an earlier draw made of the tables a run replaces ----
# REPORT.md is drawn from the summary.md of the run before, and a case's
# charts from its tables: after a run without --draw they would disagree
# with what it wrote, so they go; another case's charts (their tables are
# still there) and a file of the user's stay.  Into results/ (make's
# layout) the charts are in plots/, beside the scripts.
stale() {  # RESULTS CHARTS
    mkdir -p "$2/small" "$2/big"
    echo "## big (the report of the run before)" > "$1/REPORT.md"
    for f in "$2/small/convergence.png" "$2/small/band.png.tmp.123" "$2/small/notes.txt" \
             "$2/big/convergence.png"; do echo old > "$f"; done
}
stale res res/plots
"$VB" run --quiet old/small.case --out res >out 2>&1
rc=$?
[ $rc -eq 0 ] && [ ! -e res/REPORT.md ] && [ ! -e res/plots/small/convergence.png ] && \
    [ ! -e res/plots/small/band.png.tmp.123 ] && [ -f res/plots/small/notes.txt ] && \
    [ -f res/plots/big/convergence.png ] && grep -q '^## small' res/summary.md && ok || \
    { bad "a run without --draw left an earlier REPORT.md or the charts of the case it replaced (exit $rc)"; \
      ls -R res/plots res/REPORT.md 2>&1 | head -20; cat out; }
rm -rf res/plots/small/notes.txt
"$VB" run --quiet old/small.case --out res >out 2>&1
[ ! -e res/plots/small ] && ok || bad "the charts' directory of a case, emptied, stays"
mkdir -p lay
(cd lay && mkdir -p results && stale results plots && \
    "$VB" run --quiet ../old/small.case --out results >../out 2>&1)
rc=$?
[ $rc -eq 0 ] && [ ! -e lay/results/REPORT.md ] && [ ! -e lay/plots/small/convergence.png ] && \
    [ -f lay/plots/big/convergence.png ] && [ ! -e lay/results/plots ] && ok || \
    { bad "into results/: the stale charts in plots/ (make's layout), exit $rc"; cat out; }
# a shard writes no summary, and draws nothing: it removes nothing either
stale res res/plots
"$VB" run --quiet --shard 1/2 old/small.case --out res >out 2>&1
rc=$?
[ $rc -eq 0 ] && [ -f res/REPORT.md ] && [ -f res/plots/small/convergence.png ] && ok || \
    { bad "run --shard removed an earlier drawing (exit $rc)"; cat out; }

# ---- make restores a whole report ----
# The project's Makefile over a cases/ of two small cases, with a copy of
# the binary newer than the objects it stands on (empty files: nothing is
# rebuilt); an example run into results/ leaves summary.md with its one
# case; the next make runs both again; then make has nothing to do.
if command -v make >/dev/null 2>&1; then
    mkdir -p mk/cases mk/build/commands
    cp "$ROOT/Makefile" mk/
    : > mk/build/commands/main.o
    : > mk/build/libverletbench.a
    touch -d '1 hour ago' mk/build/commands/main.o mk/build/libverletbench.a
    cp "$VB" mk/build/verletbench
    for n in alpha beta; do
        printf '[case]\nmodel = spring\nt_end = 1\n[steps]\ndt = 0.1\nhalvings = 2\n[integrators]\nuse = tcv, verlet-var\n' > mk/cases/$n.case
    done
    mkrun() { make -C mk --no-print-directory BUILD=build "$@"; }
    heads() { grep '^## ' mk/results/summary.md | tr '\n' ' '; }
    mkrun results >mk.log 2>&1 && [ "$(heads)" = "## alpha ## beta " ] && ok || \
        { bad "make results: $(heads)"; cat mk.log; }
    (cd mk && build/verletbench run --quiet cases/alpha.case --out results) >/dev/null 2>&1
    [ "$(heads)" = "## alpha " ] && ok || bad "a run of one case: summary.md holds $(heads)"
    mkrun -q results; rc=$?
    [ $rc -eq 1 ] && ok || bad "make -q results after a run of one case into results/: exit $rc, want 1 (not up to date)"
    mkrun results >mk.log 2>&1 && grep -q "make: the sweep: 2 case files" mk.log && \
        grep -q "^## beta" mk/build/make.log && \
        [ "$(heads)" = "## alpha ## beta " ] && ok || \
        { bad "make after a run of one case does not restore the report: $(heads)"; cat mk.log; }
    mkrun -q results && ok || bad "make -q results right after make results: not up to date"
    rm mk/results/summary.md
    mkrun -q results; rc=$?
    [ $rc -eq 1 ] && ok || bad "make -q results without results/summary.md: exit $rc, want 1"
else
    echo "skip: make not installed"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
