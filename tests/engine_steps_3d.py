"""engine_steps_3d.py — each 3D engine's step for one free rigid body, written
out by hand in Python (float64) from the engine's own source, for
tests/real_engines_3d.py to hold the adapters to.  Nothing here runs an
engine.  Each function's comment names the file and lines it follows, at the
versions of engines/package-lock.json and Debian bookworm
(docs/real-engines.md, "Adapting a 3D engine"):

- cannon-es 0.20.0, engines/node_modules/cannon-es/dist/cannon-es.cjs.js;
- Bullet 3.24+dfsg-2 and ODE 2:0.16.2-1, Debian's source packages
  (apt-get source bullet ode): src/... and ode/src/...;
- Jolt v5.6.0 (JoltPhysics.js 1.1.0's CMakeLists.txt GIT_TAG), read at
  JoltPhysics master 3b47ec39 (2026-06-30; the files below unchanged since
  v5.5.0): Jolt/...;
- Rapier (rapier3d-compat 0.21.0, built from dimforge/rapier), read at
  ccd01cd2 (v0.35.2, 2026-08-16): src/...;
- MuJoCo 3.12.0 (tag 3.12.0): src/engine/....

A state is a dict: x, v (world), q (w, x, y, z: world from body), w (world
angular velocity).  Quaternions are w-first lists."""
import math


# ---- small vector algebra ---------------------------------------------------------

def add(a, b):
    return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]


def sub(a, b):
    return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]


def scale(a, s):
    return [a[0] * s, a[1] * s, a[2] * s]


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def norm(a):
    return math.sqrt(dot(a, a))


def mul_elem(a, b):
    return [a[0] * b[0], a[1] * b[1], a[2] * b[2]]


def matvec(m, v):
    return [dot(m[0], v), dot(m[1], v), dot(m[2], v)]


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def transpose(m):
    return [[m[j][i] for j in range(3)] for i in range(3)]


def diag(d):
    return [[d[0], 0.0, 0.0], [0.0, d[1], 0.0], [0.0, 0.0, d[2]]]


def skew(v):
    """[v]x: skew(v) u = v x u"""
    return [[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]]


def mat_add(a, b, s=1.0):
    return [[a[i][j] + s * b[i][j] for j in range(3)] for i in range(3)]


def solve3(m, b):
    """m^-1 b by Cramer's rule (Bullet's btMatrix3x3::solve33, ODE's
    dInvertMatrix3 are both closed forms)"""
    c0, c1, c2 = [m[0][0], m[1][0], m[2][0]], [m[0][1], m[1][1], m[2][1]], [m[0][2], m[1][2], m[2][2]]
    det = dot(c0, cross(c1, c2))
    return [dot(b, cross(c1, c2)) / det, dot(c0, cross(b, c2)) / det, dot(c0, cross(c1, b)) / det]


# ---- quaternions (w, x, y, z) -------------------------------------------------------

def qmul(a, b):
    return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]]


def qconj(q):
    return [q[0], -q[1], -q[2], -q[3]]


def qnormalize(q):
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    return [c / n for c in q]


def rotate(q, v):
    """R(q) v"""
    return qmul(qmul(q, [0.0] + list(v)), qconj(q))[1:]


def unrotate(q, v):
    """R(q)^T v: a world vector in the body frame"""
    return rotate(qconj(q), v)


def qexp(w, h):
    """the rotation by angle |w| h about w: (cos(|w| h/2), sin(|w| h/2) w/|w|)"""
    n = norm(w)
    if n == 0.0:
        return [1.0, 0.0, 0.0, 0.0]
    s = math.sin(0.5 * n * h) / n
    return [math.cos(0.5 * n * h), w[0] * s, w[1] * s, w[2] * s]


def qmat(q):
    """R(q) as a matrix, q unit"""
    return transpose([rotate(q, e) for e in ([1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0])])


def world_inertia(q, moments):
    """R diag(I) R^T"""
    r = qmat(q)
    return matmul(matmul(r, diag(moments)), transpose(r))


def state0(body):
    """the engines' state at t = 0 from a protocol-3 request's body"""
    return {"x": list(body["x0"]), "v": list(body["v0"]), "q": list(body["q0"]),
            "w": list(body["w0_world"])}


def kick_drift(s, h, g):
    """the centre of mass in every engine here: v += g h, then x += v h
    (velocity first, the new velocity moves the position)"""
    s["v"] = add(s["v"], scale(g, h))
    s["x"] = add(s["x"], scale(s["v"], h))


