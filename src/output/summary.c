/* summary.c — a case's summary table, in Markdown: the fitted order of
 * the position error and its verdict for each integrator and plan, the
 * energy's, the rods', the one-step exponents and the reversals; a rigid
 * body's case has its own table (rigid_summary.c) in their place. */
#include "contact_orders_table.h"
#include "contact_table.h"
#include "stack_table.h"
#include "rigid_summary.h"
#include "summary.h"
#include "summary_cells.h"

#include <math.h>
#include <string.h>

#include "engine.h"

#include "ratefiles.h"
#include "tables.h"

const vb_order_row *vb_summary_find_order(const vb_sweep *s, size_t integ, vb_plan_kind kind,
                                          vb_norm norm)
{
    for (size_t k = 0; k < s->n_orders; k++)
        if (s->orders[k].integ == integ && s->orders[k].kind == kind && s->orders[k].norm == norm)
            return &s->orders[k];
    return NULL;
}

/* An uncertain verdict says how many more halvings would settle it
 * (vb_fit_halvings_to_settle). */
static void settle_note(FILE *f, const vb_order_row *r, int label)
{
    if (r->verdict != VB_VERDICT_UNCERTAIN)
        return;
    int m = vb_fit_halvings_to_settle(&r->fit, label);
    if (m == VB_SETTLE_NOT_BY_HALVING)
        fputs(" (not by halving)", f);
    else if (m > VB_SETTLE_MAX)
        fprintf(f, " (> %d halvings)", VB_SETTLE_MAX);
    else if (m > 0)
        fprintf(f, " (+%d halving%s)", m, m == 1 ? "" : "s");
}

void vb_summary_order_cell(FILE *f, const vb_order_row *r, int label, const char *same)
{
    if (!r) {
        fputs(" |", f);
        return;
    }
    if (r->verdict == VB_VERDICT_EXACT)
        fputs(" exact", f);
    else if (r->verdict == VB_VERDICT_UNDETERMINED)
        fputs(" undetermined", f);
    else if (r->verdict == VB_VERDICT_MEASURED && isfinite(r->fit.order_ci95))
        fprintf(f, " %.2f ± %.2f", vb_order_shown(r->fit.order), r->fit.order_ci95);
    else if (r->verdict == VB_VERDICT_MEASURED) /* no label: the order, no verdict word */
        fprintf(f, " %.2f", vb_order_shown(r->fit.order));
    else if (r->fit.range == VB_RANGE_ASYMPTOTIC && isfinite(r->fit.order_ci95))
        fprintf(f, " %.2f ± %.2f %s", vb_order_shown(r->fit.order), r->fit.order_ci95,
                vb_verdict_name(r->verdict));
    else if (!isfinite(r->fit.order)) /* no order fitted: the verdict alone, as orders.csv */
        fprintf(f, " %s", vb_verdict_name(r->verdict));
    else
        fprintf(f, " %.2f%s %s", vb_order_shown(r->fit.order), r->fit.range == VB_RANGE_ALL ? "*" : "",
                vb_verdict_name(r->verdict));
    if (r->fit.range == VB_RANGE_ALL && r->fit.saturation_hid_range)
        fprintf(f, " (saturated at %d of %d steps)", r->fit.saturated, r->fit.n);
    settle_note(f, r, label);
    if (same)
        fprintf(f, ", = `%s`", same);
    fputs(" |", f);
}

const char *vb_summary_same_as(const vb_sweep *s, size_t i, vb_plan_kind kind)
{
    size_t o = s->same_as ? s->same_as[i * VB_N_PLANS + kind] : VB_SAME_NONE;
    return o == VB_SAME_NONE ? NULL : s->c->integ[o]->name;
}

/* the drift off the rods at the coarsest and the finest step */
static void drift_cell(FILE *f, const vb_order_row *r)
{
    if (!r || r->fit.n < 1) {
        fputs(" – |", f);
        return;
    }
    double e[2] = {r->err[0], r->err[r->fit.n - 1]};
    for (int k = 0; k < 2; k++) {
        fputs(k ? " / " : " ", f);
        if (isinf(e[k]))
            fputs("diverged", f);
        else
            fprintf(f, "%.2g", e[k]);
    }
    fputs(" |", f);
}

