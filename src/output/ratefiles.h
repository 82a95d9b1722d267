/* ratefiles.h — the frame-rate table's files (sweep/rates.h): rates.csv, and
 * its spreads as a table of summary.md. */
#ifndef VB_RATEFILES_H
#define VB_RATEFILES_H

#include <stdio.h>

#include "rates.h"
#include "schema.h"

/* rates.csv's columns in order (a rigid body's case adds t_tumble; a
 * column's name: VB_RATES_COL(RATE_HZ)) */
enum {
    VB_COL_RATES_INTEGRATOR,
    VB_COL_RATES_PLAN,
    VB_COL_RATES_RATE_HZ,
    VB_COL_RATES_DT,
    VB_COL_RATES_FRAMES,
    VB_COL_RATES_STATUS,
    VB_COL_RATES_ERR_FINAL,
    VB_COL_RATES_Y_MAX,
    VB_COL_RATES_Y_MAX_EXACT,
    VB_COL_RATES_ERR_Y_MAX,
    VB_COL_RATES_ERR_ENERGY_MAX,
    VB_COL_RATES_ERR_DRAW_MAX,
    VB_COL_RATES_T_TUMBLE,
    VB_RATES_COLUMNS
};

extern const vb_schema vb_rates_schema;
#define VB_RATES_COL(c) vb_schema_name(&vb_rates_schema, VB_COL_RATES_##c)

void vb_write_rates(const vb_sweep *s, FILE *f);
/* the Markdown table of the spreads across rates; nothing without rates */
void vb_write_rates_summary(const vb_sweep *s, FILE *f);

/* "fixed frames", "fixed and random frames", "fixed, random and trace
 * frames" */
void vb_rates_list_kinds(const vb_plan_kind *kinds, int n, FILE *f);

/* What the caption says of the accumulators: that their physics is the
 * same at every rate, where it is (docs/method.md §9).  A clamp that
 * dropped time at some rate makes it false for that row: it is named.
 * (A rigid body's says "attitude" where a particle's says "position".) */
void vb_rates_accumulator_note(const vb_sweep *s, FILE *f);

#endif
