/* norms.c — the error norms a sweep fits orders for: where each lies in a
 * run's result, the size it is measured against, and what a reference
 * solution cannot resolve of it. */
#include "norms.h"

#include <stddef.h>
#include <string.h>

#include "runner.h"
#include "runs_table.h"
#include "truth.h"

/* Each norm is a column of runs.csv, an error its schema describes once
 * (runs_table.c: its name, where it lies in a run's result, its scale),
 * in the order of the enum: check compares them all (VB_METRIC), and
 * tests/test_schema.c holds the two to one order. */
static const int column_of[VB_N_NORMS] = {
    [VB_NORM_POS_FINAL] = VB_COL_RUNS_ERR_POS_FINAL,
    [VB_NORM_POS_MAX] = VB_COL_RUNS_ERR_POS_MAX,
    [VB_NORM_POS_RMS] = VB_COL_RUNS_ERR_POS_RMS,
    [VB_NORM_VEL_FINAL] = VB_COL_RUNS_ERR_VEL_FINAL,
    [VB_NORM_VEL_MAX] = VB_COL_RUNS_ERR_VEL_MAX,
    [VB_NORM_ENERGY_MAX] = VB_COL_RUNS_ERR_ENERGY_MAX,
    [VB_NORM_ANGMOM_MAX] = VB_COL_RUNS_ERR_ANGMOM_MAX,
    [VB_NORM_MOMENTUM_MAX] = VB_COL_RUNS_ERR_MOMENTUM_MAX,
    [VB_NORM_RETURN] = VB_COL_RUNS_ERR_RETURN,
    [VB_NORM_CONSTRAINT_MAX] = VB_COL_RUNS_ERR_CONSTRAINT_MAX,
    [VB_NORM_DRAW_MAX] = VB_COL_RUNS_ERR_DRAW_MAX,
    [VB_NORM_DRAW_RMS] = VB_COL_RUNS_ERR_DRAW_RMS,
    [VB_NORM_ATT_MAX] = VB_COL_RUNS_ERR_ATT_MAX,
    [VB_NORM_ANGVEL_MAX] = VB_COL_RUNS_ERR_ANGVEL_MAX,
};

/* the measure of the case's (profile.h) each norm is of (0: every run has it) */
static const unsigned measure_of[VB_N_NORMS] = {
    [VB_NORM_ENERGY_MAX] = VB_MEASURE_ENERGY,
    [VB_NORM_ANGMOM_MAX] = VB_MEASURE_ANGMOM,
    [VB_NORM_MOMENTUM_MAX] = VB_MEASURE_MOMENTUM,
    /* every run of the case has the same t_end, whole periods or not */
    [VB_NORM_RETURN] = VB_MEASURE_RETURN,
    [VB_NORM_CONSTRAINT_MAX] = VB_MEASURE_CONSTRAINT,
    /* a frame loop's drawn position at the frames */
    [VB_NORM_DRAW_MAX] = VB_MEASURE_DRAWN,
    [VB_NORM_DRAW_RMS] = VB_MEASURE_DRAWN,
    /* a rigid body's attitude and angular velocity */
    [VB_NORM_ATT_MAX] = VB_MEASURE_ATTITUDE,
    [VB_NORM_ANGVEL_MAX] = VB_MEASURE_ATTITUDE,
};

static const vb_column *column(vb_norm n) { return &vb_runs_schema.col[column_of[n]]; }

const char *vb_norm_name(vb_norm n) { return column(n)->name; }

double vb_norm_value(const vb_run_result *r, vb_norm n)
{
    /* (a run without a loop, an engine's in a case with one, draws what it
     * reports at the frames: its result holds its position's errors as
     * the drawn state's, result.h) */
    double v;
    memcpy(&v, (const char *)r + column(n)->at, sizeof v);
    return v;
}

int vb_norm_applies(const vb_case *c, vb_norm n)
{
    return (c->profile.measures & measure_of[n]) == measure_of[n];
}

vb_norm vb_norm_pose(const vb_case *c)
{
    return (c->profile.measures & VB_MEASURE_ATTITUDE) ? VB_NORM_ATT_MAX : VB_NORM_POS_MAX;
}

int vb_norm_needs_velocity(vb_norm n)
{
    return n == VB_NORM_VEL_FINAL || n == VB_NORM_VEL_MAX || n == VB_NORM_ENERGY_MAX ||
           n == VB_NORM_ANGMOM_MAX || n == VB_NORM_MOMENTUM_MAX || n == VB_NORM_ATT_MAX ||
           n == VB_NORM_ANGVEL_MAX;
}

int vb_norm_applies_to(const vb_case *c, size_t i, vb_norm n)
{
    /* what it reports is what it has declared by now (an engine's
     * capability line) */
    vb_runner_caps k = c->profile.caps[i];
    vb_runner_declared(c->integ[i], &k);
    return vb_norm_applies(c, n) &&
           !(vb_norm_needs_velocity(n) && k.velocity == VB_VELOCITY_NONE);
}

/* What a reference solution cannot resolve: errors in position or velocity
 * below VB_REF_RESOLUTION times its own (truth.h).  0 for an exact one and
 * for the norms the truth does not enter (energy, momenta, return). */
double vb_norm_resolution(const vb_run_result *r, vb_norm n)
{
    if (!r->has_reference)
        return 0.0;
    switch (n) {
    case VB_NORM_POS_FINAL:
    case VB_NORM_POS_MAX:
    case VB_NORM_POS_RMS:
    case VB_NORM_DRAW_MAX:
    case VB_NORM_DRAW_RMS:
        return VB_REF_RESOLUTION * r->ref_err_pos;
    case VB_NORM_VEL_FINAL:
    case VB_NORM_VEL_MAX:
        return VB_REF_RESOLUTION * r->ref_err_vel;
    default:
        return 0.0;
    }
}

double vb_norm_scale(const vb_run_result *r, vb_norm n)
{
    return column(n)->scale == VB_SCALE_POS   ? r->pos_scale
           : column(n)->scale == VB_SCALE_VEL ? r->vel_scale
                                              : 1.0;
}
