/* grid.c — a grid's points side by side: grid.csv and its summary. */
#include "grid.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "outdir.h"
#include "provenance.h"
#include "cells.h"

int vb_grid_begin(vb_grid *g, const vb_case *cases, size_t n)
{
    memset(g, 0, sizeof *g);
    g->first = &cases[0];
    g->points = n;
    g->point = calloc(n ? n : 1, sizeof *g->point);
    g->first_row = calloc(n ? n : 1, sizeof *g->first_row);
    g->rows_of = calloc(n ? n : 1, sizeof *g->rows_of);
    size_t k = cases[0].n_integ;
    g->same_pair = calloc(n > 0 && k > 0 ? n * k * k * VB_N_PLANS : 1, 1);
    if (!g->point || !g->first_row || !g->rows_of || !g->same_pair) {
        vb_grid_free(g);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        g->point[i] = &cases[i];
    return 0;
}

void vb_grid_free(vb_grid *g)
{
    free(g->point);
    free(g->first_row);
    free(g->rows_of);
    free(g->same_pair);
    free(g->rows);
    memset(g, 0, sizeof *g);
}

long vb_grids_begin(const vb_case_set *set, vb_grid **out)
{
    size_t n = 0;
    for (size_t i = 0; i < set->n_files; i++)
        n += set->file[i].n && set->file[i].points[0].grid;
    vb_grid *g = calloc(n ? n : 1, sizeof *g);
    if (!g)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < set->n_files; i++)
        if (set->file[i].n && set->file[i].points[0].grid &&
            vb_grid_begin(&g[m++], set->file[i].points, set->file[i].n) != 0) {
            vb_grids_free(g, m);
            return -1;
        }
    *out = g;
    return (long)n;
}

void vb_grids_free(vb_grid *grids, size_t n)
{
    for (size_t i = 0; grids && i < n; i++)
        vb_grid_free(&grids[i]);
    free(grids);
}

long vb_grids_of_sweeps(const vb_case_set *set, const vb_sweep *sweeps, vb_grid **out)
{
    long n = vb_grids_begin(set, out);
    for (size_t i = 0; n > 0 && i < set->n; i++) {
        vb_grid *g = vb_grid_of(*out, (size_t)n, set->all[i]);
        if (g && vb_grid_add(g, &sweeps[i]) != 0) {
            vb_grids_free(*out, (size_t)n);
            *out = NULL;
            n = -1;
        }
    }
    return n;
}

vb_grid *vb_grid_of(vb_grid *grids, size_t n, const vb_case *c)
{
    for (size_t i = 0; c->grid && i < n; i++)
        if (grids[i].first->grid && !strcmp(grids[i].first->path, c->path) &&
            !strcmp(grids[i].first->grid->name, c->grid->name))
            return &grids[i];
    return NULL;
}

int vb_grid_add(vb_grid *g, const vb_sweep *s)
{
    const vb_case *c = s->c;
    size_t pt = c->grid ? c->grid->point : 0;
    if (g->n_rows + s->n_orders > g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 256;
        while (cap < g->n_rows + s->n_orders)
            cap *= 2;
        vb_grid_row *more = realloc(g->rows, cap * sizeof *more);
        if (!more)
            return -1;
        g->rows = more;
        g->cap = cap;
    }
    g->first_row[pt] = g->n_rows;
    g->rows_of[pt] = s->n_orders;
    size_t pairs = c->n_integ * c->n_integ * VB_N_PLANS;
    if (s->same_pair)
        memcpy(g->same_pair + pt * pairs, s->same_pair, pairs);
    for (size_t k = 0; k < s->n_orders; k++) {
        const vb_order_row *o = &s->orders[k];
        int adaptive = o->x_tol;
        int last = o->fit.n - 1;
        vb_grid_row *r = &g->rows[g->n_rows++];
        *r = (vb_grid_row){
            .point = pt, .integ = o->integ, .kind = o->kind, .norm = o->norm,
            .verdict = o->verdict, .range = o->fit.range, .exact = o->fit.exact,
            .points = o->fit.points, .levels = o->fit.n, .order = o->fit.order,
            .order_se = o->fit.order_se, .order_ci95 = o->fit.order_ci95,
            .dt_coarsest = adaptive ? c->dt : o->dt[0],
            .tol_coarsest = adaptive ? o->dt[0] : 0.0, .err_coarsest = o->err[0],
            .dt_finest = adaptive ? c->dt : o->dt[last],
            .tol_finest = adaptive ? o->dt[last] : 0.0, .err_finest = o->err[last]};
        g->has_plan[o->kind] = 1;
    }
    g->added++;
    return 0;
}

