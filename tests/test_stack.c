/* test_stack.c — model `stack` and the contact solvers on it (issue 55,
 * docs/contact.md "Stacks"): the shift bound against the centres of mass
 * computed box by box; toi keeps a resting stack exactly where it is; a
 * solver that does not solve (0 iterations) lets every box fall freely,
 * and t_collapse is the step at which symplectic Euler's free fall has
 * carried a box down half its edge. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "rigid_method.h"
#include "rigidcontact.h"
#include "stack.h"
#include "stackrun.h"
#include "unit.h"

/* a stack from n, ratio, shift and the edge size, the rest at their
 * defaults: 0 or -1 */
static int stack_sized(vb_stack *s, int n, double ratio, double shift, double size, char *err,
                       size_t errlen)
{
    double p[16];
    vb_stack_defaults(p);
    p[0] = n, p[1] = size, p[2] = ratio, p[3] = shift;
    return vb_stack_init(s, p, err, errlen);
}

/* the same at the default edge */
static int stack_of(vb_stack *s, int n, double ratio, double shift, char *err, size_t errlen)
{
    double p[16];
    vb_stack_defaults(p);
    return stack_sized(s, n, ratio, shift, p[1], err, errlen);
}

/* how far past the far edge of box k-1's top face the boxes k.. n-1 have
 * their combined centre of mass, over the edge (> 0: it tips) */
static double overhang(const vb_stack *s, int k)
{
    double mx = 0.0, m = 0.0;
    for (int j = k; j < s->n; j++) {
        vb_rigid_state st;
        vb_stack_exact(s, j, 0.0, &st);
        mx += vb_stack_mass(s, j) * st.x[0];
        m += vb_stack_mass(s, j);
    }
    vb_rigid_state below;
    vb_stack_exact(s, k - 1, 0.0, &below);
    return (mx / m - (below.x[0] + 0.5 * s->size)) / s->size;
}

static void test_stack_shift_bound(void)
{
    char err[256];
    /* closed forms of stack.h's s_max = 1 / (2 c(n - 1)) */
    CHECK_REL(vb_stack_shift_bound(5, 1.0), 0.2, 1e-15, "5 equal boxes: 1/n");
    CHECK_REL(vb_stack_shift_bound(2, 1.0), 0.5, 1e-15, "2 equal boxes: 1/2");
    /* r = 10, L = 4: c = (1 + 20 + 300 + 4000) / 1111 */
    CHECK_REL(vb_stack_shift_bound(5, 10.0), 1111.0 / 8642.0, 1e-15, "5 boxes at ratio 10");
    const int ns[] = {2, 3, 5, 20};
    const double rs[] = {0.5, 1.0, 10.0, 100.0};
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 4; b++) {
            vb_stack s;
            double bound = vb_stack_shift_bound(ns[a], rs[b]);
            char what[96];
            snprintf(what, sizeof what, "n %d ratio %g at its bound %.6g", ns[a], rs[b], bound);
            CHECK(stack_of(&s, ns[a], rs[b], bound, err, sizeof err) == 0, "%s: %s", what, err);
            /* at the bound the boxes above the bottom one have their
             * centre of mass over its edge (round-off of the positions),
             * and every higher sub-stack is inside its support */
            CHECK_ABS(overhang(&s, 1), 0.0, 1e-12, what);
            for (int k = 2; k < s.n; k++)
                CHECK(overhang(&s, k) < 1e-12, "%s: contact %d holds (%g)", what, k,
                      overhang(&s, k));
            CHECK(stack_of(&s, ns[a], rs[b], bound * 1.001, err, sizeof err) == -1 &&
                      strstr(err, "shift = ") && strstr(err, "tip"),
                  "%s: 0.1 %% past it refused: %s", what, err);
        }
    vb_stack s;
    CHECK(stack_of(&s, 1, 1.0, 0.9, err, sizeof err) == 0, "one box stands at any shift: %s", err);
}

static void run_stack(const vb_stack *s, const char *solver, const char *const *keys,
                      const char *method, double dt, double t_end, vb_stack_result *res)
{
    char err[256];
    vb_stack_spec sp = {.stack = s, .solver = vb_body_solver_find(solver), .dt = dt,
                        .t_end = t_end};
    sp.method = vb_rigid_method_find(method)->step;
    vb_body_solver_defaults(sp.solver, &sp.params);
    for (int i = 0; keys && keys[i]; i += 2)
        CHECK(vb_body_solver_set(sp.solver, &sp.params, keys[i], keys[i + 1], err, sizeof err) == 0,
              "%s", err);
    int rc = vb_stack_run(&sp, res, NULL, err, sizeof err);
    CHECK(rc == 0, "%s: %s", solver, err);
}

