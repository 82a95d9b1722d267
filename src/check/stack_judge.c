/* stack_judge.c — stacks.csv against the baseline's: each run on a stack
 * of boxes (output/stack_table.c, driver/stackrun.c), read as
 * flips_judge.c reads flips.csv and judged as contact_judge.c judges
 * contact.csv: a measure by its distance from its exact value, which for
 * a stack at rest is 0 (no box moves, none sinks, none has a speed) and
 * for t_collapse blank (it stands for ever).  docs/check.md, "A stack",
 * says why. */
#include "stack_judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casetables.h"
#include "names.h"
#include "runs_table.h"
#include "stack_table.h"

#define S(name) VB_COL_STACK_##name
#define N_COLS ((size_t)VB_STACK_COLUMNS)

typedef struct {
    const vb_table *t;
    const vb_table *runs; /* the runs.csv written with it: row r is run r */
    int runs_seed;        /* runs.csv's seed column: a row's seed is its run's */
    int col[N_COLS];      /* the schema's column k in the table */
    double *v;            /* nrow × N_COLS: NAN for blank or text */
    double t_end, height, g; /* of the '# model=' line: t_end, n · size, g */
} stack_side;

#define V(s, r, k) ((s)->v[(size_t)(r) * N_COLS + (size_t)(k)])

static const char *cell(const stack_side *s, size_t r, int k)
{
    return s->t->rows[r][s->col[k]];
}

/* What cell (r, k) is not, or NULL; *x its value (NAN for blank or text).
 * Each cell is what vb_write_stacks prints there: the key's text, the
 * model the '# model=' line's, reals as %.17g (vb_cell_printed); the
 * iterations and substeps a whole number >= 1 or blank (a solver without
 * the key); the measures finite and >= 0 (stackrun.c's maxima of
 * distances and a root mean square, up to the step before a run
 * diverged) or blank (none measured); t_collapse a time in [0, t_end] or
 * blank (the stack stood). */
static const char *cell_problem(const stack_side *s, size_t r, size_t k, double *x)
{
    const char *c = cell(s, r, (int)k);
    const vb_column *col = &vb_stack_schema.col[k];
    const char *want;
    *x = NAN;
    if (vb_run_key_cell(s->t, col->name, c, &want))
        return want;
    if (k == S(DT))
        return vb_cell_printed(col->fmt, c, x) && *x > 0 && isfinite(*x)
                   ? NULL
                   : "a step size (a finite number > 0)";
    if (!c[0])
        return NULL; /* no such key, nothing measured, or it stood */
    if (!(vb_cell_printed(col->fmt, c, x) && isfinite(*x) && *x >= 0))
        return "a finite number >= 0 as %.17g prints it, or blank";
    if ((k == S(ITERATIONS) || k == S(SUBSTEPS)) && !(*x >= 1 && *x == floor(*x)))
        return "a count (a whole number >= 1), or blank";
    if (k == S(T_COLLAPSE) && !(*x <= s->t_end))
        return "a time no later than the run's t_end (the '# model=' line), or blank";
    return NULL;
}

static int read_side(const vb_table *t, const vb_table *runs, stack_side *s, char *err,
                     size_t errlen)
{
    s->t = t;
    s->runs = runs;
    s->v = NULL;
    int rc = vb_schema_columns(t, &vb_stack_schema, 0, s->col, err, errlen);
    if (rc != 0)
        return rc;
    if (t->nrow == 0)
        return vb_compare_bad(err, errlen,
                              "%s: no rows, only a header: nothing to compare (run writes a "
                              "row a run on a stack); the table is damaged (make baseline)",
                              t->path);
    /* a row a run of its runs.csv, in its order (both written a row a job
     * of the sweep) */
    if ((rc = vb_rows_are_runs(t, &vb_stack_schema, s->col, runs,
                               vb_case_files[VB_FILE_STACKS].what, err, errlen)) != 0 ||
        (rc = vb_need_column(runs, VB_RUNS_COL(SEED), &s->runs_seed, err, errlen)) != 0)
        return VB_COMPARE_BAD;
    s->t_end = vb_table_model_param(t, "t_end");
    s->height = vb_table_model_param(t, "n") * vb_table_model_param(t, "size");
    s->g = vb_table_model_param(t, "g");
    if (!(s->t_end > 0 && s->height > 0 && s->g > 0))
        return vb_compare_bad(err, errlen,
                              "%s: no '# model=stack n=... size=... g=... t_end=...' line: "
                              "not a table verletbench wrote",
                              t->path);
    if (!(s->v = malloc(t->nrow * N_COLS * sizeof *s->v)))
        return vb_compare_oom(err, errlen);
    for (size_t r = 0; r < t->nrow; r++)
        for (size_t k = 0; k < N_COLS; k++) {
            const char *want = cell_problem(s, r, k, &V(s, r, k));
            if (want)
                return vb_table_bad_cell(t, r, s->col[k], want, err, errlen);
        }
    return 0;
}

