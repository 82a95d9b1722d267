/* cells.h — the getters (schema.h) the tables of a sweep share: a name
 * their rows hold as an index or an enum at col->at.  One each, for every
 * table on a schema that has the column (tables.c, orders_table.c,
 * ratefiles.c, grid.c); and a run's identity in a table whose row is a
 * vb_runs_row (contact.csv, stacks.csv). */
#ifndef VB_CELLS_H
#define VB_CELLS_H

#include "schema.h"

/* the name of the case's integrator whose index (a size_t) is at col->at;
 * the table is a vb_sweep */
vb_getter vb_get_integ_name;
/* the name of a vb_plan_kind, vb_norm, vb_verdict or vb_range at col->at */
vb_getter vb_get_plan_name, vb_get_norm_name, vb_get_verdict_name, vb_get_range_name;

/* of a vb_runs_row (runs_table.h): its model's name, its entry's name,
 * its plan's kind, its run's dt and status */
vb_getter vb_get_row_model, vb_get_row_integ, vb_get_row_plan, vb_get_row_dt, vb_get_row_status;

#endif
