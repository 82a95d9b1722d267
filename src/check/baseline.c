/* baseline.c — a baseline's runs.csv read back (its table: csvtable.c):
 * every cell held to what the writer prints there (output/runs_table.c),
 * the rows sorted by what identifies them (orders.csv's: baseline_orders.c).
 * A table that cannot be read as such is refused, never taken as "nothing
 * got worse". */
#include "baseline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "truth.h"

/* ---- runs ---- */

/* A metric's cells are filled where the writer fills them (vb_filled,
 * runs_table.c): a metric blank where it is always printed is damage, not
 * a metric the case lacks: a baseline blanked in a whole column would
 * otherwise compare nothing there. */

int vb_check_metric_index(const char *name)
{
    for (int m = 0; m < vb_check_metrics(); m++)
        if (!strcmp(vb_check_metric(m), name))
            return m;
    return -1;
}

static int by_run_key(const void *a, const void *b)
{
    const vb_run_rec *x = a, *y = b;
    int c = strcmp(x->integ, y->integ);
    if (!c)
        c = strcmp(x->plan, y->plan);
    if (!c)
        c = (x->level > y->level) - (x->level < y->level);
    if (!c)
        c = strcmp(x->seed, y->seed);
    return c;
}

/* A table of a case with a frame loop: a row of one (METHOD@LOOP), or its
 * '# integrators=' line naming one. */
static int frame_loop_table(const vb_table *t, int ci)
{
    const char *list = vb_table_integrators(t);
    if (list && strchr(list, '@'))
        return 1;
    for (size_t i = 0; i < t->nrow; i++)
        if (strchr(t->rows[i][ci], '@'))
            return 1;
    return 0;
}

/* col[k]: where the schema's column k is (vb_runs_schema, the writer's
 * every column), -1 for the frame loop's columns of a table without one;
 * every column of the header one of the schema's. */
static int run_header(const vb_table *t, int col[VB_SCHEMA_MAX_COLUMNS], int *loops,
                      int *rigid, char *err, size_t errlen)
{
    const vb_schema *s = &vb_runs_schema;
    int ci;
    if (vb_need_column(t, VB_RUNS_COL(INTEGRATOR), &ci, err, errlen) != 0)
        return VB_COMPARE_BAD;
    *loops = frame_loop_table(t, ci);
    /* a rigid body's table has its view's columns, every one of them */
    *rigid = 0;
    for (size_t k = 0; k < s->n; k++)
        if ((s->col[k].in & VB_RUNS_RIGID) && vb_table_column(t, s->col[k].name) >= 0)
            *rigid = 1;
    for (size_t k = 0; k < s->n; k++) {
        const char *name = s->col[k].name;
        col[k] = vb_table_column(t, name);
        if (s->col[k].in & VB_RUNS_RIGID) {
            if (col[k] < 0 && *rigid)
                return vb_compare_bad(err, errlen,
                                      "%s: no column '%s' in the header, which a rigid body's "
                                      "table has: not a table verletbench wrote",
                                      t->path, name);
            continue;
        }
        int drawn = !vb_column_in(&s->col[k], VB_RUNS_SWEEP); /* a frame loop's */
        if (col[k] < 0 && (!drawn || *loops))
            return vb_compare_bad(
                err, errlen, "%s: no column '%s' in the header: not a table verletbench wrote%s",
                t->path, name, drawn ? " (a case with a frame loop has it)" : "");
        if (col[k] >= 0 && drawn && !*loops)
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: column '%s', which only a case with a frame loop has, "
                                  "but no integrator is one (METHOD@LOOP): not a table "
                                  "verletbench wrote",
                                  t->path, t->head_line, name);
    }
    for (size_t i = 0; i < t->ncol; i++)
        if (vb_schema_find(s, t->head[i]) < 0)
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: column '%.60s' is not one verletbench writes into "
                                  "runs.csv: not a table verletbench wrote",
                                  t->path, t->head_line, t->head[i]);
    return 0;
}

