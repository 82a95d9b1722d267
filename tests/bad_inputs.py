#!/usr/bin/env python3
"""bad_inputs.py BUILD_DIR — the catalogue of bad input.

Every entry is a mistake a user makes, with the message it must get.  Each
must exit with status 2, name where the mistake is (file:line and key, or
the option), and leave the output directory untouched.  One entry per line
of the table; the last line of output is "N passed, N failed".
"""
import os
import shutil
import subprocess
import sys
import tempfile

GOOD = """# a valid case; each entry below changes one thing
[case]
model = orbit
e = 0.5
t_end = 6.28
[steps]
dt = 0.05
halvings = 3
jitter = 0.5
seeds = 2
[integrators]
use = tcv, velocity-verlet
"""
# line numbers in GOOD: 2 [case], 3 model, 4 e, 5 t_end, 6 [steps], 7 dt,
# 8 halvings, 9 jitter, 10 seeds, 11 [integrators], 12 use
INTEGS = ("euler, euler-semi, verlet, verlet-naive, tcv, verlet-var, velocity-verlet, "
          "leapfrog, rk4, beeman, yoshida4, pefrl, rkf45, rk8pd, jakobsen, tcv-jakobsen, shake, rattle"
          "; for a rigid body: rigid-euler, rigid-no-gyro, rigid-explicit-gyro, rigid-explicit-gyro-linear, rigid-implicit-gyro, rigid-rk4, rigid-splitting, rigid-no-squish, rigid-splitting4")


def edit(old, new):
    assert old in GOOD, old
    return GOOD.replace(old, new)


# GOOD with a model that has a contact (the bounce, whose e is a parameter
# too) and one-step methods, its lines as GOOD's
BOUNCE = edit("model = orbit", "model = bounce").replace("use = tcv, velocity-verlet",
                                                         "use = euler-semi, velocity-verlet")


