/* baseline_orders.c — a baseline's orders.csv read back: every column the writer
 * prints, each cell held to what it prints there, and the verdicts ranked.
 * The cells are read as baseline.c reads runs.csv's. */
#include "baseline.h"
#include "orders_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrator.h"
#include "orders.h"

/* ---- orders.csv: fitted orders and verdicts ---- */

static const char *const VERDICTS[] = {"exact",        "as-expected",         "above-label",
                                       "undetermined", "no-asymptotic-range", "below-resolution",
                                       "uncertain",    "below-label",         "not-converging",
                                       "measured"};

/* How good a verdict is: exact, then meeting the label (as expected or
 * above it: both keep the promise), then no claim either way (nothing
 * fitted, no power law, or errors a reference solution cannot resolve:
 * the method may have got better, or the reference worse; either way the
 * label is no longer shown to hold), then below the label (or off it with
 * an interval that still reaches it, uncertain: the same failure to keep
 * the label, only not proven, so a change between the two is no change),
 * then an error that does not fall at all. */
int vb_verdict_rank(const char *v)
{
    static const int rank[] = {4, 3, 3, 2, 2, 2, 1, 1, 0, 2};
    for (size_t i = 0; i < sizeof VERDICTS / sizeof VERDICTS[0]; i++)
        if (!strcmp(v, VERDICTS[i]))
            return rank[i];
    return -1;
}

int vb_by_order_key(const void *a, const void *b)
{
    const vb_order_rec *x = a, *y = b;
    int c = strcmp(x->integ, y->integ);
    if (!c)
        c = strcmp(x->plan, y->plan);
    if (!c)
        c = strcmp(x->norm, y->norm);
    return c;
}

/* The verdicts the writer leaves the order blank with: an exact series
 * has no slope, an undetermined one none that could be fitted, and one
 * below a reference's resolution is never fitted. */
int vb_verdict_without_order(const char *v)
{
    return !strcmp(v, "exact") || !strcmp(v, "undetermined") || !strcmp(v, "below-resolution");
}

int vb_local_orders_text(const char *s)
{
    char buf[64];
    for (const char *p = s; *p;) {
        const char *e = strchr(p, ' ');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        double x;
        if (k == 0 || k >= sizeof buf)
            return 0;
        memcpy(buf, p, k);
        buf[k] = '\0';
        if (strcmp(buf, "-") != 0 && vb_cell_signed(buf, &x) != 0)
            return 0;
        p = e ? e + 1 : p + k;
        if (e && !*p)
            return 0; /* a trailing blank */
    }
    return 1;
}

