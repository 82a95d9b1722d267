#!/usr/bin/env python3
"""rigid_engines.py BUILD_DIR — the harness's side of protocol 3 (a rigid
body, docs/real-engines.md §4.6): real 3D engines run on a rotation case
THROUGH verletbench, measured as the built-in rotation methods are.
make check sets the engines up with `make -C engines setup`.

The independent truths:

1. cannon-es 0.20.0 (npm), engines/cannon-es/body.js.  Its step without
   torque, read in engines/node_modules/cannon-es/dist/cannon-es.cjs.js:
   Body.integrate (:3891-3945) changes the world angular velocity only by
   invInertiaWorld * torque (:3919-3921; no torque here, so it holds), moves
   x with the new v (:3923-3925), then Quaternion.integrate (:1927-1946):
   q += h/2 (0, w_world) q, and normalize (:3928-3933).  That is the built-in
   rigid-no-gyro's step (src/integrators/rigid_no_gyro.c: the same products
   in the world frame), so
   - on a tumbling body (the Dzhanibekov spin) every run's attitude,
     angular velocity and packed-state errors equal rigid-no-gyro's to
     round-off, and the summary says "= `rigid-no-gyro`" (the project's '='
     test, docs/method.md §2): what holds only if the harness sent the body
     as the request says, read the 14 columns, held row 0 and turned the
     world w into the body frame with each row's quaternion;
   - it does not converge there: the world w it holds is not the truth's
     (L is fixed in the world, w = I_world^-1 L turns), so the attitude
     error at the finest step is not below half of the coarsest's (an order
     1 method would halve it at each of the two halvings: 1/4);
   - about a principal axis (w = W e3, q0 = 1) the world w is the truth,
     and each step turns the body about e3 by 2 atan(h W / 2) in place of
     h W ((1, h W/2 e3) q normalised is the rotation of that angle), so
     after N fixed steps the attitude error is N (h W - 2 atan(h W / 2))
     exactly: order 2, and the closed form to round-off.
2. ODE 0.16.2 (Debian libode-dev), engines/build/ode: its step
   (ode/src/util.cpp:583-661, through dDQfromW, rotation.cpp:310-317) is
   the same first-order update, normalised (dNormalize4, util.cpp:659), and
   its gyroscopic term (step.cpp:650-703) solves (I - h[L]x) w' = L, whose
   solution about a principal axis is w' = w (L x w = 0): with the
   gyroscopic mode on or off, the principal-axis spin's attitude error is
   the closed form above.  With gyro=off on the tumbling body it is
   rigid-no-gyro to round-off, as cannon-es.
3. Bullet 3.24 (Debian), float64 build, its default gyro=implicit-body:
   computeGyroscopicImpulseImplicit_Body (btRigidBody.cpp:297-334), one
   Newton step of backward Euler on I w' = I w x w' in the body frame,
   added by the solver (btSequentialImpulseConstraintSolver.cpp:1394-1398,
   :1820-1826), then the exponential map with the new w
   (btTransformUtil.h:54-67) and symplectic Euler for x: the built-in
   rigid-implicit-gyro's step (src/integrators/rigid_implicit_gyro.c), in
   the world frame.  On the tumbling body every run equals it to round-off
   and the summary says "= `rigid-implicit-gyro`"; here the body-frame w
   changes while the world's does not hold, so a w not turned by the row's
   quaternion (or turned by the wrong one) fails it.  MuJoCo 3.12.0
   (npm @mujoco/mujoco) integrator=implicit, whose free joint's w is the
   body's (angvel=body; engine_support.c:662-664): the same Newton step in
   the body frame (engine_forward.c:1680-1689, :1730-1732) and q exp(h w_b)
   on the right (engine_util_spatial.c:234-243), the same map: "=" too.
   Bullet's float32 build, gyro=none: the world w held
   (btRigidBody.cpp: no gyroscopic term), the exponential map
   (btTransformUtil.h:54-67), exact for a constant w: on the principal-axis
   spin its attitude error is float32's round-off (below 8 N eps32, see the
   check), a thousand times below the first-order update's.
4. engines/check/rigid-no-gyro.js quat=first (the built-in rigid-no-gyro's
   update, written in the engine) with angvel=world and angvel=body:
   both '=' rigid-no-gyro, so the harness turned a body-frame w (kept) and a
   world-frame w (turned) into the same state; with its exponential map it
   is exact to round-off about a principal axis.
5. An engine written here that returns -q on every other row (an engine
   that keeps a matrix may, docs/real-engines.md §4.3): q and -q are one
   attitude, so the harness continues the sign and the errors are
   round-off, not |q - (-q)| = 2.
6. Persistent workers: the tables of the workers and of one process a run
   (VERLETBENCH_ENGINE_PROCESSES=1) are the same bytes; the provenance line
   names the engine and its pinned version (engines/package.json) and says
   protocol 3 and the frame of w.
7. MuJoCo 3.12.0 integrator=RK4: classical RK4 on (q, w_b), but the step
   ends with one exponential map of the stages' weighted w from the start
   (mj_RungeKutta: dX = sum B_j qvel_j, then mj_advance; docs/real-engines.md
   §5.4), which drops the stages' commutator, O(h^3) a step: its attitude
   is second order on a tumbling body where the built-in rigid-rk4's is
   fourth, while its w, RK4's own, is fourth order too.  The README's and
   docs/findings.md's MuJoCo RK4 rows say so (issue 51 item 5).
8. What is refused, each run failing by name (status engine-failed, exit 1,
   as every engine's failure, docs/real-engines.md §1.5): a protocol-2
   engine on a rigid case, a protocol-1 one, a protocol-3-only engine on a
   particle case (its own error line), angvel=sideways, angvel with
   protocol=2, velocity=none on a body, a column line with the quaternion
   w last, a row 0 that is not the request's; a row whose quaternion is
   not unit to 1e-5 (2 q_exact, 0, 1.00002 q_exact), named by row and |q|,
   while a float32 engine's q passes (src/engine/body.c says why 1e-5).
8. Engines that reset or overflow (docs/real-engines.md §5.8): MuJoCo Euler
   and Bullet explicit on the 5 rad/s spin fail, each at the step that
   explicit Euler's recurrence (written here) reaches MuJoCo's mjMAXVAL
   (engine_forward.c:93-112) or Bullet's cap BT_LARGE_FLOAT (btScalar.h:312,
   btRigidBody.cpp:290-293), or float32's overflow.

Ends with "N passed, N failed"."""
import math
import os
import re
import shlex
import stat
import sys

