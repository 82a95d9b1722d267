#!/usr/bin/env python3
"""real_engines_contact.py BUILD_DIR — the six 2D engines at a contact
(issue 44; docs/contact.md, "What the six 2D engines do at a contact"),
through their contact adapters (engines/*/contact.*), each held to what its
own source says, computed here.  make check sets the engines up with
`make -C engines setup`; no verletbench run is needed.

1. Box2D 2.4.1 and planck: restitution only when the approach speed after
   this step's kick exceeds the threshold (b2_island.cpp:211 integrates
   gravity before :249 initialises the constraints, whose restitution is set
   only when vRel < -threshold, b2_contact_solver.cpp:216-219; planck
   dynamics/Contact.ts:817): every contact episode bounces iff that speed,
   read from the rows, exceeds vth, for vth = 1 (the default) and 2; so the
   bounce count is the exact one, the first n with e^n v0 below vth.  The
   slide is semi-implicit Euler with friction mu times the normal impulse
   (b2_contact_solver.cpp:336): its stop distance is the sum
   dt (K v0 - a dt K(K+1)/2) of docs/contact.md.  Continuous collision
   against a static wall (on by default, b2_world.cpp:55): a ball that
   jumps the wall in one step does not pass; with it off, it does.
2. Chipmunk 7.0.3: positions first (cpSpaceStep.c:363-367), the bounce
   target from the velocity before the kick (cpArbiter.c:435, in the
   pre-step before the velocities are integrated, cpSpaceStep.c:383-404): a
   bounce leaves at exactly -e times the last free velocity; the slide stops
   at dt ((K+1) v0 - a dt K(K+1)/2) (friction mu jn, cpArbiter.c:488); no
   continuous collision: the jump passes.
3. matter-js 0.20.0: the kinetic friction impulse is pair.friction * timeScale^3
   a contact, whatever the normal force (collision/Resolver.js:299), in each of
   4 velocity iterations (core/Engine.js:42): the slide loses
   4 mu ts^2 units a base step of speed a step, not mu g dt; no continuous
   collision: the jump passes.
4. cannon-es 0.20.0: the friction equation's bound is the force mu m g
   (dist/cannon-es.js:10459-10472), but the solver clamps lambda with it
   (:9948-9952), and lambda is an impulse (its force is lambda / h, :9982):
   the block stops within its first step's drift; no continuous collision:
   the jump passes.
5. Rapier (the source read is v0.35.2): every fast dynamic body sweeps against
   fixed bodies, ccd_enabled or not (src/dynamics/ccd/ccd_solver.rs:61-85,
   sweeps.rs:36-41): the jump does not pass, with ccd off or on.
6. The adapters refuse a bad contact (protocol 4, docs/real-engines.md
   §6.2) with an error line naming the key, the same from the JavaScript and
   the C helper; a particle adapter refuses a contact, a contact adapter a
   particle model; an engine without a restitution threshold refuses one.

Through the harness (protocol 4: verletbench sends the case's numbers and
measures the rows with src/contact/contact_metrics.c):

7. Every engine's contact measures of cases/engines/{bounce, bounce-elastic,
   bounce-count, bounce-threshold, slide, tunnel}.case equal, bit for bit,
   what this suite measures itself for the same numbers (the requests built
   here, the adapters driven directly, the rows measured by the Python port
   of contact_metrics.c below, the tunnel's grid of the old
   engines/check/contact.py): the harness sends the case's scene and
   measures as the port does; and the README's contact table is what
   engines/check/contact.py prints from those results.
8. engines/check/contact-exact.js, the bounce, the slide and the tunnel in
   closed form by event location (what the built-in velocity-verlet+toi
   computes), driven with a case's numbers reproduces the exact answer of
   src/contact/ (bounce.c, slide.c, tunnel.c): its position error is
   round-off, its measured restitution is the case's e, its bounces the
   exact count, its stop the exact one, on an incline too, and no speed
   passes the wall; with random steps as with fixed ones.  Wrapped so that
   its passing-speed runs end at x = NaN, +inf or -inf (at their first row
   or their last), the row is diverged (never a pass, never "never
   passes"), sim exits 1 naming the run and its row, and run's summary
   says diverged.  An engine whose ball ignores the wall
   (tests/engines/no_wall.py) passes at every speed tried: its passing
   speed is the lowest tried, 0.0025 of the bound, an upper bound, and
   contact.csv (pass_at_most 1), the summary, the chart and make engines'
   report say so.
9. A user's own numbers: a case of its own (h0 = 2, e = 0.9, a ball of
   r = 0.25) reaches the engine as the request's scene, the exact engine
   answers for them (e = 0.9, not the default 0.8), Box2D's bounce count
   follows the case's threshold, and `sim --engine` takes `--set size=`.
10. What is refused: a case's bad r, size, e with the file, line and key,
   exit 2 (sim's --set too); a protocol-2 engine and a protocol-1 one on a
   contact case, a velocity=none one, and an engine without a threshold
   given one: each run engine-failed by name, exit 1.

Ends with "N passed, N failed"."""
import json
import math
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import Suite, table_rows  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "engines", "check"))
import contact as report  # noqa: E402  (make engines' report over the harness's tables)
import spin  # noqa: E402  (its measure: requests through one process, each run's rows)


