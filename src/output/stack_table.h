/* stack_table.h — stacks.csv on its schema (schema.h): what each contact
 * solver's run on a stack of boxes (driver/stackrun.h) found against the
 * exact answer that no box moves (docs/contact.md, "Stacks").  Written for
 * a case that measures a stack (VB_MEASURE_STACK, profile.h), and for no
 * other. */
#ifndef VB_STACK_TABLE_H
#define VB_STACK_TABLE_H

#include <stdio.h>

#include "schema.h"

/* its columns in order (a column's name: VB_STACK_COL(DRIFT_MAX)) */
enum {
    VB_COL_STACK_MODEL,
    VB_COL_STACK_INTEGRATOR,
    VB_COL_STACK_PLAN,
    VB_COL_STACK_DT,
    VB_COL_STACK_STATUS,
    VB_COL_STACK_ITERATIONS,
    VB_COL_STACK_SUBSTEPS,
    VB_COL_STACK_DRIFT_MAX,
    VB_COL_STACK_SPEED_RMS,
    VB_COL_STACK_DEPTH_MAX,
    VB_COL_STACK_T_COLLAPSE,
    VB_STACK_COLUMNS
};

extern const vb_schema vb_stack_schema;
#define VB_STACK_COL(c) vb_schema_name(&vb_stack_schema, VB_COL_STACK_##c)

struct vb_sweep;

/* The table: its header, then a row a run with a stack's measures. */
void vb_write_stacks(const struct vb_sweep *s, FILE *f);
/* summary.md's section of them, the fixed-step runs', for a case that
 * measures a stack (nothing for another) */
void vb_stack_summary(const struct vb_sweep *s, FILE *f);

#endif
