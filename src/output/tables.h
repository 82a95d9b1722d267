/* tables.h — a sweep's CSV tables (docs/method.md §8), each written after
 * its provenance lines: runs.csv, orders.csv, bands.csv, onestep.csv,
 * onestep_orders.csv, reverse.csv and timing.csv. */
#ifndef VB_TABLES_H
#define VB_TABLES_H

#include <stdio.h>

#include "results.h"
#include "schema.h"

void vb_write_runs(const vb_sweep *s, FILE *f);
void vb_write_orders(const vb_sweep *s, FILE *f);
void vb_write_bands(const vb_sweep *s, FILE *f);
void vb_write_onestep(const vb_sweep *s, FILE *f);
void vb_write_onestep_orders(const vb_sweep *s, FILE *f);
void vb_write_reverse(const vb_sweep *s, FILE *f);
/* timing.csv (run --timing): each run's wall time beside its work and
 * error; machine-dependent, so no other file holds a time */
void vb_write_timing(const vb_sweep *s, FILE *f);

/* Getters (schema.h) the tables of a sweep share: the name of the case's
 * integrator whose index (a size_t) is at col->at, the table a vb_sweep;
 * the name of the plan (a vb_plan_kind) at col->at; a double at col->at
 * printed whatever it is, NaN too. */
vb_getter vb_get_integ_name, vb_get_plan_name, vb_get_real_always;

/* ",x" in full, or "," alone for NaN (a blank cell) */
void vb_csv_number(FILE *f, double x);
/* An order as printed to two places: a slope that rounds to zero is
 * "0.00", not "-0.00", which reads as if the sign meant something. */
double vb_order_shown(double order);

#endif
