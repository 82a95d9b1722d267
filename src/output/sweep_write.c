/* sweep_write.c — a sweep's tables.  Each file starts with '#' lines saying
 * how it was made (version, commit, case, parameters) and carries no
 * timestamp, so the same inputs give the same bytes.  They are written into
 * a fresh directory that replaces the case's old one whole (outdir.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "grid.h"
#include "outdir.h"
#include "integrator.h"
#include "plugin.h"
#include "provenance.h"
#include "truth.h"
#include "sweep.h"

int vb_make_dir(const char *path, char *err, size_t errlen)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        snprintf(err, errlen, "%.80s...: path too long", path);
        return -1;
    }
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            struct stat st;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                snprintf(err, errlen, "%s: cannot create directory: %s", buf, strerror(errno));
                return -1;
            }
            if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
                snprintf(err, errlen, "%s: not a directory", buf);
                return -1;
            }
            *p = c;
            if (c == '\0')
                break;
        }
    }
    return 0;
}

/* A reference solution's own error, the largest over every run of the
 * sweep, in position and velocity; 0 and 0 for an exact solution. */
static int reference_error(const vb_sweep *s, double *pos, double *vel)
{
    *pos = *vel = 0.0;
    int any = 0;
    for (size_t k = 0; k < s->n_jobs; k++)
        if (s->jobs[k].res.has_reference) {
            any = 1;
            *pos = fmax(*pos, s->jobs[k].res.ref_err_pos);
            *vel = fmax(*vel, s->jobs[k].res.ref_err_vel);
        }
    return any;
}

static void provenance(FILE *f, const vb_sweep *s, const char *what)
{
    const vb_case *c = s->c;
    const vb_model *m = &c->model;
    fprintf(f, "# verletbench %s: %s of %s\n", vb_version_text(), what, c->path);
    if (c->description)
        fprintf(f, "# %s\n", c->description);
    if (c->grid) {
        /* which point of the file's grid, and the grid as written */
        fprintf(f, "# grid point %zu of %zu: %s (", c->grid->point + 1, c->grid->points,
                c->grid->label);
        for (int k = 0; k < c->grid->n_keys; k++)
            fprintf(f, "%s%s = %s", k ? "; " : "", c->grid->key[k], c->grid->spec[k]);
        fputs(")\n", f);
    }
    fprintf(f, "# model=%s", m->type->name);
    for (unsigned i = 0; i < m->type->n_params; i++)
        fprintf(f, " %s=%.17g", m->type->params[i].name, m->p[i]);
    fprintf(f, " t_end=%.17g\n# dt=%.17g halvings=%d jitter=%.17g seeds=%d", c->t_end, c->dt,
            c->halvings, c->jitter, c->seeds);
    if (c->trace_path)
        fprintf(f, " trace=%s (%zu steps)", c->trace_path, c->trace.n);
    /* the adaptive methods' tolerance at level 0, where there are any */
    for (size_t i = 0; i < c->n_integ; i++)
        if (vb_adaptive(c->integ[i])) {
            fprintf(f, " tolerance=%.17g", c->tolerance);
            break;
        }
    fputs("\n# integrators=", f);
    for (size_t i = 0; i < c->n_integ; i++)
        fprintf(f, "%s%s", i ? "," : "", c->integ[i]->name);
    fputc('\n', f);
    double ep, ev;
    if (reference_error(s, &ep, &ev))
        fprintf(f, "# truth: no exact solution; a reference by GSL's rk8pd at tolerance %g, "
                   "whose own error, measured against a second at %g, is at most %.3g in "
                   "position and %.3g in velocity over every run; errors below %g times "
                   "that are below its resolution and never fitted\n",
                VB_REF_TOL, VB_REF_TOL / VB_REF_TOL_RATIO, ep, ev, VB_REF_RESOLUTION);
}

typedef void writer_fn(const vb_sweep *s, FILE *f);

static void num(FILE *f, double x)
{
    if (isnan(x))
        fputs(",", f);
    else
        fprintf(f, ",%.17g", x);
}

static void write_runs(const vb_sweep *s, FILE *f)
{
    fprintf(f, "%s,level,resolved\n", vb_run_columns);
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        vb_run_print_row(f, &s->c->model, s->c->integ[j->integ], &j->plan, &j->res);
        fprintf(f, ",%d,", j->level);
        /* against a reference: is the error above what it can resolve? */
        if (j->res.has_reference)
            fputs(j->res.err_pos_max > vb_norm_resolution(&j->res, VB_NORM_POS_MAX) ? "yes" : "no",
                  f);
        fputc('\n', f);
    }
}

static void local_orders(FILE *f, const vb_fit *fit)
{
    fputc(',', f);
    for (int k = 0; k + 1 < fit->n; k++)
        if (isnan(fit->local[k]))
            fprintf(f, "%s-", k ? " " : "");
        else
            fprintf(f, "%s%.3f", k ? " " : "", fit->local[k]);
}

static void write_orders(const vb_sweep *s, FILE *f)
{
    fputs("integrator,plan,norm,order,points,expected,verdict,range,dt_first,dt_last,local_orders,"
          "order_se,order_ci95\n",
          f);
    for (size_t k = 0; k < s->n_orders; k++) {
        const vb_order_row *r = &s->orders[k];
        const vb_integrator *g = s->c->integ[r->integ];
        fprintf(f, "%s,%s,%s,", g->name, vb_plan_name(r->kind), vb_norm_name(r->norm));
        if (isfinite(r->fit.order) && !r->fit.exact)
            fprintf(f, "%.6f", r->fit.order);
        fprintf(f, ",%d,%d,%s,%s", r->fit.points, g->order, vb_verdict_name(r->verdict),
                vb_range_name(r->fit.range));
        if (r->fit.first >= 0)
            fprintf(f, ",%.17g,%.17g", r->dt[r->fit.first], r->dt[r->fit.last]);
        else
            fputs(",,", f);
        local_orders(f, &r->fit);
        /* the slope's standard error and 95 % half-width, where there are
         * three points or more (and an order) */
        if (isfinite(r->fit.order_se) && !r->fit.exact)
            fprintf(f, ",%.6f,%.6f\n", r->fit.order_se, r->fit.order_ci95);
        else
            fputs(",,\n", f);
    }
}