class C:
    """The direct path: a body at a contact posed here as a protocol-4 request
    (docs/real-engines.md §6.2), written from the numbers without verletbench,
    the adapter run on it, and its rows measured by a port of
    src/contact/contact_metrics.c (what engines/check/contact.py measured
    before the harness did)."""
    G = 9.81
    R, W = 0.1, 0.05          # the tunnel's ball and wall
    PHASES = (0.02, 0.1, 0.25, 0.5, 0.75, 1.0)
    KICK_TOL, REST_STEPS, SLIDE_REST = 1e-3, 3, 1e-6  # src/contact/contact_metrics.h

    @staticmethod
    def req(run, model, params, x0, v0, contact, dt, steps):
        return {"kind": "run", "run": run, "model": model, "protocol": 4, "dim": len(x0), "particles": 1,
                "masses": [1.0], "x0": x0, "v0": v0, "params": params, "contact": contact, "h": [dt] * steps,
                "header": "# verletbench run=%s" % run}

    @staticmethod
    def bounce_req(run, h0, e, r, hz, seconds, vth=0.0):
        """a ball of radius r, its lowest point (the model's x) at h0, on the floor x = 0"""
        contact = {"wall": {"normal": [1.0], "offset": 0.0}, "gravity": [-C.G], "restitution": e, "threshold": vth,
                   "friction": 0.0, "shape": {"kind": "ball", "radius": r}, "centre": [r]}
        return C.req(run, "bounce", {"h0": h0, "e": e, "g": C.G, "vth": vth, "r": r}, [h0], [0.0], contact,
                     1.0 / hz, int(round(seconds * hz)))

    @staticmethod
    def slide_req(run, hz, v0=3.0, mu=0.5, size=0.2, seconds=3.0):
        """a square block, its bottom (the model's point) on the floor y = 0"""
        contact = {"wall": {"normal": [0.0, 1.0], "offset": 0.0}, "gravity": [0.0, -C.G], "restitution": 0.0,
                   "threshold": 0.0, "friction": mu, "shape": {"kind": "box", "edges": [size, size]},
                   "centre": [0.0, size / 2]}
        return C.req(run, "slide", {"v0": v0, "mu": mu, "g": C.G, "alpha": 0.0, "size": size}, [0.0, 0.0],
                     [v0, 0.0], contact, 1.0 / hz, int(round(seconds * hz)))

    @staticmethod
    def tunnel_at(run, v, d, dt, steps, e=0.0):
        contact = {"wall": {"normal": [1.0], "offset": 0.0, "thickness": C.W}, "gravity": [0.0],
                   "restitution": e, "threshold": 0.0, "friction": 0.0,
                   "shape": {"kind": "ball", "radius": C.R}, "centre": [0.0]}
        return C.req(run, "tunnel", {"v": v, "r": C.R, "w": C.W, "d": d, "e": e}, [d], [-v], contact, dt, steps)

    @staticmethod
    def tunnel_req(run, v, phi, hz=60):
        dt = 1.0 / hz
        d = C.R + phi * v * dt  # the surface phi v dt in front of the wall
        steps = int(math.ceil((d + C.W + 2 * C.R) / (v * dt))) + 5
        return C.tunnel_at(run, v, d, dt, steps)

    @staticmethod
    def passed(rows):
        return rows[-1][1] < -C.W  # the centre behind the wall's back face

    @staticmethod
    def episodes(rows):
        """every contact episode (contact_metrics.c's rule): (a, b, bounced);
        rows t, x, v (the bounce's: the lowest point's height)"""
        t = [r[0] for r in rows]
        u = [r[2] for r in rows]
        out, k, n = [], 1, len(rows)

        def contact(k):
            return u[k] - u[k - 1] > -(1.0 - C.KICK_TOL) * C.G * (t[k] - t[k - 1])
        while k < n:
            if not contact(k):
                k += 1
                continue
            a = b = k
            while b + 1 < n and contact(b + 1):
                b += 1
            out.append((a, b, b + 1 < n and u[b] > 0.0))
            k = b + 1
        return out

    @staticmethod
    def bounces(rows):
        """[(t, before, after, e)] of each bounce, and t_rest (None)"""
        out, rest, n = [], None, len(rows)
        for a, b, bounced in C.episodes(rows):
            s0, u0 = rows[a - 1][1], rows[a - 1][2]
            if bounced:
                before = 0.5 * u0 ** 2 + C.G * s0
                after = 0.5 * rows[b][2] ** 2 + C.G * rows[b][1]
                e = math.sqrt(after / before) if before > 0 and after >= 0 else float("nan")
                out.append((rows[a][0], before, after, e))
            elif b + 1 == n and b - a + 1 >= C.REST_STEPS:
                rest = rows[a][0]
        return out, rest

    @staticmethod
    def slide_stop(rows):
        """x at the first sample whose velocity is 0, reversed or below 1e-6 of v0; None"""
        for r in rows[1:]:
            if r[3] <= C.SLIDE_REST * rows[0][3]:
                return r[1]
        return None

    @staticmethod
    def measure(command, reqs):
        """the adapter run on the requests (one process, protocol 2's
        persistent mode): its capability line, and each run's rows"""
        cap, _, runs = spin.measure(command, reqs)
        return cap, runs

    @staticmethod
    def pass_speed(command, hz=60):
        """the smallest passing speed over the phases (None: none in the grid)"""
        bound = (C.W + 2 * C.R) * hz
        lo = {phi: 0.01 * bound for phi in C.PHASES}
        hi = {phi: 100.0 * bound for phi in C.PHASES}
        found = {phi: False for phi in C.PHASES}
        for rnd in range(3):
            grid, reqs = {}, []
            for phi in C.PHASES:
                if rnd and not found[phi]:
                    continue
                a, b = lo[phi], hi[phi]
                # a geometric grid first (four decades each way), then linear ones inside the bracket
                vs = [a * (b / a) ** (i / 47.0) for i in range(48)] if rnd == 0 else \
                    [a + (b - a) * i / 47.0 for i in range(48)]
                grid[phi] = vs
                reqs += [C.tunnel_req("t%d-%g-%d" % (rnd, phi, i), v, phi, hz) for i, v in enumerate(vs)]
            if not reqs:
                break
            _, runs = C.measure(command, reqs)
            for phi, vs in grid.items():
                first = next((i for i, v in enumerate(vs) if C.passed(runs["t%d-%g-%d" % (rnd, phi, i)])), None)
                if first is None:
                    continue
                found[phi] = True
                hi[phi] = vs[first]
                lo[phi] = vs[first - 1] if first else vs[0] * 0.5
        best = [hi[phi] for phi in C.PHASES if found[phi]]
        return min(best) if best else None

    @staticmethod
    def exact_bounces(h0, e, vth):
        """the exact count: the first k with e^k v0 < vth does not bounce"""
        if not vth:
            return math.inf
        v0, k = math.sqrt(2 * C.G * h0), 0
        while e ** k * v0 >= vth:
            k += 1
        return k


BUILD = os.path.join(ROOT, "engines", "build")
JS = lambda rel: "node " + os.path.join(ROOT, "engines", rel)  # noqa: E731
BOX2D = os.path.join(BUILD, "box2d-contact")
CHIPMUNK = os.path.join(BUILD, "chipmunk-contact")
PLANCK = JS("planck/contact.js")
MATTER = JS("matter-js/contact.js")
CANNON = JS("cannon-es/contact.js")
RAPIER = JS("rapier/contact.js")
EPS64, EPS32 = 2.0 ** -52, 2.0 ** -23
G = C.G
RATES = (30, 60, 144)

SUITE = Suite("real engines contact", 600)
check = SUITE.check


def episodes(rows):
    return C.episodes(rows)


def slide_req(run, hz, v0=3.0, mu=0.5, size=0.2, seconds=2.0):
    return C.slide_req(run, hz, v0, mu, size, seconds)


def first_stop(rows):
    """the first sample whose velocity is 0 or reversed (vb_slide_measure)"""
    return next((k for k in range(1, len(rows)) if rows[k][3] <= 0.0), None)


def sum_stop(v0, a, dt, drift_first):
    """docs/contact.md, "The slide under symplectic Euler is its sum": K the
    largest k with v0 - k a dt > 0; the kick-then-drift step stops at
    dt (K v0 - a dt K(K+1)/2), the drift-then-kick one at dt ((K+1) v0 - ...)"""
    q = v0 / (a * dt)
    K = math.ceil(q) - 1
    return dt * ((K + 1 if drift_first else K) * v0 - a * dt * K * (K + 1) / 2.0)


