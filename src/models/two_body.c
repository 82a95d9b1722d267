/* models/two_body.c — the Kepler problem as two bodies of masses m1 and m2
 * in Cartesian coordinates, both moving, their centre of mass at rest at the
 * origin:
 *
 *     m1 x1'' = G m1 m2 (x2 - x1)/|x2 - x1|^3 = -m2 x2''.
 *
 * Exact from the relative orbit r = x2 - x1 (the `orbit` model's solution,
 * mu = G (m1 + m2), from periapsis): x1 = -(m2/M) r, x2 = (m1/M) r.  What
 * the one-body orbit cannot show: the total momentum (zero) and angular
 * momentum of a pair an integrator moves body by body. */
#include "model.h"
#include "kepler.h"

#include <math.h>

typedef struct {
    double G, m1, m2, M, a, e, mu, n;
} two_body;

static const vb_param_spec params[] = {
    {"m1", 1.0, 0.0, INFINITY, 1, 0, "mass of the first body", 0},
    {"m2", 0.5, 0.0, INFINITY, 1, 0, "mass of the second body", 0},
    {"G", 1.0, 0.0, INFINITY, 1, 0, "gravitational constant", 0},
    {"a", 1.0, 0.0, INFINITY, 1, 0, "semi-major axis of the relative orbit", 0},
    {"e", 0.5, 0.0, 1.0, 0, 1, "eccentricity, 0 <= e < 1", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    two_body *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    s->m1 = p[0];
    s->m2 = p[1];
    s->G = p[2];
    s->a = p[3];
    s->e = p[4];
    s->M = s->m1 + s->m2;
    s->mu = s->G * s->M;
    s->n = sqrt(s->mu / (s->a * s->a * s->a));
    return s;
}

static size_t particles(const void *self)
{
    (void)self;
    return 2;
}

/* bodies from the relative state (r, u) = (x2 - x1, v2 - v1) */
static void split(const two_body *s, const double *r, const double *u, double *x, double *v)
{
    double f1 = -s->m2 / s->M, f2 = s->m1 / s->M;
    for (int c = 0; c < 2; c++) {
        x[c] = f1 * r[c];
        x[2 + c] = f2 * r[c];
        v[c] = f1 * u[c];
        v[2 + c] = f2 * u[c];
    }
}

static void initial(const void *self, double *x, double *v)
{
    const two_body *s = self;
    double r[2] = {s->a * (1.0 - s->e), 0.0};
    double u[2] = {0.0, sqrt(s->mu / s->a * (1.0 + s->e) / (1.0 - s->e))};
    split(s, r, u, x, v);
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t;
    (void)v;
    const two_body *s = self;
    double dx = x[2] - x[0], dy = x[3] - x[1];
    double r2 = dx * dx + dy * dy, k = s->G / (r2 * sqrt(r2));
    a[0] = k * s->m2 * dx;
    a[1] = k * s->m2 * dy;
    a[2] = -k * s->m1 * dx;
    a[3] = -k * s->m1 * dy;
}

static void *work_alloc(const void *self)
{
    const two_body *s = self;
    return vb_kepler_track_alloc(s->a, s->e, s->n);
}

static void work_free(void *work) { vb_kepler_track_free(work); }

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    double r[2], u[2];
    if (vb_kepler_track_at(work, t, r, u) != 0)
        return -1;
    split(self, r, u, x, v);
    return 0;
}

static double energy(const void *self, const double *x, const double *v)
{
    const two_body *s = self;
    double kin = 0.5 * s->m1 * (v[0] * v[0] + v[1] * v[1]) +
                 0.5 * s->m2 * (v[2] * v[2] + v[3] * v[3]);
    return kin - s->G * s->m1 * s->m2 / hypot(x[2] - x[0], x[3] - x[1]);
}

static void masses(const void *self, double *m)
{
    const two_body *s = self;
    m[0] = s->m1;
    m[1] = s->m2;
}

static double natural_time(const void *self)
{
    const two_body *s = self;
    return 2.0 * M_PI / s->n;
}

const vb_model_type vb_model_two_body = {
    .name = "two-body",
    .summary = "2-D Kepler pair: both bodies moving about their centre of mass (exact via "
               "Kepler's equation); energy kinetic - G m1 m2/r, its potential zero at infinite r",
    .dim = 2,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = VB_PERIODIC | VB_CONSERVES_MOMENTUM | VB_CONSERVES_ANGMOM,
    .create = create,
    .destroy = vb_model_self_free,
    .particles = particles,
    .initial = initial,
    .accel = accel,
    .work_alloc = work_alloc,
    .work_free = work_free,
    .exact = exact,
    .energy = energy,
    .masses = masses,
    .natural_time = natural_time,
};
