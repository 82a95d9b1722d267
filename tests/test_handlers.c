/* test_handlers.c — the contact handlers (contact/handler.h) composed with
 * the table's velocity Verlet and symplectic Euler, each held to a closed
 * form derived in its comment and in docs/contact.md:
 *   toi + velocity Verlet is the exact bounce and the exact slide, to
 *   round-off; project at e = 1 raises each apex by the depth it let the
 *   ball sink; the slide under symplectic Euler stops where its sum says;
 *   the bounce count under a threshold is the first n with e^n v0 < vth;
 *   a wall is passed from v = (r + w/2)/dt without continuous detection,
 *   and never with toi. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounce.h"
#include "contact_metrics.h"
#include "slide.h"
#include "stepper.h"
#include "unit.h"

#define G 9.81

/* ---- a uniform force field and a method of the table as the step ------------ */

typedef struct {
    unsigned n; /* the components the method's arrays hold */
    double a[VB_CONTACT_MAX_DIM];
} field;

static void field_accel(const void *model, double t, const double *x, const double *v,
                        double *a)
{
    (void)t, (void)x, (void)v;
    const field *f = model;
    for (unsigned i = 0; i < f->n; i++)
        a[i] = f->a[i];
}

/* 1 to 3 components; the acceleration per component */
typedef struct {
    field fl;
    vb_force force;
    vb_contact_stepper st;
} rig;

static void rig_init(rig *r, const char *method, unsigned n, double a0, double a1)
{
    char err[256];
    r->fl = (field){n, {a0, a1, 0.0}};
    r->force = (vb_force){.accel = field_accel, .model = &r->fl, .n = n};
    if (vb_contact_stepper_init(&r->st, test_integrator(method), &r->force, NULL, 0.0, err,
                                sizeof err) != 0) {
        fprintf(stderr, "test bug: %s\n", err);
        exit(2);
    }
}

/* A floor y = 0 (d = 1: the normal (1)), restitution e, threshold vth. */
static vb_contact_geometry floor_1d(double e, double vth)
{
    vb_contact_geometry g;
    vb_contact_geometry_defaults(&g);
    g.restitution = e;
    g.threshold = vth;
    return g;
}

/* A run of n steps: its times, positions and velocities (d = 1) */
typedef struct {
    size_t n;
    double *t, *x, *v, *s, *u;
} run1;

static int run_1d(run1 *r, const vb_contact_handler *hd, const vb_contact_geometry *g, rig *rg,
                  double x0, double v0, double dt, size_t n)
{
    r->n = n + 1;
    r->t = malloc(5 * (n + 1) * sizeof *r->t);
    if (!r->t)
        exit(2);
    r->x = r->t + (n + 1), r->v = r->x + (n + 1), r->s = r->v + (n + 1), r->u = r->s + (n + 1);
    size_t done;
    int rc = vb_contact_run(hd, g, vb_contact_stepper_step, &rg->st, &x0, &v0, dt, n, r->t, r->x,
                            r->v, &done);
    vb_contact_normal_series(g, r->x, r->v, done + 1, r->s, r->u);
    r->n = done + 1;
    return rc;
}

static void run_free(run1 *r) { free(r->t); }

static const double DTS[] = {1.0 / 30.0, 1.0 / 60.0, 1.0 / 144.0};

/* ---- toi with velocity Verlet: the exact bounce ---------------------------- */

/* Velocity Verlet is exact on a parabola: a step of any length tau from
 * (y, v) under constant gravity lands on y + v tau - g tau^2/2, v - g tau.
 * toi splits the step at the root of that quadratic (the time of impact),
 * reflects the velocity times e there and goes on: in exact arithmetic
 * every sample is the exact bounce, and every flight's energy
 * y + v^2/(2g) is its apex e^(2n) h0.
 *
 * The round-off bound.  A velocity Verlet step rounds x and v a few times
 * (3 operations each, each within eps/2 of a value no larger than h0 and
 * v0): it moves the flight energy by at most |v| dv + g dx <= 2 eps v0^2 +
 * 2 eps g h0 = 6 eps g h0, the apex by 6 eps h0.  An impact adds the
 * residual of its root (|f| <= 64 eps times the scale of the step's
 * positions, <= 3 h0) and the step's round-off: 200 eps h0.  So after N
 * steps and n impacts the apex is within eps h0 (8 N + 256 n); the
 * position, whose flight times carry the same errors, within four times
 * that.  A handler that did not split the step would be off by the step's
 * drift, v0 dt ~ 0.07 m at 60 Hz: 10^12 times more. */
