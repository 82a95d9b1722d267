/* xvstate.h — the (x, v) state of the one-step methods (euler, euler-semi,
 * velocity-verlet, rk4): start, report and reverse are the same for all.
 * A method that keeps more embeds vb_xv_state as its first member. */
#ifndef VB_XVSTATE_H
#define VB_XVSTATE_H

#include "lanes.h"
#include "verletbench.h"

typedef struct vb_xv_state {
    unsigned dim;
    double x[VB_MAX_DIM], v[VB_MAX_DIM];
} vb_xv_state;

/* Copies (x, v); evaluates no force. */
void vb_xv_start(void *st, vb_force *f, double t, const double *x, const double *v, double h);
void vb_xv_observe(const void *st, double *x, double *v);
/* v <- -v: a one-step method's state is just where it is and how it moves. */
void vb_xv_reverse(void *st);

/* The same in lanes (lanes.h). */
typedef struct vb_xv_lanes {
    vb_lane_vec x, v;
} vb_xv_lanes;

void vb_xv_load(void *lanes, size_t i, const void *scalar_state);
void vb_xv_observe_lanes(const void *lanes, size_t n, vb_lane_vec x, vb_lane_vec v);

#endif
