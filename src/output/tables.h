/* tables.h — a sweep's CSV tables (docs/method.md §8), each written after
 * its provenance lines: runs.csv, orders.csv, bands.csv, onestep.csv,
 * onestep_orders.csv, reverse.csv and timing.csv. */
#ifndef VB_TABLES_H
#define VB_TABLES_H

#include <stdio.h>

#include "results.h"

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
