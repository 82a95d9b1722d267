#!/usr/bin/env python3
"""contact.py [--only NAME] [--out FILE] [--json FILE] — what each 2D engine does at a
contact (issue 44), measured through its contact adapter (engines/*/contact.*,
the poses of engines/lib/vbcontact.js) against the exact answers of
docs/contact.md:

- the effective restitution of each of the first three bounces at 30, 60 and
  144 Hz: a ball of radius 0.1 m dropped from h0 = 1 m (its lowest point),
  e = 0.8, g = 9.81; e_n = sqrt(E after / E before), the flight energy
  E = u^2/2 + g s on either side of the contact (src/contact/contact_metrics.c,
  ported below);
- the energy gained at e = 1 after 10 bounces at 60 Hz, E_after(10) / E_before(1) - 1
  (exact: 0);
- the bounce count in 5 s at 60 Hz, h0 = 1, e = 0.55, against the exact one
  with the engine's own restitution threshold: impacts at e^k v0 = 4.43, 2.44,
  1.34, 0.74 m/s, so 3 bounces with Box2D's and planck's 1 m/s and infinitely
  many (rest at t_inf = t0 (1 + e)/(1 - e) = 1.55 s) without one;
- the slide at 60 Hz: a square block of edge 0.2 m at v0 = 3 m/s, mu = 0.5,
  its stop distance (where its velocity is 0, reversed or below 10^-6 v0)
  against v0^2 / (2 mu g) = 0.9174 m;
- the smallest speed at which a ball (r = 0.1 m) passes a wall of thickness
  w = 0.05 m at 60 Hz, against the bound (w + 2r)/dt = 15 m/s above which a
  step can jump the wall without overlapping it: the smallest over six
  start phases (the ball's surface phi v dt in front of the wall, phi = 0.02
  ... 1), each found by three rounds of a 48-speed grid between 0.01 and 100
  times the bound (to 10^-4 of the speed); "never" when no speed in the
  grid passes.

Each setting is one persistent process a batch (protocol 2).  Run from the
top of the repository after `make -C engines setup`; it needs no
verletbench.  About half a minute.  Prints a Markdown table, with the
engines' capability lines as its provenance (make engines writes it to
results/engines/contact.md with --out); --json writes the numbers."""
import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
B = "engines/build/"
SETTINGS = [
    # (name, command, the restitution threshold its source gives, m/s; None: none)
    ("box2d", B + "box2d-contact", 1.0),
    ("box2d continuous=off", B + "box2d-contact continuous=off", 1.0),
    ("planck", "node engines/planck/contact.js", 1.0),
    ("rapier", "node engines/rapier/contact.js", None),
    ("rapier ccd=on", "node engines/rapier/contact.js ccd=on", None),
    ("matter-js", "node engines/matter-js/contact.js", None),
    ("cannon-es", "node engines/cannon-es/contact.js", None),
    ("chipmunk", B + "chipmunk-contact", None),
]
G = 9.81
RATES = (30, 60, 144)
R, W = 0.1, 0.05          # the tunnel's ball and wall
PHASES = (0.02, 0.1, 0.25, 0.5, 0.75, 1.0)
BOUNCE = dict(h0=1.0, e=0.8, r=0.1)
COUNT = dict(h0=1.0, e=0.55, r=0.1)
SLIDE = dict(v0=3.0, mu=0.5, size=0.2)
KICK_TOL, REST_STEPS = 1e-3, 3  # src/contact/contact_metrics.h


# ---- the requests ------------------------------------------------------------------------

def req(run, model, params, x0, v0, dt, steps):
    return {"kind": "run", "run": run, "model": model, "dim": 2, "particles": 1, "masses": [1.0],
            "x0": x0, "v0": v0, "params": params, "h": [dt] * steps, "header": "# verletbench run=%s" % run}


def bounce_req(run, h0, e, r, hz, seconds):
    return req(run, "bounce", {"h0": h0, "e": e, "g": G, "r": r}, [0.0, h0], [0.0, 0.0], 1.0 / hz,
               int(round(seconds * hz)))


def tunnel_req(run, v, phi, hz=60):
    dt = 1.0 / hz
    d = R + phi * v * dt  # the surface phi v dt in front of the wall
    steps = int(math.ceil((d + W + 2 * R) / (v * dt))) + 5
    return req(run, "tunnel", {"v": v, "r": R, "w": W, "d": d, "e": 0.0}, [d, 0.0], [-v, 0.0], dt, steps)


