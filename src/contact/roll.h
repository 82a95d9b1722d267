/* contact/roll.h — the exact motion of a round body on an incline with
 * Coulomb friction: slipping, then rolling (docs/contact.md, "3D: rolling
 * and resting bodies", has the derivation).
 *
 * A body of radius R and moment k m R^2 about its rolling axis (k = 2/5 a
 * solid sphere, 2/3 a thin shell, 1/2 a cylinder) on a plane inclined at
 * alpha in [0, pi/2), friction mu (one coefficient), gravity g.  x is the
 * distance of the centre along the slope, positive DOWN it; v = dx/dt; w
 * the spin about the rolling axis, positive in the rolling sense (rolling
 * down the slope is v = w R); theta = the integral of w, the angle it has
 * turned.  The slip u = v - w R is the velocity of the contact point.
 *
 * Per unit mass, normal force g cos alpha.  While u != 0 (sign s), kinetic
 * friction s mu g cos alpha acts up the slope at the contact point:
 *     dv/dt = g sin alpha - s mu g cos alpha,
 *     dw/dt = s mu g cos alpha / (k R),
 *     du/dt = g sin alpha - s mu g cos alpha (1 + 1/k).
 * Rolling (u = 0) needs the friction g sin alpha k / (1 + k), at most
 * mu g cos alpha: it rolls iff tan alpha <= mu (1 + k) / k, at
 *     dv/dt = g sin alpha / (1 + k),  dw/dt = that / R.
 * So: u0 > 0 slips down to u = 0 if du/dt < 0 there, else for ever; u0 < 0
 * (back-spin) always comes to u = 0 (du/dt >= 0) unless alpha = mu = 0;
 * at u = 0 it rolls for ever if it can, else slips with s = +1 for ever.
 * At most two segments of constant accelerations.
 *
 * Flat, solid sphere, w0 = 0: t* = 2 v0 / (7 mu g), v* = 5 v0 / 7,
 * s* = 12 v0^2 / (49 mu g).
 *
 * Energy per unit mass, e = v^2/2 + k R^2 w^2/2 - g sin alpha x, falls by
 * mu g cos alpha times the slip distance (the integral of |u|) and is kept
 * exactly while it rolls. */
#ifndef VB_CONTACT_ROLL_H
#define VB_CONTACT_ROLL_H

#include <stddef.h>

typedef struct vb_roll_segment {
    double t0;                          /* its start */
    double x, v, w, theta, slip;        /* at t0 (slip: the slip distance so far) */
    double a, aw;                       /* dv/dt and dw/dt on it */
    int sign;                           /* the sign of u on it; 0 rolling */
} vb_roll_segment;

typedef struct vb_roll {
    double R, k, alpha, mu, g, v0, w0;
    double sin_a, cos_a;
    int can_roll;       /* tan alpha <= mu (1 + k) / k */
    int n;              /* segments, 1 or 2 */
    vb_roll_segment seg[2];
    double t_roll;      /* t*: when it starts to roll; INFINITY if never; 0 if u0 = 0 and it can */
    double s_roll;      /* x(t*); NAN if never */
    double v_roll;      /* v(t*); NAN if never */
} vb_roll;

typedef struct vb_roll_point {
    double x, v, w, theta; /* as above */
    double u;              /* v - w R */
    double slip;           /* the slip distance, the integral of |u| from 0 */
} vb_roll_point;

/* 0, or -1 with a message naming the parameter: R > 0, k > 0, mu >= 0,
 * g > 0, alpha in [0, pi/2), v0 and w0 finite (any sign). */
int vb_roll_init(vb_roll *r, double R, double k, double alpha, double mu, double g, double v0,
                 double w0, char *err, size_t errlen);

/* The state at t >= 0. */
void vb_roll_at(const vb_roll *r, double t, vb_roll_point *p);

/* The energy per unit mass of a point, v^2/2 + k R^2 w^2/2 - g sin alpha x. */
double vb_roll_energy(const vb_roll *r, const vb_roll_point *p);

#endif