def momentum_rescaled(wb, moments, h):
    """Jolt's and Rapier's explicit gyroscopic step in the principal frame:
    L' = L - h wb x L, rescaled to |L|; returns the new wb"""
    L = mul_elem(moments, wb)
    L2 = sub(L, scale(cross(wb, L), h))
    n2 = dot(L2, L2)
    L2 = scale(L2, math.sqrt(dot(L, L) / n2)) if n2 > 0 else [0.0, 0.0, 0.0]
    return [L2[0] / moments[0], L2[1] / moments[1], L2[2] / moments[2]]


def implicit_body_dw(wb, moments, h):
    """one Newton step of backward Euler on I w' + h w' x I w' = I w, from w' = w,
    in the body frame: w' = w - J^-1 f, f = h w x I w,
    J = I + h (skew(w) I - skew(I w))"""
    Ib = diag(moments)
    Iw = mul_elem(moments, wb)
    f = scale(cross(wb, Iw), h)
    J = mat_add(Ib, mat_add(matmul(skew(wb), Ib), skew(Iw), -1.0), h)
    return sub(wb, solve3(J, f))


# ---- cannon-es 0.20.0 -----------------------------------------------------------------

def cannon_step(s, h, m, g):
    """World.internalStep (dist/cannon-es.cjs.js:12557-): gravity as a force
    f += m g (:12589-12592); damping v *= (1 - 0)^h = v (:12820-12830); then
    Body.integrate (:3891-3945): v += f (1/m) h, w += h invInertiaWorld
    torque = w + 0 (no torque: the world w is untouched), x += v h,
    Quaternion.integrate (:1927-1946): q += h/2 (w, 0) q, the first-order
    update, then normalize (:1664-1681).  The same operations in the same
    order, so a double engine and this agree to the last bit."""
    inv_m = 1.0 / m
    i_mdt = inv_m * h
    f = [0.0 + m * g[0], 0.0 + m * g[1], 0.0 + m * g[2]]
    ld = math.pow(1.0 - 0.0, h)
    v = [c * ld for c in s["v"]]
    v = [v[i] + f[i] * i_mdt * 1.0 for i in range(3)]
    x = [s["x"][i] + v[i] * h for i in range(3)]
    ax, ay, az = s["w"][0] * 1.0, s["w"][1] * 1.0, s["w"][2] * 1.0
    bw, bx, by, bz = s["q"]
    half = h * 0.5
    qx = bx + half * (ax * bw + ay * bz - az * by)
    qy = by + half * (ay * bw + az * bx - ax * bz)
    qz = bz + half * (az * bw + ax * by - ay * bx)
    qw = bw + half * (-ax * bx - ay * by - az * bz)
    n = math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
    n = 1 / n
    s.update(x=x, v=v, q=[qw * n, qx * n, qy * n, qz * n])


# ---- Bullet 3.24 ------------------------------------------------------------------------

def bullet_step(s, h, moments, flag, g):
    """btDiscreteDynamicsWorld::stepSimulation(h, 0): one
    internalSingleStepSimulation(h) (btDiscreteDynamicsWorld.cpp:400-414, :452-498).
    The velocities change in the solver: btSequentialImpulseConstraintSolver::
    convertBodies (btSequentialImpulseConstraintSolver.cpp:1378-1399) adds the
    gyroscopic term of the body's flag to its torque impulse, and
    writeBackBodies (:1820-1826) sets v += f/m h, w += that impulse.  Then
    integrateTransforms (btDiscreteDynamicsWorld.cpp:951-1045) moves the body
    with the new velocities, btTransformUtil::integrateTransform
    (LinearMath/btTransformUtil.h:32-79): x += v h, and the exponential map
    q <- normalise(exp(h w / 2) q) (:54-67).  flag: implicit-body,
    implicit-world, explicit or none."""
    q, w = s["q"], s["w"]
    if flag == "implicit-body":
        # btRigidBody::computeGyroscopicImpulseImplicit_Body (btRigidBody.cpp:297-334)
        wb = unrotate(q, w)
        w = rotate(q, implicit_body_dw(wb, moments, h))
    elif flag == "implicit-world":
        # computeGyroscopicImpulseImplicit_World (btRigidBody.cpp:336-370): the
        # same Newton step on I(t) w' + h w' x I(t) w' = I(t) w in the world
        # frame, with the world tensor of the step's start
        I = world_inertia(q, moments)
        Iw = matvec(I, w)
        fw = sub(add(Iw, scale(cross(w, Iw), h)), Iw)
        J = mat_add(I, mat_add(matmul(skew(w), I), skew(Iw), -1.0), h)
        w = sub(w, solve3(J, fw))
    elif flag == "explicit":
        # computeGyroscopicForceExplicit (btRigidBody.cpp:283-295): w x I w,
        # subtracted times invInertiaWorld h (solver :1386-1387); the cap
        # m_maxGyroscopicForce is lifted by the adapter
        I = world_inertia(q, moments)
        inv = world_inertia(q, [1.0 / c for c in moments])
        w = sub(w, scale(matvec(inv, cross(w, matvec(I, w))), h))
    s["w"] = w
    kick_drift(s, h, g)
    s["q"] = qnormalize(qmul(qexp(w, h), q))