static void test_stack_toi_stays_put(void)
{
    /* no shift, and half the bound's */
    const double ratios[] = {1.0, 100.0}, shifts[] = {0.0, 0.5};
    char err[256];
    for (int n = 0; n < 2; n++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                vb_stack s;
                int boxes = n ? 20 : 5;
                double shift = shifts[j] * vb_stack_shift_bound(boxes, ratios[i]);
                CHECK(stack_of(&s, boxes, ratios[i], shift, err, sizeof err) == 0, "%s", err);
                vb_stack_result r;
                /* the engines' step: symplectic Euler would drift a box
                 * held by a constant force; toi holds it without a step */
                run_stack(&s, "toi", NULL, "rigid-explicit-gyro", 1.0 / 60.0, 2.0, &r);
                char what[96];
                snprintf(what, sizeof what, "toi, %d boxes, ratio %g, shift %g", boxes,
                         ratios[i], shift);
                CHECK(r.code == 0 && r.steps == 120, "%s: code %d, %zu steps", what, r.code,
                      r.steps);
                CHECK(r.drift_max == 0.0 && r.speed_rms == 0.0, "%s: drift %g, speed %g", what,
                      r.drift_max, r.speed_rms);
                CHECK(isnan(r.t_collapse), "%s: stood (t_collapse %g)", what, r.t_collapse);
                /* the faces' heights are (k + 1/2) a -+ a/2 in binary:
                 * apart or into each other by round-off of the top's
                 * height, a few ulps of boxes * a */
                CHECK(r.depth_max <= 8.0 * DBL_EPSILON * boxes * s.size, "%s: depth %g", what,
                      r.depth_max);
            }
}

static void test_stack_no_solve_falls(void)
{
    char err[256];
    vb_stack s;
    CHECK(stack_of(&s, 5, 1.0, 0.0, err, sizeof err) == 0, "%s", err);
    const double hs[] = {1.0 / 60.0, 1.0 / 240.0};
    for (int i = 0; i < 2; i++) {
        double h = hs[i];
        vb_stack_result r;
        run_stack(&s, "pgs", (const char *[]){"iterations", "0", "warm_start", "no", NULL},
                  "rigid-explicit-gyro", h, 1.0, &r);
        /* no impulse: each box falls freely; under symplectic Euler
         * (v += g h, then x += v h) box after k steps is g h^2 k (k+1)/2
         * down, and t_collapse the first k h at which that is a/2 */
        int k = 1;
        while (s.g * h * h * k * (k + 1) / 2.0 < 0.5 * s.size)
            k++;
        char what[96];
        snprintf(what, sizeof what, "0 iterations at %g Hz", 1.0 / h);
        CHECK_REL(r.t_collapse, k * h, 1e-12, what);
        /* and within a step of the exact free fall's sqrt(a/g) */
        CHECK(fabs(r.t_collapse - sqrt(s.size / s.g)) <= h, "%s: %g against sqrt(a/g) = %g",
              what, r.t_collapse, sqrt(s.size / s.g));
        /* every box fell alike: the stack went into the ground, and the
         * drift is the fall's after the run's 1 s */
        CHECK_REL(r.drift_max, s.g * h * h * (1.0 / h) * (1.0 / h + 1.0) / 2.0, 1e-9, what);
    }
}

/* Two boxes, the upper shifted by 0.3 and 0.45 of the edge: its centre of
 * mass lies over the lower box only if the manifold reaches past the
 * upper box's own corners to the lower face's far edge (contacts.c: the
 * reference face's corners under the upper box), so it stands (statics:
 * the overlap holds the centre) only with those points.  pgs run to
 * convergence (1000 iterations, no warm start) holds it: round-off. */
static void test_stack_shifted_pair_stands(void)
{
    char err[256];
    const double shifts[] = {0.3, 0.45};
    for (int i = 0; i < 2; i++) {
        vb_stack s;
        CHECK(stack_of(&s, 2, 1.0, shifts[i], err, sizeof err) == 0, "%s", err);
        vb_stack_result r;
        run_stack(&s, "pgs", (const char *[]){"iterations", "1000", "warm_start", "no", NULL},
                  "rigid-explicit-gyro", 1.0 / 60.0, 1.0, &r);
        char what[96];
        snprintf(what, sizeof what, "pgs converged, two boxes at shift %g", shifts[i]);
        CHECK(r.code == 0 && isnan(r.t_collapse), "%s: stood (code %d, t_collapse %g)", what,
              r.code, r.t_collapse);
        /* the residual of 1000 Gauss-Seidel passes over 8 rows: round-off
         * of the positions (0.15 m) a step, over 60 steps */
        CHECK(r.drift_max <= 1e-12, "%s: drift %g", what, r.drift_max);
    }
    /* three boxes at shift 0.3, inside their bound 1/3 (stack.h): they
     * stand (statics); a manifold that lost its points as the boxes turned
     * by round-off let them fall at 0.4 s */
    vb_stack s;
    CHECK(stack_of(&s, 3, 1.0, 0.3, err, sizeof err) == 0, "%s", err);
    vb_stack_result r;
    run_stack(&s, "pgs", (const char *[]){"iterations", "1000", "warm_start", "no", NULL},
              "rigid-explicit-gyro", 1.0 / 60.0, 10.0, &r);
    CHECK(r.code == 0 && isnan(r.t_collapse), "three boxes at shift 0.3 stood 10 s (t_collapse %g)",
          r.t_collapse);
}

/* Equal boxes under pgs at Bullet's defaults (10 iterations, warm start
 * 0.85, erp 0.2), 60 Hz, 10 s, mu 0.5.  Exact: they stand, and do not
 * move.  The reference is Bullet 3.24 itself, the same scene (boxes of
 * equal mass, friction products mu, one internal step of 1/60 s,
 * btSequentialImpulseConstraintSolver at its defaults, no sleeping) run by
 * tests/reference/bullet_stack.cpp in Debian's float32 and float64
 * builds; its drift_max, m (float32 / float64):
 *     edge 1 m,   2 boxes: 0.0106 / 0.00983, without warm start 0.0520 / 0.0309
 *     edge 1 m,   5 boxes: 0.0122 / 0.00836, without warm start 0.0666 / 0.0657
 *     edge 0.1 m, 2 boxes: 0.00273 / 0.00708 (5 boxes of 0.1 m fall in Bullet,
 *                          at 2.47 / 2.58 s: its 0.04 m collision margin)
 * A box-on-box manifold that loses its points when a box turns by
 * round-off (the overlap's corners where two edges cross) let all of
 * these fall (2 boxes of 1 m at 3.45 s, 5 at 1.18 s; of 0.1 m at 1.0 s
 * and 0.32 s). */
