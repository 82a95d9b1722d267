/* tables.c — a sweep's tables, one CSV each: its runs, the orders fitted
 * to them, the random plans' bands, the one-step errors and their
 * exponents, the reversals, and the runs' wall times (run --timing).
 * Every number in full (%.17g), so a table reads back to the bits. */
#include "tables.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

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
    /* a case with a [loop]: what its frames drew, and what its clamp dropped */
    unsigned view = VB_RUNS_SWEEP | (vb_norm_applies(s->c, VB_NORM_DRAW_MAX) ? VB_RUNS_LOOP : 0) |
                    (vb_norm_applies(s->c, VB_NORM_ATT_MAX) ? VB_RUNS_RIGID : 0);
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

/* the name of the integrator whose index (in the case's list) is at col->at */
static vb_cell integ_name(const vb_column *c, const void *t, const void *row)
{
    size_t i;
    memcpy(&i, (const char *)row + c->at, sizeof i);
    return vb_cell_s(((const vb_sweep *)t)->c->integ[i]->name);
}

static vb_cell band_norm(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_norm_name(((const vb_band_row *)row)->norm));
}

#define BAND(f) offsetof(vb_band_row, f)
static const vb_column bands_columns[] = {
    {"integrator", VB_FMT_TEXT, integ_name, BAND(integ), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"level", VB_FMT_INT, vb_get_int, BAND(level), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"dt", VB_FMT_REAL, vb_get_real, BAND(dt), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"norm", VB_FMT_TEXT, band_norm, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"median", VB_FMT_REAL, vb_get_real, BAND(median), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"p10", VB_FMT_REAL, vb_get_real, BAND(p10), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"p90", VB_FMT_REAL, vb_get_real, BAND(p90), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"runs", VB_FMT_INT, vb_get_int, BAND(runs), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
static const vb_schema bands_schema = VB_SCHEMA("bands.csv", bands_columns);

void vb_write_bands(const vb_sweep *s, FILE *f)
{
    vb_schema_header(f, &bands_schema, 0);
    for (size_t k = 0; k < s->n_bands; k++)
        vb_schema_row(f, &bands_schema, 0, s, &s->bands[k]);
}

void vb_write_onestep(const vb_sweep *s, FILE *f)
{
    fprintf(f, "# one step of h from the exact solution; multistep methods also get x(t - h')\n"
               "# with h' = h_ratio h; the largest error over t = (0.11, 0.30, 0.49, 0.68, 0.87) T,\n"
               "# T = %.17g\n",
            s->onestep_T);
    fputs("integrator,h_ratio,h,err_pos,err_vel\n", f);
    for (size_t k = 0; k < s->n_onestep; k++) {
        const vb_onestep_row *r = &s->onestep[k];
        for (int l = 0; l < r->fit_pos.n; l++) {
            fprintf(f, "%s,%g,%.17g", s->c->integ[r->integ]->name, vb_onestep_ratio[r->ratio],
                    r->h[l]);
            vb_csv_number(f, r->err_pos[l]);
            vb_csv_number(f, r->err_vel[l]);
            fputc('\n', f);
        }
    }
}

void vb_write_onestep_orders(const vb_sweep *s, FILE *f)
{
    fputs("# the exponent p of the one-step (local) error ~ h^p, next to the global\n"
          "# order: a global order q usually means p = q + 1, but position Verlet's\n"
          "# two-step recurrence has p = 4 in position for q = 2\n",
          f);
    fputs("integrator,h_ratio,norm,order,points,global_order,local_orders\n", f);
    for (size_t k = 0; k < s->n_onestep; k++) {
        const vb_onestep_row *r = &s->onestep[k];
        const vb_integrator *g = s->c->integ[r->integ];
        for (int which = 0; which < 2; which++) {
            const vb_fit *fit = which ? &r->fit_vel : &r->fit_pos;
            fprintf(f, "%s,%g,%s,", g->name, vb_onestep_ratio[r->ratio],
                    which ? "err_vel" : "err_pos");
            if (fit->exact)
                fputs("exact", f);
            else if (isfinite(fit->order))
                fprintf(f, "%.6f", fit->order);
            fprintf(f, ",%d,%d", fit->points, g->order);
            fputc(',', f);
            vb_local_orders_print(f, fit);
            fputc('\n', f);
        }
    }
}

static vb_cell reverse_plan(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_plan_name(((const vb_reverse_row *)row)->kind));
}

static vb_cell reversible(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_reversible_name(((const vb_reverse_row *)row)->reversible));
}