def passed(rows):
    return rows[-1][1] < -W  # the centre behind the wall's back face


# ---- the measures (src/contact/contact_metrics.c, vb_bounce_measure and vb_slide_measure) --

def bounces(rows):
    """[(t, before, after, e)] of each bounce, and t_rest (None)"""
    t = [r[0] for r in rows]
    s = [r[2] for r in rows]
    u = [r[4] for r in rows]
    n = len(t)

    def contact(k):
        return u[k] - u[k - 1] > -(1.0 - KICK_TOL) * G * (t[k] - t[k - 1])
    out, rest, k = [], None, 1
    while k < n:
        if not contact(k):
            k += 1
            continue
        a = b = k
        while b + 1 < n and contact(b + 1):
            b += 1
        if b + 1 < n and u[b] > 0.0:
            before = 0.5 * u[a - 1] ** 2 + G * s[a - 1]
            after = 0.5 * u[b] ** 2 + G * s[b]
            e = math.sqrt(after / before) if before > 0 and after >= 0 else float("nan")
            out.append((t[a], before, after, e))
        elif b + 1 == n and b - a + 1 >= REST_STEPS:
            rest = t[a]
        k = b + 1
    return out, rest


def slide_stop(rows):
    """x at the first sample whose velocity is 0 or reversed (vb_slide_measure),
    or below 10^-6 of v0: cannon's friction is a soft constraint (SPOOK) that
    leaves a velocity shrinking geometrically, never 0; None if it slides on"""
    for r in rows[1:]:
        if r[3] <= 1e-6 * rows[0][3]:
            return r[1]
    return None


# ---- driving the adapters ------------------------------------------------------------------

def measure(command, reqs):
    text = "".join(json.dumps(r) + "\n" for r in reqs)
    p = subprocess.run(command, shell=True, input=text, capture_output=True, text=True, cwd=ROOT,
                       timeout=1800)
    lines = p.stdout.splitlines()
    cap = lines[0] if lines else ""
    runs, cur = {}, []
    for line in lines[1:]:
        if line.startswith("# verletbench-end run="):
            runs[line.split()[2][4:]] = [[float(c) for c in l.split(",")] for l in cur]
            cur = []
        elif line and line[0] in "0123456789-" and "," in line:
            cur.append(line)
    if p.returncode != 0 or len(runs) != len(reqs):
        raise RuntimeError("%s: exit %d, %d answers of %d: %s" % (command, p.returncode, len(runs), len(reqs),
                                                                  p.stderr[-500:]))
    return cap, runs


def pass_speed(command, hz=60):
    """the smallest passing speed over the phases (None: none in the grid)"""
    bound = (W + 2 * R) * hz
    lo = {phi: 0.01 * bound for phi in PHASES}
    hi = {phi: 100.0 * bound for phi in PHASES}
    found = {phi: False for phi in PHASES}
    for rnd in range(3):
        grid = {}
        reqs = []
        for phi in PHASES:
            if rnd and not found[phi]:
                continue
            a, b = lo[phi], hi[phi]
            # a geometric grid first (six decades), then linear ones inside the bracket
            vs = [a * (b / a) ** (i / 47.0) for i in range(48)] if rnd == 0 else \
                [a + (b - a) * i / 47.0 for i in range(48)]
            grid[phi] = vs
            reqs += [tunnel_req("t%d-%g-%d" % (rnd, phi, i), v, phi, hz) for i, v in enumerate(vs)]
        if not reqs:
            break
        _, runs = measure(command, reqs)
        for phi, vs in grid.items():
            first = next((i for i, v in enumerate(vs) if passed(runs["t%d-%g-%d" % (rnd, phi, i)])), None)
            if first is None:
                continue
            found[phi] = True
            hi[phi] = vs[first]
            lo[phi] = vs[first - 1] if first else vs[0] * 0.5
    best = [hi[phi] for phi in PHASES if found[phi]]
    return min(best) if best else None


def exact_bounces(h0, e, vth):
    """the exact count: the first k with e^k v0 < vth does not bounce"""
    if not vth:
        return math.inf
    v0, k = math.sqrt(2 * G * h0), 0
    while e ** k * v0 >= vth:
        k += 1
    return k