# (name, case text or None, extra files {name: bytes}, argv after "verletbench",
#  expected message, with {case} for the case file's path and {dir} for the temp dir)
CASE_ENTRIES = [
    ("syntax error", edit("dt = 0.05", "dt 0.05"), "{case}:7: syntax error"),
    ("section without ]", edit("[steps]", "[steps"), "{case}:6: syntax error"),
    ("unknown section", edit("[integrators]", "[integrator]"), "{case}:11: unknown section [integrator]"),
    ("unknown key in [steps]", edit("dt = 0.05", "dtt = 0.05"), "{case}:7: dtt: unknown key in [steps]"),
    ("unknown key in [case]", edit("e = 0.5", "ecc = 0.5"), "{case}:4: ecc: unknown key in [case] (valid: model, t_end, description, mu, a, e)"),
    ("unknown key in [integrators]", edit("use =", "with ="), "{case}:12: with: unknown key in [integrators]"),
    ("key before any section", "dt = 0.1\n" + GOOD, "{case}:1: dt: a key before any section"),
    ("duplicate key", edit("halvings = 3", "halvings = 3\ndt = 0.1"), "{case}:9: dt: duplicate key (first set at line 7)"),
    ("duplicate section", GOOD + "[steps]\n", "{case}:13: [steps] appears twice"),
    ("missing model", edit("model = orbit\n", ""), "[case] model: missing (required)"),
    ("missing t_end", edit("t_end = 6.28\n", ""), "[case] t_end: missing (required)"),
    ("missing dt", edit("dt = 0.05\n", ""), "[steps] dt: missing (required)"),
    ("missing halvings", edit("halvings = 3\n", ""), "[steps] halvings: missing (required)"),
    ("missing use", edit("use = tcv, velocity-verlet\n", "# nothing\n"), "[integrators] use: missing (required)"),
    ("missing section", edit("[integrators]\nuse = tcv, velocity-verlet\n", ""), "section [integrators] is missing"),
    ("empty value", edit("dt = 0.05", "dt ="), "{case}:7: dt: empty value"),
    ("not a number", edit("dt = 0.05", "dt = fast"), "{case}:7: dt: 'fast' is not a finite number"),
    ("nan", edit("dt = 0.05", "dt = nan"), "{case}:7: dt: 'nan' is not a finite number"),
    ("inf", edit("t_end = 6.28", "t_end = inf"), "{case}:5: t_end: 'inf' is not a finite number"),
    ("1e999", edit("dt = 0.05", "dt = 1e999"), "{case}:7: dt: '1e999' is not a finite number"),
    # one number reader (numbers.h): strtod would read hexadecimal (0x10 is 16)
    ("hexadecimal", edit("dt = 0.05", "dt = 0x10"), "{case}:7: dt: '0x10' is hexadecimal: write a decimal"),
    ("a hexadecimal parameter", edit("e = 0.5", "e = 0x0.8"), "{case}:4: e: '0x0.8' is hexadecimal: write a decimal (e must be [0, 1))"),
    ("a hexadecimal whole number", edit("halvings = 3", "halvings = 0x3"), "{case}:8: halvings: '0x3' is not a whole number"),
    ("a hexadecimal method parameter", edit("use = tcv, velocity-verlet", "use = shake:tol=0x1p-40"), "{case}:12: use: 'shake:tol=0x1p-40': tol = '0x1p-40' is hexadecimal: write a decimal"),
    ("grid: a hexadecimal value", edit("e = 0.5", "e = 0.1, 0x0.5"), "{case}:4: e: '0x0.5' in the list is hexadecimal: write a decimal"),
    ("zero step", edit("dt = 0.05", "dt = 0"), "{case}:7: dt = 0 must be > 0"),
    ("negative step", edit("dt = 0.05", "dt = -0.05"), "{case}:7: dt = -0.05 must be > 0"),
    ("zero t_end", edit("t_end = 6.28", "t_end = 0"), "{case}:5: t_end = 0 must be > 0"),
    ("jitter = 1", edit("jitter = 0.5", "jitter = 1"), "{case}:9: jitter = 1 must be in [0, 1)"),
    ("negative jitter", edit("jitter = 0.5", "jitter = -0.2"), "{case}:9: jitter = -0.2 must be in [0, 1)"),
    ("e = 1", edit("e = 0.5", "e = 1"), "{case}:4: e = 1 is out of range: e must be [0, 1)"),
    ("e > 1", edit("e = 0.5", "e = 1.5"), "{case}:4: e = 1.5 is out of range"),
    ("negative mu", edit("e = 0.5", "mu = -1"), "{case}:4: mu = -1 is out of range: mu must be > 0"),
    ("over-damped", edit("model = orbit\ne = 0.5", "model = damped-spring\nc = 3"), "{case}:3: c = 3 is not under-damped"),
    ("unknown model", edit("model = orbit", "model = moon"), "{case}:3: model: unknown model 'moon' (valid: projectile, spring, damped-spring, impulse, orbit, pendulum, chain, two-body, figure-eight, henon-heiles, rod-pendulum, double-pendulum, hanging-chain, bounce, slide, tunnel)"),
    ("halvings = 0", edit("halvings = 3", "halvings = 0"), "{case}:8: halvings = 0 is out of range: halvings must be in 2..24"),
    ("halvings = 1", edit("halvings = 3", "halvings = 1"), "{case}:8: halvings = 1 is out of range"),
    ("absurd halvings", edit("halvings = 3", "halvings = 1000"), "{case}:8: halvings = 1000 is out of range"),
    ("fractional halvings", edit("halvings = 3", "halvings = 2.5"), "{case}:8: halvings: '2.5' is not a whole number"),
    ("seeds = 0", edit("seeds = 2", "seeds = 0"), "{case}:10: seeds = 0 is out of range: seeds must be in 1..1000"),
    ("absurd seeds", edit("seeds = 2", "seeds = 100000"), "{case}:10: seeds = 100000 is out of range"),
    ("seeds missing", edit("seeds = 2\n", ""), "{case}:9: seeds: missing: jitter > 0 asks for random plans"),
    ("unknown integrator", edit("use = tcv, velocity-verlet", "use = tcv, verlett"), "{case}:12: use: unknown integrator 'verlett' (valid: all, " + INTEGS + ")"),
    ("integrator twice", edit("use = tcv, velocity-verlet", "use = tcv, tcv"), "{case}:12: use: tcv is listed twice"),
    # a list's empty entry (docs/cases.md): a comma first, last, or after another
    ("use: two commas", edit("use = tcv, velocity-verlet", "use = tcv,,velocity-verlet"), "{case}:12: use: an empty entry in the list 'tcv,,velocity-verlet' (between two commas)"),
    ("use: two commas, a blank between", edit("use = tcv, velocity-verlet", "use = tcv, , velocity-verlet"), "{case}:12: use: an empty entry in the list 'tcv, , velocity-verlet' (between two commas)"),
    ("use: a trailing comma", edit("use = tcv, velocity-verlet", "use = tcv,"), "{case}:12: use: an empty entry in the list 'tcv,' (after its last comma)"),
    ("use: a leading comma", edit("use = tcv, velocity-verlet", "use = ,tcv"), "{case}:12: use: an empty entry in the list ',tcv' (before its first comma)"),
    ("use: a comma alone", edit("use = tcv, velocity-verlet", "use = ,"), "{case}:12: use: an empty entry in the list ',' (before its first comma)"),
    ("all and a name", edit("use = tcv, velocity-verlet", "use = all, tcv"), "{case}:12: use: 'all' (every integrator that suits the model, the adaptive ones aside) stands alone"),
    ("too many steps", edit("dt = 0.05", "dt = 1e-9"), "over the limit of 1e+09 (raise it with --max-steps or VERLETBENCH_MAX_STEPS)"),
    ("long line", edit("model = orbit", "model = orbit" + " " * 10 + "x" * 200), "{case}:3: line is longer than 197 characters"),
    ("NUL byte", edit("e = 0.5", "e = 0.5\0"), "{case}:4: binary data"),
    ("trace missing", edit("seeds = 2", "seeds = 2\ntrace = none.trace"), "{case}:11: trace: {dir}/none.trace: cannot open a trace"),
    # methods with parameters set (NAME:KEY=VALUE), and models with rods
    ("a parameter out of range", edit("use = tcv, velocity-verlet", "use = tcv, shake:tol=2"), "{case}:12: use: 'shake:tol=2': tol = 2 is out of range: tol must be (0, 0.01]"),
    ("a parameter not a whole number", edit("use = tcv, velocity-verlet", "use = jakobsen:sweeps=2.5"), "{case}:12: use: 'jakobsen:sweeps=2.5': sweeps = 2.5 is out of range: sweeps must be [1, 100000], a whole number"),
    ("an unknown parameter", edit("use = tcv, velocity-verlet", "use = jakobsen:sweep=3"), "{case}:12: use: 'jakobsen:sweep=3': jakobsen has no parameter 'sweep' (valid: sweeps, along_old)"),
    ("a method without parameters", edit("use = tcv, velocity-verlet", "use = tcv:r=2"), "{case}:12: use: 'tcv:r=2': tcv has no parameters to set"),
    ("a parameter set twice", edit("use = tcv, velocity-verlet", "use = jakobsen:sweeps=2:sweeps=3"), "{case}:12: use: 'jakobsen:sweeps=2:sweeps=3': sweeps is set twice"),
    ("a parameter without a value", edit("use = tcv, velocity-verlet", "use = jakobsen:sweeps"), "{case}:12: use: 'jakobsen:sweeps': 'sweeps' is not KEY=VALUE (jakobsen takes: sweeps, along_old)"),
    ("an empty parameter", edit("use = tcv, velocity-verlet", "use = jakobsen:"), "{case}:12: use: 'jakobsen:': an empty KEY=VALUE"),
    ("one method twice by two spellings", edit("use = tcv, velocity-verlet", "use = jakobsen:sweeps=4:along_old=0, jakobsen:along_old=0:sweeps=4"), "{case}:12: use: jakobsen:sweeps=4:along_old=0 and jakobsen:along_old=0:sweeps=4 are the same method, jakobsen:sweeps=4 (a parameter at its default is left out of a name)"),
    ("a method and its defaults", edit("use = tcv, velocity-verlet", "use = shake, shake:tol=1e-10"), "{case}:12: use: shake and shake:tol=1e-10 are the same method, shake"),
    ("a method's defaults, then the method", edit("use = tcv, velocity-verlet", "use = shake:tol=1e-10, shake"), "{case}:12: use: shake:tol=1e-10 and shake are the same method, shake"),
    ("a parameter not a number", edit("use = tcv, velocity-verlet", "use = shake:tol=tiny"), "{case}:12: use: 'shake:tol=tiny': tol = 'tiny' is not a finite number (tol must be (0, 0.01])"),
    ("a parameter apart from its method", edit("use = tcv, velocity-verlet", "use = jakobsen sweeps=4"), "{case}:12: use: 'sweeps=4' is a parameter without its method: write NAME:KEY=VALUE with no spaces"),
    ("a space after the colon", edit("use = tcv, velocity-verlet", "use = jakobsen: sweeps=4"), "{case}:12: use: 'jakobsen:': an empty KEY=VALUE between ':'s: write NAME:KEY=VALUE[:KEY=VALUE] with no spaces"),
    ("a method that keeps no rods on rods", edit("model = orbit\ne = 0.5", "model = rod-pendulum").replace("use = tcv, velocity-verlet", "use = shake, velocity-verlet"), "{case}:11: use: velocity-verlet does not enforce constraints, and the model rod-pendulum has 1 rod: its bodies would fall off them (constrained integrators: jakobsen, tcv-jakobsen, shake, rattle)"),
    # grids (docs/cases.md "Grids"): the key's own line, and the point that failed
    ("grid: a value out of range", edit("e = 0.5", "e = 0.1, 0.5, 1.2"), "{case}:4: e = 1.2 is out of range: e must be [0, 1) (eccentricity, 0 <= e < 1) (grid point 3 of 3: e = 1.2 on line 4)"),
    ("grid: a word in a list", edit("e = 0.5", "e = 0.1, half"), "{case}:4: e: 'half' in the list is not a finite number"),
    ("grid: an empty value", edit("e = 0.5", "e = 0.1, , 0.5"), "{case}:4: e: an empty value in the list '0.1, , 0.5'"),
    ("grid: a trailing comma", edit("e = 0.5", "e = 0.5,"), "{case}:4: e: an empty value in the list '0.5,'"),
    ("grid: a value twice", edit("e = 0.5", "e = 0.1, 0.3, 0.1"), "{case}:4: e: 0.1 appears twice in the grid"),
    ("grid: a range without a step", edit("e = 0.5", "e = 0.1 .. 0.9"), "{case}:4: e: '0.1 .. 0.9' is not a range: write 'A .. B step S'"),
    ("grid: a step away from B", edit("e = 0.5", "e = 0.9 .. 0.1 step 0.2"), "{case}:4: e: '0.9 .. 0.1 step 0.2' has fewer than two points"),
    ("grid: a step of 0", edit("e = 0.5", "e = 0.1 .. 0.9 step 0"), "{case}:4: e: '0.1 .. 0.9 step 0': the step S must not be 0"),
    ("grid: a factor of 1", edit("dt = 0.05", "dt = 0.01 .. 0.1 times 1"), "{case}:7: dt: '0.01 .. 0.1 times 1': a range by a factor needs"),
    ("grid: a factor across 0", edit("e = 0.5", "e = 0 .. 0.8 times 2"), "{case}:4: e: '0 .. 0.8 times 2': a range by a factor needs A and B of one sign, neither 0"),
    ("grid: too many points", edit("e = 0.5", "e = 0 .. 0.999 step 1e-4"), "{case}:4: e: '0 .. 0.999 step 1e-4' has more than 1000 points"),
    ("grid: a product too large", edit("e = 0.5\n", "e = 0 .. 0.9 step 0.01\nmu = 1 .. 20 step 1\n"), "{case}:5: mu: the grid has 1820 points, more than 1000"),
    ("grid: more than four keys", edit("e = 0.5\n", "e = 0.1, 0.2\nmu = 1, 2\na = 1, 2\n").replace("dt = 0.05", "dt = 0.05, 0.04").replace("halvings = 3", "halvings = 3, 4"), "{case}:10: halvings: a grid over more than 4 keys"),
    ("grid: two models", edit("model = orbit", "model = orbit, spring"), "{case}:3: model: one model a case"),
    ("grid: a whole number key", edit("halvings = 3", "halvings = 2, 3.5"), "{case}:8: halvings: '3.5' is not a whole number (grid point 2 of 2: halvings = 3.5 on line 8)"),
    ("grid: an unknown key", edit("e = 0.5", "ecc = 0.1, 0.5"), "{case}:4: ecc: unknown key in [case]"),
    ("grid: a combination not allowed", edit("model = orbit\ne = 0.5", "model = damped-spring\nc = 0.5 .. 3 step 0.5"), "{case}:3: c = 2 is not under-damped for k = 1, m = 1: need c^2 < 4km (c < 2) (grid point 4 of 6: c = 2 on line 4)"),
    ("grid: numbers without commas", edit("e = 0.5", "e = 0.1 0.5 0.9"), "{case}:4: e: '0.1 0.5 0.9' is several numbers without commas: a list is written 'a, b, c'"),
    ("grid: seeds of 0 under jitter", edit("seeds = 2", "seeds = 0, 2"), "{case}:10: seeds = 0 is out of range: seeds must be in 1..1000 (grid point 1 of 2: seeds = 0 on line 10)"),
    # [loop] (docs/cases.md): its lines start at 13, after GOOD's 12
    ("loop: unknown kind", GOOD + "[loop]\nkind = fixed\n", "{case}:14: kind: unknown kind 'fixed' (valid: variable, accumulator, semi-fixed, substeps)"),
    ("loop: a kind twice", GOOD + "[loop]\nkind = substeps, substeps\nsubsteps = 2\n", "{case}:14: kind: substeps is listed twice"),
    ("loop: unknown key", GOOD + "[loop]\nkind = variable\nphysics_hz = 120\n", "{case}:15: physics_hz: unknown key in [loop] (valid: kind, physics_dt, draw, max_substeps, substeps, rates)"),
    ("loop: accumulator without physics_dt", GOOD + "[loop]\nkind = accumulator\n", "{case}:14: [loop] physics_dt: missing: kind = accumulator needs the physics step"),
    ("loop: physics_dt = 0", GOOD + "[loop]\nkind = accumulator\nphysics_dt = 0\n", "{case}:15: physics_dt = 0 must be > 0"),
    ("loop: negative physics_dt", GOOD + "[loop]\nkind = semi-fixed\nphysics_dt = -1/120\n", "{case}:15: physics_dt = -1/120 must be > 0"),
    ("loop: physics_dt 1/0", GOOD + "[loop]\nkind = accumulator\nphysics_dt = 1/0\n", "{case}:15: physics_dt: '1/0' is not a finite number or a fraction A/B"),
    ("loop: physics_dt past t_end", GOOD + "[loop]\nkind = accumulator\nphysics_dt = 1e9\n", "{case}:15: physics_dt = 1e9 is longer than t_end = 6.28: an accumulator would take no physics step in the run"),
    ("loop: physics_dt too fine for the step limit", GOOD + "[loop]\nkind = accumulator\nphysics_dt = 1e-12\n", "{case}:15: physics_dt = 1e-12: {case} at physics_dt/2^0 = 1e-12 needs up to 6.28e+12 steps a run, over the limit"),
    ("loop: physics_dt not a number", GOOD + "[loop]\nkind = accumulator\nphysics_dt = fast\n", "{case}:15: physics_dt: 'fast' is not a finite number or a fraction A/B"),
    ("loop: draw without an accumulator", GOOD + "[loop]\nkind = substeps\nsubsteps = 4\ndraw = interpolate\n", "{case}:16: draw: only an accumulator takes it, and kind = substeps has none"),
    ("loop: draw on the default loop", GOOD + "[loop]\ndraw = last\n", "{case}:14: draw: only an accumulator takes it, and kind = variable (the default) has none"),
    ("loop: unknown draw", GOOD + "[loop]\nkind = accumulator\nphysics_dt = 1/120\ndraw = blend\n", "{case}:16: draw: unknown draw 'blend' (valid: last, interpolate, extrapolate)"),
    ("loop: max_substeps = 0", GOOD + "[loop]\nkind = accumulator\nphysics_dt = 1/120\nmax_substeps = 0\n", "{case}:16: max_substeps = 0 would never step"),
    ("loop: max_substeps not whole", GOOD + "[loop]\nkind = accumulator\nphysics_dt = 1/120\nmax_substeps = 2.5\n", "{case}:16: max_substeps: '2.5' is not a whole number"),
    ("loop: max_substeps on substeps", GOOD + "[loop]\nkind = substeps\nsubsteps = 2\nmax_substeps = 8\n", "{case}:16: max_substeps: only an accumulator takes it"),
    ("loop: substeps missing", GOOD + "[loop]\nkind = substeps\n", "{case}:14: [loop] substeps: missing: kind = substeps needs the steps a frame"),
    ("loop: substeps = 0", GOOD + "[loop]\nkind = substeps\nsubsteps = 0\n", "{case}:15: substeps = 0 is out of range: substeps must be in 1..1000"),
    ("loop: physics_dt on a variable loop", GOOD + "[loop]\nkind = variable\nphysics_dt = 0.01\n", "{case}:15: physics_dt: only an accumulator or a semi-fixed loop takes it"),
    ("loop: an adaptive method", edit("use = tcv, velocity-verlet", "use = tcv, rkf45") + "[loop]\nkind = substeps\nsubsteps = 2\n", "{case}:14: kind: rkf45 chooses its own steps: a frame loop cannot drive it"),
    ("loop: rates of 0 Hz", GOOD + "[loop]\nrates = 60, 0\n", "{case}:14: rates: 0 Hz must be > 0"),
    ("loop: a rate twice", GOOD + "[loop]\nrates = 60, 30, 60\n", "{case}:14: rates: 60 is listed twice"),
    ("loop: a rate not a number", GOOD + "[loop]\nrates = 60, fast\n", "{case}:14: rates: 'fast' is not a finite number"),
    ("loop: a kind list with two commas", GOOD + "[loop]\nkind = variable,,substeps\nsubsteps = 2\n", "{case}:14: kind: an empty entry in the list 'variable,,substeps' (between two commas)"),
    ("loop: rates ending with a comma", GOOD + "[loop]\nrates = 60, 30,\n", "{case}:14: rates: an empty entry in the list '60, 30,' (after its last comma)"),
    ("loop: draw starting with a comma", GOOD + "[loop]\nkind = accumulator\nphysics_dt = 1/120\ndraw = ,last\n", "{case}:16: draw: an empty entry in the list ',last' (before its first comma)"),
    ("loop: twice", GOOD + "[loop]\nkind = variable\n[loop]\n", "{case}:15: [loop] appears twice"),
    # [contact] (docs/cases.md, docs/contact.md): its lines start at 13
    ("contact: unknown handler", BOUNCE + "[contact]\nhandler = project, tio\n", "{case}:14: handler: unknown handler 'tio' (valid: project, impulse, toi)"),
    ("contact: a model without a contact", GOOD + "[contact]\nhandler = toi\n", "{case}:14: handler: the model orbit has no contact"),
    ("contact: unknown key", BOUNCE + "[contact]\nhandler = toi\nspeculative = 0.02\n", "{case}:15: speculative: unknown key in [contact] (valid: handler)"),
    ("contact: no handler", BOUNCE + "[contact]\n", "[contact] handler: missing (required)"),
    ("contact: a handler twice", BOUNCE + "[contact]\nhandler = toi, toi\n", "{case}:14: handler: toi is listed twice"),
    ("contact: a trailing comma", BOUNCE + "[contact]\nhandler = toi,\n", "{case}:14: handler: an empty entry in the list 'toi,' (after its last comma)"),
    ("contact: a leading comma", BOUNCE + "[contact]\nhandler = ,toi\n", "{case}:14: handler: an empty entry in the list ',toi' (before its first comma)"),
    ("contact: two commas", BOUNCE + "[contact]\nhandler = project,,toi\n", "{case}:14: handler: an empty entry in the list 'project,,toi' (between two commas)"),
    # the contact models' own ranges (line 3: model; its parameters follow it)
    ("contact: a tunnel's ball of radius 0", edit("model = orbit\ne = 0.5", "model = tunnel\nr = 0").replace("use = tcv, velocity-verlet", "use = euler-semi, velocity-verlet") + "[contact]\nhandler = toi\n", "{case}:4: r = 0 is out of range: r must be > 0"),
    # v0 / (mu g) = 3.06e-161 s: gravity's press g t^2 / 2 = 4.6e-321 m, a
    # subnormal; at mu = 1e180 it rounds to 0 and the block never stopped
    ("contact: a slide's mu = 1e160", edit("model = orbit\ne = 0.5", "model = slide\nmu = 1e160").replace("use = tcv, velocity-verlet", "use = euler-semi, velocity-verlet") + "[contact]\nhandler = toi\n", "{case}:3: v0 = 3, mu = 1e+160, g = 9.81, alpha = 0 deg: the block stops 4.58716e-161 m on in 3.0581e-161 s, pressed into the plane by g cos(alpha) t_stop^2 / 2 = 4.58493e-321 m"),
    ("contact: a slide's v0 = 1e-170", edit("model = orbit\ne = 0.5", "model = slide\nv0 = 1e-170").replace("use = tcv, velocity-verlet", "use = euler-semi, velocity-verlet") + "[contact]\nhandler = toi\n", "{case}:3: v0 = 1e-170, mu = 0.5, g = 9.81, alpha = 0 deg: the block stops 0 m on"),
    ("contact: a slide's stop overflows", edit("model = orbit\ne = 0.5", "model = slide\nv0 = 1e200\nmu = 1e-200").replace("use = tcv, velocity-verlet", "use = euler-semi, velocity-verlet") + "[contact]\nhandler = toi\n", "{case}:3: v0 = 1e+200, mu = 1e-200, g = 9.81, alpha = 0 deg: the block's stop (t_stop = inf s, x_stop = inf m) overflows a double"),
    ("contact: a multistep method", BOUNCE.replace("use = euler-semi, velocity-verlet", "use = verlet") + "[contact]\nhandler = toi\n", "{case}:12: use: verlet is a multistep method"),
    ("contact: with a [loop]", BOUNCE + "[loop]\nkind = variable\n[contact]\nhandler = toi\n", "{case}:16: handler: a case has [contact] or [loop], not both"),
]

