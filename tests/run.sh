#!/bin/sh
# run.sh BUILD_DIR — every test suite; the last line sums them: "N passed, N failed".
set -u
BUILD=${1:-build}
here=$(dirname "$0")
total_pass=0
total_fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

suite() {
    name=$1
    shift
    echo "== $name"
    "$@" 2>&1 | tee "$log"
    last=$(tail -n 1 "$log")
    p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    if [ -z "$p" ]; then
        echo "FAIL $name: the suite did not finish"
        p=0
        f=1
    fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
}

suite "unit tests" "$BUILD/unit-tests"
suite "command line" sh "$here/cli.sh" "$BUILD"
suite "layers: the include rule of docs/architecture.md, and that its check can fail" python3 "$here/layers.py" "$BUILD"
suite "independent reference (SPEC in Python)" python3 "$here/reference/compare.py" "$BUILD"
suite "rigid bodies: the free body's 30-digit mpmath reference (tests/rigid_mpmath.h) recomputed" python3 "$here/reference/free_body.py" --check
suite "run outputs (files, columns, orders)" python3 "$here/run_outputs.py" "$BUILD"
suite "bad input catalogue" python3 "$here/bad_inputs.py" "$BUILD"
suite "charts (gnuplot)" python3 "$here/plots.py" "$BUILD"
suite "docs: self-contained, links that hold" python3 "$here/docs.py" "$BUILD"
suite "README: its examples as printed on a fresh checkout, its tables as the tool prints them" python3 "$here/readme.py" "$BUILD"
suite "interrupted runs leave results as they were" sh "$here/interrupt.sh" "$BUILD"
suite "results directories: SIGKILL, EFBIG, a second run, what is not replaced" sh "$here/results_dir.sh" "$BUILD"
suite "plugins, mutants and the regression check" sh "$here/plugins.sh" "$BUILD"
suite "check: false alarms, damaged baselines, --save" sh "$here/check.sh" "$BUILD"
suite "external engines: examples, bad engines, problem and score" python3 "$here/engines.py" "$BUILD"
suite "engine protocol 2: v1 examples byte for byte, persistent workers, their failures" python3 "$here/protocol2.py" "$BUILD"
suite "velocity=none: a position-only engine against verlet, its empty cells, check" python3 "$here/velocity_none.py" "$BUILD"
suite "real engines: planck and Chipmunk held to their source code" python3 "$here/real_engines.py" "$BUILD"
suite "run --strict: a trend below the label, diverged runs, round-off that passes" python3 "$here/strict.py" "$BUILD"
suite "models: where each potential energy is zero, in list and in the code" python3 "$here/energy_zero.py" "$BUILD"
suite "3D engines: protocol 3 in the helpers; cannon-es, Bullet, ODE, Jolt, Rapier, MuJoCo held to their source, Havok to a steady spin" python3 "$here/real_engines_3d.py" "$BUILD"
suite "frame loops: accumulator, draws, substeps against hand-written loops and closed forms" python3 "$here/frame_loops.py" "$BUILD"
suite "fair comparisons: new methods, order intervals, adaptive, timing" python3 "$here/fair_comparisons.py" "$BUILD"
suite "parameter grids: points as cases, grid.csv, ranges, engines, charts" python3 "$here/grids.py" "$BUILD"
suite "constraints: rods, Jakobsen, SHAKE, RATTLE against independent truths" python3 "$here/constraints.py" "$BUILD"
suite "stability: limits against their closed forms, jitter, bad input" python3 "$here/stability.py" "$BUILD"
suite "long runs: exponents and verdicts on known cases, Kahan, round-off" python3 "$here/longrun.py" "$BUILD"
suite "float32: sim --precision against a float loop written in the test" python3 "$here/float32.py" "$BUILD"
suite "shards: run --shard K/N through GNU parallel, merge" sh "$here/shards.sh" "$BUILD"
suite "libraries: the GSL and FFTW every data file names, and merge refusing others" python3 "$here/libraries.py" "$BUILD"
suite "valgrind memcheck" sh "$here/valgrind.sh" "$BUILD"
suite "regression check against results/baseline" sh "$here/regression.sh" "$BUILD"

echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
