/* summary_cells.h — what the summary's tables share (summary.c): an
 * order's cell, an integrator's name and label, the legend of the
 * orders, for the particles' table and a rigid body's (rigid_summary.c). */
#ifndef VB_SUMMARY_CELLS_H
#define VB_SUMMARY_CELLS_H

#include <stdio.h>

#include "results.h"

/* integrator integ's order row of a plan and norm, or NULL */
const vb_order_row *vb_summary_find_order(const vb_sweep *s, size_t integ, vb_plan_kind kind,
                                          vb_norm norm);

/* " 2.00 ± 0.01 as-expected |" and its kin (a trend's "*", why it is one
 * where the saturation rule made it, an uncertain verdict's halvings);
 * same: the integrator whose errors this one's equal in every run of the
 * plan, to round-off, or NULL; label: the order the verdict is against */
void vb_summary_order_cell(FILE *f, const vb_order_row *r, int label, const char *same);

/* that integrator's name, or NULL (the sweep's same_as) */
const char *vb_summary_same_as(const vb_sweep *s, size_t i, vb_plan_kind kind);

/* "| `name` declarations | label |" of integrator i */
void vb_summary_name_cells(FILE *f, const vb_sweep *s, size_t i);

/* " order of the energy error, fixed |", or " no velocity |" */
void vb_summary_energy_cell(FILE *f, const vb_sweep *s, size_t i);

/* What ±, *, "uncertain" and "= name" mean: same, what "=" compares
 * ("position errors"); size, what its round-off is relative to ("the
 * positions"); computed, what two such methods compute alike
 * ("positions") */
void vb_summary_orders_legend(FILE *f, const vb_case *c, const char *same, const char *size,
                              const char *computed);

#endif
