/* stability_files.c — the files of a stability study (stability_files.h). */
#include "stability_files.h"
#include "names.h"
#include "numbers.h"
#include "outfile.h"
#include "provenance.h"
#include "study_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void provenance(FILE *f, const vb_stab_study *s)
{
    const vb_stab_problem *p = &s->problems[0];
    const vb_model *m = p->model;
    const vb_stab_opts *o = &s->opts;
    char buf[40];
    fprintf(f, "# verletbench %s stability: model %s", vb_version_text(), m->type->name);
    for (unsigned i = 0; i < m->type->n_params; i++) {
        if (s->vary && !strcmp(s->vary, m->type->params[i].name))
            continue;
        vb_format_shortest(m->p[i], buf, sizeof buf);
        fprintf(f, " %s=%s", m->type->params[i].name, buf);
    }
    if (s->vary) {
        fprintf(f, " %s in", s->vary);
        for (size_t k = 0; k < s->n_points; k++) {
            vb_format_shortest(s->values[k], buf, sizeof buf);
            fprintf(f, "%s%s", k ? "," : " ", buf);
        }
    }
    fputc('\n', f);
    vb_libraries_provenance(f);
    if (p->criterion == VB_STAB_ESCAPE)
        fprintf(f, "# criterion: unstable when the energy reaches 0 (escape) or the state is "
                   "not finite within P = %g orbits; z = %s h\n",
                o->periods, p->omega_name);
    else
        fprintf(f, "# criterion: unstable when the energy exceeds F = %g times its start or the "
                   "state is not finite within P = %g periods of %s; z = %s h\n",
                o->factor, o->periods, p->omega_name, p->omega_name);
    fprintf(f, "# search: from z = %g halved to a stable z (down to %g), scanned up by %g (up "
               "to %g) to the first unstable z, then bisected to a relative width %g",
            o->z_start, o->z_min, o->scan_ratio, o->z_max, o->rtol);
    if (p->criterion == VB_STAB_GROWTH)
        fputs("; a limit is kept only if half of it stays stable over 4 P periods, else the "
              "method grows at every z and the limit was the criterion's floor (unstable)", f);
    int jittered = 0;
    for (size_t j = 0; j < s->n_jitters; j++)
        jittered |= s->jitters[j] > 0.0;
    if (jittered)
        fprintf(f, "; jittered steps dt (1 + j u), u from GSL's mt19937, seeds %lu..%lu",
                s->seed0, s->seed0 + s->seeds - 1);
    fputc('\n', f);
}

static double rel(double z, double theory)
{
    if (isnan(theory) || theory == 0.0 || isnan(z))
        return NAN;
    return (z - theory) / theory;
}

/* NaN where the row has no such number: a blank cell */
static double finite_or_nan(double x) { return isfinite(x) ? x : (double)NAN; }

/* a search's row: z_hi and h_hi blank when no unstable z was found (inf),
 * z a force evaluation and (z - theory)/theory where a limit was */
static vb_stab_record search_record(const vb_stab_study *s, const vb_stab_row *r)
{
    const vb_stab_problem *p = &s->problems[r->point];
    int limit = r->r.status == VB_STAB_LIMIT;
    return (vb_stab_record){
        .model = p->model->type->name,
        .integrator = r->g->name,
        .param = s->vary ? s->vary : "",
        .value = s->vary ? s->values[r->point] : (double)NAN,
        .jitter = s->jitters[r->jitter],
        .seed = r->seed,
        .omega = p->omega,
        .status = vb_stab_status_name(r->r.status),
        .z_lo = r->r.z_lo,
        .z_hi = finite_or_nan(r->r.z_hi),
        .h_lo = r->r.z_lo / p->omega,
        .h_hi = finite_or_nan(r->r.z_hi) / p->omega,
        .evals_per_step = r->r.evals_per_step,
        .z_per_eval = limit ? r->r.z_lo / r->r.evals_per_step : (double)NAN,
        .theory = r->theory,
        .rel_to_theory = limit ? rel(r->r.z_lo, r->theory) : (double)NAN,
        .verdicts = r->r.verdicts,
        .steps = r->r.steps,
        .gap_lo = r->gap.lo,
        .gap_hi = r->gap.hi,
        .gap_periods = r->gap.periods,
    };
}

static void write_rows(FILE *f, const vb_stab_study *s)
{
    vb_schema_header(f, &vb_stab_schema, 0);
    for (size_t i = 0; i < s->n_rows; i++) {
        vb_stab_record rec = search_record(s, &s->rows[i]);
        vb_schema_row(f, &vb_stab_schema, 0, NULL, &rec);
    }
}

/* a group's row: its seeds' median, least and largest limit; the rest
 * its first search's (with fixed steps, its one search: the gap) */
static void write_summary(FILE *f, const vb_stab_study *s, const vb_stab_group *gs, size_t n)
{
    vb_schema_header(f, &vb_stab_summary_schema, 0);
    for (size_t i = 0; i < n; i++) {
        const vb_stab_row *r = &s->rows[gs[i].first];
        const vb_stab_problem *p = &s->problems[r->point];
        vb_stab_summary_record rec = {
            .model = p->model->type->name,
            .integrator = r->g->name,
            .param = s->vary ? s->vary : "",
            .value = s->vary ? s->values[r->point] : (double)NAN,
            .jitter = s->jitters[r->jitter],
            .seeds = gs[i].count,
            .found = gs[i].found,
            .z_median = gs[i].median,
            .z_min = gs[i].least,
            .z_max = gs[i].largest,
            .evals_per_step = r->r.evals_per_step,
            .z_per_eval = gs[i].median / r->r.evals_per_step,
            .theory = r->theory,
            .rel_to_theory = rel(gs[i].median, r->theory),
            .gap_lo = r->gap.lo,
            .gap_hi = r->gap.hi,
            .gap_periods = r->gap.periods,
        };
        vb_schema_row(f, &vb_stab_summary_schema, 0, NULL, &rec);
    }
}