# ---- ODE 0.16.2 ----------------------------------------------------------------------------

def ode_step(s, h, moments, gyro, finite, g):
    """dWorldStep for a body without joints: dxStepIsland_Stage0_Bodies
    (ode/src/step.cpp:622-705) adds the gyroscopic torque when the body's
    gyroscopic mode is on, the implicit form of Lacoursiere (2006): with the
    world tensor I and L = I w, Itild = I - h [L]x, tau = (I Itild^-1 - 1) L/h
    (:650-703); the velocity update (:1566-1574) w += invI h tau, which is
    w' = Itild^-1 L, so (I - h [L]x) w' = L; v += f/m h.  Then dxStepBody
    (ode/src/util.cpp:583-661): x += v h; the rotation infinitesimal by
    default, q += h/2 (w, 0) q (dDQfromW, rotation.cpp:310-317), or finite,
    q <- exp(h w / 2) q (:626-642), and normalised (dNormalize4, :659)."""
    q, w = s["q"], s["w"]
    if gyro:
        I = world_inertia(q, moments)
        L = matvec(I, w)
        Itild = mat_add(I, skew(L), -h)
        w = solve3(Itild, L)
    s["w"] = w
    kick_drift(s, h, g)
    if finite:
        q = qmul(qexp(w, h), q)
    else:
        dq = [0.5 * (-w[0] * q[1] - w[1] * q[2] - w[2] * q[3]),
              0.5 * (w[0] * q[0] + w[1] * q[3] - w[2] * q[2]),
              0.5 * (-w[0] * q[3] + w[1] * q[0] + w[2] * q[1]),
              0.5 * (w[0] * q[2] - w[1] * q[1] + w[2] * q[0])]
        q = [q[i] + h * dq[i] for i in range(4)]
    s["q"] = qnormalize(q)


# ---- Jolt -------------------------------------------------------------------------------------

def jolt_step(s, h, moments, gyro, g):
    """PhysicsSystem::Update with one collision step: JobApplyGravity
    (Jolt/Physics/PhysicsSystem.cpp:777-786) calls, with gyroscopic forces on,
    MotionProperties::ApplyGyroscopicForceInternal
    (Jolt/Physics/Body/MotionProperties.inl:99-125): in the inertia frame,
    L' = L - h w x L, rescaled to |L|, w = I^-1 L'; then
    ApplyForceTorqueAndDragInternal (:127-149): v += h g, w += h invI torque
    (no torque), damping (1 - 0 h) and the caps (lifted by the adapter).
    JobIntegrateVelocity (PhysicsSystem.cpp:1583-1711): Body::AddRotationStep
    (Jolt/Physics/Body/Body.inl:81-98), q <- normalise(rotation(w h) q), the
    exponential map, skipped when |w h| <= 1e-6; then x += v h."""
    q, w = s["q"], s["w"]
    if gyro:
        w = rotate(q, momentum_rescaled(unrotate(q, w), moments, h))
    s["w"] = w
    kick_drift(s, h, g)
    if norm(scale(w, h)) > 1.0e-6:
        q = qnormalize(qmul(qexp(w, h), q))
    s["q"] = q


# ---- Rapier -------------------------------------------------------------------------------------

