/* contact/contact_metrics.c — the bounce's, the slide's and the tunnel's
 * measures from a run's states, and the fixed-step run. */
#include "contact_metrics.h"

#include <math.h>
#include <string.h>

void vb_contact_normal_series(const vb_contact_geometry *g, const double *x, const double *v,
                              size_t n, double *s, double *u)
{
    unsigned d = g->dim;
    for (size_t k = 0; k < n; k++) {
        s[k] = vb_contact_dot(d, g->normal, x + k * d) - g->offset - g->radius;
        u[k] = vb_contact_dot(d, g->normal, v + k * d);
    }
}

static int contact_step(const double *t, const double *u, double g, size_t k)
{
    double kick = g * (t[k] - t[k - 1]);
    return u[k] - u[k - 1] > -(1.0 - VB_KICK_TOL) * kick;
}

/* the largest s over samples from..to, NAN when the ball is still rising
 * at the last of them and no sample after from turned it (u <= 0): the
 * flight's top not reached */
static double flight_height(const double *s, const double *u, size_t from, size_t to, int ends)
{
    double top = s[from];
    int turned = ends;
    for (size_t k = from + 1; k <= to; k++) {
        top = s[k] > top ? s[k] : top;
        turned |= u[k] <= 0.0;
    }
    return turned ? top : (double)NAN;
}

int vb_bounce_measure(const double *t, const double *s, const double *u, size_t n, double g,
                      vb_bounce_event *ev, size_t cap, vb_bounce_measures *m)
{
    if (n < 2 || !(g > 0.0))
        return -1;
    *m = (vb_bounce_measures){.t_rest = INFINITY};
    m->energy0 = 0.5 * u[0] * u[0] + g * s[0];
    for (size_t k = 0; k < n; k++)
        if (-s[k] > m->max_depth)
            m->max_depth = -s[k];
    size_t k = 1, flight = 0; /* where the last recorded bounce's flight starts */
    vb_bounce_event *last = NULL;
    while (k < n) {
        if (!contact_step(t, u, g, k)) {
            k++;
            continue;
        }
        size_t a = k, b = k;
        while (b + 1 < n && contact_step(t, u, g, b + 1))
            b++;
        if (last) /* the flight before this episode: it came down */
            last->height = flight_height(s, u, flight, a - 1, 1);
        last = NULL;
        if (b + 1 < n && u[b] > 0.0) {
            double before = 0.5 * u[a - 1] * u[a - 1] + g * s[a - 1];
            double after = 0.5 * u[b] * u[b] + g * s[b];
            if (ev && m->bounces < cap) {
                ev[m->bounces] = (vb_bounce_event){
                    .t = t[a],
                    .before = before,
                    .after = after,
                    .e = before > 0.0 && after >= 0.0 ? sqrt(after / before) : (double)NAN,
                    .height = NAN};
                last = &ev[m->bounces];
                flight = b;
            }
            m->bounces++;
        } else if (b + 1 == n && b - a + 1 >= VB_REST_STEPS) {
            m->t_rest = t[a];
        }
        k = b + 1;
    }
    if (last) /* the run ended in its flight */
        last->height = flight_height(s, u, flight, n - 1, 0);
    return 0;
}

double vb_bounce_energy_ratio(const vb_bounce_event *ev, size_t bounces, size_t m)
{
    if (m == 0 || bounces < m || !(ev[0].before > 0.0))
        return NAN;
    return ev[m - 1].after / ev[0].before;
}

double vb_bounce_energy_gain(const vb_bounce_event *ev, size_t bounces, size_t m)
{
    return vb_bounce_energy_ratio(ev, bounces, m) - 1.0;
}

int vb_slide_measure(const double *t, const double *x, const double *v, size_t n,
                     vb_slide_measures *m)
{
    if (n < 2)
        return -1;
    *m = (vb_slide_measures){.t_stop = INFINITY, .x_stop = NAN};
    double sign = v[0] >= 0.0 ? 1.0 : -1.0, rest = VB_SLIDE_REST * fabs(v[0]);
    /* from sample 0: a block started at rest (v0 = 0) stops at t = 0, as
     * the exact one does, not at the first step's end */
    size_t k = 0;
    while (k < n && sign * v[k] > rest)
        k++;
    if (k == n)
        return 0;
    m->stopped = 1;
    m->k_stop = k;
    m->x_stop = x[k];
    m->t_stop = t[k];
    /* the velocity line through the last two moving samples */
    if (k >= 2 && v[k - 1] != v[k - 2]) {
        double slope = (v[k - 1] - v[k - 2]) / (t[k - 1] - t[k - 2]);
        if (sign * slope < 0.0)
            m->t_stop = t[k - 1] - v[k - 1] / slope;
    }
    m->stays = 1;
    for (size_t j = k; j < n; j++)
        if (x[j] != x[k] || v[j] != 0.0)
            m->stays = 0;
    return 0;
}

