/* models/box_incline.c — `box-incline`: a cube on an incline, static and
 * kinetic friction, launched down the slope at v0 >= 0 (docs/contact.md,
 * "3D: rolling and resting bodies"); its exact motion is
 * contact/box_slide.h's: it sticks iff tan alpha <= mu_s (v0 = 0), else
 * slides at g (sin alpha - mu_k cos alpha) and, decelerating, stops and
 * sticks.  Its four bottom corners touch the plane.
 *
 * The cube of edge `size` (moment m size^2 / 6 about every axis) rests on
 * its face, its z axis along the plane's normal (incline.h's tilt), its
 * centre at the origin, the plane n.x = -size/2 under it.  It never turns:
 * q(t) = the tilt, w = 0, x(t) = x_slide(t) d.
 *
 * A cube flat on the slope neither tips nor lifts a corner as long as the
 * normal force's centre stays inside its face: held by static friction it
 * needs tan alpha <= 1, sliding it needs mu_k <= 1 (the friction's moment
 * about the centre of mass, mu_k N size/2, against the normal force's,
 * N times the centre of pressure's offset, at most size/2).  Parameters
 * that would tip it are refused: the exact answer would not be a slide. */
#include <math.h>
#include <stdio.h>

#include "box_slide.h"
#include "incline.h"
#include "model.h" /* vb_model_self_alloc */
#include "rigid.h"

typedef struct box_incline {
    vb_box_slide sol;
    double size, m, e;
    double n[3], d[3], axis[3], q0[4];
} box_incline;

static const vb_param_spec params[] = {
    {"size", 0.1, 0.0, INFINITY, 1, 0, "the cube's edge, m", 0},
    {"alpha", 30.0, 0.0, 90.0, 0, 1, "the plane's inclination, degrees", 0},
    {"mu_s", 0.7, 0.0, INFINITY, 0, 0, "static friction coefficient", 0},
    /* -1: mu_s's value, so that a grid of mu_s is a grid of one coefficient
     * (the solvers of one coefficient refuse mu_k != mu_s) */
    {"mu_k", -1.0, -1.0, INFINITY, 0, 0,
     "kinetic friction coefficient (<= mu_s); -1: the same as mu_s", 0},
    {"e", 0.0, 0.0, 1.0, 0, 0, "restitution of the contact", 0},
    {"v0", 0.0, 0.0, INFINITY, 0, 0, "initial speed down the slope, m/s", 0},
    {"m", 1.0, 0.0, INFINITY, 1, 0, "mass, kg", 0},
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravity, m/s^2, along -z of the world", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    box_incline *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    double alpha = p[1] * (M_PI / 180.0), mu_k = p[3] == -1.0 ? p[2] : p[3];
    if (!(mu_k >= 0.0)) {
        snprintf(err, errlen, "mu_k = %g: a coefficient >= 0, or -1 for mu_s's", p[3]);
        vb_model_self_free(s);
        return NULL;
    }
    if (vb_box_slide_init(&s->sol, p[5], p[2], mu_k, p[7], alpha, err, errlen) != 0) {
        vb_model_self_free(s);
        return NULL;
    }
    /* held: tan alpha <= 1; sliding at some time: mu_k <= 1 */
    if (s->sol.sticks && !(sin(alpha) <= cos(alpha))) {
        snprintf(err, errlen, "alpha = %g degrees: held by static friction on a slope steeper "
                              "than 45 degrees the cube tips over its lower edge",
                 p[1]);
        vb_model_self_free(s);
        return NULL;
    }
    if ((s->sol.v0 > 0.0 || !s->sol.sticks) && !(mu_k <= 1.0)) {
        snprintf(err, errlen, "mu_k = %g: a cube sliding with mu_k > 1 tips over its front edge",
                 mu_k);
        vb_model_self_free(s);
        return NULL;
    }
    s->size = p[0];
    s->e = p[4];
    s->m = p[6];
    vb_incline_frame(alpha, s->n, s->d, s->axis);
    vb_incline_tilt(alpha, s->q0);
    return s;
}

static void props(const void *self, vb_rigid_props *p)
{
    const box_incline *s = self;
    vb_incline_props(s->m * s->size * s->size / 6.0, s->m, s->sol.g, p);
}

static void fill(const box_incline *s, double x, double v, vb_rigid_state *st)
{
    for (int i = 0; i < 3; i++) {
        st->x[i] = x * s->d[i];
        st->v[i] = v * s->d[i];
        st->w[i] = 0.0;
    }
    for (int i = 0; i < 4; i++)
        st->q[i] = s->q0[i];
}

static void initial(const void *self, vb_rigid_state *st)
{
    const box_incline *s = self;
    fill(s, 0.0, s->sol.v0, st);
}

static int exact(const void *self, void *work, double t, vb_rigid_state *st)
{
    (void)work;
    const box_incline *s = self;
    double x, v;
    vb_box_slide_state(&s->sol, t, &x, &v);
    fill(s, x, v, st);
    return 0;
}

/* half as long again as it slides before it stops; 1 s where it sticks
 * from the start or never stops */
static double natural_time(const void *self)
{
    const box_incline *s = self;
    double t = s->sol.t_stop;
    return isfinite(t) && t > 0.0 ? 1.5 * t : 1.0;
}

static double w_period(const void *self)
{
    (void)self;
    return 0.0; /* w = 0 throughout */
}

static int contact(const void *self, vb_body_contact *c)
{
    const box_incline *s = self;
    double h = 0.5 * s->size;
    vb_body_shape cube = {.kind = VB_SHAPE_BOX, .half = {h, h, h}};
    vb_incline_contact(s->sol.alpha, h, &cube, s->sol.mu_s, s->sol.mu_k, s->e, c);
    return 0;
}

static void answer(const void *self, vb_contact_answer *a)
{
    const box_incline *s = self;
    int stops = s->sol.sticks;
    *a = (vb_contact_answer){.round = 0,
                             .t_roll = (double)NAN,
                             .s_roll = (double)NAN,
                             .v_roll = (double)NAN,
                             .sticks = stops,
                             .t_stop = stops ? s->sol.t_stop : (double)INFINITY,
                             .t_last = stops ? s->sol.t_stop : 0.0,
                             .accel = stops ? 0.0 : s->sol.a};
}

const vb_rigid_model_type vb_rigid_model_box_incline = {
    .name = "box-incline",
    .summary = "a cube on an incline, mu_s and mu_k, launched down it at v0: sticks iff "
               "tan(alpha) <= mu_s, else slides at g (sin - mu_k cos); exact",
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