static void onestep_cell(FILE *f, const vb_fit *fit)
{
    if (fit->exact)
        fputs(" exact |", f);
    else if (isfinite(fit->order))
        fprintf(f, " %.2f |", vb_order_shown(fit->order));
    else
        fputs(" – |", f);
}

/* The time an accumulator's clamp dropped in integrator i's runs of a plan,
 * the least and the most over its runs (0 and 0: none dropped). */
static void dropped(const vb_sweep *s, size_t i, vb_plan_kind kind, double *lo, double *hi)
{
    *lo = INFINITY, *hi = 0.0;
    for (size_t j = 0; j < s->n_jobs; j++)
        if (s->jobs[j].integ == i && s->jobs[j].kind == kind &&
            isfinite(s->jobs[j].res.lag_max)) {
            *lo = fmin(*lo, s->jobs[j].res.lag_max);
            *hi = fmax(*hi, s->jobs[j].res.lag_max);
        }
    if (!isfinite(*lo))
        *lo = 0.0;
}

/* After a loop row's name: the time its clamp dropped, the most over its
 * runs, and whether the fixed-step levels dropped different times (then
 * its orders compare different runs: docs/method.md §9) */
static void dropped_note(const vb_sweep *s, size_t i, FILE *f)
{
    double lo, hi, most = 0.0;
    for (int k = 0; k < VB_N_PLANS; k++) {
        dropped(s, i, (vb_plan_kind)k, &lo, &hi);
        most = fmax(most, hi);
    }
    if (!(most > 0.0))
        return;
    dropped(s, i, VB_PLAN_FIXED, &lo, &hi);
    if (hi - lo <= 1e-9 * s->c->t_end)
        fprintf(f, " (the clamp dropped up to %.3g of t_end = %g)", most, s->c->t_end);
    else
        fprintf(f, " (the clamp dropped up to %.3g of t_end = %g; with fixed steps %.3g to "
                   "%.3g, not the same at every step: its orders compare different runs)",
                most, s->c->t_end, lo, hi);
}

/* The case's title, its description and what it runs */
static void summary_head(const vb_sweep *s, FILE *f)
{
    const vb_case *c = s->c;
    const vb_model *m = &c->model;
    fprintf(f, "## %s\n\n", c->name);
    if (c->description)
        fprintf(f, "%s\n\n", c->description);
    if (c->grid)
        fprintf(f, "`%s` at `%s` (point %zu of %zu of its grid, `%s`): model `%s` (", c->path,
                c->grid->label, c->grid->point + 1, c->grid->points, c->grid->name,
                m->type->name);
    else
        fprintf(f, "`%s`: model `%s` (", c->path, m->type->name);
    for (unsigned i = 0, said = 0; i < m->type->n_params; i++)
        if (vb_param_said(&m->type->params[i], m->p[i]))
            fprintf(f, "%s%s=%g", said++ ? " " : "", m->type->params[i].name, m->p[i]);
    fprintf(f, "), t_end = %g; dt = %g down to %g (%d step sizes)", c->t_end, c->dt,
            ldexp(c->dt, 1 - c->halvings), c->halvings);
    if (c->jitter > 0.0)
        fprintf(f, "; random steps dt·(1 ± %g), %d seeds", c->jitter, c->seeds);
    if (c->trace_path)
        fprintf(f, "; trace `%s` (%zu steps)", c->trace_path, c->trace.n);
    if (c->profile.measures & VB_MEASURE_TOLERANCE)
        fprintf(f, "; adaptive integrators on the frames of dt = %g, tolerance %g down to %g, "
                   "their order the exponent of the error against the tolerance",
                c->dt, vb_sweep_tolerance(c, 0), vb_sweep_tolerance(c, c->halvings - 1));
    fputs(".\n\n", f);
}