static void provenance(const vb_grid *g, FILE *f)
{
    const vb_case *c = g->first;
    const vb_case_grid *cg = c->grid;
    const vb_model *m = &c->model;
    fprintf(f, "# verletbench %s: grid of fitted orders and errors of %s\n", vb_version_text(),
            c->path);
    vb_libraries_provenance(f);
    if (c->description)
        fprintf(f, "# %s\n", c->description);
    /* the values every point shares; "grid" where they differ */
    fprintf(f, "# model=%s", m->type->name);
    for (unsigned i = 0; i < m->type->n_params; i++) {
        const char *key = m->type->params[i].name;
        int gridded = 0;
        for (int k = 0; k < cg->n_keys; k++)
            gridded |= !strcmp(cg->section[k], "case") && !strcmp(cg->key[k], key);
        if (gridded)
            fprintf(f, " %s=grid", key);
        else if (vb_param_said(&m->type->params[i], m->p[i]))
            fprintf(f, " %s=%.17g", key, m->p[i]);
    }
    /* t_end and the steps, the same way */
    const struct {
        const char *section, *key;
        double v;
    } shared[] = {{"case", "t_end", c->t_end},      {"steps", "dt", c->dt},
                  {"steps", "halvings", c->halvings}, {"steps", "jitter", c->jitter},
                  {"steps", "seeds", c->seeds},      {"steps", "tolerance", c->tolerance}};
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
        int gridded = 0;
        for (int k = 0; k < cg->n_keys; k++)
            gridded |= !strcmp(cg->section[k], shared[i].section) &&
                       !strcmp(cg->key[k], shared[i].key);
        fputs(i == 0 ? "\n# " : " ", f);
        if (gridded)
            fprintf(f, "%s=grid", shared[i].key);
        else
            fprintf(f, "%s=%.17g", shared[i].key, shared[i].v);
    }
    if (c->trace_path)
        fprintf(f, " trace=%s (%zu steps)", c->trace_path, c->trace.n);
    fputs("\n# grid:", f);
    for (int k = 0; k < cg->n_keys; k++)
        fprintf(f, "%s [%s] %s = %s (%zu values)", k ? ";" : "", cg->section[k], cg->key[k],
                cg->spec[k], cg->count[k]);
    fprintf(f, "; %zu points, each a case of its own (%s@KEY=VALUE,...), the first key varying "
               "slowest\n# integrators=",
            g->points, cg->name);
    for (size_t i = 0; i < c->n_integ; i++)
        fprintf(f, "%s%s", i ? "," : "", c->integ[i]->name);
    fputc('\n', f);
}

/* point's row of integrator, plan and norm, or NULL (a point without
 * random steps, where the grid sets jitter = 0) */
static const vb_grid_row *find_row(const vb_grid *g, size_t point, size_t integ,
                                   vb_plan_kind kind, vb_norm norm)
{
    const vb_grid_row *r = g->rows + g->first_row[point];
    for (size_t k = 0; k < g->rows_of[point]; k++)
        if (r[k].integ == integ && r[k].kind == kind && r[k].norm == norm)
            return &r[k];
    return NULL;
}

/* The first integrator whose positions equal integ's in every run of the
 * plan at every point of the grid that has the plan (results.h's same_pair),
 * or VB_SAME_NONE: the chart draws the two as one striped curve. */
static size_t grid_same_as(const vb_grid *g, size_t integ, vb_plan_kind kind)
{
    size_t k = g->first->n_integ, pairs = k * k * VB_N_PLANS;
    for (size_t o = 0; o < integ; o++) {
        int same = 0;
        for (size_t pt = 0; pt < g->points; pt++) {
            if (!find_row(g, pt, integ, kind, VB_NORM_POS_MAX))
                continue; /* a point without this plan (jitter = 0) */
            same = g->same_pair[pt * pairs + (integ * k + o) * VB_N_PLANS + kind];
            if (!same)
                break;
        }
        if (same)
            return o;
    }
    return VB_SAME_NONE;
}

/* grid.csv after a row's point and its keys (as many as the grid has,
 * printed before the schema's columns): the cells of a row of a point;
 * the table is the grid and the integrator the row's series equals */