static void test_stack_pgs_defaults_stand(void)
{
    char err[256];
    const struct {
        int n;
        double size, bullet_drift; /* the smaller of Bullet's two builds' */
    } runs[] = {{2, 1.0, 0.00983}, {5, 1.0, 0.00836}, {2, 0.1, 0.00273}, {5, 0.1, NAN}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        vb_stack s;
        CHECK(stack_sized(&s, runs[i].n, 1.0, 0.0, runs[i].size, err, sizeof err) == 0, "%s", err);
        vb_stack_result r;
        run_stack(&s, "pgs", NULL, "rigid-explicit-gyro", 1.0 / 60.0, 10.0, &r);
        char what[96];
        snprintf(what, sizeof what, "pgs defaults, %d boxes of %g m", runs[i].n, runs[i].size);
        CHECK(r.code == 0 && r.steps == 600 && isnan(r.t_collapse),
              "%s: stood 10 s (code %d, t_collapse %g)", what, r.code, r.t_collapse);
        /* no more than Bullet's drift on the same scene (NAN: Bullet's
         * fell; the exact answer, that it stands, is all there is) */
        if (!isnan(runs[i].bullet_drift))
            CHECK(r.drift_max <= runs[i].bullet_drift, "%s: drift %g against Bullet's %g", what,
                  r.drift_max, runs[i].bullet_drift);
        CHECK(r.drift_max < 0.1 * s.size, "%s: drift %g", what, r.drift_max);
        if (runs[i].size != 1.0)
            continue;
        /* warm starting takes most of the drift away, as in Bullet: there
         * it divides it by 3.1 to 7.9 on these scenes (2 boxes float64
         * the least, 5 boxes float64 the most); at least the least */
        vb_stack_result cold;
        run_stack(&s, "pgs", (const char *[]){"warm_start", "no", NULL}, "rigid-explicit-gyro",
                  1.0 / 60.0, 10.0, &cold);
        CHECK(cold.drift_max >= 3.1 * r.drift_max,
              "%s: warm start divides the drift by %g (Bullet: 3.1 to 7.9)", what,
              cold.drift_max / r.drift_max);
    }
}

/* A box on a box turned about the vertical by 0.01 rad: the overlap of
 * the two faces is an octagon, every corner of it a crossing of two
 * edges, no box's corner over the other's face; its centre is over the
 * lower box, so it stands (statics).  pgs run to convergence (1000
 * iterations) holds it as it holds the aligned pair (above): round-off.
 * A manifold of corners alone has no point between the two and the upper
 * box falls into the lower one. */
static void test_stack_turned_pair_stands(void)
{
    char err[256];
    vb_stack s;
    CHECK(stack_of(&s, 2, 1.0, 0.0, err, sizeof err) == 0, "%s", err);
    vb_contact_body b[2];
    for (int k = 0; k < 2; k++) {
        memset(&b[k], 0, sizeof b[k]);
        vb_stack_exact(&s, k, 0.0, &b[k].s);
        vb_stack_props(&s, k, &b[k].p);
        vb_stack_shape(&s, &b[k].shape);
    }
    const double turn = 0.01;
    b[1].s.q[0] = cos(turn / 2.0), b[1].s.q[3] = sin(turn / 2.0);
    vb_contact_world w = {.n = 2, .body = b, .mu_s = s.mu, .mu_k = s.mu};
    vb_stack_ground(&s, &w.ground);
    const vb_body_solver *pgs = vb_body_solver_find("pgs");
    vb_solver_params p;
    vb_body_solver_defaults(pgs, &p);
    CHECK(vb_body_solver_set(pgs, &p, "iterations", "1000", err, sizeof err) == 0, "%s", err);
    vb_contact_cache c;
    CHECK(vb_contact_cache_init(&c, 2) == 0, "cache");
    vb_body_step_fn *method = vb_rigid_method_find("rigid-explicit-gyro")->step;
    double drift = 0.0;
    for (int i = 0; i < 60; i++) {
        CHECK(vb_body_solver_step(pgs, &w, &c, &p, method, 1.0 / 60.0) == 0, "step %d", i);
        double dz = fabs(b[1].s.x[2] - 1.5 * s.size), dx = hypot(b[1].s.x[0], b[1].s.x[1]);
        drift = max_or_nan(drift, max_or_nan(dz, dx));
    }
    vb_contact_cache_free(&c);
    /* the aligned pair's round-off allowance (above) */
    CHECK(drift <= 1e-12, "turned pair: the upper box moved %g m in 1 s", drift);
}

/* The stack as a case's model (stack.h's face): found by name, its state
 * the boxes' centres, box k's at x = k shift a, z = (k + 1/2) a (on the
 * ground and on each other), at rest, its exact answer the same at any t,
 * its masses m ratio^k; and the model's own refusal of a shift past the
 * bound. */