void vb_summary_orders_legend(FILE *f, const vb_case *c, const char *same, const char *size,
                              const char *computed)
{
    fputs("± is the 95 % interval of a fitted order (Student's t, points − 2 degrees of "
          "freedom); an order more than 0.25 from its label whose interval still reaches within "
          "0.25 of it is uncertain rather than below or above, and \"(+k halvings)\" says how "
          "many more halvings would settle it if each added a point on the same line with the "
          "same scatter (\"not by halving\": the fit ends before the finest step). An order "
          "marked * is a trend over all points, not compared with the label: no three "
          "successive step sizes showed one power law, or, where it says \"saturated at k of "
          "n steps\", k of the n errors lie above 0.1 of the solution's size, which is never "
          "fitted as a power law (the run is qualitatively wrong there: docs/method.md §5), "
          "and too few are left below it. Its verdict says whether the error still falls at "
          "the finest steps (no-asymptotic-range) or not (not-converging). ",
          f);
    fprintf(f, "\"= `name`\": the same %s as `name` in every run of that plan, to round-off ",
            same);
    if (c->precision == VB_FLOAT32)
        fprintf(f, "(within 2·ε₃₂·N of the size of %s, N steps, and within 0.1 of the "
                   "errors themselves: the runs are in float32",
                size);
    else
        fprintf(f, "(within 16·ε·N^1.5 of the size of %s, N steps, and within 10⁻³ of "
                   "the errors themselves",
                size);
    if (c->offset != 0.0)
        fprintf(f, ", about an origin shifted by %g, whose size the positions' includes, as "
                   "it does the round-off floor under the fits",
                c->offset);
    fprintf(f, "), as two methods that compute the same %s have (docs/method.md §2", computed);
    if (c->precision != VB_FLOAT64 || c->offset != 0.0)
        fputs("; docs/float32.md", f);
    fputs(").", f);
}

void vb_summary_name_cells(FILE *f, const vb_sweep *s, size_t i)
{
    const vb_case *c = s->c;
    /* an engine's declarations beside its name: float32, a derived
     * velocity, its substeps (docs/real-engines.md §1.6, §1.7, §1.9) */
    vb_runner_caps caps = vb_sweep_caps(c, i);
    int derived = caps.velocity == VB_VELOCITY_DERIVED;
    char said[96] = "";
    snprintf(said, sizeof said, "%s%s", caps.precision == VB_FLOAT32 ? " float32" : "",
             derived ? " (derived v)" : "");
    if (caps.substeps > 1)
        snprintf(said + strlen(said), sizeof said - strlen(said), " %d substeps", caps.substeps);
    fprintf(f, "| `%s`%s", c->integ[i]->name, said);
    dropped_note(s, i, f);
    if (c->integ[i]->order > 0)
        fprintf(f, " | %d |", c->integ[i]->order);
    else /* an engine measured without a label */
        fputs(" | – |", f);
}

/* The energy's fixed-step order, or what says there is none to fit */
void vb_summary_energy_cell(FILE *f, const vb_sweep *s, size_t i)
{
    if (vb_sweep_caps(s->c, i).velocity == VB_VELOCITY_NONE)
        fputs(" no velocity |", f); /* velocity=none: positions alone (§1.7) */
    else
        vb_summary_order_cell(f, vb_summary_find_order(s, i, VB_PLAN_FIXED, VB_NORM_ENERGY_MAX),
                              s->c->integ[i]->order, NULL);
}

/* What the particle table's columns are */
static void particle_caption(const vb_sweep *s, FILE *f, int has_loop)
{
    const vb_case *c = s->c;
    fputs("Fitted order of the position error (`err_pos_max`) and its verdict against the "
          "label; ",
          f);
    if (c->model.type->energy)
        fputs("the energy error's order with fixed steps; ", f);
    if (vb_model_constrained(&c->model))
        fputs("how far the rods are off their lengths (the largest |length − L| of a run, "
              "`err_constraint_max`) with fixed steps at the coarsest and at the finest dt; ",
              f);
    fprintf(f, "the exponent p of the one-step position error ~ h^p from exact data (h' = h, "
               "and a changing step h' = 1.5 h)");
    if (s->n_reverse)
        fputs("; and whether a run retraces itself backwards (fixed steps / random steps)", f);
    fputs(". ", f);
    vb_summary_orders_legend(f, c, "position errors", "the positions", "positions");
    if (has_loop)
        fputs(" A frame loop's position and energy columns are those of its physics state, "
              "measured at each physics step, so \"=\" there says two loops compute the same "
              "physics, not that they draw the same; the drawn state's order (`err_draw_max`, "
              "the drawn position against the truth at each frame) is the column drawn, "
              "fixed, and its verdict is against the method's label although the draw, not "
              "the method, sets it (`last` and `interpolate` are order 1, `extrapolate` order 2: "
              "docs/method.md §9; run --strict does not judge it). A row whose clamp "
              "(max_substeps) dropped time says how much after its name.", f);
    fputs("\n\n", f);
}