static void write_bands(const vb_sweep *s, FILE *f)
{
    fputs("integrator,level,dt,norm,median,p10,p90,runs\n", f);
    for (size_t k = 0; k < s->n_bands; k++) {
        const vb_band_row *b = &s->bands[k];
        fprintf(f, "%s,%d,%.17g,%s", s->c->integ[b->integ]->name, b->level, b->dt,
                vb_norm_name(b->norm));
        num(f, b->median);
        num(f, b->p10);
        num(f, b->p90);
        fprintf(f, ",%d\n", b->runs);
    }
}

static void write_onestep(const vb_sweep *s, FILE *f)
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
            num(f, r->err_pos[l]);
            num(f, r->err_vel[l]);
            fputc('\n', f);
        }
    }
}

static void write_onestep_orders(const vb_sweep *s, FILE *f)
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
            local_orders(f, fit);
            fputc('\n', f);
        }
    }
}

static void write_reverse(const vb_sweep *s, FILE *f)
{
    fputs("# run to t_end, reverse the velocity, run the same steps back in reverse order:\n"
          "# return_err_* is the distance from (x0, -v0); reversible if within round-off\n",
          f);
    fputs("integrator,plan,dt,steps,return_err_pos,return_err_vel,roundoff,reversible\n", f);
    for (size_t k = 0; k < s->n_reverse; k++) {
        const vb_reverse_row *r = &s->reverse[k];
        fprintf(f, "%s,%s,%.17g,%llu,%.17g,%.17g,%.17g,%s\n", s->c->integ[r->integ]->name,
                vb_plan_name(r->kind), r->dt, r->steps, r->err_pos, r->err_vel, r->floor,
                r->reversible ? "yes" : "no");
    }
}

static void write_summary(const vb_sweep *s, FILE *f) { vb_sweep_summary(s, f); }

/* ---- chart data: tidy CSV, one row per point, for the gnuplot scripts -------- */

static const vb_band_row *find_band(const vb_sweep *s, size_t integ, int level, vb_norm norm)
{
    for (size_t k = 0; k < s->n_bands; k++)
        if (s->bands[k].integ == integ && s->bands[k].level == level && s->bands[k].norm == norm)
            return &s->bands[k];
    return NULL;
}

/* The mean force evaluations of the runs of one integrator, plan and level. */
static double mean_evals(const vb_sweep *s, size_t integ, vb_plan_kind kind, int level)
{
    double sum = 0.0;
    int n = 0;
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        if (j->integ == integ && j->kind == kind && j->level == level) {
            sum += (double)j->res.force_evals;
            n++;
        }
    }
    return n ? sum / n : (double)NAN;
}

/* An order as printed to two places: a slope that rounds to zero is "0.00",
 * not "-0.00", which reads as if the sign meant something. */
static double shown(double order)
{
    return fabs(order) < 0.005 ? 0.0 : order;
}

static void order_text(FILE *f, const vb_order_row *r)
{
    if (r->verdict == VB_VERDICT_EXACT)
        fputs("exact", f);
    else if (r->verdict == VB_VERDICT_UNDETERMINED)
        fputs("undetermined", f);
    else
        fprintf(f, "%.2f%s", shown(r->fit.order), r->fit.range == VB_RANGE_ALL ? "*" : "");
}

/* the name of integrator i, or "" for VB_SAME_NONE */
static const char *same_name(const vb_sweep *s, size_t i)
{
    return i == VB_SAME_NONE ? "" : s->c->integ[i]->name;
}

static void write_convergence(const vb_sweep *s, FILE *f)
{
    fputs("integrator,plan,level,dt,err_pos_max,p10,p90,force_evals,order,verdict,same_as,tol\n",
          f);
    for (size_t k = 0; k < s->n_orders; k++) {
        const vb_order_row *r = &s->orders[k];
        if (r->norm != VB_NORM_POS_MAX)
            continue;
        for (int l = 0; l < r->fit.n; l++) {
            const vb_band_row *b =
                r->kind == VB_PLAN_RANDOM ? find_band(s, r->integ, l, VB_NORM_POS_MAX) : NULL;
            /* an adaptive method's points are tolerances on frames of dt */
            int adaptive = vb_adaptive(s->c->integ[r->integ]);
            fprintf(f, "%s,%s,%d,%.17g,%.17g", s->c->integ[r->integ]->name, vb_plan_name(r->kind),
                    l, adaptive ? s->c->dt : r->dt[l], r->err[l]);
            num(f, b ? b->p10 : r->err[l]);
            num(f, b ? b->p90 : r->err[l]);
            num(f, mean_evals(s, r->integ, r->kind, l));
            fputc(',', f);
            order_text(f, r);
            fprintf(f, ",%s,%s,", vb_verdict_name(r->verdict),
                    same_name(s, s->same_as[r->integ * VB_N_PLANS + r->kind]));
            /* 0 for a method of fixed steps: gnuplot misreads an empty last field */
            fprintf(f, "%.17g\n", adaptive ? r->dt[l] : 0.0);
        }
    }
}