/* the row of the other side with the same integrator, plan, dt and run's
 * seed, or -1 */
static long partner(const stack_side *s, const stack_side *o, size_t r)
{
    static const int key[] = {S(INTEGRATOR), S(PLAN), S(DT)};
    for (size_t q = 0; q < o->t->nrow; q++) {
        size_t k = 0;
        while (k < 3 && !strcmp(cell(s, r, key[k]), cell(o, q, key[k])))
            k++;
        if (k == 3 && !strcmp(s->runs->rows[r][s->runs_seed], o->runs->rows[q][o->runs_seed]))
            return (long)q;
    }
    return -1;
}

/* One change of a row's measure k, recorded. */
static int record(const char *name, const stack_side *b, size_t rb, const stack_side *n,
                  size_t rn, int k, int worse, double factor, const char *note,
                  vb_changes *out, char *err, size_t errlen)
{
    vb_change c;
    double mb = V(b, rb, k), mn = V(n, rn, k);
    vb_change_fill(&c, worse ? VB_WORSE : VB_BETTER, name, cell(n, rn, S(INTEGRATOR)),
                   cell(n, rn, S(PLAN)), vb_schema_name(&vb_stack_schema, (size_t)k));
    snprintf(c.dt, sizeof c.dt, "%.6g", V(n, rn, S(DT)));
    const char *seed = n->runs->rows[rn][n->runs_seed];
    snprintf(c.seed, sizeof c.seed, "%s", seed[0] ? seed : "-");
    snprintf(c.before, sizeof c.before, mb == mb ? "%.17g" : "blank", mb);
    snprintf(c.after, sizeof c.after, mn == mn ? "%.17g" : "blank", mn);
    c.factor = factor;
    snprintf(c.note, sizeof c.note, "%s; baseline line %lu", note, b->t->line[rb]);
    *(worse ? &out->worse : &out->better) += 1;
    return vb_changes_record(out, &c) != 0 ? vb_compare_oom(err, errlen) : 0;
}

/* A distance from 0 (drift_max, speed_rms, depth_max), judged as check
 * judges an error: worse when it grows by more than a factor 1 + rtol
 * and lies above the round-off floor of the run, better the other way
 * round, worse when it is measured no more.  The floor's scale is what
 * the measure is a difference of: the boxes' positions, up to the
 * stack's height n · size (drift, depth), and their speeds, up to that of
 * a fall from that height, sqrt(2 g n size) (speed_rms): a run that keeps
 * the boxes to round-off (toi) moves them by ulps of those. */
static int judge_distance(const char *name, const stack_side *b, size_t rb, const stack_side *n,
                          size_t rn, int k, const vb_tolerance *tol, vb_changes *out, char *err,
                          size_t errlen)
{
    double mb = V(b, rb, k), mn = V(n, rn, k);
    if (mb != mb)
        return 0; /* measured in neither, or only now: nothing to compare it with */
    out->compared++;
    if (mn != mn)
        return record(name, b, rb, n, rn, k, 1, 0.0, "no longer measured", out, err, errlen);
    double scale = k == S(SPEED_RMS) ? sqrt(2.0 * n->g * n->height) : n->height;
    double steps = ceil(n->t_end / V(n, rn, S(DT)) - 1e-9);
    double floor = vb_check_roundoff_floor(vb_table_precision(n->t, cell(n, rn, S(INTEGRATOR))),
                                           tol->floor_ulps, steps, scale);
    int worse = mn > mb * (1.0 + tol->rtol) && mn > floor,
        better = mb > mn * (1.0 + tol->rtol) && mb > floor;
    if (!worse && !better)
        return 0;
    char note[80];
    snprintf(note, sizeof note, "off 0 by %.4g, now %.4g", mb, mn);
    return record(name, b, rb, n, rn, k, worse, mb > 0 && mn > 0 ? mn / mb : 0.0, note, out,
                  err, errlen);
}

