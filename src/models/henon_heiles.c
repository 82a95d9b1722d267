/* models/henon_heiles.c — a star in a galaxy's mean field (Hénon and Heiles,
 * "The applicability of the third integral of motion: some numerical
 * experiments", Astronomical Journal 69, 1964):
 *
 *     H = (px^2 + py^2)/2 + (x^2 + y^2)/2 + x^2 y - y^3/3,
 *     x'' = -x - 2 x y,   y'' = -y - x^2 + y^2.
 *
 * Started on the y axis at y0, moving in +x with the speed that gives the
 * energy E.  Below E = 1/12 most orbits are regular (quasi-periodic); at
 * E = 1/6, the escape energy, most are chaotic: nearby orbits part
 * exponentially, so errors grow that way too.  No closed form: the harness
 * integrates a reference solution, and the energy error needs none. */
#include "model.h"

#include <math.h>
#include <stdio.h>

typedef struct {
    double E, y0, px0;
} henon;

static const vb_param_spec params[] = {
    {"E", 1.0 / 12.0, 0.0, 1.0 / 6.0, 1, 0, "energy, 0 < E <= 1/6 (bound orbits)", 0},
    {"y0", 0.1, -0.5, 1.0, 0, 0, "starting height on the y axis", 0},
};

static double potential(double x, double y)
{
    return 0.5 * (x * x + y * y) + x * x * y - y * y * y / 3.0;
}

static void *create(const double *p, char *err, size_t errlen)
{
    double kin = p[0] - potential(0.0, p[1]);
    if (!(kin >= 0.0)) {
        char y0[32], pot[32], e[32];
        vb_format_shortest(p[1], y0, sizeof y0);
        vb_format_shortest(potential(0.0, p[1]), pot, sizeof pot);
        vb_format_shortest(p[0], e, sizeof e);
        snprintf(err, errlen, "y0 = %s has potential energy %s, above E = %s: no speed gives "
                              "that energy (lower y0 or raise E)",
                 y0, pot, e);
        return NULL;
    }
    henon *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    s->E = p[0];
    s->y0 = p[1];
    s->px0 = sqrt(2.0 * kin);
    return s;
}

static void initial(const void *self, double *x, double *v)
{
    const henon *s = self;
    x[0] = 0.0;
    x[1] = s->y0;
    v[0] = s->px0;
    v[1] = 0.0;
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)self;
    (void)t;
    (void)v;
    a[0] = -x[0] - 2.0 * x[0] * x[1];
    a[1] = -x[1] - x[0] * x[0] + x[1] * x[1];
}

static double energy(const void *self, const double *x, const double *v)
{
    (void)self;
    return 0.5 * (v[0] * v[0] + v[1] * v[1]) + potential(x[0], x[1]);
}

/* the small-oscillation period of the potential's harmonic part */
static double natural_time(const void *self)
{
    (void)self;
    return 2.0 * M_PI;
}

const vb_model_type vb_model_henon_heiles = {
    .name = "henon-heiles",
    .summary = "2-D Henon-Heiles potential: regular at low energy, chaotic near 1/6 (reference "
               "solution); energy |v|^2/2 + (x^2 + y^2)/2 + x^2 y - y^3/3, its potential zero at "
               "the origin",
    .dim = 2,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = 0,
    .create = create,
    .destroy = vb_model_self_free,
    .particles = vb_model_one_particle,
    .initial = initial,
    .accel = accel,
    .work_alloc = NULL,
    .work_free = NULL,
    .exact = NULL,
    .energy = energy,
    .masses = NULL,
    .natural_time = natural_time,
};