static void test_stack_face(void)
{
    char err[256];
    const vb_model_type *t = vb_model_find("stack");
    CHECK(t != NULL && t == vb_stack_face(), "vb_model_find finds the stack");
    if (!t)
        return;
    vb_model m;
    vb_model_defaults(&m, t);
    const char *keys[][2] = {{"n", "4"}, {"size", "0.5"}, {"ratio", "3"}, {"shift", "0.1"},
                             {"m", "2"}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        CHECK(vb_model_set(&m, keys[i][0], keys[i][1], err, sizeof err) == 0, "%s", err);
    CHECK(vb_model_setup(&m, err, sizeof err) == 0, "%s", err);
    CHECK(m.particles == 4 && m.n == 12, "4 boxes: 12 numbers (%zu, %zu)", m.particles, m.n);
    CHECK(vb_stack_of(&m) != NULL, "the instance is the stack");
    double x[12], v[12], xe[12], ve[12];
    t->initial(m.self, x, v);
    CHECK(t->exact(m.self, NULL, 7.5, xe, ve) == 0, "exact at 7.5 s");
    for (int k = 0; k < 4; k++) {
        const double want[3] = {k * 0.1 * 0.5, 0.0, (k + 0.5) * 0.5};
        char what[64];
        for (int i = 0; i < 3; i++) {
            /* a few ulps of the products above */
            snprintf(what, sizeof what, "box %d's centre, axis %d", k, i);
            CHECK_ABS(x[3 * k + i], want[i], 1e-15, what);
            CHECK(xe[3 * k + i] == x[3 * k + i] && v[3 * k + i] == 0.0 && ve[3 * k + i] == 0.0,
                  "box %d, axis %d: at rest where it started", k, i);
        }
        snprintf(what, sizeof what, "box %d's mass", k);
        CHECK_REL(m.mass[k], 2.0 * pow(3.0, k), 1e-15, what);
    }
    vb_model_free(&m);
    /* 4 equal boxes stand up to shift 1/4 */
    vb_model_defaults(&m, t);
    CHECK(vb_model_set(&m, "n", "4", err, sizeof err) == 0 &&
              vb_model_set(&m, "shift", "0.26", err, sizeof err) == 0,
          "%s", err);
    CHECK(vb_model_setup(&m, err, sizeof err) != 0 && strstr(err, "shift = 0.26"),
          "a shift past 1/4 refused: %s", err);
    vb_model_free(&m);
}

/* The equal-cost comparison's closed form (issue 55; Macklin et al. 2019):
 * pgs's `substeps` = N splits a step of dt into N whole solver steps of
 * dt/N, each with its own contacts and warm start (solver_pgs.c), so a
 * run of N substeps of 1 iteration at dt is, state for state, a run of 1
 * substep at dt/N by the same solver: the same arithmetic in the same
 * order (dt/N computed as dt/N on both sides), hence the same bits, not a
 * tolerance.  Held on a stack that stands (ratio 1) and on one that falls
 * (ratio 10, heavy on light), after 1 s of frames at 60 Hz. */
static void test_stack_substeps_are_steps(void)
{
    char err[256];
    const double ratios[] = {1.0, 10.0};
    const int budgets[] = {1, 2, 4, 8};
    const vb_body_solver *pgs = vb_body_solver_find("pgs");
    for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++)
        for (size_t j = 0; j < sizeof budgets / sizeof budgets[0]; j++) {
            vb_stack s;
            CHECK(stack_sized(&s, 5, ratios[i], 0.0, 0.1, err, sizeof err) == 0, "%s", err);
            int n = budgets[j];
            char subs[16];
            snprintf(subs, sizeof subs, "%d", n);
            vb_stack_spec frames = {.stack = &s, .solver = pgs, .dt = 1.0 / 60.0, .t_end = 1.0};
            vb_stack_spec steps = frames;
            steps.dt = (1.0 / 60.0) / n;
            frames.method = steps.method = vb_rigid_method_find("rigid-explicit-gyro")->step;
            vb_body_solver_defaults(pgs, &frames.params);
            CHECK(vb_body_solver_set(pgs, &frames.params, "iterations", "1", err, sizeof err) ==
                          0 &&
                      vb_body_solver_set(pgs, &frames.params, "substeps", subs, err,
                                         sizeof err) == 0,
                  "%s", err);
            steps.params = frames.params;
            CHECK(vb_body_solver_set(pgs, &steps.params, "substeps", "1", err, sizeof err) == 0,
                  "%s", err);
            vb_rigid_state a[5], b[5];
            vb_stack_result ra, rb;
            CHECK(vb_stack_run(&frames, &ra, a, err, sizeof err) == 0 &&
                      vb_stack_run(&steps, &rb, b, err, sizeof err) == 0,
                  "%s", err);
            CHECK(ra.code == 0 && rb.code == 0 && ra.steps == 60 && rb.steps == 60u * (size_t)n,
                  "ratio %g, N %d: ran whole (codes %d %d, steps %zu %zu)", ratios[i], n, ra.code,
                  rb.code, ra.steps, rb.steps);
            for (int k = 0; k < 5; k++)
                CHECK(memcmp(a[k].x, b[k].x, sizeof a[k].x) == 0 &&
                          memcmp(a[k].v, b[k].v, sizeof a[k].v) == 0 &&
                          memcmp(a[k].q, b[k].q, sizeof a[k].q) == 0 &&
                          memcmp(a[k].w, b[k].w, sizeof a[k].w) == 0,
                      "ratio %g, N %d, box %d: %d substeps at dt = 1 substep at dt/%d to the "
                      "bit (x %.17g against %.17g)",
                      ratios[i], n, k, n, n, a[k].x[2], b[k].x[2]);
        }
}

