/* lanes.h — independent runs of one integrator on one model, advanced in
 * lockstep: the batched entry points of the integrator and model tables.
 *
 * A sweep's runs are independent, and one run's step is a chain of
 * dependent operations (a square root waits on the position, the division
 * on the root, the next step on the division).  Lanes advance VB_LANES runs
 * at once in structure-of-arrays form — x[component][lane] — so their
 * chains overlap and the loops over lanes vectorise.  Each lane does exactly
 * the operations of the scalar step, in the same order; with
 * -ffp-contract=off it gives the scalar run's bits (tests/test_lanes.c
 * checks every integrator on every model).  Internal: a plugin's
 * integrators run one at a time, and a plugin's models go through their
 * scalar force law lane by lane. */
#ifndef VB_LANES_H
#define VB_LANES_H

#include <stddef.h>

#include "verletbench.h"

#define VB_LANES 8

/* One component of the state across the lanes; a lane vector of a system
 * of N components is N rows. */
typedef double vb_lane_row[VB_LANES];

/* A model's force law on every lane: a[c][i] = a(t[i], x[.][i], v[.][i]).
 *
 * Batched functions always do all VB_LANES lanes: with a constant trip
 * count GCC vectorises the loops at -O2, without -O3 (which would also
 * vectorise the scalar steps' loops over components, and slow them: their
 * vector loads of what the force law just stored as scalars stall store
 * forwarding).  Lanes not in use hold a copy of a real run's start, so
 * they compute finite numbers nobody reads. */
typedef void vb_accel_lanes_fn(const void *model, const double *t, const vb_lane_row *x,
                               const vb_lane_row *v, vb_lane_row *a);

typedef struct vb_force_lanes {
    vb_accel_lanes_fn *accel_lanes; /* NULL: the scalar accel, lane by lane */
    vb_accel_fn *accel;
    const void *model;
    size_t n;                 /* components */
    size_t used;              /* lanes in use: the scalar fallback evaluates only these */
    unsigned long long evals; /* evaluations of each lane (all lanes evaluate together) */
    double *scratch;          /* 3 N doubles for the scalar fallback's gather */
} vb_force_lanes;

/* Evaluate the force of every lane. */
void vb_force_lanes_eval(vb_force_lanes *f, const double *t, const vb_lane_row *x,
                         const vb_lane_row *v, vb_lane_row *a);

/* An integrator's batched entry point.  Lanes start as scalar runs do
 * (vb_integrator.start, one lane at a time: it happens once a run), then
 * `load` copies a started scalar state into lane i. */
typedef struct vb_integrator_lanes {
    size_t (*state_size)(size_t n); /* bytes for VB_LANES lanes of N components */
    void (*load)(void *lanes, size_t i, const void *scalar_state);
    /* one step of every lane (all VB_LANES): lane i from t[i] by h[i] */
    void (*step)(void *lanes, vb_force_lanes *f, const double *t, const double *h);
    /* the position and velocity each of the first `used` lanes reports
     * (vb_integrator.observe) */
    void (*observe)(const void *lanes, size_t used, vb_lane_row *x, vb_lane_row *v);
} vb_integrator_lanes;

#endif
