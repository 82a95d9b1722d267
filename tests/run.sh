#!/bin/sh
# run.sh BUILD_DIR — every test suite; the last line sums them: "N passed, N failed".
# The suites are independent (each works in temporary directories of its
# own), so tests/runner.py runs CHECK_JOBS of them at a time (default: one
# a CPU), the costly ones first, and prints a line a suite as it ends (ok
# or FAIL, its counts and seconds; a failing suite's output under it); the
# whole output of every suite goes to BUILD_DIR/check.log, each under its
# "== NAME".  CHECK_JOBS=1 runs them one at a time.  The engine
# suites hold engines to time limits of 1 to 5 s: beside one other suite
# on 2 CPUs they pass (and did at a load of 4 with other work running);
# at a load of 12 two suites at once missed them (12 of engines.py's
# checks, 4 of protocol2.py's).  Most of protocol2.py's wall time is those
# limits running out (40 of its 63 s: 6 CPU-s), which a second suite fills.
# COST is a suite's wall seconds measured alone on a quiet 2-core machine
# (.ci/run of 2026-11-28); it only decides which start first.
set -u
BUILD=${1:-build}
here=$(dirname "$0")
list=$(mktemp)
trap 'rm -f "$list"' EXIT

# suite COST NAME COMMAND...: one line of the list (the command's words
# quoted for sh)
suite() {
    cost=$1 name=$2
    shift 2
    cmd=
    for w in "$@"; do
        cmd="$cmd '$(printf '%s' "$w" | sed "s/'/'\\\\''/g")'"
    done
    printf '%s\t%s\t%s\n' "$cost" "$name" "$cmd" >> "$list"
}

