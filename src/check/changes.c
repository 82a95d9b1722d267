/* changes.c — what changed against a baseline: each change recorded
 * (those of one case, integrator, plan and metric folded into the one
 * that changed most), and the report check and compare print. */
#include "changes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vb_changes_record(vb_changes *out, const vb_change *c)
{
    /* fold changes of one case, integrator, plan and metric into the one
     * that changed most, so a broken method gives one line per metric */
    for (size_t i = 0; i < out->n; i++) {
        vb_change *o = &out->v[i];
        if (o->kind == c->kind && !strcmp(o->case_name, c->case_name) &&
            !strcmp(o->integ, c->integ) && !strcmp(o->plan, c->plan) &&
            !strcmp(o->metric, c->metric)) {
            size_t rows = o->rows + c->rows;
            if (fabs(log(c->factor > 0 ? c->factor : 1)) > fabs(log(o->factor > 0 ? o->factor : 1)))
                *o = *c;
            o->rows = rows;
            return 0;
        }
    }
    if (out->n == out->cap) {
        size_t cap = out->cap ? 2 * out->cap : 64;
        vb_change *more = realloc(out->v, cap * sizeof *more);
        if (!more)
            return -1;
        out->v = more;
        out->cap = cap;
    }
    out->v[out->n++] = *c;
    return 0;
}

void vb_change_fill(vb_change *c, vb_change_kind kind, const char *name, const char *integ,
                    const char *plan, const char *metric)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->rows = 1;
    snprintf(c->case_name, sizeof c->case_name, "%s", name);
    snprintf(c->integ, sizeof c->integ, "%s", integ);
    snprintf(c->plan, sizeof c->plan, "%s", plan);
    snprintf(c->metric, sizeof c->metric, "%s", metric);
}

static void print_kind(const vb_changes *c, vb_change_kind kind, const char *title, FILE *f)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        n += c->v[i].kind == kind;
    if (!n)
        return;
    fprintf(f, "\n%s:\n", title);
    if (kind == VB_MISSING || kind == VB_NEW) {
        fprintf(f, "  %-18s %-18s %-7s %s\n", "case", "integrator", "plan", "runs");
        for (size_t i = 0; i < c->n; i++)
            if (c->v[i].kind == kind)
                fprintf(f, "  %-18s %-18s %-7s %zu\n", c->v[i].case_name, c->v[i].integ,
                        c->v[i].plan, c->v[i].rows);
        return;
    }
    fprintf(f, "  %-18s %-18s %-7s %-10s %-6s %-26s %-24s %-24s %s\n", "case", "integrator",
            "plan", "dt", "seed", "metric", "baseline", "now", "change");
    for (size_t i = 0; i < c->n; i++) {
        const vb_change *v = &c->v[i];
        if (v->kind != kind)
            continue;
        char factor[48] = "";
        if (v->factor > 0)
            snprintf(factor, sizeof factor, v->factor >= 1 ? "x%.3g" : "/%.3g",
                     v->factor >= 1 ? v->factor : 1 / v->factor);
        char more[160] = "";
        if (v->note[0])
            snprintf(more, sizeof more, " (%s)", v->note);
        else if (v->rows > 1)
            snprintf(more, sizeof more, " (largest of %zu)", v->rows);
        fprintf(f, "  %-18s %-18s %-7s %-10s %-6s %-26s %-24s %-24s %s%s\n", v->case_name,
                v->integ, v->plan, v->dt, v->seed[0] ? v->seed : "-", v->metric, v->before,
                v->after, factor, more);
    }
}

void vb_changes_print(const vb_changes *c, FILE *f)
{
    print_kind(c, VB_WORSE, "WORSE than the baseline", f);
    print_kind(c, VB_MISSING, "MISSING: in the baseline, not run now", f);
    print_kind(c, VB_BETTER, "better than the baseline (not a failure; make baseline to keep it)",
               f);
    print_kind(
        c, VB_FINAL,
        "final-time errors that changed (not judged: they oscillate with the phase at t_end)", f);
    print_kind(c, VB_NEW, "new: no baseline to compare with", f);
}

int vb_changes_add_case(vb_changes *out, vb_change_kind kind, const char *name, size_t runs)
{
    vb_change c;
    vb_change_fill(&c, kind, name, "(every one)", "-", "run");
    c.rows = runs;
    *(kind == VB_MISSING ? &out->missing : &out->added) += runs;
    return vb_changes_record(out, &c);
}

void vb_changes_header(FILE *f, const char *cmd, size_t cases, const char *what,
                       const vb_tolerance *tol)
{
    fprintf(
        f, "verletbench %s: %zu case%s %s (rtol %g, round-off floor %g ulps, order tolerance %g)\n",
        cmd, cases, cases == 1 ? "" : "s", what, tol->rtol, tol->floor_ulps, tol->order_tol);
}

void vb_changes_case_line(FILE *f, const char *name, int worse)
{
    fprintf(f, "  %-22s %s\n", name, worse ? "WORSE" : "ok");
}

int vb_changes_report(const vb_changes *c, FILE *f)
{
    vb_changes_print(c, f);
    if (c->unshared)
        fprintf(f,
                "\n%zu runs at step sizes only one side has were not compared; each side's "
                "orders are\nfitted over its own step sizes: a change of an order or a verdict "
                "says what the\nother step sizes show\n",
                c->unshared);
    int failed = c->worse > 0 || c->missing > 0;
    fprintf(f,
            "\n%s: %zu values compared; %zu worse, %zu better, %zu baseline runs missing, "
            "%zu new runs\n",
            failed ? "FAILED" : "passed", c->compared, c->worse, c->better, c->missing, c->added);
    return failed;
}

void vb_changes_free(vb_changes *c)
{
    free(c->v);
    memset(c, 0, sizeof *c);
}