static void test_toi_verlet_keeps_every_apex(void)
{
    static const double es[] = {0.5, 0.8};
    double worst = 0.0;
    for (size_t ie = 0; ie < 2; ie++)
        for (size_t id = 0; id < 3; id++) {
            double e = es[ie], dt = DTS[id];
            vb_bounce b;
            char err[128];
            vb_bounce_init(&b, 1.0, e, G, 0.0, err, sizeof err);
            /* up to 90% of t_inf: the flights are still many steps long */
            size_t n = (size_t)(0.9 * b.t_rest / dt);
            rig rg;
            rig_init(&rg, "velocity-verlet", 1, -G, 0.0);
            vb_contact_geometry g = floor_1d(e, 0.0);
            run1 r;
            CHECK(run_1d(&r, &vb_contact_toi, &g, &rg, 1.0, 0.0, dt, n) == 0, "toi failed");
            for (size_t k = 0; k < r.n; k++) {
                double near = INFINITY;
                for (long j = 0; j < 400; j++)
                    near = fmin(near, fabs(r.t[k] - vb_bounce_impact_time(&b, j)));
                if (near < 1e-12) /* a sample on an impact: either flight is right */
                    continue;
                double y, v;
                long flight = vb_bounce_state(&b, r.t[k], &y, &v);
                double apex = vb_bounce_apex(&b, flight);
                double H = r.s[k] + r.u[k] * r.u[k] / (2.0 * G);
                double tol = DBL_EPSILON * (8.0 * (double)k + 256.0 * (double)flight);
                CHECK_ABS(H, apex, tol, "apex e^(2n) h0");
                CHECK_ABS(r.s[k], y, 4.0 * tol, "y(t_k)");
                worst = max_or_nan(worst, fabs(H - apex) / tol);
            }
            /* and the measures see it: every bounce's restitution e (the
             * energies' ratio, to 1e-12: a few hundred roundings) */
            vb_bounce_event ev[64];
            vb_bounce_measures m;
            vb_bounce_measure(r.t, r.s, r.u, r.n, G, ev, 64, &m);
            CHECK(m.bounces >= 3, "e %g dt %g: %zu bounces", e, dt, m.bounces);
            for (size_t i = 0; i < m.bounces && i < 64; i++)
                CHECK_ABS(ev[i].e, e, 1e-12, "measured restitution");
            CHECK(m.max_depth == 0.0, "toi let the ball sink %g", m.max_depth);
            run_free(&r);
            vb_contact_stepper_free(&rg.st);
        }
    unit_note("toi + velocity Verlet: the largest apex error is %.3g of its round-off bound",
              worst);
}

/* The bounce count under a threshold.  Impact k comes at e^k v0 (v0 =
 * sqrt(2 g h0)); the first k with e^k v0 < vth does not bounce.  By hand
 * (h0 = 1, g = 9.81, v0 = 4.4294):
 *   e = 0.5, vth = 1:   4.43 2.21 1.107 | 0.554        -> 3 bounces
 *   e = 0.7, vth = 0.5: ... 0.7^6 v0 = 0.521 | 0.7^7 v0 = 0.365 -> 7
 *   e = 0.9, vth = 2:   ... 0.9^7 v0 = 2.118 | 0.9^8 v0 = 1.906 -> 8
 * toi with velocity Verlet meets each impact at its exact speed (to
 * round-off, and every speed here is 1e-3 or more from vth), so it bounces
 * exactly that often, and comes to rest in the step that holds T_n: the
 * measured t_rest (the end of the first resting step) in [T_n, T_n + dt). */
static void test_toi_bounce_count_under_threshold(void)
{
    static const struct {
        double e, vth;
        long n;
    } cases[] = {{0.5, 1.0, 3}, {0.7, 0.5, 7}, {0.9, 2.0, 8}};
    for (size_t c = 0; c < 3; c++)
        for (size_t id = 0; id < 3; id++) {
            double dt = DTS[id];
            vb_bounce b;
            char err[128];
            vb_bounce_init(&b, 1.0, cases[c].e, G, cases[c].vth, err, sizeof err);
            CHECK(b.bounces == cases[c].n, "the exact count %ld, by hand %ld", b.bounces,
                  cases[c].n);
            rig rg;
            rig_init(&rg, "velocity-verlet", 1, -G, 0.0);
            vb_contact_geometry g = floor_1d(cases[c].e, cases[c].vth);
            run1 r;
            size_t n = (size_t)((b.t_rest + 1.0) / dt);
            CHECK(run_1d(&r, &vb_contact_toi, &g, &rg, 1.0, 0.0, dt, n) == 0, "toi failed");
            vb_bounce_measures m;
            vb_bounce_measure(r.t, r.s, r.u, r.n, G, NULL, 0, &m);
            CHECK(m.bounces == (size_t)cases[c].n, "e %g vth %g dt %g: %zu bounces, want %ld",
                  cases[c].e, cases[c].vth, dt, m.bounces, cases[c].n);
            CHECK(m.t_rest >= b.t_rest - 1e-12 && m.t_rest < b.t_rest + dt,
                  "rest measured at %.9g, exact %.9g, dt %g", m.t_rest, b.t_rest, dt);
            run_free(&r);
            vb_contact_stepper_free(&rg.st);
        }
}

/* ---- project at e = 1: the energy it gains --------------------------------- */