suite 6 "unit tests" "$BUILD/unit-tests"
suite 6 "command line" sh "$here/cli.sh" "$BUILD"
suite 1 "layers: the include rule of docs/architecture.md, and that its check can fail" python3 "$here/layers.py" "$BUILD"
suite 0 "structure: the branches on a kind above driver/ counted (at most 20, none in sweep/ or output/), their patterns held to samples" python3 "$here/structure.py"
suite 1 "short functions: none in src/ over 150 lines but an allowlist that shrinks, and that its check can fail" python3 "$here/function_size.py" "$BUILD"
suite 11 "independent reference (SPEC in Python)" python3 "$here/reference/compare.py" "$BUILD"
suite 1 "the pendulum's exact solution against 80-digit mpmath, theta0 up to the top" python3 "$here/reference/pendulum.py" "$BUILD"
suite 11 "rigid bodies: the free body's 30-digit mpmath reference (tests/rigid_mpmath.h) recomputed" python3 "$here/reference/free_body.py" --check
suite 8 "rigid bodies run: orders on the flip, L kept, 4K/lambda, the tumble, trajectories" python3 "$here/rigid_runs.py" "$BUILD"
suite 2 "run outputs (files, columns, orders)" python3 "$here/run_outputs.py" "$BUILD"
suite 4 "every table from its schema: the files' headers, the docs' column lists, sim --help, draw/ and check/ reading columns through the schemas" python3 "$here/schemas.py" "$BUILD"
suite 2 "bad input catalogue" python3 "$here/bad_inputs.py" "$BUILD"
suite 44 "charts (gnuplot)" python3 "$here/plots.py" "$BUILD"
suite 1 "docs: self-contained, links that hold" python3 "$here/docs.py" "$BUILD"
suite 25 "README: its examples as printed on a fresh checkout, its tables as the tool prints them" python3 "$here/readme.py" "$BUILD"
suite 6 "interrupted runs leave results as they were" sh "$here/interrupt.sh" "$BUILD"
suite 28 "results directories: SIGKILL, EFBIG, a second run, what is not replaced" sh "$here/results_dir.sh" "$BUILD"
suite 25 "plugins, mutants and the regression check" sh "$here/plugins.sh" "$BUILD"
suite 11 "check: false alarms, damaged baselines, --save" sh "$here/check.sh" "$BUILD"
suite 43 "external engines: examples, bad engines, problem and score" python3 "$here/engines.py" "$BUILD"
suite 63 "engine protocol 2: v1 examples byte for byte, persistent workers, their failures" python3 "$here/protocol2.py" "$BUILD"
suite 7 "velocity=none: a position-only engine against verlet, its empty cells, check" python3 "$here/velocity_none.py" "$BUILD"
suite 4 "real engines: planck and Chipmunk held to their source code" python3 "$here/real_engines.py" "$BUILD"
suite 1 "run --strict: a trend below the label, diverged runs, round-off that passes" python3 "$here/strict.py" "$BUILD"
suite 0 "models: where each potential energy is zero, in list and in the code" python3 "$here/energy_zero.py" "$BUILD"
suite 16 "3D engines: protocol 3 in the helpers; cannon-es, Bullet, ODE, Jolt, Rapier, MuJoCo held to their source, Havok to a steady spin" python3 "$here/real_engines_3d.py" "$BUILD"
suite 18 "3D engines through verletbench: protocol 3 in the harness; cannon-es, ODE, Bullet, MuJoCo on a rotation case against rigid-no-gyro, rigid-implicit-gyro and closed forms; refusals" python3 "$here/rigid_engines.py" "$BUILD"
suite 4 "rotation-method examples (Python, JavaScript, protocol 3) through verletbench: rigid-splitting and rigid-explicit-gyro to the bit and to round-off" python3 "$here/rigid_example_engines.py" "$BUILD"
suite 36 "2D engines at a contact: Box2D, planck, Chipmunk, matter-js, cannon-es, Rapier held to their source; protocol 4 through the harness: the direct path bit for bit, the exact engine, a case's own numbers, refusals" python3 "$here/real_engines_contact.py" "$BUILD"
suite 9 "rigid bodies' charts: the polhode on the ellipsoid and the L sphere, L kept, the window maxima are err_att_max, draw" python3 "$here/rigid_charts.py" "$BUILD"
suite 1 "contact handlers round a method: rows METHOD+HANDLER held to the exact bounce, the threshold's count, the slide's stop, the tunnel's passing speed" python3 "$here/contact_runs.py" "$BUILD"
suite 3 "rigid bodies at a contact's charts: motion.csv against the closed forms, the roll map and the creep chart as their tables say" python3 "$here/roll_charts.py" "$BUILD"
suite 1 "contact solvers round a rotation method: rows METHOD+SOLVER on roll and box-incline held to the closed forms (toi and sequential impulses to round-off, soft and xpbd to first order), refusals" python3 "$here/body_contact_runs.py" "$BUILD"
suite 6 "protocol 5 in Jolt, Havok and Rapier 3D: a stack's rows as the contract says, one box the box alone to the bit, refusals; Jolt's substeps its collision steps, Rapier's resting sink its contact springs' closed form, Havok's ideal step" python3 "$here/stack_engines_js.py" "$BUILD"
suite 8 "MuJoCo and cannon-es on a stack of boxes (protocol 5): the rows' round trip, a stack of one box their one-body rows to the bit, refusals; MuJoCo's first step a free fall of g h^2 (no row for a contact at distance 0), the engines' memory of a step (MuJoCo warm=off none, warm=on its warm start; cannon none)" python3 "$here/stack_engines_mujoco_cannon.py" "$BUILD"
suite 1 "protocol 5 in the JavaScript and the C helper: a stack's columns, row 0 and rows from the request's bodies, each quaternion's sign continued, the refusals' messages, the same in both" python3 "$here/vbengine_stack.py" "$BUILD"
suite 2 "Bullet, ODE and Box2D (x-z plane) on a stack (protocol 5): the round trip, one box the one-body answer to the bit, box-on-box friction mu (v0^2/(2 mu g)), the default iterations and warm starting from their source, Bullet's substeps as steps of h/N, Box2D's polygon skin under the top box, refusals" python3 "$here/stack_engines_c.py" "$BUILD"
suite 1 "stacks of boxes run: toi still to the bit in stacks.csv, 0 iterations the free fall's t_collapse in closed form, shards, sim's stacks.csv row, refusals naming file, line and key" python3 "$here/stack_runs.py" "$BUILD"
suite 2 "a stack of bodies through the engine protocol (protocol 5): the request's bodies and contact, the exact test engine measured as the exact answer to the bit in stacks.csv, its sink and drift errors at their closed forms, a protocol-4 engine, a bad column count and a NaN refused, shards" python3 "$here/stack_engines.py" "$BUILD"
suite 1 "make engines' stack report (engines/check/stack.py): the README's table \"how long a stack stands\" and each case's table from hand-written stacks.csv cells, damage named with exit 2, toi standing still in the lab's cases" python3 "$here/stack_report.py" "$BUILD"
suite 2 "a stack's charts (stack-stand, stack-cost): the programs draw feeds gnuplot held to the case files and stacks.csv (toi at t_end and marked as stood; the equal-cost halves one point at N = 1), drawn by the real gnuplot, a point's table gone named" python3 "$here/stack_charts.py" "$BUILD"
suite 12 "a rigid body at a contact through the engine protocol (roll, box-incline): the exact test engine measured by bodyrun.c to round-off, its rows not the answer, [engines] cases, refusals; MuJoCo equal to its model, the lab's regularized solver; Havok at the closed form of a first step without friction; the creep chart's points as contact.csv's" python3 "$here/body_contact_engines.py" "$BUILD"
suite 1 "contact measures' orders in dt (contact_orders.csv): pgs's and speculative's s_roll the least-squares slope of its closed-form errors mu g h t_n / 2, first order within its interval; toi exact in every measure; soft's t_roll first order; nothing fitted where it never rolls; none for a wall's case" python3 "$here/contact_orders.py" "$BUILD"
suite 1 "frame loops: accumulator, draws, substeps against hand-written loops and closed forms" python3 "$here/frame_loops.py" "$BUILD"
suite 1 "fair comparisons: new methods, order intervals, adaptive, timing" python3 "$here/fair_comparisons.py" "$BUILD"
suite 6 "parameter grids: points as cases, grid.csv, ranges, engines, charts" python3 "$here/grids.py" "$BUILD"
suite 3 "constraints: rods, Jakobsen, SHAKE, RATTLE against independent truths" python3 "$here/constraints.py" "$BUILD"
suite 9 "stability: limits against their closed forms, jitter, bad input" python3 "$here/stability.py" "$BUILD"
suite 6 "long runs: exponents and verdicts on known cases, Kahan, round-off" python3 "$here/longrun.py" "$BUILD"
suite 14 "float32: sim --precision against a float loop written in the test" python3 "$here/float32.py" "$BUILD"
suite 10 "shards: run --shard K/N through GNU parallel, merge" sh "$here/shards.sh" "$BUILD"
suite 1 "libraries: the GSL and FFTW every data file names, and merge refusing others" python3 "$here/libraries.py" "$BUILD"
suite 16 "valgrind memcheck" sh "$here/valgrind.sh" "$BUILD"
suite 1 "tests that can fail: maxima that keep a NaN, every rigid method and model of the tables exposed, every test script run" python3 "$here/can_fail.py" "$BUILD"
suite 3 "long commands: make check's line a suite (tests/runner.py), make engines' line a step (.ci/step), their logs" python3 "$here/long_commands.py" "$BUILD"
suite 9 "regression check against results/baseline" sh "$here/regression.sh" "$BUILD"

python3 "$here/runner.py" "${CHECK_JOBS:-0}" "$BUILD/check.log" < "$list"