from suite import Suite, max_or_nan, table_rows

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ENG = os.path.join(ROOT, "engines")
CANNON = "node " + os.path.join(ENG, "cannon-es", "body.js")
CANNON_2D = "node " + os.path.join(ENG, "cannon-es", "adapter.js")
NOGYRO_JS = "node " + os.path.join(ENG, "check", "rigid-no-gyro.js")
MUJOCO = "node " + os.path.join(ENG, "mujoco", "adapter.js")
BULLET64 = os.path.join(ENG, "build", "bullet-f64")
ODE = os.path.join(ENG, "build", "ode")
BULLET = os.path.join(ENG, "build", "bullet")
GUARD = 300
EPS = 2.0 ** -52
EPS32 = 2.0 ** -23

SUITE = Suite("rigid engines", GUARD)
check = SUITE.check

# The Dzhanibekov spin, short: 4 s (before the first flip at 9.8 s, so the
# first-order methods' errors stay small), fixed steps 0.1 down to 0.025,
# random steps, the 60 Hz trace (3 step sizes: halvings counts them)
FLIP = """[case]
model = free-body
I1 = 1
I2 = 2
I3 = 3
w1 = 0.01
w2 = 1
w3 = 0.01
t_end = 4
[steps]
dt = 0.1
halvings = 3
jitter = 0.5
seeds = 2
trace = %s
[integrators]
use = rigid-no-gyro, rigid-implicit-gyro
""" % os.path.join(ROOT, "cases", "traces", "frames-60hz.trace")

# A spin about the major axis, w = W e3, W = 5: 2 s, fixed steps
W = 5.0
SPIN = """[case]
model = free-body
I1 = 1
I2 = 2
I3 = 3
w1 = 0
w2 = 0
w3 = 5
t_end = 2
[steps]
dt = 0.05
halvings = 2
[integrators]
use = rigid-no-gyro
"""

