/* stability_files.c — the files of a stability study (stability_files.h). */
#include "stability_files.h"
#include "names.h"
#include "numbers.h"
#include "outfile.h"
#include "provenance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a number in its shortest round-trip form; empty for NAN */
static void num(FILE *f, double x)
{
    char buf[40];
    if (isnan(x))
        return;
    vb_format_shortest(x, buf, sizeof buf);
    fputs(buf, f);
}

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

/* gap_lo,gap_hi,gap_periods: empty where there is no gap */
static void gap_fields(FILE *f, const vb_stab_gap *g)
{
    num(f, g->lo);
    fputc(',', f);
    num(f, g->hi);
    fputc(',', f);
    num(f, g->periods);
}

static void write_rows(FILE *f, const vb_stab_study *s)
{
    fputs("model,integrator,param,value,jitter,seed,omega,status,z_lo,z_hi,h_lo,h_hi,"
          "evals_per_step,z_per_eval,theory,rel_to_theory,verdicts,steps,gap_lo,gap_hi,"
          "gap_periods\n",
          f);
    for (size_t i = 0; i < s->n_rows; i++) {
        const vb_stab_row *r = &s->rows[i];
        const vb_stab_problem *p = &s->problems[r->point];
        fprintf(f, "%s,%s,%s,", p->model->type->name, r->g->name, s->vary ? s->vary : "");
        if (s->vary)
            num(f, s->values[r->point]);
        fputc(',', f);
        num(f, s->jitters[r->jitter]);
        fprintf(f, ",%lu,", r->seed);
        num(f, p->omega);
        fprintf(f, ",%s,", vb_stab_status_name(r->r.status));
        num(f, r->r.z_lo);
        fputc(',', f);
        if (isfinite(r->r.z_hi))
            num(f, r->r.z_hi);
        fputc(',', f);
        num(f, r->r.z_lo / p->omega);
        fputc(',', f);
        if (isfinite(r->r.z_hi))
            num(f, r->r.z_hi / p->omega);
        fputc(',', f);
        num(f, r->r.evals_per_step);
        fputc(',', f);
        if (r->r.status == VB_STAB_LIMIT)
            num(f, r->r.z_lo / r->r.evals_per_step);
        fputc(',', f);
        num(f, r->theory);
        fputc(',', f);
        if (r->r.status == VB_STAB_LIMIT)
            num(f, rel(r->r.z_lo, r->theory));
        fprintf(f, ",%u,%.0f,", r->r.verdicts, r->r.steps);
        gap_fields(f, &r->gap);
        fputc('\n', f);
    }
}

static void write_summary(FILE *f, const vb_stab_study *s, const vb_stab_group *gs, size_t n)
{
    fputs("model,integrator,param,value,jitter,seeds,found,z_median,z_min,z_max,"
          "evals_per_step,z_per_eval,theory,rel_to_theory,gap_lo,gap_hi,gap_periods\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const vb_stab_row *r = &s->rows[gs[i].first];
        const vb_stab_problem *p = &s->problems[r->point];
        fprintf(f, "%s,%s,%s,", p->model->type->name, r->g->name, s->vary ? s->vary : "");
        if (s->vary)
            num(f, s->values[r->point]);
        fputc(',', f);
        num(f, s->jitters[r->jitter]);
        fprintf(f, ",%zu,%zu,", gs[i].count, gs[i].found);
        num(f, gs[i].median);
        fputc(',', f);
        num(f, gs[i].least);
        fputc(',', f);
        num(f, gs[i].largest);
        fputc(',', f);
        num(f, r->r.evals_per_step);
        fputc(',', f);
        num(f, gs[i].median / r->r.evals_per_step);
        fputc(',', f);
        num(f, r->theory);
        fputc(',', f);
        num(f, rel(gs[i].median, r->theory));
        fputc(',', f);
        gap_fields(f, &r->gap); /* fixed steps: the group is this one row */
        fputc('\n', f);
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