/* The derivation.  Under velocity Verlet a flight is exact.  project leaves
 * the ball on the floor at a sample time, moving up at w; it comes back
 * down through y = 0 after 2w/g, at speed w, and the first sample after
 * that, m = floor(2w/(g dt)) + 1 steps after it left, is delta = m dt -
 * 2w/g in (0, dt] past the crossing: there the ball is at depth
 *     p = w delta + g delta^2 / 2
 * moving down at w + g delta = g m dt - w.  project moves it out to y = 0
 * and reflects that speed (e = 1):
 *     w' = g m dt - w,     apex w'^2/(2g) = w^2/(2g) + p.
 * So each bounce raises the apex by the depth the step let the ball sink:
 * the energy gain per bounce is g p, 0 < p <= w dt + g dt^2/2, and with the
 * crossing's phase delta/dt uniform its mean is w dt/2 + g dt^2/6.
 *
 * The phases.  Dropped from rest at a sample time, the ball leaves the
 * first bounce at w = g m0 dt, a whole number of kicks: every later flight
 * lasts 2w/g = 2 m0 dt, a whole number of steps, and lands exactly on a
 * sample (delta = dt in exact arithmetic: p = w dt + g dt^2/2, the most;
 * with round-off, y = +-1 ulp there decides between that and p ~ 0).  So
 * the test throws the ball up at v_i = 0.3 g dt: it crosses y = 0 at
 * t_c = (v_i + sqrt(v_i^2 + 2 g h0)) / g, the first sample after it is
 * m0 = floor(t_c/dt) + 1, and it leaves at w_1 = g m0 dt - v_i; then
 * 2w/(g dt) is a whole number -0.6 or +0.6 in turn, and the phases are
 * 0.6 and 0.4, well inside (0, 1).
 * The test iterates w in long double and asks each of the first ten
 * flights' energies (u^2/2 + g y per unit mass, at the first sample of the
 * flight) to be w_n^2 / 2 to 1e-12 (round-off: a few hundred steps), and
 * the measured gain after ten bounces to be w_10^2 / (2 E_0) - 1, E_0 =
 * v_i^2/2 + g h0.  The phases are checked to be 1e-6 or more from 0 and 1
 * first, so the floor() above is the sample the run sees. */
static void test_project_gains_the_depth_it_let_sink(void)
{
    for (size_t id = 0; id < 3; id++) {
        double dt = DTS[id], h0 = 1.0, vi = 0.3 * G * dt;
        long double w[12];
        long double tc = ((long double)vi + sqrtl((long double)vi * vi + 2.0L * G * h0)) / G;
        long double m0 = floorl(tc / dt) + 1.0L;
        long double phase = m0 - tc / dt;
        CHECK(phase > 1e-6 && phase < 1.0 - 1e-6, "dt %g: first phase %Lg", dt, phase);
        w[1] = G * m0 * dt - vi;
        for (int n = 1; n < 11; n++) {
            long double q = 2.0L * w[n] / (G * dt), m = floorl(q) + 1.0L;
            CHECK(m - q > 1e-6 && m - q < 1.0 - 1e-6, "dt %g flight %d: phase %Lg", dt, n, m - q);
            w[n + 1] = G * m * dt - w[n];
        }
        rig rg;
        rig_init(&rg, "velocity-verlet", 1, -G, 0.0);
        vb_contact_geometry g = floor_1d(1.0, 0.0);
        run1 r;
        size_t steps = (size_t)((double)w[11] / G * 2.0 * 12.0 / dt);
        CHECK(run_1d(&r, &vb_contact_project, &g, &rg, h0, vi, dt, steps) == 0, "failed");
        vb_bounce_event ev[16];
        vb_bounce_measures m;
        vb_bounce_measure(r.t, r.s, r.u, r.n, G, ev, 16, &m);
        CHECK(m.bounces >= 10, "dt %g: %zu bounces", dt, m.bounces);
        long double E0 = 0.5L * vi * vi + (long double)G * h0;
        CHECK_REL(m.energy0, (double)E0, 1e-15, "E_0");
        for (size_t i = 0; i < 10 && i < m.bounces; i++)
            CHECK_REL(ev[i].after, (double)(w[i + 1] * w[i + 1] / 2.0L), 1e-12,
                      "flight energy after bounce i: w^2/2");
        if (m.bounces >= 10) {
            /* E_before(1) is E_0: a velocity Verlet flight keeps it */
            double gain = vb_bounce_energy_gain(ev, m.bounces, 10);
            double want = (double)(w[10] * w[10] / (2.0L * E0) - 1.0L);
            CHECK_ABS(gain, want, 1e-12, "energy gain after 10 bounces");
            CHECK(gain > 0.0, "project at e = 1 must gain energy: %g", gain);
            unit_note("project + velocity Verlet, e = 1, dt = 1/%.0f: +%.4f%% energy after "
                      "10 bounces (derived %.4f%%)",
                      1.0 / dt, 100.0 * gain, 100.0 * want);
        }
        run_free(&r);
        vb_contact_stepper_free(&rg.st);
    }
}

