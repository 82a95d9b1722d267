/* contact/roll.c — a round body slipping, then rolling, on an incline:
 * at most two segments of constant accelerations (roll.h). */
#include "roll.h"

#include "body_contact.h" /* the checks */

#include <math.h>
#include <stdio.h>

/* the state at time tau into segment s */
static void seg_at(const vb_roll *r, const vb_roll_segment *s, double tau, vb_roll_point *p)
{
    p->x = s->x + tau * (s->v + 0.5 * s->a * tau);
    p->v = s->v + s->a * tau;
    p->w = s->w + s->aw * tau;
    p->theta = s->theta + tau * (s->w + 0.5 * s->aw * tau);
    p->u = p->v - p->w * r->R;
    /* u keeps its sign on a slipping segment: the integral of |u| is the
     * sign times the integral of u */
    double u0 = s->v - s->w * r->R, du = s->a - s->aw * r->R;
    p->slip = s->slip + (double)s->sign * tau * (u0 + 0.5 * du * tau);
}

/* a segment's accelerations for a slip of sign s (0: rolling) */
static void accelerations(const vb_roll *r, int s, double *a, double *aw)
{
    if (s == 0) {
        *a = r->g * r->sin_a / (1.0 + r->k);
        *aw = *a / r->R;
        return;
    }
    double f = r->mu * r->g * r->cos_a; /* kinetic friction per unit mass */
    *a = r->g * r->sin_a - s * f;
    *aw = s * f / (r->k * r->R);
}

/* the segments from t0 on, from x, v, w, theta there on the plane (slip
 * distance 0 so far) */
static void plan(vb_roll *r, double t0, double x, double v, double w, double theta)
{
    double R = r->R, u0 = v - w * R;
    vb_roll_segment *s = &r->seg[0];
    *s = (vb_roll_segment){.t0 = t0, .x = x, .v = v, .w = w, .theta = theta, .slip = 0.0};
    r->n = 1;
    r->t_roll = INFINITY;
    r->s_roll = r->v_roll = NAN;
    int sign = u0 > 0.0 ? 1 : u0 < 0.0 ? -1 : 0;
    if (sign == 0 && !r->can_roll)
        sign = 1; /* it cannot roll: gravity makes it slip down the slope */
    s->sign = sign;
    accelerations(r, sign, &s->a, &s->aw);
    if (sign == 0) {
        r->t_roll = t0;
        r->s_roll = x;
        r->v_roll = v;
        return;
    }
    double du = s->a - s->aw * R;
    if (!(sign * du < 0.0))
        return; /* u never comes back to 0: it slips for ever */
    double t1 = -u0 / du;
    vb_roll_point p;
    seg_at(r, s, t1, &p);
    vb_roll_segment *s2 = &r->seg[1];
    *s2 = (vb_roll_segment){.t0 = t0 + t1, .x = p.x, .v = p.v, .w = p.v / R, .theta = p.theta,
                            .slip = p.slip};
    /* at u = 0 exactly: w = v / R, not the rounded w of the formula */
    s2->sign = r->can_roll ? 0 : 1;
    accelerations(r, s2->sign, &s2->a, &s2->aw);
    r->n = 2;
    if (r->can_roll) {
        r->t_roll = s2->t0;
        r->s_roll = p.x;
        r->v_roll = p.v;
    }
}

int vb_roll_init(vb_roll *r, double R, double k, double alpha, double mu, double g, double v0,
                 double w0, char *err, size_t errlen)
{
    if (vb_check_at_least("R", R, 0.0, 1, err, errlen) != 0 ||
        vb_check_at_least("k", k, 0.0, 1, err, errlen) != 0 ||
        vb_check_at_least("mu", mu, 0.0, 0, err, errlen) != 0 ||
        vb_check_incline(g, alpha, err, errlen) != 0)
        return -1;
    if (!isfinite(v0) || !isfinite(w0)) {
        snprintf(err, errlen, "%s: not finite", isfinite(v0) ? "w0" : "v0");
        return -1;
    }
    *r = (vb_roll){.R = R, .k = k, .alpha = alpha, .mu = mu, .g = g, .v0 = v0, .w0 = w0};
    r->sin_a = sin(alpha);
    r->cos_a = cos(alpha);
    /* tan alpha <= mu (1 + k) / k, without dividing: k sin <= mu (1 + k) cos */
    r->can_roll = k * r->sin_a <= mu * (1.0 + k) * r->cos_a;
    plan(r, 0.0, 0.0, v0, w0, 0.0);
    return 0;
}

/* the flight of a dropped body at t in [0, t_land] */
static void flight_at(const vb_roll *r, double t, vb_roll_point *p)
{
    double gs = r->g * r->sin_a, gc = r->g * r->cos_a;
    p->x = t * (r->v0 + 0.5 * gs * t);
    p->v = r->v0 + gs * t;
    p->w = r->w0;
    p->theta = r->w0 * t;
    p->u = p->v - p->w * r->R;
    p->slip = 0.0; /* off the plane friction does no work */
    p->gap = r->h0 - 0.5 * gc * t * t;
    p->vn = -gc * t;
}

int vb_roll_drop(vb_roll *r, double h0, char *err, size_t errlen)
{
    if (vb_check_at_least("h0", h0, 0.0, 0, err, errlen) != 0)
        return -1;
    if (h0 == 0.0)
        return 0;
    double gc = r->g * r->cos_a;
    r->h0 = h0;
    r->t_land = sqrt(2.0 * h0 / gc);
    r->c_land = gc * r->t_land;
    vb_roll_point at;
    flight_at(r, r->t_land, &at);
    /* the impact: the impulse per unit mass along the slope, against the
     * slip, that stops it (the contact point's inverse mass along the plane
     * is 1 + 1/k per unit mass), if Coulomb allows it */
    double stop = at.u * r->k / (1.0 + r->k), bound = r->mu * r->c_land;
    r->impact_sticks = fabs(stop) <= bound;
    r->p_impact = r->impact_sticks ? stop : copysign(bound, at.u);
    double v = at.v - r->p_impact;
    double w = r->impact_sticks ? v / r->R : at.w + r->p_impact / (r->k * r->R);
    plan(r, r->t_land, at.x, v, w, at.theta);
    return 0;
}

void vb_roll_at(const vb_roll *r, double t, vb_roll_point *p)
{
    if (t < r->t_land) {
        flight_at(r, t, p);
        return;
    }
    p->gap = p->vn = 0.0;
    const vb_roll_segment *s = &r->seg[r->n == 2 && t >= r->seg[1].t0 ? 1 : 0];
    seg_at(r, s, t - s->t0, p);
}

double vb_roll_energy(const vb_roll *r, const vb_roll_point *p)
{
    return 0.5 * p->v * p->v + 0.5 * r->k * r->R * r->R * p->w * p->w -
           r->g * r->sin_a * p->x;
}