/* What every row of one runs.csv is read against: where its columns are,
 * and what its header and its first row fix for all of its rows.  Made
 * once by read_runs_into; the row readers below only look. */
typedef struct {
    const vb_table *t;
    const int *col;               /* the schema's column k: col[k] (run_header) */
    int n_metrics;                /* vb_check_metrics() */
    int cm[VB_CHECK_METRICS_MAX]; /* metric m's column, -1 where the table has none */
    int m_pos_max, m_draw_max;    /* the metrics a row that is no frame loop's repeats as drawn */
    int loops;                    /* a case with a frame loop (frame_loop_table) */
    int has_ref;                  /* a reference's errors: its first row has them */
    const char *list;             /* '# integrators=', which match.c requires, or NULL */
} runs_reader;

/* Which metrics the table fills (set->has), and each row's no_velocity.  A
 * metric the case measures has its cells filled; one blank cell among
 * filled ones is damage, but for the blanks of an engine that declared
 * velocity=none (its provenance) in the metrics of the velocity: those are
 * told by the first row of another integrator. */
static void runs_filled(const runs_reader *rd, int rigid, vb_run_set *set)
{
    const vb_table *t = rd->t;
    const int ci = rd->col[VB_COL_RUNS_INTEGRATOR];
    size_t first_v = t->nrow;
    for (size_t i = 0; i < t->nrow; i++) {
        set->r[i].no_velocity = vb_table_no_velocity(t, t->rows[i][ci]);
        if (!set->r[i].no_velocity && first_v == t->nrow)
            first_v = i;
    }
    for (int m = 0; m < rd->n_metrics; m++) {
        const vb_column *c = vb_runs_metric((size_t)m);
        size_t row = c->velocity ? first_v : 0;
        set->has[m] = c->filled == VB_FILLED_EVERY   ? row < t->nrow
                      : c->filled == VB_FILLED_DRAWN ? rd->loops
                      : c->filled == VB_FILLED_RIGID ? rigid
                                                     : row < t->nrow && t->rows[row][rd->cm[m]][0];
    }
}

/* Row I's run: who ran it (model, integrator) and under what plan (plan,
 * level, step size, jitter, seed); what identifies it (by_run_key). */
static int read_run_plan(const runs_reader *rd, size_t i, vb_run_rec *r, char *err,
                         size_t errlen)
{
    const vb_table *t = rd->t;
    const int *col = rd->col;
    const int cmod = col[VB_COL_RUNS_MODEL], cl = col[VB_COL_RUNS_LEVEL],
              cs = col[VB_COL_RUNS_SEED], cdt = col[VB_COL_RUNS_DT], cj = col[VB_COL_RUNS_JITTER];
    char **f = t->rows[i];
    unsigned long long count;
    r->line = t->line[i];
    r->model = f[cmod];
    r->integ = f[col[VB_COL_RUNS_INTEGRATOR]];
    r->plan = f[col[VB_COL_RUNS_PLAN]];
    r->seed = f[cs];
    r->status = f[col[VB_COL_RUNS_STATUS]];
    r->dt = f[cdt];
    if (!vb_check_name_valid(r->integ))
        return vb_compare_bad(err, errlen, "%s:%lu: integrator '%.60s' is not an integrator name",
                              t->path, r->line, r->integ);
    if (rd->list && !vb_in_list(rd->list, r->integ))
        return vb_compare_bad(err, errlen,
                              "%s:%lu: integrator %s is not in the header's list "
                              "(# integrators=%.200s)",
                              t->path, r->line, r->integ, rd->list);
    if (!vb_check_name_valid(r->model))
        return vb_table_bad_cell(t, i, cmod, "a model name", err, errlen);
    if (!vb_plan_name_valid(r->plan))
        return vb_compare_bad(err, errlen, "%s:%lu: plan '%.60s' (want fixed, random or trace)",
                              t->path, r->line, r->plan);
    int random = !strcmp(r->plan, "random"), trace = !strcmp(r->plan, "trace");
    if (vb_cell_count(f[cl], &count) != 0 || count > 64)
        return vb_table_bad_cell(t, i, cl, "a step-size level (0 to 64)", err, errlen);
    r->level = (int)count;
    if (vb_cell_number(r->dt, 0, &r->dt_value) != 0 || !(r->dt_value > 0))
        return vb_table_bad_cell(t, i, cdt, "a step size (a finite number > 0)", err, errlen);
    /* jitter: 0 with fixed steps, the case's (> 0) with random ones,
     * blank for a trace; the seed only with random steps */
    r->jitter = NAN;
    if (trace ? f[cj][0] != '\0'
              : vb_cell_number(f[cj], 0, &r->jitter) != 0 || (random ? !(r->jitter > 0)
                                                                   : r->jitter != 0))
        return vb_table_bad_cell(t, i, cj,
                                 trace    ? "blank (a trace plan has no jitter)"
                                 : random ? "a jitter (a finite number > 0)"
                                          : "0 (fixed steps have no jitter)",
                                 err, errlen);
    if (random ? vb_cell_count(r->seed, &count) != 0 : r->seed[0] != '\0')
        return vb_table_bad_cell(
            t, i, cs, random ? "a seed (a count)" : "blank (only random steps have a seed)", err,
            errlen);
    return 0;
}

