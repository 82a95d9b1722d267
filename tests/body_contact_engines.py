#!/usr/bin/env python3
"""body_contact_engines.py BUILD_DIR — a rigid body at a contact through the
engine protocol (protocol 4 with a 'body': docs/real-engines.md §6.5), the
harness's side held to an exact answer without any real engine:

- engines/check/body-contact-exact.js serves roll and box-incline in closed
  form from the request's numbers (the plane, gravity, the shape, the
  inertia, the coefficients); the harness sends the case's scene and
  measures its rows with driver/bodyrun.c, the functions that measure a
  METHOD+SOLVER row.  Its measures must be the closed forms derived here,
  not read from the C code: a ball of moment k m R^2 launched sliding at v0
  (w0 = 0) on a plane at alpha with friction mu slips while u = v - w R > 0,
  u falling at g (mu cos a (1 + 1/k) - sin a), so t* = v0 / that,
  v* = v0 + g (sin a - mu cos a) t*, s* = v0 t* + g (sin a - mu cos a) t*^2/2
  (the flat: t* = 2 v0/(7 mu g), v* = 5 v0/7); it rolls at all iff
  tan a <= mu (1 + k)/k; a cube at 30 degrees sticks iff mu_s >= tan a, else
  slides at g (sin a - mu_k cos a).  t_roll, s_roll, v_roll to round-off
  (the slip is linear in t, so the measure's line through the last two
  slipping rows is u itself), slip_max and a_err round-off, the stuck
  cube's creep exactly 0;
- the rows are measured, not the exact answer reported: with its friction
  scaled by 0.9 (mu=0.9) the engine rolls at t* of mu 0.9 * 0.5 and the
  cube at mu_s 0.7 * 0.9 < tan 30 slides, and contact.csv says so, beside
  the case's exact t_roll_exact;
- a case's [engines] on roll: contact.csv has the engine's row beside the
  solvers', the same numbers as sim's;
- refusals: a protocol-3 engine (bodies, no contact) and a particle contact
  engine are refused run by run (engine-failed, the words of each side);
  sim --contact with --engine is a usage error (exit 2); the helper refuses
  a kinetic coefficient above the static one, naming the key.
Ends with "N passed, N failed"."""
import csv
import json
import math
import os
import re
import subprocess
import sys

import suite
# the closed form of the slide-to-roll, derived there (a module: it runs its
# suite only as a script)
from body_contact_runs import near, roll_exact

S = suite.Suite("body contact engines", guard=300)
check, vb = S.check, S.vb

G = 9.81
EPS = 2.0 ** -52
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXACT = "node " + os.path.join(ROOT, "engines", "check", "body-contact-exact.js")


def sim(model, hz, t_end, sets, engine=EXACT, extra=()):
    """sim's two rows: runs.csv's and contact.csv's, as dicts."""
    args = ["sim", "--model", model, "--dt", repr(1.0 / hz), "--t-end", repr(t_end),
            "--engine", "ex=" + engine, *extra]
    for k, v in sets.items():
        args += ["--set", "%s=%s" % (k, v)]
    r = vb(*args)
    lines = r.stdout.splitlines()
    if len(lines) != 4:
        return r, None, None
    return (r, dict(zip(lines[0].split(","), lines[1].split(","))),
            dict(zip(lines[2].split(","), lines[3].split(","))))


def test_roll_exact(tmp):
    for alpha, mu in ((0, 0.5), (0, 0.2), (30, 0.5)):
        t, s, v = roll_exact(2.0, mu, alpha)
        for hz in (30, 60, 120):
            r, run, c = sim("roll", hz, 1.0, {"alpha": alpha, "mu": mu})
            # round-off: the rows' sums of N = t_end hz steps, each off by
            # an ulp, and the line through two rows: 8 N eps
            tol = 8 * hz * EPS
            ok = c is not None and c["status"] == "ok" and \
                near(float(c["t_roll"]), t, tol * t) and near(float(c["s_roll"]), s, tol * s) and \
                near(float(c["v_roll"]), v, tol * v) and float(c["slip_max"]) <= tol * 2 and \
                abs(float(c["a_err"])) <= tol and float(run["err_pos_max"]) <= tol
            check(ok, "the exact engine, roll at %g deg, mu %g, %d Hz: t*, s*, v* to round-off, "
                  "no slip after, the rolling acceleration" % (alpha, mu, hz), (r.stderr, c, (t, s, v)))


def test_never_rolls(tmp):
    # tan 30 = 0.577 > 0.1 (1 + k)/k = 0.35: it slips for ever
    r, run, c = sim("roll", 60, 1.0, {"alpha": 30, "mu": 0.1})
    check(c is not None and c["t_roll"] == "inf" and c["t_roll_exact"] == "inf"
          and abs(float(c["a_err"])) <= 8 * 60 * EPS,
          "the exact engine at 30 deg, mu 0.1: never rolls, slides at g (sin a - mu cos a)", (r.stderr, c))


def test_box(tmp):
    for mu, sticks in ((0.7, True), (0.6, True), (0.2, False)):
        for hz in (30, 60):
            r, run, c = sim("box-incline", hz, 2.0, {"mu_s": mu, "alpha": 30})
            if sticks:
                ok = c is not None and c["creep"] == "0" and c["creep_speed"] == "0"
                what = "creep exactly 0"
            else:
                ok = c is not None and c["creep"] == "" and abs(float(c["a_err"])) <= 8 * 2 * hz * EPS
                what = "slides at g (sin a - mu cos a) to round-off"
            check(ok, "the exact engine, cube at 30 deg, mu %g, %d Hz: %s" % (mu, hz, what), (r.stderr, c))


def test_rows_are_measured(tmp):
    t, s, v = roll_exact(2.0, 0.45, 0)
    r, run, c = sim("roll", 60, 1.0, {"mu": 0.5}, engine=EXACT + " mu=0.9")
    te, _, _ = roll_exact(2.0, 0.5, 0)
    tol = 8 * 60 * EPS
    check(c is not None and near(float(c["t_roll"]), t, tol * t) and near(float(c["v_roll"]), v, tol * v)
          and near(float(c["t_roll_exact"]), te, tol * te),
          "friction 0.9 mu: t_roll is the rows' (2 v0/(7 0.45 g)), t_roll_exact the case's", (r.stderr, c))
    # mu_s 0.63 < tan 30 = 0.577? no: 0.63 > 0.577 sticks; 0.6 * 0.9 = 0.54 < 0.577 slides
    r, run, c = sim("box-incline", 60, 2.0, {"mu_s": 0.6, "alpha": 30}, engine=EXACT + " mu=0.9")
    a = math.radians(30)
    moved = 0.5 * G * (math.sin(a) - 0.54 * math.cos(a)) * 4.0  # from rest, over the 2 s
    check(c is not None and near(float(c["creep"]), moved, 1e-12 * moved),
          "friction 0.9 mu_s: the cube at 0.6 slides, its creep g (sin a - 0.54 cos a) t^2/2", (r.stderr, c))


