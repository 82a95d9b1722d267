/* pendulum_solution.c — the nonlinear pendulum's exact angle:
 *     sin(theta/2) = k sn(u),  cos(theta/2) = dn(u),  u = K - w t,
 * with k = sin(theta0/2).  Both halves of the angle are kept, and theta is
 * their atan2: the textbook 2 asin(k sn(u)) loses everything near the top,
 * where k sn -> 1 and asin's slope is unbounded (at theta0 = 3.14 it was
 * 3.8e-10 off, at 3.14159265 NaN).  The elliptic functions take k and
 * k' = cos(theta0/2) apart (elliptic.h), so 1 - k^2 is never formed.
 * Measured against 80-digit references (tests/reference/pendulum.py):
 * |theta - exact| <= 7e-16 (1 + w t) for every theta0 in the range
 * 0 < theta0 < pi, the last double below pi included (the test holds it to
 * 2e-15), so no value of the range has to be refused. */
#include "pendulum_solution.h"
#include "elliptic.h"
#include "reduce.h"

#include <math.h>

void vb_pendulum_solution_init(vb_pendulum_solution *s, double g, double L, double theta0)
{
    s->w2 = g / L;
    s->w = sqrt(s->w2);
    s->theta0 = theta0;
    s->k = sin(0.5 * theta0);
    s->kc = cos(0.5 * theta0); /* to full relative precision however small */
    s->K = vb_ellint_K(s->kc);
}

/* theta = 2 atan2(k sn(u), dn(u)), theta' = -2 k w cn(u), u = K - w t; the
 * functions have period 4K, so u is reduced first to keep them accurate */
int vb_pendulum_angle(const vb_pendulum_solution *s, double t, double *theta, double *omega)
{
    double u = vb_remainder(s->K - s->w * t, 4.0 * s->K);
    double sn, cn, dn;
    if (vb_jacobi(u, s->k, s->kc, &sn, &cn, &dn) != 0)
        return -1;
    *theta = 2.0 * atan2(s->k * sn, dn);
    *omega = -2.0 * s->k * s->w * cn;
    return 0;
}

double vb_pendulum_period(const vb_pendulum_solution *s) { return 4.0 * s->K / s->w; }
