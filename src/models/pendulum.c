/* models/pendulum.c — the nonlinear pendulum theta'' = -(g/L) sin theta from
 * rest at theta0, exact through Jacobi's elliptic functions:
 *     sin(theta/2) = k sn(u),  cos(theta/2) = dn(u),  u = K - w t,
 * with k = sin(theta0/2).  Both halves of the angle are kept, and theta is
 * their atan2: the textbook 2 asin(k sn(u)) loses everything near the top,
 * where k sn -> 1 and asin's slope is unbounded (at theta0 = 3.14 it was
 * 3.8e-10 off, at 3.14159265 NaN).  The elliptic functions take k and
 * k' = cos(theta0/2) apart (elliptic.h), so 1 - k^2 is never formed.
 * Measured against 80-digit references (tests/reference/pendulum.py):
 * |theta - exact| <= 7e-16 (1 + w t) for every theta0 in the range
 * 0 < theta0 < pi, the last double below pi included (the test holds it to
 * 2e-15), so no value of the range has to be refused. */
#include "model.h"
#include "elliptic.h"
#include "reduce.h"

#include <math.h>

typedef struct {
    double w2, w;  /* (g/L) and its root */
    double k, kc;  /* modulus sin(theta0/2) and its complement cos(theta0/2) */
    double K;      /* quarter period in u: K(k) */
    double theta0;
} pendulum;

static const vb_param_spec params[] = {
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravitational acceleration, m/s^2", 0},
    {"L", 1.0, 0.0, INFINITY, 1, 0, "length, m", 0},
    {"theta0", 1.0, 0.0, M_PI, 1, 1, "initial angle from the bottom, radians, 0 < theta0 < pi", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    pendulum *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    s->w2 = p[0] / p[1];
    s->w = sqrt(s->w2);
    s->theta0 = p[2];
    s->k = sin(0.5 * s->theta0);
    s->kc = cos(0.5 * s->theta0); /* to full relative precision however small */
    s->K = vb_ellint_K(s->kc);
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

/* accel on lanes: the same operations, lane by lane (lanes.h) */
vb_accel_lanes_fn vb_pendulum_accel_lanes;
void vb_pendulum_accel_lanes(const void *restrict self, const double *restrict t,
                             const vb_lane_row *restrict x, const vb_lane_row *restrict v,
                             vb_lane_row *restrict a)
{
    (void)t;
    (void)v;
    const pendulum *s = self;
    for (size_t i = 0; i < VB_LANES; i++) {
        a[0][i] = -s->w2 * sin(x[0][i]);
    }
}

/* theta = 2 atan2(k sn(u), dn(u)), theta' = -2 k w cn(u), u = K - w t; the
 * functions have period 4K, so u is reduced first to keep them accurate */
static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    const pendulum *s = self;
    double u = vb_remainder(s->K - s->w * t, 4.0 * s->K);
    double sn, cn, dn;
    if (vb_jacobi(u, s->k, s->kc, &sn, &cn, &dn) != 0)
        return -1;
    x[0] = 2.0 * atan2(s->k * sn, dn);
    v[0] = -2.0 * s->k * s->w * cn;
    return 0;
}

/* per unit m L^2, zero at the bottom; 1 - cos written as 2 sin^2 to keep digits */
static double energy(const void *self, const double *x, const double *v)
{
    const pendulum *s = self;
    double h = sin(0.5 * x[0]);
    return 0.5 * v[0] * v[0] + 2.0 * s->w2 * h * h;
}

static double natural_time(const void *self)
{
    const pendulum *s = self;
    return 4.0 * s->K / s->w;
}

const vb_model_type vb_model_pendulum = {
    .name = "pendulum",
    .summary = "1-D pendulum theta'' = -(g/L) sin theta from rest (exact via Jacobi sn, cn)",
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
