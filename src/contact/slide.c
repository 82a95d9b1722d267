/* contact/slide.c — the slide, exact: two parabolas at most. */
#include "slide.h"

#include <math.h>
#include <stdio.h>

int vb_slide_init(vb_slide *s, double v0, double mu, double g, double alpha, char *err,
                  size_t errlen)
{
    if (!isfinite(v0)) {
        snprintf(err, errlen, "v0: %g is not finite", v0);
        return -1;
    }
    if (!(mu >= 0.0) || !isfinite(mu)) {
        snprintf(err, errlen, "mu: %g is not a finite number >= 0", mu);
        return -1;
    }
    if (!(g > 0.0) || !isfinite(g)) {
        snprintf(err, errlen, "g: %g is not a finite number > 0", g);
        return -1;
    }
    if (!(alpha >= 0.0 && alpha < 0.5 * M_PI)) {
        snprintf(err, errlen, "alpha: %g is not in [0, pi/2)", alpha);
        return -1;
    }
    *s = (vb_slide){.v0 = v0, .mu = mu, .g = g, .alpha = alpha};
    double sn = sin(alpha), cs = cos(alpha);
    double sign = v0 > 0.0 ? 1.0 : -1.0;
    s->a1 = g * sn - sign * mu * g * cs;
    if (v0 == 0.0) {
        s->t_stop = 0.0;
        s->x_stop = 0.0;
    } else if (sign * s->a1 < 0.0) {
        s->t_stop = -v0 / s->a1;
        s->x_stop = -v0 * v0 / (2.0 * s->a1);
    } else {
        s->t_stop = INFINITY;
        s->x_stop = NAN;
    }
    /* static friction holds it where tan alpha <= mu: sin <= mu cos */
    s->a2 = sn <= mu * cs ? 0.0 : g * (sn - mu * cs);
    return 0;
}

void vb_slide_state(const vb_slide *s, double t, double *x, double *v)
{
    if (t < s->t_stop) {
        *x = t * (s->v0 + 0.5 * s->a1 * t);
        *v = s->v0 + s->a1 * t;
        return;
    }
    double tau = t - s->t_stop;
    *x = s->x_stop + 0.5 * s->a2 * tau * tau;
    *v = s->a2 * tau;
}

void vb_slide_gravity(const vb_slide *s, double a[2])
{
    a[0] = s->g * sin(s->alpha);
    a[1] = -s->g * cos(s->alpha);
}