/* Row I's run as it went: its steps, end time and force evaluations, its
 * status (and the step it failed at), the exact solution's scales and an
 * adaptive method's tolerance. */
static int read_run_course(const runs_reader *rd, size_t i, vb_run_rec *r, char *err,
                           size_t errlen)
{
    const vb_table *t = rd->t;
    const int *col = rd->col;
    const int cn = col[VB_COL_RUNS_STEPS], ct = col[VB_COL_RUNS_T_END],
              cfe = col[VB_COL_RUNS_FORCE_EVALS], cfs = col[VB_COL_RUNS_FAIL_STEP],
              cps = col[VB_COL_RUNS_POS_SCALE], cvs = col[VB_COL_RUNS_VEL_SCALE],
              ctol = col[VB_COL_RUNS_TOL];
    char **f = t->rows[i];
    unsigned long long count;
    if (vb_cell_count(f[cn], &count) != 0)
        return vb_table_bad_cell(t, i, cn, "a count of steps", err, errlen);
    r->steps = (double)count;
    if (vb_cell_number(f[ct], 0, &r->t_end) != 0 || !(r->t_end > 0))
        return vb_table_bad_cell(t, i, ct, "an end time (a finite number > 0)", err, errlen);
    if (vb_cell_count(f[cfe], &count) != 0)
        return vb_table_bad_cell(t, i, cfe, "a count of force evaluations", err, errlen);
    int ok = !strcmp(r->status, "ok");
    if (!ok && strcmp(r->status, "diverged") != 0 && strcmp(r->status, "exact-failed") != 0 &&
        strcmp(r->status, "engine-failed") != 0 && strcmp(r->status, "plugin-failed") != 0)
        return vb_compare_bad(err, errlen,
                              "%s:%lu: status '%.60s' (want ok, diverged, exact-failed, "
                              "engine-failed or plugin-failed)",
                              t->path, r->line, r->status);
    if (ok ? f[cfs][0] != '\0' : vb_cell_count(f[cfs], &count) != 0)
        return vb_table_bad_cell(t, i, cfs,
                                 ok ? "blank (the run's status is ok)"
                                    : "the step it failed at (a count)",
                                 err, errlen);
    if (vb_cell_number(f[cps], 0, &r->pscale) != 0)
        return vb_table_bad_cell(t, i, cps, "a scale (a finite number >= 0)", err, errlen);
    if (vb_cell_number(f[cvs], 0, &r->vscale) != 0)
        return vb_table_bad_cell(t, i, cvs, "a scale (a finite number >= 0)", err, errlen);
    /* an adaptive method's tolerance (the plan's, fixed by the case:
     * match.c holds it to the run made now), blank for any other */
    r->tol = NAN;
    if (f[ctol][0] && (vb_cell_number(f[ctol], 0, &r->tol) != 0 || !(r->tol > 0)))
        return vb_table_bad_cell(t, i, ctol,
                                 "blank, or an adaptive method's tolerance (a finite number > 0)",
                                 err, errlen);
    return 0;
}

