/* runs_table.c — the columns of runs.csv (docs/method.md §8, then
 * additions), each with how its cell is made from a run, and what check
 * does with it. */
#include "runs_table.h"

#include "profile.h" /* VB_MEASURE_* */

#include <stddef.h>
#include <string.h>

#include "runner.h"
#include "truth.h"

#define ROW(p) ((const vb_runs_row *)(p))

static double res_real(const vb_column *c, const vb_run_result *r)
{
    double x;
    memcpy(&x, (const char *)r + c->at, sizeof x);
    return x;
}

static int res_flag(const vb_column *c, const vb_run_result *r)
{
    int x;
    memcpy(&x, (const char *)r + c->when, sizeof x);
    return x;
}

static vb_cell model_name(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(ROW(row)->model->type->name);
}

static vb_cell integ_name(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(ROW(row)->integ->name);
}

static vb_cell plan_name(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_plan_name(ROW(row)->plan->kind));
}

/* 0 with fixed steps, the case's with random ones, blank for a trace */
static vb_cell jitter(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_plan_spec *p = ROW(row)->plan;
    return p->kind == VB_PLAN_RANDOM  ? vb_cell_x(p->jitter)
           : p->kind == VB_PLAN_FIXED ? vb_cell_x(0.0)
                                      : vb_cell_blank();
}

/* only random steps have a seed */
static vb_cell seed(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_plan_spec *p = ROW(row)->plan;
    return p->kind == VB_PLAN_RANDOM ? vb_cell_u(p->seed) : vb_cell_blank();
}

static vb_cell steps(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_u(ROW(row)->res->steps);
}

static vb_cell force_evals(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_u(ROW(row)->res->force_evals);
}

static vb_cell status(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_status_name(ROW(row)->res->status));
}

/* the step a run that did not finish stopped at */
static vb_cell fail_step(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_run_result *r = ROW(row)->res;
    return r->status != VB_STATUS_OK ? vb_cell_u(r->fail_step) : vb_cell_blank();
}

/* a double of the result, on every row */
static vb_cell every(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    return vb_cell_x(res_real(c, ROW(row)->res));
}

/* one where the flag at `when` is set: what the run measures */
static vb_cell measured(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    const vb_run_result *r = ROW(row)->res;
    return res_flag(c, r) ? vb_cell_x(res_real(c, r)) : vb_cell_blank();
}

/* one computed from the velocity: blank for an engine that reports none */
static vb_cell of_velocity(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    const vb_run_result *r = ROW(row)->res;
    return r->no_velocity ? vb_cell_blank() : vb_cell_x(res_real(c, r));
}

/* an adaptive integrator's tolerance (its dt is then the frames'),
 * blank for a runner without one */
static vb_cell tol(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_runs_row *w = ROW(row);
    return vb_cell_x_or_blank(vb_runner_tolerance(w->integ, w->plan));
}

static vb_cell level(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_i(ROW(row)->level);
}

/* against a reference: is the error above what it can resolve, 100 times
 * the reference's own (truth.h; norms.c's vb_norm_resolution)? */
static vb_cell resolved(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_run_result *r = ROW(row)->res;
    if (!r->has_reference)
        return vb_cell_blank();
    return vb_cell_s(r->err_pos_max > VB_REF_RESOLUTION * r->ref_err_pos ? "yes" : "no");
}

/* what a frame loop's frames drew, at col->at (a run without a loop, an
 * engine's in a case with one, holds what it reports at the frames there:
 * result.h) */
static vb_cell drawn(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    double x;
    memcpy(&x, (const char *)ROW(row)->res + c->at, sizeof x);
    return vb_cell_x_or_blank(x);
}

static vb_cell lag(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_x_or_blank(ROW(row)->res->lag_max);
}

#define AT(f) offsetof(vb_run_result, f)

/* The run's key (integrator, plan, level, seed) pairs a row with the same
 * run made now; the metrics are the errors compared.  Their scale is the
 * exact solution's size (the position's, the velocity's), or none (a
 * relative error); final: the error at t_end, or |x(t_end) - x(0)|, which
 * oscillate with where the run's phase error leaves it. */