def jump_req(run, hz=60):
    """a ball at twice (w + 2r)/dt whose samples never overlap the wall: its
    surface 0.02 m in front at the start, 0.5 m further a step later, so the
    centre goes from 0.12 to -0.38 (the wall is -0.05 .. 0, the radius 0.1)"""
    v = 2.0 * (C.W + 2 * C.R) * hz
    return C.tunnel_at(run, v, C.R + 0.02, 1.0 / hz, 8)


# ---- Box2D and planck ----------------------------------------------------------------------

def threshold_checks(name, cmd, eps):
    reqs = []
    for vth in (1.0, 2.0):
        for hz in RATES:
            reqs.append((vth, hz, C.bounce_req("b-%g-%d" % (vth, hz), 1.0, 0.55, 0.1, hz, 5.0, vth)))
    # the threshold is the request's (the contact's 'threshold'), set on the fixtures
    runs = C.measure(cmd, [r for _, _, r in reqs])[1]
    for vth, hz, r in reqs:
        rows = runs[r["run"]]
        dt = 1.0 / hz
        eps_ = episodes(rows)
        wrong, ambiguous = [], 0
        for a, b, bounced in eps_:
            # the approach speed the solver compares: the last free velocity
            # after this step's kick (b2_island.cpp:211, then :249)
            seen = -rows[a - 1][2] + G * dt
            # float32 rounds the velocity and g dt to ~1e-6 m/s: an approach
            # within 1e-3 of vth is not decided by the rule
            if abs(seen - vth) < 1e-3:
                ambiguous += 1
                continue
            if bounced != (seen > vth):
                wrong.append((rows[a][0], seen, bounced))
        check(eps_ and not wrong and ambiguous == 0,
              "%s, vth = %g, %d Hz: every contact bounces iff its approach speed after the kick exceeds vth "
              "(b2_contact_solver.cpp:216-219)" % (name, vth, hz),
              "episodes %d, contrary (t, speed, bounced) %s, ambiguous %d" % (len(eps_), wrong, ambiguous))
        # the count is the exact one where no impact is near the threshold:
        # e^k v0 = 4.43, 2.44, 1.34, 0.74 m/s are >= 0.34 m/s from 1 and 2;
        # at 144 Hz the engine's approach speed is off by the kick g dt
        # (0.068 m/s) reflected and compounded, g dt (1 + e + e^2) < 0.13 m/s,
        # and the skin (the contact seen up to 0.01 m early) changes the speed
        # by < 0.08 m/s at 1.34 m/s: 0.21 < 0.34.
        if vth == 1.0 and len(eps_) >= 3:
            # a threshold between the third impact's speed before the kick and
            # after it: the rule bounces it (after), a rule read before the
            # kick would not.  The run is the same up to there (the earlier
            # impacts, >= 2.4 m/s, bounce under either threshold).
            a = eps_[2][0]
            u = -rows[a - 1][2]
            for frac, want in ((0.5, True), (1.5, False)):
                v = u + frac * G * dt
                _, r3 = C.measure(cmd, [C.bounce_req(r["run"], 1.0, 0.55, 0.1, hz, 5.0, float("%.9g" % v))])
                e3 = episodes(r3[r["run"]])
                got = len(e3) >= 3 and e3[2][0] == a and e3[2][2]
                check(got == want,
                      "%s, %d Hz: with vth = %.4g, the third impact (%.4g m/s before the kick, %.4g after) %s" %
                      (name, hz, v, u, u + G * dt, "bounces" if want else "does not bounce"))
        if hz == 144:
            exact = C.exact_bounces(1.0, 0.55, vth)
            n = sum(1 for e in eps_ if e[2])
            check(n == exact, "%s, vth = %g, 144 Hz: %d bounces, the exact count %d (the first n with e^n v0 < vth)"
                  % (name, vth, n, exact))


def slide_checks(name, cmd, eps, drift_first, ref):
    reqs = [slide_req("s%d" % hz, hz) for hz in RATES]
    _, runs = C.measure(cmd, reqs)
    for hz in RATES:
        rows = runs["s%d" % hz]
        k = first_stop(rows)
        dt = 1.0 / hz
        want = sum_stop(3.0, 0.5 * G, dt, drift_first)
        # k steps, each rounding x and v a few times in the engine's precision
        tol = 8 * (k or 1) * eps * want
        got = rows[k][1] if k else None
        check(k is not None and abs(got - want) <= tol,
              "%s, %d Hz: the slide stops at the sum %.10g (%s), exact v0^2/(2 mu g) = %.6g" %
              (name, hz, want, ref, 9.0 / G), "got %r, tolerance %.3g" % (got, tol))


def test_box2d(tmp):
    threshold_checks("box2d", BOX2D, EPS32)
    slide_checks("box2d", BOX2D, EPS32, False, "kick, friction mu * normal impulse, drift: b2_island.cpp:211, "
                 "b2_contact_solver.cpp:336")


def test_planck(tmp):
    threshold_checks("planck", PLANCK, EPS64)
    slide_checks("planck", PLANCK, EPS64, False, "dynamics/Contact.ts:972")


# ---- Chipmunk --------------------------------------------------------------------------------

def test_chipmunk(tmp):
    reqs = [C.bounce_req("b%d" % hz, 1.0, 0.8, 0.1, hz, 3.0) for hz in RATES]
    _, runs = C.measure(CHIPMUNK, reqs)
    for hz in RATES:
        rows = runs["b%d" % hz]
        bounced = [(a, b) for a, b, yes in episodes(rows) if yes][:3]
        # one step of contact, the velocity after it -e times the one before
        # (cpArbiter.c:435 before the kick); the solve of one body against a
        # static one is exact in its first iteration: round-off of a few
        # operations on |v| <= 4.5 m/s
        bad = [(rows[a][0], rows[a - 1][2], rows[a][2]) for a, b in bounced
               if b != a or abs(rows[a][2] + 0.8 * rows[a - 1][2]) > 16 * EPS64 * abs(rows[a - 1][2])]
        check(len(bounced) == 3 and not bad,
              "chipmunk, %d Hz: each of the first three bounces leaves at -e times the velocity before the kick "
              "(cpArbiter.c:435; velocities integrated after the pre-step, cpSpaceStep.c:383-404)" % hz,
              "bounces %d, off %s" % (len(bounced), bad))
    slide_checks("chipmunk", CHIPMUNK, EPS64, True, "drift, kick, friction u jn: cpSpaceStep.c:363-367, :398-404, "
                 "cpArbiter.c:488")


# ---- matter-js -------------------------------------------------------------------------------

