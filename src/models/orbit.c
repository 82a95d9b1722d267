/* models/orbit.c — the Kepler problem x'' = -mu x/|x|^3, started at periapsis
 * and moving in +y.  The exact solution goes through Kepler's equation. */
#include "model.h"
#include "kepler.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
    double mu, a, e;
    double b, n; /* semi-minor axis and mean motion */
} orbit;

/* per-run: the solver and the last solution, to warm-start the next one */
typedef struct {
    vb_kepler *kepler;
    double M_prev, E_prev, sinE_prev, cosE_prev;
    int warm;
} orbit_work;

/* x folded towards [-pi, pi] by one turn: for a starting guess only, where
 * x is a difference of two reduced anomalies or one plus a small step.  No
 * libm call: the exact remainder() costs a quarter of an orbit run, and a
 * guess needs no exactness (the solver checks its bracket and decides the
 * result). */
static double wrap_guess(double x)
{
    if (x > M_PI)
        return x - 2.0 * M_PI;
    if (x < -M_PI)
        return x + 2.0 * M_PI;
    return x;
}

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

/* accel on lanes: the same operations, lane by lane (lanes.h) */
vb_accel_lanes_fn vb_orbit_accel_lanes;
void vb_orbit_accel_lanes(const void *restrict self, const double *restrict t,
                          const vb_lane_row *restrict x, const vb_lane_row *restrict v,
                          vb_lane_row *restrict a)
{
    (void)t;
    (void)v;
    const orbit *s = self;
    for (size_t i = 0; i < VB_LANES; i++) {
        double r2 = x[0][i] * x[0][i] + x[1][i] * x[1][i];
        double k = -s->mu / (r2 * sqrt(r2));
        a[0][i] = k * x[0][i];
        a[1][i] = k * x[1][i];
    }
}

static void *work_alloc(const void *self)
{
    (void)self;
    orbit_work *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->kepler = vb_kepler_alloc();
    if (!w->kepler) {
        free(w);
        return NULL;
    }
    return w;
}

static void work_free(void *work)
{
    orbit_work *w = work;
    if (!w)
        return;
    vb_kepler_free(w->kepler);
    free(w);
}

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    const orbit *s = self;
    orbit_work *w = work;
    double M = vb_kepler_reduce(s->n * t);
    double guess = NAN;
    if (w->warm) {
        /* E(M) by Taylor's series from the last solution, to third order:
         * with D = 1 - e cos E, E' = 1/D, E'' = -e sin E/D^3 and
         * E''' = (3 e^2 sin^2 E - e cos E D)/D^5.  At the steps of the cases
         * the guess is then within 1e-9 and Newton's first correction is
         * already its last: one sincos per exact solution.  Only a guess:
         * the solver decides the result. */
        double dM = wrap_guess(M - w->M_prev);
        double es = s->e * w->sinE_prev, ec = s->e * w->cosE_prev;
        double D = 1.0 - ec, q = 1.0 / D;
        double d1 = q, d2 = -es * q * q * q, d3 = (3.0 * es * es - ec * D) * (q * q) * (q * q * q);
        guess = wrap_guess(w->E_prev + dM * (d1 + dM * (0.5 * d2 + dM * (d3 / 6.0))));
    }
    double E, sE, cE;
    if (vb_kepler_solve(w->kepler, s->e, M, guess, &E, &sE, &cE) != 0)
        return -1;
    w->M_prev = M;
    w->E_prev = E;
    w->sinE_prev = sE;
    w->cosE_prev = cE;
    w->warm = 1;
    /* Near periapsis cos E - e and 1 - e cos E cancel (to 1 - e = 0.01 at
     * e = 0.99): write both through 1 - cos E, itself computed without
     * cancellation, so x and r keep full relative precision. */
    double omc = cE > 0.0 ? sE * sE / (1.0 + cE) : 1.0 - cE;
    double Edot = s->n / ((1.0 - s->e) + s->e * omc);
    x[0] = s->a * ((1.0 - s->e) - omc);
    x[1] = s->b * sE;
    v[0] = -s->a * sE * Edot;
    v[1] = s->b * cE * Edot;
    return 0;
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
    .summary = "2-D Kepler orbit x'' = -mu x/|x|^3 from periapsis (exact via Kepler's equation)",
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
