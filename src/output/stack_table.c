/* stack_table.c — the columns of stacks.csv: a contact solver's run on a
 * stack of boxes (or an engine's, protocol 5), its measures against the
 * exact answer (no box moves: each measure's exact value is 0, and
 * t_collapse's is blank, the stack stands for ever).  t_collapse is blank where the run stood to its end;
 * iterations and substeps are blank for a solver without the key (toi)
 * and for an engine (its settings are its adapter's options); a run that
 * diverged has its measures up to the step before. */
#include "stack_table.h"

#include <stddef.h>
#include <stdio.h>

#include "cells.h"
#include "profile.h" /* VB_MEASURE_STACK */
#include "results.h"
#include "runs_table.h"

#define ROW(p) ((const vb_runs_row *)(p))
#define STACK(f) offsetof(vb_stack_measures, f)

/* a measure of vb_stack_measures at col->at: NaN is blank */
static vb_cell measure(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    double x = *(const double *)(const void *)((const char *)&ROW(row)->res->stack + c->at);
    return vb_cell_x_or_blank(x);
}

#define KEY(name, fmt, get) {name, fmt, get, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0}
#define M(name, field) {name, VB_FMT_REAL, measure, STACK(field), 0, NULL, 0, VB_READ, 0, 0, 0, 0}

static const vb_column columns[] = {
    [VB_COL_STACK_MODEL] = KEY("model", VB_FMT_TEXT, vb_get_row_model),
    [VB_COL_STACK_INTEGRATOR] = KEY("integrator", VB_FMT_TEXT, vb_get_row_integ),
    [VB_COL_STACK_PLAN] = KEY("plan", VB_FMT_TEXT, vb_get_row_plan),
    [VB_COL_STACK_DT] = KEY("dt", VB_FMT_REAL, vb_get_row_dt),
    [VB_COL_STACK_STATUS] = {"status", VB_FMT_TEXT, vb_get_row_status, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_STACK_ITERATIONS] = M("iterations", iterations),
    [VB_COL_STACK_SUBSTEPS] = M("substeps", substeps),
    [VB_COL_STACK_DRIFT_MAX] = M("drift_max", drift_max),
    [VB_COL_STACK_SPEED_RMS] = M("speed_rms", speed_rms),
    [VB_COL_STACK_DEPTH_MAX] = M("depth_max", depth_max),
    [VB_COL_STACK_T_COLLAPSE] = M("t_collapse", t_collapse),
};

const vb_schema vb_stack_schema = VB_SCHEMA("stacks.csv", columns);
_Static_assert(sizeof columns / sizeof columns[0] == VB_STACK_COLUMNS,
               "a column of stacks.csv without its line");

void vb_write_stacks(const vb_sweep *s, FILE *f)
{
    vb_schema_header(f, &vb_stack_schema, 0);
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        if (!j->res.stack.has)
            continue;
        vb_runs_row row = {&s->c->model, s->c->integ[j->integ], &j->plan, &j->res, j->level};
        vb_schema_row(f, &vb_stack_schema, 0, NULL, &row);
    }
}

/* a measure as the summary shows it, 3 significant digits; "–" for none */
static void cell(FILE *f, double x, const char *none)
{
    if (x != x)
        fprintf(f, " %s |", none);
    else
        fprintf(f, " %.3g |", x);
}

void vb_stack_summary(const vb_sweep *s, FILE *f)
{
    if (!(s->c->profile.measures & VB_MEASURE_STACK))
        return;
    fputs("### The stack (stacks.csv)\n\n"
          "Each solver's or engine's run with fixed steps against the exact answer, no box "
          "moves: the largest displacement of any box (m), the boxes' speeds' root mean square over the "
          "run (m/s), the deepest penetration (m), and when a box had first moved by half its "
          "edge (s; \"stood\": never in the run). Iterations and substeps are the solver's "
          "(– where it has no such key, and for an engine, whose settings are its adapter's "
          "options) (docs/contact.md, \"Stacks\").\n\n"
          "| integrator | dt | iterations | substeps | drift | speed rms | depth | collapse |\n"
          "|---|---|---|---|---|---|---|---|\n",
          f);
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        const vb_stack_measures *m = &j->res.stack;
        if (!m->has || j->kind != VB_PLAN_FIXED)
            continue;
        fprintf(f, "| `%s` | %.6g |", s->c->integ[j->integ]->name, j->res.dt);
        cell(f, m->iterations, "–");
        cell(f, m->substeps, "–");
        if (j->res.status != VB_STATUS_OK) {
            fprintf(f, " %s | | | |\n", vb_status_name(j->res.status));
            continue;
        }
        cell(f, m->drift_max, "–");
        cell(f, m->speed_rms, "–");
        cell(f, m->depth_max, "–");
        cell(f, m->t_collapse, "stood");
        fputc('\n', f);
    }
    fputc('\n', f);
}