SPRING = """[case]
model = spring
k = 1
m = 1
x0 = 1
v0 = 0
t_end = 1
[steps]
dt = 0.1
halvings = 2
[integrators]
use = euler-semi
"""


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def run_case(tmp, name, text, engines, env=None):
    case = write(os.path.join(tmp, name + ".case"), text)
    out = os.path.join(tmp, "out-" + name)
    args = ["run", case, "--out", out]
    for e in engines:
        args += ["--engine", e]
    r = SUITE.vb_engines(*args, env=env)
    return r, os.path.join(out, name)


def rows_of(d, table="runs.csv"):
    return table_rows(os.path.join(d, table))


def key(row):
    return (row["plan"], row["level"], row["seed"])


def by_integrator(rows):
    out = {}
    for r in rows:
        out.setdefault(r["integrator"], {})[key(r)] = r
    return out


def same_to_roundoff(a, b, steps):
    """the project's rule for two methods that compute the same states
    (docs/method.md §2): within 16 eps N^1.5 of the size (here the
    quaternion's and w's, about 1; |w| = 1 for the flip) and within 1e-3 of
    the errors themselves"""
    a, b = float(a), float(b)
    return abs(a - b) <= 16 * EPS * steps ** 1.5 and abs(a - b) <= 1e-3 * max(abs(a), abs(b))


def summary_row(d, name):
    with open(os.path.join(d, "summary.md")) as f:
        for line in f:
            if line.startswith("| `%s` |" % name):
                return line
    return ""


def test_tumbling(tmp):
    """cannon-es and the test engine's first-order update are rigid-no-gyro
    on a tumbling body, through the harness; cannon-es does not converge"""
    engines = ["cannon=" + CANNON,
               "first-world=" + NOGYRO_JS + " quat=first",
               "first-body=" + NOGYRO_JS + " quat=first angvel=body",
               "ode-nogyro=" + ODE + " gyro=off",
               "bullet64=" + BULLET64, "mujoco-implicit=" + MUJOCO + " integrator=implicit"]
    r, d = run_case(tmp, "flip", FLIP, engines)
    check(r.returncode == 0, "the flip case with six protocol-3 engines runs", r.stderr[-1500:])
    if r.returncode != 0:
        return
    g = by_integrator(rows_of(d))
    for name, same in (("cannon", "rigid-no-gyro"), ("first-world", "rigid-no-gyro"),
                       ("first-body", "rigid-no-gyro"), ("ode-nogyro", "rigid-no-gyro"),
                       ("bullet64", "rigid-implicit-gyro"),
                       ("mujoco-implicit", "rigid-implicit-gyro")):
        ref = g[same]
        runs = g.get(name, {})
        check(len(runs) == len(ref) and all(runs[k]["status"] == "ok" for k in runs),
              "%s: a row each run of the plan, every one ok" % name, sorted(runs))
        bad = [(k, col, runs[k][col], ref[k][col]) for k in ref if k in runs
               for col in ("err_att_max", "err_angvel_max", "err_pos_max", "err_angmom_max")
               if not same_to_roundoff(runs[k][col], ref[k][col], int(ref[k]["steps"]))]
        check(not bad, "%s: every run's attitude, w, packed-state and L errors are "
              "%s's to round-off (its step is %s's)" % (name, same, same), bad[:4])
        check("= `%s`" % same in summary_row(d, name),
              "%s: the summary says = %s" % (name, same), summary_row(d, name))
    # not rigid-implicit-gyro: the '=' test can tell them apart here
    check("= `rigid-implicit-gyro`" not in summary_row(d, "cannon"),
          "cannon is not = rigid-implicit-gyro", summary_row(d, "cannon"))
    fixed = sorted((int(k[1]), float(v["err_att_max"])) for k, v in g["cannon"].items()
                   if k[0] == "fixed")
    check(len(fixed) == 3 and fixed[-1][1] > 0.5 * fixed[0][1] > 0,
          "cannon-es does not converge on a tumbling body: the finest step's attitude error "
          "is more than half the coarsest's", fixed)
    # flips.csv and orders.csv carry the engine's rows as a built-in's
    flips = [f for f in rows_of(d, "flips.csv") if f["integrator"] == "cannon"]
    check(len(flips) == len(g["cannon"]), "flips.csv: a row each cannon run", len(flips))
    orders = [o for o in rows_of(d, "orders.csv") if o["integrator"] == "cannon"]
    check(any(o.get("norm") == "err_att_max" for o in orders),
          "orders.csv fits cannon's attitude error", [o.get("norm") for o in orders][:12])


