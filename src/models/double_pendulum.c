/* models/double_pendulum.c — two beads on two rigid rods in the plane, the
 * first rod from a pivot at the origin, the second from the first bead,
 * released from rest at angles theta1 and theta2 from the downward vertical
 * under gravity.  Game engines build it as two particles and two distance
 * constraints; the force law is gravity alone, and the rods are what a
 * constrained integrator enforces.  No closed form: the truth is a
 * reference integrated in the two angles (linkage.h), where the rods hold
 * by construction.  At large angles the motion is chaotic. */
#include "linkage.h"
#include "model.h"

#include <math.h>

static const vb_param_spec params[] = {
    {"g", 9.81, 0.0, INFINITY, 1, 0, "gravitational acceleration, m/s^2", 0},
    {"L1", 1.0, 0.0, INFINITY, 1, 0, "length of the upper rod, m", 0},
    {"L2", 1.0, 0.0, INFINITY, 1, 0, "length of the lower rod, m", 0},
    {"m1", 1.0, 0.0, INFINITY, 1, 0, "mass of the upper bead, kg", 0},
    {"m2", 1.0, 0.0, INFINITY, 1, 0, "mass of the lower bead, kg", 0},
    {"theta1", 0.5, -M_PI, M_PI, 0, 0, "initial angle of the upper rod from the downward vertical, radians", 0},
    {"theta2", 1.0, -M_PI, M_PI, 0, 0, "initial angle of the lower rod from the downward vertical, radians", 0},
};

static void *create(const double *p, char *err, size_t errlen)
{
    vb_linkage *k = vb_model_self_alloc(sizeof *k, err, errlen);
    double l[2] = {p[1], p[2]}, m[2] = {p[3], p[4]}, th[2] = {p[5], p[6]};
    if (k && vb_linkage_init(k, 2, p[0], l, m, th, err, errlen) != 0) {
        vb_model_self_free(k);
        return NULL;
    }
    return k;
}

const vb_model_type vb_model_double_pendulum = {
    .name = "double-pendulum",
    .summary = "2-D double pendulum: two beads, two rigid rods as constraints (reference: the "
               "angle equations, GSL rk8pd); energy sum m (|v|^2/2 + g h), its potential zero "
               "hanging straight down",
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .flags = 0,
    .create = create,
    VB_LINKAGE_FUNCTIONS,
};
