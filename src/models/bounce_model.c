/* models/bounce_model.c — the bounce as a model: a ball (its lowest point,
 * y) dropped from rest at h0 onto the floor y = 0 with restitution e under
 * gravity g, restitution threshold vth.  The force is gravity alone: the
 * floor is a contact (walls.h), which a handler round the method resolves
 * ([contact] handler = ...), or an engine (protocol 4: a ball of radius r);
 * the exact solution is contact/bounce.h's. */
#include <math.h>

#include "walls.h"

static const vb_param_spec params[] = {
    {"h0", 1.0, 0.0, INFINITY, 1, 0, "drop height, m", 0},
    {"e", 0.8, 0.0, 1.0, 0, 0, "restitution", 0},
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravitational acceleration, m/s^2", 0},
    {"vth", 0.0, 0.0, INFINITY, 0, 0,
     "restitution threshold, m/s: an impact slower than it does not bounce", 0},
    {"r", 0.1, 0.0, INFINITY, 1, 0,
     "the radius of an engine's ball, m; its lowest point is the model's, so the exact answer "
     "does not depend on it",
     0},
};

/* the exact bounce first: it is what exact() reads */
typedef struct {
    vb_bounce b;
    double r;
} bounce_model;

static void *create(const double *p, char *err, size_t errlen)
{
    bounce_model *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (s && vb_bounce_init(&s->b, p[0], p[1], p[2], p[3], err, errlen) != 0) {
        vb_model_self_free(s);
        return NULL;
    }
    if (s)
        s->r = p[4];
    return s;
}

static void initial(const void *self, double *x, double *v)
{
    x[0] = ((const vb_bounce *)self)->h0;
    v[0] = 0.0;
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t, (void)x, (void)v;
    a[0] = -((const vb_bounce *)self)->g;
}

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    vb_bounce_state(self, t, x, v);
    return 0;
}

/* to the rest and a flight beyond; with no rest (e = 1, or vth = 0 with
 * e < 1 past t_inf's crowd), to the 10th impact and half a flight on,
 * which the energy gained after 10 bounces needs */
static double natural_time(const void *self)
{
    const vb_bounce *b = self;
    double ten = vb_bounce_impact_time(b, 10) + b->t0;
    return isfinite(b->t_rest) && b->t_rest < ten ? b->t_rest + b->t0 : ten;
}

void vb_bounce_model_wall(const void *self, vb_model_wall *w)
{
    const bounce_model *s = self;
    const vb_bounce *b = &s->b;
    w->kind = VB_WALL_BOUNCE;
    w->geom.dim = 1;
    w->geom.normal[0] = 1.0;
    w->geom.restitution = b->e;
    w->geom.threshold = b->vth;
    w->g_normal = b->g;
    w->gravity[0] = -b->g;
    /* a ball whose lowest point is the model's: its centre r above it */
    w->body.kind = VB_ENGINE_BALL;
    w->body.radius = s->r;
    w->body.centre[0] = s->r;
    w->bounce = b;
}

const vb_model_type vb_model_bounce = {
    .name = "bounce",
    .summary = "1-D ball dropped from h0 onto the floor y = 0, restitution e, threshold vth: "
               "apexes e^2n h0; its contact dissipates energy unless e = 1: no energy error; "
               "run it with [contact], or an engine's ball of radius r",
    .dim = 1,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = 0,
    .create = create,
    .destroy = vb_model_self_free,
    .particles = vb_model_one_particle,
    .initial = initial,
    .accel = accel,
    .exact = exact,
    .energy = NULL,
    .natural_time = natural_time,
};