void vb_stab_print_table(FILE *f, const vb_stab_study *s)
{
    size_t n;
    vb_stab_group *gs = vb_stab_groups(s, &n);
    if (!gs)
        return;
    const char *w = s->problems[0].omega_name;
    fprintf(f, "| integrator |%s%s%s jitter | %s h: largest stable | bracket (or range over seeds) | "
               "per force evaluation | theory | (measured - theory)/theory |\n",
            s->vary ? " " : "", s->vary ? s->vary : "", s->vary ? " |" : "", w);
    if (s->vary)
        fprintf(f, "|---|---|---|---|---|---|---|---|\n");
    else
        fprintf(f, "|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < n; i++) {
        const vb_stab_row *r = &s->rows[gs[i].first];
        fprintf(f, "| %s | ", r->g->name);
        if (s->vary)
            fprintf(f, "%.6g | ", s->values[r->point]);
        fprintf(f, "%g | ", s->jitters[r->jitter]);
        if (gs[i].count == 1 && r->r.status == VB_STAB_UNSTABLE)
            fprintf(f, "none: unstable at every z tried | down to %.4g | | ", r->r.z_hi);
        else if (gs[i].count == 1 && r->r.status == VB_STAB_STABLE)
            fprintf(f, "stable to the end of the scan | up to %.4g | | ", r->r.z_lo);
        else if (gs[i].count == 1)
            fprintf(f, "%.10g%s | [%.12g, %.12g] | %.10g | ", r->r.z_lo,
                    isnan(r->gap.lo) ? "" : " (the criterion's; unstable below, see under)",
                    r->r.z_lo, r->r.z_hi, r->r.z_lo / r->r.evals_per_step);
        else if (gs[i].found == 0)
            fprintf(f, "none found over %zu seeds | | | ", gs[i].count);
        else
            fprintf(f, "%.4g (median of %zu seeds%s) | [%.4g, %.4g] | %.4g | ", gs[i].median,
                    gs[i].found, gs[i].found < gs[i].count ? " with a limit" : "", gs[i].least,
                    gs[i].largest, gs[i].median / r->r.evals_per_step);
        if (isnan(r->theory))
            fprintf(f, "— | — |\n");
        else if (r->theory > 0.0 && !isfinite(rel(gs[i].median, r->theory)))
            fprintf(f, "%.10g | — |\n", r->theory); /* no limit found to compare */
        else if (r->theory == 0.0)
            fprintf(f, "0 (unstable at every step) | — |\n");
        else
            fprintf(f, "%.10g | %+.2e |\n", r->theory, rel(gs[i].median, r->theory));
    }
    /* what the table's limit does not say: a gap below it (§5) */
    for (size_t i = 0; i < n; i++) {
        const vb_stab_row *r = &s->rows[gs[i].first];
        if (gs[i].count != 1 || isnan(r->gap.lo))
            continue;
        fprintf(f, "\n%s", r->g->name);
        if (s->vary)
            fprintf(f, " at %s = %.6g", s->vary, s->values[r->point]);
        fprintf(f, ": %.10g is no stability limit. The step matrix is unstable on "
                   "[%.5g, %.5g], below it, where the energy passes F = %g only after %.3g "
                   "periods, more than the criterion's P = %g (docs/stability.md §5).\n",
                r->r.z_lo, r->gap.lo, r->gap.hi, s->opts.factor, r->gap.periods,
                s->opts.periods);
    }
    free(gs);
}

static int one_file(const char *dir, const char *name, const vb_stab_study *s,
                    const vb_stab_group *gs, size_t n, int which, vb_outfile *o, char *err,
                    size_t errlen)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        snprintf(err, errlen, "%.80s...: path too long", dir);
        return -1;
    }
    if (vb_outfile_open(o, path, err, errlen) != 0)
        return -1;
    if (which == 2) {
        vb_markdown_provenance(o->f, "stability");
        vb_stab_print_table(o->f, s);
    } else {
        provenance(o->f, s);
        if (which == 0)
            write_rows(o->f, s);
        else
            write_summary(o->f, s, gs, n);
    }
    return vb_outfile_finish(o, err, errlen);
}

int vb_stab_write(const char *dir, const vb_stab_study *s, char *err, size_t errlen)
{
    if (vb_make_dir(dir, err, errlen) != 0)
        return -1;
    size_t n;
    vb_stab_group *gs = vb_stab_groups(s, &n);
    if (!gs) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    static const char *const names[] = {"stability.csv", "stability-summary.csv",
                                        "stability.md"};
    vb_outfile o[3] = {{0}};
    int rc = 0, k;
    for (k = 0; k < 3 && rc == 0; k++)
        rc = one_file(dir, names[k], s, gs, n, k, &o[k], err, errlen);
    /* all three finished: rename them into place; else none is */
    for (int i = 0; i < 3; i++) {
        if (rc == 0)
            rc = vb_outfile_commit(&o[i], err, errlen);
        else if (o[i].f || o[i].tmp)
            vb_outfile_abort(&o[i]);
    }
    free(gs);
    return rc;
}