def test_principal_axis(tmp):
    """about a principal axis: cannon-es and ODE (gyro on and off) at the
    first-order update's closed form; Bullet's exponential map and the test
    engine's exact to round-off"""
    engines = ["cannon=" + CANNON, "ode=" + ODE, "ode-nogyro=" + ODE + " gyro=off",
               "bullet-none=" + BULLET + " gyro=none", "exp=" + NOGYRO_JS]
    r, d = run_case(tmp, "spin", SPIN, engines)
    check(r.returncode == 0, "the principal-axis spin with five engines runs", r.stderr[-1500:])
    if r.returncode != 0:
        return
    g = by_integrator(rows_of(d))
    for name in ("cannon", "ode", "ode-nogyro", "rigid-no-gyro"):
        for k, row in sorted(g[name].items()):
            n, h = int(row["steps"]), float(row["dt"])
            # N (h W - 2 atan(h W / 2)): the first-order update's lag, exact;
            # 1e-9 relative: N steps' round-off of angles up to W t_end = 10
            # rad is about N 10 eps = 1e-13, the error itself 0.013 to 0.05
            want = n * (h * W - 2.0 * math.atan(h * W / 2.0))
            got = float(row["err_att_max"])
            check(abs(got - want) <= 1e-9 * want,
                  "%s %s: attitude error %r is N (hW - 2 atan(hW/2)) = %r" % (name, k, got, want))
            # w is held exactly about a principal axis: a few ulps of W
            check(float(row["err_angvel_max"]) <= 64 * EPS * W * n,
                  "%s %s: w held about a principal axis" % (name, k), row["err_angvel_max"])
    for k, row in g["exp"].items():
        # the exponential map is the exact rotation for a constant w: each
        # step's rounding turns the body by a few ulps, N steps at most 64 N
        # eps (the first-order update's error is 1e11 times that)
        n = int(row["steps"])
        check(float(row["err_att_max"]) <= 64 * EPS * n,
              "rigid-no-gyro.js (exponential map) exact to round-off about a principal axis %s"
              % (k,), row["err_att_max"])
    for k, row in g["bullet-none"].items():
        # float32: each step rounds h, exp's components, the product and the
        # normalisation, each turning the attitude by at most about eps32;
        # 8 N eps32 = 3.8e-5 at N = 40, 1300 times below the first-order
        # update's error there (0.052)
        n = int(row["steps"])
        check(float(row["err_att_max"]) <= 8 * EPS32 * n,
              "bullet gyro=none (exponential map, float32) exact to float32's round-off %s"
              % (k,), row["err_att_max"])
    with open(os.path.join(d, "runs.csv")) as f:
        prov = [l for l in f if l.startswith("# engine bullet-none:")]
    check(len(prov) == 1 and "precision" not in prov[0] and "float32" in prov[0] and
          "protocol 3" in prov[0], "bullet's provenance line says float32 and protocol 3", prov)


def test_workers_and_provenance(tmp):
    """persistent workers and one process a run: the same bytes; the
    provenance line of a protocol-3 engine"""
    r1, d1 = run_case(tmp, "flipw", FLIP, ["cannon=" + CANNON])
    r2, d2 = run_case(tmp, "flipp", FLIP, ["cannon=" + CANNON],
                      env={"VERLETBENCH_ENGINE_PROCESSES": "1"})
    check(r1.returncode == 0 and r2.returncode == 0, "both runs", r1.stderr[-600:] + r2.stderr[-600:])
    if r1.returncode or r2.returncode:
        return
    for t in ("runs.csv", "flips.csv", "orders.csv"):
        def body(d):
            with open(os.path.join(d, t)) as f:
                return [l for l in f if not l.startswith("# verletbench") and "runs of" not in l
                        and not l.startswith("# git")]
        check(body(d1) == body(d2), "%s: workers and one process a run give the same bytes" % t)
    with open(os.path.join(ENG, "package.json")) as f:
        pin = re.search(r'"cannon-es":\s*"([^"]+)"', f.read()).group(1)
    with open(os.path.join(d1, "runs.csv")) as f:
        prov = [l.strip() for l in f if l.startswith("# engine cannon:")]
    check(len(prov) == 1 and ("cannon-es@%s" % pin) in prov[0] and
          prov[0].endswith("protocol 3, persistent, float64, velocity state, angvel world"),
          "the provenance line: cannon-es@%s, protocol 3, persistent, angvel world" % pin, prov)


