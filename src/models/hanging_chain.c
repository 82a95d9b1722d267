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

const vb_model_type vb_model_hanging_chain = {
    .name = "hanging-chain",
    .summary = "2-D chain of N beads on N rigid rods from a pivot, released tilted: a rope "
               "(reference: the angle equations); energy sum m (|v|^2/2 + g h), its potential "
               "zero hanging straight down",
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = 0,
    .create = create,
    VB_LINKAGE_FUNCTIONS,
};