def test_matter(tmp):
    S, bd = 100.0, 1000.0 / 60.0  # the adapter's units a metre (scale=100), Common._baseDelta in ms
    # v0 = 12 m/s: at 30 Hz a step removes 4.8 m/s, so two steps are kinetic
    reqs = [slide_req("s%d" % hz, hz, v0=12.0) for hz in (30, 60)]
    _, runs = C.measure(MATTER, reqs)
    for hz in (30, 60):
        rows = runs["s%d" % hz]
        dt = 1.0 / hz
        ts = dt * 1000.0 / bd
        # a step's kinetic friction: 4 iterations of pair.friction ts^3 in
        # position units (Resolver.js:299, Engine.js:42); the row's velocity
        # is the position step times bd / dt_ms, in units a base step, over
        # S and bd in seconds: 4 mu ts^2 * 1000 / (S bd) m/s a step
        want = 4 * 0.5 * ts * ts * 1000.0 / (S * bd)
        drops = []
        for k in range(1, len(rows)):
            # the kinetic branch with fresh impulses: the tangential speed
            # (units a step) above sqrt(6) (Resolver.js:18) and above what the
            # step removes (then it is not clamped to the speed itself)
            speed_units = rows[k - 1][3] * S * dt
            if speed_units > math.sqrt(6) and rows[k - 1][3] > want:
                drops.append(rows[k - 1][3] - rows[k][3])
        # doubles through a unit conversion: 1e-9 of the drop is far above
        # their round-off and far below mu g dt, which would be 0.16 m/s
        check(drops and all(abs(d - want) <= 1e-9 * want for d in drops),
              "matter-js, %d Hz: the slide loses 4 mu ts^2 units a base step of speed a step (%.4g m/s), not "
              "mu g dt = %.4g (Resolver.js:299, Engine.js:42)" % (hz, want, 0.5 * G * dt), "drops %s" % drops)


# ---- cannon-es -------------------------------------------------------------------------------

def test_cannon(tmp):
    reqs = [slide_req("s%d" % hz, hz) for hz in RATES]
    _, runs = C.measure(CANNON, reqs)
    for hz in RATES:
        rows = runs["s%d" % hz]
        stop = C.slide_stop(rows)
        # Coulomb's impulse mu m g dt a step would need v0 / (mu g dt) >= 18
        # steps and 0.917 m; a cap of mu m g as an impulse (Delta v up to
        # 4.9 m/s > v0 a step) stops it within the first step's drift
        check(stop is not None and 0.0 <= stop <= 3.0 / hz,
              "cannon-es, %d Hz: the block stops within its first step's drift v0 dt = %.4g m (the friction "
              "force bound mu m g clamps an impulse, dist/cannon-es.js:10459-10472, :9948-9952, :9982)" %
              (hz, 3.0 / hz), "stopped at %r" % stop)


# ---- continuous collision: the jump -----------------------------------------------------

def test_jump(tmp):
    for name, cmd, passes, why in [
            ("box2d", BOX2D, False, "continuous physics on by default, TOI against static bodies "
             "(b2_world.cpp:55, :660-664)"),
            ("box2d continuous=off", BOX2D + " continuous=off", True, "no TOI"),
            ("planck", PLANCK, False, "continuousPhysics on by default (dynamics/World.ts:56, :855)"),
            ("planck continuous=off", PLANCK + " continuous=off", True, "no TOI"),
            ("rapier", RAPIER, False, "every fast dynamic body sweeps against fixed ones (ccd_solver.rs:61-85, "
             "sweeps.rs:36-41)"),
            ("rapier ccd=on", RAPIER + " ccd=on", False, "a bullet sweeps against every body"),
            ("matter-js", MATTER, True, "no continuous collision in src/"),
            ("cannon-es", CANNON, True, "no continuous collision"),
            ("chipmunk", CHIPMUNK, True, "no continuous collision")]:
        _, runs = C.measure(cmd, [jump_req("j")])
        rows = runs["j"]
        check(C.passed(rows) == passes,
              "%s: a ball at 2 (w + 2r)/dt whose samples never overlap the wall %s (%s)" %
              (name, "passes" if passes else "does not pass", why), "last row %s" % rows[-1])


# ---- bad contacts ---------------------------------------------------------------------------

def bad_contacts():
    """(what is wrong, the request, the key its message names): a request
    whose contact no engine could build faithfully"""
    out = []

    def bad(what, key, edit):
        r = C.bounce_req("bad-%d" % len(out), 1.0, 0.5, 0.1, 60, 0.1)
        edit(r)
        out.append((what, r, key))
    bad("no protocol 4", "'contact' needs \"protocol\": 4", lambda r: r.update(protocol=2))
    bad("a contact that is a list", "'contact' is not an object", lambda r: r.update(contact=[1]))
    bad("no radius", "contact shape 'radius'", lambda r: r["contact"]["shape"].pop("radius"))
    bad("e = 1.5", "contact 'restitution' is not in [0, 1]", lambda r: r["contact"].update(restitution=1.5))
    bad("a negative threshold", "contact 'threshold'", lambda r: r["contact"].update(threshold=-1.0))
    bad("a negative friction", "contact 'friction'", lambda r: r["contact"].update(friction=-0.1))
    bad("a normal of length 2", "contact wall 'normal'", lambda r: r["contact"]["wall"].update(normal=[2.0]))
    bad("a thickness of 0", "contact wall 'thickness'", lambda r: r["contact"]["wall"].update(thickness=0.0))
    bad("gravity of two numbers in one axis", "contact 'gravity' is not 1 numbers",
        lambda r: r["contact"].update(gravity=[0.0, -9.81]))
    bad("a shape of no kind", "contact shape 'kind'", lambda r: r["contact"]["shape"].update(kind="capsule"))
    bad("no centre", "contact 'centre'", lambda r: r["contact"].pop("centre"))
    bad("two particles", "'particles' is not 1", lambda r: r.update(particles=2, masses=[1.0, 1.0],
                                                                       x0=[1.0, 2.0], v0=[0.0, 0.0]))
    return out


def test_bad_contacts(tmp):
    """each bad contact refused by an error line naming its key, the next
    request served; the JavaScript and the C helper say the same"""
    good = C.bounce_req("good", 1.0, 0.5, 0.1, 60, 0.1)
    said = {}
    for name, cmd in [("box2d", BOX2D), ("chipmunk", CHIPMUNK), ("planck", PLANCK), ("matter-js", MATTER),
                      ("cannon-es", CANNON), ("rapier", RAPIER)]:
        cases = bad_contacts()
        text = "".join(json.dumps(r) + "\n" for _, r, _ in cases) + json.dumps(good) + "\n"
        p = subprocess.run(cmd, shell=True, input=text, capture_output=True, text=True, timeout=SUITE.guard)
        errs = {l.split()[2][4:]: l for l in p.stdout.splitlines() if l.startswith("# verletbench-error")}
        for what, r, key in cases:
            line = errs.get(r["run"], "")
            said.setdefault(what, set()).add(line.split(" ", 3)[-1])
            check(key in line, "%s: a request with %s is refused, naming %s" % (name, what, key), line or p.stdout[-400:])
        check(p.returncode == 1 and "# verletbench-end run=good" in p.stdout,
              "%s: after the refusals the next request is served (exit 1: some failed)" % name, p.stderr[-300:])
    for what, texts in said.items():
        check(len(texts) == 1, "both helpers word the refusal of %s alike" % what, texts)
    # an engine without a restitution threshold cannot build one
    r = C.bounce_req("vth", 1.0, 0.5, 0.1, 60, 0.1, vth=1.0)
    for name, cmd in [("rapier", RAPIER), ("matter-js", MATTER), ("cannon-es", CANNON), ("chipmunk", CHIPMUNK)]:
        p = subprocess.run(cmd, shell=True, input=json.dumps(r) + "\n", capture_output=True, text=True,
                           timeout=SUITE.guard)
        check(p.returncode == 1 and "contact 'threshold' is 1 m/s" in p.stdout and "has no restitution threshold"
              in p.stdout, "%s refuses a restitution threshold it does not have" % name, p.stdout[-300:])