/* every number printed, NaN too (a run back that did not come back) */
static vb_cell real_always(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    double x;
    memcpy(&x, (const char *)row + c->at, sizeof x);
    return vb_cell_x(x);
}

#define REV(f) offsetof(vb_reverse_row, f)
static const vb_column reverse_columns[] = {
    {"integrator", VB_FMT_TEXT, integ_name, REV(integ), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"plan", VB_FMT_TEXT, reverse_plan, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"dt", VB_FMT_REAL, real_always, REV(dt), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"steps", VB_FMT_COUNT, vb_get_count, REV(steps), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"return_err_pos", VB_FMT_REAL, real_always, REV(err_pos), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"return_err_vel", VB_FMT_REAL, real_always, REV(err_vel), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"roundoff", VB_FMT_REAL, real_always, REV(floor), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"reversible", VB_FMT_TEXT, reversible, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
static const vb_schema reverse_schema = VB_SCHEMA("reverse.csv", reverse_columns);

void vb_write_reverse(const vb_sweep *s, FILE *f)
{
    fputs("# run to t_end, reverse the velocity, run the same steps back in reverse order:\n"
          "# return_err_* is the distance from (x0, -v0); reversible if within round-off\n",
          f);
    vb_schema_header(f, &reverse_schema, 0);
    for (size_t k = 0; k < s->n_reverse; k++)
        vb_schema_row(f, &reverse_schema, 0, s, &s->reverse[k]);
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
    {"integrator", VB_FMT_TEXT, flips_integ, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"plan", VB_FMT_TEXT, flips_plan, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"level", VB_FMT_INT, flips_level, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"seed", VB_FMT_COUNT, flips_seed, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    {"dt", VB_FMT_REAL, flips_real, RES(dt), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"t_end", VB_FMT_REAL, flips_real, RES(t_end), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"status", VB_FMT_TEXT, flips_status, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"flips", VB_FMT_COUNT, flips_count, RES(flips), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"flips_exact", VB_FMT_COUNT, flips_count, RES(flips_exact), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"flip_period", VB_FMT_REAL, flips_real, RES(flip_period), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"flip_period_exact", VB_FMT_REAL, flips_real, RES(flip_period_exact), 0, NULL, 0, VB_READ, 0,
     0, 0, 0},
    {"flip_period_err", VB_FMT_REAL, flips_period_err, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    {"t_tumble", VB_FMT_REAL, flips_real, RES(t_tumble), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
static const vb_schema flips_schema = VB_SCHEMA("flips.csv", flips_columns);

void vb_write_flips(const vb_sweep *s, FILE *f)
{
    fputs("# flips: turns of the intermediate axis against L (L_2/|L| from >= 1/2 to <= -1/2 "
          "or back),\n"
          "# the run's and the exact solution's at the same times; flip_period: twice the mean "
          "time between\n"
          "# the run's flips; flip_period_exact: 4K(m)/lambda, the period of w(t); "
          "flip_period_err: (flip_period - flip_period_exact) / flip_period_exact;\n"
          "# t_tumble: when a stable spin (no exact flip) first crossed the separatrix, blank if "
          "never (docs/rigid.md §4)\n",
          f);
    vb_schema_header(f, &flips_schema, 0);
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        vb_runs_row row = {&s->c->model, s->c->integ[j->integ], &j->plan, &j->res, j->level};
        vb_schema_row(f, &flips_schema, 0, NULL, &row);
    }
}

/* timing.csv (run --timing): each run's wall time beside its work and
 * error; machine-dependent, so no other file holds a time */
void vb_write_timing(const vb_sweep *s, FILE *f)
{
    fputs("# seconds: median of `repeats` runs alone on one thread, no truth or metrics "
          "(docs/method.md §8)\n",
          f);
    fputs("integrator,plan,level,dt,tol,steps,force_evals,err_pos_max,seconds,ns_per_step,"
          "repeats\n",
          f);
    for (size_t k = 0; k < s->n_timing; k++) {
        const vb_timing_row *t = &s->timing[k];
        const vb_run_result *r = &t->job->res;
        fprintf(f, "%s,%s,%d,%.17g,%.17g,%llu,%llu,%.17g,%.6e,%.4g,%d\n",
                s->c->integ[t->integ]->name, vb_plan_name(t->kind), t->level, r->dt,
                t->job->plan.tol, r->steps, r->force_evals, r->err_pos_max, t->seconds,
                r->steps ? t->seconds * 1e9 / (double)r->steps : 0.0, t->repeats);
    }
}