typedef struct grid_table {
    const vb_grid *g;
    size_t same;
} grid_table;
#define TABLE(p) ((const grid_table *)(p))
#define ROW(p) ((const vb_grid_row *)(p))

static const vb_integrator *row_integ(const void *t, const void *row)
{
    return TABLE(t)->g->point[ROW(row)->point]->integ[ROW(row)->integ];
}

static vb_cell integ_name(const vb_column *c, const void *t, const void *row)
{
    (void)c;
    return vb_cell_s(row_integ(t, row)->name);
}

/* the slope, and (at: 1, 2) its standard error and 95 % half-width where
 * there is a slope and they are finite */
static vb_cell order(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    const vb_grid_row *r = ROW(row);
    if (!isfinite(r->order) || r->exact)
        return vb_cell_blank();
    if (c->at == 0)
        return vb_cell_x(r->order);
    if (!isfinite(r->order_se))
        return vb_cell_blank();
    return vb_cell_x(c->at == 1 ? r->order_se : r->order_ci95);
}

/* the label; blank: an engine measured without one */
static vb_cell expected(const vb_column *c, const void *t, const void *row)
{
    (void)c;
    int q = row_integ(t, row)->order;
    return q > 0 ? vb_cell_i(q) : vb_cell_blank();
}

static vb_cell same_as(const vb_column *c, const void *t, const void *row)
{
    (void)c;
    size_t same = TABLE(t)->same;
    return same == VB_SAME_NONE
               ? vb_cell_blank()
               : vb_cell_s(TABLE(t)->g->point[ROW(row)->point]->integ[same]->name);
}

/* point, then the grid's keys: their names (no row), or the row's point
 * (1-based) and its values as the case file gave them (shortest: they
 * read back to the same double) */
static void point_keys(FILE *f, const vb_column *c, const void *t, const void *row)
{
    const vb_case_grid *cg = row ? TABLE(t)->g->point[ROW(row)->point]->grid : TABLE(t)->g->first->grid;
    if (row)
        fprintf(f, "%zu", ROW(row)->point + 1);
    else
        fputs(c->name, f);
    for (int k = 0; k < cg->n_keys; k++)
        fprintf(f, ",%s", row ? cg->text[k] : cg->key[k]);
}

