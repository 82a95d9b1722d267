/* models/figure_eight.c — three equal masses chasing one another along a
 * figure eight (Chenciner and Montgomery, "A remarkable periodic solution of
 * the three-body problem in the case of equal masses", Annals of
 * Mathematics 152, 2000), in the initial conditions Simó computed, G = m = 1:
 *
 *     x1 = -x2 = (0.97000436, -0.24308753),  x3 = 0,
 *     v3 = (-0.93240737, -0.86473146),  v1 = v2 = -v3/2,
 *
 * period 6.32591398.  No closed form: the harness integrates a reference
 * solution.  Energy, linear momentum (zero) and angular momentum (zero) are
 * conserved; after one period the bodies are back where they started, to
 * the 8 or 9 digits these numbers carry (the return error cannot fall below
 * about 1e-7: the initial conditions are that close to the periodic orbit,
 * not on it). */
#include "model.h"

#include <math.h>

#define PERIOD 6.32591398

static void initial(const void *self, double *x, double *v)
{
    (void)self;
    static const double x0[6] = {0.97000436, -0.24308753, -0.97000436, 0.24308753, 0.0, 0.0};
    static const double v3x = -0.93240737, v3y = -0.86473146;
    for (int i = 0; i < 6; i++)
        x[i] = x0[i];
    v[0] = v[2] = -0.5 * v3x;
    v[1] = v[3] = -0.5 * v3y;
    v[4] = v3x;
    v[5] = v3y;
}

/* the pull of j on i, added to a_i, and its opposite to a_j: Newton's third
 * law by construction, so the total momentum is conserved to round-off */
static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)self;
    (void)t;
    (void)v;
    for (int i = 0; i < 6; i++)
        a[i] = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++) {
            double dx = x[2 * j] - x[2 * i], dy = x[2 * j + 1] - x[2 * i + 1];
            double r2 = dx * dx + dy * dy, k = 1.0 / (r2 * sqrt(r2));
            a[2 * i] += k * dx;
            a[2 * i + 1] += k * dy;
            a[2 * j] -= k * dx;
            a[2 * j + 1] -= k * dy;
        }
}

static double energy(const void *self, const double *x, const double *v)
{
    (void)self;
    double e = 0.0;
    for (int i = 0; i < 6; i++)
        e += 0.5 * v[i] * v[i];
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            e -= 1.0 / hypot(x[2 * j] - x[2 * i], x[2 * j + 1] - x[2 * i + 1]);
    return e;
}

static void *create(const double *p, char *err, size_t errlen)
{
    (void)p;
    return vb_model_self_alloc(1, err, errlen); /* nothing to derive */
}

static size_t particles(const void *self)
{
    (void)self;
    return 3;
}

static double natural_time(const void *self)
{
    (void)self;
    return PERIOD;
}

const vb_model_type vb_model_figure_eight = {
    .name = "figure-eight",
    .summary = "three equal masses on the figure-eight choreography, G = m = 1 (reference "
               "solution); energy kinetic - sum 1/r_ij, its potential zero at infinite distances",
    .dim = 2,
    .params = NULL,
    .n_params = 0,
    .flags = VB_PERIODIC | VB_CONSERVES_MOMENTUM | VB_CONSERVES_ANGMOM,
    .create = create,
    .destroy = vb_model_self_free,
    .particles = particles,
    .initial = initial,
    .accel = accel,
    .work_alloc = NULL,
    .work_free = NULL,
    .exact = NULL,
    .energy = energy,
    .masses = NULL,
    .natural_time = natural_time,
};
