/* flips_judge.c — flips.csv against the baseline's: a rigid body's flips
 * of its intermediate axis, their period and a stable spin's tumble
 * (output/tables.c's vb_write_flips, docs/rigid.md §4), read as
 * contact_judge.c reads contact.csv and judged as check judges an error
 * (docs/check.md, "A rigid body's flips"). */
#include "flips_judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casetables.h"
#include "names.h"
#include "tables.h"

#define F(name) VB_COL_FLIPS_##name
#define N_COLS ((size_t)VB_FLIPS_COLUMNS)

typedef struct {
    const vb_table *t;
    const vb_table *runs;  /* the runs.csv written with it: row r is run r */
    int col[N_COLS];       /* the schema's column k in the table */
    double *v;             /* nrow × N_COLS: NAN for blank or text */
} flips_side;

#define V(s, r, k) ((s)->v[(size_t)(r) * N_COLS + (size_t)(k)])

static const char *cell(const flips_side *s, size_t r, int k)
{
    return s->t->rows[r][s->col[k]];
}

/* What cell (r, k) is not, or NULL; *x its value (NAN for blank or text).
 * Each cell is what vb_write_flips prints there: the key's text, counts
 * as %llu, reals as %.17g (vb_cell_printed), and blank exactly where the
 * writer leaves it blank (output/tables.c, driver/rigid_metrics.c):
 * flip_period_exact where w(t) has a period, > 0; flip_period (> 0) never
 * after a tumble; flip_period_err where both periods are and the exact
 * motion flips twice or more, and then (flip_period - flip_period_exact)
 * / flip_period_exact to the bit (the same doubles, the same division);
 * t_tumble (>= 0) exactly after a tumble, a flip where the exact motion
 * makes none. */
static const char *cell_problem(const flips_side *s, size_t r, size_t k, double *x)
{
    const char *c = cell(s, r, (int)k);
    const vb_column *col = &vb_flips_schema.col[k];
    const char *want;
    *x = NAN;
    if (vb_run_key_cell(s->t, col->name, c, &want))
        return want;
    if (k == F(SEED))
        return !c[0] || vb_cell_printed(col->fmt, c, x) ? NULL : "a seed (a count) or blank";
    if (k == F(LEVEL) || k == F(FLIPS) || k == F(FLIPS_EXACT))
        return vb_cell_printed(col->fmt, c, x) && *x >= 0 ? NULL : "a count";
    if (k == F(DT) || k == F(T_END))
        return vb_cell_printed(col->fmt, c, x) && *x > 0 && isfinite(*x)
                   ? NULL
                   : "a finite number > 0";
    double flips = V(s, r, F(FLIPS)), exact = V(s, r, F(FLIPS_EXACT));
    int tumbled = exact == 0 && flips > 0, filled = 0;
    if (c[0] && !(vb_cell_printed(col->fmt, c, x) && isfinite(*x)))
        return "a finite number as %.17g prints it, or blank";
    if (k == F(FLIP_PERIOD_EXACT) || k == F(FLIP_PERIOD)) {
        if (c[0] && !(*x > 0))
            return "a period (a number > 0), or blank";
        if (k == F(FLIP_PERIOD) && c[0] && tumbled)
            return "blank (a period is never measured after a tumble)";
        return NULL;
    }
    if (k == F(FLIP_PERIOD_ERR)) {
        double p = V(s, r, F(FLIP_PERIOD)), q = V(s, r, F(FLIP_PERIOD_EXACT));
        filled = p == p && q == q && exact >= 2;
        if (filled ? !c[0] || *x != (p - q) / q : c[0] != '\0')
            return filled ? "(flip_period - flip_period_exact) / flip_period_exact of its row"
                          : "blank (no measured or exact period, or the exact motion flips "
                            "fewer than twice)";
        return NULL;
    }
    /* t_tumble */
    if (tumbled ? !c[0] || !(*x >= 0) : c[0] != '\0')
        return tumbled ? "a time >= 0 (a flip where the exact motion makes none)"
                       : "blank (no tumble: the exact motion flips, or the run does not)";
    return NULL;
}

