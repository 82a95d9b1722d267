/* orders_table.h — orders.csv on its schema (schema.h): every column
 * once, with how the writer prints it and what the regression check does
 * with it.  A new column of orders.csv is a line of vb_orders_schema
 * (orders_table.c): the header, the rows (vb_write_orders, tables.c) and
 * check's reader (check/baseline_orders.c) take it from there. */
#ifndef VB_ORDERS_TABLE_H
#define VB_ORDERS_TABLE_H

#include <stdio.h>

#include "orders.h"
#include "results.h"
#include "schema.h"

/* A row's getters take the sweep as the table and a vb_order_row as the
 * row. */
/* its columns in order (a column's name: VB_ORDERS_COL(VERDICT)) */
enum {
    VB_COL_ORDERS_INTEGRATOR,
    VB_COL_ORDERS_PLAN,
    VB_COL_ORDERS_NORM,
    VB_COL_ORDERS_ORDER,
    VB_COL_ORDERS_POINTS,
    VB_COL_ORDERS_EXPECTED,
    VB_COL_ORDERS_VERDICT,
    VB_COL_ORDERS_RANGE,
    VB_COL_ORDERS_DT_FIRST,
    VB_COL_ORDERS_DT_LAST,
    VB_COL_ORDERS_LOCAL_ORDERS,
    VB_COL_ORDERS_ORDER_SE,
    VB_COL_ORDERS_ORDER_CI95,
    VB_ORDERS_COLUMNS
};

extern const vb_schema vb_orders_schema;
#define VB_ORDERS_COL(c) vb_schema_name(&vb_orders_schema, VB_COL_ORDERS_##c)

/* A fit's local orders, the slope between each two neighbouring points:
 * 3 decimals, '-' where it is undefined, one blank between (orders.csv's
 * and onestep_orders.csv's local_orders). */
void vb_local_orders_print(FILE *f, const vb_fit *fit);

/* orders.csv's cells of a fit, for every table whose row is, or starts
 * with, a vb_order_row (results.h; contact_orders.csv's too): the order
 * (blank for an exact series or none fitted), its points, the step sizes
 * its range ran from and to, its local orders, and its standard error
 * (col->at 0) or 95 % half-width (1), blank without three points. */
vb_getter vb_get_fit_order, vb_get_fit_points, vb_get_fit_dt_first, vb_get_fit_dt_last,
    vb_get_fit_se;
vb_printer vb_print_local_orders;

#endif
