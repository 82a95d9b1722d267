#!/bin/sh
# cli.sh BUILD_DIR — the command line: help, bad input (exit 2 with a message
# that names the problem and lists what is valid), divergence (exit 1, a row
# that says so).  Ends with "N passed, N failed".
set -u
VB="$1/verletbench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# expect NAME STATUS PATTERN -- ARGS...: exit status and a fixed string in stdout+stderr
expect() {
    name=$1 want=$2 pattern=$3
    shift 4
    "$VB" "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL cli: $name: exit $got, want $want"; sed 's/^/    /' "$tmp/out"; fail=$((fail + 1))
    elif ! grep -qF -- "$pattern" "$tmp/out"; then
        echo "FAIL cli: $name: output lacks '$pattern'"; sed 's/^/    /' "$tmp/out"; fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

MODELS="projectile, spring, damped-spring, impulse, orbit, pendulum, chain, two-body, figure-eight, henon-heiles, rod-pendulum, double-pendulum, hanging-chain, bounce, slide, tunnel"
INTEGS="euler, euler-semi, verlet, verlet-naive, tcv, verlet-var, velocity-verlet, leapfrog, rk4, beeman, yoshida4, pefrl, rkf45, rk8pd, jakobsen, tcv-jakobsen, shake, rattle; for a rigid body: rigid-euler, rigid-no-gyro, rigid-explicit-gyro, rigid-explicit-gyro-linear, rigid-implicit-gyro, rigid-rk4, rigid-splitting, rigid-no-squish, rigid-splitting4"

expect "help" 0 "Usage: verletbench COMMAND" -- --help
expect "no command" 2 "Usage: verletbench COMMAND" --
expect "unknown command" 2 "unknown command 'frobnicate'" -- frobnicate
expect "sim --help" 0 "--trajectory FILE" -- sim --help
expect "list --help" 0 "Usage: verletbench list" -- list --help

# every command's help keeps its line breaks: the widest deliberate lines are
# the 103-column examples of stability and longrun, so a line past 104 is a
# paragraph whose "\n" went missing (check's once ran to 140)
for c in "" run sim draw merge bench stability longrun score list compare problem check; do
    "$VB" $c --help >"$tmp/help" 2>&1
    wide=$(awk 'length($0) > 104 { n++ } END { print n + 0 }' "$tmp/help")
    if [ "$wide" -eq 0 ] && [ -s "$tmp/help" ]; then
        pass=$((pass + 1))
    else
        echo "FAIL cli: ${c:-verletbench} --help: $wide lines over 104 columns"; fail=$((fail + 1))
    fi
done
expect "list" 0 "Dummer's time-corrected Verlet" -- list
expect "list --csv" 0 "integrator,tcv,2,yes" -- list --csv

expect "unknown model" 2 "unknown model 'moon' (valid: $MODELS)" -- sim --model moon --integrator tcv
expect "missing model" 2 "--model is required (one of: $MODELS)" -- sim --integrator tcv
expect "unknown integrator" 2 "unknown integrator 'verlett' (valid: $INTEGS)" -- sim --model spring --integrator verlett
expect "unknown --set key" 2 "unknown parameter 'ecc' for model orbit (valid: mu, a, e)" -- sim --model orbit --integrator tcv --set ecc=0.5
expect "--set without =" 2 "expected KEY=VALUE" -- sim --model orbit --integrator tcv --set e
expect "dt = 0" 2 "--dt: 0 must be > 0" -- sim --model spring --integrator tcv --dt 0
expect "dt < 0" 2 "--dt: -0.1 must be > 0" -- sim --model spring --integrator tcv --dt -0.1
expect "dt not a number" 2 "--dt: 'fast' is not a finite number" -- sim --model spring --integrator tcv --dt fast
expect "dt nan" 2 "--dt: 'nan' is not a finite number" -- sim --model spring --integrator tcv --dt nan
expect "t_end = 0" 2 "--t-end: 0 must be > 0" -- sim --model spring --integrator tcv --t-end 0
expect "t_end < 0" 2 "--t-end: -5 must be > 0" -- sim --model spring --integrator tcv --t-end -5
expect "jitter = 1" 2 "--jitter: 1 must be in [0, 1)" -- sim --model spring --integrator tcv --jitter 1
expect "jitter < 0" 2 "--jitter: -0.2 must be in [0, 1)" -- sim --model spring --integrator tcv --jitter -0.2
expect "e = 1" 2 "e = 1 is out of range: e must be [0, 1)" -- sim --model orbit --integrator tcv --set e=1
expect "e < 0" 2 "e = -0.5 is out of range: e must be [0, 1)" -- sim --model orbit --integrator tcv --set e=-0.5
expect "over-damped" 2 "not under-damped" -- sim --model damped-spring --integrator tcv --set c=5
expect "bad seed" 2 "--seed: '-3' is not a whole number" -- sim --model spring --integrator tcv --jitter 0.5 --seed -3
expect "stray argument" 2 "unexpected argument 'extra'" -- sim --model spring --integrator tcv extra

printf '0.1\n0.1\n# fine\n-0.1\n' >"$tmp/neg.trace"
expect "negative trace line" 2 "$tmp/neg.trace:4: step '-0.1' is not a positive number" -- sim --model spring --integrator tcv --steps "$tmp/neg.trace"
printf '0.1\nzero\n' >"$tmp/word.trace"
expect "word in trace" 2 "$tmp/word.trace:2: step 'zero' is not a positive number" -- sim --model spring --integrator tcv --steps "$tmp/word.trace"
expect "missing trace" 2 "$tmp/none.trace: cannot open a trace" -- sim --model spring --integrator tcv --steps "$tmp/none.trace"
printf '0.1\n0.1\n' >"$tmp/short.trace"
expect "trace shorter than t_end" 2 "short of t_end" -- sim --model spring --integrator tcv --steps "$tmp/short.trace" --t-end 5
expect "trace with --dt" 2 "takes no --dt" -- sim --model spring --integrator tcv --steps "$tmp/short.trace" --dt 0.1

# a huge step: the state overflows; reported, not crashed
expect "divergence" 1 ",diverged," -- sim --model orbit --integrator velocity-verlet --t-end 1e200 --dt 1e199
expect "divergence message" 1 "the run diverged at step 1" -- sim --model orbit --integrator rk4 --t-end 1e200 --dt 1e199

# a good run, and its trajectory file: header, provenance, one row per step.
# Fixed plan: N = ceil(2 pi/0.01 - 1e-9) = 629 steps of 2 pi/629.
expect "sim" 0 "orbit,tcv,fixed,0.0099891658301742223,0,,629,6.2831853071795862,630," -- sim --model orbit --integrator tcv --dt 0.01 --trajectory "$tmp/traj.csv"
expect "sim random" 0 "orbit,tcv,random,0.01,0.5,3," -- sim --model orbit --integrator tcv --dt 0.01 --jitter 0.5 --seed 3
expect "run -j 0" 2 "--jobs: '0': give a whole number of threads from 1 to 1024" -- run cases/spring.case -j 0
expect "run -j -1" 2 "--jobs: '-1': give a whole number of threads from 1 to 1024" -- run cases/spring.case -j -1
expect "check --jobs x" 2 "--jobs" -- check --jobs x
expect "bench" 0 "orbit,velocity-verlet,single,1000," -- bench --steps 1000 --repeat 1
expect "bench --modes x" 2 "--modes: unknown mode 'x'" -- bench --modes x
expect "bench --dt 0" 2 "--dt: 0 must be in (0, 1]" -- bench --dt 0
expect "bench rods at a step" 0 "hanging-chain,shake:solver=sweeps,single,1000," -- bench --steps 4000 --repeat 1 --model hanging-chain --set N=4 --dt 0.005 --modes single --integrator shake:solver=sweeps
expect "a solver that is no word of its" 2 "solver = 'newton' is not one of: direct, sweeps" -- sim --model rod-pendulum --integrator shake:solver=newton
expect "bench gsl row" 0 "orbit,rk4,gsl,1000," -- bench --steps 1000 --repeat 1 --integrator rk4
expect "bench --repeat 0" 2 "--repeat: 0 must be in 1..64" -- bench --repeat 0
expect "bench spring" 0 "spring,tcv,single,1000," -- bench --steps 1000 --repeat 1 --model spring --integrator tcv
expect "bench systems" 0 "figure-eight,velocity-verlet,fused,1000," -- bench --steps 1000 --repeat 1 --integrator velocity-verlet
expect "bench a method with parameters" 0 "hanging-chain,jakobsen:sweeps=10,single,1000," -- bench --steps 1000 --repeat 1 --model hanging-chain --set N=4 --integrator jakobsen:sweeps=10
expect "bench a method that keeps no rods on rods" 2 "rk4 does not enforce constraints" -- bench --steps 1000 --repeat 1 --model hanging-chain --integrator rk4
expect "bench chain fused" 0 "chain,velocity-verlet,fused,1000," -- bench --steps 1000 --repeat 1 --model chain --set N=4 --integrator velocity-verlet
expect "bench reference" 0 "henon-heiles,rk8pd,reference,20000," -- bench --steps 1000 --repeat 1 --model henon-heiles --integrator euler
expect "bench --set alone" 2 "--set needs --model" -- bench --set N=4
expect "bench --set bad" 2 "--set: " -- bench --model chain --set N=0.5
rows=$(grep -vc '^#' "$tmp/traj.csv")
if [ "$rows" -eq 631 ] && grep -q '^# verletbench .*model=orbit mu=1 a=1 e=0.5 integrator=tcv plan=fixed' "$tmp/traj.csv" &&
    grep -q '^t,x,y,vx,vy,x_exact,y_exact,vx_exact,vy_exact,err_pos,energy$' "$tmp/traj.csv"; then
    pass=$((pass + 1))
else
    echo "FAIL cli: trajectory file has $rows data lines, want 631 (header + t_0..t_629)"; head -3 "$tmp/traj.csv"; fail=$((fail + 1))
fi
ls "$tmp" | grep -q '\.tmp\.' && { echo "FAIL cli: a temporary file was left behind"; fail=$((fail + 1)); } || pass=$((pass + 1))

# the pendulum near the top: its exact solution is a number, and the run is measured
expect "pendulum at theta0 = 3.14159265" 0 "pendulum,rk4,fixed,0.001,0,,1000,1,4000," -- sim --model pendulum --set theta0=3.14159265 --integrator rk4 --t-end 1
grep -q ',nan,\|,-nan,' "$tmp/out" && { echo "FAIL cli: NaN in the pendulum's row"; fail=$((fail + 1)); } || pass=$((pass + 1))

# ---- numbers and traces that are fine, and environment variables that are not ----
expect "a subnormal parameter is a number" 0 "spring,tcv,fixed" -- sim --model spring --integrator tcv --set x0=1e-320
printf '\357\273\2770.1\n0.2\n' > "$tmp/bom.trace"
expect "a trace with a byte-order mark" 0 "spring,tcv,trace,0.15000000000000002,,,2," -- sim --model spring --integrator tcv --steps "$tmp/bom.trace"
VERLETBENCH_THREADS=abc expect "VERLETBENCH_THREADS=abc" 2 "VERLETBENCH_THREADS='abc': want a whole number from 1 to 1024" -- run cases/spring.case --out "$tmp/never"
VERLETBENCH_THREADS=0 expect "VERLETBENCH_THREADS=0" 2 "VERLETBENCH_THREADS='0'" -- check cases/spring.case
VERLETBENCH_MAX_STEPS=-5 expect "VERLETBENCH_MAX_STEPS=-5" 2 "VERLETBENCH_MAX_STEPS='-5': want a number from 1 to 2^50" -- sim --model spring --integrator tcv
VERLETBENCH_MAX_STEPS=lots expect "VERLETBENCH_MAX_STEPS=lots" 2 "VERLETBENCH_MAX_STEPS='lots'" -- run cases/spring.case --out "$tmp/never"
VERLETBENCH_MAX_STEPS=lots expect "--max-steps given: the variable is not used" 0 "spring,tcv,fixed" -- sim --model spring --integrator tcv --max-steps 1e6
VERLETBENCH_THREADS=abc expect "--help works whatever the environment" 0 "Usage: verletbench run" -- run --help
# (some shells keep an assignment made before a function call)
unset VERLETBENCH_THREADS VERLETBENCH_MAX_STEPS
[ -e "$tmp/never" ] && { echo "FAIL cli: a refused run made its --out"; fail=$((fail + 1)); } || pass=$((pass + 1))

# ---- one number reader (numbers.h): a decimal alone, wherever a number is read ----
# strtod, under it, would take each of these: blanks before a number,
# hexadecimal (0x10 is 16), and only the blank after was refused
expect "--dt 0x10" 2 "--dt: '0x10' is hexadecimal: write a decimal" -- sim --model spring --integrator tcv --dt 0x10
expect "--t-end 0x40" 2 "--t-end: '0x40' is hexadecimal: write a decimal" -- sim --model spring --integrator tcv --t-end 0x40
expect "--set k=0x10" 2 "--set: k: '0x10' is hexadecimal: write a decimal" -- sim --model spring --integrator tcv --set k=0x10
expect "--dt ' 0.1'" 2 "--dt: ' 0.1' has a blank before or after it" -- sim --model spring --integrator tcv --dt ' 0.1'
expect "--dt '0.1 '" 2 "--dt: '0.1 ' has a blank before or after it" -- sim --model spring --integrator tcv --dt '0.1 '
expect "--set 'k= 2'" 2 "--set: k: ' 2' has a blank before or after it" -- sim --model spring --integrator tcv --set 'k= 2'
expect "--seed ' 1'" 2 "--seed: ' 1' is not a whole number in 0..4294967295" -- sim --model spring --integrator tcv --jitter 0.5 --seed ' 1'
expect "--seed '1 '" 2 "--seed: '1 ' is not a whole number in 0..4294967295" -- sim --model spring --integrator tcv --jitter 0.5 --seed '1 '
expect "--seed +1" 2 "--seed: '+1' is not a whole number" -- sim --model spring --integrator tcv --jitter 0.5 --seed +1
expect "-j ' 2'" 2 "--jobs: ' 2': give a whole number of threads" -- run cases/spring.case --out "$tmp/never" -j ' 2'
expect "--shard ' 1/2'" 2 "--shard: ' 1/2' is not K/N" -- run cases/spring.case --out "$tmp/never" --shard ' 1/2'
expect "--shard '1/ 2'" 2 "--shard: '1/ 2' is not K/N" -- run cases/spring.case --out "$tmp/never" --shard '1/ 2'
expect "--engine's order ' 2'" 2 "the order between ':' and '=' must be 1 to 16" -- sim --model spring --engine 'e: 2=true'
expect "score --order ' 2'" 2 "--order: ' 2': want a whole number in 1..16" -- score --order ' 2' "$tmp"
VERLETBENCH_THREADS=' 2' expect "VERLETBENCH_THREADS=' 2'" 2 "VERLETBENCH_THREADS=' 2': want a whole number" -- run cases/spring.case --out "$tmp/never"
VERLETBENCH_MAX_STEPS='1e6 ' expect "VERLETBENCH_MAX_STEPS='1e6 '" 2 "VERLETBENCH_MAX_STEPS='1e6 ': want a number" -- sim --model spring --integrator tcv
unset VERLETBENCH_THREADS VERLETBENCH_MAX_STEPS
expect "--dt 1e-1, .1 and +0.1 are decimals" 0 "spring,tcv,fixed,0.099733100113961692," -- sim --model spring --integrator tcv --dt 1e-1
expect "--dt .1" 0 "spring,tcv,fixed,0.099733100113961692," -- sim --model spring --integrator tcv --dt .1
expect "--dt +0.1" 0 "spring,tcv,fixed,0.099733100113961692," -- sim --model spring --integrator tcv --dt +0.1
[ -e "$tmp/never" ] && { echo "FAIL cli: a refused run made its --out"; fail=$((fail + 1)); } || pass=$((pass + 1))

# ---- an option of one value given twice: refused, not the last one silently taken ----
expect "sim --model twice" 2 "--model is given twice (--model 'spring', then --model 'orbit'): it takes one value" -- sim --model spring --model orbit --integrator tcv
expect "sim --integrator twice" 2 "--integrator is given twice" -- sim --model spring --integrator tcv --integrator rk4
expect "sim --dt twice" 2 "--dt is given twice (--dt '0.1', then --dt '0.2')" -- sim --model spring --integrator tcv --dt 0.1 --dt 0.2
expect "run --shard twice" 2 "--shard is given twice" -- run cases/spring.case --out "$tmp/never" --shard 1/2 --shard 2/2
expect "run -j and --jobs" 2 "--jobs is given twice" -- run cases/spring.case --out "$tmp/never" -j 1 --jobs 2
expect "draw --dt twice" 2 "--dt is given twice" -- draw "$tmp/never" --dt 0.1 --dt 0.2
expect "draw --methods twice" 2 "--methods is given twice" -- draw "$tmp/never" --methods rk4 --methods tcv
expect "stability --vary twice" 2 "--vary is given twice" -- stability --model spring --vary k=1,2 --vary k=3,4
# lists repeat: --set (two parameters), --integrator of longrun and stability
expect "sim --set twice" 0 "spring,tcv,fixed" -- sim --model spring --integrator tcv --set k=2 --set m=2
expect "sim --set of one key twice" 2 "--set: k is set twice (k=2, then k=4)" -- sim --model spring --integrator tcv --set k=2 --set k=4
expect "bench --set of one key twice" 2 "--set: N is set twice (N=4, then N=8)" -- bench --model chain --set N=4 --set N=8
[ -e "$tmp/never" ] && { echo "FAIL cli: a refused run made its --out"; fail=$((fail + 1)); } || pass=$((pass + 1))

# ---- a case file's lists: names by commas or blanks, blanks round a comma (docs/cases.md) ----
printf '[case]\nmodel = bounce\nt_end = 1\n[steps]\ndt = 0.01\nhalvings = 2\n[integrators]\nuse = euler-semi   velocity-verlet\n[contact]\nhandler = project ,toi\n' > "$tmp/lists.case"
"$VB" run --quiet --no-chart-data "$tmp/lists.case" --out "$tmp/lists" > "$tmp/out" 2>&1
names=$(grep -v '^#' "$tmp/lists/lists/runs.csv" 2>/dev/null | cut -d, -f2 | sort -u | tr '\n' ' ')
if [ "$names" = "euler-semi+project euler-semi+toi integrator velocity-verlet+project velocity-verlet+toi " ]; then
    pass=$((pass + 1)); else echo "FAIL cli: lists by blanks and ' ,': rows '$names'"; sed 's/^/    /' "$tmp/out"; fail=$((fail + 1)); fi

# ---- output files that are not plain files: written in place, never replaced ----
is() {  # NAME TEST FILE: test(1) on a file, as a check
    if test "$2" "$3"; then pass=$((pass + 1)); else echo "FAIL cli: $1 ($3 fails test $2)"; fail=$((fail + 1)); fi
}
# as root, devices of our own (the same major/minor as /dev/null and
# /dev/full), so a binary that replaces them harms nothing of the system's
if [ "$(id -u)" = 0 ] && mknod -m 666 "$tmp/null" c 1 3 && mknod -m 666 "$tmp/full" c 1 7; then
    NULLDEV=$tmp/null FULLDEV=$tmp/full
else
    NULLDEV=/dev/null FULLDEV=/dev/full
fi
expect "trajectory to /dev/null" 0 "orbit,tcv,fixed" -- sim --model orbit --integrator tcv --trajectory "$NULLDEV"
is "/dev/null is still a device" -c "$NULLDEV"
expect "bench --out /dev/full" 1 "$FULLDEV: write failed: No space left on device" -- bench --steps 1000 --repeat 1 --out "$FULLDEV"
is "/dev/full is still a device" -c "$FULLDEV"
# a row that never reached its reader is no success: stdout on a full
# device is exit 1 and says why (it was exit 0 and silent)
for args in "sim --model spring --integrator tcv" "sim --help" "--version"; do
    # shellcheck disable=SC2086 # the words of args are the command's arguments
    "$VB" $args >"$FULLDEV" 2>"$tmp/err"
    got=$?
    if [ "$got" -eq 1 ] && grep -qF "cannot write the standard output: No space left on device" "$tmp/err"; then
        pass=$((pass + 1))
    else
        echo "FAIL cli: $args > /dev/full: exit $got, want 1 and the reason"; sed 's/^/    /' "$tmp/err"; fail=$((fail + 1))
    fi
done
mkfifo "$tmp/fifo"
# the reader ends at the writer's close; a binary that replaced the FIFO
# never opened it, and the reader would wait: timeout ends it then.  (It
# was killed as soon as sim exited, which under load cut it short while it
# still drained the pipe: 913 of 1002 lines in one CI run.)
timeout 30 cat "$tmp/fifo" > "$tmp/fifo.out" &
reader=$!
expect "trajectory to a FIFO" 0 "spring,tcv,fixed" -- sim --model spring --integrator tcv --trajectory "$tmp/fifo"
wait $reader
is "the FIFO is still a FIFO" -p "$tmp/fifo"
if [ "$(grep -vc '^#' "$tmp/fifo.out")" -eq 1002 ]; then pass=$((pass + 1)); else
    echo "FAIL cli: the reader of the FIFO got $(wc -l < "$tmp/fifo.out") lines"; fail=$((fail + 1)); fi
echo old > "$tmp/ro.csv"
chmod 444 "$tmp/ro.csv"
expect "a read-only trajectory file" 2 "$tmp/ro.csv is read-only: not replacing it" -- sim --model spring --integrator tcv --trajectory "$tmp/ro.csv"
if [ "$(cat "$tmp/ro.csv")" = old ]; then pass=$((pass + 1)); else echo "FAIL cli: the read-only file was replaced"; fail=$((fail + 1)); fi
echo old > "$tmp/real.csv"
ln -s real.csv "$tmp/link.csv"
expect "a trajectory through a symbolic link" 0 "spring,tcv,fixed" -- sim --model spring --integrator tcv --trajectory "$tmp/link.csv"
is "the link is still a link" -L "$tmp/link.csv"
if grep -q '^t,x,v,' "$tmp/real.csv"; then pass=$((pass + 1)); else echo "FAIL cli: the file the link names was not written"; fail=$((fail + 1)); fi
ln -s nowhere.csv "$tmp/dangling.csv"
expect "a dangling link" 2 "a symbolic link to nothing" -- sim --model spring --integrator tcv --trajectory "$tmp/dangling.csv"
expect "a directory as the trajectory" 2 "$tmp: is a directory" -- sim --model spring --integrator tcv --trajectory "$tmp"
# the file standard output already writes: through stdout, not renamed over
"$VB" sim --model spring --integrator tcv --dt 0.5 --trajectory /dev/stdout > "$tmp/both.csv" 2>&1
if grep -q '^t,x,v,' "$tmp/both.csv" && grep -q '^spring,tcv,fixed' "$tmp/both.csv"; then pass=$((pass + 1)); else
    echo "FAIL cli: --trajectory /dev/stdout > FILE lost the trajectory or the row"; sed 's/^/    /' "$tmp/both.csv" | head; fail=$((fail + 1)); fi
# a file replaced keeps its mode
echo old > "$tmp/private.csv"
chmod 600 "$tmp/private.csv"
"$VB" sim --model spring --integrator tcv --trajectory "$tmp/private.csv" > /dev/null
if [ "$(stat -c %a "$tmp/private.csv")" = 600 ]; then pass=$((pass + 1)); else
    echo "FAIL cli: a 0600 file became $(stat -c %a "$tmp/private.csv") when replaced"; fail=$((fail + 1)); fi

# ---- inputs: files or pipes, not devices; a FIFO nobody writes does not hang ----
expect "a device as a case file" 2 "/dev/zero: a character device, not a case file" -- run /dev/zero --out "$tmp/never"
expect "a device as a trace" 2 "/dev/zero: a character device, not a trace" -- sim --model spring --integrator tcv --steps /dev/zero
mkfifo "$tmp/silent.case"
timeout 10 "$VB" run "$tmp/silent.case" --out "$tmp/never" > "$tmp/out" 2>&1
got=$?
if [ $got -eq 2 ]; then pass=$((pass + 1)); else echo "FAIL cli: a FIFO without a writer as a case file: exit $got, want 2 (124: it hung)"; fail=$((fail + 1)); fi
printf '0.1\n0.2\n' > "$tmp/two.trace"
expect "a trace through a pipe" 0 "spring,tcv,trace,0.15000000000000002,,,2," -- sim --model spring --integrator tcv --steps /dev/stdin < "$tmp/two.trace"

# ---- parameters each in range whose combination overflows: refused ----
expect "k = 1e300, m = 1e-300" 2 "the initial acceleration is not a finite number at k=1e+300 m=1e-300" -- sim --model spring --set k=1e300 --set m=1e-300 --integrator tcv
expect "a start at 1e300" 2 "the initial energy is not a finite number" -- sim --model spring --set x0=1e300 --set v0=1e300 --integrator tcv
# the free body: its exact solution holds at any scale, but a run measures
# its energy and |L| and steps with products of the size of |w|^2; where
# one is not a normal double the run's figures are round-off of subnormals
# (or inf), so the body is refused, naming the quantity (models/free_body.c)
expect "free body, w of 1e-158" 2 "w1 w2 w3 = 1e-160 1e-158 1e-160: its energy I w.w/2 is 1.0002e-316, not a normal double" -- sim --model free-body --integrator rigid-rk4 --set w1=1e-160 --set w2=1e-158 --set w3=1e-160
expect "free body, moments of 1e-320" 2 "its energy I w.w/2 is 9.99989e-321, not a normal double" -- sim --model free-body --integrator rigid-rk4 --set I1=1e-320 --set I2=2e-320 --set I3=3e-320
expect "free body, |w|^2 underflows" 2 "|w|^2, the size of the rate of change of w is 1.0002e-316, not a normal double" -- sim --model free-body --integrator rigid-rk4 --set I1=1e200 --set I2=2e200 --set I3=3e200 --set w1=1e-160 --set w2=1e-158 --set w3=1e-160
expect "free body, energy overflows" 2 "its energy I w.w/2 is inf, not a normal double" -- sim --model free-body --integrator rigid-rk4 --set I1=1e307 --set I2=2e307 --set I3=3e307 --set w2=10
sed 's/^w1 = 0.01$/w1 = 1e-160/; s/^w2 = 1$/w2 = 1e-158/; s/^w3 = 0.01$/w3 = 1e-160/' cases/dzhanibekov.case > "$tmp/tiny.case"
line=$(grep -n '^model = ' "$tmp/tiny.case" | cut -d: -f1)
expect "free body, in a case file" 2 "tiny.case:$line: I1 I2 I3 = 1 2 3, w1 w2 w3 = 1e-160 1e-158 1e-160: its energy" -- run "$tmp/tiny.case" --out "$tmp/never"

# ---- case names that would collide with what verletbench writes ----
mkdir "$tmp/names"
cp -r cases/traces "$tmp/names/"; cp cases/spring.case "$tmp/names/baseline.case"
expect "a case named baseline" 2 "the case is named 'baseline' after its file, and that is not a safe directory name" -- run "$tmp/names/baseline.case" --out "$tmp/never"
long=$(printf '%0201d' 0)
cp cases/spring.case "$tmp/names/$long.case"
expect "a case name of 201 characters" 2 "at most 200 characters" -- run "$tmp/names/$long.case" --out "$tmp/never"
[ -e "$tmp/never" ] && { echo "FAIL cli: a refused run made its --out"; fail=$((fail + 1)); } || pass=$((pass + 1))

# chain: N is capped where an exact state stays near 10 ms;
# frequencies that overflow are refused at set-up
expect "chain N = 65537" 2 "N = 65537 is out of range: N must be [1, 65536], a whole number" -- sim --model chain --set N=65537 --integrator tcv
expect "chain k/m = inf" 2 "k/m = inf: the chain's frequencies are not finite positive numbers" -- sim --model chain --set k=1e300 --set m=1e-300 --integrator tcv
# bench: a wrong --out or --integrator is said before a minute of timing
expect "bench --integrator ," 2 "--integrator: an empty entry in the list ',' (before its first comma)" -- bench --integrator ,
expect "bench --integrator rk4,,euler" 2 "--integrator: an empty entry in the list 'rk4,,euler' (between two commas)" -- bench --integrator rk4,,euler
expect "bench --modes single," 2 "--modes: an empty entry in the list 'single,' (after its last comma)" -- bench --modes single,
expect "stability --integrator ,rk4" 2 "--integrator: an empty entry in the list ',rk4' (before its first comma)" -- stability --model spring --integrator ,rk4
expect "stability --jitter 0,,0.5" 2 "--jitter: an empty entry in the list '0,,0.5' (between two commas)" -- stability --model spring --integrator rk4 --jitter 0,,0.5
expect "longrun --integrator rk4," 2 "--integrator: an empty entry in the list 'rk4,' (after its last comma)" -- longrun --model spring --integrator rk4,
# a number in a message as typed: %g would print 1, 1 and 1000 for these
expect "stability --jitter 1.0000001" 2 "--jitter: 1.0000001 must be in [0, 1)" -- stability --model spring --integrator rk4 --jitter 1.0000001
expect "stability --vary k=1.0000001 twice" 2 "--vary: k=1.0000001 is given twice" -- stability --model spring --integrator rk4 --vary k=1.0000001,1.0000001
expect "longrun --periods 999.9999" 2 "--periods: 999.9999 periods leave under two decades to fit from t = 10 periods; give at least 1000" -- longrun --model spring --integrator rk4 --periods 999.9999
expect "bench --integrator rk4,rk4" 2 "--integrator: 'rk4' named twice" -- bench --integrator rk4,rk4
expect "bench --out DIR" 2 "--out: $tmp: is a directory" -- bench --out "$tmp"
# a reversal that diverges there or back reports inf, never nan
sed 's/^halvings = 6/halvings = 2/; s/^seeds = 16/seeds = 2/' cases/henon-heiles-regular.case > "$tmp/hh.case"
"$VB" run --quiet --no-chart-data "$tmp/hh.case" --out "$tmp/hhres" > /dev/null 2>&1
if grep -q '^euler,fixed,.*,inf,inf,' "$tmp/hhres/hh/reverse.csv" && ! grep -qi 'nan' "$tmp/hhres/hh/reverse.csv"; then
    pass=$((pass + 1)); else echo "FAIL cli: a diverged reversal is not reported as inf"; cat "$tmp/hhres/hh/reverse.csv"; fail=$((fail + 1)); fi

# the help states the reference's tolerance that truth.h sets
tol=$(sed -n 's/^#define VB_REF_TOL \([0-9e.-]*\)$/\1/p' src/driver/truth.h)
expect "sim --help: the reference's tolerance" 0 "rk8pd at tolerance $tol)" -- sim --help

echo "cli: $pass checks"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