/* Row I's errors: the reference's own (a model without an exact solution),
 * every metric the table fills (set->has), and whether the run's error is
 * above what the reference resolves. */
static int read_run_errors(const runs_reader *rd, const vb_run_set *set, size_t i, vb_run_rec *r,
                           char *err, size_t errlen)
{
    const vb_table *t = rd->t;
    const int cres = rd->col[VB_COL_RUNS_RESOLVED];
    const int cref[2] = {rd->col[VB_COL_RUNS_REF_ERR_POS], rd->col[VB_COL_RUNS_REF_ERR_VEL]};
    const int has_ref = rd->has_ref, ok = !strcmp(r->status, "ok");
    char **f = t->rows[i];
    double ref_pos = NAN;
    for (int k = 0; k < 2; k++) {
        double x;
        if (has_ref ? vb_cell_number(f[cref[k]], !ok, &x) != 0 : f[cref[k]][0] != '\0')
            return vb_table_bad_cell(
                t, i, cref[k],
                has_ref ? "a reference's error (a number >= 0; the first row has one)"
                        : "blank (the first row has no reference's error)",
                err, errlen);
        if (k == 0 && has_ref)
            ref_pos = x;
    }
    for (int m = 0; m < rd->n_metrics; m++) {
        const char *c = rd->cm[m] >= 0 ? f[rd->cm[m]] : "";
        r->m[m] = NAN;
        if ((!set->has[m] || (r->no_velocity && vb_check_velocity(m))) && !c[0])
            continue;
        /* a finished run has finite errors; one that did not, inf */
        if (!set->has[m] || vb_cell_number(c, !ok, &r->m[m]) != 0 || (!ok && isfinite(r->m[m])))
            return vb_compare_bad(err, errlen, "%s:%lu: %s = '%.60s': %s", t->path, r->line,
                                  vb_check_metric(m), c,
                                  !set->has[m]
                                      ? "a value in a column that is blank on its first row"
                                  : ok ? "not a finite number >= 0 (the run's status is ok)"
                                       : "a run that did not finish has the error inf");
    }
    /* resolved: whether the error is above what the reference
     * resolves, VB_REF_RESOLUTION times its own (sweep/norms.c) */
    int above = r->m[rd->m_pos_max] > VB_REF_RESOLUTION * ref_pos;
    const char *res = !has_ref ? "" : above ? "yes" : "no";
    if (strcmp(f[cres], res) != 0)
        return vb_table_bad_cell(t, i, cres,
                                 !has_ref ? "blank (no reference solution)"
                                 : above  ? "yes (err_pos_max is over 100 ref_err_pos)"
                                          : "no (err_pos_max is not over 100 ref_err_pos)",
                                 err, errlen);
    return 0;
}

/* Row I's frame loop (a table of a case with one): its time dropped by the
 * clamp, what the frames and physics_dt fix (match.c holds it to the run
 * made now), at most the run's time; 0 on a row that is no frame loop's
 * (an engine's), whose drawn errors are then its errors at the frames. */
