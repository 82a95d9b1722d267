/* models/pendulum.c — the nonlinear pendulum theta'' = -(g/L) sin theta from
 * rest at theta0 as one angle, exact through Jacobi's elliptic functions
 * (pendulum_solution.h: the solution, and why it is written as it is). */
#include "model.h"
#include "pendulum_solution.h"

#include <math.h>

typedef vb_pendulum_solution pendulum;

static const vb_param_spec params[] = {
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravitational acceleration, m/s^2", 0},
    {"L", 1.0, 0.0, INFINITY, 1, 0, "length, m", 0},
    {"theta0", 1.0, 0.0, M_PI, 1, 1, "initial angle from the bottom, radians, 0 < theta0 < pi", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    pendulum *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (s)
        vb_pendulum_solution_init(s, p[0], p[1], p[2]);
    return s;
}

static void initial(const void *self, double *x, double *v)
{
    const pendulum *s = self;
    x[0] = s->theta0;
    v[0] = 0.0;
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t;
    (void)v;
    const pendulum *s = self;
    a[0] = -s->w2 * sin(x[0]);
}

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    return vb_pendulum_angle(self, t, &x[0], &v[0]);
}

/* per unit m L^2, zero at the bottom; 1 - cos written as 2 sin^2 to keep digits */
static double energy(const void *self, const double *x, const double *v)
{
    const pendulum *s = self;
    double h = sin(0.5 * x[0]);
    return 0.5 * v[0] * v[0] + 2.0 * s->w2 * h * h;
}

static double natural_time(const void *self) { return vb_pendulum_period(self); }

const vb_model_type vb_model_pendulum = {
    .name = "pendulum",
    .summary = "1-D pendulum theta'' = -(g/L) sin theta from rest (exact via Jacobi sn, cn); energy "
               "theta'^2/2 + (g/L)(1 - cos theta), its potential zero hanging straight down",
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
