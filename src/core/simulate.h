/* simulate.h — one run: an integrator on a model under a step plan, measured
 * against the exact solution at every step.  No global state: runs may go
 * on in any number of threads at once. */
#ifndef VB_SIMULATE_H
#define VB_SIMULATE_H

#include <stdio.h>

#include "model.h"
#include "plan.h"
#include "verletbench.h"

typedef enum {
    VB_STATUS_OK,
    VB_STATUS_DIVERGED,    /* the state became non-finite */
    VB_STATUS_EXACT_FAILED /* the exact solution could not be computed */
} vb_status;

const char *vb_status_name(vb_status s);

/* Called at t = 0 and after every step with the integrator's (x, v) and the
 * exact (xe, ve): how the charts record a run without the core knowing. */
typedef void vb_step_fn(void *ctx, double t, const double *x, const double *v,
                        const double *xe, const double *ve);

typedef struct vb_run_spec {
    const vb_integrator *integ;
    const vb_model *model;
    vb_plan_spec plan;
    FILE *trajectory;   /* per-step rows, or NULL */
    vb_step_fn *on_step; /* or NULL */
    void *on_step_ctx;
} vb_run_spec;

typedef struct vb_run_result {
    double dt;    /* the effective dt (fixed), nominal dt (random), mean step (trace) */
    double t_end;
    unsigned long long steps, force_evals;
    double err_pos_final, err_pos_max, err_pos_rms;
    double err_vel_final, err_vel_max;
    double err_energy_max, err_angmom_max;
    int has_energy, has_angmom;
    vb_status status;
    unsigned long long fail_step; /* the step at which the run stopped, if not ok */
    double pos_scale, vel_scale;  /* largest |x|, |v| of the exact solution */
} vb_run_result;

/* Run.  Returns 0 (also for a run that diverged: that is a result), or -1
 * with a message for a failure of the machine (memory, a write error). */
int vb_simulate(const vb_run_spec *spec, vb_run_result *res, char *err, size_t errlen);

/* Up to VB_LANES runs of one integrator on one model, in lockstep lanes
 * (lanes.h): res[i] is what vb_simulate gives for specs[i], bit for bit.
 * The specs must share integ and model, and have no trajectory or on_step;
 * the integrator must have lanes (vb_simulate_lanes_supports).  Lanes that
 * finish early or diverge keep stepping harmlessly until the last is done.
 * Returns 0, or -1 with a message for a failure of the machine. */
int vb_simulate_lanes(const vb_run_spec *specs, size_t n, vb_run_result *res, char *err,
                      size_t errlen);
int vb_simulate_lanes_supports(const vb_integrator *integ);

/* The result fields once a run has stopped (res->status and res->steps
 * set): shared by vb_simulate and vb_simulate_lanes. */
struct vb_metrics;
/* every x[i] and v[i], i < dim, finite */
int vb_all_finite(const double *x, const double *v, unsigned dim);
void vb_run_finish(const vb_run_spec *spec, const vb_plan *plan, const struct vb_metrics *m,
                   unsigned long long force_evals, vb_run_result *res);

/* The columns of `sim` and of runs.csv (docs/method.md §8, then additions). */
extern const char vb_run_columns[];

/* "model=orbit mu=1 a=1 e=0.5 integrator=tcv plan=random dt=0.01 ..." */
void vb_run_describe(FILE *out, const vb_run_spec *spec);

/* One CSV row for a result, without the newline. */
void vb_run_print_row(FILE *out, const vb_run_spec *spec, const vb_run_result *res);

#endif
