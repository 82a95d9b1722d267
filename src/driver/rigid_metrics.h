/* rigid_metrics.h — what a run of a rigid body is measured by besides the
 * errors every run has (metrics.h), step by step in constant memory
 * (docs/rigid.md §7):
 *  - err_att_max: the largest attitude error, the angle of the rotation
 *    q_exact* q, 2 atan2(|vec|, |scalar|) (vb_quat_angle_between);
 *  - err_angvel_max: the largest |w - w_exact|, body frame;
 *  - err_angmom_max: the largest |L - L(0)| / |L(0)| of the world angular
 *    momentum about the centre of mass;
 *  - the flips of the intermediate axis seen in the run and in the exact
 *    solution at the same times, the run's measured flip period, and a
 *    stable spin's tumble: its first flip where the exact solution has
 *    none (rigid_analysis.h). */
#ifndef VB_RIGID_METRICS_H
#define VB_RIGID_METRICS_H

#include "result.h"
#include "rigid.h"
#include "rigid_analysis.h"

typedef struct vb_rigid_metrics {
    vb_rigid_props props;
    double L0[3], L0_norm;
    double att_max, angvel_max, angmom_max;
    vb_flip_tracker flips, flips_exact;
    double w_period; /* the exact period of w(t): 4K/lambda */
} vb_rigid_metrics;

/* From the model's exact initial state (x0, v0: a face's packed state). */
void vb_rigid_metrics_init(vb_rigid_metrics *m, const vb_rigid_model *rm, const double *x0,
                           const double *v0);
/* The run's state (x, v) at t against the exact (xe, ve): NULL, or the
 * name of an error that is not a finite number. */
const char *vb_rigid_metrics_add(vb_rigid_metrics *m, double t, const double *x, const double *v,
                                 const double *xe, const double *ve);
/* Into the run's result, once it stopped (status set): the errors (inf
 * for a run that did not finish), the flips, the periods, the tumble. */
void vb_rigid_metrics_finish(const vb_rigid_metrics *m, vb_run_result *res);

#endif