def test_overshoot(tmp):
    """A ball whose slip overshoots as it starts to roll (a soft or
    regularised contact's, an impact's) slips the other way before it
    rolls: its rolling speed is the speed it then rolls at, not the speed
    where its slip first ended.  The exact engine's overshoot=0.1 writes the
    flat roll with its first 3 rolling rows spun 0.1/R too fast and the
    rest rolling at v* + 0.1: t_roll is the exact t* (the slip first ends
    there), v_roll v* + 0.1 (the old measure gave v*), slip_max 0.1; each
    to the round-off of the line through two rows, 8 N eps."""
    t, s, v = roll_exact(2.0, 0.5, 0)
    for hz in (30, 60):
        r, run, c = sim("roll", hz, 1.0, {}, engine=EXACT + " overshoot=0.1")
        tol = 8 * hz * EPS
        ok = c is not None and near(float(c["t_roll"]), t, tol * t) and \
            near(float(c["v_roll"]), v + 0.1, tol * v) and near(float(c["slip_max"]), 0.1, tol)
        check(ok, "an overshooting slip at %d Hz: t_roll at t*, v_roll the speed it then rolls at (v* + 0.1)" % hz,
              (r.stderr, c, (t, v + 0.1)))


def test_case_engines(tmp):
    case = os.path.join(tmp, "roll-engine.case")
    with open(case, "w") as f:
        f.write("[case]\nmodel = roll\nmu = 0.5\nv0 = 2\nt_end = 0.5\n\n[steps]\ndt = 0.03333333333333333\n"
                "halvings = 2\n\n[integrators]\nuse = rigid-splitting\n\n[contact]\nhandler = toi\n\n"
                "[engines]\nclosed = %s\n" % EXACT)
    out = os.path.join(tmp, "out")
    r = vb("run", case, "--out", out, "--quiet")
    rows = []
    try:
        with open(os.path.join(out, "roll-engine", "contact.csv")) as f:
            lines = [l for l in f.read().splitlines() if not l.startswith("#")]
        head = lines[0].split(",")
        rows = [dict(zip(head, l.split(","))) for l in lines[1:]]
    except OSError:
        pass
    ours = [x for x in rows if x.get("integrator") == "closed"]
    toi = [x for x in rows if x.get("integrator") == "rigid-splitting+toi"]
    t, _, v = roll_exact(2.0, 0.5, 0)
    ok = len(ours) >= 2 and len(ours) == len(toi) and all(
        near(float(x["t_roll"]), t, 1e-13) and near(float(x["v_roll"]), v, 1e-13) for x in ours + toi)
    check(r.returncode == 0 and ok, "a case's [engines] on roll: the engine's rows in contact.csv, "
          "t* and v* as toi's", (r.returncode, r.stderr[-800:], rows))


def test_refusals(tmp):
    no_gyro = "node " + os.path.join(ROOT, "engines", "check", "rigid-no-gyro.js")
    r, run, c = sim("roll", 60, 0.2, {}, engine=no_gyro)
    check(r.returncode == 1 and c is not None and c["status"] == "engine-failed" and
          "model 'roll': a ground the engine builds); this engine takes none (its capability line says "
          "protocol=3" in r.stderr, "a protocol-3 engine on roll: refused, engine-failed", r.stderr)
    particles = "node " + os.path.join(ROOT, "engines", "check", "contact-exact.js")
    r, run, c = sim("roll", 60, 0.2, {}, engine=particles)
    check(r.returncode == 1 and c is not None and c["status"] == "engine-failed" and
          "this engine takes particles at a contact only" in r.stderr,
          "a particle contact engine on roll: refused in the helper's words", r.stderr)
    r = vb("sim", "--model", "roll", "--dt", "0.1", "--t-end", "0.2", "--contact", "toi",
           "--engine", "ex=" + EXACT)
    check(r.returncode == 2 and "an engine solves its own contacts" in r.stderr,
          "sim --contact with --engine on roll: exit 2", r.stderr)
    # the helper: the request as the harness writes it (verletbench
    # problem), its kinetic coefficient raised above the static one
    case = os.path.join(tmp, "box.case")
    with open(case, "w") as f:
        f.write("[case]\nmodel = box-incline\nmu_s = 0.7\nt_end = 0.1\n\n[steps]\ndt = 0.05\n"
                "halvings = 2\n\n[integrators]\nuse = rigid-splitting\n\n[contact]\nhandler = toi\n")
    r = vb("problem", case, "--out", os.path.join(tmp, "problems"))
    reqs = []
    try:
        with open(os.path.join(tmp, "problems", "box", "requests.jsonl")) as f:
            reqs = [json.loads(l) for l in f if l.strip()]
    except OSError:
        pass
    runs = [q for q in reqs if q.get("kind") == "run"]
    ok = bool(runs) and runs[0].get("protocol") == 4 and runs[0]["contact"]["shape"] == \
        {"kind": "box", "edges": [0.1, 0.1, 0.1]} and runs[0]["contact"]["friction_kinetic"] == 0.7
    check(ok, "verletbench problem: box-incline's request is protocol 4, a box of edge 0.1, mu_k 0.7",
          (r.stderr, runs[:1]))
    if runs:
        q = dict(runs[0])
        q["contact"] = dict(q["contact"], friction_kinetic=0.8)
        e = subprocess.run(EXACT.split(), input=json.dumps(q) + "\n", capture_output=True, text=True,
                           timeout=60)
        want = ("# verletbench-error run=fixed-L0 the request's contact 'friction_kinetic' is not a number "
                "in [0, friction_static]")
        check(e.returncode == 1 and want in e.stdout,
              "the JavaScript helper refuses friction_kinetic > friction_static, naming the key",
              e.stdout + e.stderr)
        # the C helper, the same words (Bullet's adapter)
        bullet = os.path.join(ROOT, "engines", "build", "bullet-contact")
        e = subprocess.run([bullet], input=json.dumps(q) + "\n", capture_output=True, text=True, timeout=60)
        check(e.returncode == 1 and want in e.stdout, "the C helper refuses it in the same words",
              e.stdout + e.stderr)
        # a particle contact adapter of the C helper refuses a rigid body at
        # a contact as the JavaScript one does (Box2D's takes stacks too)
        e = subprocess.run([os.path.join(ROOT, "engines", "build", "box2d-contact")], input=json.dumps(runs[0]) + "\n",
                           capture_output=True, text=True, timeout=60)
        check(e.returncode == 1 and "the request is a rigid body at a contact ('contact' and 'body', model "
              "'box-incline'); this engine takes particles at a contact and stacks only (protocol 5)" in e.stdout,
              "the C helper's particle contact adapter refuses a rigid body at a contact", e.stdout + e.stderr)


