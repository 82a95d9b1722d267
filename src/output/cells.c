/* cells.c — the getters the tables of a sweep share (cells.h). */
#include "cells.h"

#include <string.h>

#include "integrator.h"
#include "norms.h"
#include "orders.h"
#include "results.h"
#include "runs_table.h" /* vb_runs_row */

/* the value of type T at col->at of row */
#define FIELD(T, c, row, var)                                                                      \
    T var;                                                                                         \
    memcpy(&var, (const char *)(row) + (c)->at, sizeof var)

vb_cell vb_get_integ_name(const vb_column *c, const void *t, const void *row)
{
    FIELD(size_t, c, row, i);
    return vb_cell_s(((const vb_sweep *)t)->c->integ[i]->name);
}

/* a getter of the name of an enum of type T at col->at, by name() */
#define NAME_GETTER(getter, T, name)                                                               \
    vb_cell getter(const vb_column *c, const void *t, const void *row)                             \
    {                                                                                              \
        (void)t;                                                                                   \
        FIELD(T, c, row, v);                                                                       \
        return vb_cell_s(name(v));                                                                 \
    }
NAME_GETTER(vb_get_plan_name, vb_plan_kind, vb_plan_name)
NAME_GETTER(vb_get_norm_name, vb_norm, vb_norm_name)
NAME_GETTER(vb_get_verdict_name, vb_verdict, vb_verdict_name)
NAME_GETTER(vb_get_range_name, vb_range, vb_range_name)

/* ---- a run's row (a vb_runs_row: contact.csv, stacks.csv) ---- */

#define RUN_ROW(p) ((const vb_runs_row *)(p))

vb_cell vb_get_row_model(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(RUN_ROW(row)->model->type->name);
}

vb_cell vb_get_row_integ(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(RUN_ROW(row)->integ->name);
}

vb_cell vb_get_row_plan(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_plan_name(RUN_ROW(row)->plan->kind));
}

vb_cell vb_get_row_dt(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_x(RUN_ROW(row)->res->dt);
}

vb_cell vb_get_row_status(const vb_column *c, const void *t, const void *row)
{
    (void)c, (void)t;
    return vb_cell_s(vb_status_name(RUN_ROW(row)->res->status));
}