# An engine of protocol 3 written here, without the helpers: the exact spin
# about e3 (w = W e3, q0 = 1), q = (cos(W t/2), 0, 0, sin(W t/2)), with
# options to go wrong
ENGINE = r'''#!/usr/bin/env python3
import json, math, struct, sys
mode = sys.argv[1] if len(sys.argv) > 1 else "good"
caps = {"v1": None, "sideways": "protocol=3 angvel=sideways",
        "angvel-v2": "protocol=2 angvel=body", "vnone": "protocol=3 velocity=none"}
line = caps.get(mode, "protocol=3 angvel=world")
if line:
    print("# verletbench-engine " + line)
req = json.loads(sys.stdin.readline())
b = req["body"]
W = b["w0_world"][2]
print(req["header"])
cols = "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz"
if mode == "wlast":
    cols = "t,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz"
print(cols)
t, n = 0.0, 0
rows = [0.0] + req["h"]
for k, h in enumerate(rows):
    t += h
    q = [math.cos(W * t / 2), 0.0, 0.0, math.sin(W * t / 2)]
    if mode == "flip" and k % 2 == 1:
        q = [-c for c in q]
    if mode == "row0" and k == 0:
        q = [0.0, 0.0, 0.0, 1.0]
    if mode.startswith("scale=") and k > 0:
        q = [float(mode[6:]) * c for c in q]
    if mode == "zero" and k == 3:
        q = [0.0, 0.0, 0.0, 0.0]
    if mode == "float32" and k > 0:
        # q as a float32 engine holds it, normalised in float32 and
        # printed with the 9 digits that read back the same float
        f32 = lambda c: struct.unpack("f", struct.pack("f", c))[0]
        q = [f32(c) for c in q]
        n = f32(math.sqrt(f32(sum(f32(c * c) for c in q))))
        q = ["%.9g" % f32(c / n) for c in q]
    print(",".join(c if isinstance(c, str) else repr(c)
                   for c in [t, 0.0, 0.0, 0.0] + q + [0.0, 0.0, 0.0, 0.0, 0.0, W]))
'''


