/* metrics.h — the errors of one run (docs/method.md §4), accumulated step by step in
 * constant memory: a 1e8-step run costs no more memory than a 10-step one. */
#ifndef VB_METRICS_H
#define VB_METRICS_H

#include <float.h>
#include <math.h>

#include "model.h"

typedef struct vb_metrics {
    const vb_model *model;
    unsigned dim;
    unsigned long long count; /* points t_0 .. t_n seen */
    double pos_final, pos_max, vel_final, vel_max;
    double pos_rms_scale, pos_rms_ss; /* sum of squares as scale^2 * ss: cannot overflow */
    double energy_max, angmom_max;
    double E0, L0;
    int has_energy, has_angmom;
    double pos_scale, vel_scale; /* largest |x|, |v| of the exact solution */
    /* squares below which |x|, |v| cannot raise the scales (sqrt is monotone),
     * so most steps skip the square root */
    double pos_scale_sq, vel_scale_sq;
} vb_metrics;

/* Start at the exact initial state (its error is zero by construction). */
void vb_metrics_init(vb_metrics *m, const vb_model *model, const double *x0, const double *v0);

/* One step time: the integrator's (x, v) against the exact (xe, ve). */
void vb_metrics_add(vb_metrics *m, const double *x, const double *v, const double *xe,
                    const double *ve);

double vb_metrics_pos_rms(const vb_metrics *m);

/* Relative change of a conserved quantity; absolute when the reference is 0. */
double vb_relative_change(double value, double ref);

/* Euclidean norm of a - b that neither overflows nor underflows.  Inline:
 * a run takes two at every step, and the plain sum is almost always fine. */
double vb_distance_scaled(const double *a, const double *b, unsigned dim);

static inline double vb_distance(const double *a, const double *b, unsigned dim)
{
    double s = 0.0;
    for (unsigned i = 0; i < dim; i++) {
        double d = a[i] - b[i];
        s += d * d;
    }
    /* the plain sum is exact enough unless a square over- or underflowed */
    if (s >= DBL_MIN / DBL_EPSILON && s <= DBL_MAX)
        return sqrt(s);
    return vb_distance_scaled(a, b, dim);
}

#endif
