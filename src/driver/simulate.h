/* simulate.h — runs: runners (runner.h) on a model under a step plan, measured
 * against the truth (the exact or the reference solution, truth.h) at every
 * step.  No global state: runs may go on in any number of threads at once.
 *
 * Runs of several integrators under one plan share their step times, so
 * they share the truth too: vb_simulate_grid computes it once per step for
 * all of them.  The truth (a Kepler solve, an elliptic function, a
 * reference integration) is most of what a run costs, so a sweep runs its
 * integrators together, a plan at a time.  Each integrator's result is what
 * it would be alone, bit for bit.  The grid knows no kind of runner: it
 * opens each entry's run (vb_run_open) and steps every one through the
 * same operations (vb_run_ops). */
#ifndef VB_SIMULATE_H
#define VB_SIMULATE_H

#include <stdio.h>

#include "model.h"
#include "plan.h"
#include "result.h"
#include "schema.h"
#include "verletbench.h"

/* Called at t = 0 and after every step of integrator k (its index in the
 * grid) with its (x, v) and the truth (xe, ve): how the charts record a
 * run without the core knowing.  v is NULL after t = 0 for a run that
 * reports no velocity (vb_run_result.no_velocity). */
typedef void vb_step_fn(void *ctx, size_t k, double t, const double *x, const double *v,
                        const double *xe, const double *ve);

/* Several integrators under one plan. */
typedef struct vb_grid_spec {
    const vb_model *model;
    vb_plan_spec plan;
    const vb_integrator *const *integ;
    size_t n_integ;
    FILE *trajectory;    /* per-step rows of one integrator (n_integ = 1), or NULL */
    vb_step_fn *on_step; /* or NULL */
    void *on_step_ctx;
    /* the model's reference shared with other grids (truth.h), or NULL:
     * one of its own; the same bits either way */
    struct vb_reference *reference;
} vb_grid_spec;

/* Run every integrator of the grid; res[k] is integrator k's result.
 * Returns 0 (also when runs diverged: that is a result), or -1 with a
 * message for a failure of the machine (memory, a write error). */
int vb_simulate_grid(const vb_grid_spec *spec, vb_run_result *res, char *err, size_t errlen);

/* One run. */
typedef struct vb_run_spec {
    const vb_integrator *integ;
    const vb_model *model;
    vb_plan_spec plan;
    FILE *trajectory;    /* per-step rows, or NULL */
    vb_step_fn *on_step; /* or NULL; k is 0 */
    void *on_step_ctx;
} vb_run_spec;

int vb_simulate(const vb_run_spec *spec, vb_run_result *res, char *err, size_t errlen);


/* "model=orbit mu=1 a=1 e=0.5 integrator=tcv plan=random dt=0.01 ..." */
void vb_run_describe(FILE *out, const vb_run_spec *spec);

/* The trajectory columns of a model: "t,x,v,x_exact,v_exact,err_pos,energy"
 * for one particle in 1-D, x1,y1,...,vx1,... for several; a rigid body's
 * its packed state's (docs/rigid.md).  Their schemas (schema.h): a
 * particle model's, its state's names a group of columns given the model
 * (vb_schema_header_of), and a rigid body's. */
void vb_trajectory_header(FILE *f, const vb_model *model);
extern const vb_schema vb_trajectory_schema, vb_rigid_trajectory_schema;

#endif