static void write_timeseries(const vb_sweep *s, FILE *f)
{
    const vb_series_set *set = &s->series;
    fprintf(f, "# long run: %g x t_end; each row is the maximum over one of %d equal windows\n",
            set->periods, VB_SERIES_WINDOWS);
    fprintf(f, "integrator,plan,dt,t,err_pos%s,same_as%s%s\n",
            set->has_energy ? ",err_energy" : "", set->has_energy ? ",energy_same_as" : "",
            set->has_constraint ? ",err_constraint" : "");
    for (size_t k = 0; k < set->n_series; k++) {
        const vb_series_row *r = &set->series[k];
        for (size_t i = 0; i < r->n; i++) {
            /* ten digits: chart data, far finer than a pixel; keeps the files small */
            fprintf(f, "%s,%s,%.10g,%.10g,%.10g", s->c->integ[r->integ]->name,
                    vb_plan_name(r->kind), r->dt, r->t[i], r->err_pos[i]);
            if (set->has_energy)
                fprintf(f, ",%.10g", r->err_energy[i]);
            fprintf(f, ",%s", same_name(s, r->same_pos_as));
            if (set->has_energy)
                fprintf(f, ",%s", same_name(s, r->same_energy_as));
            if (set->has_constraint)
                fprintf(f, ",%.10g", r->err_constraint[i]);
            fputc('\n', f);
        }
    }
}

/* one row per point and body, the bodies of one integrator and plan one
 * after another (each body's path contiguous, for the charts) */
static void write_paths(const vb_sweep *s, FILE *f)
{
    static const char *const axis[] = {"x", "y", "z"};
    const vb_model *m = &s->c->model;
    unsigned dim = m->type->dim;
    fputs("integrator,plan,dt,t", f);
    for (unsigned d = 0; d < dim; d++)
        fprintf(f, ",%s", axis[d]);
    fputs(",body\n", f);
    for (size_t k = 0; k < s->series.n_paths; k++) {
        const vb_path_row *r = &s->series.paths[k];
        const char *name = r->integ == VB_PATH_EXACT ? "exact" : s->c->integ[r->integ]->name;
        const char *plan = r->integ == VB_PATH_EXACT ? "exact" : vb_plan_name(r->kind);
        for (size_t b = 0; b < m->particles; b++)
            for (size_t i = 0; i < r->n; i++) {
                fprintf(f, "%s,%s,%.10g,%.10g", name, plan, r->dt, r->t[i]);
                for (unsigned d = 0; d < dim; d++)
                    fprintf(f, ",%.10g", r->x[i * m->n + b * dim + d]);
                fprintf(f, ",%zu\n", b + 1);
            }
    }
}

/* timing.csv (run --timing): each run's wall time beside its work and
 * error; machine-dependent, so no other file holds a time */
static void write_timing(const vb_sweep *s, FILE *f)
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

/* ---- shard.csv ------------------------------------------------------------- */

#define SHARD_COLUMNS                                                                          \
    "job,integrator,plan,level,seed,status,steps,force_evals,fail_step,has_energy,has_angmom,"  \
    "has_momentum,has_return,has_reference,has_constraint,dt,t_end,err_pos_final,err_pos_max," \
    "err_pos_rms,err_vel_final,err_vel_max,err_energy_max,err_angmom_max,err_momentum_max,"    \
    "err_return,pos_scale,vel_scale,ref_err_pos,ref_err_vel,ref_bad_force_t,err_constraint_max," \
    "failure"

/* the doubles of a result, in SHARD_COLUMNS' order from dt on */
#define N_SHARD_DOUBLES 17
static double *shard_double(vb_run_result *r, int i)
{
    double *const p[N_SHARD_DOUBLES] = {
        &r->dt,            &r->t_end,          &r->err_pos_final, &r->err_pos_max,
        &r->err_pos_rms,   &r->err_vel_final,  &r->err_vel_max,   &r->err_energy_max,
        &r->err_angmom_max, &r->err_momentum_max, &r->err_return,  &r->pos_scale,
        &r->vel_scale,     &r->ref_err_pos,    &r->ref_err_vel,   &r->ref_bad_force_t,
        &r->err_constraint_max};
    return p[i];
}
/* the flags and counts before the doubles */
#define N_SHARD_COUNTS 9
/* the fields of a row: job, integrator, plan, level, seed, status, the
 * counts, the doubles, and the failure text of a run a plugin's worker
 * failed (percent-encoded: it may hold a comma), empty for any other */
#define N_SHARD_FIELDS (6 + N_SHARD_COUNTS + N_SHARD_DOUBLES + 1)

static void put_failure(FILE *f, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        if (*c < 0x20 || *c == 0x7f || *c == ',' || *c == '%')
            fprintf(f, "%%%02X", *c);
        else
            fputc(*c, f);
}

/* decode put_failure's text in place: 0, or -1 (not such text) */
static int get_failure(char *text)
{
    char *out = text;
    for (const char *c = text; *c; c++) {
        if (*c != '%') {
            *out++ = *c;
            continue;
        }
        unsigned v;
        if (!isxdigit((unsigned char)c[1]) || !isxdigit((unsigned char)c[2]) ||
            sscanf(c + 1, "%2x", &v) != 1 || v == 0)
            return -1;
        *out++ = (char)v;
        c += 2;
    }
    *out = '\0';
    return 0;
}

/* What the results depend on beyond the version and the case's
 * parameters (the provenance), by content: this build (vb_build_id: two
 * -dirty builds of one commit share a version), the trace's steps (FNV-1a
 * over their bytes: the provenance names the trace by path and length
 * only), and every plugin the case's integrators and model come from
 * (its file's name and content hash: two builds of a plugin share their
 * names).  A shard must not be merged with shards or a merge that differ
 * in any of them. */