def test_contacts_and_particles_apart(tmp):
    """a particle adapter refuses a contact (it would step gravity through
    the wall), and a contact adapter a particle model, each with an error line"""
    scene = C.bounce_req("scene", 1.0, 0.5, 0.1, 60, 0.1)
    spring = {"kind": "run", "run": "spring", "model": "spring", "dim": 1, "particles": 1, "masses": [1.0],
              "x0": [1.0], "v0": [0.0], "params": {"k": 1.0, "m": 1.0}, "h": [0.1], "header": "# spring"}
    takes_none = "the request is a body at a contact ('contact'); this engine takes none (protocol 2)"
    only = "this engine takes a body at a contact (protocol 4); the request (model 'spring') has no 'contact'"
    for name, cmd, req, needle in [
            ("box2d (particles)", os.path.join(BUILD, "box2d"), scene, takes_none),
            ("chipmunk (particles)", os.path.join(BUILD, "chipmunk"), scene, takes_none),
            ("planck (particles)", JS("planck/adapter.js"), scene, takes_none),
            ("box2d-contact", BOX2D, spring, only),
            ("chipmunk-contact", CHIPMUNK, spring, only),
            ("planck contact.js", PLANCK, spring, only)]:
        p = subprocess.run(cmd, shell=True, input=json.dumps(req) + "\n", capture_output=True, text=True,
                           timeout=SUITE.guard)
        err = [l for l in p.stdout.splitlines() if l.startswith("# verletbench-error")]
        check(p.returncode == 1 and len(err) == 1 and needle in err[0],
              "%s refuses a %s request: %s" % (name, req["model"], needle), p.stdout[-400:] + p.stderr[-200:])


# ---- through the harness (protocol 4) ---------------------------------------------------

CONTACT_CASES = ("bounce", "bounce-elastic", "bounce-count", "bounce-threshold", "slide", "tunnel")
EXACT = JS("check/contact-exact.js")
# the settings of cases/engines/ and their commands, driven directly
SETTINGS = {"box2d": BOX2D, "box2d-ccd-off": BOX2D + " continuous=off", "planck": PLANCK, "rapier": RAPIER,
            "rapier-ccd": RAPIER + " ccd=on", "matter": MATTER, "cannon": CANNON, "chipmunk": CHIPMUNK}
THRESHOLD = ("box2d", "box2d-ccd-off", "planck")  # bounce-threshold.case: their own 1 m/s


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def contact_rows(d, case):
    return table_rows(os.path.join(d, case, "contact.csv"))


def contact_of(d):
    """contact.csv of a case's results directory"""
    return table_rows(os.path.join(d, "contact.csv"))


def row_at(rows, name, hz, plan="fixed"):
    return next((r for r in rows if r["integrator"] == name and r["plan"] == plan
                 and abs(float(r["dt"]) - 1.0 / hz) <= 1e-12 / hz), None)


def num(s):
    return float(s) if s else None


def test_harness_equals_direct(tmp):
    out = os.path.join(tmp, "engines")
    cases = [os.path.join(ROOT, "cases", "engines", c + ".case") for c in CONTACT_CASES]
    r = SUITE.vb_engines("run", *cases, "--engines-only", "--no-chart-data", "--quiet", "-j", "2", "--out", out)
    check(r.returncode == 0, "make engines' contact cases run through verletbench", r.stderr[-800:])
    if r.returncode != 0:
        return
    rows = {c: contact_rows(out, c) for c in CONTACT_CASES}
    for name, cmd in SETTINGS.items():
        vth = 1.0 if name in THRESHOLD else 0.0
        reqs = [C.bounce_req("e-%d" % hz, 1.0, 0.8, 0.1, hz, 4.0) for hz in (30, 60, 120)]
        reqs += [C.bounce_req("e1", 1.0, 1.0, 0.1, 60, 11.0), C.bounce_req("count", 1.0, 0.55, 0.1, 60, 5.0, vth),
                 C.slide_req("slide", 60, seconds=3.0)]
        _, runs = C.measure(cmd, reqs)
        got, want = {}, {}
        for hz in (30, 60, 120):
            ev, _ = C.bounces(runs["e-%d" % hz])
            want["e %d Hz" % hz] = [b[3] for b in ev[:3]]
            h = row_at(rows["bounce"], name, hz)
            got["e %d Hz" % hz] = [num(h["e_bounce%d" % i]) for i in (1, 2, 3) if h["e_bounce%d" % i]]
        ev, _ = C.bounces(runs["e1"])
        want["gain"] = ev[9][2] / ev[0][1] - 1 if len(ev) >= 10 else None
        got["gain"] = num(row_at(rows["bounce-elastic"], name, 60)["energy_gain_10"])
        ev, _ = C.bounces(runs["count"])
        h = row_at(rows["bounce-threshold" if vth else "bounce-count"], name, 60)
        want["count"] = (len(ev), C.exact_bounces(1.0, 0.55, vth))
        got["count"] = (num(h["bounces"]), num(h["bounces_exact"]))
        want["slide"] = C.slide_stop(runs["slide"])
        got["slide"] = num(row_at(rows["slide"], name, 60)["stop_x"])
        want["tunnel"] = C.pass_speed(cmd) or math.inf
        got["tunnel"] = num(row_at(rows["tunnel"], name, 60)["pass_speed"])
        # the same adapter on the same numbers, measured by the same rules:
        # equal to the bit, or the harness sent or measured something else
        diff = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
        check(not diff, "%s through verletbench: the restitution per bounce at 30, 60, 120 Hz, the gain at e = 1, "
              "the count, the slide's stop and the tunnelling speed equal the direct path's bit for bit" % name, diff)
    # the README's table is what make engines' report prints from these tables
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"\n(\| engine \| e = 0\.8, first bounce .*?)\n\n", text, re.S)
    shown = m.group(1).splitlines() if m else []
    printed = report.readme_table(report.Results(out))
    check(shown == printed, "the README's contact table is what engines/check/contact.py prints from the harness's "
          "contact.csv", "\n".join(x for x in printed if x not in shown))


EXACT_BOUNCE = """[case]
model = bounce
h0 = 1.5
e = 0.55
g = 9.81
vth = 1
r = 0.2
t_end = 4
[steps]
dt = 0.03333333333333333
halvings = 3
jitter = 0.5
seeds = 2
[integrators]
use = euler-semi
"""