def run_setting(name, command, vth):
    reqs = []
    for hz in RATES:
        reqs.append(bounce_req("e-%d" % hz, BOUNCE["h0"], BOUNCE["e"], BOUNCE["r"], hz, 4.0))
    reqs.append(bounce_req("e1", 1.0, 1.0, 0.1, 60, 11.0))
    reqs.append(bounce_req("count", COUNT["h0"], COUNT["e"], COUNT["r"], 60, 5.0))
    reqs.append(req("slide", "slide", {"v0": SLIDE["v0"], "mu": SLIDE["mu"], "g": G, "size": SLIDE["size"]},
                    [0.0, 0.0], [SLIDE["v0"], 0.0], 1.0 / 60, 180))
    cap, runs = measure(command, reqs)
    res = {"name": name, "command": command, "vth": vth, "capability": cap}
    res["e"] = {hz: [b[3] for b in bounces(runs["e-%d" % hz])[0][:3]] for hz in RATES}
    ev, _ = bounces(runs["e1"])
    res["gain_bounces"] = min(len(ev), 10)
    res["gain"] = ev[res["gain_bounces"] - 1][2] / ev[0][1] - 1 if ev else None
    ev, rest = bounces(runs["count"])
    res["count"], res["rest"] = len(ev), rest
    res["count_exact"] = exact_bounces(COUNT["h0"], COUNT["e"], vth)
    res["slide"] = slide_stop(runs["slide"])
    res["slide_exact"] = SLIDE["v0"] ** 2 / (2 * SLIDE["mu"] * G)
    res["tunnel"] = pass_speed(command)
    res["tunnel_bound"] = (W + 2 * R) * 60
    return res


def fmt_row(r):
    e = lambda xs: ", ".join("%.3f" % x for x in xs) if xs else "none"
    gain = "%+.1f %%" % (100 * r["gain"]) if r["gain"] is not None else "no bounce"
    if r["gain"] is not None and r["gain_bounces"] < 10:
        gain += " (after %d)" % r["gain_bounces"]
    ex = r["count_exact"]
    count = "%d (exact %s)" % (r["count"], "%d" % ex if ex != math.inf else "∞, rest at 1.55 s")
    slide = "%.4f m (%+.1f %%)" % (r["slide"], 100 * (r["slide"] / r["slide_exact"] - 1)) \
        if r["slide"] is not None else "slides on"
    tun = "%.4g m/s (%.2f of the bound)" % (r["tunnel"], r["tunnel"] / r["tunnel_bound"]) \
        if r["tunnel"] is not None else "never (to %g m/s)" % (100 * r["tunnel_bound"])
    return [r["name"], e(r["e"][30]), e(r["e"][60]), e(r["e"][144]), gain, count, slide, tun]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="the settings whose name contains this")
    ap.add_argument("--out", help="also write the table here (Markdown; a temporary file, then renamed)")
    ap.add_argument("--json", help="also write the numbers here (JSON)")
    a = ap.parse_args()
    results = []
    for name, cmd, vth in SETTINGS:
        if a.only and a.only not in name:
            continue
        r = run_setting(name, cmd, vth)
        results.append(r)
        print("  " + " | ".join(fmt_row(r)), file=sys.stderr)
    if not results:
        print("contact.py: no setting's name contains '%s'" % a.only, file=sys.stderr)
        return 2
    out = ["# What your engine does at a contact", "",
           "<!-- made by: python3 engines/check/contact.py%s (issue 44; docs/contact.md) -->" %
           (" --only " + a.only if a.only else "")]
    out += ["<!-- %s -->" % c for c in sorted(set(r["capability"] for r in results))]
    head = ["setting", "e per bounce, 30 Hz (e = 0.8)", "60 Hz", "144 Hz", "energy gain at e = 1, 10 bounces, 60 Hz",
            "bounces in 5 s, e = 0.55, 60 Hz", "slide stop, 60 Hz (exact %.4f m)" % results[0]["slide_exact"],
            "tunnelling speed, 60 Hz (bound (w+2r)/dt = %g m/s)" % results[0]["tunnel_bound"]]
    out += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(fmt_row(r)) + " |" for r in results]
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    for path, data in ((a.out, text), (a.json, json.dumps(results, indent=1, default=lambda x: None) + "\n")):
        if path:
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(data)
            os.replace(tmp, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