TRACE_ENTRIES = [
    ("trace empty", "# nothing\n\n", "{dir}/t.trace: the trace has no steps"),
    ("trace binary", "0.01\n\x7fELF\0\0\n", "{dir}/t.trace:2: binary data"),
    ("trace negative line", "0.01\n0.01\n-0.01\n", "{dir}/t.trace:3: step '-0.01' is not a positive number"),
    ("trace word", "0.01\nabc\n", "{dir}/t.trace:2: step 'abc' is not a positive number"),
    ("trace too short", "0.01\n0.01\n", "{dir}/t.trace: the trace sums to 0.02"),
    ("trace line without end", "0.01\n" + "1" * 5000, "{dir}/t.trace:2: a line longer than 1024 characters"),
    ("trace too large", "0.01\n" * ((17 << 20) // 5), "{dir}/t.trace: larger than 16777216 bytes"),
]


def short_trace():
    """20000 steps summing to t_end = 6.28 less ~1e-13 t_end: within the old
    check's 1e-12 t_end, beyond the landing tolerance (1e-9 of a step): the
    run would have ended with a sliver of a step.  The sum is formed in
    order, as the reader forms it."""
    lines, s = [], 0.0
    for _ in range(19999):
        lines.append("0.000314")
        s += 0.000314
    last = (6.28 - 6.28e-13) - s
    s += last
    assert 6.28 * 5e-14 < 6.28 - s < 6.28 * 1e-12, 6.28 - s
    return "\n".join(lines + [repr(last)]) + "\n"


# only a case: sim cuts the trace at its --t-end 1
CASE_ONLY_TRACE_ENTRIES = [("trace short by a sliver", short_trace(), "the trace sums to 6.27999999999")]


def run_entry(vb, tmp, name, argv, expected, files=None):
    """Run one entry in a fresh directory; return None or a complaint."""
    d = tempfile.mkdtemp(dir=tmp)
    for fname, content in (files or {}).items():
        os.makedirs(os.path.dirname(os.path.join(d, fname)), exist_ok=True)
        with open(os.path.join(d, fname), "wb") as f:
            f.write(content.encode("latin-1") if isinstance(content, str) else content)
    out = os.path.join(d, "results")
    os.mkdir(out)
    with open(os.path.join(out, "keep.csv"), "w") as f:
        f.write("previous results\n")
    args = [a.format(case=os.path.join(d, "c.case"), dir=d, out=out) for a in argv]
    try:
        # every entry is refused before any work; a minute means it ran instead
        r = subprocess.run([vb] + args, capture_output=True, cwd=d, timeout=60)
    except subprocess.TimeoutExpired:
        return "still running after 60 s: the input was not refused"
    err = r.stderr.decode("utf-8", "replace")
    want = expected.format(case=os.path.join(d, "c.case"), dir=d, out=out)
    if r.returncode != 2:
        return "exit %d, want 2: %s" % (r.returncode, err.strip())
    if want not in err:
        return "message '%s' lacks '%s'" % (err.strip(), want)
    # a message is a whole line: one without its newline runs the shell's
    # prompt onto it
    if not err.endswith("\n"):
        return "message '%s' does not end with a newline" % err[-80:]
    if sorted(os.listdir(out)) != ["keep.csv"] or open(os.path.join(out, "keep.csv")).read() != "previous results\n":
        return "the output directory was touched: %s" % os.listdir(out)
    return None


def main():
    vb = os.path.abspath(os.path.join(sys.argv[1], "verletbench"))
    passed = failed = 0
    tmp = tempfile.mkdtemp()
    entries = []
    for name, text, msg in CASE_ENTRIES:
        entries.append((name, {"c.case": text}, ["run", "{case}", "--out", "{out}"], msg))
    for name, trace, msg in TRACE_ENTRIES + CASE_ONLY_TRACE_ENTRIES:
        entries.append(("case: " + name, {"c.case": edit("seeds = 2", "seeds = 2\ntrace = t.trace"), "t.trace": trace},
                        ["run", "{case}", "--out", "{out}"], msg))
        if (name, trace, msg) in CASE_ONLY_TRACE_ENTRIES:
            continue
        entries.append(("sim: " + name, {"t.trace": trace},
                        ["sim", "--model", "orbit", "--integrator", "tcv", "--steps", "{dir}/t.trace",
                         "--t-end", "1", "--trajectory", "{out}/traj.csv"], msg))
    entries += [
        ("case file missing", {}, ["run", "{dir}/none.case", "--out", "{out}"], "{dir}/none.case: cannot open"),
        ("case file is a directory", {}, ["run", "{dir}", "--out", "{out}"], "{dir}: a directory, not a case file"),
        ("case file unreadable", {}, ["run", "/proc/self/mem", "--out", "{out}"], "/proc/self/mem: cannot read"),
        ("output not a directory", {"c.case": GOOD, "file": "x"}, ["run", "{case}", "--out", "{dir}/file/sub"], "--out: {dir}/file: not a directory"),
        ("output cannot be created", {"c.case": GOOD}, ["run", "{case}", "--out", "/proc/verletbench-results"], "--out: /proc/verletbench-results: cannot create directory"),
        ("two cases, one name", {"c.case": GOOD, "sub/c.case": GOOD}, ["run", "{case}", "{dir}/sub/c.case", "--out", "{out}"], "{case} and {dir}/sub/c.case would both write"),
        ("two grids, one name", {"c.case": edit("e = 0.5", "e = 0.1, 0.5"), "sub/c.case": edit("e = 0.5", "e = 0.5, 0.9")}, ["run", "{case}", "{dir}/sub/c.case", "--out", "{out}"], "{case} and {dir}/sub/c.case would both write {out}/c@e=0.5/"),
        ("a grid point too long a name", {("g" * 170) + ".case": edit("e = 0.5\n", "e = 0.1, 0.5\nmu = 1.000000000000001, 2\na = 1.000000000000001, 2\n")}, ["run", "{dir}/" + "g" * 170 + ".case", "--out", "{out}"], "longer than 200 characters: a shorter case file name or fewer keys"),
        ("run without cases", {}, ["run", "--out", "{out}"], "no case files given"),
        ("run unknown option", {"c.case": GOOD}, ["run", "{case}", "--fast", "--out", "{out}"], "unknown option '--fast'"),
        ("run --max-steps 0", {"c.case": GOOD}, ["run", "{case}", "--max-steps", "0", "--out", "{out}"], "--max-steps: 0 must be from 1 to 2^50"),
        ("run --max-steps 1e300", {"c.case": GOOD}, ["run", "{case}", "--max-steps", "1e300", "--out", "{out}"], "--max-steps: 1e300 must be from 1 to 2^50"),
        ("a case named ..", {"...case": GOOD}, ["run", "{dir}/...case", "--out", "{out}"], "{dir}/...case: the case is named '..' after its file"),
        ("a case named .", {"..case": GOOD}, ["run", "{dir}/..case", "--out", "{out}"], "{dir}/..case: the case is named '.' after its file"),
        # a directory '-x' would read as an option to compare and draw
        ("a case named -x", {"-x.case": GOOD}, ["run", "{dir}/-x.case", "--out", "{out}"], "{dir}/-x.case: the case is named '-x' after its file, and that is not a safe directory name"),
        ("a case named with a space", {"my case.case": GOOD}, ["run", "{dir}/my case.case", "--out", "{out}"], "the case is named 'my case' after its file, and that is not a safe directory name"),
        ("sim: more steps than can be counted", {}, ["sim", "--model", "spring", "--integrator", "tcv", "--dt", "1", "--t-end", "1.9e19", "--max-steps", "1e15"], "the run needs 1.9e+19 steps; no run may take more than 2^50"),
        ("trace: a device that never ends", {}, ["sim", "--model", "spring", "--integrator", "tcv", "--steps", "/dev/zero"], "/dev/zero: a character device, not a trace"),
        ("run --out without value", {"c.case": GOOD}, ["run", "{case}", "--out"], "--out needs a value"),
        ("sim unknown model", {}, ["sim", "--model", "moon", "--integrator", "tcv"], "--model: unknown model 'moon'"),
        ("sim unknown integrator", {}, ["sim", "--model", "orbit", "--integrator", "tvc"], "--integrator: unknown integrator 'tvc'"),
        ("sim a method that keeps no rods on rods", {}, ["sim", "--model", "double-pendulum", "--integrator", "rk4"], "--integrator: rk4 does not enforce constraints, and the model double-pendulum has 2 rods"),
        ("sim a space in a method's parameters", {}, ["sim", "--model", "double-pendulum", "--integrator", "jakobsen: sweeps=2"], "--integrator: 'jakobsen: sweeps=2': no spaces in a method with parameters"),
        ("sim a parameter out of range", {}, ["sim", "--model", "double-pendulum", "--integrator", "jakobsen:sweeps=0"], "--integrator: 'jakobsen:sweeps=0': sweeps = 0 is out of range"),
        ("sim a chain too long", {}, ["sim", "--model", "hanging-chain", "--set", "N=65", "--integrator", "shake"], "--set: N = 65 is out of range: N must be [1, 64], a whole number"),
        ("sim unknown --set key", {}, ["sim", "--model", "orbit", "--integrator", "tcv", "--set", "ecc=0.5"], "--set: unknown parameter 'ecc' for model orbit (valid: mu, a, e)"),
        ("sim --set e=1", {}, ["sim", "--model", "orbit", "--integrator", "tcv", "--set", "e=1"], "--set: e = 1 is out of range"),
        ("sim --dt 0", {}, ["sim", "--model", "orbit", "--integrator", "tcv", "--dt", "0"], "--dt: 0 must be > 0"),
        ("sim --jitter 1", {}, ["sim", "--model", "orbit", "--integrator", "tcv", "--jitter", "1"], "--jitter: 1 must be in [0, 1)"),
        ("sim --t-end nan", {}, ["sim", "--model", "orbit", "--integrator", "tcv", "--t-end", "nan"], "--t-end: 'nan' is not a finite number"),
        ("sim too many steps", {}, ["sim", "--model", "orbit", "--integrator", "tcv", "--dt", "1e-12"], "over the limit of 1e+09"),
        ("sim trajectory not writable", {}, ["sim", "--model", "orbit", "--integrator", "tcv", "--trajectory", "/proc/x/traj.csv"], "--trajectory: /proc/x/traj.csv: cannot write here"),
    ]
    # sim's frame loop options, checked as a case's [loop] keys are
    simloop = ["sim", "--model", "spring", "--integrator", "velocity-verlet", "--dt", "0.01"]
    entries += [
        ("sim --loop unknown", {}, simloop + ["--loop", "fixed"], "--loop: unknown kind 'fixed' (valid: variable, accumulator, semi-fixed, substeps)"),
        ("sim --physics-dt without --loop", {}, simloop + ["--physics-dt", "0.01"], "--physics-dt: only --loop accumulator or semi-fixed takes it (--loop is not given)"),
        ("sim --draw on semi-fixed", {}, simloop + ["--loop", "semi-fixed", "--physics-dt", "0.01", "--draw", "last"], "--draw: only --loop accumulator takes it (--loop is semi-fixed)"),
        ("sim --max-substeps on variable", {}, simloop + ["--loop", "variable", "--max-substeps", "4"], "--max-substeps: only --loop accumulator takes it (--loop is variable)"),
        ("sim --substeps on accumulator", {}, simloop + ["--loop", "accumulator", "--physics-dt", "0.01", "--substeps", "4"], "--substeps: only --loop substeps takes it (--loop is accumulator)"),
        ("sim accumulator without --physics-dt", {}, simloop + ["--loop", "accumulator"], "--loop accumulator needs --physics-dt"),
        ("sim --physics-dt 0", {}, simloop + ["--loop", "semi-fixed", "--physics-dt", "0"], "--physics-dt: 0 must be > 0"),
        ("sim --physics-dt 1/0", {}, simloop + ["--loop", "accumulator", "--physics-dt", "1/0"], "--physics-dt: '1/0' is not a finite number or a fraction A/B"),
        ("sim --physics-dt past t_end", {}, simloop + ["--loop", "accumulator", "--physics-dt", "100"], "--physics-dt: 100 is longer than t_end = 6.28319: an accumulator would take no physics step in the run"),
        ("sim --draw unknown", {}, simloop + ["--loop", "accumulator", "--physics-dt", "0.01", "--draw", "blend"], "--draw: unknown draw 'blend' (valid: last, interpolate, extrapolate)"),
        ("sim --max-substeps 0", {}, simloop + ["--loop", "accumulator", "--physics-dt", "0.01", "--max-substeps", "0"], "--max-substeps: 0: give a whole number 1..1000 (leave it out for no clamp)"),
        ("sim --substeps missing", {}, simloop + ["--loop", "substeps"], "--loop substeps needs --substeps"),
        ("sim --substeps 2.5", {}, simloop + ["--loop", "substeps", "--substeps", "2.5"], "--substeps: 2.5: give a whole number 1..1000"),
        ("sim --loop on an adaptive method", {}, ["sim", "--model", "spring", "--integrator", "rkf45", "--loop", "variable"], "--loop: rkf45 chooses its own steps: a frame loop cannot drive it"),
        ("sim --loop on an engine", {}, ["sim", "--model", "spring", "--engine", "e:2=true", "--loop", "variable"], "--loop: an engine runs its own frame loop"),
        # 629 frames of 1000 substeps over the spring's period 6.28
        ("sim --loop over the step limit", {}, simloop + ["--loop", "substeps", "--substeps", "1000", "--max-steps", "5e5"], "the run needs up to 6.29e+05 steps, over the limit of 5e+05"),
        # the frame-rate table is held to the step limit as a sweep level is:
        # 100000 Hz over t_end = 6.28 are 628000 frames of 4 substeps
        ("loop: rates over the step limit", {"c.case": GOOD + "[loop]\nkind = substeps\nsubsteps = 4\nrates = 60, 100000\n"}, ["run", "{case}", "--out", "{out}", "--max-steps", "1e6"], "{case}:16: rates: tcv@substeps(4) at 100000 Hz, fixed frames, needs up to 2.51e+06 steps a run, over the limit of 1e+06"),
        ("sim a method's parameters too long", {}, ["sim", "--model", "double-pendulum", "--integrator", "jakobsen:sweeps=" + "0" * 1100 + "3"], "more than 1023 characters of KEY=VALUE"),
    ]
    for name, files, argv, msg in entries:
        problem = run_entry(vb, tmp, name, argv, msg, files)
        if problem:
            failed += 1
            print("FAIL bad input: %s: %s" % (name, problem))
        else:
            passed += 1
    shutil.rmtree(tmp)
    print("catalogue: %d entries" % len(entries))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
