/* contact/slide.c — the slide, exact: two parabolas at most. */
#include "slide.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

/* The smallest stop a run can measure: a step of a billionth of it (the
 * runs' default step limit, 1e9) still moves the block by a normal double,
 * DBL_MIN * (1e9)^2, along the slope and into the plane (gravity's press,
 * g cos alpha dt^2 / 2).  Below it a step's press rounds to a subnormal and
 * then to 0, the handler sees no plane and the block slides on for ever
 * (mu = 1e180: stop_x inf against 4.6e-181, status ok; at 1e160 it stopped
 * 19 % late, the press 4.6e-321 kept by 3 digits). */
#define SLIDE_MIN_SCALE (DBL_MIN * 1e18)

/* 0, or -1 with err: the stop of s at scales a run's doubles carry */
static int stop_in_range(const vb_slide *s, char *err, size_t errlen)
{
    double press = 0.5 * s->g * cos(s->alpha) * s->t_stop * s->t_stop;
    int n = snprintf(err, errlen, "v0 = %g, mu = %g, g = %g, alpha = %g deg: ", s->v0, s->mu,
                     s->g, s->alpha * (180.0 / M_PI));
    char *rest = err + (n > 0 && (size_t)n < errlen ? n : 0);
    size_t left = errlen - (size_t)(rest - err);
    if (!isfinite(s->t_stop) || !isfinite(s->x_stop)) {
        snprintf(rest, left, "the block's stop (t_stop = %g s, x_stop = %g m) overflows a "
                             "double: scale v0, mu or g", s->t_stop, s->x_stop);
        return -1;
    }
    if (fabs(s->x_stop) >= SLIDE_MIN_SCALE && press >= SLIDE_MIN_SCALE)
        return 0;
    snprintf(rest, left,
             "the block stops %g m on in %g s, pressed into the plane by g cos(alpha) "
             "t_stop^2 / 2 = %g m; both must be at least %g m, so that a step of a billionth "
             "of the stop still moves it by a normal double: scale v0, mu or g",
             s->x_stop, s->t_stop, press, SLIDE_MIN_SCALE);
    return -1;
}

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
    if (v0 != 0.0 && sign * s->a1 < 0.0)
        return stop_in_range(s, err, errlen);
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
