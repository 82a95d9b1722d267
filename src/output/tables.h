/* tables.h — a sweep's CSV tables (docs/method.md §8), each written after
 * its provenance lines: runs.csv, orders.csv, bands.csv, onestep.csv,
 * onestep_orders.csv, reverse.csv and timing.csv. */
#ifndef VB_TABLES_H
#define VB_TABLES_H

#include <stdio.h>

#include "results.h"
#include "schema.h"

/* The columns of bands.csv, onestep.csv, onestep_orders.csv, reverse.csv,
 * flips.csv and timing.csv, in order (a column's name: VB_TIMING_COL(SECONDS)) */
enum {
    VB_COL_BANDS_INTEGRATOR,
    VB_COL_BANDS_LEVEL,
    VB_COL_BANDS_DT,
    VB_COL_BANDS_NORM,
    VB_COL_BANDS_MEDIAN,
    VB_COL_BANDS_P10,
    VB_COL_BANDS_P90,
    VB_COL_BANDS_RUNS,
    VB_BANDS_COLUMNS
};

enum {
    VB_COL_ONESTEP_INTEGRATOR,
    VB_COL_ONESTEP_H_RATIO,
    VB_COL_ONESTEP_H,
    VB_COL_ONESTEP_ERR_POS,
    VB_COL_ONESTEP_ERR_VEL,
    VB_ONESTEP_COLUMNS
};

enum {
    VB_COL_ONESTEP_ORDERS_INTEGRATOR,
    VB_COL_ONESTEP_ORDERS_H_RATIO,
    VB_COL_ONESTEP_ORDERS_NORM,
    VB_COL_ONESTEP_ORDERS_ORDER,
    VB_COL_ONESTEP_ORDERS_POINTS,
    VB_COL_ONESTEP_ORDERS_GLOBAL_ORDER,
    VB_COL_ONESTEP_ORDERS_LOCAL_ORDERS,
    VB_ONESTEP_ORDERS_COLUMNS
};

enum {
    VB_COL_REVERSE_INTEGRATOR,
    VB_COL_REVERSE_PLAN,
    VB_COL_REVERSE_DT,
    VB_COL_REVERSE_STEPS,
    VB_COL_REVERSE_RETURN_ERR_POS,
    VB_COL_REVERSE_RETURN_ERR_VEL,
    VB_COL_REVERSE_ROUNDOFF,
    VB_COL_REVERSE_REVERSIBLE,
    VB_REVERSE_COLUMNS
};

enum {
    VB_COL_FLIPS_INTEGRATOR,
    VB_COL_FLIPS_PLAN,
    VB_COL_FLIPS_LEVEL,
    VB_COL_FLIPS_SEED,
    VB_COL_FLIPS_DT,
    VB_COL_FLIPS_T_END,
    VB_COL_FLIPS_STATUS,
    VB_COL_FLIPS_FLIPS,
    VB_COL_FLIPS_FLIPS_EXACT,
    VB_COL_FLIPS_FLIP_PERIOD,
    VB_COL_FLIPS_FLIP_PERIOD_EXACT,
    VB_COL_FLIPS_FLIP_PERIOD_ERR,
    VB_COL_FLIPS_T_TUMBLE,
    VB_FLIPS_COLUMNS
};

enum {
    VB_COL_TIMING_INTEGRATOR,
    VB_COL_TIMING_PLAN,
    VB_COL_TIMING_LEVEL,
    VB_COL_TIMING_DT,
    VB_COL_TIMING_TOL,
    VB_COL_TIMING_STEPS,
    VB_COL_TIMING_FORCE_EVALS,
    VB_COL_TIMING_ERR_POS_MAX,
    VB_COL_TIMING_SECONDS,
    VB_COL_TIMING_NS_PER_STEP,
    VB_COL_TIMING_REPEATS,
    VB_TIMING_COLUMNS
};

extern const vb_schema vb_bands_schema, vb_onestep_schema, vb_onestep_orders_schema,
    vb_reverse_schema, vb_flips_schema, vb_timing_schema;
#define VB_TIMING_COL(c) vb_schema_name(&vb_timing_schema, VB_COL_TIMING_##c)

void vb_write_runs(const vb_sweep *s, FILE *f);
void vb_write_orders(const vb_sweep *s, FILE *f);
void vb_write_bands(const vb_sweep *s, FILE *f);
void vb_write_onestep(const vb_sweep *s, FILE *f);
void vb_write_onestep_orders(const vb_sweep *s, FILE *f);
void vb_write_reverse(const vb_sweep *s, FILE *f);
/* flips.csv (a rigid body's case): a row a run, its flips of the
 * intermediate axis and the exact solution's at the same times, their
 * periods, and the time a stable spin first tumbled (docs/rigid.md §7) */
void vb_write_flips(const vb_sweep *s, FILE *f);
/* timing.csv (run --timing): each run's wall time beside its work and
 * error; machine-dependent, so no other file holds a time */
void vb_write_timing(const vb_sweep *s, FILE *f);

/* ",x" in full, or "," alone for NaN (a blank cell) */
void vb_csv_number(FILE *f, double x);
/* An order as printed to two places: a slope that rounds to zero is
 * "0.00", not "-0.00", which reads as if the sign meant something. */
double vb_order_shown(double order);

#endif
