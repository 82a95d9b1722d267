/* contact/bounce.h — the bounce's exact solution: a ball (a point, or the
 * lowest point of a ball) dropped from rest at height h0 onto the floor
 * y = 0, restitution e, gravity g, restitution threshold vth.
 *
 * Flight 0 is the drop: y = h0 - g t^2/2 until the first impact at
 * T_0 = t0 = sqrt(2 h0 / g), at speed v0 = sqrt(2 g h0).  Impact k (k >= 0)
 * comes at speed e^k v0.  If e^k v0 >= vth and e > 0 the ball bounces: it
 * leaves at e^(k+1) v0, flight k+1 reaches the apex e^(2(k+1)) h0 and ends
 * at impact k+1, T_(k+1) = T_k + 2 e^(k+1) v0 / g.  Summed:
 *     T_k = t0 + 2 t0 e (1 - e^k) / (1 - e)      (e < 1)
 *     T_k = t0 (1 + 2 k)                         (e = 1)
 * The first impact k = n with e^n v0 < vth (or e = 0) does not bounce: the
 * ball then rests on the floor, y = 0, v = 0, from T_n on.  That is Box2D's
 * threshold: an approach slower than it gets no restitution (the contact
 * is inelastic, and with gravity pressing, the ball stays in contact)
 * (Box2D v3.1.1 contact_solver.c:436-439; 2.4.1 b2_contact_solver.cpp:
 * 214-220; docs/contact.md).  So the ball bounces n times (n = 0: it never
 * leaves the floor).
 * Without a threshold (vth = 0) and e < 1 it bounces infinitely often and
 * rests from t_inf = t0 (1 + e) / (1 - e) on; with e = 1 and v0 >= vth it
 * bounces forever, periodic with period 2 t0 after t0. */
#ifndef VB_CONTACT_BOUNCE_H
#define VB_CONTACT_BOUNCE_H

#include <stddef.h>

typedef struct vb_bounce {
    double h0, e, g, vth;
    double v0, t0; /* the first impact's speed sqrt(2 g h0) and time sqrt(2 h0 / g) */
    long bounces;  /* n, the impact at which it rests; -1: never (vth = 0, or e = 1) */
    double t_rest; /* T_n, t_inf, or INFINITY (e = 1, v0 >= vth) */
} vb_bounce;

/* 0, or -1 with a message naming the parameter: h0 > 0, e in [0, 1],
 * g > 0, vth >= 0, all finite. */
int vb_bounce_init(vb_bounce *b, double h0, double e, double g, double vth, char *err,
                   size_t errlen);

/* T_k, the time of impact k >= 0 (also past the rest: where it would be) */
double vb_bounce_impact_time(const vb_bounce *b, long k);
/* e^k v0 */
double vb_bounce_impact_speed(const vb_bounce *b, long k);
/* e^(2k) h0, the apex of flight k (k = 0: the drop) */
double vb_bounce_apex(const vb_bounce *b, long k);

/* The height and velocity at t >= 0.  At an impact time the state after
 * it (on the floor, leaving).  Returns the flight the ball is in (0 the
 * drop), or -1 when it rests. */
long vb_bounce_state(const vb_bounce *b, double t, double *y, double *v);

#endif