/* ---- impulse at e = 1: project's gain, a step later ------------------------- */

/* The derivation.  impulse (speculative distance 0) sees the floor only
 * from a step that starts touching or overlapping it.  A velocity Verlet
 * flight that left the floor at a sample time moving up at w crosses y = 0
 * again after 2w/g, and the first sample after it, m = floor(2w/(g dt)) + 1
 * steps after the ball left, is delta = m dt - 2w/g past the crossing: the
 * first state the handler sees, at depth p = w delta + g delta^2/2 moving
 * down at u0 = w + g delta = g m dt - w (as project's, which resolves it
 * within the step that ends there).  The next step is impulse's: its
 * normal impulse J = -s1/h lands the step's end on the face (y = 0), the
 * relax keeps no upward velocity, and restitution raises the normal
 * velocity to e u0 = u0, the speed BEFORE the kick.  So the ball leaves
 * the face one sample later than project's, at
 *     w' = g m dt - w,
 * the very recursion of project (test above): the flight energy before the
 * contact, at the overlapping sample, u0^2/2 - g p = w^2/2 (the flight
 * keeps it), after it w'^2/2 = w^2/2 + g p.  The energy gained per bounce
 * is g p, the depth the step let the ball sink, as project's; what differs
 * is that the contact's state is the overlapping one: the largest
 * penetration of the run is max p_n (project moves the ball out before the
 * state is recorded: none), and each flight starts one step later than
 * project's, so bounce i (0-based) comes i + 1 steps after project's.
 * The test throws the ball up at 0.3 g dt as project's test does (the same
 * phases, away from 0 and 1), iterates w, p in long double, and asks each
 * of the first ten flights' energies to be w_n^2/2 to 1e-12 (a few hundred
 * steps of round-off), the gain after ten bounces to be w_10^2/(2 E_0) - 1
 * to 1e-12, the largest depth at least max p_n (the run goes on past the
 * tenth flight, whose depths only grow with w), and bounce i's contact step
 * to end (i + 1) dt after project's (to 1e-9 of a step: the times are k dt). */
static void test_impulse_gains_like_project_a_step_later(void)
{
    for (size_t id = 0; id < 3; id++) {
        double dt = DTS[id], h0 = 1.0, vi = 0.3 * G * dt;
        long double w[12], depth = 0.0L;
        long double tc = ((long double)vi + sqrtl((long double)vi * vi + 2.0L * G * h0)) / G;
        long double m0 = floorl(tc / dt) + 1.0L, d0 = m0 * dt - tc;
        long double vc = sqrtl((long double)vi * vi + 2.0L * G * h0); /* speed at y = 0 */
        CHECK(d0 / dt > 1e-6 && d0 / dt < 1.0 - 1e-6, "dt %g: first phase", dt);
        depth = vc * d0 + 0.5L * G * d0 * d0;
        w[1] = G * m0 * dt - vi;
        for (int n = 1; n < 11; n++) {
            long double q = 2.0L * w[n] / (G * dt), m = floorl(q) + 1.0L;
            CHECK(m - q > 1e-6 && m - q < 1.0 - 1e-6, "dt %g flight %d: phase %Lg", dt, n, m - q);
            long double delta = m * dt - 2.0L * w[n] / G;
            long double p = w[n] * delta + 0.5L * G * delta * delta;
            if (p > depth || isnan(p)) /* a NaN kept (max_or_nan is a double's) */
                depth = p;
            w[n + 1] = G * m * dt - w[n];
        }
        vb_contact_geometry g = floor_1d(1.0, 0.0);
        size_t steps = (size_t)((double)w[11] / G * 2.0 * 12.0 / dt);
        rig rp, ri;
        rig_init(&rp, "velocity-verlet", 1, -G, 0.0);
        rig_init(&ri, "velocity-verlet", 1, -G, 0.0);
        run1 rpj, rim;
        CHECK(run_1d(&rpj, &vb_contact_project, &g, &rp, h0, vi, dt, steps) == 0, "project");
        CHECK(run_1d(&rim, &vb_contact_impulse, &g, &ri, h0, vi, dt, steps) == 0, "impulse");
        vb_bounce_event ep[16], ei[16];
        vb_bounce_measures mp, mi;
        vb_bounce_measure(rpj.t, rpj.s, rpj.u, rpj.n, G, ep, 16, &mp);
        vb_bounce_measure(rim.t, rim.s, rim.u, rim.n, G, ei, 16, &mi);
        CHECK(mi.bounces >= 10, "dt %g: impulse made %zu bounces", dt, mi.bounces);
        long double E0 = 0.5L * vi * vi + (long double)G * h0;
        for (size_t i = 0; i < 10 && i < mi.bounces; i++) {
            CHECK_REL(ei[i].after, (double)(w[i + 1] * w[i + 1] / 2.0L), 1e-12,
                      "impulse: flight energy after bounce i: w^2/2");
            if (i < mp.bounces)
                CHECK_ABS(ei[i].t - ep[i].t, (double)(i + 1) * dt, 1e-9 * dt,
                          "impulse's bounce i, i + 1 steps after project's");
        }
        if (mi.bounces >= 10) {
            double gain = vb_bounce_energy_gain(ei, mi.bounces, 10);
            double want = (double)(w[10] * w[10] / (2.0L * E0) - 1.0L);
            CHECK_ABS(gain, want, 1e-12, "impulse: energy gain after 10 bounces");
            CHECK(gain > 0.0, "impulse at e = 1 (no speculative distance) must gain: %g", gain);
            unit_note("impulse + velocity Verlet, e = 1, dt = 1/%.0f: +%.4f%% energy after 10 "
                      "bounces (derived %.4f%%), deepest %.4g m (derived %.4g)",
                      1.0 / dt, 100.0 * gain, 100.0 * want, mi.max_depth, (double)depth);
        }
        /* the run goes past the 11th flight: its deepest is among p_0 .. p_10
         * and the later ones, which only grow with w */
        CHECK(mi.max_depth >= (double)depth * (1.0 - 1e-12),
              "impulse: deepest %g, derived at least %Lg", mi.max_depth, depth);
        CHECK(mp.max_depth == 0.0, "project moves the ball out before the state: %g",
              mp.max_depth);
        run_free(&rpj);
        run_free(&rim);
        vb_contact_stepper_free(&rp.st);
        vb_contact_stepper_free(&ri.st);
    }
}

