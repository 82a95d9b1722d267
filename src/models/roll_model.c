/* models/roll_model.c — `roll`: a round body launched along an incline,
 * slipping, then rolling (docs/contact.md, "3D: rolling and resting
 * bodies"); its exact motion along the slope is contact/roll.h's.
 *
 * The body is a ball of radius R with the isotropic moment k m R^2 about
 * every axis: k = 2/5 is a solid sphere, 2/3 a thin shell; k = 1/2 moves as
 * a cylinder does about its axis (the motion is a turn about the one
 * rolling axis, and the contact the same point).  Isotropic, its
 * gyroscopic term w x I w is zero, so every rotation method keeps its w
 * between contact impulses.  On the incline of incline.h, launched down
 * the slope at v0 with spin w0 about the rolling axis (w0 = v0 / R rolls),
 * its centre at the origin, the plane n.x = -R under it:
 *     x(t) = x_roll(t) d,  v(t) = v_roll(t) d,
 *     q(t) = (cos(theta/2), 0, sin(theta/2), 0)  (a turn by theta(t) about
 *            the rolling axis, the world y, from q = 1),
 *     w(t) = (0, w_roll(t), 0) in the body frame (the turn is about y). */
#include <math.h>

#include "incline.h"
#include "model.h" /* vb_model_self_alloc */
#include "rigid.h"
#include "roll.h"

typedef struct roll_model {
    vb_roll sol;
    double m, e;
    double n[3], d[3], axis[3];
} roll_model;

static const vb_param_spec params[] = {
    {"R", 0.1, 0.0, INFINITY, 1, 0, "radius, m", 0},
    {"k", 0.4, 0.0, INFINITY, 1, 0,
     "moment of inertia over m R^2 (2/5 solid sphere, 2/3 shell, 1/2 cylinder)", 0},
    {"alpha", 0.0, 0.0, 90.0, 0, 1, "the plane's inclination, degrees", 0},
    {"mu", 0.5, 0.0, INFINITY, 0, 0, "Coulomb friction coefficient (static = kinetic)", 0},
    {"e", 0.0, 0.0, 1.0, 0, 0, "restitution of the contact", 0},
    {"v0", 2.0, -INFINITY, INFINITY, 0, 0, "initial speed of the centre down the slope, m/s", 0},
    {"w0", 0.0, -INFINITY, INFINITY, 0, 0,
     "initial spin about the rolling axis, rad/s (w0 = v0/R rolls; < v0/R slips forward)", 0},
    {"m", 1.0, 0.0, INFINITY, 1, 0, "mass, kg", 0},
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravity, m/s^2, along -z of the world", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    roll_model *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    double alpha = p[2] * (M_PI / 180.0);
    if (vb_roll_init(&s->sol, p[0], p[1], alpha, p[3], p[8], p[5], p[6], err, errlen) != 0) {
        vb_model_self_free(s);
        return NULL;
    }
    s->e = p[4];
    s->m = p[7];
    vb_incline_frame(alpha, s->n, s->d, s->axis);
    return s;
}

static void props(const void *self, vb_rigid_props *p)
{
    const roll_model *s = self;
    vb_incline_props(s->sol.k * s->m * s->sol.R * s->sol.R, s->m, s->sol.g, p);
}

static void fill(const roll_model *s, const vb_roll_point *pt, vb_rigid_state *st)
{
    for (int i = 0; i < 3; i++) {
        st->x[i] = pt->x * s->d[i];
        st->v[i] = pt->v * s->d[i];
    }
    st->q[0] = cos(0.5 * pt->theta);
    st->q[1] = 0.0;
    st->q[2] = sin(0.5 * pt->theta);
    st->q[3] = 0.0;
    st->w[0] = st->w[2] = 0.0;
    st->w[1] = pt->w;
}

static void initial(const void *self, vb_rigid_state *st)
{
    const roll_model *s = self;
    vb_roll_point pt = {.x = 0.0, .v = s->sol.v0, .w = s->sol.w0, .theta = 0.0};
    fill(s, &pt, st);
}

static int exact(const void *self, void *work, double t, vb_rigid_state *st)
{
    (void)work;
    const roll_model *s = self;
    vb_roll_point pt;
    vb_roll_at(&s->sol, t, &pt);
    fill(s, &pt, st);
    return 0;
}

/* half as long again as it slips before it rolls; a second where it rolls
 * from the start or never does */
static double natural_time(const void *self)
{
    const roll_model *s = self;
    double t = s->sol.t_roll;
    return isfinite(t) && t > 0.0 ? 1.5 * t : 1.0;
}

/* w is constant only where nothing turns it (every segment's dw/dt is 0);
 * else it never comes back */
static double w_period(const void *self)
{
    const roll_model *s = self;
    for (int i = 0; i < s->sol.n; i++)
        if (s->sol.seg[i].aw != 0.0)
            return INFINITY;
    return 0.0;
}

static int contact(const void *self, vb_body_contact *c)
{
    const roll_model *s = self;
    vb_body_shape ball = {.kind = VB_SHAPE_SPHERE, .radius = s->sol.R};
    vb_incline_contact(s->sol.alpha, s->sol.R, &ball, s->sol.mu, s->sol.mu, s->e, c);
    return 0;
}

static void answer(const void *self, vb_contact_answer *a)
{
    const roll_model *s = self;
    const vb_roll_segment *last = &s->sol.seg[s->sol.n - 1];
    *a = (vb_contact_answer){.round = 1,
                             .t_roll = s->sol.t_roll,
                             .s_roll = s->sol.s_roll,
                             .v_roll = s->sol.v_roll,
                             .sticks = 0,
                             .t_stop = (double)NAN,
                             .t_last = last->t0,
                             .accel = last->a};
}

const vb_rigid_model_type vb_rigid_model_roll = {
    .name = "roll",
    .summary = "a ball (moment k m R^2) launched on an incline, Coulomb mu: slips, then rolls at "
               "g sin(alpha)/(1+k) iff tan(alpha) <= mu (1+k)/k; exact",
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = 0,
    .create = create,
    .destroy = vb_model_self_free,
    .props = props,
    .initial = initial,
    .exact = exact,
    .work_alloc = NULL,
    .work_free = NULL,
    .natural_time = natural_time,
    .w_period = w_period,
    .contact = contact,
    .answer = answer,
};
