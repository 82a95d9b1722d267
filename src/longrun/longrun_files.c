/* longrun_files.c — the files of the long runs (longrun_files.h). */
#include "longrun_files.h"
#include "names.h"
#include "numbers.h"
#include "outfile.h"
#include "provenance.h"
#include "study_tables.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the method's name: a compensated one is reported as its base method,
 * with kahan = 1 */
static const char *method(const vb_long_study *s, size_t i) { return s->base[i]->name; }

static void provenance(FILE *f, const vb_long_study *s)
{
    const vb_model *m = s->model;
    char buf[40];
    fprintf(f, "# verletbench %s longrun: model %s", vb_version_text(), m->type->name);
    for (unsigned i = 0; i < m->type->n_params; i++) {
        vb_format_shortest(m->p[i], buf, sizeof buf);
        fprintf(f, " %s=%s", m->type->params[i].name, buf);
    }
    fputc('\n', f);
    vb_libraries_provenance(f);
    fprintf(f, "# %g periods of T = %.17g at %g fixed steps a period; samples at t = T 10^(k/%g) "
               "(the first step at or past each); exponents fitted to the running maxima from "
               "t = %g T\n",
            s->opts.periods, s->results[0].period, s->opts.steps_per_period, s->opts.per_decade,
            s->opts.fit_from);
}

static void write_samples(FILE *f, const vb_long_study *s)
{
    vb_schema_header(f, &vb_longrun_schema, 0);
    for (size_t i = 0; i < s->n_integ; i++) {
        const vb_long_result *r = &s->results[i];
        for (size_t k = 0; k < r->n; k++) {
            const vb_long_sample *x = &r->s[k];
            vb_long_record rec = {method(s, i), s->kahan[i], x->t, x->t / r->period,
                                  x->energy, x->energy_max, x->phase, x->phase_max};
            vb_schema_row(f, &vb_longrun_schema, 0, NULL, &rec);
        }
    }
}

static void write_summary(FILE *f, const vb_long_study *s)
{
    vb_schema_header(f, &vb_longrun_summary_schema, 0);
    for (size_t i = 0; i < s->n_integ; i++) {
        const vb_long_result *r = &s->results[i];
        vb_long_summary_record rec = {
            .integrator = method(s, i),
            .kahan = s->kahan[i],
            .steps_per_period = s->opts.steps_per_period,
            .h = r->h,
            .periods = r->steps * r->h / r->period,
            .status = r->diverged ? "diverged" : "ok",
            .energy_exponent = r->energy.p,
            .energy_se = r->energy.se,
            .energy_verdict = r->energy.verdict,
            .energy_lost_at = r->energy.lost_at,
            .phase_exponent = r->phase.p,
            .phase_se = r->phase.se,
            .phase_verdict = r->phase.verdict,
            .phase_lost_at = r->phase.lost_at,
            .drift = r->drift,
            .drift_per_particle = r->drift_per_particle,
            .energy_max = r->n ? r->s[r->n - 1].energy_max : (double)NAN,
            .phase_max = r->n ? r->s[r->n - 1].phase_max : (double)NAN,
        };
        vb_schema_row(f, &vb_longrun_summary_schema, 0, NULL, &rec);
    }
}

/* "0.48 ± 0.02 | random walk", with when the error reached its limit */
static void cell(FILE *f, const vb_long_fit *fit, const char *limit)
{
    if (isnan(fit->p))
        fprintf(f, "— | ");
    else
        fprintf(f, "%.2f ± %.2f | ", fit->p, fit->se);
    fprintf(f, "%s", fit->verdict[0] ? fit->verdict : "—");
    if (!isnan(fit->lost_at))
        fprintf(f, "%s%s at %.3g periods", fit->verdict[0] ? "; " : "", limit, fit->lost_at);
    fprintf(f, " | ");
}

void vb_long_print_table(FILE *f, const vb_long_study *s)
{
    fprintf(f, "| integrator | kahan | steps a period | periods | energy: exponent | verdict | "
               "phase: exponent | verdict | drift dE/dt | per particle | max \\|dE/E0\\| |\n"
               "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < s->n_integ; i++) {
        const vb_long_result *r = &s->results[i];
        fprintf(f, "| %s | %s | %g | %.4g%s | ", method(s, i), s->kahan[i] ? "on" : "off",
                s->opts.steps_per_period, r->steps * r->h / r->period,
                r->diverged ? " (diverged)" : "");
        cell(f, &r->energy, "ΔE = E0");
        cell(f, &r->phase, "1 rad");
        /* a run that diverged has no drift: a dash, never "nan" */
        double shown[3] = {r->drift, r->drift_per_particle,
                           r->n ? r->s[r->n - 1].energy_max : (double)NAN};
        for (int k = 0; k < 3; k++)
            if (isnan(shown[k]))
                fprintf(f, "— |%s", k == 2 ? "\n" : " ");
            else
                fprintf(f, "%.3g |%s", shown[k], k == 2 ? "\n" : " ");
    }
    /* "periods" of a model without one: said, with what they count */
    if (!(s->model->type->flags & VB_PERIODIC))
        fprintf(f, "\n%s has no period: T = %.6g is its natural time, and \"periods\" count it "
                   "(docs/longrun.md §1). Where its motion is unbounded (the projectile: T is the "
                   "time of flight) the exponents measure round-off in a growing state, not a "
                   "drift, even for a method that is exact there.\n",
                s->model->type->name, s->n_integ ? s->results[0].period : 0.0);
    /* said, not silent: samples past the limit were not kept */
    for (size_t i = 0; i < s->n_integ; i++) {
        const vb_long_result *r = &s->results[i];
        if (r->dropped)
            fprintf(f, "\n%s: %zu samples before the run's end were not kept (at most %d are; "
                       "fewer --per-decade keeps them all); the last sample is the end, t = %.6g "
                       "periods.\n",
                    method(s, i), r->dropped, VB_LONG_MAX_SAMPLES,
                    r->n ? r->s[r->n - 1].t / r->period : 0.0);
    }
}

static int one_file(const char *dir, const char *name, const vb_long_study *s, int which,
                    vb_outfile *o, char *err, size_t errlen)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        snprintf(err, errlen, "%.80s...: path too long", dir);
        return -1;
    }
    if (vb_outfile_open(o, path, err, errlen) != 0)
        return -1;
    if (which == 2) {
        vb_markdown_provenance(o->f, "longrun");
        vb_long_print_table(o->f, s);
    } else {
        provenance(o->f, s);
        if (which == 0)
            write_samples(o->f, s);
        else
            write_summary(o->f, s);
    }
    return vb_outfile_finish(o, err, errlen);
}

int vb_long_write(const char *dir, const vb_long_study *s, char *err, size_t errlen)
{
    if (vb_make_dir(dir, err, errlen) != 0)
        return -1;
    static const char *const names[] = {"longrun.csv", "longrun-summary.csv", "longrun.md"};
    vb_outfile o[3] = {{0}};
    int rc = 0;
    for (int k = 0; k < 3 && rc == 0; k++)
        rc = one_file(dir, names[k], s, k, &o[k], err, errlen);
    for (int i = 0; i < 3; i++) {
        if (rc == 0)
            rc = vb_outfile_commit(&o[i], err, errlen);
        else if (o[i].f || o[i].tmp)
            vb_outfile_abort(&o[i]);
    }
    return rc;
}