static const vb_column runs_columns[] = {
    [VB_COL_RUNS_MODEL] = {"model", VB_FMT_TEXT, model_name, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_INTEGRATOR] = {"integrator", VB_FMT_TEXT, integ_name, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_RUNS_PLAN] = {"plan", VB_FMT_TEXT, plan_name, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_RUNS_DT] = {"dt", VB_FMT_REAL, every, AT(dt), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_JITTER] = {"jitter", VB_FMT_REAL, jitter, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_SEED] = {"seed", VB_FMT_COUNT, seed, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_RUNS_STEPS] = {"steps", VB_FMT_COUNT, steps, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_T_END] = {"t_end", VB_FMT_REAL, every, AT(t_end), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_FORCE_EVALS] = {"force_evals", VB_FMT_COUNT, force_evals, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_ERR_POS_FINAL] = {"err_pos_final", VB_FMT_REAL, every, AT(err_pos_final), 0, NULL, 0, VB_METRIC, 1, VB_SCALE_POS,
     0, VB_FILLED_EVERY},
    [VB_COL_RUNS_ERR_POS_MAX] = {"err_pos_max", VB_FMT_REAL, every, AT(err_pos_max), 0, NULL, 0, VB_METRIC, 0, VB_SCALE_POS, 0,
     VB_FILLED_EVERY},
    [VB_COL_RUNS_ERR_POS_RMS] = {"err_pos_rms", VB_FMT_REAL, every, AT(err_pos_rms), 0, NULL, 0, VB_METRIC, 0, VB_SCALE_POS, 0,
     VB_FILLED_EVERY},
    [VB_COL_RUNS_ERR_VEL_FINAL] = {"err_vel_final", VB_FMT_REAL, of_velocity, AT(err_vel_final), 0, NULL, 0, VB_METRIC, 1,
     VB_SCALE_VEL, 1, VB_FILLED_EVERY},
    [VB_COL_RUNS_ERR_VEL_MAX] = {"err_vel_max", VB_FMT_REAL, of_velocity, AT(err_vel_max), 0, NULL, 0, VB_METRIC, 0, VB_SCALE_VEL,
     1, VB_FILLED_EVERY},
    [VB_COL_RUNS_ERR_ENERGY_MAX] = {"err_energy_max", VB_FMT_REAL, measured, AT(err_energy_max), AT(has_energy), NULL, 0, VB_METRIC,
     0, VB_SCALE_NONE, 1, VB_FILLED_MEASURED},
    [VB_COL_RUNS_STATUS] = {"status", VB_FMT_TEXT, status, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_ERR_ANGMOM_MAX] = {"err_angmom_max", VB_FMT_REAL, measured, AT(err_angmom_max), AT(has_angmom), NULL, 0, VB_METRIC,
     0, VB_SCALE_NONE, 1, VB_FILLED_MEASURED},
    [VB_COL_RUNS_FAIL_STEP] = {"fail_step", VB_FMT_COUNT, fail_step, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_POS_SCALE] = {"pos_scale", VB_FMT_REAL, every, AT(pos_scale), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_VEL_SCALE] = {"vel_scale", VB_FMT_REAL, every, AT(vel_scale), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_ERR_MOMENTUM_MAX] = {"err_momentum_max", VB_FMT_REAL, measured, AT(err_momentum_max), AT(has_momentum), NULL, 0,
     VB_METRIC, 0, VB_SCALE_NONE, 1, VB_FILLED_MEASURED},
    [VB_COL_RUNS_ERR_RETURN] = {"err_return", VB_FMT_REAL, measured, AT(err_return), AT(has_return), NULL, 0, VB_METRIC, 1,
     VB_SCALE_POS, 0, VB_FILLED_MEASURED},
    [VB_COL_RUNS_REF_ERR_POS] = {"ref_err_pos", VB_FMT_REAL, measured, AT(ref_err_pos), AT(has_reference), NULL, 0, VB_READ, 0, 0,
     0, 0},
    [VB_COL_RUNS_REF_ERR_VEL] = {"ref_err_vel", VB_FMT_REAL, measured, AT(ref_err_vel), AT(has_reference), NULL, 0, VB_READ, 0, 0,
     0, 0},
    [VB_COL_RUNS_TOL] = {"tol", VB_FMT_REAL, tol, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_ERR_CONSTRAINT_MAX] = {"err_constraint_max", VB_FMT_REAL, measured, AT(err_constraint_max), AT(has_constraint), NULL, 0,
     VB_METRIC, 0, VB_SCALE_POS, 0, VB_FILLED_MEASURED},
    [VB_COL_RUNS_LEVEL] = {"level", VB_FMT_INT, level, 0, 0, NULL, VB_RUNS_SWEEP, VB_KEY, 0, 0, 0, 0},
    [VB_COL_RUNS_RESOLVED] = {"resolved", VB_FMT_TEXT, resolved, 0, 0, NULL, VB_RUNS_SWEEP, VB_READ, 0, 0, 0, 0},
    [VB_COL_RUNS_ERR_DRAW_MAX] = {"err_draw_max", VB_FMT_REAL, drawn, AT(err_draw_max), 0, NULL,
     VB_RUNS_LOOP, VB_METRIC, 0, VB_SCALE_POS, 0, VB_FILLED_DRAWN},
    [VB_COL_RUNS_ERR_DRAW_RMS] = {"err_draw_rms", VB_FMT_REAL, drawn, AT(err_draw_rms), 0, NULL,
     VB_RUNS_LOOP, VB_METRIC, 0, VB_SCALE_POS, 0, VB_FILLED_DRAWN},
    [VB_COL_RUNS_LAG_MAX] = {"lag_max", VB_FMT_REAL, lag, 0, 0, NULL, VB_RUNS_LOOP, VB_READ, 0, 0, 0, 0},
    /* a rigid body's (docs/rigid.md §7): the attitude's angle in radians,
     * |w - w_exact| in the body frame; its world angular momentum is
     * err_angmom_max.  Absolute errors, whose round-off is that of the
     * packed state's numbers: the attitude's of (x, q) (|q| = 1), the
     * angular velocity's of (v, w) */
    [VB_COL_RUNS_ERR_ATT_MAX] = {"err_att_max", VB_FMT_REAL, measured, AT(err_att_max), AT(has_attitude), NULL, VB_RUNS_RIGID,
     VB_METRIC, 0, VB_SCALE_POS, 0, VB_FILLED_RIGID},
    [VB_COL_RUNS_ERR_ANGVEL_MAX] = {"err_angvel_max", VB_FMT_REAL, measured, AT(err_angvel_max), AT(has_attitude), NULL,
     VB_RUNS_RIGID, VB_METRIC, 0, VB_SCALE_VEL, 1, VB_FILLED_RIGID},
};

const vb_schema vb_runs_schema = VB_SCHEMA("runs.csv", runs_columns);
_Static_assert(sizeof runs_columns / sizeof runs_columns[0] == VB_RUNS_COLUMNS,
               "a column of runs.csv without its line");

unsigned vb_runs_view(unsigned measures)
{
    return ((measures & VB_MEASURE_DRAWN) ? VB_RUNS_LOOP : 0u) |
           ((measures & VB_MEASURE_ATTITUDE) ? VB_RUNS_RIGID : 0u);
}

size_t vb_runs_metrics(void) { return vb_schema_count(&vb_runs_schema, VB_METRIC); }

const vb_column *vb_runs_metric(size_t m) { return vb_schema_nth(&vb_runs_schema, VB_METRIC, m); }

_Static_assert(sizeof runs_columns / sizeof runs_columns[0] <= VB_SCHEMA_MAX_COLUMNS,
               "runs.csv has more columns than a reader holds (schema.h)");