/* ---- the slide under symplectic Euler: its sums ---------------------------- */

/* A point on the plane y = 0 in the plane's frame (x down the slope),
 * gravity (g sin alpha, -g cos alpha), mu, v0 > 0 down the slope, tan alpha
 * < mu, so it decelerates by a = g (mu cos alpha - sin alpha).
 *
 * impulse + symplectic Euler is Box2D's step: the kick gives the normal
 * velocity -g cos alpha dt, the contact's impulse cancels it (J = g cos
 * alpha dt), friction removes at most mu J from the kicked tangential
 * velocity v_k + g sin alpha dt, and the drift moves with the result:
 *     v_(k+1) = v_k - a dt  while v_k > a dt,  then 0 (and 0 after);
 *     x_(k+1) = x_k + v_(k+1) dt.
 * With K = the largest k with v0 - k a dt > 0 (K = ceil(q) - 1, q = v0 /
 * (a dt) not an integer), it stops at sample K + 1 at
 *     x_stop = dt sum_(k=1..K) (v0 - k a dt) = dt (K v0 - a dt K (K+1)/2),
 * while the exact one is v0^2 / (2a): for integer q the difference is
 * exactly -v0 dt / 2, first order.  Its velocities are the exact line
 * v0 - a t at every sample, so the measured t_stop (extrapolated from the
 * last two) is v0 / a.
 *
 * project + symplectic Euler drifts before it resolves: x_(k+1) = x_k +
 * (v_k + g sin alpha dt) dt, then the same velocities.  On the flat it
 * stops at dt ((K+1) v0 - a dt K (K+1)/2), +v0 dt/2 from the exact for
 * integer q.  On an incline it never stays: each step the kick moves it
 * g sin alpha dt^2 down the slope before friction stops the velocity again.
 *
 * Tolerances: 1e-12 relative: K <= 300 steps of round-off. */
static void slide_run(const vb_contact_handler *hd, const char *method, double v0, double mu,
                      double alpha, double dt, size_t steps, double **t, double **x, double **v)
{
    rig rg;
    rig_init(&rg, method, 2, G * sin(alpha), -G * cos(alpha));
    vb_contact_geometry g;
    vb_contact_geometry_defaults(&g);
    g.dim = 2;
    g.normal[0] = 0.0;
    g.normal[1] = 1.0;
    g.restitution = 0.0;
    g.friction = mu;
    double *buf = malloc(5 * (steps + 1) * sizeof *buf);
    if (!buf)
        exit(2);
    double *T = buf, *X = T + (steps + 1), *V = X + 2 * (steps + 1);
    double x0[2] = {0.0, 0.0}, vel0[2] = {v0, 0.0};
    size_t done;
    CHECK(vb_contact_run(hd, &g, vb_contact_stepper_step, &rg.st, x0, vel0, dt, steps, T, X, V,
                         &done) == 0,
          "%s + %s failed", hd->name, method);
    /* along the slope; on the plane: each handler puts the block back by
     * subtracting its separation y, which leaves exactly 0 */
    for (size_t k = 0; k <= steps; k++) {
        CHECK(X[2 * k + 1] == 0.0, "%s: off the plane by %g", hd->name, X[2 * k + 1]);
        X[k] = X[2 * k];
        V[k] = V[2 * k];
    }
    vb_contact_stepper_free(&rg.st);
    *t = T, *x = X, *v = V;
}