static int read_run_frame_loop(const runs_reader *rd, size_t i, vb_run_rec *r, char *err,
                               size_t errlen)
{
    const vb_table *t = rd->t;
    const int clag = rd->col[VB_COL_RUNS_LAG_MAX], m_draw = rd->m_draw_max,
              m_pos = rd->m_pos_max;
    char **f = t->rows[i];
    r->lag = NAN;
    if (!rd->loops)
        return 0;
    int loop_row = strchr(r->integ, '@') != NULL;
    if (vb_cell_number(f[clag], 0, &r->lag) != 0 || !(r->lag <= r->t_end) ||
        (!loop_row && r->lag != 0))
        return vb_table_bad_cell(t, i, clag,
                                 loop_row ? "a frame loop's lag (a time from 0 to t_end)"
                                          : "0 (a row that is no frame loop's)",
                                 err, errlen);
    for (int k = 0; k < 2 && !loop_row; k++)
        if (strcmp(f[rd->cm[m_draw + k]], f[rd->cm[m_pos + k]]) != 0)
            return vb_table_bad_cell(t, i, rd->cm[m_draw + k],
                                     k ? "err_pos_rms (a row that is no frame loop's)"
                                       : "err_pos_max (a row that is no frame loop's)",
                                     err, errlen);
    return 0;
}

/* Read and check every row of a runs.csv; sorted by (integrator, plan,
 * level, seed).  Every cell is held to what the writer prints there
 * (vb_runs_schema, output/runs_table.c): a number where it prints one,
 * blank where it prints nothing, "inf" only among the errors of a run
 * that did not finish. */
static int read_runs_into(const vb_table *t, vb_run_set *set, char *err, size_t errlen)
{
    memset(set, 0, sizeof *set);
    int col[VB_SCHEMA_MAX_COLUMNS], loops, rigid;
    if (run_header(t, col, &loops, &rigid, err, errlen) != 0)
        return VB_COMPARE_BAD;
    runs_reader rd = {.t = t, .col = col, .n_metrics = vb_check_metrics(), .loops = loops};
    for (int m = 0; m < rd.n_metrics; m++)
        rd.cm[m] = col[vb_schema_find(&vb_runs_schema, vb_check_metric(m))];
    rd.m_pos_max = vb_check_metric_index(VB_RUNS_COL(ERR_POS_MAX));
    rd.m_draw_max = vb_check_metric_index(VB_RUNS_COL(ERR_DRAW_MAX));
    if (t->nrow == 0)
        return vb_compare_bad(err, errlen, "%s: no runs, only a header: nothing to compare",
                              t->path);
    set->r = calloc(t->nrow, sizeof *set->r);
    if (!set->r)
        return vb_compare_oom(err, errlen);
    set->n = t->nrow;
    runs_filled(&rd, rigid, set);
    /* a reference solution (a model without an exact one): its own
     * errors, and whether a run's is above what it resolves, on every row */
    rd.has_ref = set->has_ref = t->rows[0][col[VB_COL_RUNS_REF_ERR_POS]][0] != '\0';
    rd.list = vb_table_integrators(t);
    for (size_t i = 0; i < t->nrow; i++) {
        vb_run_rec *r = &set->r[i];
        int rc;
        if ((rc = read_run_plan(&rd, i, r, err, errlen)) != 0 ||
            (rc = read_run_course(&rd, i, r, err, errlen)) != 0 ||
            (rc = read_run_errors(&rd, set, i, r, err, errlen)) != 0 ||
            (rc = read_run_frame_loop(&rd, i, r, err, errlen)) != 0)
            return rc;
    }
    qsort(set->r, set->n, sizeof *set->r, by_run_key);
    for (size_t i = 1; i < set->n; i++)
        if (by_run_key(&set->r[i - 1], &set->r[i]) == 0)
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: the same run as line %lu (%s, %s, level %d, seed '%s')",
                                  t->path, set->r[i].line, set->r[i - 1].line, set->r[i].integ,
                                  set->r[i].plan, set->r[i].level, set->r[i].seed);
    return 0;
}

/* read_runs_into, and nothing left allocated when it fails */
int vb_read_runs(const vb_table *t, vb_run_set *set, char *err, size_t errlen)
{
    int rc = read_runs_into(t, set, err, errlen);
    if (rc != 0) {
        free(set->r);
        set->r = NULL;
    }
    return rc;
}

vb_run_rec *vb_find_run(const vb_run_set *set, const vb_run_rec *key)
{
    return bsearch(key, set->r, set->n, sizeof *set->r, by_run_key);
}
