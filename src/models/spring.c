/* models/spring.c — the harmonic oscillator x'' = -(k/m) x, whose discrete
 * solutions under every integrator are known in closed form. */
#include "model.h"

#include <math.h>

typedef struct {
    double w, w2, x0, v0;
} spring;

static const vb_param_spec params[] = {
    {"k", 1.0, 0.0, INFINITY, 1, 0, "spring constant, N/m", 0},
    {"m", 1.0, 0.0, INFINITY, 1, 0, "mass, kg", 0},
    {"x0", 1.0, -INFINITY, INFINITY, 0, 0, "initial displacement, m", 0},
    {"v0", 0.0, -INFINITY, INFINITY, 0, 0, "initial velocity, m/s", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    spring *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    s->w2 = p[0] / p[1];
    s->w = sqrt(s->w2);
    s->x0 = p[2];
    s->v0 = p[3];
    return s;
}

static void initial(const void *self, double *x, double *v)
{
    const spring *s = self;
    x[0] = s->x0;
    v[0] = s->v0;
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t;
    (void)v;
    const spring *s = self;
    a[0] = -s->w2 * x[0];
}

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    const spring *s = self;
    double c = cos(s->w * t), sn = sin(s->w * t);
    x[0] = s->x0 * c + (s->v0 / s->w) * sn;
    v[0] = s->v0 * c - s->x0 * s->w * sn;
    return 0;
}

/* per unit mass */
static double energy(const void *self, const double *x, const double *v)
{
    const spring *s = self;
    return 0.5 * (v[0] * v[0] + s->w2 * x[0] * x[0]);
}

static double natural_time(const void *self)
{
    const spring *s = self;
    return 2.0 * M_PI / s->w;
}

const vb_model_type vb_model_spring = {
    .name = "spring",
    .summary = "1-D harmonic oscillator x'' = -(k/m) x; energy (v^2 + (k/m) x^2)/2, its potential "
               "zero at x = 0",
    .dim = 1,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = VB_PERIODIC,
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