static void test_slide_symplectic_euler_sums(void)
{
    static const struct {
        double v0, mu, alpha_deg;
    } cases[] = {{3.0, 0.3, 0.0}, {2.0, 0.5, 20.0}, {1.0, 0.8, 35.0}};
    for (size_t c = 0; c < 3; c++)
        for (size_t id = 0; id < 3; id++) {
            double dt = DTS[id], alpha = cases[c].alpha_deg * M_PI / 180.0;
            double a = G * (cases[c].mu * cos(alpha) - sin(alpha)), v0 = cases[c].v0;
            long double q = (long double)v0 / ((long double)a * dt);
            CHECK(q - floorl(q) > 1e-9 && ceill(q) - q > 1e-9, "q = %Lg is an integer", q);
            double K = (double)(ceill(q) - 1.0L);
            double want_imp = dt * (K * v0 - a * dt * K * (K + 1.0) / 2.0);
            size_t steps = (size_t)K + 20;
            double *t, *x, *v;
            vb_slide_measures m;

            slide_run(&vb_contact_impulse, "euler-semi", v0, cases[c].mu, alpha, dt, steps, &t, &x,
                      &v);
            vb_slide_measure(t, x, v, steps + 1, &m);
            CHECK(m.stopped && m.stays && m.k_stop == (size_t)K + 1,
                  "impulse: stopped %d stays %d at sample %zu, want %.0f", m.stopped, m.stays,
                  m.k_stop, K + 1);
            CHECK_REL(m.x_stop, want_imp, 1e-12, "impulse + euler-semi stop distance: its sum");
            CHECK_REL(m.t_stop, v0 / a, 1e-10, "impulse + euler-semi: t_stop = v0 / a");
            free(t);

            slide_run(&vb_contact_project, "euler-semi", v0, cases[c].mu, alpha, dt, steps, &t, &x,
                      &v);
            vb_slide_measure(t, x, v, steps + 1, &m);
            double creep = G * sin(alpha) * dt * dt;
            double want_proj = dt * ((K + 1.0) * v0 - a * dt * K * (K + 1.0) / 2.0) +
                               (K + 1.0) * creep;
            CHECK(m.stopped && m.k_stop == (size_t)K + 1, "project: stops at sample %zu, want %.0f",
                  m.k_stop, K + 1);
            CHECK_REL(m.x_stop, want_proj, 1e-12, "project + euler-semi stop distance: its sum");
            /* after the stop: still on the flat, creeping g sin alpha dt^2 a
             * step on an incline */
            CHECK_ABS(x[steps] - m.x_stop, (double)(steps - (size_t)K - 1) * creep,
                      1e-12 * (fabs(m.x_stop) + 1.0), "project's creep after the stop");
            free(t);
        }
}

/* toi + velocity Verlet: the sliding block sees gravity and friction as one
 * constant force (half the friction's kick before the step, half after:
 * velocity Verlet on both), which velocity Verlet integrates exactly, and
 * the moment it sticks is located in its step: it stops at v0^2/(2a) at
 * v0/a, to round-off (1e-12 relative), and stays. */
static void test_toi_verlet_slide_exact(void)
{
    static const struct {
        double v0, mu, alpha_deg;
    } cases[] = {{3.0, 0.3, 0.0}, {2.0, 0.5, 20.0}};
    for (size_t c = 0; c < 2; c++)
        for (size_t id = 0; id < 3; id++) {
            double dt = DTS[id], alpha = cases[c].alpha_deg * M_PI / 180.0;
            double a = G * (cases[c].mu * cos(alpha) - sin(alpha)), v0 = cases[c].v0;
            size_t steps = (size_t)(v0 / a / dt) + 20;
            double *t, *x, *v;
            slide_run(&vb_contact_toi, "velocity-verlet", v0, cases[c].mu, alpha, dt, steps, &t,
                      &x, &v);
            vb_slide_measures m;
            vb_slide_measure(t, x, v, steps + 1, &m);
            CHECK(m.stopped && m.stays, "toi: stopped %d stays %d", m.stopped, m.stays);
            CHECK_REL(m.x_stop, v0 * v0 / (2.0 * a), 1e-12, "toi + verlet: x_stop = v0^2/(2a)");
            /* the samples before the stop are the exact parabola, so the
             * extrapolated zero of v is v0 / a */
            CHECK_REL(m.t_stop, v0 / a, 1e-10, "toi + verlet: t_stop = v0/a");
            free(t);
        }
}

/* ---- the tunnel ------------------------------------------------------------ */