def run_case(tmp, name, text, engines, *more):
    case = write(os.path.join(tmp, name + ".case"), text)
    out = os.path.join(tmp, "out-" + name)
    args = ["run", case, "--out", out, "--quiet", "--no-chart-data"] + list(more)
    for e in engines:
        args += ["--engine", e]
    r = SUITE.vb_engines(*args)
    return r, os.path.join(out, name)


def test_exact_engine(tmp):
    """contact-exact.js steps the scene in closed form: driven with the
    case's numbers, the harness must find the case's exact answer"""
    r, d = run_case(tmp, "exact-bounce", EXACT_BOUNCE, ["closed=" + EXACT])
    check(r.returncode == 0, "the exact engine runs a bounce case (fixed and random steps)", r.stderr[-600:])
    if r.returncode != 0:
        return
    g, h0, e = 9.81, 1.5, 0.55
    t0 = math.sqrt(2 * h0 / g)
    # by hand: impacts at e^k sqrt(2 g h0) = 5.42, 2.98, 1.64, 0.90 m/s, so 3
    # bounces under vth = 1 and the rest at the 4th impact,
    # T_3 = t0 (1 + 2 (e + e^2 + e^3)) (docs/contact.md)
    t_rest = t0 * (1 + 2 * (e + e * e + e ** 3))
    runs = [x for x in table_rows(os.path.join(d, "runs.csv")) if x["integrator"] == "closed"]
    rows = [x for x in contact_of(d) if x["integrator"] == "closed"]
    check(len(runs) == 9 and len(rows) == 9, "the exact engine's 3 fixed and 6 random runs, each in contact.csv",
          (len(runs), len(rows)))
    for run in runs:
        # closed forms against closed forms, each step a few operations on
        # numbers of the size of h0 and v0 = 5.4 m/s, at most ~10^3 steps:
        # 1e-12 is ~4500 ulps of them, far below any method's error (1e-3)
        check(float(run["err_pos_max"]) <= 1e-12 * h0 and float(run["err_vel_max"]) <= 1e-12 * 5.5,
              "the exact engine at %s dt %s: its states are the exact bounce to round-off" % (run["plan"], run["dt"]),
              (run["err_pos_max"], run["err_vel_max"]))
    for x in rows:
        dt = float(x["dt"])
        es = [float(x["e_bounce%d" % i]) for i in (1, 2, 3)]
        # the flight energy is kept exactly in flight: sqrt(E_after/E_before) = e to round-off
        check(all(abs(v - e) <= 1e-12 for v in es) and x["bounces"] == x["bounces_exact"] == "3" and
              abs(float(x["t_rest_exact"]) - t_rest) <= 1e-12 and
              0 <= float(x["t_rest"]) - t_rest <= dt * (1 + 0.5) + 1e-12,
              "the exact engine at %s dt %.4g: e per bounce 0.55, 3 bounces as the exact ball, at rest within a "
              "step of T_3 = %.6f s (the step that holds the 4th impact is its first contact step; a random "
              "step is up to 1.5 dt)" % (x["plan"], dt, t_rest), x)
    # e = 1: no energy gained in 10 bounces
    r, d = run_case(tmp, "exact-elastic", EXACT_BOUNCE.replace("e = 0.55", "e = 1").replace("vth = 1", "vth = 0")
                    .replace("t_end = 4", "t_end = 11").replace("jitter = 0.5\nseeds = 2\n", ""), ["closed=" + EXACT])
    rows = [x for x in contact_of(d) if x["integrator"] == "closed"] if r.returncode == 0 else []
    check(rows and all(abs(float(x["energy_gain_10"])) <= 1e-12 for x in rows),
          "the exact engine at e = 1: no energy gained after 10 bounces (to round-off)", [x.get("energy_gain_10") for x in rows])
    # the slide, flat and on a 20-degree slope: x_stop = -v0^2 / (2a),
    # a = g (sin alpha - mu cos alpha) (docs/contact.md), written here
    for alpha in (0, 20):
        case = ("[case]\nmodel = slide\nv0 = 3\nmu = 0.5\ng = 9.81\nalpha = %d\nsize = 0.3\nt_end = 3\n"
                "[steps]\ndt = 0.016666666666666666\nhalvings = 2\n[integrators]\nuse = euler-semi\n" % alpha)
        r, d = run_case(tmp, "exact-slide-%d" % alpha, case, ["closed=" + EXACT])
        a = 9.81 * (math.sin(math.radians(alpha)) - 0.5 * math.cos(math.radians(alpha)))
        x_stop, t_stop = -9.0 / (2 * a), -3.0 / a
        rows = [x for x in contact_of(d) if x["integrator"] == "closed"] \
            if r.returncode == 0 else []
        # the stop in closed form, kept by the rows after it: a few ulps of
        # x_stop; t_stop extrapolated from two samples of a constant
        # deceleration, exact but for the subtraction's round-off
        check(len(rows) == 2 and all(abs(float(x["stop_x"]) - x_stop) <= 1e-12 * x_stop and
                                     abs(float(x["stop_t"]) - t_stop) <= 1e-9 * t_stop for x in rows),
              "the exact engine on the slide at %d degrees: it stops at %.6f m at %.6f s, as the closed form" %
              (alpha, x_stop, t_stop), [(x["stop_x"], x["stop_t"]) for x in rows] or r.stderr[-400:])
    # the tunnel: nothing passes a wall (the grid reaches 100 times the bound)
    case = ("[case]\nmodel = tunnel\nv = 10\nr = 0.1\nw = 0.05\nd = 1\ne = 0.5\nt_end = 0.25\n[steps]\n"
            "dt = 0.016666666666666666\nhalvings = 2\n[integrators]\nuse = euler-semi\n")
    r, d = run_case(tmp, "exact-tunnel", case, ["closed=" + EXACT])
    rows = [x for x in contact_of(d) if x["integrator"] == "closed"] if r.returncode == 0 else []
    runs = [x for x in table_rows(os.path.join(d, "runs.csv")) if x["integrator"] == "closed"] if rows else []
    check(len(rows) == 2 and all(x["pass_speed"] == "inf" for x in rows) and
          all(float(x["err_pos_max"]) <= 1e-12 for x in runs),
          "the exact engine in the tunnel: back from the wall as the exact ball, and no speed passes",
          [(x["pass_speed"]) for x in rows] or r.stderr[-400:])


# An engine whose passing-speed runs diverge: contact-exact.js wrapped, the
# x of one row of each run whose id starts "pass-" (engine_contact.c's
# names) replaced; the case's own run is left as contact-exact.js wrote it
CORRUPT = "python3 " + os.path.join(ROOT, "tests", "engines", "corrupt_row.py")
TUNNEL_FIXED = ("[case]\nmodel = tunnel\nv = 10\nr = 0.1\nw = 0.05\nd = 1\ne = 0.5\nt_end = 0.25\n[steps]\n"
                "dt = 0.016666666666666666\nhalvings = 2\n[integrators]\nuse = euler-semi\n")


