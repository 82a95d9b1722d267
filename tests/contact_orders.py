#!/usr/bin/env python3
"""contact_orders.py BUILD_DIR — contact_orders.csv, the order in dt of each
contact measure of a rigid body at a contact (docs/contact.md, "Orders in
dt"), held to what is derived here:

- pgs and speculative round rigid-explicit-gyro (symplectic Euler: the
  kick, then the drift) on the flat roll: while the ball slips the
  friction is the full Coulomb impulse every step, so the centre's
  acceleration is a = -mu g exactly and v_n = v0 + a t_n exactly, while
  x_n = sum_j h v_j = v0 t_n + a h^2 n (n + 1)/2 = x(t_n) + a h t_n / 2.
  s_roll is extrapolated from the last slipping state (x_n, v_n) by the
  same constant acceleration (bodyrun.c), which is exact, so its error is
  that of x_n: |s_roll - s*| = mu g h t_n / 2, t_n = h floor(t*/h),
  t* = 2 v0 / (7 mu g).  First order in h, with the leading coefficient
  mu g t* / 2.  The fitted order must be the least-squares slope of
  ln e against ln h over those three errors (computed here), its
  standard error the slope's, its 95 % half-width Student's t for one
  degree of freedom (a Cauchy quantile: tan(0.475 pi)) times that, and
  1 inside the interval;
- toi round rigid-splitting is the exact answer to round-off (exact on
  a constant acceleration, test_body_solvers.c): every measure reads
  `exact`, no order; on the flat, on the incline at mu 0.5, and the cube
  held at mu_s 0.7 (its creep); the measures are the ones the exact body
  has: rolling ones where it rolls (flat, tan 30 <= mu (1 + k)/k at 0.5),
  creep where it must stick (tan 30 <= mu_s), none of them at mu_s 0.2;
- soft rolls late by about a step (docs/contact.md: first order): its
  t_roll order's interval holds 1 and neither 0.5 nor 1.5;
- soft never rolls at 30 degrees (its steady slip): t_roll's error inf at
  every level, so nothing is fitted (undetermined, blank order), never a
  fake order;
- a wall's case (the bounce) writes no contact_orders.csv.
Ends with "N passed, N failed"."""
import math
import os
import sys

import suite

S = suite.Suite("contact orders", guard=300)
check, vb = S.check, S.vb

G = 9.81
ROOT = suite.ROOT
T975_1 = math.tan(0.475 * math.pi)  # Student's t, 1 degree of freedom, 97.5 %: 12.706


def run(tmp, *cases):
    out = os.path.join(tmp, "out-" + "-".join(os.path.basename(c)[:-5] for c in cases))
    r = vb("run", "--quiet", "--no-chart-data",
           *[os.path.join(ROOT, "cases", c) for c in cases], "--out", out)
    check(r.returncode == 0, "run %s" % " ".join(cases), r.stderr[-600:])
    return out


def rows(out, case):
    path = os.path.join(out, case, "contact_orders.csv")
    if not os.path.exists(path):
        return None
    return {(r["integrator"], r["plan"], r["measure"]): r for r in suite.table_rows(path)}