def rows_of(path):
    try:
        with open(path) as f:
            lines = [l for l in f.read().splitlines() if not l.startswith("#")]
    except OSError:
        return []
    head = lines[0].split(",")
    return [dict(zip(head, l.split(","))) for l in lines[1:]]


def engine_against_solver(tmp, name, model_lines, solver, keys, engine, measures, tol, only60=False):
    """An engine's rows beside a lab solver's in one case (rigid-explicit-gyro:
    symplectic Euler, every engine's scheme), at 60 and 120 Hz (only60: at
    60 Hz alone): each measure equal within tol(row) relative.  (the number
    of comparisons, what differs)"""
    case = os.path.join(tmp, name + ".case")
    with open(case, "w") as f:
        f.write("[case]\n%s\n\n[steps]\ndt = 0.016666666666666666\nhalvings = 2\n\n"
                "[integrators]\nuse = rigid-explicit-gyro\n\n[contact]\nhandler = %s\n%s\n"
                "[engines]\nen = %s\n" % (model_lines, solver, keys, engine))
    out = os.path.join(tmp, "out-" + name)
    r = vb("run", case, "--out", out, "--quiet", "-j", "1")
    dirs = sorted(d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d))) if os.path.isdir(out) else []
    bad, n = [], 0
    for d in dirs:
        rows = rows_of(os.path.join(out, d, "contact.csv"))
        for dt in sorted({x["dt"] for x in rows if not only60 or x["dt"].startswith("0.01666")}):
            a = [x for x in rows if x["dt"] == dt and x["integrator"] == "en"]
            b = [x for x in rows if x["dt"] == dt and x["integrator"] == "rigid-explicit-gyro+" + solver]
            if len(a) != 1 or len(b) != 1:
                bad.append((d, dt, "rows missing"))
                continue
            for k in measures:
                x, y = float(a[0][k]), float(b[0][k])
                n += 1
                if not (abs(x - y) <= tol(b[0]) * abs(y)):
                    bad.append((d, dt, k, x, y))
    return r, n, bad


def mujoco_against_model(tmp, name, model_lines, keys, settings, measures):
    """MuJoCo through its adapter beside the lab's regularized solver (the
    lab's MuJoCo contact, held to MuJoCo 3.12.0 itself in test_body_solvers.c)
    in one case: each measure equal within 1e-8 relative, MuJoCo's Newton
    tolerance (mjOption.tolerance, engine_init.c:60; the lab solves to
    round-off)."""
    mj = "node " + os.path.join(ROOT, "engines", "mujoco", "contact.js")
    return engine_against_solver(tmp, name, model_lines, "regularized", keys, mj + " " + settings, measures,
                                 lambda row: 1e-8)


def test_mujoco_is_its_model(tmp):
    # the roll of a solid ball (k 2/5) and of a shell (k 2/3, where MuJoCo's
    # own sphere geom would give 2/5: the adapter's <inertial> must set it),
    # mu 0.5 on both geoms (MuJoCo combines by the larger,
    # engine_collision_driver.c:1818-1820: a plane left at its default 1
    # would roll at mu 1)
    r, n, bad = mujoco_against_model(tmp, "mj-roll", "model = roll\nmu = 0.5\nk = 0.4, 0.6666666666666666\n"
                                     "v0 = 2\nt_end = 1", "", "", ("t_roll", "s_roll", "v_roll"))
    check(r.returncode == 0 and n == 12 and not bad,
          "MuJoCo's ball (pyramidal, Euler, k 2/5 and 2/3, 60 and 120 Hz): t_roll, s_roll, v_roll its "
          "model's, the lab's regularized, to 1e-8", (r.stderr[-600:], n, bad))
    # the cube at mu 0.7 creeps: elliptic, impratio 1 and 10 (the creep
    # speed falls as 1/impratio, docs/contact.md "MuJoCo's creep in closed form")
    for keys, settings in (("cone = elliptic", "cone=elliptic"),
                           ("cone = elliptic\nimpratio = 10", "cone=elliptic impratio=10"),
                           ("", "")):
        r, n, bad = mujoco_against_model(tmp, "mj-box", "model = box-incline\nmu_s = 0.7\nalpha = 30\nt_end = 4",
                                         keys, settings, ("creep", "creep_speed"))
        check(r.returncode == 0 and n == 4 and not bad,
              "MuJoCo's cube at mu 0.7 (%s, 60 and 120 Hz): its creep and creep speed its model's to 1e-8"
              % (settings or "pyramidal"), (r.stderr[-600:], n, bad))


def test_jolt_is_sequential_impulses(tmp):
    # A ball that starts on the ground in Jolt (its defaults, a PlaneShape):
    # its contact is found at separation 0 (within the speculative distance),
    # each slipping step's friction is the full Coulomb impulse at the
    # contact point, the crossing step ends rolling: the lab's speculative
    # solver's step (Jolt's, ContactConstraintManager.cpp), exact here to
    # round-off, so Jolt's t*, s* (symplectic Euler's, first order) and v*
    # must be the lab's to float32's round-off: 16 eps32 a step to t* (the
    # rule of docs/real-engines.md §5.7).  k 2/5 and 2/3 (Jolt's SphereShape
    # would give 2/5: MassAndInertiaProvided must set it), mu 0.5 on both
    # bodies (Jolt combines sqrt(f1 f2), ContactConstraintManager.h:554: a
    # ground left at its default 0.2 rolls at mu 0.32)
    jolt = "node " + os.path.join(ROOT, "engines", "jolt", "contact.js")
    eps32 = 2.0 ** -23
    tol = lambda row: 16 * eps32 * (float(row["t_roll"]) / float(row["dt"]) + 1)
    r, n, bad = engine_against_solver(tmp, "jolt-roll", "model = roll\nmu = 0.5\nk = 0.4, 0.6666666666666666\n"
                                      "v0 = 2\nt_end = 1", "speculative", "", jolt, ("t_roll", "s_roll", "v_roll"), tol)
    check(r.returncode == 0 and n == 12 and not bad,
          "Jolt's ball on a PlaneShape (k 2/5 and 2/3, 60 and 120 Hz): t_roll, s_roll, v_roll the lab's "
          "speculative solver's to float32's round-off", (r.stderr[-600:], n, bad))