/* When the stack collapsed (blank: it stood, as the exact stack does): a
 * collapse where it stood is worse, none where it collapsed better, and an
 * earlier collapse worse when earlier by more than rtol of the baseline's
 * time and more than a step (t_collapse is a step's time: runs a step
 * apart differ by no more than round-off in their motion). */
static int judge_collapse(const char *name, const stack_side *b, size_t rb, const stack_side *n,
                          size_t rn, const vb_tolerance *tol, vb_changes *out, char *err,
                          size_t errlen)
{
    int k = S(T_COLLAPSE);
    double tb = V(b, rb, k), tn = V(n, rn, k), dt = V(n, rn, S(DT));
    out->compared++;
    if (tb != tb && tn != tn)
        return 0;
    if (tb != tb || tn != tn)
        return record(name, b, rb, n, rn, k, tn == tn, 0.0,
                      tn == tn ? "collapses where it stood" : "stands where it collapsed", out,
                      err, errlen);
    double gap = fabs(tb - tn);
    if (!(gap > tol->rtol * fmax(tb, tn) && gap > dt))
        return 0;
    return record(name, b, rb, n, rn, k, tn < tb, tn > 0 ? tb / tn : 0.0,
                  "an earlier collapse is worse", out, err, errlen);
}

/* A run's iterations and substeps are the case's [contact] keys (or the
 * solver's defaults): the same on both sides, or the baseline was made
 * from another case. */
static int same_keys(const stack_side *b, size_t rb, const stack_side *n, size_t rn, char *err,
                     size_t errlen)
{
    static const int k[] = {S(ITERATIONS), S(SUBSTEPS)};
    for (int i = 0; i < 2; i++)
        if (strcmp(cell(b, rb, k[i]), cell(n, rn, k[i])) != 0)
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: column %s: '%s' where the run made now has '%s': "
                                  "the solver's settings are the case's, not its result; the "
                                  "baseline is damaged or stale (make baseline)",
                                  b->t->path, b->t->line[rb],
                                  vb_schema_name(&vb_stack_schema, (size_t)k[i]),
                                  cell(b, rb, k[i]), cell(n, rn, k[i]));
    return 0;
}

int vb_compare_stacks(const char *name, vb_text base, vb_text now, vb_text base_runs,
                      vb_text now_runs, const vb_tolerance *tol, unsigned flags,
                      vb_changes *out, char *err, size_t errlen)
{
    vb_table t[4]; /* the baseline's stacks.csv and runs.csv, then now's */
    stack_side b = {0}, n = {0};
    (void)flags; /* the '#' lines are held to each side's runs.csv, compared there */
    int rc = vb_parse_beside_runs(base, base_runs, now, now_runs, t, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = read_side(&t[0], &t[1], &b, err, errlen)) == 0)
        rc = read_side(&t[2], &t[3], &n, err, errlen);
    /* A row only one side has is a run only one side's runs.csv has:
     * named and counted there once (judge.c), not again here. */
    static const int distances[] = {S(DRIFT_MAX), S(SPEED_RMS), S(DEPTH_MAX)};
    for (size_t r = 0; rc == 0 && r < t[0].nrow; r++) {
        long q = partner(&b, &n, r);
        if (q < 0 || (rc = same_keys(&b, r, &n, (size_t)q, err, errlen)) != 0)
            continue;
        for (int i = 0; i < 3 && rc == 0; i++)
            rc = judge_distance(name, &b, r, &n, (size_t)q, distances[i], tol, out, err, errlen);
        if (rc == 0)
            rc = judge_collapse(name, &b, r, &n, (size_t)q, tol, out, err, errlen);
    }
    free(b.v);
    free(n.v);
    vb_free_beside_runs(t);
    return rc;
}