static int read_side(const vb_table *t, const vb_table *runs, flips_side *s, char *err,
                     size_t errlen)
{
    s->t = t;
    s->runs = runs;
    s->v = NULL;
    int rc = vb_schema_columns(t, &vb_flips_schema, 0, s->col, err, errlen);
    if (rc != 0)
        return rc;
    if (t->nrow == 0)
        return vb_compare_bad(err, errlen,
                              "%s: no rows, only a header: nothing to compare (run writes a "
                              "row a run of a rigid body); the table is damaged (make baseline)",
                              t->path);
    /* a row a run of its runs.csv, in its order (both written a row a job
     * of the sweep) */
    if ((rc = vb_rows_are_runs(t, &vb_flips_schema, s->col, runs,
                               vb_case_files[VB_FILE_FLIPS].what, err, errlen)) != 0)
        return rc;
    if (!(s->v = malloc(t->nrow * N_COLS * sizeof *s->v)))
        return vb_compare_oom(err, errlen);
    for (size_t r = 0; r < t->nrow; r++)
        for (size_t k = 0; k < N_COLS; k++) { /* the counts come before what reads them */
            const char *want = cell_problem(s, r, k, &V(s, r, k));
            if (want)
                return vb_table_bad_cell(t, r, s->col[k], want, err, errlen);
        }
    return 0;
}

/* the row of the other side with the same integrator, plan, dt and seed, or -1 */
static long partner(const flips_side *s, const flips_side *o, size_t r)
{
    static const int key[] = {F(INTEGRATOR), F(PLAN), F(DT), F(SEED)};
    for (size_t q = 0; q < o->t->nrow; q++) {
        size_t k = 0;
        while (k < 4 && !strcmp(cell(s, r, key[k]), cell(o, q, key[k])))
            k++;
        if (k == 4)
            return (long)q;
    }
    return -1;
}

/* One change of a row's measure k, recorded. */
static int record(const char *name, const flips_side *b, size_t rb, const flips_side *n,
                  size_t rn, int k, int worse, const char *note, vb_changes *out, char *err,
                  size_t errlen)
{
    vb_change c;
    double mb = V(b, rb, k), mn = V(n, rn, k);
    vb_change_fill(&c, worse ? VB_WORSE : VB_BETTER, name, cell(n, rn, F(INTEGRATOR)),
                   cell(n, rn, F(PLAN)), vb_schema_name(&vb_flips_schema, (size_t)k));
    snprintf(c.dt, sizeof c.dt, "%.6g", V(n, rn, F(DT)));
    snprintf(c.seed, sizeof c.seed, "%s", cell(n, rn, F(SEED))[0] ? cell(n, rn, F(SEED)) : "-");
    snprintf(c.before, sizeof c.before, mb == mb ? "%.17g" : "blank", mb);
    snprintf(c.after, sizeof c.after, mn == mn ? "%.17g" : "blank", mn);
    c.factor = 0.0;
    snprintf(c.note, sizeof c.note, "%s; baseline line %lu", note, b->t->line[rb]);
    *(worse ? &out->worse : &out->better) += 1;
    return vb_changes_record(out, &c) != 0 ? vb_compare_oom(err, errlen) : 0;
}

/* A row's measures against its partner's.  The flips are a count, which
 * no round-off moves: worse when the run's count lies further from the
 * exact motion's, better when nearer, and a count moved to the other
 * side of it by as much is a changed motion, reported as worse.  The
 * period is judged by its distance from the exact period, as an error
 * (docs/check.md): worse when it grows by more than 1 + rtol and lies
 * above the round-off floor, better the other way round, worse when it is
 * measured no more.  A stable spin's tumble: a later one is better, one
 * that came where none did before is worse (its flips say so too). */