def test_bullet(tmp):
    # Bullet's sphere on its btStaticPlaneShape: one contact at the lowest
    # point, friction clamped to mu times the normal impulse, sequential
    # impulses from a ball that starts on the ground: the lab's pgs (Bullet's
    # solver, btSequentialImpulseConstraintSolver.cpp) is exact here, so
    # Bullet's t*, s*, v* are its to float32's round-off (16 eps32 a step to
    # t*).  k 2/5 and 2/3 (btSphereShape's own inertia is 2/5: the
    # construction info must carry the request's), the ground's friction 1
    # and the body's mu (Bullet multiplies them, btManifoldResult.cpp:56-66:
    # a ground left at its default 0.5 rolls at mu 0.25)
    bullet = os.path.join(ROOT, "engines", "build", "bullet-contact")
    eps32 = 2.0 ** -23
    tol = lambda row: 16 * eps32 * (float(row["t_roll"]) / float(row["dt"]) + 1)
    r, n, bad = engine_against_solver(tmp, "bullet-roll", "model = roll\nmu = 0.5\nk = 0.4, 0.6666666666666666\n"
                                      "v0 = 2\nt_end = 1", "pgs", "", bullet, ("t_roll", "s_roll", "v_roll"), tol)
    check(r.returncode == 0 and n == 12 and not bad,
          "Bullet's ball on a btStaticPlaneShape (k 2/5 and 2/3, 60 and 120 Hz): t_roll, s_roll, v_roll the "
          "lab's pgs solver's to float32's round-off", (r.stderr[-600:], n, bad))
    # The cube at mu 0.7 on Bullet's btStaticPlaneShape: by default the
    # convex-plane algorithm adds one contact point a step, the deepest
    # vertex (btConvexPlaneCollisionAlgorithm.cpp:81-126; its perturbed
    # queries never run with the default CreateFunc's threshold of 0 points,
    # .h:61-64 and .cpp:132): at 60 Hz the cube that must stick is not held,
    # it leaves down the slope (35 m in 10 s measured; more than 1 m here);
    # with setPlaneConvexMultipointIterations (multipoint=on) it is held
    # within 1 mm (0.15 mm measured), and on a btBoxShape ground within 0.1 mm
    case = os.path.join(tmp, "bullet-box.case")
    with open(case, "w") as f:
        f.write("[case]\nmodel = box-incline\nmu_s = 0.7\nalpha = 30\nt_end = 10\n\n[steps]\n"
                "dt = 0.016666666666666666\nhalvings = 2\n\n[integrators]\nuse = rigid-splitting\n\n"
                "[contact]\nhandler = toi\n\n[engines]\nplane = %s\nmultipoint = %s multipoint=on\n"
                "box = %s ground=box\n" % (bullet, bullet, bullet))
    out = os.path.join(tmp, "out-bullet-box")
    r = vb("run", case, "--out", out, "--quiet", "-j", "1")
    rows = [x for x in rows_of(os.path.join(out, "bullet-box", "contact.csv")) if x["dt"].startswith("0.01666")]
    creep = {x["integrator"]: float(x["creep"]) for x in rows}
    check(r.returncode == 0 and creep.get("plane", 0) > 1.0 and abs(creep.get("multipoint", 1)) < 1e-3
          and abs(creep.get("box", 1)) < 1e-4,
          "Bullet's cube at mu 0.7, 60 Hz, 10 s: leaves on the default btStaticPlaneShape, held with "
          "multipoint=on and on a btBoxShape ground", (r.stderr[-600:], creep))


def test_rapier(tmp):
    rapier = "node " + os.path.join(ROOT, "engines", "rapier3d", "contact.js")
    # the cube at mu 0.2 slides at g (sin a - mu cos a): Rapier averages the
    # two colliders' coefficients (coefficient_combine_rule.rs:41-42, :61-70),
    # both mu; a ground left at Rapier's default 0.5 slides it at mu 0.35,
    # 0.13 g slower.  Within 1e-4 g (6.5e-7 g measured at 60 Hz)
    r, run, c = sim("box-incline", 60, 2.0, {"mu_s": 0.2, "alpha": 30}, engine=rapier)
    check(c is not None and abs(float(c["a_err"])) <= 1e-4,
          "Rapier's cube at mu 0.2 slides at g (sin a - mu cos a)", (r.stderr, c))
    # a shell (k 2/3) rolls at (3/5) v0: the request's inertia, not the ball
    # collider's 2/5 (which would roll at 5/7, 19 % off); within 2e-3 (its
    # soft contact leaves -6e-4 at 60 Hz)
    r, run, c = sim("roll", 60, 2.0, {"k": 0.6666666666666666}, engine=rapier)
    check(c is not None and abs(float(c["v_roll"]) / 1.2 - 1) <= 2e-3,
          "Rapier's shell rolls at (3/5) v0 on the flat", (r.stderr, c))
    # Rapier caps |w| at MAX_ROTATION inv_dt = (pi/4)/h of the whole step
    # (worker.rs:29, :574-591; allow_fast_rotation is not in the JS API): the
    # ball rolling down 30 degrees reaches 47.1 rad/s at 60 Hz (94.2 at 120)
    # near t = 0.95 s (1.9 s) and slides from then on with that spin, at
    # g (sin a - mu cos a).  With one substep the last |w| is the cap to
    # float32's round-off (1e-5: a few eps32 of the spin's products)
    for hz in (60, 120):
        traj = os.path.join(tmp, "rapier-%d.csv" % hz)
        r = vb("sim", "--model", "roll", "--set", "alpha=30", "--dt", repr(1.0 / hz), "--t-end", "3",
               "--engine", "r=" + rapier + " iters=1", "--trajectory", traj)
        w = []
        try:
            with open(traj) as f:
                w = [math.sqrt(sum(float(x) ** 2 for x in l.split(",")[11:14]))
                     for l in f if l[0].isdigit()]
        except OSError:
            pass
        cap = math.pi / 4 * hz
        check(len(w) > 1 and abs(w[-1] / cap - 1) <= 1e-5,
              "Rapier's ball down 30 degrees, %d Hz, 1 substep: its spin held at the cap (pi/4)/h" % hz,
              (r.stderr[-400:], w[-1:], cap))