#define SHARD_INPUTS_MAX 2048
static void shard_inputs(const vb_case *c, char *buf, size_t len)
{
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; c->trace_path && i < c->trace.n; i++) {
        unsigned char b[sizeof(double)];
        memcpy(b, &c->trace.h[i], sizeof b);
        for (size_t j = 0; j < sizeof b; j++)
            h = (h ^ b[j]) * 1099511628211ULL;
    }
    int w = snprintf(buf, len, "# inputs: build %s trace fnv1a=%016llx", vb_build_id(),
                     c->trace_path ? h : 0ULL);
    size_t used = w > 0 ? (size_t)w : 0;
    /* each plugin once, in the order the case first names it */
    const char *seen[64];
    size_t n_seen = 0;
    for (size_t i = 0; i <= c->n_integ && used < len; i++) {
        unsigned long long ph = 0;
        const char *file = i < c->n_integ
                               ? vb_plugin_of_integrator(vb_integrator_type(c->integ[i])->name, &ph)
                               : vb_plugin_of_model(c->model.type->name, &ph);
        size_t k = 0;
        while (file && k < n_seen && strcmp(seen[k], file) != 0)
            k++;
        if (!file || k < n_seen || n_seen == sizeof seen / sizeof seen[0])
            continue;
        seen[n_seen++] = file;
        w = snprintf(buf + used, len - used, " plugin %s fnv1a=%016llx", file, ph);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* which of the inputs differ, for the message */
static const char *inputs_differ(const char *got, const char *want)
{
    const char *tg = strstr(got, " trace "), *tw = strstr(want, " trace ");
    if (!tg || !tw || (size_t)(tg - got) != (size_t)(tw - want) ||
        strncmp(got, want, (size_t)(tg - got)) != 0)
        return "made by another build of verletbench (another source or compile command, "
               "however alike their versions)";
    const char *pg = strstr(tg, " plugin "), *pw = strstr(tw, " plugin ");
    size_t lg = pg ? (size_t)(pg - tg) : strlen(tg), lw = pw ? (size_t)(pw - tw) : strlen(tw);
    if (lg != lw || strncmp(tg, tw, lg) != 0)
        return "the trace changed since the shard was made";
    return "made with another build of a plugin, or other plugins (give merge the --plugin "
           "files the shards were run with)";
}

static void shard_what(char *buf, size_t len, int k, int n)
{
    snprintf(buf, len, "shard %d/%d of the runs", k, n);
}

/* Every run of this shard, every field exact: doubles as C99 hex floats,
 * which strtod reads back to the bit. */
void vb_sweep_write_shard(const vb_sweep *s, FILE *f)
{
    char what[64];
    shard_what(what, sizeof what, s->shard_k, s->shard_n);
    provenance(f, s, what);
    /* where the case came in the run's command line: the merge writes
     * DIR/summary.md in that order, as the run would */
    fprintf(f, "# order=%d/%d\n", s->order_i, s->order_m);
    char inputs[SHARD_INPUTS_MAX];
    shard_inputs(s->c, inputs, sizeof inputs);
    fprintf(f, "%s\n", inputs);
    fputs(SHARD_COLUMNS "\n", f);
    for (size_t k = 0; k < s->n_jobs; k++) {
        if (vb_sweep_job_shard(s, k) != s->shard_k)
            continue;
        const vb_sweep_job *j = &s->jobs[k];
        vb_run_result r = j->res;
        fprintf(f, "%zu,%s,%s,%d,%lu,%s,%llu,%llu,%llu,%d,%d,%d,%d,%d,%d", k,
                s->c->integ[j->integ]->name, vb_plan_name(j->kind), j->level, j->seed,
                vb_status_name(r.status), r.steps, r.force_evals, r.fail_step, r.has_energy,
                r.has_angmom, r.has_momentum, r.has_return, r.has_reference, r.has_constraint);
        for (int i = 0; i < N_SHARD_DOUBLES; i++)
            fprintf(f, ",%a", *shard_double(&r, i));
        fputc(',', f);
        if (r.status == VB_STATUS_PLUGIN_FAILED)
            put_failure(f, vb_run_failure(&r));
        fputc('\n', f);
    }
}

static int parse_ull(const char *t, unsigned long long *v)
{
    char *end;
    errno = 0;
    *v = strtoull(t, &end, 10);
    return errno || end == t || *end || *t == '-' ? -1 : 0;
}

/* what run writes of each job whatever its method did (vb_run_frame),
 * found as it is needed */
typedef struct {
    int known;
    vb_run_result r; /* status ok, every error 0 */
} shard_frame;

/* the name of column i of SHARD_COLUMNS */
static void shard_column(int i, char *buf, size_t len)
{
    const char *p = SHARD_COLUMNS;
    for (int k = 0; k < i && p; k++)
        if ((p = strchr(p, ',')))
            p++;
    size_t n = p ? strcspn(p, ",") : 0;
    snprintf(buf, len, "%.*s", (int)n, p ? p : "");
}

/* Hold a row's result to what `run` could have written for its job (want:
 * vb_run_frame's): the plan's dt, t_end and step count, the case's has_*;
 * an ok run finished every step with errors that are finite numbers >= 0
 * (0 where they do not apply) and no fail_step; a run that did not finish
 * stopped at a step of the plan (fail_step) with every error inf
 * (docs/method.md §4).  0, or -1 with "column NAME: ..." in why. */
static int shard_result_check(const vb_run_result *r, const vb_run_result *want, char *why,
                              size_t whylen)
{
    char col[32];
    /* the counts after status: steps, force_evals, fail_step, has_* */
    const unsigned long long got_u[] = {r->steps, r->fail_step, (unsigned long long)r->has_energy,
                                        (unsigned long long)r->has_angmom,
                                        (unsigned long long)r->has_momentum,
                                        (unsigned long long)r->has_return,
                                        (unsigned long long)r->has_reference,
                                        (unsigned long long)r->has_constraint};
    const unsigned long long want_u[] = {
        want->steps, r->status == VB_STATUS_OK ? 0 : r->steps,
        (unsigned long long)want->has_energy, (unsigned long long)want->has_angmom,
        (unsigned long long)want->has_momentum, (unsigned long long)want->has_return,
        (unsigned long long)want->has_reference, (unsigned long long)want->has_constraint};
    const int col_u[] = {6, 8, 9, 10, 11, 12, 13, 14};
    for (int i = 0; i < 8; i++) {
        if (i == 0 && r->status != VB_STATUS_OK) {
            /* a run a plugin's worker failed took no step this process saw */
            if (r->status == VB_STATUS_PLUGIN_FAILED ? r->steps == 0
                                                     : r->steps >= 1 && r->steps <= want->steps)
                continue;
            shard_column(col_u[i], col, sizeof col);
            if (r->status == VB_STATUS_PLUGIN_FAILED)
                snprintf(why, whylen, "column %s: %llu: a plugin-failed run took no step", col,
                         r->steps);
            else
                snprintf(why, whylen, "column %s: %llu: a run that stopped (%s) stopped at a "
                                      "step of its plan, 1 to %llu",
                         col, r->steps, vb_status_name(r->status), want->steps);
            return -1;
        }
        if (got_u[i] != want_u[i]) {
            shard_column(col_u[i], col, sizeof col);
            snprintf(why, whylen, "column %s: %llu, where run writes %llu for this %s run of "
                                  "this case",
                     col, got_u[i], want_u[i], vb_status_name(r->status));
            return -1;
        }
    }
    /* the doubles, from dt on */
    for (int i = 0; i < N_SHARD_DOUBLES; i++) {
        double x = *shard_double((vb_run_result *)r, i);
        double w = *shard_double((vb_run_result *)want, i);
        const char *want_text = NULL;
        char buf[96];
        if (i < 2) { /* dt, t_end: the plan's */
            if (!(x == w)) {
                snprintf(buf, sizeof buf, "%a, the plan's", w);
                want_text = buf;
            }
        } else if (i == 11 || i == 12) { /* pos_scale, vel_scale: of the exact solution */
            if (!(isfinite(x) && x >= 0.0))
                want_text = "a finite number >= 0 (the exact solution's largest size)";
        } else if (i == 13 || i == 14) { /* ref_err_pos, ref_err_vel */
            if (!(isfinite(x) && x >= 0.0 && (r->has_reference || x == 0.0)))
                want_text = r->has_reference ? "a finite number >= 0 (the reference's error)"
                                             : "0 (the case has an exact solution)";
        } else if (i == 15) { /* ref_bad_force_t: a time, or NaN */
            if (!(isnan(x) || (isfinite(x) && x >= 0.0)))
                want_text = "a time >= 0, or NaN";
        } else if (r->status != VB_STATUS_OK) {
            if (!(isinf(x) && x > 0.0))
                want_text = "inf (the errors of a run that did not finish)";
        } else if (!(isfinite(x) && x >= 0.0)) {
            want_text = "a finite number >= 0 (an ok run's error)";
        } else if (x != 0.0 &&
                   ((i == 7 && !r->has_energy) || (i == 8 && !r->has_angmom) ||
                    (i == 9 && !r->has_momentum) || (i == 10 && !r->has_return) ||
                    (i == 16 && !r->has_constraint))) {
            want_text = "0 (the case does not measure it)";
        }
        if (want_text) {
            shard_column(6 + N_SHARD_COUNTS + i, col, sizeof col);
            snprintf(why, whylen, "column %s: %a is not what run writes for this %s run: %s",
                     col, x, vb_status_name(r->status), want_text);
            return -1;
        }
    }
    return 0;
}

/* one row into its job; 0, or -1 with a message (frames: what run writes
 * of each job, filled as they are needed) */
static int shard_row(vb_sweep *s, int k, char *line, shard_frame *frames, char *why,
                     size_t whylen)
{
    char *field[64];
    int nf = 0;
    for (char *p = line; nf < 64;) {
        field[nf++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    if (nf != N_SHARD_FIELDS) {
        snprintf(why, whylen, "%d fields, want %d", nf, N_SHARD_FIELDS);
        return -1;
    }
    unsigned long long job, u[N_SHARD_COUNTS];
    if (parse_ull(field[0], &job) != 0 || job >= s->n_jobs) {
        snprintf(why, whylen, "job '%.40s' is not one of this case's %zu runs", field[0],
                 s->n_jobs);
        return -1;
    }
    vb_sweep_job *j = &s->jobs[job];
    if (vb_sweep_job_shard(s, (size_t)job) != k) {
        snprintf(why, whylen, "run %llu belongs to shard %d/%d, not %d", job,
                 vb_sweep_job_shard(s, (size_t)job), s->shard_n, k);
        return -1;
    }
    char seed[32], level[16];
    snprintf(seed, sizeof seed, "%lu", j->seed);
    snprintf(level, sizeof level, "%d", j->level);
    if (strcmp(field[1], s->c->integ[j->integ]->name) || strcmp(field[2], vb_plan_name(j->kind)) ||
        strcmp(field[3], level) || strcmp(field[4], seed)) {
        snprintf(why, whylen, "run %llu is %s %s level %s seed %s here, not %.40s %.20s %.10s %.20s",
                 job, s->c->integ[j->integ]->name, vb_plan_name(j->kind), level, seed, field[1],
                 field[2], field[3], field[4]);
        return -1;
    }
    if (j->loaded) {
        snprintf(why, whylen, "run %llu appears twice", job);
        return -1;
    }
    vb_run_result r;
    memset(&r, 0, sizeof r);
    int st = -1;
    for (int v = VB_STATUS_OK; v <= VB_STATUS_PLUGIN_FAILED; v++)
        if (!strcmp(field[5], vb_status_name((vb_status)v)))
            st = v;
    char col[32];
    for (int i = 0; i < N_SHARD_COUNTS; i++)
        if (parse_ull(field[6 + i], &u[i]) != 0 || (i >= 3 && u[i] > 1)) {
            shard_column(6 + i, col, sizeof col);
            snprintf(why, whylen, "column %s: '%.40s' is not a %s", col, field[6 + i],
                     i >= 3 ? "flag (0 or 1)" : "count");
            return -1;
        }
    if (st < 0 || st == VB_STATUS_ENGINE_FAILED) {
        snprintf(why, whylen, "column status: '%.40s' (want ok, diverged, exact-failed or "
                              "plugin-failed)",
                 field[5]);
        return -1;
    }
    r.status = (vb_status)st;
    r.steps = u[0];
    r.force_evals = u[1];
    r.fail_step = u[2];
    r.has_energy = (int)u[3];
    r.has_angmom = (int)u[4];
    r.has_momentum = (int)u[5];
    r.has_return = (int)u[6];
    r.has_reference = (int)u[7];
    r.has_constraint = (int)u[8];
    for (int i = 0; i < N_SHARD_DOUBLES; i++) {
        char *end, *fd = field[6 + N_SHARD_COUNTS + i];
        *shard_double(&r, i) = strtod(fd, &end);
        if (end == fd || *end) {
            shard_column(6 + N_SHARD_COUNTS + i, col, sizeof col);
            snprintf(why, whylen, "column %s: '%.40s' is not a number", col, fd);
            return -1;
        }
    }
    /* the jobs of one task share a plan: every integrator's but the
     * adaptive ones', which share the frames of its level 0 */
    size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 1;
    shard_frame *fr = &frames[((size_t)job % per) * 2 + (size_t)vb_adaptive(s->c->integ[j->integ])];
    if (!fr->known && vb_run_frame(&s->c->model, &j->plan, &fr->r) != 0) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    fr->known = 1;
    if (shard_result_check(&r, &fr->r, why, whylen) != 0)
        return -1;
    /* why a plugin's worker failed the run, and nothing for any other */
    char *text = field[N_SHARD_FIELDS - 1];
    int plug = r.status == VB_STATUS_PLUGIN_FAILED;
    if (plug != (text[0] != '\0') || get_failure(text) != 0) {
        snprintf(why, whylen, "column failure: '%.60s': %s", text,
                 !plug ? "empty unless the run is plugin-failed"
                       : !text[0] ? "a plugin-failed run says why"
                                  : "not percent-encoded text");
        return -1;
    }
    if (plug && !(r.failure = strdup(text))) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    j->res = r;
    j->loaded = 1;
    return 0;
}

int vb_sweep_read_shard(vb_sweep *s, int k, int n, const char *path, size_t *filled,
                        int *order_i, int *order_m, char *err, size_t errlen)
{
    /* what this build writes for this case and shard, '#' lines only */
    char *want = NULL, what[64];
    size_t want_len = 0;
    FILE *mem = open_memstream(&want, &want_len);
    if (!mem) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int keep_k = s->shard_k;
    s->shard_k = k;
    shard_what(what, sizeof what, k, n);
    provenance(mem, s, what);
    s->shard_k = keep_k;
    fclose(mem);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        free(want);
        return VB_SWEEP_USAGE;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    unsigned long no = 0;
    const char *w = want;
    int rc = 0, header = 0, inputs_seen = 0;
    char why[256];
    size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 1;
    shard_frame *frames = calloc(2 * per, sizeof *frames);
    if (!frames) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    while (rc == 0 && (got = getline(&line, &cap, f)) >= 0) {
        no++;
        if (got > 0 && line[got - 1] == '\n')
            line[--got] = '\0';
        if (!header && sscanf(line, "# order=%d/%d", order_i, order_m) == 2)
            continue;
        if (!header && !strncmp(line, "# inputs:", 9)) {
            char now[SHARD_INPUTS_MAX];
            shard_inputs(s->c, now, sizeof now);
            if (strcmp(line, now) != 0) {
                snprintf(err, errlen, "%s:%lu: '%.300s', where this verletbench, %s's trace "
                                      "%s and the plugins loaded give '%.300s': %s",
                         path, no, line, s->c->path,
                         s->c->trace_path ? s->c->trace_path : "(none)", now,
                         inputs_differ(line, now));
                rc = VB_SWEEP_USAGE;
            }
            inputs_seen = 1;
            continue;
        }
        if (line[0] == '#') {
            /* the truth line says the reference's error over the runs
             * of this shard: the merge states it over all of them */
            if (!strncmp(line, "# truth:", 8))
                continue;
            size_t wl = strcspn(w, "\n");
            while (!strncmp(w, "# truth:", 8)) {
                w += wl + (w[wl] == '\n');
                wl = strcspn(w, "\n");
            }
            if (header || strlen(line) != wl || strncmp(line, w, wl) != 0) {
                snprintf(err, errlen,
                         "%s:%lu: made by another version or from other parameters: '%.200s', "
                         "where this verletbench and %s give '%.*s'",
                         path, no, line, s->c->path, (int)(wl > 200 ? 200 : wl), w);
                rc = VB_SWEEP_USAGE;
            }
            w += wl + (w[wl] == '\n');
            continue;
        }
        if (!header) {
            header = 1;
            while (!strncmp(w, "# truth:", 8)) {
                size_t wl = strcspn(w, "\n");
                w += wl + (w[wl] == '\n');
            }
            if (*w) {
                snprintf(err, errlen, "%s:%lu: '#' lines missing before the header: want '%.200s'",
                         path, no, w);
                rc = VB_SWEEP_USAGE;
            } else if (strcmp(line, SHARD_COLUMNS) != 0) {
                snprintf(err, errlen, "%s:%lu: not the columns of a shard", path, no);
                rc = VB_SWEEP_USAGE;
            }
            continue;
        }
        if (shard_row(s, k, line, frames, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s:%lu: %s", path, no, why);
            rc = VB_SWEEP_USAGE;
        } else {
            (*filled)++;
        }
    }
    if (rc == 0 && !header) {
        snprintf(err, errlen, "%s: no header: an empty or cut shard", path);
        rc = VB_SWEEP_USAGE;
    }
    if (rc == 0 && !inputs_seen) {
        snprintf(err, errlen, "%s: no '# inputs:' line: not a whole shard", path);
        rc = VB_SWEEP_USAGE;
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        rc = -1;
    }
    free(frames);
    free(line);
    free(want);
    fclose(f);
    return rc;
}

/* Every file of a case: name, what the provenance line says it holds (NULL:
 * no provenance, the summary is Markdown), the writer, and which it is. */
enum { TABLE, CHART_DATA, TIMING, SHARD };
static const struct {
    const char *file, *what;
    writer_fn *body;
    int chart;
} files[] = {
    {"runs.csv", "runs", write_runs, 0},
    {"orders.csv", "fitted orders", write_orders, 0},
    {"bands.csv", "random-plan medians and p10-p90 bands", write_bands, 0},
    {"onestep.csv", "one-step errors", write_onestep, 0},
    {"onestep_orders.csv", "one-step error exponents", write_onestep_orders, 0},
    {"reverse.csv", "time-reversal errors", write_reverse, 0},
    {"summary.md", NULL, write_summary, 0},
    {"convergence.csv", "chart data: max position error against dt", write_convergence, 1},
    {"timeseries.csv",
     "chart data: position and energy errors over time (window maxima), coarsest dt",
     write_timeseries, 1},
    {"paths.csv", "chart data: paths over t_end at the coarsest dt", write_paths, 1},
    {"timing.csv", "wall time of runs (this machine)", write_timing, TIMING},
    {"shard.csv", NULL, vb_sweep_write_shard, SHARD},
};

/* does this sweep write file k? */
static int writes(const vb_sweep *s, size_t k)
{
    /* a shard writes its runs and nothing that needs them all */
    if (files[k].chart == SHARD || s->shard_n)
        return files[k].chart == SHARD && s->shard_n;
    if (files[k].chart == TIMING)
        return s->timed;
    return !(files[k].chart == CHART_DATA && s->tables_only);
}

int vb_sweep_file_name(const char *name)
{
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strcmp(name, files[i].file) == 0)
            return 1;
    return 0;
}
#define N_FILES (sizeof files / sizeof files[0])

/* file k of sweep s, for vb_casedir_write_file */
struct one {
    const vb_sweep *s;
    size_t k;
};

static void write_one(const void *ctx, FILE *f)
{
    const struct one *o = ctx;
    if (files[o->k].what)
        provenance(f, o->s, files[o->k].what);
    files[o->k].body(o->s, f);
}

int vb_sweep_write(const vb_sweep *s, const char *dir, char *err, size_t errlen)
{
    for (size_t k = 0; k < N_FILES; k++) {
        if (!writes(s, k))
            continue;
        struct one ctx = {s, k};
        if (vb_casedir_write_file(dir, files[k].file, write_one, &ctx, err, errlen) != 0)
            return -1;
    }
    return 0;
}

int vb_sweep_write_all(const vb_outdir *o, const vb_sweep *sweeps, size_t n,
                       const vb_grid *grids, size_t n_grids, char *err, size_t errlen)
{
    size_t all = n + n_grids;
    vb_casedir *cd = calloc(all ? all : 1, sizeof *cd);
    if (!cd) {
        snprintf(err, errlen, "out of memory");
        return VB_OUTDIR_FAIL;
    }
    int rc = 0;
    size_t begun = 0;
    for (; begun < all && rc == 0; begun++) {
        const char *name = begun < n ? sweeps[begun].c->name : grids[begun - n].first->grid->name;
        rc = vb_casedir_begin(o, name, &cd[begun], err, errlen);
        if (rc == 0 && (begun < n ? vb_sweep_write(&sweeps[begun], cd[begun].tmp, err, errlen)
                                  : vb_grid_write(&grids[begun - n], cd[begun].tmp, err,
                                                  errlen)) != 0)
            rc = VB_OUTDIR_FAIL;
        if (rc != 0)
            break;
    }
    if (rc != 0) {
        for (size_t i = 0; i <= begun && i < all; i++)
            vb_casedir_abort(&cd[i]);
        free(cd);
        return rc;
    }
    for (size_t i = 0; i < all; i++)
        if (rc == 0)
            rc = vb_casedir_commit(&cd[i], err, errlen);
        else
            vb_casedir_abort(&cd[i]);
    free(cd);
    return rc;
}

int vb_sweep_table_text(const vb_sweep *s, const char *file, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    for (size_t k = 0; k < N_FILES; k++) {
        if (strcmp(files[k].file, file) != 0 || !writes(s, k))
            continue;
        FILE *f = open_memstream(text, len);
        if (!f)
            return -1;
        struct one ctx = {s, k};
        write_one(&ctx, f);
        int failed = ferror(f);
        if (fclose(f) != 0 || failed) {
            free(*text);
            *text = NULL;
            return -1;
        }
        return 0;
    }
    return -1;
}

/* ---- the summary table ---------------------------------------------------- */

static const vb_order_row *find_order(const vb_sweep *s, size_t integ, vb_plan_kind kind,
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

/* same: the integrator whose positions this one's equal in every run of
 * the plan, to round-off, or NULL; label: the order the verdict is against */
static void order_cell(FILE *f, const vb_order_row *r, int label, const char *same)
{
    if (!r) {
        fputs(" |", f);
        return;
    }
    if (r->verdict == VB_VERDICT_EXACT)
        fputs(" exact", f);
    else if (r->verdict == VB_VERDICT_UNDETERMINED)
        fputs(" undetermined", f);
    else if (r->fit.range == VB_RANGE_ASYMPTOTIC && isfinite(r->fit.order_ci95))
        fprintf(f, " %.2f ± %.2f %s", shown(r->fit.order), r->fit.order_ci95,
                vb_verdict_name(r->verdict));
    else
        fprintf(f, " %.2f%s %s", shown(r->fit.order), r->fit.range == VB_RANGE_ALL ? "*" : "",
                vb_verdict_name(r->verdict));
    settle_note(f, r, label);
    if (same)
        fprintf(f, ", = `%s`", same);
    fputs(" |", f);
}

static const char *same_as_name(const vb_sweep *s, size_t i, vb_plan_kind kind)
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
        fprintf(f, " %.2f |", shown(fit->order));
    else
        fputs(" – |", f);
}

void vb_sweep_summary(const vb_sweep *s, FILE *f)
{
    const vb_case *c = s->c;
    const vb_model *m = &c->model;
    int has_random = c->jitter > 0.0, has_trace = c->trace_path != NULL;
    int has_energy = m->type->energy != NULL;
    int has_rods = vb_model_constrained(m);
    fprintf(f, "## %s\n\n", c->name);
    if (c->description)
        fprintf(f, "%s\n\n", c->description);
    if (c->grid)
        fprintf(f, "`%s` at `%s` (point %zu of %zu of its grid, `%s`): model `%s` (", c->path,
                c->grid->label, c->grid->point + 1, c->grid->points, c->grid->name,
                m->type->name);
    else
        fprintf(f, "`%s`: model `%s` (", c->path, m->type->name);
    for (unsigned i = 0; i < m->type->n_params; i++)
        fprintf(f, "%s%s=%g", i ? " " : "", m->type->params[i].name, m->p[i]);
    fprintf(f, "), t_end = %g; dt = %g down to %g (%d step sizes)", c->t_end, c->dt,
            ldexp(c->dt, 1 - c->halvings), c->halvings);
    if (has_random)
        fprintf(f, "; random steps dt·(1 ± %g), %d seeds", c->jitter, c->seeds);
    if (has_trace)
        fprintf(f, "; trace `%s` (%zu steps)", c->trace_path, c->trace.n);
    int has_adaptive = 0;
    for (size_t i = 0; i < c->n_integ; i++)
        has_adaptive |= vb_adaptive(c->integ[i]);
    if (has_adaptive)
        fprintf(f, "; adaptive integrators on the frames of dt = %g, tolerance %g down to %g, "
                   "their order the exponent of the error against the tolerance",
                c->dt, vb_sweep_tolerance(c, 0), vb_sweep_tolerance(c, c->halvings - 1));
    fputs(".\n\n", f);

    fputs("Fitted order of the position error (`err_pos_max`) and its verdict against the "
          "label; ",
          f);
    if (has_energy)
        fputs("the energy error's order with fixed steps; ", f);
    if (has_rods)
        fputs("how far the rods are off their lengths (the largest |length − L| of a run, "
              "`err_constraint_max`) with fixed steps at the coarsest and at the finest dt; ",
              f);
    fprintf(f, "the exponent p of the one-step position error ~ h^p from exact data (h' = h, "
               "and a changing step h' = 1.5 h)");
    if (s->n_reverse)
        fputs("; and whether a run retraces itself backwards (fixed steps / random steps)", f);
    fputs(". ± is the 95 % interval of a fitted order (Student's t, points − 2 degrees of "
          "freedom); an order more than 0.25 from its label whose interval still reaches within "
          "0.25 of it is uncertain rather than below or above, and \"(+k halvings)\" says how "
          "many more halvings would settle it if each added a point on the same line with the "
          "same scatter (\"not by halving\": the fit ends before the finest step). An order "
          "marked * is a trend "
          "over all points: no step sizes showed a "
          "single power law, so it is not compared with the label; its verdict says whether "
          "the error still falls at the finest steps (no-asymptotic-range) or not "
          "(not-converging). \"= `name`\": the same position errors as `name` in every run "
          "of that plan, to round-off (within 16·ε·N^1.5 of the size of the positions, N steps, "
          "and within 10⁻³ of the errors themselves), as two methods that compute the same "
          "positions have (docs/method.md §2).\n\n"
          "| integrator | label | fixed |",
          f);
    if (has_random)
        fputs(" random (median) |", f);
    if (has_trace)
        fputs(" trace |", f);
    if (has_energy)
        fputs(" energy, fixed |", f);
    if (has_rods)
        fputs(" rods off, fixed: coarsest / finest dt |", f);
    fputs(" one-step p, h'=h | one-step p, h'=1.5h |", f);
    if (s->n_reverse)
        fputs(" reversible |", f);
    fputs("\n|---|---|---|", f);
    for (int k = 0; k < has_random + has_trace + has_energy + has_rods + 2 + (s->n_reverse > 0);
         k++)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t i = 0; i < c->n_integ; i++) {
        fprintf(f, "| `%s` | %d |", c->integ[i]->name, c->integ[i]->order);
        order_cell(f, find_order(s, i, VB_PLAN_FIXED, VB_NORM_POS_MAX), c->integ[i]->order,
                   same_as_name(s, i, VB_PLAN_FIXED));
        if (has_random)
            order_cell(f, find_order(s, i, VB_PLAN_RANDOM, VB_NORM_POS_MAX), c->integ[i]->order,
                       same_as_name(s, i, VB_PLAN_RANDOM));
        if (has_trace)
            order_cell(f, find_order(s, i, VB_PLAN_TRACE, VB_NORM_POS_MAX), c->integ[i]->order,
                       same_as_name(s, i, VB_PLAN_TRACE));
        if (has_energy)
            order_cell(f, find_order(s, i, VB_PLAN_FIXED, VB_NORM_ENERGY_MAX), c->integ[i]->order,
                       NULL);
        if (has_rods)
            drift_cell(f, find_order(s, i, VB_PLAN_FIXED, VB_NORM_CONSTRAINT_MAX));
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
                        fixed = s->reverse[k].reversible ? "yes" : "no";
                    if (s->reverse[k].kind == VB_PLAN_RANDOM)
                        rnd = s->reverse[k].reversible ? "yes" : "no";
                }
            fprintf(f, " %s / %s |", fixed, rnd);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}
