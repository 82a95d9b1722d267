/* tables.c — a sweep's tables, one CSV each: its runs, the orders fitted
 * to them, the random plans' bands, the one-step errors and their
 * exponents, the reversals, and the runs' wall times (run --timing).
 * Every number in full (%.17g), so a table reads back to the bits. */
#include "tables.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "cells.h"
#include "integrator.h"
#include "norms.h"
#include "orders_table.h"
#include "runs_table.h"

void vb_csv_number(FILE *f, double x)
{
    if (isnan(x))
        fputs(",", f);
    else
        fprintf(f, ",%.17g", x);
}

/* An order as printed to two places: a slope that rounds to zero is "0.00",
 * not "-0.00", which reads as if the sign meant something. */
double vb_order_shown(double order)
{
    return fabs(order) < 0.005 ? 0.0 : order;
}

void vb_write_runs(const vb_sweep *s, FILE *f)
{
    /* a case with a [loop]: what its frames drew, and what its clamp
     * dropped; a rigid body's: its attitude */
    unsigned view = VB_RUNS_SWEEP | vb_runs_view(s->c->profile.measures);
    vb_schema_header(f, &vb_runs_schema, view);
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        vb_runs_row row = {&s->c->model, s->c->integ[j->integ], &j->plan, &j->res, j->level};
        vb_schema_row(f, &vb_runs_schema, view, NULL, &row);
    }
}

void vb_write_orders(const vb_sweep *s, FILE *f)
{
    vb_schema_header(f, &vb_orders_schema, 0);
    for (size_t k = 0; k < s->n_orders; k++)
        vb_schema_row(f, &vb_orders_schema, 0, s, &s->orders[k]);
}

/* ---- tables on a schema (schema.h) ---- */