def test_cannon(tmp):
    cannon = "node " + os.path.join(ROOT, "engines", "cannon-es", "body-contact.js")
    # cannon-es bounds a friction equation by mu |g| m a contact point
    # (dist/cannon-es.cjs.js:10463-10475) and clamps its lambda, an impulse,
    # with it (:9948-9952): a step's friction may take mu g m, not mu g m h, so
    # the ball stops slipping within two steps whatever mu is, and rolls at the
    # speed that keeps its angular momentum about the contact point (every
    # impulse acts there): (5/7) v0 with k 2/5, (3/5) v0 with k 2/3 (the
    # request's inertia set after addShape), to round-off (1e-12)
    t = {}
    for mu, k, want in ((0.5, 0.4, 2 * 5 / 7), (0.2, 0.4, 2 * 5 / 7), (0.5, 0.6666666666666666, 1.2)):
        r, run, c = sim("roll", 60, 1.0, {"mu": mu, "k": k}, engine=cannon)
        ok = c is not None and abs(float(c["v_roll"]) - want) <= 1e-12 * want
        t[(mu, k)] = float(c["t_roll"]) if c else None
        check(ok, "cannon-es's ball, mu %g, k %.3g: rolls at the speed its angular momentum about the "
              "contact point gives" % (mu, k), (r.stderr, c))
    check(t[(0.5, 0.4)] is not None and t[(0.5, 0.4)] == t[(0.2, 0.4)] and t[(0.5, 0.4)] < 2.5 / 60,
          "cannon-es's ball rolls within two and a half steps at mu 0.5 and 0.2 alike", t)
    # the cube at mu 0.2, which must slide at g (sin a - mu cos a), is held:
    # the bound, 4 corners x 0.2 g m, is far above the h g m sin a a step
    # needs; its acceleration error is -(sin 30 - 0.2 cos 30) g to 1e-3 g (the
    # first steps' settling).  The default contact material's own 0.3 or a
    # product of two materials' coefficients would hold it too, so the
    # combine is held by the ball's t* above (two and a half steps)
    r, run, c = sim("box-incline", 60, 2.0, {"mu_s": 0.2, "alpha": 30}, engine=cannon)
    want = -(0.5 - 0.2 * math.cos(math.radians(30)))
    check(c is not None and abs(float(c["a_err"]) - want) <= 1e-3,
          "cannon-es's cube at mu 0.2 is held where it must slide", (r.stderr, c))


def test_ode(tmp):
    ode = os.path.join(ROOT, "engines", "build", "ode-contact")
    # ODE with dContactApprox1 (the adapter's default, friction=coulomb):
    # friction mu times the normal force at the contact point, an LCP solved
    # exactly by dWorldStep in doubles: the ball that starts on the ground
    # rolls at t* and v* of the closed form to 1e-8 (its CFM of 1e-10 softens
    # the contact: 2e-10 measured), k 2/5 and 2/3 (dMassSetParameters with
    # the request's moments)
    for k in (0.4, 0.6666666666666666):
        t, s, v = roll_exact(2.0, 0.5, 0, k)
        r, run, c = sim("roll", 60, 1.0, {"k": k}, engine=ode)
        check(c is not None and near(float(c["t_roll"]), t, 1e-8 * t) and near(float(c["v_roll"]), v, 1e-8 * v),
              "ODE's ball (dContactApprox1, dWorldStep), k %.3g: t* and v* of the closed form to 1e-8" % k,
              (r.stderr, c, (t, v)))
    # friction=force, ODE's default surface mode: mu is a force limit in
    # newtons (contact.cpp getInfo2: lo, hi = -+mu without findex), so the
    # slip falls at (F/m)(1 + 1/k) with F = mu = 0.5 N: t* = v0 / that,
    # 1.1429 s where Coulomb's is 0.1165 s; to 1e-8
    t = 2.0 / ((0.5 / 1.0) * (1 + 1 / 0.4))
    r, run, c = sim("roll", 60, 2.0, {}, engine=ode + " friction=force")
    check(c is not None and near(float(c["t_roll"]), t, 1e-8 * t),
          "ODE's default surface mode: mu a force of 0.5 N, t* = v0 m k / (mu (1 + k))", (r.stderr, c, t))


# the 3D engines' contact adapters as cases/engines/ runs them, their
# commands from the repository's root
ADAPTERS_3D = (("mujoco", "node engines/mujoco/contact.js"), ("jolt", "node engines/jolt/contact.js"),
               ("havok", "node engines/havok/contact.js"), ("bullet", "engines/build/bullet-contact"),
               ("rapier3d", "node engines/rapier3d/contact.js"), ("cannon-es", "node engines/cannon-es/body-contact.js"),
               ("ode", "engines/build/ode-contact"), ("ode-quick", "engines/build/ode-contact stepper=quick"))


def test_runs_carry_nothing(tmp):
    """A persistent worker serves many runs (protocol 2 and after): each
    must be, byte for byte, what a process of its own writes for it, or a
    table depends on which runs a worker served before (which -j and the
    scheduling decide).  box-incline at mu 0.6, 30/60/120 Hz, sent finest
    first so that every run but the first follows others; each engine's
    runs then alone.  ODE's dWorldQuickStep reorders its constraints from
    one global random seed (quickstep.cpp): before engines/ode/contact.c
    reset it a run, the 30 Hz cube crept 0.346 m after the finer runs and
    0.360 m alone."""
    sys.path.insert(0, os.path.join(ROOT, "engines", "check"))
    import persistent as P
    case = os.path.join(tmp, "carry.case")
    with open(case, "w") as f:
        f.write("[case]\nmodel = box-incline\nsize = 0.1\nalpha = 30\nmu_s = 0.6\nv0 = 0\nt_end = 10\n\n"
                "[steps]\ndt = 0.03333333333333333\nhalvings = 3\n\n[integrators]\nuse = rigid-explicit-gyro\n\n"
                "[contact]\nhandler = toi\n")
    r = vb("problem", case, "--out", os.path.join(tmp, "carry"))
    path = os.path.join(tmp, "carry", "carry", "requests.jsonl")
    if not os.path.isfile(path):
        check(False, "verletbench problem writes box-incline's requests", r.stderr)
        return
    with open(path) as f:
        runs = [l for l in f.read().splitlines() if json.loads(l)["kind"] == "run"][::-1]
    for name, command in ADAPTERS_3D:
        w = P.Worker(command)
        answers = []
        for line in runs:
            w.send(line + "\n")
            answers.append(w.answer(json.loads(line)["run"]))
        w.close()
        differ = []
        for line, a in zip(runs, answers):
            st, out = P.alone(command, line + "\n")
            if a[0] != "end" or st != 0 or a[1] != P.trajectory_of(out):
                differ.append(json.loads(line)["run"])
        check(len(answers) == 3 and not differ,
              "%s: box-incline's runs through one worker, finest first, equal each run alone byte for byte" % name,
              differ)


