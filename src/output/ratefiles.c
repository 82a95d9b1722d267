/* ratefiles.c — the frame-rate table written: a row a loop x integrator, frames
 * kind and display rate (rates.csv), and the spread across the rates
 * (summary.md). */
#include "ratefiles.h"

#include <math.h>
#include <stddef.h>

#include "cells.h"
#include "columns.h"
#include "jobs.h"
#include "norms.h"
#include "tables.h"

/* "y" for a 2-D model, "x" for a 1-D one: what the height is */
static void height_name(const vb_model *m, char *buf, size_t len)
{
    vb_state_component(buf, len, m, "", vb_rate_height_index(m));
}

static void list_rates(const vb_case *c, FILE *f)
{
    for (int i = 0; i < c->n_rates; i++)
        fprintf(f, "%s%g", i ? ", " : "", c->rates[i]);
}

#define RATE(p) ((const vb_rate_row *)(p))

static vb_cell status_name(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_status_name(RATE(row)->status));
}

/* how far the highest drawn point misses the truth's; inf for a run that
 * did not finish */
static vb_cell err_y_max(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_rate_row *r = RATE(row);
    return vb_cell_x_or_blank(r->status == VB_STATUS_OK ? r->y_max - r->y_max_exact
                                                        : (double)INFINITY);
}

/* rates.csv's views: a rigid body's case adds t_tumble */
enum { RATES_RIGID = 1 };

#define AT(f) offsetof(vb_rate_row, f)
static const vb_column rates_columns[] = {
    [VB_COL_RATES_INTEGRATOR] = {"integrator", VB_FMT_TEXT, vb_get_integ_name, AT(integ), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_RATES_PLAN] = {"plan", VB_FMT_TEXT, vb_get_plan_name, AT(kind), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_RATES_RATE_HZ] = {"rate_hz", VB_FMT_REAL, vb_get_real_always, AT(rate), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_RATES_DT] = {"dt", VB_FMT_REAL, vb_get_real_always, AT(dt), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RATES_FRAMES] = {"frames", VB_FMT_COUNT, vb_get_count, AT(frames), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RATES_STATUS] = {"status", VB_FMT_TEXT, status_name, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RATES_ERR_FINAL] = {"err_final", VB_FMT_REAL, vb_get_real, AT(err_final), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RATES_Y_MAX] = {"y_max", VB_FMT_REAL, vb_get_real, AT(y_max), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RATES_Y_MAX_EXACT] = {"y_max_exact", VB_FMT_REAL, vb_get_real, AT(y_max_exact), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RATES_ERR_Y_MAX] = {"err_y_max", VB_FMT_REAL, err_y_max, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_RATES_ERR_ENERGY_MAX] = {"err_energy_max", VB_FMT_REAL, vb_get_real, AT(err_energy_max), 0, NULL, 0, VB_READ, 0, 0,
     0, 0},
    [VB_COL_RATES_ERR_DRAW_MAX] = {"err_draw_max", VB_FMT_REAL, vb_get_real, AT(err_draw_max), 0, NULL, 0, VB_READ, 0, 0, 0,
     0},
    [VB_COL_RATES_T_TUMBLE] = {"t_tumble", VB_FMT_REAL, vb_get_real, AT(t_tumble), 0, NULL, RATES_RIGID, VB_READ, 0, 0, 0,
     0},
};
const vb_schema vb_rates_schema = VB_SCHEMA("rates.csv", rates_columns);
_Static_assert(sizeof rates_columns / sizeof rates_columns[0] == VB_RATES_COLUMNS,
               "a column of rates.csv without its line");

void vb_write_rates(const vb_sweep *s, FILE *f)
{
    const vb_case *c = s->c;
    char y[64];
    height_name(&c->model, y, sizeof y);
    fputs("# display rates ", f);
    list_rates(c, f);
    fprintf(f, " Hz over t_end = %.17g; frames fixed (t_end/N, N = ceil(t_end rate))", c->t_end);
    if (c->jitter > 0.0)
        fprintf(f, " and random (dt (1 + %g u), seed 1)", c->jitter);
    if (c->trace_path)
        fputs(" and trace (the case's trace scaled to a mean frame of 1/rate, replayed from its "
              "start as it runs out)", f);
    fprintf(f, ";\n# the height is %s; err_final: the drawn position at t_end against the exact; "
               "y_max: the highest drawn %s, y_max_exact: the truth's at the same frames\n",
            y, y);
    /* a rigid body's case: when a stable spin first tumbled at each rate */
    int rigid = (c->profile.measures & VB_MEASURE_ATTITUDE) != 0;
    if (rigid)
        fputs("# a rigid body: x1.. are its packed (x, q), the height its centre of mass's x; "
              "t_tumble: when a stable spin first tumbled, blank if not (docs/rigid.md §4)\n",
              f);
    unsigned view = rigid ? RATES_RIGID : 0;
    vb_schema_header(f, &vb_rates_schema, view);
    for (size_t k = 0; k < s->n_rates; k++)
        vb_schema_row(f, &vb_rates_schema, view, s, &s->rates[k]);
}