def test_roll(tmp):
    out = run(tmp, "roll.case")
    t = rows(out, "roll")
    check(t is not None, "roll writes contact_orders.csv")
    if t is None:
        return
    v0, mu, dt0 = 2.0, 0.5, 0.03333333333333333  # cases/roll.case
    t_star = 2 * v0 / (7 * mu * G)
    hs = [dt0 / 2 ** k for k in range(3)]
    errs = [mu * G * h * (h * math.floor(t_star / h)) / 2 for h in hs]
    slope, se = suite.least_squares([math.log(h) for h in hs], [math.log(e) for e in errs])
    for solver in ("pgs", "speculative"):
        r = t.get(("rigid-explicit-gyro+" + solver, "fixed", "s_roll"))
        check(r is not None, "%s: an s_roll row" % solver)
        if r is None:
            continue
        # the table prints %.6f: within half its last digit
        order, ci = float(r["order"] or "nan"), float(r["order_ci95"] or "nan")
        check(abs(order - slope) <= 5e-7 and r["points"] == "3" and r["range"] == "asymptotic"
              and r["verdict"] == "measured",
              "%s: s_roll's order the least-squares slope of mu g h t_n / 2 (%.6f), over 3 "
              "points, a power law with no label" % (solver, slope), r)
        check(abs(float(r["order_se"]) - se) <= 5e-7 and abs(ci - T975_1 * se) <= 5e-6,
              "%s: its standard error %.6f and 95 %% half-width t(1) se = %.6f" %
              (solver, se, T975_1 * se), r)
        check(abs(order - 1.0) <= ci, "%s: first order within its interval" % solver, r)
    for m in ("t_roll", "s_roll", "v_roll", "slip_max", "a_err", "energy_err", "depth_max"):
        r = t.get(("rigid-splitting+toi", "fixed", m))
        check(r is not None and r["verdict"] == "exact" and r["order"] == "" and
              r["order_se"] == "", "toi round rigid-splitting: %s exact, no order" % m, r)
    check(not any(k[2] == "creep" for k in t), "the rolling ball has no creep row")
    r = t.get(("rigid-explicit-gyro+soft", "fixed", "t_roll"))
    order, ci = float(r["order"] or "nan"), float(r["order_ci95"] or "nan")
    check(abs(order - 1.0) <= ci and order - ci > 0.5 and order + ci < 1.5,
          "soft's t_roll: first order, its interval holding 1 and neither 0.5 nor 1.5", r)
    with open(os.path.join(out, "roll", "summary.md")) as f:
        md = f.read()
    check("### The contact measures' orders in dt (contact_orders.csv)" in md and
          "| `rigid-splitting+toi` | fixed | exact | exact | exact | exact | exact | exact | exact |"
          in md, "summary.md: the section, toi round rigid-splitting exact in every measure")


def test_incline_and_box(tmp):
    out = run(tmp, "roll-incline.case", "box-incline.case")
    t = rows(out, "roll-incline@mu=0.5")
    check(t is not None, "roll-incline@mu=0.5 writes contact_orders.csv")
    if t:
        for m in ("t_roll", "s_roll", "v_roll", "slip_max"):
            r = t.get(("rigid-splitting+toi", "fixed", m))
            check(r is not None and r["verdict"] == "exact" and r["order"] == "",
                  "30 degrees, mu 0.5: toi's %s exact" % m, r)
        r = t.get(("rigid-explicit-gyro+soft", "fixed", "t_roll"))
        check(r is not None and r["verdict"] == "undetermined" and r["order"] == "" and
              r["points"] == "0", "soft never rolls at 30 degrees: nothing fitted, no fake order", r)
    t = rows(out, "roll-incline@mu=0.1")
    check(t is not None and not any(k[2] in ("t_roll", "creep") for k in t),
          "mu 0.1 never rolls, never sticks: neither rolling nor creep rows", t and list(t)[:3])
    t = rows(out, "box-incline@mu_s=0.7")
    r = t and t.get(("rigid-splitting+toi", "fixed", "creep"))
    check(r is not None and r["verdict"] == "exact" and r["order"] == "",
          "the cube held at mu_s 0.7: toi's creep exact", r)
    check(t is not None and not any(k[2] == "t_roll" for k in t), "a cube has no rolling rows")
    t = rows(out, "box-incline@mu_s=0.2")
    check(t is not None and not any(k[2] == "creep" for k in t),
          "the cube sliding at mu_s 0.2 has no creep row")


def test_wall_case(tmp):
    out = run(tmp, "bounce.case")
    check(os.path.exists(os.path.join(out, "bounce", "contact.csv")) and
          not os.path.exists(os.path.join(out, "bounce", "contact_orders.csv")),
          "a wall's case keeps its files: contact.csv, no contact_orders.csv")


sys.exit(S.main([test_roll, test_incline_and_box, test_wall_case]))