def test_readme_table(tmp):
    """The README's table of the 3D engines at a contact is what make engines'
    report (engines/check/body_contact.py) prints from the harness's
    contact.csv: cases/engines/roll, roll-incline, box-incline and roll-drop
    as committed, cut to the table's settings and to 60 and 120 Hz (halvings
    must be 2 or more; 1/30 halved is 1/60 to the bit), run through
    verletbench; a cell changed in the README, or an adapter's setting that
    moves a number, fails it."""
    sys.path.insert(0, os.path.join(ROOT, "engines", "check"))
    import body_contact as report
    names = {n for n, _, _ in report.README_ROWS}
    cases = []
    for c in ("roll", "roll-incline", "box-incline", "roll-drop"):
        with open(os.path.join(ROOT, "cases", "engines", c + ".case")) as f:
            text = f.read()
        out, section = [], ""
        for line in text.splitlines():
            if line.startswith("["):
                section = line.strip()
            m = re.match(r"([A-Za-z0-9_-]+)\s*=", line)
            if section == "[steps]" and m and m.group(1) == "dt":
                line = "dt = %r" % (0.03333333333333333 / 2)
            elif section == "[steps]" and m and m.group(1) == "halvings":
                line = "halvings = 2"
            elif section == "[engines]" and m and m.group(1) not in names:
                continue
            out.append(line.replace("../../engines/", os.path.join(ROOT, "engines") + "/"))
        cases.append(os.path.join(tmp, c + ".case"))
        with open(cases[-1], "w") as f:
            f.write("\n".join(out) + "\n")
    d = os.path.join(tmp, "readme-engines")
    r = S.vb_engines("run", *cases, "--engines-only", "--no-chart-data", "--quiet", "-j", "2", "--out", d)
    check(r.returncode == 0, "the README's settings on roll, roll-incline, box-incline and roll-drop run through "
          "verletbench",
          r.stderr[-800:])
    if r.returncode != 0:
        return
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"\n(\| engine \(setting\), %d Hz \|.*?)\n\n" % report.README_HZ, text, re.S)
    shown = m.group(1).splitlines() if m else []
    printed = report.readme_table(d)
    check(len(printed) == len(report.README_ROWS) + 2 and shown == printed,
          "the README's table of the 3D engines at a contact is what engines/check/body_contact.py prints "
          "from the harness's contact.csv", "\n".join(x for x in printed if x not in shown))
    reports_refuse_damage(tmp, d)