int vb_contact_run(const vb_contact_handler *hd, const vb_contact_geometry *g,
                   vb_contact_step_fn *step, void *ctx, const double *x0, const double *v0,
                   double dt, size_t n_steps, double *t, double *x, double *v, size_t *done)
{
    unsigned d = g->dim;
    double xs[VB_CONTACT_MAX_DIM], vs[VB_CONTACT_MAX_DIM];
    memcpy(xs, x0, d * sizeof *xs);
    memcpy(vs, v0, d * sizeof *vs);
    t[0] = 0.0;
    memcpy(x, xs, d * sizeof *x);
    memcpy(v, vs, d * sizeof *v);
    *done = 0;
    for (size_t k = 1; k <= n_steps; k++) {
        int st = hd->step(g, step, ctx, xs, vs, (double)(k - 1) * dt, dt);
        if (st != VB_CONTACT_OK)
            return st;
        t[k] = (double)k * dt;
        memcpy(x + k * d, xs, d * sizeof *x);
        memcpy(v + k * d, vs, d * sizeof *v);
        *done = k;
    }
    return VB_CONTACT_OK;
}

int vb_tunnel_passes(const vb_contact_handler *hd, const vb_contact_geometry *g,
                     vb_contact_step_fn *step, void *ctx, double v, double dt)
{
    double blind = hd->blind(g);
    /* the largest separation the step leaves unchecked: the first position
     * whose separation, as the handler computes it, is past blind (a
     * handler that sees every crossing: a step before the wall) */
    double s0 = isfinite(blind) ? blind : v * dt;
    double x = g->offset + g->radius + s0;
    for (int i = 0; i < 64 && isfinite(blind) && !(x - g->offset - g->radius > blind); i++)
        x = nextafter(x, INFINITY);
    double vel = -v, t = 0.0;
    double steps = 16.0 + 4.0 * (s0 + g->thickness + 2.0 * g->radius) / (v * dt);
    for (double k = 0.0; k < steps; k += 1.0) {
        if (hd->step(g, step, ctx, &x, &vel, t, dt) != VB_CONTACT_OK)
            return -1;
        t += dt;
        double p = x - g->offset;
        if (p <= -g->thickness - g->radius && vel <= 0.0)
            return 1; /* clear behind the wall, and not coming back */
        if (p >= -0.5 * g->thickness && vel > 0.0)
            return 0; /* sent back */
    }
    return 0; /* stopped against it */
}

double vb_tunnel_pass_speed(const vb_contact_handler *hd, const vb_contact_geometry *g,
                            vb_contact_step_fn *step, void *ctx, double dt, double v_max)
{
    int top = vb_tunnel_passes(hd, g, step, ctx, v_max, dt);
    if (top < 0)
        return NAN;
    if (top == 0)
        return INFINITY;
    double lo = 0.0, hi = v_max;
    for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        int p = vb_tunnel_passes(hd, g, step, ctx, mid, dt);
        if (p < 0)
            return NAN;
        if (p)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* the first speed of vs that passes from phase phi: its index, n when
 * none does, -1 when a run failed */
static long first_passing(vb_tunnel_try_fn *try_run, void *ctx, const double *vs, size_t n,
                          double phi, double r, double w, double dt)
{
    for (size_t i = 0; i < n; i++) {
        double v = vs[i];
        double d = r + phi * v * dt; /* the surface phi v dt in front of the face */
        unsigned long steps = (unsigned long)ceil((d + w + 2.0 * r) / (v * dt)) + 5;
        int p = try_run(ctx, v, d, steps);
        if (p < 0)
            return -1;
        if (p)
            return (long)i;
    }
    return (long)n;
}

double vb_tunnel_pass_speed_scan(vb_tunnel_try_fn *try_run, void *ctx, double r, double w,
                                 double dt, int *lowest)
{
    static const double phases[VB_PASS_PHASES] = {0.02, 0.1, 0.25, 0.5, 0.75, 1.0};
    double bound = (w + 2.0 * r) / dt, best = INFINITY;
    *lowest = 0;
    for (int k = 0; k < VB_PASS_PHASES; k++) {
        double lo = 0.01 * bound, hi = 100.0 * bound, vs[VB_PASS_GRID];
        /* found: a speed of this phase passed; held: one below it did not */
        int found = 0, held = 0;
        for (int round = 0; round < VB_PASS_ROUNDS; round++) {
            /* a geometric grid first (four decades each way), then linear
             * ones inside the bracket, both ends in the grid */
            for (int i = 0; i < VB_PASS_GRID; i++)
                vs[i] = round == 0 ? lo * pow(hi / lo, i / (double)(VB_PASS_GRID - 1))
                                   : lo + (hi - lo) * i / (double)(VB_PASS_GRID - 1);
            long first = first_passing(try_run, ctx, vs, VB_PASS_GRID, phases[k], r, w, dt);
            if (first < 0)
                return NAN;
            if (first == VB_PASS_GRID)
                break; /* none in this grid: a later round would find none either */
            found = 1;
            held |= first > 0;
            hi = vs[first];
            lo = first ? vs[first - 1] : 0.5 * vs[0];
        }
        if (found && hi < best) {
            best = hi;
            *lowest = !held;
        }
    }
    return best;
}
