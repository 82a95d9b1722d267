/* contact_orders_table.h — contact_orders.csv on its schema (schema.h):
 * the order in dt of each contact measure of a rigid body at a contact
 * (sweep/contact_orders.h), a row an entry (METHOD+SOLVER), plan and
 * measure, with orders.csv's cells of a fit; and summary.md's section of
 * them.  Written for a case of a body at a contact only (roll,
 * box-incline): a wall's case keeps its files. */
#ifndef VB_CONTACT_ORDERS_TABLE_H
#define VB_CONTACT_ORDERS_TABLE_H

#include <stdio.h>

#include "results.h"
#include "schema.h"

/* its columns in order (a column's name: VB_CONTACT_ORDERS_COL(MEASURE)) */
enum {
    VB_COL_CONTACT_ORDERS_INTEGRATOR,
    VB_COL_CONTACT_ORDERS_PLAN,
    VB_COL_CONTACT_ORDERS_MEASURE,
    VB_COL_CONTACT_ORDERS_ORDER,
    VB_COL_CONTACT_ORDERS_POINTS,
    VB_COL_CONTACT_ORDERS_VERDICT,
    VB_COL_CONTACT_ORDERS_RANGE,
    VB_COL_CONTACT_ORDERS_DT_FIRST,
    VB_COL_CONTACT_ORDERS_DT_LAST,
    VB_COL_CONTACT_ORDERS_LOCAL_ORDERS,
    VB_COL_CONTACT_ORDERS_ORDER_SE,
    VB_COL_CONTACT_ORDERS_ORDER_CI95,
    VB_CONTACT_ORDERS_COLUMNS
};

extern const vb_schema vb_contact_orders_schema;
#define VB_CONTACT_ORDERS_COL(c)                                                                   \
    vb_schema_name(&vb_contact_orders_schema, VB_COL_CONTACT_ORDERS_##c)

/* The measure's name: its column of contact.csv ("t_roll", "creep", ...). */
const char *vb_contact_err_column(vb_contact_err m);

/* The table: its header, then a row a fitted measure. */
void vb_write_contact_orders(const vb_sweep *s, FILE *f);

/* summary.md's section (nothing for a case without a body at a contact): a
 * row an entry and plan, a column a measure, each cell its order ± its
 * 95 % interval, "exact", or a trend's "*", as the orders' tables show. */
void vb_contact_orders_summary(const vb_sweep *s, FILE *f);

#endif
