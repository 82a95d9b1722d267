/* contact/box_slide.c — a block on an incline with static and kinetic
 * friction: one parabola, then rest (box_slide.h). */
#include "box_slide.h"

#include "body_contact.h" /* the checks */

#include <math.h>
#include <stdio.h>

int vb_box_slide_init(vb_box_slide *b, double v0, double mu_s, double mu_k, double g,
                      double alpha, char *err, size_t errlen)
{
    if (vb_check_at_least("v0", v0, 0.0, 0, err, errlen) != 0 ||
        vb_check_at_least("mu_s", mu_s, 0.0, 0, err, errlen) != 0)
        return -1;
    if (!(mu_k >= 0.0 && mu_k <= mu_s)) {
        snprintf(err, errlen, "mu_k: %g is not in [0, mu_s = %g]", mu_k, mu_s);
        return -1;
    }
    if (vb_check_incline(g, alpha, err, errlen) != 0)
        return -1;
    *b = (vb_box_slide){.v0 = v0, .mu_s = mu_s, .mu_k = mu_k, .g = g, .alpha = alpha};
    double sn = sin(alpha), cs = cos(alpha);
    b->a = g * (sn - mu_k * cs);
    if (v0 == 0.0) {
        /* static friction holds iff tan alpha <= mu_s: sin <= mu_s cos */
        b->sticks = sn <= mu_s * cs;
        b->t_stop = b->sticks ? 0.0 : (double)INFINITY;
        b->x_stop = b->sticks ? 0.0 : (double)NAN;
    } else if (b->a < 0.0) {
        b->sticks = 1;
        b->t_stop = -v0 / b->a;
        b->x_stop = -v0 * v0 / (2.0 * b->a);
    } else {
        b->sticks = 0;
        b->t_stop = INFINITY;
        b->x_stop = NAN;
    }
    return 0;
}

void vb_box_slide_state(const vb_box_slide *b, double t, double *x, double *v)
{
    if (b->sticks && t >= b->t_stop) {
        *x = b->x_stop;
        *v = 0.0;
        return;
    }
    *x = t * (b->v0 + 0.5 * b->a * t);
    *v = b->v0 + b->a * t;
}