def test_sign_and_refusals(tmp):
    path = write(os.path.join(tmp, "spin-engine.py"), ENGINE)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    eng = shlex.quote(path)
    # the sign: an engine that writes -q every other row
    r, d = run_case(tmp, "sign", SPIN, ["flip=python3 %s flip" % eng, "good=python3 %s" % eng])
    check(r.returncode == 0, "an engine of its own (no helper) runs", r.stderr[-800:])
    if r.returncode == 0:
        g = by_integrator(rows_of(d))
        for name in ("good", "flip"):
            for k, row in g[name].items():
                n = int(row["steps"])
                # the exact motion written with Python's cos and sin: a few
                # ulps a row; 64 N eps, where -q unturned would be 2
                check(float(row["err_att_max"]) <= 64 * EPS * n and
                      float(row["err_pos_max"]) <= 64 * EPS * n,
                      "%s %s: q and -q are one attitude: the errors are round-off" % (name, k),
                      (row["err_att_max"], row["err_pos_max"]))

    def refused(name, case, engine, want):
        r, d = run_case(tmp, name, case, [engine])
        rows = [x for x in rows_of(d) if x["integrator"] == engine.split("=")[0]] if \
            os.path.exists(os.path.join(d, "runs.csv")) else []
        check(r.returncode == 1 and rows and all(x["status"] == "engine-failed" for x in rows)
              and want in r.stderr,
              "%s: every run fails, named: %s" % (name, want), (r.returncode, r.stderr[:700]))

    refused("p2", SPIN, "p2=" + CANNON_2D,
            "the request has a rigid body (model 'free-body'); this engine takes particles only "
            "(its capability line says protocol=2; a rigid body needs protocol=3")
    refused("p1", SPIN, "p1=python3 %s v1" % eng,
            "the request has a rigid body (model 'free-body'); this engine takes particles only "
            "(it has no capability line: protocol 1")
    # the engine's own message (engines/lib/vbengine.js, docs/real-engines.md §4.4)
    refused("bodyonly", SPRING, "bodyonly=" + CANNON,
            "the engine reported: this engine takes a rigid body (protocol 3); the request "
            "(model 'spring') has no 'body'")
    refused("sideways", SPIN, "sideways=python3 %s sideways" % eng,
            "capability 'angvel=sideways': want world or body")
    refused("angvel2", SPIN, "angvel2=python3 %s angvel-v2" % eng,
            "capability 'angvel=body': a key of protocol 3 (a rigid body), but the line says "
            "protocol=2")
    refused("vnone", SPIN, "vnone=python3 %s vnone" % eng,
            "its capability line says velocity=none, but a rigid body's rows carry its velocities")
    refused("wlast", SPIN, "wlast=python3 %s wlast" % eng, "column 5 is 'qx', want 'qw'")
    refused("row0", SPIN, "row0=python3 %s row0" % eng,
            "row 0 is not the initial state of the request (qw = 0, want 1)")



def test_unit_quaternion(tmp):
    """a row's quaternion must be a rotation's: |q| = 1 to 1e-5
    (src/engine/body.c says why that much); 2 q_exact on every row, and a
    zero q, fail the run by row and |q|; a float32 engine's q, and one off
    by half the tolerance, pass"""
    path = write(os.path.join(tmp, "spin-engine.py"), ENGINE)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    eng = shlex.quote(path)
    # row 1 is at t = dt = 0.05 (the coarsest of SPIN); |q| is the scale
    # times |q_exact| = 1 to a few ulps (Python's cos and sin)
    qnorm = re.compile(r"has a quaternion that is no rotation's: \|q\| = ([^ ]+) ")
    for name, mode, want, size in (
            ("double", "scale=2", "row 1 (t = 0.050000000000000003) has a quaternion", 2.0),
            ("zero", "zero", "row 3 (t = 0.15000000000000002) has a quaternion that is no "
             "rotation's: |q| = 0 (qw, qx, qy, qz = 0, 0, 0, 0), want 1 to 1e-05", 0.0),
            ("over", "scale=1.00002", "row 1 (t = 0.050000000000000003) has a quaternion",
             1.00002)):
        r, d = run_case(tmp, "unitq-" + name, SPIN, ["%s=python3 %s %s" % (name, eng, mode)])
        rows = rows_of(d) if os.path.exists(os.path.join(d, "runs.csv")) else []
        mine = [x for x in rows if x["integrator"] == name]
        said = [float(m) for m in qnorm.findall(r.stderr)]
        check(r.returncode == 1 and mine and all(x["status"] == "engine-failed" for x in mine)
              and want in r.stderr and len(said) == len(mine) and
              all(abs(n - size) <= 8 * EPS for n in said),
              "%s: every run fails by its row and |q| (%g): %s" % (name, size, want),
              (r.returncode, [x["status"] for x in mine], said, r.stderr[:900]))
        check("diverged" not in r.stderr, "%s: not called diverged" % name, r.stderr[:600])
    for name, mode in (("f32", "float32"), ("within", "scale=1.000005")):
        r, d = run_case(tmp, "unitq-" + name, SPIN, ["%s=python3 %s %s" % (name, eng, mode)])
        mine = [x for x in rows_of(d) if x["integrator"] == name] if r.returncode == 0 else []
        check(mine and all(x["status"] == "ok" for x in mine),
              "%s: a q unit to 1e-5 passes, every run ok" % name, r.stderr[:600])
        # the attitude is measured by the angle between q and q_exact, blind
        # to |q|: float32's 9 digits turn it by at most a few eps32 a row
        # (not accumulated: each row is the exact q rounded); a q scaled by
        # 1 + 5e-6 is the exact attitude, to round-off
        lim = 8 * EPS32 if name == "f32" else 1e-12
        check(mine and all(float(x["err_att_max"]) <= lim for x in mine),
              "%s: its attitude error is its rounding's, <= %g" % (name, lim),
              [x["err_att_max"] for x in mine])


