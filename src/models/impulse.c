/* models/impulse.c — a push given in one frame: a body at rest, pushed by a
 * force J/tau for tau seconds and slowed by linear drag c,
 * m x'' = F(t) - c x', F = J/tau on [0, tau), 0 after.  It carries
 * exactly J/c, whatever tau is.  A game that applies the push as a force
 * for one frame of its own gives an impulse of (J/tau) h ceil(tau/h)
 * instead (docs/method.md §9): the symptom this model measures. */
#include "model.h"

#include <math.h>

typedef struct {
    double m, c, J, tau;
    double k, F; /* c/m and the push J/tau */
} impulse;

static const vb_param_spec params[] = {
    {"m", 1.0, 0.0, INFINITY, 1, 0, "mass, kg", 0},
    {"c", 1.0, 0.0, INFINITY, 1, 0, "linear drag, kg/s", 0},
    {"J", 1.0, 0.0, INFINITY, 1, 0, "the impulse, N s", 0},
    {"tau", 0.016666666666666666, 0.0, INFINITY, 1, 0,
     "how long the push lasts, s (one frame at 60 Hz)", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    impulse *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    s->m = p[0];
    s->c = p[1];
    s->J = p[2];
    s->tau = p[3];
    s->k = s->c / s->m;
    s->F = s->J / s->tau;
    return s;
}

static void initial(const void *self, double *x, double *v)
{
    (void)self;
    x[0] = 0.0;
    v[0] = 0.0;
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)x;
    const impulse *s = self;
    a[0] = ((t < s->tau ? s->F : 0.0) - s->c * v[0]) / s->m;
}

/* on [0, tau): v = (F/c)(1 - e^{-kt}), x = (F/c)(t - (1 - e^{-kt})/k);
 * after: v = v_tau e^{-k(t - tau)}, x = x_tau + (v_tau/k)(1 - e^{-k(t - tau)}) */
static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    const impulse *s = self;
    double t1 = t < s->tau ? t : s->tau;
    double g1 = -expm1(-s->k * t1); /* 1 - e^{-k t1} */
    double v1 = s->F / s->c * g1, x1 = s->F / s->c * (t1 - g1 / s->k);
    if (t <= s->tau) {
        x[0] = x1;
        v[0] = v1;
        return 0;
    }
    double g2 = -expm1(-s->k * (t - s->tau));
    x[0] = x1 + v1 / s->k * g2;
    v[0] = v1 * (1.0 - g2);
    return 0;
}

/* the drag's time m/c: the body has carried all but 1/e of its way */
static double natural_time(const void *self)
{
    const impulse *s = self;
    return s->m / s->c;
}

const vb_model_type vb_model_impulse = {
    .name = "impulse",
    .summary = "1-D push J/tau for tau seconds against drag c: carries J/c; it dissipates energy: no "
               "energy error",
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
