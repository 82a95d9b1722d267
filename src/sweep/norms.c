/* norms.c — the error norms a sweep fits orders for: where each lies in a
 * run's result, the size it is measured against, and what a reference
 * solution cannot resolve of it. */
#include "norms.h"

#include <stddef.h>
#include <string.h>

#include "runner.h"
#include "truth.h"

typedef enum { SCALE_POS, SCALE_VEL, SCALE_UNIT } scale_kind;

static const struct {
    const char *name;
    size_t offset;
    scale_kind scale;
} norms[VB_N_NORMS] = {
    {"err_pos_final", offsetof(vb_run_result, err_pos_final), SCALE_POS},
    {"err_pos_max", offsetof(vb_run_result, err_pos_max), SCALE_POS},
    {"err_pos_rms", offsetof(vb_run_result, err_pos_rms), SCALE_POS},
    {"err_vel_final", offsetof(vb_run_result, err_vel_final), SCALE_VEL},
    {"err_vel_max", offsetof(vb_run_result, err_vel_max), SCALE_VEL},
    {"err_energy_max", offsetof(vb_run_result, err_energy_max), SCALE_UNIT},
    {"err_angmom_max", offsetof(vb_run_result, err_angmom_max), SCALE_UNIT},
    {"err_momentum_max", offsetof(vb_run_result, err_momentum_max), SCALE_UNIT},
    {"err_return", offsetof(vb_run_result, err_return), SCALE_POS},
    {"err_constraint_max", offsetof(vb_run_result, err_constraint_max), SCALE_POS},
    {"err_draw_max", offsetof(vb_run_result, err_draw_max), SCALE_POS},
    {"err_draw_rms", offsetof(vb_run_result, err_draw_rms), SCALE_POS},
    /* a rigid body's: the round-off of the packed (x, q) and (v, w) */
    {"err_att_max", offsetof(vb_run_result, err_att_max), SCALE_POS},
    {"err_angvel_max", offsetof(vb_run_result, err_angvel_max), SCALE_VEL},
};

const char *vb_norm_name(vb_norm n) { return norms[n].name; }

double vb_norm_value(const vb_run_result *r, vb_norm n)
{
    /* a run without a loop (an engine's in a case with one) draws what it
     * reports at the frames */
    if (!r->has_draw && n == VB_NORM_DRAW_MAX)
        n = VB_NORM_POS_MAX;
    if (!r->has_draw && n == VB_NORM_DRAW_RMS)
        n = VB_NORM_POS_RMS;
    double v;
    memcpy(&v, (const char *)r + norms[n].offset, sizeof v);
    return v;
}

int vb_norm_applies(const vb_case *c, vb_norm n)
{
    const vb_model_type *t = c->model.type;
    /* what a runner of the case carries: a rigid body's runs measure its
     * attitude, angular velocity and world angular momentum */
    int rigid = c->n_integ > 0 &&
                vb_runner_caps_of(c->integ[0], &c->model).state.kind == VB_STATE_RIGID_BODY;
    switch (n) {
    case VB_NORM_ATT_MAX:
    case VB_NORM_ANGVEL_MAX:
        return rigid;
    case VB_NORM_ENERGY_MAX:
        return t->energy != NULL;
    case VB_NORM_ANGMOM_MAX:
        return rigid || ((t->flags & VB_CONSERVES_ANGMOM) && t->dim >= 2);
    case VB_NORM_MOMENTUM_MAX:
        return (t->flags & VB_CONSERVES_MOMENTUM) != 0;
    case VB_NORM_RETURN:
        /* every run of the case has the same t_end: ask the first */
        return (t->flags & VB_PERIODIC) && vb_whole_periods(&c->model, c->t_end);
    case VB_NORM_CONSTRAINT_MAX:
        return vb_model_constrained(&c->model);
    case VB_NORM_DRAW_MAX:
    case VB_NORM_DRAW_RMS:
        for (size_t i = 0; i < c->n_integ; i++)
            if (vb_runner_caps_of(c->integ[i], &c->model).draws)
                return 1;
        return 0;
    default:
        return 1;
    }
}

int vb_norm_needs_velocity(vb_norm n)
{
    return n == VB_NORM_VEL_FINAL || n == VB_NORM_VEL_MAX || n == VB_NORM_ENERGY_MAX ||
           n == VB_NORM_ANGMOM_MAX || n == VB_NORM_MOMENTUM_MAX || n == VB_NORM_ATT_MAX ||
           n == VB_NORM_ANGVEL_MAX;
}

int vb_norm_applies_to(const vb_case *c, const vb_integrator *g, vb_norm n)
{
    return vb_norm_applies(c, n) &&
           !(vb_norm_needs_velocity(n) &&
             vb_runner_caps_of(g, &c->model).velocity == VB_VELOCITY_NONE);
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
