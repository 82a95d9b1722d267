/* contact_orders_judge.c — contact_orders.csv against the baseline's
 * (contact_orders_judge.h): its cells held to what the writer prints, as
 * orders.csv's are (baseline_orders.c), then each fitted order judged as
 * orders.csv's (judge.c): by its verdict's rank, then by the order. */
#include "contact_orders_judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casetables.h"
#include "contact_orders_table.h"
#include "names.h"

#define C(name) VB_COL_CONTACT_ORDERS_##name

typedef struct {
    const vb_table *t;
    int col[VB_SCHEMA_MAX_COLUMNS]; /* the schema's column k in the table */
    double *order;                  /* a row's order, NAN for none */
} side;

static const char *cell(const side *s, size_t r, int k) { return s->t->rows[r][s->col[k]]; }

/* a measure of contact.csv's body view that the table fits */
static int measure_valid(const char *m)
{
    for (int k = 0; k < VB_N_CONTACT_ERRS; k++)
        if (!strcmp(m, vb_contact_err_column((vb_contact_err)k)))
            return 1;
    return 0;
}

/* what a fit with no label can be called (vb_fit_verdict with none) */
static int verdict_valid(const char *v)
{
    static const char *const ok[] = {"exact", "measured", "no-asymptotic-range",
                                     "not-converging", "undetermined", "below-resolution"};
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++)
        if (!strcmp(v, ok[k]))
            return 1;
    return 0;
}

/* What the cell of row r, column k is not, or NULL; *order the row's
 * order once read. */
static const char *cell_problem(const side *s, size_t r, int k, double *order)
{
    const char *c = cell(s, r, k), *verdict = cell(s, r, C(VERDICT));
    const vb_column *col = &vb_contact_orders_schema.col[k];
    double x;
    unsigned long long points = 0;
    switch (k) {
    case C(INTEGRATOR):
        return vb_check_name_valid(c) ? NULL : "an integrator's name";
    case C(PLAN):
        return vb_plan_name_valid(c) ? NULL : "a plan";
    case C(MEASURE):
        return measure_valid(c) ? NULL : "a contact measure of contact.csv's body view";
    case C(VERDICT):
        return verdict_valid(c) ? NULL
                                : "a verdict of a fit without a label (exact, measured, "
                                  "no-asymptotic-range, not-converging, undetermined)";
    case C(RANGE):
        return !strcmp(c, "asymptotic") || !strcmp(c, "all") || !strcmp(c, "none")
                   ? NULL
                   : "a range (asymptotic, all or none)";
    case C(POINTS):
        return vb_cell_count(c, &points) == 0 ? NULL : "a count of points";
    case C(LOCAL_ORDERS):
        return vb_local_orders_text(c) ? NULL
                                       : "local orders (numbers or '-' separated by one blank)";
    case C(ORDER):
        if (vb_verdict_without_order(verdict))
            return c[0] ? "blank (the verdict has no order)" : NULL;
        if (!vb_cell_printed(col->fmt, c, order))
            return "an order as %.6f prints it (the verdict has one)";
        return vb_order_within_local(*order, cell(s, r, C(LOCAL_ORDERS)))
                   ? NULL
                   : "an order between the least and the greatest local order (a "
                     "least-squares slope over them)";
    case C(DT_FIRST):
    case C(DT_LAST):
        return !c[0] || (vb_cell_number(c, 0, &x) == 0 && x > 0 && vb_cell_printed(col->fmt, c, &x))
                   ? NULL
                   : "a step size (a finite number > 0) or blank";
    default: /* order_se, order_ci95: with an order of three points or more */
        vb_cell_count(cell(s, r, C(POINTS)), &points);
        if (cell(s, r, C(ORDER))[0] && points >= 3)
            return vb_cell_printed(col->fmt, c, &x) && x >= 0
                       ? NULL
                       : "a number >= 0 (the order was fitted to three points or more)";
        return c[0] ? "blank (no order, or one fitted to fewer than three points)" : NULL;
    }
}