/* A ball of radius r at speed v towards a slab of thickness w (d = 1, no
 * force), started at the handler's worst phase (contact_metrics.h): its
 * surface at the largest separation the handler's step leaves unchecked,
 * about 0 for project (it checks the step's end) and the speculative
 * distance for impulse.  One step carries the centre v dt on, to depth
 * r + spec - v dt relative to the front face.  Both hold the ball to the
 * nearest face (geometry.h): in front of the mid-plane, depth > -w/2, it
 * is sent back; past it, pushed out through the back.  So it passes iff
 *     v dt > r + w/2 + spec,     v_pass = (r + w/2 + spec) / dt,
 * below the bound (w + 2r)/dt above which a step can jump the wall without
 * ever overlapping it: a handler that resolves overlap through the nearest
 * face lets it through at less than half that speed.  toi sweeps the step
 * against the front face's plane: it never passes.  The bisection stops at
 * 1e-12 of the speed; 1e-9 leaves room for the depth's round-off. */
static void test_tunnel_passing_speed(void)
{
    const double r = 0.1, w = 0.05;
    static const char *const methods[] = {"velocity-verlet", "euler-semi"};
    for (size_t im = 0; im < 2; im++)
        for (size_t id = 0; id < 3; id++) {
            double dt = DTS[id];
            rig rg;
            rig_init(&rg, methods[im], 1, 0.0, 0.0);
            vb_contact_geometry g = floor_1d(1.0, 0.0);
            g.radius = r;
            g.thickness = w;
            double bound = (w + 2.0 * r) / dt;
            double vp = vb_tunnel_pass_speed(&vb_contact_project, &g, vb_contact_stepper_step,
                                             &rg.st, dt, 10.0 * bound);
            CHECK_REL(vp, (r + w / 2.0) / dt, 1e-9, "project: v_pass = (r + w/2)/dt");
            CHECK(vp < bound, "project passes at %g, not below (w + 2r)/dt = %g", vp, bound);
            double vi = vb_tunnel_pass_speed(&vb_contact_impulse, &g, vb_contact_stepper_step,
                                             &rg.st, dt, 10.0 * bound);
            CHECK_REL(vi, (r + w / 2.0) / dt, 1e-9, "impulse: v_pass = (r + w/2)/dt");
            g.speculative = 0.02; /* Box2D v3's 4 linear slops */
            vi = vb_tunnel_pass_speed(&vb_contact_impulse, &g, vb_contact_stepper_step, &rg.st,
                                      dt, 10.0 * bound);
            CHECK_REL(vi, (r + w / 2.0 + 0.02) / dt, 1e-9,
                      "impulse, speculative 0.02: v_pass = (r + w/2 + 0.02)/dt");
            g.speculative = 0.0;
            double vt = vb_tunnel_pass_speed(&vb_contact_toi, &g, vb_contact_stepper_step, &rg.st,
                                             dt, 1000.0 * bound);
            CHECK(isinf(vt), "toi passes at %g", vt);
            /* and what it does instead: bounces back at e v */
            CHECK(vb_tunnel_passes(&vb_contact_toi, &g, vb_contact_stepper_step, &rg.st,
                                   1000.0 * bound, dt) == 0,
                  "toi lets a ball through at 1000 (w+2r)/dt");
            vb_contact_stepper_free(&rg.st);
        }
}

/* An engine's passing speed is a scan of black-box runs
 * (vb_tunnel_pass_speed_scan, contact_metrics.h), here runs by rule:
 * - a ball that passes at every speed (an engine that ignores the wall):
 *   the first grid's first speed 0.01 (w + 2r)/dt passes, so each next
 *   grid starts at half of it; after the three grids the lowest speed
 *   tried, 0.01 / 4 of the bound, exactly (halving and pow(x, 0) = 1 are
 *   exact), is only an upper bound: *lowest 1;
 * - one that passes so from a single phase (phi = 0.5) and never from the
 *   five others: the same, one phase is enough;
 * - one that passes above v* = 0.37 of the bound: a speed that did not
 *   pass lies below the answer (*lowest 0), which is above v* by at most
 *   the last grid's spacing, about 1e-4 of it (the geometric grid's ratio
 *   10^(4/47) = 1.22, then twice a linear grid of 47 intervals: 0.22 / 47^2
 *   = 1e-4; 2e-4 allows for the ratio);
 * - one that never passes: inf, *lowest 0; one whose run fails: NaN. */
typedef struct {
    int rule; /* 0 every speed, 1 every speed from phi = 0.5, 2 above v*, 3 none, 4 fails */
    double r, dt, v_star;
} scan_rule;

static int scan_try(void *ctx, double v, double d, unsigned long steps)
{
    const scan_rule *s = ctx;
    (void)steps;
    double phi = (d - s->r) / (v * s->dt);
    switch (s->rule) {
    case 0:
        return 1;
    case 1:
        return fabs(phi - 0.5) < 1e-9;
    case 2:
        return v > s->v_star;
    case 3:
        return 0;
    default:
        return -1;
    }
}

