/* contact/box_slide.h — the exact motion of a block on an incline with
 * static and kinetic friction (docs/contact.md, "3D: rolling and resting
 * bodies").  The 2-D slide (slide.h) with mu_s apart from mu_k, launched
 * down the slope only.
 *
 * A block on a plane inclined at alpha in [0, pi/2), mu_s >= mu_k >= 0,
 * gravity g, launched down the slope at v0 >= 0; x along the slope,
 * positive down it.  Sliding (v > 0) it accelerates by
 *     a = g (sin alpha - mu_k cos alpha).
 *  - v0 = 0: it sticks for ever iff tan alpha <= mu_s (static friction
 *    holds up to mu_s g cos alpha); else it slides from rest at a (> 0,
 *    since mu_k <= mu_s < tan alpha).
 *  - v0 > 0, a < 0 (tan alpha < mu_k): it stops at t_stop = v0 / -a,
 *    x_stop = v0^2 / (-2 a), and then sticks (tan alpha < mu_k <= mu_s).
 *  - v0 > 0, a >= 0: x = v0 t + a t^2 / 2 for ever.
 * Energy per unit mass, v^2/2 - g sin alpha x, falls by mu_k g cos alpha
 * times the distance slid. */
#ifndef VB_CONTACT_BOX_SLIDE_H
#define VB_CONTACT_BOX_SLIDE_H

#include <stddef.h>

typedef struct vb_box_slide {
    double v0, mu_s, mu_k, g, alpha;
    double a;      /* while it slides: g (sin alpha - mu_k cos alpha) */
    int sticks;    /* it is, or comes to be, at rest for ever */
    double t_stop; /* when it comes to rest: 0 stuck from the start, INFINITY never */
    double x_stop; /* where (NAN: never) */
} vb_box_slide;

/* 0, or -1 with a message naming the parameter: v0 >= 0 finite,
 * 0 <= mu_k <= mu_s finite, g > 0, alpha in [0, pi/2). */
int vb_box_slide_init(vb_box_slide *b, double v0, double mu_s, double mu_k, double g,
                      double alpha, char *err, size_t errlen);

/* x(t), v(t) for t >= 0 */
void vb_box_slide_state(const vb_box_slide *b, double t, double *x, double *v);

#endif