/* A run that must fall (falls: why) or stand: 1 where it stood and was to */
static int check_fate(const vb_stack_result *r, int falls, const char *what, const char *why)
{
    if (falls) {
        CHECK(r->code == 0 && !isnan(r->t_collapse), "%s: %s: collapsed (t_collapse %g)", what,
              why, r->t_collapse);
        return 0;
    }
    CHECK(r->code == 0 && isnan(r->t_collapse), "%s: stood (code %d, t_collapse %g)", what,
          r->code, r->t_collapse);
    return 1;
}

/* regularized's resting penetration on a stack, in closed form (MuJoCo
 * 3.12.0's model, as solver_regularized.c cites it).  At rest v = 0 and
 * a = 0, so each row's force is -D jar = D aref = -D K imp(d) d, and the
 * rows carry the weight: contact k (box k on box k-1, k = 0 on the
 * ground) holds W_k = g sum_{j >= k} m_j over the four corners of two
 * aligned equal faces, W_k / 4 each by symmetry.  A pyramidal corner's
 * four edges J_n +- mu J_t each push -K imp d / Rpy along the normal,
 * Rpy = 2 (mu^2 / impratio) (1 - imp)/imp (1 + mu^2) tran_k; an elliptic
 * corner's normal row -K imp d / R0, R0 = (1 - imp)/imp tran_k; tran_k =
 * 1/m_k + 1/m_(k-1) (mj_diagApprox: body_invweight0 of the two, 1/m for a
 * free body; the ground's 0).  K = 1 / (dmax^2 tc^2 dr^2), tc = max(0.02,
 * 2 h) (refsafe); imp(d) MuJoCo's impedance (solimp 0.9 0.95 0.001 0.5 2).
 * Each corner force rises as d falls: d_k by bisection.  Box k's centre
 * then rests sum_{j <= k} d_j below its start.  No tangential force: no
 * box moves sideways, none turns (creep 0 on the flat). */
static double mj_imp(double d)
{
    double x = fabs(d) / 0.001; /* width */
    if (x >= 1.0)
        return 0.95;
    double y = x <= 0.5 ? x * x / 0.5 : 1.0 - (1.0 - x) * (1.0 - x) / 0.5; /* power 2, mid 0.5 */
    return 0.9 + y * (0.95 - 0.9);
}

static double rest_corner_force(int elliptic, double K, double tran, double mu, double d)
{
    double imp = mj_imp(d);
    if (elliptic)
        return -K * imp * d / ((1.0 - imp) / imp * tran);
    return -4.0 * K * imp * d / (2.0 * mu * mu * (1.0 - imp) / imp * (1.0 + mu * mu) * tran);
}

static double rest_depth(int elliptic, double K, double tran, double mu, double N)
{
    double lo = -1.0, hi = 0.0;
    while (rest_corner_force(elliptic, K, tran, mu, lo) < N && lo > -1e6)
        lo *= 2.0;
    for (int k = 0; k < 200; k++) {
        double mid = 0.5 * (lo + hi);
        if (rest_corner_force(elliptic, K, tran, mu, mid) < N)
            hi = mid;
        else
            lo = mid;
    }
    return 0.5 * (lo + hi);
}

static void test_stack_regularized_rest_depth(void)
{
    char err[256];
    const vb_body_solver *reg = vb_body_solver_find("regularized");
    /* ratio 1 and 2 rest shallow (the bottom contact 1e-4 to 1e-3 m);
     * at ratio 10 (masses 1 to 10^4 kg) the closed form sinks the top box
     * by more than half its edge, t_collapse's threshold: the run must say
     * it collapsed */
    const double ratios[] = {1.0, 2.0, 10.0};
    for (int elliptic = 0; elliptic < 2; elliptic++)
        for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++) {
            vb_stack s;
            CHECK(stack_sized(&s, 5, ratios[i], 0.0, 0.1, err, sizeof err) == 0, "%s", err);
            double h = 1.0 / 60.0;
            vb_stack_spec sp = {.stack = &s, .solver = reg, .dt = h, .t_end = 5.0};
            sp.method = vb_rigid_method_find("rigid-explicit-gyro")->step;
            vb_body_solver_defaults(reg, &sp.params);
            if (elliptic)
                CHECK(vb_body_solver_set(reg, &sp.params, "cone", "elliptic", err, sizeof err) ==
                          0,
                      "%s", err);
            vb_rigid_state fin[5] = {0};
            vb_stack_result r = {.code = -1};
            CHECK(vb_stack_run(&sp, &r, fin, err, sizeof err) == 0, "regularized: %s", err);
            double tc = fmax(0.02, 2.0 * h), K = 1.0 / (0.95 * 0.95 * tc * tc);
            double sink[5], total = 0.0, W = 0.0;
            for (int k = 4; k >= 0; k--)
                W += vb_stack_mass(&s, k) * s.g;
            for (int k = 0; k < 5; k++) {
                double tran = 1.0 / vb_stack_mass(&s, k) + (k ? 1.0 / vb_stack_mass(&s, k - 1) : 0.0);
                total += rest_depth(elliptic, K, tran, s.mu, W / 4.0);
                sink[k] = total;
                W -= vb_stack_mass(&s, k) * s.g;
            }
            char what[96];
            snprintf(what, sizeof what, "regularized, %s cone, ratio %g",
                     elliptic ? "elliptic" : "pyramidal", ratios[i]);
            if (!check_fate(&r, !(fabs(sink[4]) < 0.5 * s.size), what,
                            "sunk by the closed form past half the edge"))
                continue;
            for (int k = 0; k < 5; k++) {
                vb_rigid_state e;
                vb_stack_exact(&s, k, 0.0, &e);
                /* after 5 s, 150 time constants, at rest to round-off of
                 * the forces (Newton's solve stops at 1e-14 of them, the
                 * closed form's bisection at an ulp): 1e-12 of the depth */
                CHECK(fabs((fin[k].x[2] - e.x[2]) - sink[k]) <= 1e-12 * fabs(sink[k]),
                      "%s, box %d: rests %.17g below its start, the closed form %.17g", what, k,
                      e.x[2] - fin[k].x[2], -sink[k]);
                CHECK(fabs(fin[k].x[0] - e.x[0]) <= 1e-12 && fabs(fin[k].x[1] - e.x[1]) <= 1e-12,
                      "%s, box %d: no sideways creep (%g, %g)", what, k, fin[k].x[0] - e.x[0],
                      fin[k].x[1] - e.x[1]);
            }
        }
}

