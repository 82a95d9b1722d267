#!/bin/sh
# scaling.sh [CASEFILE] [REPEATS] — what sharding a sweep costs and saves on
# this machine: the sweep as one run on 1 thread and on 2, as 4 shards each
# alone on 1 thread (the time each would take on a machine of its own), as
# 4 shards through GNU parallel on 2 job slots, and the merge of the 4.
# Each time is the median of REPEATS (default 3); every merge is compared
# with the whole run, byte for byte.  Prints a Markdown table.
#
#   sh examples/slurm/scaling.sh examples/slurm/eccentricity-study.case
#
# Run it on an otherwise idle machine from the project's directory, with
# verletbench on PATH (or VB=build/verletbench).
set -eu
CASE=${1:-examples/slurm/eccentricity-study.case}
REPEATS=${2:-3}
VB=${VB:-verletbench}
command -v parallel >/dev/null 2>&1 || { echo "scaling.sh: needs GNU parallel (apt-get install parallel)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vb-scaling.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

now() { date +%s.%N; }
# seconds since $1
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f\n", b - a }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for r in $(seq "$REPEATS"); do
    rm -rf "$tmp/one1" "$tmp/one2" "$tmp/s" "$tmp/m"
    t=$(now); "$VB" run --quiet -j 1 "$CASE" --out "$tmp/one1"; since "$t" >> "$tmp/t-j1"
    t=$(now); "$VB" run --quiet -j 2 "$CASE" --out "$tmp/one2"; since "$t" >> "$tmp/t-j2"
    for k in 1 2 3 4; do
        t=$(now); "$VB" run --quiet -j 1 --shard $k/4 "$CASE" --out "$tmp/s/$k"; since "$t" >> "$tmp/t-shard$k"
    done
    rm -rf "$tmp/s"
    t=$(now)
    parallel --will-cite -j 2 "$VB" run --quiet -j 1 --shard {}/4 "$CASE" --out "$tmp/s/{}" ::: 1 2 3 4
    since "$t" >> "$tmp/t-par"
    t=$(now); "$VB" merge --quiet -j 2 "$tmp"/s/* --out "$tmp/m"; since "$t" >> "$tmp/t-merge"
    diff -r "$tmp/m" "$tmp/one2" >/dev/null || { echo "scaling.sh: the merge differs from the whole run" >&2; exit 1; }
    diff -r "$tmp/one1" "$tmp/one2" >/dev/null || { echo "scaling.sh: -j 1 and -j 2 differ" >&2; exit 1; }
done
slow=$(for k in 1 2 3 4; do median < "$tmp/t-shard$k"; done | sort -n | tail -n 1)
fast=$(for k in 1 2 3 4; do median < "$tmp/t-shard$k"; done | sort -n | head -n 1)
echo "| how | wall time (s) |"
echo "|---|---|"
echo "| one \`run\`, 1 thread | $(median < "$tmp/t-j1") |"
echo "| one \`run\`, 2 threads | $(median < "$tmp/t-j2") |"
echo "| 4 shards, each alone on 1 thread: the slowest / the fastest | $slow / $fast |"
echo "| 4 shards through \`parallel -j2\` on this machine | $(median < "$tmp/t-par") |"
echo "| \`merge\` of the 4 (2 threads) | $(median < "$tmp/t-merge") |"
echo
echo "(median of $REPEATS; every merge equal to the whole run, byte for byte; $(nproc 2>/dev/null || echo '?') CPUs)"
