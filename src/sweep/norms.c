/* norms.c — the error norms a sweep fits orders for: where each lies in a
 * run's result, the size it is measured against, and what a reference
 * solution cannot resolve of it. */
#include "norms.h"

#include <stddef.h>
#include <string.h>

#include "runner.h"
#include "truth.h"

typedef enum { SCALE_POS, SCALE_VEL, SCALE_UNIT } scale_kind;

/* each norm: its column, where a result holds it, its scale, and the
 * measure of the case's (profile.h) it is of (0: every run has it) */
static const struct {
    const char *name;
    size_t offset;
    scale_kind scale;
    unsigned measure;
} norms[VB_N_NORMS] = {
    {"err_pos_final", offsetof(vb_run_result, err_pos_final), SCALE_POS, 0},
    {"err_pos_max", offsetof(vb_run_result, err_pos_max), SCALE_POS, 0},
    {"err_pos_rms", offsetof(vb_run_result, err_pos_rms), SCALE_POS, 0},
    {"err_vel_final", offsetof(vb_run_result, err_vel_final), SCALE_VEL, 0},
    {"err_vel_max", offsetof(vb_run_result, err_vel_max), SCALE_VEL, 0},
    {"err_energy_max", offsetof(vb_run_result, err_energy_max), SCALE_UNIT, VB_MEASURE_ENERGY},
    {"err_angmom_max", offsetof(vb_run_result, err_angmom_max), SCALE_UNIT, VB_MEASURE_ANGMOM},
    {"err_momentum_max", offsetof(vb_run_result, err_momentum_max), SCALE_UNIT,
     VB_MEASURE_MOMENTUM},
    /* every run of the case has the same t_end, whole periods or not */
    {"err_return", offsetof(vb_run_result, err_return), SCALE_POS, VB_MEASURE_RETURN},
    {"err_constraint_max", offsetof(vb_run_result, err_constraint_max), SCALE_POS,
     VB_MEASURE_CONSTRAINT},
    /* a frame loop's drawn position at the frames */
    {"err_draw_max", offsetof(vb_run_result, err_draw_max), SCALE_POS, VB_MEASURE_DRAWN},
    {"err_draw_rms", offsetof(vb_run_result, err_draw_rms), SCALE_POS, VB_MEASURE_DRAWN},
    /* an attitude's (a rigid body's): the round-off of the packed (x, q)
     * and (v, w) */
    {"err_att_max", offsetof(vb_run_result, err_att_max), SCALE_POS, VB_MEASURE_ATTITUDE},
    {"err_angvel_max", offsetof(vb_run_result, err_angvel_max), SCALE_VEL, VB_MEASURE_ATTITUDE},
};

const char *vb_norm_name(vb_norm n) { return norms[n].name; }

double vb_norm_value(const vb_run_result *r, vb_norm n)
{
    /* (a run without a loop, an engine's in a case with one, draws what it
     * reports at the frames: its result holds its position's errors as
     * the drawn state's, result.h) */
    double v;
    memcpy(&v, (const char *)r + norms[n].offset, sizeof v);
    return v;
}

int vb_norm_applies(const vb_case *c, vb_norm n)
{
    return (c->profile.measures & norms[n].measure) == norms[n].measure;
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
    return norms[n].scale == SCALE_POS   ? r->pos_scale
           : norms[n].scale == SCALE_VEL ? r->vel_scale
                                         : 1.0;
}
