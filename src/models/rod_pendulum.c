/* models/rod_pendulum.c — the pendulum as game engines build it: a particle
 * in the plane on a rigid rod of length L to a pivot at the origin, under
 * gravity (0, -g).  The force law is gravity alone; the rod is a
 * constraint (verletbench.h), which a constrained integrator enforces
 * (docs/constraints.md).  Exact: the angle of the nonlinear pendulum
 * (pendulum_solution.h), as the particle's position
 *     x = L (sin theta, -cos theta),  v = L theta' (cos theta, sin theta). */
#include "model.h"
#include "pendulum_solution.h"

#include <math.h>

typedef struct {
    vb_pendulum_solution sol;
    double g, L;
} rod_pendulum;

static const vb_param_spec params[] = {
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravitational acceleration, m/s^2", 0},
    {"L", 1.0, 0.0, INFINITY, 1, 0, "length of the rod, m", 0},
    {"theta0", 1.0, 0.0, M_PI, 1, 1, "initial angle from the bottom, radians, 0 < theta0 < pi", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    rod_pendulum *s = vb_model_self_alloc(sizeof *s, err, errlen);
    if (!s)
        return NULL;
    s->g = p[0];
    s->L = p[1];
    vb_pendulum_solution_init(&s->sol, p[0], p[1], p[2]);
    return s;
}

static void place(const rod_pendulum *s, double theta, double omega, double *x, double *v)
{
    double sn = sin(theta), cs = cos(theta);
    x[0] = s->L * sn;
    x[1] = -s->L * cs;
    v[0] = s->L * omega * cs;
    v[1] = s->L * omega * sn;
}

static void initial(const void *self, double *x, double *v)
{
    const rod_pendulum *s = self;
    place(s, s->sol.theta0, 0.0, x, v);
}

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t;
    (void)x;
    (void)v;
    const rod_pendulum *s = self;
    a[0] = 0.0;
    a[1] = -s->g;
}

static int exact(const void *self, void *work, double t, double *x, double *v)
{
    (void)work;
    const rod_pendulum *s = self;
    double theta, omega;
    if (vb_pendulum_angle(&s->sol, t, &theta, &omega) != 0)
        return -1;
    place(s, theta, omega, x, v);
    return 0;
}

/* per unit mass, zero at the bottom: |v|^2/2 + g (y + L) */
static double energy(const void *self, const double *x, const double *v)
{
    const rod_pendulum *s = self;
    return 0.5 * (v[0] * v[0] + v[1] * v[1]) + s->g * (x[1] + s->L);
}

static double natural_time(const void *self)
{
    const rod_pendulum *s = self;
    return vb_pendulum_period(&s->sol);
}

static size_t n_constraints(const void *self)
{
    (void)self;
    return 1;
}

static void constraint(const void *self, size_t k, vb_constraint *c)
{
    (void)k;
    const rod_pendulum *s = self;
    *c = (vb_constraint){.i = 0, .j = VB_PIVOT, .length = s->L, .pivot = {0.0, 0.0, 0.0}};
}

const vb_model_type vb_model_rod_pendulum = {
    .name = "rod-pendulum",
    .summary = "2-D particle on a rigid rod to a pivot under gravity: a constraint (exact: the "
               "pendulum's Jacobi sn, cn); energy |v|^2/2 + g (y + L), its potential zero at the "
               "bottom (y = -L)",
    .dim = 2,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = VB_PERIODIC,
    .create = create,
    .destroy = vb_model_self_free,
    .particles = vb_model_one_particle,
    .initial = initial,
    .accel = accel,
    .exact = exact,
    .energy = energy,
    .natural_time = natural_time,
    .n_constraints = n_constraints,
    .constraint = constraint,
};