# The 5 rad/s spin about the major axis with a 1 % wobble, as
# cases/engines/spin-major-5.case, to 30 s at 30 and 60 Hz
def spin_case(**keys):
    """SPIN with some of its keys set otherwise"""
    text = SPIN
    for k, v in keys.items():
        text, n = re.subn(r"(?m)^%s = .*$" % k, "%s = %s" % (k, v), text)
        assert n == 1, k
    return text


SPIN5 = spin_case(w1=0.05, w2=0.05, t_end=30, dt="0.033333333333333333")


def explicit_euler_blowup(h, limit):
    """The body-frame w of explicit Euler on Euler's equations,
    w' = w + h I^-1 ((I w) x w), from SPIN5's w0: the step of MuJoCo's
    Euler (engine_forward.c: qacc = M^-1 (-bias), the free joint's bias
    w x I w in the body frame) and of Bullet's explicit flag (the same
    torque in the world frame), in doubles; the body-frame w does not
    depend on the attitude.  The first step n whose start state has
    limit(acc, torque) true: (n, n h, |w| there)."""
    I = (1.0, 2.0, 3.0)
    w, n = [0.05, 0.05, 5.0], 0
    while n * h < 30.0:
        L = [I[i] * w[i] for i in range(3)]
        c = [L[1] * w[2] - L[2] * w[1], L[2] * w[0] - L[0] * w[2], L[0] * w[1] - L[1] * w[0]]
        acc = [c[i] / I[i] for i in range(3)]
        if limit(acc, math.sqrt(sum(x * x for x in c))):
            return n, n * h, math.sqrt(sum(x * x for x in w))
        w = [w[i] + h * acc[i] for i in range(3)]
        n += 1
    return None


def test_engines_that_reset_or_overflow(tmp):
    """docs/real-engines.md §5.8: MuJoCo's Euler resets the body to rest
    when a qacc passes mjMAXVAL = 1e10 (engine_forward.c:93-112, mjmodel.h:25);
    Bullet's explicit torque is capped at BT_LARGE_FLOAT (1e30 in double,
    btScalar.h:312; btRigidBody.cpp:290-293) and overflows float32 to 0.
    Each run fails, saying when; none is a trajectory."""
    engines = ["mujoco-euler=%s integrator=Euler" % MUJOCO,
               "bullet-explicit=%s gyro=explicit" % BULLET,
               "bullet64-explicit=%s gyro=explicit" % BULLET64]
    r, d = run_case(tmp, "spin5", SPIN5, engines)
    rows = rows_of(d) if os.path.exists(os.path.join(d, "runs.csv")) else []
    mine = [x for x in rows if x["integrator"] != "rigid-no-gyro"]
    check(r.returncode == 1 and len(mine) == 6 and
          all(x["status"] == "engine-failed" for x in mine),
          "the three engines' six runs fail (engine-failed, exit 1), none a trajectory",
          (r.returncode, [(x["integrator"], x["status"]) for x in mine], r.stderr[-800:]))
    said = lambda name, level: next((l for l in r.stderr.splitlines()
                                     if "engine %s " % name in l and "level %d)" % level in l), "")
    for level, h in ((0, 1.0 / 30), (1, 1.0 / 60)):
        # MuJoCo: the first step from a state whose qacc passes 1e10, the
        # recurrence's own; its |w| to the 3 digits said (the recurrence
        # and MuJoCo's doubles agree to round-off up to there: 1e-10)
        n, t0, w = explicit_euler_blowup(h, lambda acc, gf: max_or_nan(abs(a) for a in acc) > 1e10)
        line = said("mujoco-euler", level)
        m = re.search(r"\|w\| = ([^ ]+) rad/s", line)
        check(("the engine reported: MuJoCo reset the body in its step from t = %.7g to %.7g: "
               "mjWARN_BADQACC" % (t0, t0 + h)) in line and m and
              abs(float(m.group(1)) - w) <= 5e-3 * w,
              "mujoco Euler at h = %.4g: reset in the step from t = %.7g (|w| = %.3g), said"
              % (h, t0, w), line)
        # Bullet in double: the first step whose |w x Iw| passes 1e30
        n, t0, w = explicit_euler_blowup(h, lambda acc, gf: gf > 1e30)
        line = said("bullet64-explicit", level)
        check(("passed its cap BT_LARGE_FLOAT = 1e+30 in its step from t = %.7g to %.7g "
               "(|w| = %.3g rad/s)" % (t0, t0 + h, w)) in line,
              "bullet float64 explicit at h = %.4g: the cap acts from t = %.7g, said" % (h, t0),
              line)
        # Bullet in float32: |w x Iw|^2 is inf past FLT_MAX, so |w x Iw| >=
        # sqrt(FLT_MAX) = 1.84e19, and |w x Iw| <= |w| |I w| <= 3 |w|^2:
        # |w| >= 2.5e9.  When: float32's round-off moves the blow-up of the
        # doubles' recurrence, but not before the tumble (flips.csv's
        # t_tumble of rigid-euler: 10.6 s and 20 s, docs/real-engines.md
        # §5.6), and not after t_end
        line = said("bullet-explicit", level)
        m = re.search(r"overflowed in its step from t = ([^ ]+) to [^:]+: \|w x Iw\|\^2 is inf in "
                      r"float32 at \|w\| = ([^ ]+) rad/s", line)
        check(m and (10.0 if level == 0 else 20.0) < float(m.group(1)) < 30.0 and
              float(m.group(2)) >= 2.5e9,
              "bullet float32 explicit at h = %.4g: the overflow said, after the tumble, at "
              "|w| >= 2.5e9" % h, line)


