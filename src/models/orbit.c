/* models/orbit.c — the Kepler problem x'' = -mu x/|x|^3, started at periapsis
 * and moving in +y.  The exact solution goes through Kepler's equation. */
#include "model.h"
#include "kepler.h"

#include <math.h>

typedef struct {
    double mu, a, e;
    double b, n; /* semi-minor axis and mean motion */
} orbit;

static const vb_param_spec params[] = {
    {"mu", 1.0, 0.0, INFINITY, 1, 0, "gravitational parameter G(M+m)", 0},
    {"a", 1.0, 0.0, INFINITY, 1, 0, "semi-major axis", 0},
    {"e", 0.5, 0.0, 1.0, 0, 1, "eccentricity, 0 <= e < 1", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    orbit *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    s->mu = p[0];
    s->a = p[1];
    s->e = p[2];
    s->b = s->a * sqrt((1.0 - s->e) * (1.0 + s->e));
    s->n = sqrt(s->mu / (s->a * s->a * s->a));
    return s;
}

static void initial(const void *self, double *x, double *v)
{
    const orbit *s = self;
    x[0] = s->a * (1.0 - s->e);
    x[1] = 0.0;
    v[0] = 0.0;
    v[1] = sqrt(s->mu / s->a * (1.0 + s->e) / (1.0 - s->e));
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t;
    (void)v;
    const orbit *s = self;
    double r2 = x[0] * x[0] + x[1] * x[1];
    double k = -s->mu / (r2 * sqrt(r2));
    a[0] = k * x[0];
    a[1] = k * x[1];
}

static void *work_alloc(const void *self)
{
    const orbit *s = self;
    return vb_kepler_track_alloc(s->a, s->e, s->n);
}

static void work_free(void *work) { vb_kepler_track_free(work); }

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)self;
    return vb_kepler_track_at(work, t, x, v);
}

static double energy(const void *self, const double *x, const double *v)
{
    const orbit *s = self;
    return 0.5 * (v[0] * v[0] + v[1] * v[1]) - s->mu / sqrt(x[0] * x[0] + x[1] * x[1]);
}

static double natural_time(const void *self)
{
    const orbit *s = self;
    return 2.0 * M_PI / s->n;
}

const vb_model_type vb_model_orbit = {
    .name = "orbit",
    .summary = "2-D Kepler orbit x'' = -mu x/|x|^3 from periapsis (exact via Kepler's equation); "
               "energy |v|^2/2 - mu/|x|, its potential zero at infinity",
    .dim = 2,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = VB_PERIODIC | VB_CONSERVES_ANGMOM,
    .create = create,
    .destroy = vb_model_self_free,
    .particles = vb_model_one_particle,
    .initial = initial,
    .accel = accel,
    .work_alloc = work_alloc,
    .work_free = work_free,
    .exact = exact,
    .energy = energy,
    .masses = NULL,
    .natural_time = natural_time,
};
