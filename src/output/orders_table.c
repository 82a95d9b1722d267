/* orders_table.c — the columns of orders.csv: each with how its cell is
 * made from a fitted order (numerics/orders.c) of a sweep, and what check
 * does with it. */
#include "orders_table.h"

#include <math.h>
#include <stddef.h>

#include "cells.h"
#include "integrator.h"
#include "orders.h"

#define ROW(p) ((const vb_order_row *)(p))
#define SWEEP(p) ((const vb_sweep *)(p))

static const vb_integrator *integ_of(const void *table, const void *row)
{
    return SWEEP(table)->c->integ[ROW(row)->integ];
}

/* the slope; none for an exact series, or where none could be fitted */
vb_cell vb_get_fit_order(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_fit *f = &ROW(row)->fit;
    return isfinite(f->order) && !f->exact ? vb_cell_x(f->order) : vb_cell_blank();
}

vb_cell vb_get_fit_points(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_i(ROW(row)->fit.points);
}

/* the label; blank: an engine measured without one */
static vb_cell expected(const vb_column *c, const void *t, const void *row)
{
    (void)c;
    int q = integ_of(t, row)->order;
    return q > 0 ? vb_cell_i(q) : vb_cell_blank();
}

/* the step sizes the fit ran from and to, where it had a range */
vb_cell vb_get_fit_dt_first(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_order_row *r = ROW(row);
    return r->fit.first >= 0 ? vb_cell_x(r->dt[r->fit.first]) : vb_cell_blank();
}

vb_cell vb_get_fit_dt_last(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    const vb_order_row *r = ROW(row);
    return r->fit.first >= 0 ? vb_cell_x(r->dt[r->fit.last]) : vb_cell_blank();
}

void vb_local_orders_print(FILE *f, const vb_fit *fit)
{
    for (int k = 0; k + 1 < fit->n; k++)
        if (isnan(fit->local[k]))
            fprintf(f, "%s-", k ? " " : "");
        else
            fprintf(f, "%s%.3f", k ? " " : "", fit->local[k]);
}

void vb_print_local_orders(FILE *f, const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    vb_local_orders_print(f, &ROW(row)->fit);
}

/* the slope's standard error and 95 % half-width, where there are three
 * points or more (and an order) */
vb_cell vb_get_fit_se(const vb_column *c, const void *t, const void *row)
{
    (void)t;
    const vb_fit *f = &ROW(row)->fit;
    if (!isfinite(f->order_se) || f->exact)
        return vb_cell_blank();
    return vb_cell_x(c->at ? f->order_ci95 : f->order_se);
}

#define AT(f) offsetof(vb_order_row, f)
/* The key (integrator, plan, norm) pairs a row with the same made now;
 * the order and the verdict are judged against the baseline's. */
static const vb_column orders_columns[] = {
    [VB_COL_ORDERS_INTEGRATOR] = {"integrator", VB_FMT_TEXT, vb_get_integ_name, AT(integ), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_ORDERS_PLAN] = {"plan", VB_FMT_TEXT, vb_get_plan_name, AT(kind), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_ORDERS_NORM] = {"norm", VB_FMT_TEXT, vb_get_norm_name, AT(norm), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_ORDERS_ORDER] = {"order", VB_FMT_FIX6, vb_get_fit_order, 0, 0, NULL, 0, VB_ORDER, 0, 0, 0, 0},
    [VB_COL_ORDERS_POINTS] = {"points", VB_FMT_INT, vb_get_fit_points, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ORDERS_EXPECTED] = {"expected", VB_FMT_INT, expected, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ORDERS_VERDICT] = {"verdict", VB_FMT_TEXT, vb_get_verdict_name, AT(verdict), 0, NULL, 0, VB_VERDICT, 0, 0, 0, 0},
    [VB_COL_ORDERS_RANGE] = {"range", VB_FMT_TEXT, vb_get_range_name, AT(fit.range), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ORDERS_DT_FIRST] = {"dt_first", VB_FMT_REAL, vb_get_fit_dt_first, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ORDERS_DT_LAST] = {"dt_last", VB_FMT_REAL, vb_get_fit_dt_last, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ORDERS_LOCAL_ORDERS] = {"local_orders", VB_FMT_LIST, NULL, 0, 0, vb_print_local_orders, 0, VB_READ, 0, 0, 0, 0},
    /* at: 0 the standard error, 1 the half-width */
    [VB_COL_ORDERS_ORDER_SE] = {"order_se", VB_FMT_FIX6, vb_get_fit_se, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_ORDERS_ORDER_CI95] = {"order_ci95", VB_FMT_FIX6, vb_get_fit_se, 1, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};

const vb_schema vb_orders_schema = VB_SCHEMA("orders.csv", orders_columns);
_Static_assert(sizeof orders_columns / sizeof orders_columns[0] == VB_ORDERS_COLUMNS,
               "a column of orders.csv without its line");

_Static_assert(sizeof orders_columns / sizeof orders_columns[0] <= VB_SCHEMA_MAX_COLUMNS,
               "orders.csv has more columns than a reader holds (schema.h)");