def test_pass_runs_that_diverge(tmp):
    """a passing-speed run whose rows are not finite (NaN, +inf, -inf, at
    its first row or its last) is a run that diverged: the row fails,
    diverged, never "passes" (x = -inf is behind the wall) nor "never
    passes" (NaN < -w is false); the case's own run was exact"""
    for value in ("nan", "inf", "-inf"):
        for at in (1, -1):
            eng = "bad=%s pass- %d 1 %s %s" % (CORRUPT, at, value, EXACT)
            r = SUITE.vb_engines("sim", "--model", "tunnel", "--dt", "0.01", "--engine", eng)
            lines = r.stdout.splitlines()
            row = dict(zip(lines[-2].split(","), lines[-1].split(","))) if len(lines) >= 4 else {}
            check(r.returncode == 1 and row.get("status") == "diverged" and row.get("pass_speed") == "" and
                  "the passing speed's run 'pass-L0-1'" in r.stderr and
                  ("has x = %s," % value) in r.stderr,
                  "sim: a passing-speed run with x = %s at its row %d: the row is diverged, exit 1, said"
                  % (value, at), (r.returncode, row, r.stderr[-400:]))
    eng = "bad=%s pass- -1 1 -inf %s" % (CORRUPT, EXACT)
    r, d = run_case(tmp, "tunnel-diverged", TUNNEL_FIXED, [eng])
    runs = [x for x in table_rows(os.path.join(d, "runs.csv")) if x["integrator"] == "bad"] \
        if os.path.exists(os.path.join(d, "runs.csv")) else []
    rows = [x for x in contact_of(d) if x["integrator"] == "bad"] if runs else []
    summary = open(os.path.join(d, "summary.md")).read() if runs else ""
    section = summary.partition("### The contact handlers")[2]
    cells = [l for l in section.splitlines() if l.startswith("| `bad` |")]
    check(len(runs) == 2 and all(x["status"] == "diverged" for x in runs) and
          len(rows) == 2 and all(x["status"] == "diverged" and x["pass_speed"] == "" for x in rows) and
          len(cells) == 2 and all(c.split("|")[3].strip() == "diverged" for c in cells),
          "run: an engine whose passing-speed runs end at x = -inf: runs.csv and contact.csv say diverged, "
          "no passing speed, the summary's cell says diverged",
          ([(x["status"], x["pass_speed"]) for x in rows], cells, r.stderr[-400:]))


NO_WALL = "python3 " + os.path.join(ROOT, "tests", "engines", "no_wall.py")


def test_engine_that_ignores_the_wall(tmp):
    """an engine whose ball ignores the wall (tests/engines/no_wall.py: x =
    x0 + v0 t) passes at every speed its search tries: the lowest of them,
    0.01 (w + 2r)/dt halved once a grid after the first (contact_metrics.h:
    0.0025 of the bound, 0.0375 m/s at 60 Hz for r = 0.1, w = 0.05), is an
    upper bound, not a measured passing speed: contact.csv's pass_at_most
    says 1, the summary "≤ ... the lowest speed tried passed", the chart's
    key and make engines' report the same; the exact engine's inf is 0"""
    r, d = run_case(tmp, "tunnel-no-wall", TUNNEL_FIXED, ["ghost=" + NO_WALL, "closed=" + EXACT])
    rows = contact_of(d) if r.returncode == 0 else []
    ghost = [x for x in rows if x["integrator"] == "ghost"]
    closed = [x for x in rows if x["integrator"] == "closed"]
    # 0.0025 = 0.01 / 2 / 2, each factor exact in binary but 0.01: a few ulps
    check(r.returncode == 0 and len(ghost) == 2 and
          all(x["pass_at_most"] == "1" and
              abs(float(x["pass_speed"]) - 0.0025 * float(x["pass_bound"])) <= 1e-15 * float(x["pass_bound"])
              for x in ghost) and
          len(closed) == 2 and all(x["pass_speed"] == "inf" and x["pass_at_most"] == "0" for x in closed),
          "an engine that ignores the wall: pass_speed the lowest speed tried, 0.0025 of the bound, pass_at_most 1; "
          "the exact engine's inf, 0", ([(x["integrator"], x["pass_speed"], x["pass_at_most"]) for x in rows],
                                         r.stderr[-400:]))
    if r.returncode != 0:
        return
    section = open(os.path.join(d, "summary.md")).read().partition("### The contact handlers")[2]
    cells = [[c.strip() for c in l.split("|")[3:6]] for l in section.splitlines() if l.startswith("| `ghost` |")]
    check(cells == [["≤ 0.0375 m/s, the lowest speed tried passed", "15.0000 m/s", "≤ 0.003"],
                    ["≤ 0.0750 m/s, the lowest speed tried passed", "30.0000 m/s", "≤ 0.003"]],
          "the summary: '≤ 0.0375 m/s, the lowest speed tried passed' at 60 Hz, not a measured speed", cells)
    check(report.tunnel_cell(row_at(rows, "ghost", 60)) ==
          "≤ 0.0375 m/s (≤ 0.0025 of the bound: the lowest speed tried passed)",
          "make engines' report says it too", report.tunnel_cell(row_at(rows, "ghost", 60)))
    svg = os.path.join(tmp, "no-wall.svg")
    p = SUITE.vb("draw", "--chart", "tunnel", os.path.join(d, "contact.csv"), svg, "tunnel")
    text = " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", open(svg).read())) if p.returncode == 0 else ""
    check("ghost (an upper bound at 2 of 2 steps: the lowest speed tried passed)" in text,
          "the tunnel chart's key says its points are upper bounds", (text[-500:], p.stderr[-300:]))


MY_BOUNCE = """[case]
model = bounce
h0 = 2
e = 0.9
g = 9.81
vth = 0
r = 0.25
t_end = 3
[steps]
dt = 0.016666666666666666
halvings = 2
[integrators]
use = euler-semi
"""