def rapier_step(s, h, moments, substeps, g):
    """World.step with numSolverIterations = substeps: the staged island
    solver runs `substeps` substeps of h/substeps
    (src/dynamics/solver/staged_island_solver/worker.rs:207-227).  Each adds
    the velocity increments (:243-248: v += g h_s), then the gyroscopic
    correction with the orientation of the previous substep (:254-268),
    gyroscopic_corrected_angvel (src/dynamics/rigid_body.rs:2023-2046: Jolt's
    L' = L - h_s w x L rescaled to |L|), then, after the (empty) constraint
    solve, integrates the pose with the new velocities (worker.rs:605-615):
    RigidBodyVelocity::integrate_linearized (src/dynamics/rigid_body_components.rs:884-898):
    q <- normalise((1, h_s w / 2) q), the first-order update, and x += v h_s."""
    hs = h / substeps
    for _ in range(substeps):
        s["v"] = add(s["v"], scale(g, hs))
        q = s["q"]
        s["w"] = rotate(q, momentum_rescaled(unrotate(q, s["w"]), moments, hs))
        half = scale(s["w"], 0.5 * hs)
        s["q"] = qnormalize(qmul([1.0] + half, q))
        s["x"] = add(s["x"], scale(s["v"], hs))


# ---- MuJoCo 3.12.0 ------------------------------------------------------------------------------

def mujoco_accel(wb, moments):
    """a free body's angular acceleration in its own frame: qacc = M^-1
    qfrc_smooth, qfrc_smooth = -qfrc_bias, the bias w x I w from the
    recursive Newton-Euler (engine_core_smooth.c mj_rne); M's angular block
    is diag(I) (inertial at the origin, no armature)"""
    t = cross(wb, mul_elem(moments, wb))
    return [-t[0] / moments[0], -t[1] / moments[1], -t[2] / moments[2]]


def mujoco_integrate_quat(q, wb, h):
    """mju_quatIntegrate (src/engine/engine_util_spatial.c:234-243): normalise
    q, then turn it on the right (body frame) by the rotation of angle
    |w| h about w"""
    return qmul(qnormalize(q), qexp(wb, h))


def mujoco_step(s, h, moments, integrator, g):
    """mj_step: mj_forward (qacc at the step's start), then the integrator
    (src/engine/engine_forward.c):
    - Euler (mj_EulerSkip :1398-1476, no damping: qacc as it is): mj_advance
      (:1362-1373) w += h qacc, then qpos with the new qvel
      (mj_integratePosInd, engine_support.c:639-674): x += h v, q turned by w h;
    - implicit (mj_implicitSkip :1649-1771): qacc = (M - h qDeriv)^-1 qfrc, with
      qDeriv the derivative of -bias (mjd_smooth_vel, flg_bias 1): one Newton
      step of backward Euler in the body frame, w' = w - J^-1 h w x I w;
    - implicitfast: the same for a standalone free body since 3.11
      (:1743-1763, mjd_freeMhat engine_derivative.c:844-893 adds the bias
      derivative that the global symmetric solve drops);
    - RK4 (mj_RungeKutta :1499-1587): classical RK4 with the tableau of
      :1486-1494, each stage's qpos from the step's start turned by h times
      the stage's combined velocity (mj_integratePos), the final update
      through mj_advance with the B-weighted velocity and acceleration."""
    q, wb = s["q"], unrotate(s["q"], s["w"])
    if integrator in ("implicit", "implicitfast"):
        wb2 = implicit_body_dw(wb, moments, h)
    elif integrator == "Euler":
        wb2 = add(wb, scale(mujoco_accel(wb, moments), h))
    elif integrator == "RK4":
        A = [[0.5], [0.0, 0.5], [0.0, 0.0, 1.0]]
        B = [1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0]
        W, F = [wb], [mujoco_accel(wb, moments)]
        for i in range(1, 4):
            dacc = [0.0, 0.0, 0.0]
            for j in range(i):
                dacc = add(dacc, scale(F[j], A[i - 1][j]))
            W.append(add(wb, scale(dacc, h)))
            F.append(mujoco_accel(W[-1], moments))
        dvel, dacc = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        for j in range(4):
            dvel = add(dvel, scale(W[j], B[j]))
            dacc = add(dacc, scale(F[j], B[j]))
        wb2 = add(wb, scale(dacc, h))
        # the centre of mass under constant g: the B-weighted velocity is v + h g/2
        s["x"] = add(s["x"], scale(add(s["v"], scale(g, 0.5 * h)), h))
        s["v"] = add(s["v"], scale(g, h))
        q2 = mujoco_integrate_quat(q, dvel, h)
        s["q"], s["w"] = q2, rotate(q2, wb2)
        return
    else:
        raise ValueError(integrator)
    kick_drift(s, h, g)
    q2 = mujoco_integrate_quat(q, wb2, h)
    s["q"], s["w"] = q2, rotate(q2, wb2)