static void cell(FILE *f, double x)
{
    if (isnan(x))
        fputs(" – |", f);
    else
        fprintf(f, " %.3g |", x);
}

void vb_rates_list_kinds(const vb_plan_kind *kinds, int n, FILE *f)
{
    for (int k = 0; k < n; k++)
        fprintf(f, "%s%s", k == 0 ? "" : k + 1 == n ? " and " : ", ", vb_plan_name(kinds[k]));
    fputs(" frames", f);
}

void vb_rates_accumulator_note(const vb_sweep *s, FILE *f)
{
    const vb_case *c = s->c;
    const vb_rate_row *worst = NULL;
    size_t accumulators = 0, dropped = 0;
    for (size_t a = 0; a < c->profile.n_own_step; a++) {
        size_t i = c->profile.own_step[a];
        accumulators++;
        const vb_rate_row *most = NULL;
        for (size_t k = 0; k < s->n_rates; k++)
            if (s->rates[k].integ == i && s->rates[k].lag > 0.0 &&
                (!most || s->rates[k].lag > most->lag))
                most = &s->rates[k];
        if (most) {
            dropped++;
            if (!worst || most->lag > worst->lag)
                worst = most;
        }
    }
    if (!accumulators)
        return; /* no row it would be about */
    if (!worst) {
        fputs(" A fixed-step accumulator's physics is the same at every rate: what spreads is "
              "what it draws.", f);
        return;
    }
    fprintf(f, " A fixed-step accumulator's physics is the same at every rate only while its "
               "clamp (`max_substeps`) drops no time, and here it dropped time: `%s` up to %.3g "
               "of t_end = %g at %g Hz, %s frames",
            c->integ[worst->integ]->name, worst->lag, c->t_end, worst->rate,
            vb_plan_name(worst->kind));
    if (dropped > 1)
        fprintf(f, ", and %zu other accumulator row%s too", dropped - 1, dropped > 2 ? "s" : "");
    fprintf(f, ". Where it did, the physics itself differs between the rates, and so do the "
               "final %s and the energy error.",
            c->profile.state.pose);
    if (dropped < accumulators)
        fputs(" The other accumulators' physics is the same at every rate: what spreads is what "
              "they draw.", f);
}

/* A particle model's frame-rate spread (a rigid body's: rigid_summary.c) */
void vb_write_rates_summary(const vb_sweep *s, FILE *f)
{
    const vb_case *c = s->c;
    if (!s->n_rates)
        return;
    char y[64];
    height_name(&c->model, y, sizeof y);
    vb_plan_kind kind_of[3];
    int kinds = vb_sweep_rate_kinds(c, kind_of);
    fputs("The same scenario at display rates of ", f);
    list_rates(c, f);
    fputs(" Hz (`rates.csv`): how far the rates spread, ", f);
    vb_rates_list_kinds(kind_of, kinds, f);
    fprintf(f, ". Final position: the largest "
               "distance between the positions two rates draw at t_end; highest %s: the "
               "highest drawn %s, max − min over the rates; energy: the largest relative "
               "energy error, max − min.",
            y, y);
    vb_rates_accumulator_note(s, f);
    fputs("\n\n", f);
    /* the column named as the caption names it: "highest y" */
    fprintf(f, "| integrator | frames | final position | highest %s | energy |\n"
               "|---|---|---|---|---|\n",
            y);
    for (size_t i = 0; i < c->n_integ; i++)
        for (int kd = 0; kd < kinds; kd++) {
            vb_plan_kind kind = kind_of[kd];
            vb_rate_spread sp = vb_rate_spread_of(s, i, kind);
            if (!sp.rates && !isinf(sp.final))
                continue; /* an engine: not in the table */
            fprintf(f, "| `%s` | %s |", c->integ[i]->name, vb_plan_name(kind));
            cell(f, sp.final);
            cell(f, sp.y_max);
            cell(f, sp.energy);
            fputc('\n', f);
        }
    fputc('\n', f);
}
