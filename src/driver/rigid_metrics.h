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
 *    none (rigid_analysis.h).
 * A state's errors are measured here and nowhere else: a run's maxima are
 * of vb_rigid_errors_of's, and so are the charts' window maxima
 * (sweep/series.c, through profile.h's vb_state_errors). */
#ifndef VB_RIGID_METRICS_H
#define VB_RIGID_METRICS_H

#include "result.h"
#include "rigid.h"
#include "rigid_analysis.h"

/* One state's errors against the exact state at its time. */
typedef struct vb_rigid_errors {
    double att;    /* the attitude's angle from the exact one (rad) */
    double angvel; /* |w - w_exact|, body frame */
    double angmom; /* |L - L0| / |L0|, world */
} vb_rigid_errors;

/* Of body b's state (x, v: a face's packed state) against the exact
 * (xe, ve). */
vb_rigid_errors vb_rigid_errors_of(const vb_rigid_body *b, const double *x, const double *v,
                                   const double *xe, const double *ve);

typedef struct vb_rigid_metrics {
    const vb_rigid_body *body;
    double att_max, angvel_max, angmom_max;
    vb_flip_tracker flips, flips_exact;
} vb_rigid_metrics;

/* A run of body b from its start (b->start: every run starts from the
 * model's initial state). */
void vb_rigid_metrics_init(vb_rigid_metrics *m, const vb_rigid_body *b);
/* The run's state (x, v) at t against the exact (xe, ve): NULL, or the
 * name of an error that is not a finite number. */
const char *vb_rigid_metrics_add(vb_rigid_metrics *m, double t, const double *x, const double *v,
                                 const double *xe, const double *ve);
/* Into the run's result, once it stopped (status set): the errors (inf
 * for a run that did not finish), the flips, the periods, the tumble. */
void vb_rigid_metrics_finish(const vb_rigid_metrics *m, vb_run_result *res);

#endif
