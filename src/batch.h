/* batch.h — independent runs advanced in lockstep, one lane each, in
 * structure-of-arrays form so the compiler can vectorise across lanes.
 *
 * The step of one lane does exactly the operations of the scalar method, in
 * the same order (kick-drift-kick velocity Verlet, the orbit model's force),
 * so with -ffp-contract=off every lane gives the same bits as the harness's
 * single run with the same steps; a test checks it.  Compiled with -O3
 * -fno-math-errno (sqrt may then be vectorised; its results do not change). */
#ifndef VB_BATCH_H
#define VB_BATCH_H

#include <stddef.h>

#include "plan.h"

#define VB_MAX_LANES 64

/* Lanes of the Kepler problem a = -mu x / |x|^3 in the plane. */
typedef struct vb_kepler_lanes {
    size_t n;                 /* lanes */
    double *x, *y, *vx, *vy;  /* state, n each */
    double *ax, *ay;          /* acceleration at (x, y), n each */
    const double *h;          /* each lane's step, n each */
} vb_kepler_lanes;

/* Every lane at the same start (x0, v0), with its acceleration there. */
void vb_kepler_lanes_start(double mu, vb_kepler_lanes *l, const double *x0, const double *v0);

/* Acceleration of every lane at its position. */
void vb_kepler_accel_lanes(double mu, vb_kepler_lanes *l);

/* `steps` velocity Verlet steps of every lane (ax, ay must hold the
 * acceleration at the start, from vb_kepler_accel_lanes). */
void vb_vv_kepler_lanes(double mu, vb_kepler_lanes *l, unsigned long steps);

/* Every lane along its own step plan (its own random steps, its own end):
 * lane i takes the steps of plans[i], begun by the caller, until every plan
 * is done; a lane that has finished stands still while the others go on.
 * n <= VB_MAX_LANES.  Returns the number of lockstep rounds. */
unsigned long long vb_vv_kepler_lanes_plans(double mu, vb_kepler_lanes *l, vb_plan *plans);

#endif
