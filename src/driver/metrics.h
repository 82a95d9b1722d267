/* metrics.h — the errors of one run (docs/method.md §4), accumulated step by
 * step in constant memory: a 1e8-step run costs no more memory than a
 * 10-step one.  Positions and velocities are errors of the whole system
 * (the Euclidean norm over all N components); energy, linear and angular
 * momentum are the system's totals. */
#ifndef VB_METRICS_H
#define VB_METRICS_H

#include "model.h"
#include "vector.h" /* the norms the errors are: vb_distance, vb_magnitude */

typedef struct vb_metrics {
    const vb_model *model;
    size_t n;                 /* components */
    unsigned long long count; /* points t_0 .. t_n seen */
    double pos_final, pos_max;
    double pos_rms_scale, pos_rms_ss; /* sum of squares as scale^2 * ss: cannot overflow */
    /* the sum over the points of a fixed weighted sum of the position
     * error's components (vb_metrics_pos_signed_mean): signed, where every
     * other error is a norm */
    double pos_signed_sum;
    double constraint_max; /* the largest | |x_i - x_j| - L | over the rods */
    double E0, L0[3], P0[3];
    /* The maxima whose every step would cost a square root or a division
     * are kept before them: a correctly rounded sqrt, and a division by a
     * positive constant, never reverse an order, so the root of the
     * largest sum of squares is the largest root, bit for bit.  Each as
     * the largest sum of squares in the range where its root is the norm
     * (sq), and the largest norm computed otherwise (other); the velocity
     * error's last one as its sum (last_sq) or its value (last, when
     * last_sq < 0).  Read them with the functions below. */
    double vel_sq, vel_other, vel_last_sq, vel_last;
    double energy_d;          /* the largest |E - E0| */
    double angmom_sq, angmom_other, momentum_sq, momentum_other;
    double L0_norm, P0_norm;  /* |L0|, |P0|: what their changes are relative to */
    unsigned n_ang; /* components of the angular momentum: 1 in 2-D (z), 3 in 3-D */
    int has_energy, has_angmom, has_momentum, has_constraint;
    /* 0: the run reports positions alone (an engine of velocity=none), so
     * its velocity error, energy and momenta are not measured */
    int has_velocity;
    double pos_scale, vel_scale; /* largest |x|, |v| of the exact solution */
    /* squares below which |x|, |v| cannot raise the scales (sqrt is monotone),
     * so most steps skip the square root */
    double pos_scale_sq, vel_scale_sq;
} vb_metrics;

/* Start at the exact initial state (its error is zero by construction). */
void vb_metrics_init(vb_metrics *m, const vb_model *model, const double *x0, const double *v0);

/* The run reports no velocity (vb_metrics_add's v is then ignored): its
 * velocity error, energy, angular and linear momentum are left out, its
 * position errors and the exact solution's scales kept. */
void vb_metrics_drop_velocity(vb_metrics *m);

/* One step time: the integrator's (x, v) against the exact (xe, ve).
 * NULL, or the name of an error of this step that is not a finite number
 * ("energy error": a finite state whose energy overflows): then the run
 * has left what it can be measured by, and is diverged (docs/method.md §4),
 * so that `run` never writes an ok run that `check` must call damage. */
const char *vb_metrics_add(vb_metrics *m, const double *x, const double *v, const double *xe,
                           const double *ve);

/* The exact state's sums of squares, sum xe_i^2 and sum ve_i^2 (in the
 * order vb_magnitude sums them): what the scales are raised by.  Every
 * run of a grid step is measured against the same exact state, so the
 * driver sums it once and gives it to vb_metrics_add_sized, which is
 * vb_metrics_add with these given. */
typedef struct vb_exact_size {
    double sxe, sve;
} vb_exact_size;
void vb_exact_sums(vb_exact_size *e, const double *xe, const double *ve, size_t n);
const char *vb_metrics_add_sized(vb_metrics *m, const double *x, const double *v,
                                 const double *xe, const double *ve, const vb_exact_size *e);

double vb_metrics_pos_rms(const vb_metrics *m);

/* The mean over the points of sum_i w_i (x_i - xe_i), w_i = 1 + (i mod 3)/4:
 * not a table's error, but what tells apart two runs whose errors are the
 * same norms of opposite signs.  Explicit and symplectic Euler on a
 * projectile lag and lead the exact path by the same g h t / 2, so every
 * norm of their errors agrees to the last digits, while their positions
 * differ by twice that: "= name" (analysis.c) needs a signed witness. */
double vb_metrics_pos_signed_mean(const vb_metrics *m);
/* the errors kept before their last operation (above) */
double vb_metrics_vel_final(const vb_metrics *m);
double vb_metrics_vel_max(const vb_metrics *m);
double vb_metrics_energy_max(const vb_metrics *m);
double vb_metrics_angmom_max(const vb_metrics *m);
double vb_metrics_momentum_max(const vb_metrics *m);

/* How far x is off the rods: the largest | |x_i - x_j| - L | (or
 * | |x_i - pivot| - L |) over them, in length units. */
double vb_constraint_drift(const vb_constraints *c, const double *x);

/* Relative change of a conserved quantity; absolute when the reference is 0. */
double vb_relative_change(double value, double ref);

/* The system's total linear momentum sum m v (dim components) and angular
 * momentum sum m x cross v (1 component in 2-D, 3 in 3-D). */
void vb_momentum(const vb_model *model, const double *v, double *p);
unsigned vb_angmom(const vb_model *model, const double *x, const double *v, double *l);

#endif