static int judge_row(const char *name, const flips_side *b, size_t rb, const flips_side *n,
                     size_t rn, const vb_tolerance *tol, vb_changes *out, char *err,
                     size_t errlen)
{
    double fb = V(b, rb, F(FLIPS)), fn = V(n, rn, F(FLIPS)), xb = V(b, rb, F(FLIPS_EXACT)),
           xn = V(n, rn, F(FLIPS_EXACT));
    int rc = 0;
    out->compared += 3;
    if (fb != fn) {
        double db = fabs(fb - xb), dn = fabs(fn - xn);
        rc = record(name, b, rb, n, rn, F(FLIPS), dn >= db,
                    dn == db ? "the count changed, as far from the exact one" : "the count",
                    out, err, errlen);
    }
    double pb = V(b, rb, F(FLIP_PERIOD)), pn = V(n, rn, F(FLIP_PERIOD)),
           pe = V(n, rn, F(FLIP_PERIOD_EXACT));
    double steps = ceil(V(n, rn, F(T_END)) / V(n, rn, F(DT)) - 1e-9);
    double floor = vb_check_roundoff_floor(vb_table_precision(n->t, cell(n, rn, F(INTEGRATOR))),
                                           tol->floor_ulps, steps, pe == pe ? pe : 1.0);
    if (rc == 0 && pb == pb && pn != pn)
        rc = record(name, b, rb, n, rn, F(FLIP_PERIOD), 1, "no longer regular", out, err,
                    errlen);
    else if (rc == 0 && pb == pb && pn == pn && pe == pe) {
        double db = fabs(pb - pe), dn = fabs(pn - pe);
        if ((dn > db * (1.0 + tol->rtol) && dn > floor) ||
            (db > dn * (1.0 + tol->rtol) && db > floor)) {
            char note[80];
            snprintf(note, sizeof note, "off the exact period by %.4g, now %.4g", db, dn);
            rc = record(name, b, rb, n, rn, F(FLIP_PERIOD), dn > db, note, out, err, errlen);
        }
    }
    double tb = V(b, rb, F(T_TUMBLE)), tn = V(n, rn, F(T_TUMBLE));
    if (rc == 0 && tb != tn && (tb == tb) != (tn == tn))
        rc = record(name, b, rb, n, rn, F(T_TUMBLE), tn == tn,
                    tn == tn ? "a tumble where none was" : "no tumble now", out, err, errlen);
    else if (rc == 0 && tb == tb && tn == tn &&
             fabs(tb - tn) > fmax(tol->rtol * fmin(tb, tn), floor))
        rc = record(name, b, rb, n, rn, F(T_TUMBLE), tn < tb, "a later tumble is better", out,
                    err, errlen);
    return rc;
}

/* The exact motion's count and period, fixed by the model and the run's
 * step size (the exact solution sampled at the run's times): the same on
 * both sides where both runs finished (the period to 1e-6, as check holds
 * runs.csv's scales). */
static int same_exact(const flips_side *b, size_t rb, const flips_side *n, size_t rn, char *err,
                      size_t errlen)
{
    if (strcmp(cell(b, rb, F(STATUS)), "ok") || strcmp(cell(n, rn, F(STATUS)), "ok"))
        return 0;
    static const int k[] = {F(FLIPS_EXACT), F(FLIP_PERIOD_EXACT)};
    for (int i = 0; i < 2; i++) {
        double x = V(b, rb, k[i]), y = V(n, rn, k[i]);
        if (x == y || (x != x && y != y) || fabs(x - y) <= 1e-6 * fmax(fabs(x), fabs(y)))
            continue;
        return vb_compare_bad(err, errlen,
                              "%s:%lu: column %s: '%s' where the run made now has '%s': the "
                              "exact motion is fixed by the model, not the method; the "
                              "baseline is damaged or stale (make baseline)",
                              b->t->path, b->t->line[rb],
                              vb_schema_name(&vb_flips_schema, (size_t)k[i]), cell(b, rb, k[i]),
                              cell(n, rn, k[i]));
    }
    return 0;
}

int vb_compare_flips(const char *name, vb_text base, vb_text now, vb_text base_runs,
                     vb_text now_runs, const vb_tolerance *tol, unsigned flags,
                     vb_changes *out, char *err, size_t errlen)
{
    vb_table t[4]; /* the baseline's flips.csv and runs.csv, then now's */
    flips_side b = {0}, n = {0};
    (void)flags; /* the '#' lines are held to each side's runs.csv, compared there */
    int rc = vb_parse_beside_runs(base, base_runs, now, now_runs, t, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = read_side(&t[0], &t[1], &b, err, errlen)) == 0)
        rc = read_side(&t[2], &t[3], &n, err, errlen);
    /* A row only one side has is a run only one side's runs.csv has:
     * named and counted there once (judge.c), not again here. */
    for (size_t r = 0; rc == 0 && r < t[0].nrow; r++) {
        long q = partner(&b, &n, r);
        if (q >= 0 && (rc = same_exact(&b, r, &n, (size_t)q, err, errlen)) == 0)
            rc = judge_row(name, &b, r, &n, (size_t)q, tol, out, err, errlen);
    }
    free(b.v);
    free(n.v);
    vb_free_beside_runs(t);
    return rc;
}
