/* truth.h — what a run is measured against: the model's exact solution, or,
 * for a model without one, a reference solution the harness integrates
 * itself (docs/method.md §3, "Reference solutions").
 *
 * The reference is GSL's rk8pd (Prince-Dormand 8(7)) through gsl_odeiv2's
 * driver, which lands on exactly the times asked for: every step time of a
 * run, whatever its plan.  Its own accuracy is measured on the way: a second
 * reference runs beside it at a tolerance VB_REF_TOL_RATIO times tighter,
 * landing at the midpoint of every interval as well.  Forced onto a run's
 * fine step times, both take one tiny step per interval and their
 * truncation error vanishes; what is left is round-off, which the second
 * one's other steps make independently.  So their largest difference
 * estimates the first one's error, truncation or round-off, whichever
 * dominates.  An error a run makes below VB_REF_RESOLUTION times that
 * estimate cannot be told from the reference's own, and is never used in a
 * fit. */
#ifndef VB_TRUTH_H
#define VB_TRUTH_H

#include "model.h"

/* the reference's tolerance (relative, and absolute times the size of the
 * initial state), and how much tighter the second one's is */
#define VB_REF_TOL 1e-13
#define VB_REF_TOL_RATIO 10.0
/* errors below this many times the reference's own cannot be measured */
#define VB_REF_RESOLUTION 100.0

typedef struct vb_truth vb_truth;

/* NULL if out of memory. */
vb_truth *vb_truth_alloc(const vb_model *m);
/* A reference even for a model with an exact solution: to measure the
 * reference against it (tests) and to time it (bench). */
vb_truth *vb_truth_alloc_reference(const vb_model *m);
void vb_truth_free(vb_truth *tr);

/* 1 when the model has no exact solution and this is a reference */
int vb_truth_is_reference(const vb_truth *tr);

/* The solution at t: 0, or -1 if it could not be computed.  Calls in
 * increasing t are cheapest (a reference goes on from where it is; an
 * earlier t restarts it from 0). */
int vb_truth_at(vb_truth *tr, double t, double *x, double *v);

/* The reference's own error so far: the largest distance between the two
 * references, in position and in velocity, over every time asked for.  0
 * for an exact solution. */
double vb_truth_err_pos(const vb_truth *tr);
double vb_truth_err_vel(const vb_truth *tr);

#endif
