/* contact/slide.h — the slide's exact solution: a block (a point) on a
 * plane inclined at alpha in [0, pi/2), Coulomb friction mu (one
 * coefficient for sliding and sticking), gravity g, initial speed v0.
 *
 * Sign convention: x is the distance along the slope, positive DOWN the
 * slope; v0 > 0 slides down, v0 < 0 up.  In the plane's frame (x along
 * the slope, y along its normal) gravity is (g sin alpha, -g cos alpha)
 * and the normal force per unit mass is N = g cos alpha.
 *
 * While it slides with velocity of sign s, its acceleration is
 *     a = g sin alpha - s mu g cos alpha:
 *   down the slope (s = +1) it decelerates by g (mu cos alpha - sin alpha)
 *   when tan alpha < mu, and accelerates by g (sin alpha - mu cos alpha)
 *   when tan alpha > mu; up the slope (s = -1) it decelerates by
 *   g (sin alpha + mu cos alpha).
 * Decelerating, it stops at t_stop = |v0| / |a|, x_stop = -v0^2 / (2 a)
 * (on the flat: v0 / (mu g) and v0^2 / (2 mu g)).  Once at rest it stays
 * if tan alpha <= mu (static friction holds it), and slides down from rest
 * with g (sin alpha - mu cos alpha) otherwise.  Never decelerating
 * (down the slope with tan alpha >= mu, or mu = alpha = 0) it never stops:
 * x = v0 t + a t^2 / 2 for ever. */
#ifndef VB_CONTACT_SLIDE_H
#define VB_CONTACT_SLIDE_H

#include <stddef.h>

typedef struct vb_slide {
    double v0, mu, g, alpha;
    double a1;     /* the acceleration while it first slides */
    double t_stop; /* when it first stops (0 for v0 = 0); INFINITY: never */
    double x_stop; /* where */
    double a2;     /* after t_stop: 0 (it stays: tan alpha <= mu), or g (sin - mu cos) > 0 */
} vb_slide;

/* 0, or -1 with a message naming the parameter: v0 finite, mu >= 0,
 * g > 0, 0 <= alpha < pi/2. */
int vb_slide_init(vb_slide *s, double v0, double mu, double g, double alpha, char *err,
                  size_t errlen);

/* x(t), v(t) for t >= 0, along the slope */
void vb_slide_state(const vb_slide *s, double t, double *x, double *v);

/* gravity in the plane's frame: (g sin alpha, -g cos alpha) */
void vb_slide_gravity(const vb_slide *s, double a[2]);

#endif