/* integrator i's one-step exponents and reversals */
static void particle_tail_cells(const vb_sweep *s, size_t i, FILE *f)
{
    for (int r = 0; r < VB_ONESTEP_RATIOS; r++) {
        /* an external engine takes no one-step test: a dash */
        const vb_onestep_row *row = NULL;
        for (size_t k = 0; k < s->n_onestep; k++)
            if (s->onestep[k].integ == i && s->onestep[k].ratio == r)
                row = &s->onestep[k];
        if (row)
            onestep_cell(f, &row->fit_pos);
        else
            fputs(" – |", f);
    }
    if (s->n_reverse) {
        const char *fixed = "–", *rnd = "–";
        for (size_t k = 0; k < s->n_reverse; k++)
            if (s->reverse[k].integ == i) {
                if (s->reverse[k].kind == VB_PLAN_FIXED)
                    fixed = vb_reversible_name(s->reverse[k].reversible);
                if (s->reverse[k].kind == VB_PLAN_RANDOM)
                    rnd = vb_reversible_name(s->reverse[k].reversible);
            }
        fprintf(f, " %s / %s |", fixed, rnd);
    }
}

/* The particles' table: a row an integrator */
static void particle_table(const vb_sweep *s, FILE *f)
{
    const vb_case *c = s->c;
    int has_random = c->jitter > 0.0, has_trace = c->trace_path != NULL;
    int has_energy = c->model.type->energy != NULL;
    int has_rods = vb_model_constrained(&c->model);
    int has_loop = (c->profile.measures & VB_MEASURE_DRAWN) != 0;
    particle_caption(s, f, has_loop);
    fputs("| integrator | label | fixed |", f);
    if (has_random)
        fputs(" random (median) |", f);
    if (has_trace)
        fputs(" trace |", f);
    if (has_loop)
        fputs(" drawn, fixed |", f);
    if (has_energy)
        fputs(" energy, fixed |", f);
    if (has_rods)
        fputs(" rods off, fixed: coarsest / finest dt |", f);
    fputs(" one-step p, h'=h | one-step p, h'=1.5h |", f);
    if (s->n_reverse)
        fputs(" reversible |", f);
    fputs("\n|---|---|---|", f);
    for (int k = 0;
         k < has_random + has_trace + has_loop + has_energy + has_rods + 2 + (s->n_reverse > 0);
         k++)
        fputs("---|", f);
    fputc('\n', f);
    static const vb_plan_kind plans[3] = {VB_PLAN_FIXED, VB_PLAN_RANDOM, VB_PLAN_TRACE};
    const int shown[3] = {1, has_random, has_trace};
    for (size_t i = 0; i < c->n_integ; i++) {
        int label = c->integ[i]->order;
        vb_summary_name_cells(f, s, i);
        for (int k = 0; k < 3; k++)
            if (shown[k])
                vb_summary_order_cell(f, vb_summary_find_order(s, i, plans[k], VB_NORM_POS_MAX),
                                      label, vb_summary_same_as(s, i, plans[k]));
        if (has_loop)
            vb_summary_order_cell(f, vb_summary_find_order(s, i, VB_PLAN_FIXED, VB_NORM_DRAW_MAX),
                                  label, NULL);
        if (has_energy)
            vb_summary_energy_cell(f, s, i);
        if (has_rods)
            drift_cell(f, vb_summary_find_order(s, i, VB_PLAN_FIXED, VB_NORM_CONSTRAINT_MAX));
        particle_tail_cells(s, i, f);
        fputc('\n', f);
    }
    fputc('\n', f);
}

void vb_sweep_summary(const vb_sweep *s, FILE *f)
{
    summary_head(s, f);
    if (s->c->profile.measures & VB_MEASURE_ATTITUDE) {
        vb_rigid_summary(s, f); /* its own table and frame-rate table */
    } else {
        particle_table(s, f);
        vb_write_rates_summary(s, f);
    }
    vb_contact_summary(s, f);
    vb_contact_orders_summary(s, f);
    vb_stack_summary(s, f);
}
