/* models/projectile.c — constant gravity: the case position Verlet gets exactly
 * right with fixed steps (Dummer 2005), and a sharp test of start-up rules. */
#include "model.h"

#include <math.h>

typedef struct {
    double g, vx0, vy0;
} projectile;

static const vb_param_spec params[] = {
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravitational acceleration, m/s^2", 0},
    {"speed", 20.0, 0.0, INFINITY, 0, 0, "launch speed, m/s", 0},
    {"angle", 45.0, -90.0, 90.0, 0, 0, "launch angle above the horizontal, degrees", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    projectile *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    double rad = p[2] * (M_PI / 180.0);
    s->g = p[0];
    s->vx0 = p[1] * cos(rad);
    s->vy0 = p[1] * sin(rad);
    return s;
}

static void initial(const void *self, double *x, double *v)
{
    const projectile *s = self;
    x[0] = 0.0;
    x[1] = 0.0;
    v[0] = s->vx0;
    v[1] = s->vy0;
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t;
    (void)x;
    (void)v;
    const projectile *s = self;
    a[0] = 0.0;
    a[1] = -s->g;
}

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    const projectile *s = self;
    x[0] = s->vx0 * t;
    x[1] = s->vy0 * t - 0.5 * s->g * t * t;
    v[0] = s->vx0;
    v[1] = s->vy0 - s->g * t;
    return 0;
}

/* per unit mass, zero at the launch height */
static double energy(const void *self, const double *x, const double *v)
{
    const projectile *s = self;
    return 0.5 * (v[0] * v[0] + v[1] * v[1]) + s->g * x[1];
}

/* time of flight back to the launch height; one second if it never rises */
static double natural_time(const void *self)
{
    const projectile *s = self;
    double tof = 2.0 * s->vy0 / s->g;
    return tof > 0.0 ? tof : 1.0;
}

const vb_model_type vb_model_projectile = {
    .name = "projectile",
    .summary = "2-D constant gravity from the origin: x0 + v0 t + a t^2/2; energy |v|^2/2 + g y, "
               "its potential zero at the launch height",
    .dim = 2,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = 0,
    .create = create,
    .destroy = vb_model_self_free,
    .particles = vb_model_one_particle,
    .initial = initial,
    .accel = accel,
    .work_alloc = NULL,
    .work_free = NULL,
    .exact = exact,
    .energy = energy,
    .masses = NULL,
    .natural_time = natural_time,
};
