/* models/damped_spring.c — an under-damped oscillator m x'' = -k x - c x'.
 * Its force reads the velocity, which the position-Verlet family can only
 * estimate; the harness reports what that costs. */
#include "model.h"
#include "vector.h"

#include <math.h>
#include <stdio.h>

typedef struct {
    double k, m, c, x0, v0;
    double gamma, wd; /* decay rate c/2m and damped frequency */
} damped;

static const vb_param_spec params[] = {
    {"k", 1.0, 0.0, INFINITY, 1, 0, "spring constant, N/m", 0},
    {"m", 1.0, 0.0, INFINITY, 1, 0, "mass, kg", 0},
    {"c", 0.1, 0.0, INFINITY, 0, 0, "damping coefficient, kg/s (under-damped: c^2 < 4km)", 0},
    {"x0", 1.0, -INFINITY, INFINITY, 0, 0, "initial displacement, m", 0},
    {"v0", 0.0, -INFINITY, INFINITY, 0, 0, "initial velocity, m/s", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    damped *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    s->k = p[0];
    s->m = p[1];
    s->c = p[2];
    s->x0 = p[3];
    s->v0 = p[4];
    s->gamma = s->c / (2.0 * s->m);
    double w02 = s->k / s->m;
    if (!(s->gamma * s->gamma < w02)) {
        snprintf(err, errlen,
                 "c = %g is not under-damped for k = %g, m = %g: need c^2 < 4km (c < %.6g)",
                 s->c, s->k, s->m, 2.0 * vb_sqrt_product(s->k, s->m));
        vb_model_self_free(s);
        return NULL;
    }
    s->wd = sqrt(w02 - s->gamma * s->gamma);
    return s;
}

static void initial(const void *self, double *x, double *v)
{
    const damped *s = self;
    x[0] = s->x0;
    v[0] = s->v0;
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t;
    const damped *s = self;
    a[0] = -(s->k * x[0] + s->c * v[0]) / s->m;
}

/* x = e^{-gt} (A cos wt + B sin wt),  A = x0,  B = (v0 + g x0)/w */
static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    const damped *s = self;
    double decay = exp(-s->gamma * t);
    double c = cos(s->wd * t), sn = sin(s->wd * t);
    double b = (s->v0 + s->gamma * s->x0) / s->wd;
    x[0] = decay * (s->x0 * c + b * sn);
    v[0] = decay * (s->v0 * c - (s->gamma * b + s->x0 * s->wd) * sn);
    return 0;
}

static double natural_time(const void *self)
{
    const damped *s = self;
    return 2.0 * M_PI / s->wd;
}

const vb_model_type vb_model_damped_spring = {
    .name = "damped-spring",
    .summary = "1-D under-damped oscillator m x'' = -k x - c x'; it dissipates energy: no energy "
               "error",
    .dim = 1,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = VB_VELOCITY_DEPENDENT,
    .create = create,
    .destroy = vb_model_self_free,
    .particles = vb_model_one_particle,
    .initial = initial,
    .accel = accel,
    .work_alloc = NULL,
    .work_free = NULL,
    .exact = exact,
    .energy = NULL,
    .masses = NULL,
    .natural_time = natural_time,
};
