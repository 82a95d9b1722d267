/* linkage.h — a planar chain of n rigid rods hanging from a pivot at the
 * origin: bead k (mass m_k) at the lower end of rod k (length l_k), rod 0
 * from the pivot, rod k from bead k-1 (the double pendulum, a hanging
 * chain).  Under gravity (0, -g) on every bead; the rods are constraints
 * (verletbench.h), and the force law a constrained integrator sees is
 * gravity alone.
 *
 * The truth is a reference solution in the rods' angles theta_k from the
 * downward vertical, where the rods hold by construction.  Lagrange's
 * equations, with mu_k = sum_{p >= k} m_p the mass below rod k's top:
 *     sum_j M_ij theta_j'' = -sum_j l_i l_j mu_max(i,j) sin(theta_i - theta_j) theta_j'^2
 *                            - g l_i mu_i sin theta_i,
 *     M_ij = l_i l_j mu_max(i,j) cos(theta_i - theta_j),
 * M symmetric positive definite.  Not assembled: the same equations are
 * solved in O(n) an evaluation through the rods' tensions, a tridiagonal
 * system (linkage.c; a unit test holds the two together).  Then bead k
 * is at sum_{j <= k} l_j (sin theta_j, -cos theta_j).  A test holds it
 * to an independent integration in Cartesian coordinates with the rods'
 * forces as Lagrange multipliers (tests/reference/linkage.py). */
#ifndef VB_LINKAGE_H
#define VB_LINKAGE_H

#include <stddef.h>

#include "verletbench.h"

#define VB_LINKAGE_MAX 64

typedef struct vb_linkage {
    size_t n;
    double g;
    double l[VB_LINKAGE_MAX], m[VB_LINKAGE_MAX];
    double mu[VB_LINKAGE_MAX];     /* the mass below rod k's top */
    double theta0[VB_LINKAGE_MAX]; /* released from rest at these angles */
    double low[VB_LINKAGE_MAX];    /* bead k's height hanging straight down */
    double T; /* the period of the slowest small oscillation: 2 pi / omega_min */
} vb_linkage;

/* Set up from n rods (1 .. VB_LINKAGE_MAX), lengths, masses and angles.
 * 0, or -1 with a message (the small-oscillation modes failed). */
int vb_linkage_init(vb_linkage *k, size_t n, double g, const double *l, const double *m,
                    const double *theta0, char *err, size_t errlen);

/* The model's functions, each with the signature of its vb_model_type
 * member (self is the vb_linkage), so a linkage model lists them all with
 * VB_LINKAGE_FUNCTIONS and writes only its parameters and create. */

/* rods, beads and the reference's angles alike: n */
size_t vb_linkage_size(const void *self);
/* the start: theta0 at rest */
void vb_linkage_initial(const void *self, double *x, double *v);
/* gravity on every bead */
void vb_linkage_gravity(const void *self, double t, const double *x, const double *v, double *a);
/* kinetic plus potential, zero hanging at rest straight down */
double vb_linkage_energy(const void *self, const double *x, const double *v);
void vb_linkage_masses(const void *self, double *m);
/* the slowest small oscillation's period */
double vb_linkage_natural_time(const void *self);
/* rod i: bead 0 to the pivot, bead i to bead i - 1 */
void vb_linkage_rod(const void *self, size_t i, vb_constraint *c);
/* the reference's start and its equation of motion in the angles */
void vb_linkage_ref_initial(const void *self, double *q, double *qd);
void vb_linkage_ref_accel(const void *self, double t, const double *q, const double *qd,
                          double *qdd);
/* angles and angular velocities to the beads' x, v (2 n each) */
void vb_linkage_place(const void *self, const double *q, const double *qd, double *x, double *v);

#define VB_LINKAGE_FUNCTIONS                                                                       \
    .dim = 2, .destroy = vb_model_self_free, .particles = vb_linkage_size,                        \
    .initial = vb_linkage_initial, .accel = vb_linkage_gravity, .energy = vb_linkage_energy,      \
    .masses = vb_linkage_masses, .natural_time = vb_linkage_natural_time,                         \
    .n_constraints = vb_linkage_size, .constraint = vb_linkage_rod, .ref_dof = vb_linkage_size,   \
    .ref_initial = vb_linkage_ref_initial, .ref_accel = vb_linkage_ref_accel,                     \
    .ref_state = vb_linkage_place

#endif
