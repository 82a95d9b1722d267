/* contact_orders_table.c — the columns of contact_orders.csv, each made
 * from a fitted contact measure (sweep/contact_orders.c) by orders.csv's
 * own getters (orders_table.h), and summary.md's section of them. */
#include "contact_orders_table.h"

#include <stddef.h>

#include "cells.h"
#include "contact_table.h"
#include "orders_table.h"
#include "summary_cells.h"

/* each measure's column of contact.csv, whose name it takes */
static const int column_of[VB_N_CONTACT_ERRS] = {
    [VB_CONTACT_ERR_T_ROLL] = VB_COL_CONTACT_T_ROLL,
    [VB_CONTACT_ERR_S_ROLL] = VB_COL_CONTACT_S_ROLL,
    [VB_CONTACT_ERR_V_ROLL] = VB_COL_CONTACT_V_ROLL,
    [VB_CONTACT_ERR_SLIP_MAX] = VB_COL_CONTACT_SLIP_MAX,
    [VB_CONTACT_ERR_A_ERR] = VB_COL_CONTACT_A_ERR,
    [VB_CONTACT_ERR_CREEP] = VB_COL_CONTACT_CREEP,
    [VB_CONTACT_ERR_ENERGY_ERR] = VB_COL_CONTACT_ENERGY_ERR,
    [VB_CONTACT_ERR_DEPTH_MAX] = VB_COL_CONTACT_DEPTH_MAX,
};

const char *vb_contact_err_column(vb_contact_err m)
{
    return vb_schema_name(&vb_contact_schema, (size_t)column_of[m]);
}

static vb_cell measure(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_contact_err_column(((const vb_contact_order_row *)row)->measure));
}

#define AT(f) offsetof(vb_contact_order_row, f)
/* The key (integrator, plan, measure); the rest orders.csv's cells of a
 * fit.  No label column: a contact measure has no order claimed for it,
 * so a power law's verdict is "measured" (contact_orders.h). */
static const vb_column columns[] = {
    [VB_COL_CONTACT_ORDERS_INTEGRATOR] = {"integrator", VB_FMT_TEXT, vb_get_integ_name, AT(o.integ), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_CONTACT_ORDERS_PLAN] = {"plan", VB_FMT_TEXT, vb_get_plan_name, AT(o.kind), 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_CONTACT_ORDERS_MEASURE] = {"measure", VB_FMT_TEXT, measure, 0, 0, NULL, 0, VB_KEY, 0, 0, 0, 0},
    [VB_COL_CONTACT_ORDERS_ORDER] = {"order", VB_FMT_FIX6, vb_get_fit_order, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_CONTACT_ORDERS_POINTS] = {"points", VB_FMT_INT, vb_get_fit_points, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_CONTACT_ORDERS_VERDICT] = {"verdict", VB_FMT_TEXT, vb_get_verdict_name, AT(o.verdict), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_CONTACT_ORDERS_RANGE] = {"range", VB_FMT_TEXT, vb_get_range_name, AT(o.fit.range), 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_CONTACT_ORDERS_DT_FIRST] = {"dt_first", VB_FMT_REAL, vb_get_fit_dt_first, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_CONTACT_ORDERS_DT_LAST] = {"dt_last", VB_FMT_REAL, vb_get_fit_dt_last, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_CONTACT_ORDERS_LOCAL_ORDERS] = {"local_orders", VB_FMT_LIST, NULL, 0, 0, vb_print_local_orders, 0, VB_READ, 0, 0, 0, 0},
    /* at: 0 the standard error, 1 the half-width */
    [VB_COL_CONTACT_ORDERS_ORDER_SE] = {"order_se", VB_FMT_FIX6, vb_get_fit_se, 0, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
    [VB_COL_CONTACT_ORDERS_ORDER_CI95] = {"order_ci95", VB_FMT_FIX6, vb_get_fit_se, 1, 0, NULL, 0, VB_READ, 0, 0, 0, 0},
};

const vb_schema vb_contact_orders_schema = VB_SCHEMA("contact_orders.csv", columns);
_Static_assert(sizeof columns / sizeof columns[0] == VB_CONTACT_ORDERS_COLUMNS,
               "a column of contact_orders.csv without its line");

void vb_write_contact_orders(const vb_sweep *s, FILE *f)
{
    vb_schema_header(f, &vb_contact_orders_schema, 0);
    for (size_t k = 0; k < s->n_contact_orders; k++)
        vb_schema_row(f, &vb_contact_orders_schema, 0, s, &s->contact_orders[k]);
}

/* the row of entry i, plan kind and measure m, or NULL */
static const vb_order_row *find(const vb_sweep *s, size_t i, vb_plan_kind kind, int m)
{
    for (size_t k = 0; k < s->n_contact_orders; k++) {
        const vb_contact_order_row *r = &s->contact_orders[k];
        if (r->o.integ == i && r->o.kind == kind && (int)r->measure == m)
            return &r->o;
    }
    return NULL;
}

void vb_contact_orders_summary(const vb_sweep *s, FILE *f)
{
    if (!s->n_contact_orders)
        return;
    int shown[VB_N_CONTACT_ERRS] = {0};
    for (size_t k = 0; k < s->n_contact_orders; k++)
        shown[s->contact_orders[k].measure] = 1;
    fputs("### The contact measures' orders in dt (contact_orders.csv)\n\n"
          "The order in dt of each measure's distance from its exact value (0 for slip after, "
          "a error, creep, energy and deepest), fitted as orders.csv's are (docs/method.md "
          "§5: its round-off floor, saturation and asymptotic range), ± its 95 % interval; "
          "*exact*: at round-off at every step; `*`: a trend over every point, no power law. "
          "No order is claimed for a contact measure, so none is judged against a label "
          "(docs/contact.md, \"Orders in dt\").\n\n| integrator | plan |",
          f);
    for (int m = 0; m < VB_N_CONTACT_ERRS; m++)
        if (shown[m])
            fprintf(f, " %s |", vb_contact_err_column((vb_contact_err)m));
    fputs("\n|---|---|", f);
    for (int m = 0; m < VB_N_CONTACT_ERRS; m++)
        fputs(shown[m] ? "---|" : "", f);
    fputc('\n', f);
    for (size_t i = 0; i < s->c->n_integ; i++)
        for (int kind = 0; kind < VB_N_PLANS; kind++) {
            int any = 0;
            for (int m = 0; m < VB_N_CONTACT_ERRS; m++)
                any |= find(s, i, (vb_plan_kind)kind, m) != NULL;
            if (!any)
                continue;
            fprintf(f, "| `%s` | %s |", s->c->integ[i]->name, vb_plan_name((vb_plan_kind)kind));
            for (int m = 0; m < VB_N_CONTACT_ERRS; m++)
                if (shown[m])
                    vb_summary_order_cell(f, find(s, i, (vb_plan_kind)kind, m), 0, NULL);
            fputc('\n', f);
        }
    fputc('\n', f);
}
