/* contact/bounce.c — the bounce, exact: O(1) a call (the flight from the
 * closed-form sum of the impact times, inverted with one logarithm). */
#include "bounce.h"

#include <math.h>
#include <stdio.h>

int vb_bounce_init(vb_bounce *b, double h0, double e, double g, double vth, char *err,
                   size_t errlen)
{
    if (!(h0 > 0.0) || !isfinite(h0)) {
        snprintf(err, errlen, "h0: %g is not a finite number > 0", h0);
        return -1;
    }
    if (!(e >= 0.0 && e <= 1.0)) {
        snprintf(err, errlen, "e: %g is not in [0, 1]", e);
        return -1;
    }
    if (!(g > 0.0) || !isfinite(g)) {
        snprintf(err, errlen, "g: %g is not a finite number > 0", g);
        return -1;
    }
    if (!(vth >= 0.0) || !isfinite(vth)) {
        snprintf(err, errlen, "vth: %g is not a finite number >= 0", vth);
        return -1;
    }
    *b = (vb_bounce){.h0 = h0, .e = e, .g = g, .vth = vth};
    b->v0 = sqrt(2.0 * g * h0);
    b->t0 = sqrt(2.0 * h0 / g);
    if (e == 0.0) {
        b->bounces = 0;
    } else if (vth == 0.0 || (e == 1.0 && b->v0 >= vth)) {
        b->bounces = -1;
    } else {
        /* the first n with e^n v0 < vth: e^n v0 falls below vth > 0 after
         * at most log(vth / v0) / log(e) + 1 impacts (a few thousand at
         * most for e near 1), and pow is the speed vb_bounce_impact_speed
         * reports, so the two agree to the bit */
        long n = 0;
        while (!(vb_bounce_impact_speed(b, n) < vth))
            n++;
        b->bounces = n;
    }
    if (b->bounces >= 0)
        b->t_rest = vb_bounce_impact_time(b, b->bounces);
    else
        b->t_rest = e < 1.0 ? b->t0 * (1.0 + e) / (1.0 - e) : (double)INFINITY;
    return 0;
}

double vb_bounce_impact_speed(const vb_bounce *b, long k)
{
    return b->v0 * pow(b->e, (double)k);
}

double vb_bounce_apex(const vb_bounce *b, long k) { return b->h0 * pow(b->e, 2.0 * (double)k); }

double vb_bounce_impact_time(const vb_bounce *b, long k)
{
    if (k <= 0)
        return b->t0;
    if (b->e == 1.0)
        return b->t0 * (1.0 + 2.0 * (double)k);
    if (b->e == 0.0)
        return b->t0;
    /* sum_{j=1..k} e^j = e (1 - e^k) / (1 - e); -expm1(k log e) is 1 - e^k
     * without cancellation */
    double one_minus = -expm1((double)k * log(b->e));
    return b->t0 + 2.0 * b->t0 * b->e * one_minus / (1.0 - b->e);
}

/* flight k >= 1 starts at T_(k-1) with speed e^k v0 */
static long flight_state(const vb_bounce *b, long k, double t, double *y, double *v)
{
    double tau = t - vb_bounce_impact_time(b, k - 1), u = vb_bounce_impact_speed(b, k);
    *y = tau * (u - 0.5 * b->g * tau);
    *v = u - b->g * tau;
    return k;
}

long vb_bounce_state(const vb_bounce *b, double t, double *y, double *v)
{
    if (t < b->t0) {
        *y = b->h0 - 0.5 * b->g * t * t;
        *v = -b->g * t;
        return 0;
    }
    if (t >= b->t_rest) {
        *y = 0.0;
        *v = 0.0;
        return -1;
    }
    /* the flight k >= 1 with T_(k-1) <= t < T_k */
    long k;
    if (b->e == 1.0) {
        k = (long)floor((t - b->t0) / (2.0 * b->t0)) + 1;
    } else {
        /* T_m <= t  <=>  e^m >= q = 1 - (1 - e)(t - t0) / (2 t0 e) */
        double q = 1.0 - (1.0 - b->e) * (t - b->t0) / (2.0 * b->t0 * b->e);
        double m = q > 0.0 ? floor(log(q) / log(b->e)) : 0.0;
        k = (long)fmin(m, 1e15) + 1;
    }
    /* the logarithm's round-off can put t a flight off near an impact */
    if (k < 1)
        k = 1;
    int fixes = 0;
    while (k > 1 && t < vb_bounce_impact_time(b, k - 1) && fixes++ < 4)
        k--;
    while (t >= vb_bounce_impact_time(b, k) && fixes++ < 4)
        k++;
    /* past t_inf by round-off (the impact times crowd there), or past the
     * rest: on the floor */
    if (fixes >= 4 || (b->bounces >= 0 && k > b->bounces)) {
        *y = 0.0;
        *v = 0.0;
        return -1;
    }
    return flight_state(b, k, t, y, v);
}