#define BAND(f) offsetof(vb_band_row, f)
static const vb_column bands_columns[] = {
    [VB_COL_BANDS_INTEGRATOR] = {"integrator", VB_FMT_TEXT, vb_get_integ_name, BAND(integ), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_BANDS_LEVEL] = {"level", VB_FMT_INT, vb_get_int, BAND(level), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_BANDS_DT] = {"dt", VB_FMT_REAL, vb_get_real, BAND(dt), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_BANDS_NORM] = {"norm", VB_FMT_TEXT, vb_get_norm_name, BAND(norm), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_BANDS_MEDIAN] = {"median", VB_FMT_REAL, vb_get_real, BAND(median), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_BANDS_P10] = {"p10", VB_FMT_REAL, vb_get_real, BAND(p10), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_BANDS_P90] = {"p90", VB_FMT_REAL, vb_get_real, BAND(p90), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_BANDS_RUNS] = {"runs", VB_FMT_INT, vb_get_int, BAND(runs), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
const vb_schema vb_bands_schema = VB_SCHEMA("bands.csv", bands_columns);
_Static_assert(sizeof bands_columns / sizeof bands_columns[0] == VB_BANDS_COLUMNS,
               "a column of bands.csv without its line");

void vb_write_bands(const vb_sweep *s, FILE *f)
{
    vb_schema_header(f, &vb_bands_schema, 0);
    for (size_t k = 0; k < s->n_bands; k++)
        vb_schema_row(f, &vb_bands_schema, 0, s, &s->bands[k]);
}

/* onestep.csv and onestep_orders.csv: a line a step size, and a line a
 * norm, of one integrator at one ratio h'/h */
typedef struct onestep_line {
    const vb_onestep_row *r;
    int k; /* onestep.csv: the step size's index; onestep_orders.csv: 0 err_pos, 1 err_vel */
} onestep_line;
#define LINE(p) ((const onestep_line *)(p))

static vb_cell onestep_integ(const vb_column *c, const void *t, const void *row)
{
    (void)c;
    return vb_cell_s(((const vb_sweep *)t)->c->integ[LINE(row)->r->integ]->name);
}

static vb_cell onestep_ratio(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_x(vb_onestep_ratio[LINE(row)->r->ratio]);
}

/* the k-th of the row's array at col->at: h always, an error NaN as blank */
static vb_cell onestep_at_k(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    double x;
    memcpy(&x, (const char *)LINE(row)->r + c->at + (size_t)LINE(row)->k * sizeof x, sizeof x);
    return c->at == offsetof(vb_onestep_row, h) ? vb_cell_x(x) : vb_cell_x_or_blank(x);
}

#define ONE(f) offsetof(vb_onestep_row, f)
static const vb_column onestep_columns[] = {
    [VB_COL_ONESTEP_INTEGRATOR] = {"integrator", VB_FMT_TEXT, onestep_integ, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_ONESTEP_H_RATIO] = {"h_ratio", VB_FMT_SHORT, onestep_ratio, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_ONESTEP_H] = {"h", VB_FMT_REAL, onestep_at_k, ONE(h), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ONESTEP_ERR_POS] = {"err_pos", VB_FMT_REAL, onestep_at_k, ONE(err_pos), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ONESTEP_ERR_VEL] = {"err_vel", VB_FMT_REAL, onestep_at_k, ONE(err_vel), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
const vb_schema vb_onestep_schema = VB_SCHEMA("onestep.csv", onestep_columns);
_Static_assert(sizeof onestep_columns / sizeof onestep_columns[0] == VB_ONESTEP_COLUMNS,
               "a column of onestep.csv without its line");

void vb_write_onestep(const vb_sweep *s, FILE *f)
{
    fprintf(f, "# one step of h from the exact solution; multistep methods also get x(t - h')\n"
               "# with h' = h_ratio h; the largest error over t = (0.11, 0.30, 0.49, 0.68, 0.87) T,\n"
               "# T = %.17g\n",
            s->onestep_T);
    vb_schema_header(f, &vb_onestep_schema, 0);
    for (size_t k = 0; k < s->n_onestep; k++)
        for (int l = 0; l < s->onestep[k].fit_pos.n; l++)
            vb_schema_row(f, &vb_onestep_schema, 0, s, &(onestep_line){&s->onestep[k], l});
}

static const vb_fit *line_fit(const void *row)
{
    return LINE(row)->k ? &LINE(row)->r->fit_vel : &LINE(row)->r->fit_pos;
}

static vb_cell onestep_norm(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(LINE(row)->k ? "err_vel" : "err_pos");
}

/* the exponent; "exact" for a series at the round-off floor, blank where
 * none could be fitted */
static vb_cell onestep_order(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_fit *fit = line_fit(row);
    return fit->exact               ? vb_cell_s("exact")
           : isfinite(fit->order) ? vb_cell_x(fit->order)
                                  : vb_cell_blank();
}

static vb_cell onestep_points(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_i(line_fit(row)->points);
}

static vb_cell onestep_global(const vb_column *c, const void *t, const void *row)
{
    (void)c;
    return vb_cell_i(((const vb_sweep *)t)->c->integ[LINE(row)->r->integ]->order);
}

static void onestep_locals(FILE *f, const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    vb_local_orders_print(f, line_fit(row));
}

static const vb_column onestep_orders_columns[] = {
    [VB_COL_ONESTEP_ORDERS_INTEGRATOR] = {"integrator", VB_FMT_TEXT, onestep_integ, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_ONESTEP_ORDERS_H_RATIO] = {"h_ratio", VB_FMT_SHORT, onestep_ratio, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_ONESTEP_ORDERS_NORM] = {"norm", VB_FMT_TEXT, onestep_norm, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_ONESTEP_ORDERS_ORDER] = {"order", VB_FMT_FIX6, onestep_order, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ONESTEP_ORDERS_POINTS] = {"points", VB_FMT_INT, onestep_points, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ONESTEP_ORDERS_GLOBAL_ORDER] = {"global_order", VB_FMT_INT, onestep_global, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ONESTEP_ORDERS_LOCAL_ORDERS] = {"local_orders", VB_FMT_LIST, NULL, 0, 0, onestep_locals, 0, VB_READ, 0, 0, 0, 0},
};
const vb_schema vb_onestep_orders_schema =
    VB_SCHEMA("onestep_orders.csv", onestep_orders_columns);
_Static_assert(sizeof onestep_orders_columns / sizeof onestep_orders_columns[0] == VB_ONESTEP_ORDERS_COLUMNS,
               "a column of onestep_orders.csv without its line");

void vb_write_onestep_orders(const vb_sweep *s, FILE *f)
{
    fputs("# the exponent p of the one-step (local) error ~ h^p, next to the global\n"
          "# order: a global order q usually means p = q + 1, but position Verlet's\n"
          "# two-step recurrence has p = 4 in position for q = 2\n",
          f);
    vb_schema_header(f, &vb_onestep_orders_schema, 0);
    for (size_t k = 0; k < s->n_onestep; k++)
        for (int which = 0; which < 2; which++)
            vb_schema_row(f, &vb_onestep_orders_schema, 0, s, &(onestep_line){&s->onestep[k], which});
}

static vb_cell reversible(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_reversible_name(((const vb_reverse_row *)row)->reversible));
}

/* every number printed, NaN too (a run back that did not come back) */
#define REV(f) offsetof(vb_reverse_row, f)
static const vb_column reverse_columns[] = {
    [VB_COL_REVERSE_INTEGRATOR] = {"integrator", VB_FMT_TEXT, vb_get_integ_name, REV(integ), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_REVERSE_PLAN] = {"plan", VB_FMT_TEXT, vb_get_plan_name, REV(kind), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_REVERSE_DT] = {"dt", VB_FMT_REAL, vb_get_real_always, REV(dt), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_REVERSE_STEPS] = {"steps", VB_FMT_COUNT, vb_get_count, REV(steps), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_REVERSE_RETURN_ERR_POS] = {"return_err_pos", VB_FMT_REAL, vb_get_real_always, REV(err_pos), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_REVERSE_RETURN_ERR_VEL] = {"return_err_vel", VB_FMT_REAL, vb_get_real_always, REV(err_vel), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_REVERSE_ROUNDOFF] = {"roundoff", VB_FMT_REAL, vb_get_real_always, REV(floor), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_REVERSE_REVERSIBLE] = {"reversible", VB_FMT_TEXT, reversible, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
const vb_schema vb_reverse_schema = VB_SCHEMA("reverse.csv", reverse_columns);
_Static_assert(sizeof reverse_columns / sizeof reverse_columns[0] == VB_REVERSE_COLUMNS,
               "a column of reverse.csv without its line");

void vb_write_reverse(const vb_sweep *s, FILE *f)
{
    fputs("# run to t_end, reverse the velocity, run the same steps back in reverse order:\n"
          "# return_err_* is the distance from (x0, -v0); reversible if within round-off\n",
          f);
    vb_schema_header(f, &vb_reverse_schema, 0);
    for (size_t k = 0; k < s->n_reverse; k++)
        vb_schema_row(f, &vb_reverse_schema, 0, s, &s->reverse[k]);
}

/* ---- flips.csv: a rigid body's runs (docs/rigid.md §4, §7) ---- */

#define RROW(p) ((const vb_runs_row *)(p))

static vb_cell flips_integ(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(RROW(row)->integ->name);
}

static vb_cell flips_plan(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_plan_name(RROW(row)->plan->kind));
}

static vb_cell flips_level(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_i(RROW(row)->level);
}

static vb_cell flips_seed(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_plan_spec *p = RROW(row)->plan;
    return p->kind == VB_PLAN_RANDOM ? vb_cell_u(p->seed) : vb_cell_blank();
}

static vb_cell flips_status(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_status_name(RROW(row)->res->status));
}

/* a double of the result at col->at; NaN blank */
static vb_cell flips_real(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    double x;
    memcpy(&x, (const char *)RROW(row)->res + c->at, sizeof x);
    return vb_cell_x_or_blank(x);
}

static vb_cell flips_count(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    unsigned long long x;
    memcpy(&x, (const char *)RROW(row)->res + c->at, sizeof x);
    return vb_cell_u(x);
}

/* (measured - exact) / exact, where both are: + a slow flip */
static vb_cell flips_period_err(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_run_result *r = RROW(row)->res;
    return isfinite(r->flip_period) && isfinite(r->flip_period_exact) && r->flips_exact >= 2
               ? vb_cell_x((r->flip_period - r->flip_period_exact) / r->flip_period_exact)
               : vb_cell_blank();
}

#define RES(f) offsetof(vb_run_result, f)
static const vb_column flips_columns[] = {
    [VB_COL_FLIPS_INTEGRATOR] = {"integrator", VB_FMT_TEXT, flips_integ, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_FLIPS_PLAN] = {"plan", VB_FMT_TEXT, flips_plan, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_FLIPS_LEVEL] = {"level", VB_FMT_INT, flips_level, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_FLIPS_SEED] = {"seed", VB_FMT_COUNT, flips_seed, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_FLIPS_DT] = {"dt", VB_FMT_REAL, flips_real, RES(dt), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_FLIPS_T_END] = {"t_end", VB_FMT_REAL, flips_real, RES(t_end), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_FLIPS_STATUS] = {"status", VB_FMT_TEXT, flips_status, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_FLIPS_FLIPS] = {"flips", VB_FMT_COUNT, flips_count, RES(flips), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_FLIPS_FLIPS_EXACT] = {"flips_exact", VB_FMT_COUNT, flips_count, RES(flips_exact), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_FLIPS_FLIP_PERIOD] = {"flip_period", VB_FMT_REAL, flips_real, RES(flip_period), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_FLIPS_FLIP_PERIOD_EXACT] = {"flip_period_exact", VB_FMT_REAL, flips_real, RES(flip_period_exact), 0, NULL, 0, VB_READ, 0,
     0, 0, 0},
    [VB_COL_FLIPS_FLIP_PERIOD_ERR] = {"flip_period_err", VB_FMT_REAL, flips_period_err, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_FLIPS_T_TUMBLE] = {"t_tumble", VB_FMT_REAL, flips_real, RES(t_tumble), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
const vb_schema vb_flips_schema = VB_SCHEMA("flips.csv", flips_columns);
_Static_assert(sizeof flips_columns / sizeof flips_columns[0] == VB_FLIPS_COLUMNS,
               "a column of flips.csv without its line");

void vb_write_flips(const vb_sweep *s, FILE *f)
{
    fputs("# flips: turns of the intermediate axis against L (L_2/|L| from >= 1/2 to <= -1/2 "
          "or back),\n"
          "# the run's and the exact solution's at the same times; flip_period: twice the mean "
          "time between\n"
          "# the run's flips where they are regular, blank where not and after a tumble "
          "(docs/rigid.md §4); flip_period_exact: 4K(m)/lambda, the period of w(t); "
          "flip_period_err: (flip_period - flip_period_exact) / flip_period_exact;\n"
          "# t_tumble: when a stable spin (no exact flip) first flipped, its tumble, blank if "
          "never (docs/rigid.md §4)\n",
          f);
    vb_schema_header(f, &vb_flips_schema, 0);
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        vb_runs_row row = {&s->c->model, s->c->integ[j->integ], &j->plan, &j->res, j->level};
        vb_schema_row(f, &vb_flips_schema, 0, NULL, &row);
    }
}

/* timing.csv (run --timing): each run's wall time beside its work and
 * error; machine-dependent, so no other file holds a time */
#define TIMING(p) ((const vb_timing_row *)(p))

/* a field of the run timed (its job) at col->at: a real always, a count */
static vb_cell job_real(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    double x;
    memcpy(&x, (const char *)TIMING(row)->job + c->at, sizeof x);
    return vb_cell_x(x);
}

static vb_cell job_count(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    unsigned long long x;
    memcpy(&x, (const char *)TIMING(row)->job + c->at, sizeof x);
    return vb_cell_u(x);
}

static vb_cell ns_per_step(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_timing_row *r = TIMING(row);
    unsigned long long steps = r->job->res.steps;
    return vb_cell_x(steps ? r->seconds * 1e9 / (double)steps : 0.0);
}

#define TIM(f) offsetof(vb_timing_row, f)
#define JOB(f) offsetof(vb_sweep_job, f)
static const vb_column timing_columns[] = {
    [VB_COL_TIMING_INTEGRATOR] = {"integrator", VB_FMT_TEXT, vb_get_integ_name, TIM(integ), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_TIMING_PLAN] = {"plan", VB_FMT_TEXT, vb_get_plan_name, TIM(kind), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_TIMING_LEVEL] = {"level", VB_FMT_INT, vb_get_int, TIM(level), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_TIMING_DT] = {"dt", VB_FMT_REAL, job_real, JOB(res.dt), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_TIMING_TOL] = {"tol", VB_FMT_REAL, job_real, JOB(plan.tol), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_TIMING_STEPS] = {"steps", VB_FMT_COUNT, job_count, JOB(res.steps), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_TIMING_FORCE_EVALS] = {"force_evals", VB_FMT_COUNT, job_count, JOB(res.force_evals), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_TIMING_ERR_POS_MAX] = {"err_pos_max", VB_FMT_REAL, job_real, JOB(res.err_pos_max), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_TIMING_SECONDS] = {"seconds", VB_FMT_SCI6, vb_get_real_always, TIM(seconds), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_TIMING_NS_PER_STEP] = {"ns_per_step", VB_FMT_G4, ns_per_step, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_TIMING_REPEATS] = {"repeats", VB_FMT_INT, vb_get_int, TIM(repeats), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
const vb_schema vb_timing_schema = VB_SCHEMA("timing.csv", timing_columns);
_Static_assert(sizeof timing_columns / sizeof timing_columns[0] == VB_TIMING_COLUMNS,
               "a column of timing.csv without its line");

void vb_write_timing(const vb_sweep *s, FILE *f)
{
    fputs("# seconds: median of `repeats` runs alone on one thread, no truth or metrics "
          "(docs/method.md §8)\n",
          f);
    vb_schema_header(f, &vb_timing_schema, 0);
    for (size_t k = 0; k < s->n_timing; k++)
        vb_schema_row(f, &vb_timing_schema, 0, s, &s->timing[k]);
}
