/* models/hanging_chain.c — a rope or chain as game engines build it: N
 * beads joined by N rigid rods, the top rod from a pivot at the origin,
 * the chain released from rest straight but tilted by theta0 from the
 * vertical, under gravity.  Total length L and mass m, shared equally
 * (rods of L/N, beads of m/N), so chains of any N are the same rope.  The
 * force law is gravity alone; the rods are what a constrained integrator
 * enforces, N of them coupled along the chain.  No closed form: the truth
 * is a reference integrated in the N angles (linkage.h). */
#include "linkage.h"
#include "model.h"

#include <math.h>

static const vb_param_spec params[] = {
    {"N", 8, 1, VB_LINKAGE_MAX, 0, 0, "number of rods (and beads), 1 to 64", VB_PARAM_INTEGER},
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravitational acceleration, m/s^2", 0},
    {"L", 1.0, 0.0, INFINITY, 1, 0, "total length, m (each rod L/N)", 0},
    {"m", 1.0, 0.0, INFINITY, 1, 0, "total mass, kg (each bead m/N)", 0},
    {"theta0", 0.5, -M_PI, M_PI, 0, 0, "initial tilt of the straight chain from the downward vertical, radians", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    vb_linkage *k = vb_model_self_alloc(sizeof *k, err, errlen);
    if (!k)
        return NULL;
    size_t n = (size_t)p[0];
    double l[VB_LINKAGE_MAX], m[VB_LINKAGE_MAX], th[VB_LINKAGE_MAX];
    for (size_t i = 0; i < n; i++) {
        l[i] = p[2] / (double)n;
        m[i] = p[3] / (double)n;
        th[i] = p[4];
    }
    if (vb_linkage_init(k, n, p[1], l, m, th, err, errlen) != 0) {
        vb_model_self_free(k);
        return NULL;
    }
    return k;
}

static size_t particles(const void *self) { return ((const vb_linkage *)self)->n; }

static void initial(const void *self, double *x, double *v) { vb_linkage_initial(self, x, v); }

static void accel(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t, (void)x, (void)v;
    vb_linkage_gravity(self, a);
}

static double energy(const void *self, const double *x, const double *v)
{
    return vb_linkage_energy(self, x, v);
}

static void masses(const void *self, double *m)
{
    const vb_linkage *k = self;
    for (size_t i = 0; i < k->n; i++)
        m[i] = k->m[i];
}

static double natural_time(const void *self) { return ((const vb_linkage *)self)->T; }

static size_t n_constraints(const void *self) { return ((const vb_linkage *)self)->n; }

static void constraint(const void *self, size_t i, vb_constraint *c) { vb_linkage_rod(self, i, c); }

static size_t ref_dof(const void *self) { return ((const vb_linkage *)self)->n; }

static void ref_initial(const void *self, double *q, double *qd)
{
    vb_linkage_ref_initial(self, q, qd);
}

static void ref_accel(const void *self, double t, const double *q, const double *qd, double *qdd)
{
    (void)t;
    vb_linkage_ref_accel(self, q, qd, qdd);
}

static void ref_state(const void *self, const double *q, const double *qd, double *x, double *v)
{
    vb_linkage_place(self, q, qd, x, v);
}

const vb_model_type vb_model_hanging_chain = {
    .name = "hanging-chain",
    .summary = "2-D chain of N beads on N rigid rods from a pivot, released tilted: a rope "
               "(reference: the angle equations)",
    .dim = 2,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = 0,
    .create = create,
    .destroy = vb_model_self_free,
    .particles = particles,
    .initial = initial,
    .accel = accel,
    .energy = energy,
    .masses = masses,
    .natural_time = natural_time,
    .n_constraints = n_constraints,
    .constraint = constraint,
    .ref_dof = ref_dof,
    .ref_initial = ref_initial,
    .ref_accel = ref_accel,
    .ref_state = ref_state,
};