/* An engine's stack (protocol 5): states given row by row to a world
 * without a solver are measured by the same measure as a solver's steps.
 * pgs's own states, given to it, give pgs's measures to the bit; boxes of
 * 1/8 m each lowered by k D (D = 2^-10, every height exact in binary) give
 * drift n D and depth D; a state with a NaN stops it, diverged, with the
 * measures of the rows before. */
static void test_stack_observed_states(void)
{
    char err[256];
    vb_stack s;
    CHECK(stack_sized(&s, 5, 1.0, 0.0, 0.125, err, sizeof err) == 0, "%s", err);
    const vb_body_solver *pgs = vb_body_solver_find("pgs");
    vb_solver_params params;
    vb_body_solver_defaults(pgs, &params);
    vb_body_step_fn *step = vb_rigid_method_find("rigid-explicit-gyro")->step;
    vb_stack_world a, b;
    CHECK(vb_stack_world_init(&a, &s, pgs, err, sizeof err) == 0, "%s", err);
    CHECK(vb_stack_world_init(&b, &s, NULL, err, sizeof err) == 0, "%s", err);
    vb_rigid_state st[5];
    double h = 1.0 / 30.0; /* pgs moves the boxes at 30 Hz: measures not 0 */
    for (int i = 1; i <= 60; i++) {
        CHECK(vb_stack_world_step(&a, pgs, &params, step, i * h, h) == VB_BODY_OK, "pgs step %d",
              i);
        for (int k = 0; k < 5; k++)
            st[k] = a.w.body[k].s;
        CHECK(vb_stack_world_observe(&b, st, i * h) == VB_BODY_OK, "observed row %d", i);
    }
    vb_stack_result ra, rb;
    vb_stack_world_finish(&a, &ra);
    vb_stack_world_finish(&b, &rb);
    CHECK(ra.drift_max > 0.0 && ra.drift_max == rb.drift_max && ra.speed_rms == rb.speed_rms &&
              ra.depth_max == rb.depth_max && ra.steps == rb.steps &&
              (ra.t_collapse == rb.t_collapse || (isnan(ra.t_collapse) && isnan(rb.t_collapse))),
          "pgs's states observed: its measures (drift %g %g, speed %g %g, depth %g %g)",
          ra.drift_max, rb.drift_max, ra.speed_rms, rb.speed_rms, ra.depth_max, rb.depth_max);
    /* the sunk stack, then a NaN */
    const double D = 1.0 / 1024.0;
    vb_stack_world_start(&b);
    for (int k = 0; k < 5; k++) {
        vb_stack_exact(&s, k, 0.0, &st[k]);
        st[k].x[2] -= (k + 1) * D;
    }
    for (int i = 1; i <= 3; i++)
        CHECK(vb_stack_world_observe(&b, st, i * h) == VB_BODY_OK, "sunk row %d", i);
    st[2].q[0] = (double)NAN;
    CHECK(vb_stack_world_observe(&b, st, 4 * h) == VB_BODY_DIVERGED, "a NaN: diverged");
    vb_stack_world_finish(&b, &rb);
    CHECK(rb.steps == 3 && rb.drift_max == 5 * D && rb.depth_max == D && rb.speed_rms == 0.0 &&
              isnan(rb.t_collapse) && rb.code == VB_BODY_DIVERGED,
          "sunk by k D: drift 5 D, depth D over the 3 rows before the NaN (steps %zu, drift %.17g, "
          "depth %.17g)",
          rb.steps, rb.drift_max, rb.depth_max);
    vb_stack_world_free(&a);
    vb_stack_world_free(&b);
}