def reports_refuse_damage(tmp, d):
    """make engines' two reports on a damaged contact.csv: a file cut short,
    or a column gone, is named (file, line, column) with exit 2, never a
    traceback, and never a table of "–" that reads as unmeasured"""
    import shutil
    for how in ("cut", "column"):
        dmg = os.path.join(tmp, "damaged-" + how)
        shutil.copytree(d, dmg)
        path = os.path.join(dmg, "box-incline@mu_s=0.7", "contact.csv")
        with open(path) as f:
            lines = f.read().splitlines()
        if how == "cut":
            text = "\n".join(lines)[: len("\n".join(lines)) * 2 // 3]
            want = "contact.csv:"
        else:
            head = next(i for i, l in enumerate(lines) if not l.startswith("#"))
            col = lines[head].split(",").index("creep")
            text = "\n".join(l if l.startswith("#") else ",".join(c for j, c in enumerate(l.split(",")) if j != col)
                             for l in lines)
            want = "no column creep"
        with open(path, "w") as f:
            f.write(text + "\n")
        for script, args in (("body_contact.py", [dmg, "--out", os.path.join(tmp, "bc-%s.md" % how)]),
                             ("creep_chart.py", [dmg, os.path.join(tmp, "creep-" + how)])):
            r = subprocess.run([sys.executable, os.path.join(ROOT, "engines", "check", script)] + args,
                               capture_output=True, text=True)
            check(r.returncode == 2 and want in r.stderr and "Traceback" not in r.stderr,
                  "engines/check/%s on a contact.csv %s: exit 2, named" % (script, "cut short" if how == "cut"
                                                                           else "without its creep column"),
                  (r.returncode, r.stderr[-400:]))


def test_havok(tmp):
    havok = "node " + os.path.join(ROOT, "engines", "havok", "contact.js")
    # Havok's core is closed (engines/havok/README.md): what is held here was
    # measured, and each is a closed form of what was measured.  The contact's
    # first step carries no friction (the ball leaves it with w = 0 and u grown
    # by g sin a h); from the second step on, each slipping step takes the full
    # Coulomb impulse mu m g cos a h at the contact point (v falls by mu g h a
    # step on the flat).  Then the slip u = v - w R falls at
    # c = g (mu cos a (1 + 1/k) - sin a) from u1 = v0 + g sin a h, so
    # t* = h + u1/c = t*_exact + h (1 + g sin a / c): one step late on the
    # flat, 1.49 steps at 30 degrees, mu 0.5 (the measure's line through the
    # last two slipping rows, exact for a slip linear in the steps: within
    # 0.01 h, 7e-4 h measured).  The combine: both shapes mu under
    # GEOMETRIC_MEAN (HavokPhysics.d.ts:70-76, :117-123); MULTIPLY's mu^2 would
    # give t* 2.9 steps later at 60 Hz, a ground at Havok's default 0.5 under
    # the mean sqrt(0.1) at mu 0.2 far more.
    # Every impulse acts at the contact point (gravity's line passes through
    # it), so the angular momentum about it, m v0 R, is kept: it rolls at
    # v0 / (1 + k), (5/7) v0 for k 2/5 and (3/5) v0 for 2/3, to float32's
    # round-off (1e-5 relative: the rows' float32 velocities; 2e-7 measured).
    # k 2/3 holds the inertia: HP_Body_SetMassProperties with the request's
    # I/m (the shape's own, HP_Shape_BuildMassProperties, is the solid 2/5,
    # which would roll at 5/7; a body left without mass properties has mass 1
    # and I = 1 per unit mass, and would roll at v0/101); an angular damping
    # (Havok's default 0.1) takes w down by 0.1 h a step, (1 - 0.1 t*) on it,
    # and v* with it by 3e-3.
    for alpha, k, hz in ((0, 0.4, 60), (0, 0.4, 120), (0, 0.6666666666666666, 60), (30, 0.4, 60)):
        a = math.radians(alpha)
        t, s, v = roll_exact(2.0, 0.5, alpha, k)
        h = 1.0 / hz
        c = G * (0.5 * math.cos(a) * (1 + 1 / k) - math.sin(a))
        want_t = t + h * (1 + G * math.sin(a) / c)
        r, run, cc = sim("roll", hz, 1.0, {"alpha": alpha, "k": k}, engine=havok)
        ok = cc is not None and abs(float(cc["t_roll"]) - want_t) <= 0.01 * h
        if alpha == 0:
            ok = ok and near(float(cc["v_roll"]), 2.0 / (1 + k), 1e-5 * 2.0 / (1 + k))
        check(ok, "Havok's ball at %g deg, mu 0.5, k %.3g, %d Hz: rolls at t*_exact + h (1 + g sin a / c) "
              "(its first step without friction)%s" % (alpha, k, hz, ", at v0/(1 + k)" if alpha == 0 else ""),
              (r.stderr[-400:], cc, want_t))
    # the cube at mu 0.7 is held: it creeps 1.0 mm in 10 s at 60 Hz
    # (measured), within 2 mm; MULTIPLY's 0.49 < tan 30 = 0.577 would slide
    # it g (sin a - 0.49 cos a) t^2/2 = 37 m, as would a ground at the default
    # 0.5 under the mean, sqrt(0.35) = 0.59 only just holding
    r, run, cc = sim("box-incline", 60, 10.0, {"mu_s": 0.7, "alpha": 30}, engine=havok)
    check(cc is not None and cc["status"] == "ok" and abs(float(cc["creep"])) <= 2e-3,
          "Havok's cube at mu 0.7, 30 deg, 60 Hz: held within 2 mm in 10 s", (r.stderr[-400:], cc))
    # the cube at mu 0.2 slides at g (sin a - mu cos a) within 5e-4 g
    # (-1.8e-4 g measured, unexplained: the core is closed); a ground at the
    # default 0.5 under the mean would slide at mu 0.316, -0.1 g
    r, run, cc = sim("box-incline", 60, 2.0, {"mu_s": 0.2, "alpha": 30}, engine=havok)
    check(cc is not None and abs(float(cc["a_err"])) <= 5e-4,
          "Havok's cube at mu 0.2 slides at g (sin a - mu cos a)", (r.stderr[-400:], cc))


def test_creep_chart(tmp):
    # engines/check/creep_chart.py, the chart "creep against dt per engine"
    # of make engines: from a box-incline case's contact.csv (mu 0.7 and
    # 0.6, 30 and 60 Hz) with three engines: the exact test engine (its creep
    # exactly 0, which a log axis cannot show) and ODE's two steppers.  Its
    # points must be the table's (each engine row's creep, the same text;
    # drawn its size, blank for 0), a line an engine setting, none of the
    # lab's rows; the exact 0 said in the title and in the key, never drawn
    ode = os.path.join(ROOT, "engines", "build", "ode-contact")
    case = os.path.join(tmp, "box-incline.case")
    with open(case, "w") as f:
        f.write("[case]\nmodel = box-incline\nalpha = 30\nmu_s = 0.7, 0.6\nt_end = 2\n\n[steps]\n"
                "dt = 0.03333333333333333\nhalvings = 2\n\n[integrators]\nuse = rigid-explicit-gyro\n\n"
                "[contact]\nhandler = toi\n\n[engines]\nclosed = %s\node = %s\node-quick = %s stepper=quick\n"
                % (EXACT, ode, ode))
    out, plots = os.path.join(tmp, "out-chart"), os.path.join(tmp, "plots-chart")
    r = vb("run", case, "--out", out, "--quiet", "-j", "1")
    # a stand-in gnuplot that keeps the program it is fed, then draws it
    fed, fake = os.path.join(tmp, "fed.gp"), os.path.join(tmp, "keep-gnuplot")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\ntee '%s' | gnuplot\n" % fed)
    os.chmod(fake, 0o755)
    script = os.path.join(ROOT, "engines", "check", "creep_chart.py")
    c = subprocess.run([sys.executable, script, out, plots], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, GNUPLOT=fake))
    png = os.path.join(plots, "body-contact-creep.png")
    ok = c.returncode == 0 and os.path.isfile(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n" \
        and not [x for x in os.listdir(plots) if x.endswith(".tmp")]
    check(r.returncode == 0 and ok, "creep_chart.py draws plots/engines/body-contact-creep.png (renamed, "
          "no temporary left)", (r.stderr[-400:], c.stdout, c.stderr))
    want = {}
    for mu in ("0.7", "0.6"):
        for x in rows_of(os.path.join(out, "box-incline@mu_s=%s" % mu, "contact.csv")):
            if "+" not in x["integrator"]:
                want[(mu, x["integrator"], x["dt"])] = x["creep"]
    got = {}
    try:
        with open(os.path.join(plots, "body-contact-creep.csv")) as f:
            for x in csv.DictReader(l for l in f if not l.startswith("#")):
                got[(x["mu_s"], x["setting"], x["dt"])] = (x["creep"], x["drawn"])
    except OSError:
        pass
    drawn_ok = all(d == ("" if float(cr) == 0 else cr.lstrip("-")) for cr, d in got.values())
    check(len(want) == 12 and set(got) == set(want) and all(got[k][0] == want[k] for k in want) and drawn_ok,
          "the chart's points are contact.csv's creep of each engine row (2 mu x 3 settings x 2 dt), drawn "
          "as its size, none of the lab's", (sorted(want.items()), sorted(got.items())))
    exact = [v for k, v in got.items() if k[1] == "closed"]
    prog = open(fed).read() if os.path.exists(fed) else ""
    check(len(exact) == 4 and all(v == ("0", "") for v in exact) and "Exact creep: 0 at every dt" in prog
          and prog.count('keyentry with points lc rgb "#7f7f7f" pt 4 title "closed (0 at 2 dt, not drawn)"') == 2
          and prog.count(" using 3:5 ") == 4,
          "the exact engine's creep 0 is never drawn: its key says so in each panel, the title says the "
          "exact creep is 0; ODE's four lines drawn", prog[-1500:])
    c = subprocess.run([sys.executable, script, os.path.join(tmp, "nowhere"), plots], capture_output=True,
                       text=True, timeout=60)
    check(c.returncode == 2 and "no contact.csv of box-incline@mu_s=0.7, box-incline@mu_s=0.6" in c.stderr,
          "creep_chart.py without make engines' tables: exit 2, naming them", c.stderr)


def drop_exact(v0, h0, mu, k=0.4, g=G):
    """JoltPhysics#2121's drop (derived; docs/contact.md "A ball dropped onto
    the floor"): the lowest point h0 up, vx = v0, w0 = 0, restitution 0, on
    the flat.  It lands at t_l = sqrt(2 h0/g), v0 t_l along, at c = g t_l.
    Stopping the slip at the impact takes v0 k/(1 + k) per unit mass; within
    mu c it rolls from t_l at v0/(1 + k); else the impact's mu c leaves
    v1 = v0 - mu c and w R = mu c/k, and friction mu g slips it on until
    they meet, at v0/(1 + k) too (the angular momentum about the contact
    point kept).  (t*, s*, v*)"""
    tl, vs = math.sqrt(2 * h0 / g), v0 / (1 + k)
    c = g * tl
    if v0 * k / (1 + k) <= mu * c:
        return tl, v0 * tl, vs
    v1, wr1 = v0 - mu * c, mu * c / k
    ts = (v1 - wr1) / (mu * g * (1 + 1 / k))
    return tl + ts, v0 * tl + v1 * ts - 0.5 * mu * g * ts * ts, vs


def test_drop_exact(tmp):
    # the exact engine's flight and impact, measured by bodyrun.c: the roll
    # that starts at the impact placed at the landing from the last flight
    # row (a parabola: exact), the one that slips on after it on its line;
    # both to round-off (8 N eps, as above)
    for mu in (0.5, 0.05):
        t, s, v = drop_exact(2.0, 1.25, mu)
        for hz in (30, 60, 120):
            r, run, c = sim("roll", hz, 2.0, {"mu": mu, "height": 1.25})
            tol = 8 * 2 * hz * EPS
            ok = c is not None and c["status"] == "ok" and \
                near(float(c["t_roll"]), t, tol * t) and near(float(c["s_roll"]), s, tol * s) and \
                near(float(c["v_roll"]), v, tol * v) and near(float(c["t_roll_exact"]), t, tol * t) and \
                float(c["slip_max"]) <= tol * 2 and c["energy_err"] == "" and float(run["err_pos_max"]) <= tol * 3
            check(ok, "the exact engine, dropped from 1.25 m at mu %g, %d Hz: lands and %s, t*, s*, v* = 5/7 v0 "
                  "to round-off, energy_err blank" % (mu, hz, "rolls at once" if mu == 0.5 else "slides on"),
                  (r.stderr, c, (t, s, v)))
    r, run, c = sim("roll", 60, 1.0, {"height": 1.25, "e": 0.5})
    check(r.returncode == 2 and "e = 0.5 with height = 1.25" in r.stderr,
          "sim: a dropped ball with e 0.5 refused, exit 2", r.stderr)


def test_drop_engines(tmp):
    # JoltPhysics#2121's own drop (docs/real-engines.md §6.6), the issue's
    # 1.25 m at mu 0.5 and at 0.05 (it slides on after the impact: t* then
    # depends on the friction the adapter combines), a solid ball and a
    # shell (k 2/3: the adapter's inertia).  Jolt's contact is the lab's
    # speculative solver's (ContactConstraintManager.cpp: contacts at the
    # step's start within 0.02 m, no bias on a penetrating contact :75, the
    # friction at the midpoint :46-49): its t* and v* are the lab's to
    # float32's round-off (16 eps32 a step to t*), at 60 and 120 Hz
    jolt = "node " + os.path.join(ROOT, "engines", "jolt", "contact.js")
    eps32 = 2.0 ** -23
    tol = lambda row: 16 * eps32 * (float(row["t_roll"]) / float(row["dt"]) + 1)
    lines = "model = roll\nheight = 1.25\nv0 = 2\nmu = 0.5, 0.05\nk = 0.4, 0.6666666666666666\nt_end = 2"
    r, n, bad = engine_against_solver(tmp, "jolt-drop", lines, "speculative", "", jolt, ("t_roll", "v_roll"), tol)
    check(r.returncode == 0 and n == 16 and not bad,
          "Jolt's dropped ball (mu 0.5 and 0.05, k 2/5 and 2/3, 60 and 120 Hz): t_roll and v_roll the lab's "
          "speculative solver's to float32's round-off", (r.stderr[-600:], n, bad))
    # ... and at 60 Hz the closed form of its sunk lever: symplectic Euler
    # from rest falls g h^2 n(n+1)/2 in n steps, so the 30th step starts
    # 1.25 - 435 g h^2 = 64.6 mm up (no contact: > 0.02 m) and ends
    # s = 1.25 - 465 g h^2 = -17.125 mm; the 31st stops it there and the
    # position steps leave it (they correct only separation + slop < 0,
    # :1906-1909, slop 0.02 m), its friction at r = R + s/2 below the centre
    # sticks, so v = v0 r^2/(r^2 + k R^2) = (5/7) v0 (1 - 5.30 %), not the
    # issue's +1.52 % (a first contact 11.56 mm up)
    h, R = 1.0 / 60.0, 0.1
    rr = R + 0.5 * (1.25 - 465 * G * h * h)
    want = 2.0 * rr * rr / (rr * rr + 0.4 * R * R)
    r, run, c = sim("roll", 60, 2.0, {"height": 1.25}, engine=jolt)
    check(c is not None and abs(float(c["v_roll"]) / want - 1) <= 16 * eps32 * 120
          and abs(want / (2.0 / 1.4) - 1 + 0.0530) < 5e-4,
          "Jolt, the issue's drop at 60 Hz: rolls at (5/7) v0 (1 - 5.30 %), its lever R - 8.56 mm", (c, want))
    # MuJoCo's drop is the lab's regularized solver's to its Newton
    # tolerance (1e-8), at 60 Hz (its first step falls free, the contact
    # at dist >= margin has no rows: engine_collision_driver.c:1855)
    mj = "node " + os.path.join(ROOT, "engines", "mujoco", "contact.js")
    r, n, bad = engine_against_solver(tmp, "mj-drop", lines, "regularized", "", mj, ("t_roll", "v_roll"),
                                      lambda row: 1e-8, only60=True)
    check(r.returncode == 0 and n == 8 and not bad,
          "MuJoCo's dropped ball (mu 0.5 and 0.05, k 2/5 and 2/3, 60 Hz): t_roll, v_roll the lab's regularized's",
          (r.stderr[-600:], n, bad))
    # ODE (dContactApprox1, dWorldStep): its LCP in doubles, every impulse
    # at the contact point, rolls at the lab's pgs's speed, v0/(1 + k), to
    # 1e-8 (its CFM of 1e-10, as above).  (Its t* differs at 120 Hz: ODE's
    # plane gives a contact only once the ball is in it, the lab's pgs within
    # 0.02 m, a step before)
    ode = os.path.join(ROOT, "engines", "build", "ode-contact")
    r, n, bad = engine_against_solver(tmp, "ode-drop", lines, "pgs", "", ode, ("v_roll",), lambda row: 1e-8)
    check(r.returncode == 0 and n == 8 and not bad,
          "ODE's dropped ball (mu 0.5 and 0.05, k 2/5 and 2/3, 60 and 120 Hz): v_roll the lab's pgs's to 1e-8",
          (r.stderr[-600:], n, bad))
    # Bullet at 60 Hz: sunk 17.125 mm at its landing like Jolt's, but its
    # friction acts at the contact point (btSequentialImpulseConstraintSolver:
    # rel_pos from the manifold's point, not a midpoint): (5/7) v0 and
    # (3/5) v0 to float32 (16 eps32 a step)
    bullet = os.path.join(ROOT, "engines", "build", "bullet-contact")
    for k, v in ((0.4, 2 / 1.4), (0.6666666666666666, 1.2)):
        r, run, c = sim("roll", 60, 2.0, {"height": 1.25, "k": k}, engine=bullet)
        check(c is not None and abs(float(c["v_roll"]) / v - 1) <= 16 * eps32 * 120,
              "Bullet, the issue's drop at 60 Hz, k %.3g: rolls at v0/(1 + k)" % k, (r.stderr[-300:], c))


if __name__ == "__main__":
    sys.exit(S.main([test_roll_exact, test_never_rolls, test_box, test_rows_are_measured, test_overshoot,
                     test_case_engines,
                     test_refusals, test_mujoco_is_its_model,
                     test_jolt_is_sequential_impulses, test_bullet,
                     test_rapier, test_cannon, test_ode, test_havok,
                     test_creep_chart, test_drop_exact, test_drop_engines, test_runs_carry_nothing,
                     test_readme_table]))