static int read_side(const vb_table *t, const vb_table *runs, side *s, char *err, size_t errlen)
{
    s->t = t;
    s->order = NULL;
    int rc = vb_schema_columns(t, &vb_contact_orders_schema, 0, s->col, err, errlen);
    if (rc == 0)
        rc = vb_same_header(runs, t, vb_case_files[VB_FILE_CONTACT_ORDERS].what, err, errlen);
    if (rc != 0)
        return rc;
    if (t->nrow == 0)
        return vb_compare_bad(err, errlen,
                              "%s: no rows, only a header: a body at a contact has a fitted "
                              "measure for each entry; the table is damaged (make baseline)",
                              t->path);
    if (!(s->order = malloc(t->nrow * sizeof *s->order)))
        return vb_compare_oom(err, errlen);
    for (size_t r = 0; r < t->nrow; r++) {
        s->order[r] = NAN;
        for (int k = 0; k < VB_CONTACT_ORDERS_COLUMNS; k++) {
            const char *want = cell_problem(s, r, k, &s->order[r]);
            if (want)
                return vb_table_bad_cell(t, r, s->col[k], want, err, errlen);
        }
        for (size_t q = 0; q < r; q++)
            if (!strcmp(cell(s, q, C(INTEGRATOR)), cell(s, r, C(INTEGRATOR))) &&
                !strcmp(cell(s, q, C(PLAN)), cell(s, r, C(PLAN))) &&
                !strcmp(cell(s, q, C(MEASURE)), cell(s, r, C(MEASURE))))
                return vb_compare_bad(err, errlen, "%s:%lu: the same measure as line %lu (%s, %s, %s)",
                                      t->path, t->line[r], t->line[q], cell(s, r, C(INTEGRATOR)),
                                      cell(s, r, C(PLAN)), cell(s, r, C(MEASURE)));
    }
    return 0;
}

/* the row of o with row r's key, or -1 */
static long partner(const side *s, size_t r, const side *o)
{
    for (size_t q = 0; q < o->t->nrow; q++)
        if (!strcmp(cell(s, r, C(INTEGRATOR)), cell(o, q, C(INTEGRATOR))) &&
            !strcmp(cell(s, r, C(PLAN)), cell(o, q, C(PLAN))) &&
            !strcmp(cell(s, r, C(MEASURE)), cell(o, q, C(MEASURE))))
            return (long)q;
    return -1;
}

/* row rn of now against row rb of the baseline: recorded when it changed */
static int judge(const char *name, const side *b, size_t rb, const side *n, size_t rn,
                 const vb_tolerance *tol, vb_changes *out)
{
    const char *vb = cell(b, rb, C(VERDICT)), *vn = cell(n, rn, C(VERDICT));
    double ob = b->order[rb], on = n->order[rn];
    int rank_b = vb_verdict_rank(vb), rank_n = vb_verdict_rank(vn), worse, better;
    out->compared++;
    if (rank_b != rank_n) {
        worse = rank_n < rank_b;
        better = !worse;
    } else {
        worse = isfinite(ob) && isfinite(on) && on < ob - tol->order_tol;
        better = isfinite(ob) && isfinite(on) && on > ob + tol->order_tol;
    }
    if (!worse && !better)
        return 0;
    vb_change c;
    char metric[40];
    snprintf(metric, sizeof metric, "order %s", cell(n, rn, C(MEASURE)));
    vb_change_fill(&c, worse ? VB_WORSE : VB_BETTER, name, cell(n, rn, C(INTEGRATOR)),
                   cell(n, rn, C(PLAN)), metric);
    snprintf(c.dt, sizeof c.dt, "all");
    if (isfinite(ob))
        snprintf(c.before, sizeof c.before, "%.2f %s", ob, vb);
    else
        snprintf(c.before, sizeof c.before, "%s", vb);
    if (isfinite(on))
        snprintf(c.after, sizeof c.after, "%.2f %s", on, vn);
    else
        snprintf(c.after, sizeof c.after, "%s", vn);
    snprintf(c.note, sizeof c.note, "contact_orders.csv; baseline line %lu", b->t->line[rb]);
    *(worse ? &out->worse : &out->better) += 1;
    return vb_changes_record(out, &c);
}

int vb_compare_contact_orders(const char *name, vb_text base, vb_text now, vb_text base_runs,
                              vb_text now_runs, const vb_tolerance *tol, unsigned flags,
                              vb_changes *out, char *err, size_t errlen)
{
    vb_table t[4]; /* the baseline's contact_orders.csv and runs.csv, then now's */
    side b = {0}, n = {0};
    (void)flags; /* the '#' lines are held to each side's runs.csv, compared there */
    int rc = vb_parse_beside_runs(base, base_runs, now, now_runs, t, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = read_side(&t[0], &t[1], &b, err, errlen)) != 0 ||
        (rc = read_side(&t[2], &t[3], &n, err, errlen)) != 0)
        goto done;
    /* a row only one side has: its entry's runs only one side has, named
     * and counted with them (judge.c), not again here */
    for (size_t r = 0; r < t[2].nrow && rc == 0; r++) {
        long q = partner(&n, r, &b);
        if (q >= 0 && judge(name, &b, (size_t)q, &n, r, tol, out) != 0)
            rc = vb_compare_oom(err, errlen);
    }
done:
    free(b.order);
    free(n.order);
    vb_free_beside_runs(t);
    return rc;
}