/* soft's resting depth on a stack, in closed form (Box2D v3.1.1's soft
 * step, as solver_soft.c cites it).  At rest the warm start cancels
 * gravity and a point's solve adds nothing: 0 = -m_n massScale (0 +
 * biasRate s) - impulseScale lambda, so lambda = -m_n (massScale /
 * impulseScale) biasRate s = -m_n (h omega a1)(omega / a1) s = -m_n h
 * omega^2 s, the impulse of a sub-step h: a spring of stiffness k_c = m_n
 * omega^2 whatever the damping ratio and h (while the bias stays under
 * pushout).  A corner of a cube flat on a face: r = (+-a/2, +-a/2, -a/2),
 * |r x n|^2 = a^2/2, I = m a^2/6, so 1/m_n = 1/m + 3/m = 4/m for one box,
 * 4/m_k + 4/m_(k-1) for two boxes' (both bodies' inverse masses and
 * inertias).  Contact k (box k on k-1, 0 the ground) carries W_k = g
 * sum_{j>=k} m_j, W_k/4 a corner: s_k = -(W_k / 4) / k_c with omega = 2 pi
 * (2 hertz) on the ground (static: world.c:764-765, contact_solver.c:
 * 101-108) and 2 pi hertz between two boxes, hertz = min(30, 0.125 / h);
 * box k rests sum_{j <= k} s_j below its start.
 *
 * The same springs say when it cannot stand: the boxes above contact k
 * tilted together by theta about the contact's centre lower their weight
 * by W_k c_k theta^2 / 2 (c_k their centre of mass's height over the
 * contact) and load the four springs by k_c (a/2)^2 theta^2 / 2 each: for
 * W_k c_k > k_c a^2 the stack buckles there (a sufficient condition; a
 * tilt of the boxes against each other may come first). */
typedef struct soft_contact {
    double sink;   /* box k's rest below its start: sum_{j <= k} -s_j */
    double margin; /* min over the contacts up to k of k_c a^2 / (W c) */
} soft_contact;

static void soft_closed_form(const vb_stack *s, double dt, soft_contact out[])
{
    double hertz = fmin(30.0, 0.125 * 4.0 / dt), total = 0.0, margin = INFINITY;
    for (int k = 0; k < s->n; k++) {
        double W = 0.0, mc = 0.0;
        for (int j = k; j < s->n; j++) {
            W += vb_stack_mass(s, j) * s->g;
            mc += vb_stack_mass(s, j) * s->g * (j - k + 0.5) * s->size;
        }
        double inv_mn = 4.0 / vb_stack_mass(s, k) + (k ? 4.0 / vb_stack_mass(s, k - 1) : 0.0);
        double om = 2.0 * M_PI * (k ? hertz : 2.0 * hertz), kc = om * om / inv_mn;
        total += (W / 4.0) / kc;
        margin = fmin(margin, kc * s->size * s->size / mc);
        out[k] = (soft_contact){total, margin};
    }
}

static void test_stack_soft_rest_depth(void)
{
    char err[256];
    const vb_body_solver *soft = vb_body_solver_find("soft");
    const double ratios[] = {1.0, 2.0};
    const double hs[] = {1.0 / 60.0, 1.0 / 240.0};
    for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++)
        for (size_t j = 0; j < sizeof hs / sizeof hs[0]; j++) {
            vb_stack s;
            CHECK(stack_sized(&s, 5, ratios[i], 0.0, 0.1, err, sizeof err) == 0, "%s", err);
            double dt = hs[j];
            vb_stack_spec sp = {.stack = &s, .solver = soft, .dt = dt, .t_end = 5.0};
            sp.method = vb_rigid_method_find("rigid-explicit-gyro")->step;
            vb_body_solver_defaults(soft, &sp.params);
            vb_rigid_state fin[5] = {0};
            vb_stack_result r = {.code = -1};
            CHECK(vb_stack_run(&sp, &r, fin, err, sizeof err) == 0, "soft: %s", err);
            soft_contact cf[5];
            soft_closed_form(&s, dt, cf);
            char what[96];
            snprintf(what, sizeof what, "soft, ratio %g, %g Hz", ratios[i], 1.0 / dt);
            /* ratio 2: sinks 24 mm, well inside half an edge, but the
             * contact above the bottom box buckles (k_c a^2 = 59 N m
             * against W c = 82 N m): it falls */
            CHECK(cf[4].sink < 0.5 * s.size, "%s: the closed form sinks %g m", what, cf[4].sink);
            if (!check_fate(&r, !(cf[4].margin > 1.0), what, "buckles (k_c a^2 < W c)"))
                continue;
            for (int k = 0; k < 5; k++) {
                vb_rigid_state e;
                vb_stack_exact(&s, k, 0.0, &e);
                double off = hypot(fin[k].x[0] - e.x[0], fin[k].x[1] - e.x[1]);
                /* The first fall into the springs, solved corner after
                 * corner (Gauss-Seidel), turns the boxes a little, and
                 * friction keeps each where it came to rest: the stack
                 * leans, its boxes off their start sideways by up to
                 * ~2 mm (held here: under 5 % of the edge, still).  A
                 * pair's points move with the offset d between the two
                 * boxes, their effective masses by 2 d / a to first
                 * order (a corner's |r x n|^2, a^2/2, by a d), of both
                 * signs round the face: 1 % of the depth.  The mistakes
                 * it tells are factors: the ground's stiffness for a pair
                 * (4), one body's inverse mass for two (2). */
                CHECK(off < 0.05 * s.size, "%s, box %d: upright (%g m off)", what, k, off);
                CHECK(fabs((e.x[2] - fin[k].x[2]) - cf[k].sink) <= 0.01 * cf[k].sink,
                      "%s, box %d: rests %.17g below its start, the closed form %.17g", what, k,
                      e.x[2] - fin[k].x[2], cf[k].sink);
                /* and at rest: a spring of damping ratio zeta = 10 decays at
                 * omega / (2 zeta), 9.4 /s between two boxes: 5 s is 47
                 * of its time constants */
                CHECK(fabs(fin[k].v[0]) + fabs(fin[k].v[1]) + fabs(fin[k].v[2]) < 1e-6,
                      "%s, box %d: at rest (v %g %g %g)", what, k, fin[k].v[0], fin[k].v[1],
                      fin[k].v[2]);
            }
        }
}