static void test_tunnel_scan_upper_bound(void)
{
    const double r = 0.1, w = 0.05, dt = 1.0 / 60.0, bound = (w + 2.0 * r) / dt;
    for (int rule = 0; rule <= 4; rule++) {
        scan_rule s = {rule, r, dt, 0.37 * bound};
        int lowest = -1;
        double v = vb_tunnel_pass_speed_scan(scan_try, &s, r, w, dt, &lowest);
        if (rule <= 1) {
            CHECK_REL(v, 0.0025 * bound, 1e-15, "every speed passes: the lowest speed tried");
            CHECK(lowest == 1, "rule %d: every speed tried passed, lowest %d", rule, lowest);
        } else if (rule == 2) {
            CHECK(v > s.v_star && v <= s.v_star * (1.0 + 2e-4),
                  "passes above v* = %.17g: found %.17g", s.v_star, v);
            CHECK(lowest == 0, "a measured passing speed: lowest %d", lowest);
        } else if (rule == 3) {
            CHECK(isinf(v) && lowest == 0, "never passes: %g, lowest %d", v, lowest);
        } else {
            CHECK(isnan(v), "a failed run: NaN, got %g", v);
        }
    }
}

/* ---- rest, and failures ---------------------------------------------------- */

/* A ball at rest on the floor under gravity, vth = 1 m/s > g dt: each
 * handler keeps it there exactly, y = 0 and v = 0 at every sample.  By
 * hand: the step kicks it to -g dt and sinks it (g dt^2 or g dt^2/2);
 * project moves it out and, the approach g dt being below vth, sets the
 * normal velocity to 0; impulse lands it on the face and relaxes the
 * normal velocity to max(-g dt, 0) = 0; toi holds it on the face. */
static void test_handlers_keep_a_resting_ball_still(void)
{
    static const char *const methods[] = {"velocity-verlet", "euler-semi"};
    size_t nh;
    const vb_contact_handler *const *hs = vb_contact_handlers(&nh);
    CHECK(nh == 3, "%zu handlers", nh);
    for (size_t ih = 0; ih < nh; ih++)
        for (size_t im = 0; im < 2; im++) {
            rig rg;
            rig_init(&rg, methods[im], 1, -G, 0.0);
            vb_contact_geometry g = floor_1d(0.5, 1.0);
            run1 r;
            CHECK(run_1d(&r, hs[ih], &g, &rg, 0.0, 0.0, 1.0 / 30.0, 200) == 0, "failed");
            int still = 1;
            for (size_t k = 0; k < r.n; k++)
                still &= r.x[k] == 0.0 && r.v[k] == 0.0;
            CHECK(still, "%s + %s: the resting ball moved", hs[ih]->name, methods[im]);
            run_free(&r);
            vb_contact_stepper_free(&rg.st);
        }
    CHECK(vb_contact_handler_find("toi") == &vb_contact_toi && !vb_contact_handler_find("bounce"),
          "find by name");
}

static int failing_step(void *ctx, double *x, double *v, double t, double h)
{
    (void)ctx, (void)x, (void)v, (void)t, (void)h;
    return 1;
}

static int nan_step(void *ctx, double *x, double *v, double t, double h)
{
    (void)ctx, (void)t, (void)h;
    x[0] = -NAN;
    v[0] = -1.0;
    return 0;
}

/* A step that fails, or that returns NaN, ends every handler's step with
 * VB_CONTACT_STEP_FAILED, and a run with the steps made so far: never a
 * silent NaN in the states. */
static void test_handlers_report_a_failed_step(void)
{
    size_t nh;
    const vb_contact_handler *const *hs = vb_contact_handlers(&nh);
    vb_contact_geometry g = floor_1d(1.0, 0.0);
    for (size_t ih = 0; ih < nh; ih++) {
        double x = 0.0, v = -1.0; /* touching, approaching: every handler steps */
        CHECK(hs[ih]->step(&g, failing_step, NULL, &x, &v, 0.0, 0.1) == VB_CONTACT_STEP_FAILED,
              "%s: a failed step not reported", hs[ih]->name);
        x = 1.0, v = -1.0;
        CHECK(hs[ih]->step(&g, nan_step, NULL, &x, &v, 0.0, 0.1) == VB_CONTACT_STEP_FAILED,
              "%s: a NaN not reported", hs[ih]->name);
        double t[3], xs[3], vs[3], x0 = 1.0, v0 = 0.0;
        size_t done = 99;
        CHECK(vb_contact_run(hs[ih], &g, failing_step, NULL, &x0, &v0, 0.1, 2, t, xs, vs,
                             &done) == VB_CONTACT_STEP_FAILED &&
                  done == 0,
              "%s: run after a failed first step: done %zu", hs[ih]->name, done);
    }
}

void suite_contact_handlers(void)
{
    RUN(test_toi_verlet_keeps_every_apex);
    RUN(test_toi_bounce_count_under_threshold);
    RUN(test_project_gains_the_depth_it_let_sink);
    RUN(test_impulse_gains_like_project_a_step_later);
    RUN(test_slide_symplectic_euler_sums);
    RUN(test_toi_verlet_slide_exact);
    RUN(test_tunnel_passing_speed);
    RUN(test_tunnel_scan_upper_bound);
    RUN(test_handlers_keep_a_resting_ball_still);
    RUN(test_handlers_report_a_failed_step);
}
