/* test_contact.c — contact/ without handlers: the wall's geometry, the
 * exact bounce, slide and tunnel against independent computations and
 * hand values, and the measures on states sampled from the exact
 * solutions, whose answers are known (docs/contact.md). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bounce.h"
#include "contact_metrics.h"
#include "geometry.h"
#include "slide.h"
#include "stepper.h"
#include "tunnel.h"
#include "unit.h"

/* ---- the geometry ---------------------------------------------------------- */

/* the defaults with field i spoilt; its name into *field */
static vb_contact_geometry spoilt(int i, const char **field)
{
    vb_contact_geometry g;
    vb_contact_geometry_defaults(&g);
    switch (i) {
    case 0: *field = "dim"; g.dim = 4; break;
    /* cos 30 deg to 6 digits: 1e-7 short of unit */
    case 1: *field = "normal"; g.normal[0] = 0.866025; break;
    case 2: *field = "normal"; g.normal[0] = NAN; break;
    case 3: *field = "offset"; g.offset = INFINITY; break;
    case 4: *field = "thickness"; g.thickness = 0.0; break;
    case 5: *field = "radius"; g.radius = -0.1; break;
    case 6: *field = "restitution"; g.restitution = 1.5; break;
    case 7: *field = "threshold"; g.threshold = -1.0; break;
    case 8: *field = "friction"; g.friction = NAN; break;
    default: *field = "speculative"; g.speculative = -0.01; break;
    }
    return g;
}

static void test_contact_geometry_refuses_bad_fields(void)
{
    char err[256];
    for (int i = 0; i < 10; i++) {
        const char *field;
        vb_contact_geometry g = spoilt(i, &field);
        err[0] = '\0';
        int rc = vb_contact_geometry_check(&g, err, sizeof err);
        CHECK(rc == -1 && strncmp(err, field, strlen(field)) == 0, "a bad %s: rc %d, message '%s'",
              field, rc, err);
    }
    vb_contact_geometry g;
    vb_contact_geometry_defaults(&g);
    CHECK(vb_contact_geometry_check(&g, err, sizeof err) == 0, "the defaults refused: %s", err);
    /* a unit normal typed to 17 digits passes */
    g.dim = 2;
    g.normal[0] = 0.8660254037844386;
    g.normal[1] = 0.5;
    CHECK(vb_contact_geometry_check(&g, err, sizeof err) == 0, "cos/sin 30 deg refused: %s", err);
}

/* A slab 0.05 thick whose front face is y = 1 (normal (0, 1)), a ball of
 * radius 0.1: by hand, a centre at y = 1.3 is 0.2 clear of the front; at
 * y = 0.99 (in the front half) it overlaps the front by 0.11; at y = 0.97
 * (past the mid-plane 0.975) it is held to the back face y = 0.95 with
 * normal (0, -1) and overlaps it by 0.08. */