/* xpbd's resting depth on a stack, in closed form (Müller et al. 2020 as
 * solver_xpbd.c cites it).  A contact of compliance alpha solved to
 * convergence satisfies eq. 4's c + alpha~ lambda = 0: a point rests at
 * d = alpha~ lambda = alpha lambda / h^2.  At rest a sub-step predicts
 * every box down by g h^2 and the corrections must lift each back: the
 * corners of contact k (box k on k-1, 0 the ground) carry lambda = (W_k
 * / 4) h^2 each, W_k = g sum_{j >= k} m_j, so d_k = alpha W_k / 4, the
 * compliance times the load, whatever h, and box k rests sum_{j <= k}
 * d_k below its start; 0 for alpha = 0 (the paper's rigid contact).
 * Held where the passes converge: 32 iterations a sub-step (alpha~ =
 * alpha / h^2 = 14.4 /kg at 60 Hz and 20 sub-steps, 58 at 120 Hz,
 * against the points' w <= 8 /kg: a pass shrinks the residual by about
 * w / (w + alpha~) <= 0.36, and 32 leave none), after 0.5 s (the
 * contact's spring, 1/alpha = 1e5 N/m a corner under a box of 1 kg,
 * rings at ~100 Hz, and the velocity pass takes its normal speed each
 * sub-step).  What is left is the boxes' wandering: xpbd's static
 * friction cannot hold a cube's corner at mu_s 0.5 (docs/contact.md,
 * "xpbd on a cube": it needs 0.849), so the boxes creep and turn at
 * about 1e-3 m/s, a box moving by ~1e-3 m/s times a sub-step (1/1200 s
 * at 60 Hz), 1e-6 m, within one: 1e-3 of the top box's depth
 * (compliance 1e-5 m/N: 0.12 to 0.37 mm), and 1e-6 m where alpha = 0.
 * The mistakes it tells are larger: a pair's correction that did not
 * push the lower box down would leave the boxes above off its contacts'
 * loads; a correction without the compliance rests at 0. */
static void test_stack_xpbd_rest_depth(void)
{
    char err[256];
    const vb_body_solver *xpbd = vb_body_solver_find("xpbd");
    const char *compliances[] = {"1e-5", "0"};
    const double hs[] = {1.0 / 60.0, 1.0 / 120.0};
    for (size_t i = 0; i < 2; i++)
        for (size_t j = 0; j < sizeof hs / sizeof hs[0]; j++) {
            vb_stack s;
            CHECK(stack_sized(&s, 5, 1.0, 0.0, 0.1, err, sizeof err) == 0, "%s", err);
            vb_stack_spec sp = {.stack = &s, .solver = xpbd, .dt = hs[j], .t_end = 0.5};
            sp.method = vb_rigid_method_find("rigid-explicit-gyro")->step;
            vb_body_solver_defaults(xpbd, &sp.params);
            CHECK(vb_body_solver_set(xpbd, &sp.params, "iterations", "32", err, sizeof err) == 0 &&
                      vb_body_solver_set(xpbd, &sp.params, "compliance", compliances[i], err,
                                         sizeof err) == 0,
                  "%s", err);
            vb_rigid_state fin[5] = {0};
            vb_stack_result r = {.code = -1};
            CHECK(vb_stack_run(&sp, &r, fin, err, sizeof err) == 0, "xpbd: %s", err);
            char what[96];
            snprintf(what, sizeof what, "xpbd, compliance %s, %g Hz", compliances[i],
                     1.0 / hs[j]);
            check_fate(&r, 0, what, NULL);
            double alpha = i == 0 ? 1e-5 : 0.0, sink = 0.0;
            for (int k = 0; k < 5; k++) {
                double W = 0.0;
                for (int q = k; q < 5; q++)
                    W += vb_stack_mass(&s, q) * s.g;
                sink += alpha * W / 4.0;
                vb_rigid_state e;
                vb_stack_exact(&s, k, 0.0, &e);
                double tol = alpha > 0.0 ? 1e-3 * sink : 1e-6;
                CHECK(fabs((e.x[2] - fin[k].x[2]) - sink) <= tol,
                      "%s, box %d: rests %.17g below its start, the closed form %.17g", what, k,
                      e.x[2] - fin[k].x[2], sink);
            }
        }
}

void suite_stack(void)
{
    RUN(test_stack_face);
    RUN(test_stack_shift_bound);
    RUN(test_stack_toi_stays_put);
    RUN(test_stack_no_solve_falls);
    RUN(test_stack_shifted_pair_stands);
    RUN(test_stack_pgs_defaults_stand);
    RUN(test_stack_turned_pair_stands);
    RUN(test_stack_substeps_are_steps);
    RUN(test_stack_regularized_rest_depth);
    RUN(test_stack_observed_states);
    RUN(test_stack_soft_rest_depth);
    RUN(test_stack_xpbd_rest_depth);
}
