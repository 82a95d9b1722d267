#!/bin/sh
# valgrind.sh BUILD_DIR — a representative sim, run, check and plugin load
# under valgrind's memcheck: no invalid access, no use of uninitialised
# values, no leak.  Skipped (0 passed, 0 failed) for a sanitizer build, which
# cannot run under valgrind.  Ends with "N passed, N failed".
set -u
VB="$1/verletbench"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if nm "$VB" 2>/dev/null | grep -q __asan_init; then
    echo "valgrind: skipped for the sanitizer build (ASan replaces it)"
    echo "0 passed, 0 failed"
    exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "FAIL valgrind: not installed (apt-get install valgrind)"
    echo "0 passed, 1 failed"
    exit 1
fi
pass=0
fail=0
# vg NAME WANT COMMAND...: memcheck clean (its errors exit 99) and exit status WANT
vg() {
    name=$1 want=$2
    shift 2
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$@" >"$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq "$want" ]; then
        pass=$((pass + 1))
    else
        echo "FAIL valgrind: $name: exit $rc, want $want"; tail -30 "$tmp/out"; fail=$((fail + 1))
    fi
}
cd "$ROOT" || exit 1
vg "sim orbit tcv, random steps, trajectory" 0 "$VB" sim --model orbit --integrator tcv --dt 0.01 \
    --jitter 0.5 --seed 3 --trajectory "$tmp/traj.csv"
vg "sim pendulum rk4 over a trace" 0 "$VB" sim --model pendulum --integrator rk4 --steps cases/traces/frames-60hz.trace
vg "sim chain of 64: FFTW's transform, the rotated phases" 0 "$VB" sim --model chain --set N=64 --integrator velocity-verlet --dt 0.1 --t-end 5
vg "run article-projectile" 0 "$VB" run --quiet cases/article-projectile.case --out "$tmp/res"
vg "sim a rigid body: the free body's elliptic functions, its trajectory" 0 "$VB" sim \
    --model free-body --integrator rigid-splitting4 --dt 0.1 --t-end 5 --trajectory "$tmp/rigid.csv"
vg "sim a rigid body in an accumulator loop" 0 "$VB" sim --model symmetric-top \
    --integrator rigid-implicit-gyro --dt 0.05 --t-end 2 --loop accumulator --physics-dt 1/60 \
    --draw interpolate
vg "run a rigid case: flips.csv, the rigid tables" 0 "$VB" run --quiet --no-chart-data \
    cases/racket.case --out "$tmp/rig"
vg "check article-spring" 0 "$VB" check --quiet cases/article-spring.case
vg "sim bounce inside toi: GSL's roots, the contact measures" 0 "$VB" sim --model bounce --set vth=1 --integrator velocity-verlet --dt 0.01 --contact toi
vg "run slide and tunnel: handlers round methods, contact.csv, the bisection" 0 "$VB" run --quiet cases/slide.case cases/tunnel.case --out "$tmp/res"
vg "bad input: a handler on a model without a contact" 2 "$VB" sim --model spring --integrator rk4 --contact toi
vg "bad input: unwritable --out" 2 "$VB" run cases/spring.case --out /proc/nowhere
vg "bad input: unknown integrator" 2 "$VB" sim --model spring --integrator nope
vg "stability: threads, jitter, the files" 0 "$VB" stability --model damped-spring --vary c=0.5,1 \
    --integrator velocity-verlet,pefrl --jitter 0,0.5 --seeds 2 --periods 100 --rtol 1e-4 -j 2 \
    --out "$tmp/stab"
vg "longrun with --kahan" 0 "$VB" longrun --model orbit --integrator velocity-verlet,yoshida4 --kahan \
    --periods 1000 --steps-per-period 20 -j 2 --out "$tmp/long"
vg "sim float32 about a shifted origin" 0 "$VB" sim --model orbit --integrator pefrl --dt 0.01 \
    --precision float32 --offset 1000
${CC:-cc} -std=c11 -fPIC -shared -ffp-contract=off -O2 -Isrc -o "$tmp/fr.so" examples/plugin/forest_ruth.c -lm 2>/dev/null \
    || cc -std=c11 -fPIC -shared -O2 -Isrc -o "$tmp/fr.so" examples/plugin/forest_ruth.c -lm
vg "plugin: load and sim" 0 "$VB" sim --plugin "$tmp/fr.so" --integrator forest-ruth --model orbit --dt 0.01
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
