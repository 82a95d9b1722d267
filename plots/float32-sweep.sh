#!/bin/sh
# float32-sweep.sh — where each kick-drift method stops converging in
# float32, at offsets 0, 1e3 and 1e4 (docs/float32.md §2): sim at 2^3 to
# 2^20 steps a period, one period, float64 and float32.
#   sh plots/float32-sweep.sh VERLETBENCH MODEL OUT.csv [--set KEY=VALUE]...
# Writes OUT.csv whole or not at all: integrator,precision,offset,
# steps_per_period,dt,err_pos_max; draw it with plots/float32.gp.
set -eu
VB=$1 MODEL=$2 OUT=$3
shift 3
# a column of sim's row, by its name in sim's header (the columns are
# runs.csv's, docs/method.md §4: read them by name)
col() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR == 2 { print $k }'; }
T=$("$VB" sim --model "$MODEL" "$@" --integrator euler --dt 1e9 2>/dev/null | col t_end)
TMP="$OUT.tmp.$$"
trap 'rm -f "$TMP"' EXIT
{
    echo "# $("$VB" --version | head -n 1) sim, model $MODEL $*, one period T = $T"
    echo "integrator,precision,offset,steps_per_period,dt,err_pos_max"
    for integ in euler euler-semi velocity-verlet yoshida4 pefrl; do
        for po in float64:0 float32:0 float32:1e3 float32:1e4; do
            p=${po%%:*} o=${po#*:}
            k=3
            while [ $k -le 20 ]; do
                n=$(awk "BEGIN { printf \"%d\", 2 ^ $k }")
                dt=$(awk "BEGIN { printf \"%.17g\", $T / $n }")
                err=$("$VB" sim --model "$MODEL" "$@" --integrator $integ --dt "$dt" \
                      --precision $p --offset $o | col err_pos_max)
                echo "$integ,$p,$o,$n,$dt,$err"
                k=$((k + 1))
            done
        done
    done
} > "$TMP"
mv "$TMP" "$OUT"
trap - EXIT