int vb_order_within_local(double order, const char *local)
{
    double x, lo = INFINITY, hi = -INFINITY;
    for (const char *p = local; *p; p += strcspn(p, " "), p += *p == ' ')
        if (*p != '-' || (p[1] != ' ' && p[1])) {
            x = strtod(p, NULL);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
    return order >= lo - 5e-4 && order <= hi + 5e-4;
}

/* The cells of an order's row held to what the fit can give and the
 * writer print (the round-trip of vb_cell_printed: "1e308" or "-0" are no
 * order of %.6f), and to each other (numerics/orders.c):
 *  - the order is a least-squares slope of log err over log dt on a run
 *    of contiguous points, each with its local order defined; such a
 *    slope is a weighted mean, with positive weights, of the slopes
 *    between neighbours, so it lies between the least and the greatest
 *    local order (printed to 3 decimals: within 0.0005 of them);
 *  - the verdict is what vb_fit_verdict gives for that order, its label
 *    and its interval: as-expected within VB_VERDICT_TOL of the label,
 *    above or below it past the tolerance (the order printed to 6
 *    decimals: a margin of 5e-7), measured only without a label;
 *  - a built-in integrator's label is its own (integrator.h).
 * The column that breaks a rule (and what it should be), or -1. */
static int order_problem(const vb_table *t, size_t i, const int *cols, const char **want)
{
    char **f = t->rows[i];
    const char *verdict = f[cols[VB_COL_ORDERS_VERDICT]];
    double order = NAN, label = NAN, x;
    for (int k = 0; k < VB_ORDERS_COLUMNS; k++) {
        const char *c = f[cols[k]];
        if (c[0] && vb_cell_printed(vb_orders_schema.col[k].fmt, c, &x) == 0 &&
            vb_orders_schema.col[k].fmt != VB_FMT_TEXT && vb_orders_schema.col[k].fmt != VB_FMT_LIST)
            return *want = "a number as the writer prints it", cols[k];
    }
    if (f[cols[VB_COL_ORDERS_EXPECTED]][0])
        vb_cell_printed(VB_FMT_INT, f[cols[VB_COL_ORDERS_EXPECTED]], &label);
    const vb_integrator *in = vb_integrator_find(f[cols[VB_COL_ORDERS_INTEGRATOR]]);
    if (in && !(in->order > 0 ? label == in->order : label != label))
        return *want = "the integrator's label order (integrator.h)", cols[VB_COL_ORDERS_EXPECTED];
    if (!f[cols[VB_COL_ORDERS_ORDER]][0])
        return -1;
    vb_cell_printed(VB_FMT_FIX6, f[cols[VB_COL_ORDERS_ORDER]], &order);
    if (!vb_order_within_local(order, f[cols[VB_COL_ORDERS_LOCAL_ORDERS]]))
        return *want = "an order between the least and the greatest local order (a "
                       "least-squares slope over them)",
               cols[VB_COL_ORDERS_ORDER];
    double off = fabs(order - label) - VB_VERDICT_TOL, m = 5e-7;
    int fits = !strcmp(verdict, "as-expected")   ? off <= m
               : !strcmp(verdict, "above-label") ? off > -m && order > label
               : !strcmp(verdict, "below-label") ? off > -m && order < label
               : !strcmp(verdict, "uncertain")   ? off > -m
               : !strcmp(verdict, "measured")    ? label != label
                                                 : 1;
    if (!fits)
        return *want = "an order its verdict can have (within 0.25 of the label for "
                       "as-expected, past it for above, below or uncertain)",
               cols[VB_COL_ORDERS_ORDER];
    return -1;
}

/* Read and check every row of an orders.csv (vb_write_orders), sorted by
 * (integrator, plan, norm).  Its header names every column of the
 * schema (vb_orders_schema, output/orders_table.c) and no other, and
 * every cell of each is held below to what the writer prints. */
int vb_read_orders(const vb_table *t, vb_order_rec **out, char *err, size_t errlen)
{
    const vb_schema *s = &vb_orders_schema;
    *out = NULL;
    int cols[VB_SCHEMA_MAX_COLUMNS];
    for (size_t k = 0; k < s->n; k++)
        if (vb_need_column(t, s->col[k].name, &cols[k], err, errlen) != 0)
            return VB_COMPARE_BAD;
    for (size_t i = 0; i < t->ncol; i++)
        if (vb_schema_find(s, t->head[i]) < 0)
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: column '%.60s' is not one verletbench writes into "
                                  "orders.csv: not a table verletbench wrote",
                                  t->path, t->head_line, t->head[i]);
    const int ci = cols[VB_COL_ORDERS_INTEGRATOR], cp = cols[VB_COL_ORDERS_PLAN],
              cn = cols[VB_COL_ORDERS_NORM], co = cols[VB_COL_ORDERS_ORDER],
              cpt = cols[VB_COL_ORDERS_POINTS], cex = cols[VB_COL_ORDERS_EXPECTED],
              cv = cols[VB_COL_ORDERS_VERDICT], crg = cols[VB_COL_ORDERS_RANGE],
              cd1 = cols[VB_COL_ORDERS_DT_FIRST], cd2 = cols[VB_COL_ORDERS_DT_LAST],
              clo = cols[VB_COL_ORDERS_LOCAL_ORDERS], cse = cols[VB_COL_ORDERS_ORDER_SE],
              cci = cols[VB_COL_ORDERS_ORDER_CI95];
    if (t->nrow == 0)
        return vb_compare_bad(err, errlen, "%s: no orders, only a header: nothing to compare",
                              t->path);
    vb_order_rec *r = calloc(t->nrow, sizeof *r);
    if (!r)
        return vb_compare_oom(err, errlen);
    for (size_t i = 0; i < t->nrow; i++) {
        char **f = t->rows[i];
        r[i] = (vb_order_rec){f[ci], f[cp], f[cn], f[cv], NAN, t->line[i], NULL};
        int known_norm = vb_check_metric_index(r[i].norm) >= 0;
        /* the first of the key's columns and the verdict that cannot be read */
        int bad = !vb_check_name_valid(r[i].integ)    ? ci
                  : !vb_plan_name_valid(r[i].plan)    ? cp
                  : !known_norm                       ? cn
                  : vb_verdict_rank(r[i].verdict) < 0 ? cv
                                                      : -1;
        if (bad >= 0) {
            free(r);
            return vb_compare_bad(err, errlen, "%s:%lu: %s '%.60s' cannot be read", t->path,
                                  t->line[i], t->head[bad], f[bad]);
        }
        /* the order is blank exactly when the verdict has none */
        int blank = vb_verdict_without_order(r[i].verdict);
        unsigned long long count, points = 0;
        double x;
        int col = -1;
        const char *want = NULL;
        if (blank ? f[co][0] != '\0' : vb_cell_signed(f[co], &r[i].order) != 0)
            col = co, want = blank ? "blank (the verdict has no order)"
                                   : "an order (a finite number; the verdict has one)";
        else if (vb_cell_count(f[cpt], &points) != 0)
            col = cpt, want = "a count of points";
        else if (f[cex][0] ? vb_cell_count(f[cex], &count) != 0
                           : strcmp(r[i].verdict, "measured") != 0 &&
                                 vb_verdict_rank(r[i].verdict) != 4 &&
                                 strcmp(r[i].verdict, "undetermined") != 0 &&
                                 strcmp(r[i].verdict, "no-asymptotic-range") != 0 &&
                                 strcmp(r[i].verdict, "not-converging") != 0 &&
                                 strcmp(r[i].verdict, "below-resolution") != 0)
            col = cex, want = "an integrator's label order (a count), or blank for an engine "
                              "without a label";
        else if (strcmp(f[crg], "asymptotic") != 0 && strcmp(f[crg], "all") != 0 &&
                 strcmp(f[crg], "none") != 0)
            col = crg, want = "a range (asymptotic, all or none)";
        else if (f[cd1][0] || f[cd2][0]) {
            if (vb_cell_number(f[cd1], 0, &x) != 0 || !(x > 0))
                col = cd1, want = "a step size (a finite number > 0; blank with dt_last)";
            else if (vb_cell_number(f[cd2], 0, &x) != 0 || !(x > 0))
                col = cd2, want = "a step size (a finite number > 0; blank with dt_first)";
        }
        if (col < 0 && !vb_local_orders_text(f[clo]))
            col = clo, want = "local orders (numbers or '-' separated by one blank)";
        if (col < 0)
            col = order_problem(t, i, cols, &want);
        /* the order's standard error and 95 % half-width: with the order,
         * fitted to three points or more (numerics/orders.c), else blank */
        int se = f[co][0] && points >= 3;
        for (int k = 0; k < 2 && col < 0; k++) {
            int c = k ? cci : cse;
            if (se ? vb_cell_number(f[c], 0, &x) != 0 : f[c][0] != '\0')
                col = c, want = se ? "a number >= 0 (the order was fitted to three points or "
                                     "more)"
                                   : "blank (no order, or one fitted to fewer than three "
                                     "points)";
        }
        if (col >= 0) {
            free(r);
            return vb_table_bad_cell(t, i, col, want, err, errlen);
        }
    }
    qsort(r, t->nrow, sizeof *r, vb_by_order_key);
    for (size_t i = 1; i < t->nrow; i++)
        if (vb_by_order_key(&r[i - 1], &r[i]) == 0) {
            int rc =
                vb_compare_bad(err, errlen, "%s:%lu: the same order as line %lu (%s, %s, %s)",
                               t->path, r[i].line, r[i - 1].line, r[i].integ, r[i].plan, r[i].norm);
            free(r);
            return rc;
        }
    *out = r;
    return 0;
}
