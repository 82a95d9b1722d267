/* runs_table.h — runs.csv (and the row `sim` and `score` print) on its
 * schema (schema.h): every column once, with how the writer prints it and
 * what the regression check does with it.  A new column of runs.csv is a
 * line of vb_runs_schema (runs_table.c): the header, the row, check's
 * reader (check/baseline.c) and, for an error, check's comparison take it
 * from there; and so do the sweep's error norms (norms.c: a norm is an
 * error column of it), which is why it lies in sweep/, under output/'s
 * tables that write it. */
#ifndef VB_RUNS_TABLE_H
#define VB_RUNS_TABLE_H

#include <stdio.h>

#include "integrator.h"
#include "model.h"
#include "plan.h"
#include "schema.h"
#include "simulate.h"

/* The views of runs.csv: a sweep's (level and resolved: the step size's
 * place among the halvings, and whether a reference solution resolves the
 * error), and a case's with a frame loop (err_draw_max, err_draw_rms,
 * lag_max), and a rigid body's (err_att_max, err_angvel_max).  `sim` prints neither view's own, or the loop's alone. */
enum { VB_RUNS_SWEEP = 1u, VB_RUNS_LOOP = 2u, VB_RUNS_RIGID = 4u };

/* its columns in order, every view's (a column's name: VB_RUNS_COL(DT)) */
enum {
    VB_COL_RUNS_MODEL,
    VB_COL_RUNS_INTEGRATOR,
    VB_COL_RUNS_PLAN,
    VB_COL_RUNS_DT,
    VB_COL_RUNS_JITTER,
    VB_COL_RUNS_SEED,
    VB_COL_RUNS_STEPS,
    VB_COL_RUNS_T_END,
    VB_COL_RUNS_FORCE_EVALS,
    VB_COL_RUNS_ERR_POS_FINAL,
    VB_COL_RUNS_ERR_POS_MAX,
    VB_COL_RUNS_ERR_POS_RMS,
    VB_COL_RUNS_ERR_VEL_FINAL,
    VB_COL_RUNS_ERR_VEL_MAX,
    VB_COL_RUNS_ERR_ENERGY_MAX,
    VB_COL_RUNS_STATUS,
    VB_COL_RUNS_ERR_ANGMOM_MAX,
    VB_COL_RUNS_FAIL_STEP,
    VB_COL_RUNS_POS_SCALE,
    VB_COL_RUNS_VEL_SCALE,
    VB_COL_RUNS_ERR_MOMENTUM_MAX,
    VB_COL_RUNS_ERR_RETURN,
    VB_COL_RUNS_REF_ERR_POS,
    VB_COL_RUNS_REF_ERR_VEL,
    VB_COL_RUNS_TOL,
    VB_COL_RUNS_ERR_CONSTRAINT_MAX,
    VB_COL_RUNS_LEVEL,
    VB_COL_RUNS_RESOLVED,
    VB_COL_RUNS_ERR_DRAW_MAX,
    VB_COL_RUNS_ERR_DRAW_RMS,
    VB_COL_RUNS_LAG_MAX,
    VB_COL_RUNS_ERR_ATT_MAX,
    VB_COL_RUNS_ERR_ANGVEL_MAX,
    VB_RUNS_COLUMNS
};

extern const vb_schema vb_runs_schema;
#define VB_RUNS_COL(c) vb_schema_name(&vb_runs_schema, VB_COL_RUNS_##c)

/* The view of a case that measures these (profile.h's VB_MEASURE_*),
 * without a sweep's own: the drawn state's columns, the attitude's. */
unsigned vb_runs_view(unsigned measures);

/* One row: the run, what it ran, and (a sweep's view) its level. */
typedef struct vb_runs_row {
    const vb_model *model;
    const vb_integrator *integ;
    const vb_plan_spec *plan;
    const vb_run_result *res;
    int level;
} vb_runs_row;

/* The errors check compares (role VB_METRIC), in the schema's order: how
 * many, and the m-th. */
size_t vb_runs_metrics(void);
const vb_column *vb_runs_metric(size_t m);

#endif
