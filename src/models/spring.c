/* models/spring.c — the harmonic oscillator x'' = -(k/m) x, whose discrete
 * solutions under every integrator are known in closed form. */
#include "model.h"

#include <math.h>

typedef struct {
    double w, w2, x0, v0;
} spring;

_Static_assert(sizeof(spring) <= VB_MODEL_STORAGE, "spring fits the model storage");

static const vb_param_spec params[] = {
    {"k", 1.0, 0.0, INFINITY, 1, 0, "spring constant, N/m"},
    {"m", 1.0, 0.0, INFINITY, 1, 0, "mass, kg"},
    {"x0", 1.0, -INFINITY, INFINITY, 0, 0, "initial displacement, m"},
    {"v0", 0.0, -INFINITY, INFINITY, 0, 0, "initial velocity, m/s"},
};

static int setup(void *self, const double *p, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    spring *s = self;
    s->w2 = p[0] / p[1];
    s->w = sqrt(s->w2);
    s->x0 = p[2];
    s->v0 = p[3];
    return 0;
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

/* accel on lanes: the same operations, lane by lane (lanes.h) */
static void accel_lanes(const void *restrict self, const double *restrict t,
                        const double x[restrict VB_MAX_DIM][VB_LANES],
                        const double v[restrict VB_MAX_DIM][VB_LANES],
                        double a[restrict VB_MAX_DIM][VB_LANES])
{
    (void)t;
    (void)v;
    const spring *s = self;
    for (size_t i = 0; i < VB_LANES; i++) {
        a[0][i] = -s->w2 * x[0][i];
    }
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
    .summary = "1-D harmonic oscillator x'' = -(k/m) x",
    .dim = 1,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .velocity_dependent = 0,
    .periodic = 1,
    .setup = setup,
    .initial = initial,
    .accel = accel,
    .accel_lanes = accel_lanes,
    .work_alloc = NULL,
    .work_free = NULL,
    .exact = exact,
    .energy = energy,
    .angmom = NULL,
    .natural_time = natural_time,
};
