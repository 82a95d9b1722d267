/* truth.h — what a run is measured against: the model's exact solution, or,
 * for a model without one, a reference solution the harness integrates
 * itself (docs/method.md §3, "Reference solutions").
 *
 * The reference is GSL's rk8pd (Prince-Dormand 8(7)) under gsl_odeiv2's
 * error control, at a relative tolerance VB_REF_TOL and an absolute one of
 * VB_REF_TOL times the size of each kind of component (positions,
 * velocities).  It integrates the model's Cartesian x'' = a(t, x, v), or,
 * where the model gives coordinates of its own (ref_dof ...: the angles of
 * a linkage, whose rods the Cartesian form would let the bodies leave),
 * those, placing the bodies at every time asked for.  It steps at its own pace, and reaches every time a run asks
 * for (every step of every plan) by a side step from its last step before
 * it: exactly that time, and a trajectory that does not depend on the
 * times asked for.  Its own accuracy is measured on the way: a second
 * reference runs beside it at a tolerance VB_REF_TOL_RATIO times tighter,
 * and their largest distance over the times asked for estimates the
 * first one's error.  An error a run makes below VB_REF_RESOLUTION times
 * that estimate cannot be told from the reference's own, and is never used
 * in a fit. */
#ifndef VB_TRUTH_H
#define VB_TRUTH_H

#include "model.h"

/* the reference's tolerance (relative, and absolute in units of the size of
 * positions and of velocities), and how much tighter the second one's is;
 * 1e-14: at 1e-13 it missed the exact orbit by 1.8e-12 of its size */
#define VB_REF_TOL 1e-14
#define VB_REF_TOL_RATIO 10.0
/* errors below this many times the reference's own cannot be measured */
#define VB_REF_RESOLUTION 100.0

typedef struct vb_truth vb_truth;

/* NULL if out of memory. */
vb_truth *vb_truth_alloc(const vb_model *m);

/* A reference many runs of one model share.  Its natural steps do not
 * depend on the times asked for, so they are the same for every run: they
 * are computed once, as far as the runs ask, and kept; each run reaches
 * its own times by side steps of its own, and gets the bits a reference of
 * its own would give, its own error estimate and bad-force time included.
 * Safe to share between threads.  NULL for a model with an exact solution
 * (nothing to share), or out of memory; free it after every truth made
 * from it. */
typedef struct vb_reference vb_reference;
vb_reference *vb_reference_alloc(const vb_model *m);
void vb_reference_free(vb_reference *r);
/* vb_truth_alloc, the reference's natural steps those of shared (NULL: a
 * reference of its own). */
vb_truth *vb_truth_alloc_shared(const vb_model *m, vb_reference *shared);
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

/* For a reference: the first time at which the model's force was not a
 * finite number, where the reference stopped (it steps ahead of the times
 * asked for, so this may lie past the last of them); NaN otherwise. */
double vb_truth_bad_force_time(const vb_truth *tr);

#endif
