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
    double u0 = v0 - w0 * R;
    vb_roll_segment *s = &r->seg[0];
    *s = (vb_roll_segment){.t0 = 0.0, .x = 0.0, .v = v0, .w = w0, .theta = 0.0, .slip = 0.0};
    r->n = 1;
    r->t_roll = INFINITY;
    r->s_roll = r->v_roll = NAN;
    int sign = u0 > 0.0 ? 1 : u0 < 0.0 ? -1 : 0;
    if (sign == 0 && !r->can_roll)
        sign = 1; /* it cannot roll: gravity makes it slip down the slope */
    s->sign = sign;
    accelerations(r, sign, &s->a, &s->aw);
    if (sign == 0) {
        r->t_roll = 0.0;
        r->s_roll = 0.0;
        r->v_roll = v0;
        return 0;
    }
    double du = s->a - s->aw * R;
    if (!(sign * du < 0.0))
        return 0; /* u never comes back to 0: it slips for ever */
    double t1 = -u0 / du;
    vb_roll_point p;
    seg_at(r, s, t1, &p);
    vb_roll_segment *s2 = &r->seg[1];
    *s2 = (vb_roll_segment){.t0 = t1, .x = p.x, .v = p.v, .w = p.v / R, .theta = p.theta,
                            .slip = p.slip};
    /* at u = 0 exactly: w = v / R, not the rounded w of the formula */
    s2->sign = r->can_roll ? 0 : 1;
    accelerations(r, s2->sign, &s2->a, &s2->aw);
    r->n = 2;
    if (r->can_roll) {
        r->t_roll = t1;
        r->s_roll = p.x;
        r->v_roll = p.v;
    }
    return 0;
}

void vb_roll_at(const vb_roll *r, double t, vb_roll_point *p)
{
    const vb_roll_segment *s = &r->seg[r->n == 2 && t >= r->seg[1].t0 ? 1 : 0];
    seg_at(r, s, t - s->t0, p);
}

double vb_roll_energy(const vb_roll *r, const vb_roll_point *p)
{
    return 0.5 * p->v * p->v + 0.5 * r->k * r->R * r->R * p->w * p->w -
           r->g * r->sin_a * p->x;
}
