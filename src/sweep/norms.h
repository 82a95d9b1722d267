/* norms.h — the error norms a sweep fits orders for (docs/method.md §4):
 * the columns of a run's result that say how far it went wrong. */
#ifndef VB_NORMS_H
#define VB_NORMS_H

#include "casefile.h"
#include "simulate.h"

/* The error norms a sweep fits orders for (docs/method.md §4 columns). */
typedef enum {
    VB_NORM_POS_FINAL,
    VB_NORM_POS_MAX,
    VB_NORM_POS_RMS,
    VB_NORM_VEL_FINAL,
    VB_NORM_VEL_MAX,
    VB_NORM_ENERGY_MAX,
    VB_NORM_ANGMOM_MAX,
    VB_NORM_MOMENTUM_MAX,
    VB_NORM_RETURN,
    VB_NORM_CONSTRAINT_MAX,
    /* a frame loop's drawn position at the frames (loop.h): cases with a
     * [loop] only */
    VB_NORM_DRAW_MAX,
    VB_NORM_DRAW_RMS,
    /* a rigid body's (docs/rigid.md §7): the attitude's angle, the body
     * angular velocity; rigid cases only */
    VB_NORM_ATT_MAX,
    VB_NORM_ANGVEL_MAX,
    VB_N_NORMS
} vb_norm;

const char *vb_norm_name(vb_norm n);
double vb_norm_value(const vb_run_result *r, vb_norm n);
/* 0 if the case's runs have no such quantity (energy of the damped spring,
 * a return error when t_end is not a whole number of periods): the
 * measure it is of is not among the case's (profile.h). */
int vb_norm_applies(const vb_case *c, vb_norm n);
/* The largest error of the state's pose, which --strict judges: the
 * attitude's where the case measures one (a rigid body), else the
 * position's. */
vb_norm vb_norm_pose(const vb_case *c);
/* The norm is computed from the velocity (its error, energy, momenta). */
int vb_norm_needs_velocity(vb_norm n);
/* vb_norm_applies, and for the case's entry i: not a norm of the
 * velocity when it reports none (an engine of velocity=none,
 * docs/real-engines.md §1.7). */
int vb_norm_applies_to(const vb_case *c, size_t i, vb_norm n);
/* Errors at or below this cannot be told from the reference solution's own
 * (0 for an exact solution): never fitted (truth.h). */
double vb_norm_resolution(const vb_run_result *r, vb_norm n);
/* The size of what a norm measures in a run: |x|, |v|, or 1 (relative). */
double vb_norm_scale(const vb_run_result *r, vb_norm n);

#endif