def test_user_numbers(tmp):
    """a case's own numbers reach the engine and change its answer"""
    # a log a worker (sh's $$): the runs' workers run at once, and tee
    # writes a request longer than its buffer (8192 bytes) in pieces, so
    # one shared log got another worker's request between them (a CI run,
    # JSONDecodeError at char 8192); -a for a pid a later worker reuses
    logs = os.path.join(tmp, "requests")
    os.makedirs(logs)
    spy = "spy=tee -a %s/$$.jsonl | %s" % (shlex.quote(logs), PLANCK)
    r, d = run_case(tmp, "my-bounce", MY_BOUNCE, [spy, "closed=" + EXACT, "planck=" + PLANCK])
    check(r.returncode == 0, "run my-bounce.case --engine ...: a case of the user's own", r.stderr[-600:])
    if r.returncode != 0:
        return
    reqs = []
    for name in sorted(os.listdir(logs)):
        with open(os.path.join(logs, name)) as f:
            reqs += [json.loads(l) for l in f if l.strip()]
    c = reqs[0]["contact"] if reqs else {}
    check(reqs and all(q["x0"] == [2] and q["contact"] == c for q in reqs) and c.get("restitution") == 0.9
          and c.get("shape") == {"kind": "ball", "radius": 0.25} and c.get("centre") == [0.25]
          and c.get("gravity") == [-9.81] and c.get("threshold") == 0 and c.get("wall") == {"normal": [1], "offset": 0},
          "the engine's request holds the case's numbers: h0 = 2, e = 0.9, a ball of r = 0.25 (centre r above "
          "the model's point), g, no threshold, the floor", c)
    rows = contact_of(d)
    ex, pl = row_at(rows, "closed", 60), row_at(rows, "planck", 60)
    check(abs(float(ex["e_bounce1"]) - 0.9) <= 1e-12, "the exact engine answers for the case's e = 0.9 "
          "(the default bounce's is 0.8)", ex["e_bounce1"])
    # Box2D's rule reflects the approach speed after one kick: at 60 Hz
    # within 0.04 of e in every run of the default case (0.828 at 0.8); so
    # nearer the case's 0.9 than the default's 0.8
    e1 = float(pl["e_bounce1"])
    check(abs(e1 - 0.9) < abs(e1 - 0.8) and row_at(rows, "spy", 60)["e_bounce1"] == pl["e_bounce1"],
          "planck answers for the case's numbers: its first bounce %.4f is near e = 0.9, not 0.8" % e1)
    # the threshold is the case's: Box2D with vth = 2 and 1 at 120 Hz, where
    # no impact is within the engine's error of either (4.43, 2.44, 1.34 m/s,
    # the engine's approach off by < 0.15 m/s: test_box2d), bounces as the
    # exact ball: 2 and 3
    for vth, n in ((2, 2), (1, 3)):
        case = MY_BOUNCE.replace("h0 = 2", "h0 = 1").replace("e = 0.9", "e = 0.55").replace("vth = 0", "vth = %d" % vth) \
            .replace("r = 0.25", "r = 0.1").replace("t_end = 3", "t_end = 5")
        r, d = run_case(tmp, "box2d-vth-%d" % vth, case, ["box2d=" + BOX2D])
        x = row_at(contact_of(d), "box2d", 120) if r.returncode == 0 else None
        check(x and x["bounces"] == x["bounces_exact"] == str(n),
              "Box2D with the case's threshold %d m/s bounces %d times, as the exact ball" % (vth, n),
              x or r.stderr[-400:])
    # sim takes the block's size, and the engine gets it
    log = os.path.join(tmp, "sim.jsonl")
    r = SUITE.vb_engines("sim", "--model", "slide", "--set", "size=0.5", "--dt", "0.016666666666666666",
                         "--t-end", "1.5", "--engine", "spy=tee %s | %s" % (shlex.quote(log), PLANCK))
    with open(log) as f:
        q = json.loads(f.readline()) if os.path.getsize(log) else {}
    check(r.returncode == 0 and "stop_x" in r.stdout and q.get("contact", {}).get("shape") ==
          {"kind": "box", "edges": [0.5, 0.5]} and q["contact"]["centre"] == [0, 0.25],
          "sim --engine --set size=0.5: the engine's block is 0.5 m, its bottom the model's point; "
          "contact.csv's row printed", r.stderr[-400:] + r.stdout[-400:])


def test_refusals(tmp):
    """bad numbers exit 2 with the file, line and key; an engine that cannot
    take a contact fails its runs by name (exit 1)"""
    for key, value, line, want in (("r", "0", 7, "r = 0 is out of range: r must be > 0"),
                                   ("e", "1.5", 4, "e = 1.5 is out of range"),
                                   ("h0", "-1", 3, "h0 = -1 is out of range")):
        text = re.sub(r"(?m)^%s = .*$" % key, "%s = %s" % (key, value), MY_BOUNCE)
        r, _ = run_case(tmp, "bad-" + key, text, ["planck=" + PLANCK])
        check(r.returncode == 2 and "bad-%s.case:%d: %s" % (key, line, want) in r.stderr,
              "a bounce case with %s = %s: refused with the file, line and key, exit 2" % (key, value), r.stderr[-300:])
    slide = "[case]\nmodel = slide\nsize = -1\nt_end = 1\n[steps]\ndt = 0.1\nhalvings = 2\n[integrators]\nuse = euler-semi\n"
    r, _ = run_case(tmp, "bad-size", slide, ["planck=" + PLANCK])
    check(r.returncode == 2 and "bad-size.case:3: size = -1 is out of range: size must be > 0" in r.stderr,
          "a slide case with size = -1: refused with the file, line and key, exit 2", r.stderr[-300:])
    r = SUITE.vb_engines("sim", "--model", "slide", "--set", "size=0", "--engine", "p=" + PLANCK)
    check(r.returncode == 2 and "--set: size = 0 is out of range" in r.stderr, "sim --set size=0: exit 2, naming size",
          r.stderr[-300:])

    def refused(name, engine, want, text=MY_BOUNCE):
        r, d = run_case(tmp, name, text, [engine])
        rows = [x for x in table_rows(os.path.join(d, "runs.csv")) if x["integrator"] == engine.split("=")[0]] \
            if os.path.exists(os.path.join(d, "runs.csv")) else []
        check(r.returncode == 1 and rows and all(x["status"] == "engine-failed" for x in rows) and want in r.stderr,
              "%s: every run fails, named: %s" % (name, want), (r.returncode, r.stderr[-700:]))

    refused("p2", "p2=" + JS("planck/adapter.js"),
            "the request is a body at a contact (model 'bounce': a wall the engine builds); this engine takes none "
            "(its capability line says protocol=2; a contact needs protocol=4")
    refused("p1", "p1=cat > /dev/null; echo t,x,v; echo 0,2,0",
            "this engine takes none (it has no capability line: protocol 1; a contact needs protocol=4")
    refused("vnone", "vnone=cat > /dev/null; echo '# verletbench-engine protocol=4 velocity=none'; echo t,x; echo 0,2",
            "its capability line says velocity=none, but the rows of a body at a contact carry its velocity")
    refused("vth", "vth=" + RAPIER, "the engine reported: the request's contact 'threshold' is 1 m/s: Rapier has no "
            "restitution threshold (want 0)", MY_BOUNCE.replace("vth = 0", "vth = 1"))


def main():
    missing = [p for p in (BOX2D, CHIPMUNK, os.path.join(ROOT, "engines", "node_modules", "planck"))
               if not os.path.exists(p)]
    if missing:
        check(False, "the engines are set up (make check runs make -C engines setup): missing %s" % missing)
        print("%d passed, %d failed" % (SUITE.passed, SUITE.failed))
        return 1
    return SUITE.main([test_box2d, test_planck, test_chipmunk, test_matter, test_cannon, test_jump,
                       test_bad_contacts, test_contacts_and_particles_apart, test_harness_equals_direct,
                       test_exact_engine, test_pass_runs_that_diverge, test_engine_that_ignores_the_wall,
                       test_user_numbers, test_refusals])


if __name__ == "__main__":
    sys.exit(main())