static void test_contact_nearest_face_of_a_slab(void)
{
    vb_contact_geometry g;
    vb_contact_geometry_defaults(&g);
    g.dim = 2;
    g.normal[0] = 0.0;
    g.normal[1] = 1.0;
    g.offset = 1.0;
    g.thickness = 0.05;
    g.radius = 0.1;
    static const struct {
        double y, s, ny;
    } cases[] = {{1.3, 0.2, 1.0}, {0.99, -0.11, 1.0}, {0.97, -0.12, -1.0}, {0.8, 0.05, -1.0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double x[2] = {7.0, cases[i].y};
        vb_contact_face f;
        vb_contact_nearest_face(&g, x, &f);
        /* 4 ulps of the coordinates (1): the subtractions' round-off */
        CHECK_ABS(f.separation, cases[i].s, 4 * DBL_EPSILON, "separation");
        CHECK(f.normal[0] == 0.0 && f.normal[1] == cases[i].ny, "y %g: normal (%g, %g)",
              cases[i].y, f.normal[0], f.normal[1]);
        CHECK_ABS(vb_contact_face_separation(&g, &f, x), cases[i].s, 4 * DBL_EPSILON,
                  "separation from the face's plane");
    }
}

/* ---- the exact bounce ------------------------------------------------------ */

/* The flights summed one by one in long double, the way the closed form
 * T_k = t0 + 2 t0 e (1 - e^k) / (1 - e) was derived: impact k at speed
 * e^k v0, flight k + 1 lasting 2 e^(k+1) v0 / g.  Returns the state at t. */
static void summed_flights(double h0, double e, double g, double vth, double t, double *y,
                           double *v)
{
    long double v0 = sqrtl(2.0L * g * h0), T = v0 / g, u = v0;
    if (t < T) {
        *y = (double)(h0 - 0.5L * g * (long double)t * t);
        *v = (double)(-(long double)g * t);
        return;
    }
    for (int k = 0; k < 100000; k++) {
        /* impact k at T with speed u */
        if (e == 0.0 || u < vth || u == 0.0)
            break;
        long double w = u * e, end = T + 2.0L * w / g;
        if (t < end) {
            long double tau = t - T;
            *y = (double)(tau * (w - 0.5L * g * tau));
            *v = (double)(w - g * tau);
            return;
        }
        T = end;
        u = w;
    }
    *y = 0.0;
    *v = 0.0;
}

/* The closed form against the summed flights at 400 times across each
 * case, skipping the times within 1e-9 s of an impact (where a round-off
 * in T_k may put t in the neighbouring flight: the velocity jumps there).
 * Tolerance 1e-12 h0 and 1e-12 v0: the two differ by the round-off of k
 * terms summed (k < 100, each eps t0) times a speed, 1e-14 at most. */
static void test_bounce_exact_against_summed_flights(void)
{
    static const struct {
        double h0, e, g, vth;
    } cases[] = {{1.0, 0.5, 9.81, 1.0}, {1.0, 0.5, 9.81, 0.0}, {2.5, 0.8, 9.81, 0.3},
                 {1.0, 0.9, 1.62, 0.0}, {1.0, 1.0, 9.81, 0.0}, {1.0, 0.0, 9.81, 0.0},
                 {0.3, 0.95, 9.81, 2.0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        vb_bounce b;
        char err[128];
        CHECK(vb_bounce_init(&b, cases[c].h0, cases[c].e, cases[c].g, cases[c].vth, err,
                             sizeof err) == 0,
              "refused: %s", err);
        double span = isfinite(b.t_rest) ? 1.3 * b.t_rest : 12.0 * b.t0;
        for (int i = 0; i <= 400; i++) {
            double t = span * i / 400.0, near = INFINITY;
            for (long k = 0; k < 200; k++)
                near = fmin(near, fabs(t - vb_bounce_impact_time(&b, k)));
            if (near < 1e-9)
                continue;
            double y, v, ys, vs;
            vb_bounce_state(&b, t, &y, &v);
            summed_flights(cases[c].h0, cases[c].e, cases[c].g, cases[c].vth, t, &ys, &vs);
            CHECK_ABS(y, ys, 1e-12 * cases[c].h0, "y(t)");
            CHECK_ABS(v, vs, 1e-12 * b.v0, "v(t)");
        }
    }
}

/* By hand: h0 = 1, g = 9.81, v0 = sqrt(2 g) = 4.4294: the impacts come at
 * 4.429, 2.215, 1.107, 0.554 m/s for e = 0.5; with vth = 1 the fourth
 * (k = 3) is the first below it: 3 bounces, rest at T_3 = t0 (1 + 2 (e +
 * e^2 + e^3)) = 2.75 t0, t0 = sqrt(2/9.81) = 0.4515236409857309 (Python).
 * Without a threshold t_inf = t0 (1 + e) / (1 - e) = 3 t0.  e = 1:
 * periodic, 2 t0.  e = 0: rests at the first impact. */
static void test_bounce_exact_hand_values(void)
{
    const double t0 = 0.4515236409857309;
    vb_bounce b;
    char err[128];
    vb_bounce_init(&b, 1.0, 0.5, 9.81, 1.0, err, sizeof err);
    CHECK(b.bounces == 3, "bounces %ld, want 3", b.bounces);
    CHECK_REL(b.t0, t0, 2 * DBL_EPSILON, "t0"); /* one sqrt, one division */
    CHECK_REL(b.t_rest, 2.75 * t0, 8 * DBL_EPSILON, "t_rest = T_3");
    double y, v;
    CHECK(vb_bounce_state(&b, 2.75 * t0 + 1e-9, &y, &v) == -1 && y == 0.0 && v == 0.0,
          "at rest after T_3: y %g v %g", y, v);
    /* flight 2 (after the second impact, T_1 = 2 t0) peaks e^4 h0 = 1/16
     * at T_1 + e^2 t0 */
    vb_bounce_state(&b, 2.0 * t0 + 0.25 * t0, &y, &v);
    CHECK_ABS(y, 1.0 / 16.0, 1e-15, "apex of flight 2");
    CHECK_ABS(v, 0.0, 1e-15, "speed at the apex");
    CHECK_ABS(vb_bounce_apex(&b, 2), 1.0 / 16.0, 0.0, "e^4 h0");

    vb_bounce_init(&b, 1.0, 0.5, 9.81, 0.0, err, sizeof err);
    CHECK(b.bounces == -1, "no threshold: bounces %ld, want -1 (infinitely many)", b.bounces);
    CHECK_REL(b.t_rest, 3.0 * t0, 8 * DBL_EPSILON, "t_inf");

    vb_bounce_init(&b, 1.0, 1.0, 9.81, 0.0, err, sizeof err);
    CHECK(b.bounces == -1 && isinf(b.t_rest), "e = 1: bounces %ld, t_rest %g", b.bounces,
          b.t_rest);
    double y1, v1;
    vb_bounce_state(&b, t0 + 0.3 * t0, &y, &v);
    vb_bounce_state(&b, t0 + 2000.0 * t0 + 0.3 * t0, &y1, &v1);
    /* 1000 periods later: t carries 1e-16 * 2000 t0 of round-off, times v0 */
    CHECK_ABS(y1, y, 1e-12, "periodic y");
    CHECK_ABS(v1, v, 1e-12, "periodic v");

    vb_bounce_init(&b, 1.0, 0.0, 9.81, 0.0, err, sizeof err);
    CHECK(b.bounces == 0 && b.t_rest == b.t0, "e = 0: bounces %ld, t_rest %g", b.bounces,
          b.t_rest);

    static const char *const names[] = {"h0", "e", "g", "vth"};
    static const double bad[4][4] = {
        {0.0, 0.5, 9.81, 0.0}, {1.0, 1.5, 9.81, 0.0}, {1.0, 0.5, 0.0, 0.0}, {1.0, 0.5, 9.81, -1.0}};
    for (int i = 0; i < 4; i++) {
        err[0] = '\0';
        int rc = vb_bounce_init(&b, bad[i][0], bad[i][1], bad[i][2], bad[i][3], err, sizeof err);
        CHECK(rc == -1 && strncmp(err, names[i], strlen(names[i])) == 0 && err[strlen(names[i])] == ':',
              "a bad %s: rc %d '%s'", names[i], rc, err);
    }
}

/* ---- the exact slide and tunnel --------------------------------------------- */

/* Hand values (Python's math, double precision):
 *   flat, v0 = 3, mu = 0.3, g = 9.81: t_stop = v0 / (mu g) = 1.019367991845056,
 *     x_stop = v0^2 / (2 mu g) = 1.529051987767584;
 *   alpha = 20 deg, mu = 0.5 (tan alpha = 0.364 < mu), v0 = 2 down: it
 *     decelerates by g (mu cos - sin) = 1.2539746989300709, stops at
 *     t = 1.5949285114815 after x = 1.5949285114815, and stays;
 *   alpha = 30 deg, mu = 0.2 (tan alpha = 0.577 > mu): down the slope it
 *     accelerates by g (sin - mu cos) = 3.205858157774931; v0 = 1: x(0.5) =
 *     0.9007322697218664, v(0.5) = 2.6029290788874655; v0 = -2 (up) it
 *     decelerates by g (sin + mu cos) = 6.604141842225069, stops at t1 =
 *     0.3028402550672897, x1 = -0.3028402550672897, then slides down:
 *     x(t1 + 0.7) = 0.48259499358756835, v = 2.2441007104424515.
 * Tolerance 1e-14 relative: a few roundings of sin and cos. */
static void test_slide_exact_hand_values(void)
{
    vb_slide s;
    char err[128];
    double x, v;
    vb_slide_init(&s, 3.0, 0.3, 9.81, 0.0, err, sizeof err);
    CHECK_REL(s.t_stop, 1.019367991845056, 1e-14, "flat t_stop");
    CHECK_REL(s.x_stop, 1.529051987767584, 1e-14, "flat x_stop");
    vb_slide_state(&s, 10.0, &x, &v);
    CHECK(x == s.x_stop && v == 0.0, "flat: stays (x %g v %g)", x, v);

    vb_slide_init(&s, 2.0, 0.5, 9.81, 20.0 * M_PI / 180.0, err, sizeof err);
    CHECK_REL(s.t_stop, 1.5949285114815, 1e-14, "20 deg t_stop");
    CHECK_REL(s.x_stop, 1.5949285114815, 1e-14, "20 deg x_stop");
    CHECK(s.a2 == 0.0, "20 deg, mu 0.5: static friction holds (a2 %g)", s.a2);

    vb_slide_init(&s, 1.0, 0.2, 9.81, 30.0 * M_PI / 180.0, err, sizeof err);
    CHECK(isinf(s.t_stop), "30 deg, mu 0.2, down: never stops (t_stop %g)", s.t_stop);
    vb_slide_state(&s, 0.5, &x, &v);
    CHECK_REL(x, 0.9007322697218664, 1e-14, "30 deg down x(0.5)");
    CHECK_REL(v, 2.6029290788874655, 1e-14, "30 deg down v(0.5)");

    vb_slide_init(&s, -2.0, 0.2, 9.81, 30.0 * M_PI / 180.0, err, sizeof err);
    CHECK_REL(s.t_stop, 0.3028402550672897, 1e-14, "30 deg up t1");
    CHECK_REL(s.x_stop, -0.3028402550672897, 1e-14, "30 deg up x1");
    vb_slide_state(&s, s.t_stop + 0.7, &x, &v);
    CHECK_REL(x, 0.48259499358756835, 1e-14, "30 deg back down x");
    CHECK_REL(v, 2.2441007104424515, 1e-14, "30 deg back down v");

    err[0] = '\0';
    CHECK(vb_slide_init(&s, 1.0, 0.2, 9.81, M_PI / 2, err, sizeof err) == -1 &&
              strncmp(err, "alpha:", 6) == 0,
          "alpha = pi/2 accepted: '%s'", err);
    CHECK(vb_slide_init(&s, 1.0, -0.2, 9.81, 0.0, err, sizeof err) == -1 &&
              strncmp(err, "mu:", 3) == 0,
          "mu < 0 accepted: '%s'", err);
}

/* The stop's scales (slide.c's SLIDE_MIN_SCALE = DBL_MIN 1e18 = 2.2e-290):
 * on the flat, v0 = 3, t_stop = v0 / (mu g) and gravity's press over it
 * g t_stop^2 / 2 = v0^2 / (2 mu^2 g): 4.6e-289 at mu = 1e144 (kept, its
 * stop v0^2 / (2 mu g) = 4.587e-145 to 1e-14), 4.6e-321 at mu = 1e160 and
 * 0 at 1e180 (refused).  v0 = 1e-170 at mu = 0.5: x_stop = v0^2/(2 mu g)
 * is 1e-341, no double (refused); v0 = 1e200 at mu = 1e-200 stops at
 * t = 3e399 s, past every double (refused, where it said "never stops"). */
static void test_slide_scales_a_double_carries(void)
{
    vb_slide s;
    char err[512];
    CHECK(vb_slide_init(&s, 3.0, 1e144, 9.81, 0.0, err, sizeof err) == 0, "mu = 1e144: '%s'",
          err);
    CHECK_REL(s.x_stop, 9.0 / (2.0 * 1e144 * 9.81), 1e-14, "mu = 1e144: x_stop");
    CHECK_REL(s.t_stop, 3.0 / (1e144 * 9.81), 1e-14, "mu = 1e144: t_stop");
    static const double bad[][2] = {{3.0, 1e160}, {3.0, 1e180}, {1e-170, 0.5}, {1e200, 1e-200}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        CHECK(vb_slide_init(&s, bad[i][0], bad[i][1], 9.81, 0.0, err, sizeof err) == -1 &&
                  strncmp(err, "v0 = ", 5) == 0,
              "v0 = %g, mu = %g accepted: '%s'", bad[i][0], bad[i][1], err);
    }
}

/* v = 10, r = 0.1, w = 0.05, d = 1.1: it touches at (d - r)/v = 0.1; at
 * 0.05 it is at 0.6; at 0.3 it is at r + e v 0.2 = 2.1 (e = 1), or stays
 * at r (e = 0).  d <= r is refused: the ball would start in the wall. */
static void test_tunnel_exact_hand_values(void)
{
    vb_tunnel s;
    char err[128];
    double x, v;
    vb_tunnel_init(&s, 10.0, 0.1, 0.05, 1.1, 1.0, err, sizeof err);
    CHECK_REL(s.t_hit, 0.1, 2 * DBL_EPSILON, "t_hit");
    vb_tunnel_state(&s, 0.05, &x, &v);
    CHECK_ABS(x, 0.6, 4 * DBL_EPSILON, "x(0.05)");
    CHECK(v == -10.0, "v(0.05) %g", v);
    vb_tunnel_state(&s, 0.3, &x, &v);
    CHECK_ABS(x, 2.1, 8 * DBL_EPSILON, "x(0.3)");
    CHECK(v == 10.0, "v(0.3) %g", v);
    vb_tunnel_init(&s, 10.0, 0.1, 0.05, 1.1, 0.0, err, sizeof err);
    vb_tunnel_state(&s, 0.3, &x, &v);
    CHECK(x == 0.1 && v == 0.0, "e = 0: x %g v %g", x, v);
    err[0] = '\0';
    CHECK(vb_tunnel_init(&s, 10.0, 0.1, 0.05, 0.1, 1.0, err, sizeof err) == -1 &&
              strncmp(err, "d:", 2) == 0,
          "d = r accepted: '%s'", err);
    /* a ball of radius 0, as the bounce's r and an engine's ball (vbengine.js) */
    err[0] = '\0';
    CHECK(vb_tunnel_init(&s, 10.0, 0.0, 0.05, 1.1, 1.0, err, sizeof err) == -1 &&
              strncmp(err, "r:", 2) == 0,
          "r = 0 accepted: '%s'", err);
}

/* ---- the measures, on states sampled from the exact solutions ---------------- */

/* Sampled at dt = 1/60 from the exact bounce (h0 = 1, e = 0.5, vth = 1),
 * the measures must find what the solution is: 3 bounces, each with
 * restitution exactly e (the flight energy of exact states is g e^(2k) h0:
 * to 1e-13, a few roundings of a 10 m^2/s^2 energy in a ratio), each
 * flight's highest sample as its height, the energy after 3 bounces e^6,
 * no penetration, and rest at the first sample at or after T_3. */
static void test_bounce_measures_on_exact_samples(void)
{
    enum { N = 181 };
    double dt = 1.0 / 60.0, t[N], s[N], u[N];
    vb_bounce_event ev[8];
    vb_bounce b;
    char err[128];
    vb_bounce_init(&b, 1.0, 0.5, 9.81, 1.0, err, sizeof err);
    for (int k = 0; k < N; k++) {
        t[k] = k * dt;
        vb_bounce_state(&b, t[k], &s[k], &u[k]);
    }
    vb_bounce_measures m;
    CHECK(vb_bounce_measure(t, s, u, N, 9.81, ev, 8, &m) == 0, "refused");
    CHECK(m.bounces == 3, "bounces %zu, want 3", m.bounces);
    for (size_t i = 0; i < 3 && i < m.bounces; i++) {
        CHECK_ABS(ev[i].e, 0.5, 1e-13, "measured e");
        CHECK_REL(ev[i].before, 9.81 * pow(0.25, (double)i), 1e-13, "flight energy before");
        CHECK_REL(ev[i].after, 9.81 * pow(0.25, (double)(i + 1)), 1e-13, "flight energy after");
    }
    /* the height each bounce's flight reaches, as sampled: flight k
     * (after bounce k) leaves at T_(k-1) with e^k v0, T summed here flight
     * by flight (T_0 = sqrt(2 h0 / g), T_k = T_(k-1) + 2 e^k v0 / g), and
     * its highest sample is the largest y(t_j) over the samples strictly
     * inside it: to 1e-13 of h0, a few roundings of y */
    double g = 9.81, v0 = sqrt(2.0 * g), T[4] = {sqrt(2.0 / g)};
    for (int k = 1; k < 4; k++)
        T[k] = T[k - 1] + 2.0 * pow(0.5, k) * v0 / g;
    for (int k = 1; k <= 3 && k <= (int)m.bounces; k++) {
        double top = -1.0, u0 = pow(0.5, k) * v0;
        for (int j = 0; j < N; j++)
            if (t[j] > T[k - 1] && t[j] < T[k]) {
                double tau = t[j] - T[k - 1], y = tau * (u0 - 0.5 * g * tau);
                top = y > top ? y : top;
            }
        CHECK(top > 0.0 && top <= pow(0.25, k) + 1e-15, "flight %d: no sample, or above its apex", k);
        CHECK_ABS(ev[k - 1].height, top, 1e-13, "the height after a bounce: its flight's top sample");
    }
    /* a run cut while the second flight still rises: that height is not
     * reached (NAN), the first's is; cut after the second flight's top
     * (e^2 v0 / g after T_1), before it lands: its highest sample so far */
    int rising = (int)ceil(T[1] / dt) + 1, fallen = (int)ceil((T[1] + 0.25 * v0 / g) / dt) + 2;
    CHECK(t[rising] < T[1] + 0.25 * v0 / g && t[fallen] < T[2], "the cuts are not where meant");
    vb_bounce_event cut[8];
    vb_bounce_measures mc;
    vb_bounce_measure(t, s, u, (size_t)rising + 1, g, cut, 8, &mc);
    CHECK(mc.bounces == 2 && cut[1].height != cut[1].height && cut[0].height == ev[0].height,
          "cut rising: %zu bounces, heights %g, %g", mc.bounces, cut[0].height, cut[1].height);
    vb_bounce_measure(t, s, u, (size_t)fallen + 1, g, cut, 8, &mc);
    CHECK(mc.bounces == 2 && cut[1].height == ev[1].height,
          "cut after the top: %zu bounces, height %g, want %g", mc.bounces, cut[1].height,
          ev[1].height);
    CHECK_REL(vb_bounce_energy_ratio(ev, m.bounces, 3), pow(0.25, 3), 1e-13,
              "the energy after 3 bounces: e^6 that before the first");
    CHECK(vb_bounce_energy_ratio(ev, m.bounces, 4) != vb_bounce_energy_ratio(ev, m.bounces, 4),
          "the energy after a 4th bounce the run did not make");
    double first = ceil(b.t_rest / dt) * dt;
    CHECK_ABS(m.t_rest, first, 1e-12, "t_rest: the first sample at or after T_3");
    CHECK(m.max_depth <= 1e-15, "exact states do not penetrate: depth %g", m.max_depth);
    CHECK_ABS(m.energy0, 9.81, 0.0, "E_0 = g h0");
    CHECK(vb_bounce_measure(t, s, u, 1, 9.81, NULL, 0, &m) == -1, "one sample accepted");
}

/* The exact flat slide sampled at dt = 0.01 (v0 = 3, mu = 0.3): it stops
 * at the first sample past t_stop = 1.019368, there at x_stop, and stays;
 * the velocity line through the last two moving samples is the exact one
 * (a constant deceleration), so t_stop comes back to 1e-12. */
static void test_slide_measures_on_exact_samples(void)
{
    enum { N = 201 };
    double dt = 0.01, t[N], x[N], v[N];
    vb_slide s;
    char err[128];
    vb_slide_init(&s, 3.0, 0.3, 9.81, 0.0, err, sizeof err);
    for (int k = 0; k < N; k++) {
        t[k] = k * dt;
        vb_slide_state(&s, t[k], &x[k], &v[k]);
    }
    vb_slide_measures m;
    CHECK(vb_slide_measure(t, x, v, N, &m) == 0, "refused");
    CHECK(m.stopped && m.stays, "stopped %d stays %d", m.stopped, m.stays);
    CHECK(m.k_stop == 102, "stops at sample %zu, want 102 (t = 1.02 > 1.019368)", m.k_stop);
    CHECK_REL(m.x_stop, 1.529051987767584, 1e-14, "x_stop");
    CHECK_REL(m.t_stop, 1.019367991845056, 1e-12, "t_stop extrapolated");
}

/* A block started at rest, sampled exactly: on the flat it stays; at 45
 * degrees with mu = 0.5 (tan alpha = 1 > mu) it slides from rest.  Both
 * stop at t = 0, x = 0, sample 0, as the exact slide (t_stop = 0): not at
 * the first step's end. */
static void test_slide_measures_from_rest(void)
{
    enum { N = 11 };
    double dt = 0.01, t[N], x[N], v[N];
    static const double alpha_deg[] = {0.0, 45.0};
    for (size_t a = 0; a < 2; a++) {
        vb_slide s;
        char err[256];
        CHECK(vb_slide_init(&s, 0.0, 0.5, 9.81, alpha_deg[a] * M_PI / 180.0, err, sizeof err) ==
                  0 && s.t_stop == 0.0,
              "v0 = 0 at %g degrees: '%s'", alpha_deg[a], err);
        for (int k = 0; k < N; k++) {
            t[k] = k * dt;
            vb_slide_state(&s, t[k], &x[k], &v[k]);
        }
        vb_slide_measures m;
        CHECK(vb_slide_measure(t, x, v, N, &m) == 0, "refused");
        CHECK(m.stopped && m.k_stop == 0 && m.t_stop == 0.0 && m.x_stop == 0.0,
              "v0 = 0 at %g degrees: stops at sample %zu, t %g, x %g; want 0, 0, 0", alpha_deg[a],
              m.k_stop, m.t_stop, m.x_stop);
        CHECK(m.stays == (a == 0), "v0 = 0 at %g degrees: stays %d", alpha_deg[a], m.stays);
    }
}

/* ---- the stepper -------------------------------------------------------------- */

static void still(const void *model, double t, const double *x, const double *v, double *a)
{
    (void)model, (void)t, (void)x, (void)v;
    a[0] = 0.0;
}

static void test_contact_stepper_refuses_what_cannot_restart(void)
{
    vb_force f = {.accel = still, .n = 1};
    vb_contact_stepper s;
    char err[256];
    err[0] = '\0';
    CHECK(vb_contact_stepper_init(&s, test_integrator("verlet"), &f, NULL, 0.0, err, sizeof err) ==
                  -1 &&
              strstr(err, "verlet") && strstr(err, "multistep"),
          "verlet (x_{n-1}) accepted: '%s'", err);
    err[0] = '\0';
    CHECK(vb_contact_stepper_init(&s, test_integrator("rkf45"), &f, NULL, 0.0, err, sizeof err) ==
                  -1 &&
              strstr(err, "tolerance"),
          "rkf45 without a tolerance accepted: '%s'", err);
    /* a free particle: one step of 0.5 from (1, 2) is at 2, exactly */
    CHECK(vb_contact_stepper_init(&s, test_integrator("velocity-verlet"), &f, NULL, 0.0, err,
                                  sizeof err) == 0,
          "velocity-verlet refused: %s", err);
    double x = 1.0, v = 2.0;
    CHECK(vb_contact_stepper_step(&s, &x, &v, 0.0, 0.5) == 0 && x == 2.0 && v == 2.0,
          "free step: x %g v %g", x, v);
    CHECK(s.calls == 1, "calls %llu", s.calls);
    vb_contact_stepper_free(&s);
}

void suite_contact(void)
{
    RUN(test_contact_geometry_refuses_bad_fields);
    RUN(test_contact_nearest_face_of_a_slab);
    RUN(test_bounce_exact_against_summed_flights);
    RUN(test_bounce_exact_hand_values);
    RUN(test_slide_exact_hand_values);
    RUN(test_slide_scales_a_double_carries);
    RUN(test_tunnel_exact_hand_values);
    RUN(test_bounce_measures_on_exact_samples);
    RUN(test_slide_measures_on_exact_samples);
    RUN(test_slide_measures_from_rest);
    RUN(test_contact_stepper_refuses_what_cannot_restart);
}