# the flip over 8 s, before its first turn (9.8 s), at fixed steps 1/15 s
# down to 1/120 s: where both methods are in their asymptotic range
RK4_FLIP = FLIP.split("t_end")[0] + """t_end = 8
[steps]
dt = 0.06666666666666667
halvings = 4
[integrators]
use = rigid-rk4
"""


def test_mujoco_rk4(tmp):
    """MuJoCo's RK4: the attitude second order, w fourth (see 7 above)"""
    r, d = run_case(tmp, "rk4flip", RK4_FLIP, ["mujoco-rk4=" + MUJOCO + " integrator=RK4"])
    check(r.returncode == 0, "the flip with MuJoCo RK4 runs", r.stderr[-1500:])
    if r.returncode != 0:
        return
    orders = {(o["integrator"], o["norm"]): o for o in rows_of(d, "orders.csv") if o["plan"] == "fixed"}

    def order(name, norm):
        o = orders.get((name, norm))
        return float(o["order"]) if o and o["order"] else float("nan")
    # a second-order method's fitted order within 0.2 of 2, a fourth-order
    # one's above 3.5: the two are told apart by 1.5 at least
    a, w = order("mujoco-rk4", "err_att_max"), order("mujoco-rk4", "err_angvel_max")
    check(1.8 <= a <= 2.2, "MuJoCo RK4's attitude is second order (fitted %.3g)" % a)
    check(w >= 3.5, "MuJoCo RK4's w is fourth order, RK4's own (fitted %.3g)" % w)
    check(order("rigid-rk4", "err_att_max") >= 3.5,
          "the built-in rigid-rk4's attitude is fourth order (fitted %.3g)"
          % order("rigid-rk4", "err_att_max"))
    for page in ("README.md", os.path.join("docs", "findings.md")):
        with open(os.path.join(ROOT, page), encoding="utf-8") as f:
            rows = [l for l in f if l.startswith("| MuJoCo `RK4`") or l.startswith("| `mujoco-rk4`")]
        check(rows and all("second order" in l or "2.00" in l for l in rows),
              "%s: the MuJoCo RK4 row says its attitude is second order" % page, rows)


if __name__ == "__main__":
    SUITE.main([test_tumbling, test_principal_axis, test_workers_and_provenance,
                test_sign_and_refusals, test_unit_quaternion,
                test_engines_that_reset_or_overflow, test_mujoco_rk4])