#define AT(f) offsetof(vb_grid_row, f)
static const vb_column grid_columns[] = {
    [VB_COL_GRID_POINT] = {"point", VB_FMT_GROUP, NULL, 0, 0, point_keys, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_GRID_INTEGRATOR] = {"integrator", VB_FMT_TEXT, integ_name, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_GRID_PLAN] = {"plan", VB_FMT_TEXT, vb_get_plan_name, AT(kind), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_GRID_NORM] = {"norm", VB_FMT_TEXT, vb_get_norm_name, AT(norm), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    /* at: 0 the slope, 1 its standard error, 2 its half-width */
    [VB_COL_GRID_ORDER] = {"order", VB_FMT_FIX6, order, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_ORDER_SE] = {"order_se", VB_FMT_FIX6, order, 1, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_ORDER_CI95] = {"order_ci95", VB_FMT_FIX6, order, 2, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_POINTS] = {"points", VB_FMT_INT, vb_get_int, AT(points), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_EXPECTED] = {"expected", VB_FMT_INT, expected, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_VERDICT] = {"verdict", VB_FMT_TEXT, vb_get_verdict_name, AT(verdict), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_RANGE] = {"range", VB_FMT_TEXT, vb_get_range_name, AT(range), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_DT_COARSEST] = {"dt_coarsest", VB_FMT_REAL, vb_get_real, AT(dt_coarsest), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_TOL_COARSEST] = {"tol_coarsest", VB_FMT_REAL, vb_get_real, AT(tol_coarsest), 0, NULL, 0, VB_READ, 0, 0, 0,
     0},
    [VB_COL_GRID_ERR_COARSEST] = {"err_coarsest", VB_FMT_REAL, vb_get_real, AT(err_coarsest), 0, NULL, 0, VB_READ, 0, 0, 0,
     0},
    [VB_COL_GRID_DT_FINEST] = {"dt_finest", VB_FMT_REAL, vb_get_real, AT(dt_finest), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_TOL_FINEST] = {"tol_finest", VB_FMT_REAL, vb_get_real, AT(tol_finest), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_ERR_FINEST] = {"err_finest", VB_FMT_REAL, vb_get_real, AT(err_finest), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_GRID_SAME_AS] = {"same_as", VB_FMT_TEXT, same_as, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};
const vb_schema vb_grid_schema = VB_SCHEMA("grid.csv", grid_columns);
_Static_assert(sizeof grid_columns / sizeof grid_columns[0] == VB_GRID_COLUMNS,
               "a column of grid.csv without its line");

static void write_row(const vb_grid *g, const vb_grid_row *r, size_t same, FILE *f)
{
    vb_schema_row(f, &vb_grid_schema, 0, &(grid_table){g, same}, r);
}

static void write_csv(const vb_grid *g, FILE *f)
{
    provenance(g, f);
    fputs("# dt_coarsest/err_coarsest: the error at the case's dt; dt_finest/err_finest: at its "
          "finest step (the median over seeds for random steps); an adaptive method's dt is "
          "its frames' and tol_* its tolerance (0 for the others); same_as: the first "
          "integrator whose position errors equal this one's in every run of the plan at every point, "
          "to round-off\n",
          f);
    vb_schema_header_of(f, &vb_grid_schema, 0, &(grid_table){g, VB_SAME_NONE});
    /* integrator, plan, norm, then point: a series against the grid is
     * contiguous, as the charts read it */
    size_t n_integ = g->first->n_integ;
    for (size_t i = 0; i < n_integ; i++)
        for (int kind = 0; kind < VB_N_PLANS; kind++) {
            size_t same = grid_same_as(g, i, (vb_plan_kind)kind);
            for (int nm = 0; nm < VB_N_NORMS; nm++)
                for (size_t pt = 0; pt < g->points; pt++) {
                    const vb_grid_row *r = find_row(g, pt, i, (vb_plan_kind)kind, (vb_norm)nm);
                    if (r)
                        write_row(g, r, same, f);
                }
        }
}

/* as the case's own summary writes an order (summary.c), with the
 * verdict only where it is not the expected one: a table of many columns */
static void order_cell(FILE *f, const vb_grid_row *r)
{
    if (!r)
        fputs(" – |", f);
    else if (r->verdict == VB_VERDICT_EXACT)
        fputs(" exact |", f);
    else if (r->verdict == VB_VERDICT_UNDETERMINED)
        fputs(" undetermined |", f);
    else if (r->verdict == VB_VERDICT_UNRESOLVED)
        fputs(" below-resolution |", f);
    else {
        double o = fabs(r->order) < 0.005 ? 0.0 : r->order;
        if (r->range == VB_RANGE_ASYMPTOTIC && isfinite(r->order_ci95))
            fprintf(f, " %.2f ± %.2f", o, r->order_ci95);
        else
            fprintf(f, " %.2f%s", o, r->range == VB_RANGE_ALL ? "*" : "");
        if (r->verdict != VB_VERDICT_AS_EXPECTED)
            fprintf(f, " %s", vb_verdict_name(r->verdict));
        fputs(" |", f);
    }
}

static void error_cell(FILE *f, const vb_grid_row *r)
{
    if (!r || isnan(r->err_finest))
        fputs(" – |", f);
    else if (isinf(r->err_finest))
        fputs(" diverged |", f);
    else
        fprintf(f, " %.3g |", r->err_finest);
}

static const char *const plan_heading[VB_N_PLANS] = {
    "fixed steps", "random steps (the median over seeds)", "the recorded trace"};

/* a plan's heading and a table's two header lines: the grid's keys, an
 * extra column if any, then a column per method (with its label when the
 * cells are orders) */
static void table_head(FILE *f, const vb_grid *g, int kind, const char *extra, int labels)
{
    const vb_case *c = g->first;
    const vb_case_grid *cg = c->grid;
    fprintf(f, "**%s**\n\n|", plan_heading[kind]);
    for (int k = 0; k < cg->n_keys; k++)
        fprintf(f, " %s |", cg->key[k]);
    if (extra)
        fprintf(f, " %s |", extra);
    for (size_t i = 0; i < c->n_integ; i++)
        if (labels && c->integ[i]->order > 0)
            fprintf(f, " `%s` (%d) |", c->integ[i]->name, c->integ[i]->order);
        else
            fprintf(f, " `%s` |", c->integ[i]->name);
    fputs("\n|", f);
    for (size_t k = 0; k < (size_t)cg->n_keys + (extra ? 1 : 0) + c->n_integ; k++)
        fputs("---|", f);
    fputc('\n', f);
}

void vb_grid_summary(const vb_grid *g, FILE *f)
{
    const vb_case *c = g->first;
    const vb_case_grid *cg = c->grid;
    fprintf(f, "## %s\n\n", cg->name);
    if (c->description)
        fprintf(f, "%s\n\n", c->description);
    fprintf(f, "`%s`: a grid of %zu points over ", c->path, g->points);
    for (int k = 0; k < cg->n_keys; k++)
        fprintf(f, "%s`%s = %s`", k ? (k + 1 == cg->n_keys ? " and " : ", ") : "", cg->key[k],
                cg->spec[k]);
    fprintf(f, ", model `%s`. Each point is a case of its own, `%s@KEY=VALUE`, with every "
               "table of a case in its own directory (and in the run's summary.md, after "
               "these), its step sizes dt, dt/2, ... of that point.\n\n",
            c->model.type->name, cg->name);
    fputs("The fitted order of the position error (`err_pos_max`) at each point, ± its 95 % "
          "interval; the verdict is written where it is not as-expected (docs/method.md §5).\n\n",
          f);
    for (int kind = 0; kind < VB_N_PLANS; kind++) {
        if (!g->has_plan[kind])
            continue;
        table_head(f, g, kind, NULL, 1);
        for (size_t pt = 0; pt < g->points; pt++) {
            fputc('|', f);
            for (int k = 0; k < cg->n_keys; k++)
                fprintf(f, " %s |", g->point[pt]->grid->text[k]);
            for (size_t i = 0; i < c->n_integ; i++)
                order_cell(f, find_row(g, pt, i, (vb_plan_kind)kind, VB_NORM_POS_MAX));
            fputc('\n', f);
        }
        fputc('\n', f);
        /* who computes the same positions as whom, at every point */
        int said = 0;
        for (size_t i = 0; i < c->n_integ; i++) {
            size_t same = grid_same_as(g, i, (vb_plan_kind)kind);
            if (same == VB_SAME_NONE)
                continue;
            fprintf(f, "%s`%s` = `%s`", said++ ? ", " : "The same position errors at every point, to "
                                                        "round-off: ",
                    c->integ[i]->name, c->integ[same]->name);
        }
        if (said)
            fputs(".\n\n", f);
    }
    fputs("The maximum position error at each point's finest step (the last of its step sizes; "
          "for an adaptive method, its finest tolerance on frames of dt).\n\n",
          f);
    for (int kind = 0; kind < VB_N_PLANS; kind++) {
        if (!g->has_plan[kind])
            continue;
        table_head(f, g, kind, "finest dt", 0);
        for (size_t pt = 0; pt < g->points; pt++) {
            fputc('|', f);
            for (int k = 0; k < cg->n_keys; k++)
                fprintf(f, " %s |", g->point[pt]->grid->text[k]);
            /* the finest dt of a method with steps of its own (mean step
             * for a trace); all of them share it */
            double dt = NAN;
            for (size_t i = 0; i < c->n_integ && isnan(dt); i++) {
                const vb_grid_row *r = find_row(g, pt, i, (vb_plan_kind)kind, VB_NORM_POS_MAX);
                if (r && !(r->tol_finest > 0.0)) /* not a tolerance's frames */
                    dt = r->dt_finest;
            }
            if (isnan(dt))
                fputs(" – |", f);
            else
                fprintf(f, " %.4g |", dt);
            for (size_t i = 0; i < c->n_integ; i++)
                error_cell(f, find_row(g, pt, i, (vb_plan_kind)kind, VB_NORM_POS_MAX));
            fputc('\n', f);
        }
        fputc('\n', f);
    }
}

/* the two files, for vb_casedir_write_file */
static void grid_csv(const void *g, FILE *f) { write_csv(g, f); }
static void grid_summary(const void *g, FILE *f) { vb_grid_summary(g, f); }

int vb_grid_write(const vb_grid *g, const char *dir, char *err, size_t errlen)
{
    if (g->added != g->points) {
        snprintf(err, errlen, "%s: %zu of the grid's %zu points measured", g->first->path,
                 g->added, g->points);
        return -1;
    }
    if (vb_casedir_write_file(dir, "grid.csv", grid_csv, g, err, errlen) != 0 ||
        vb_casedir_write_file(dir, "summary.md", grid_summary, g, err, errlen) != 0)
        return -1;
    return 0;
}
