/* analysis.h — what a sweep's runs mean: for every integrator, plan and norm the order
 * fitted to its errors against dt and its verdict (orders.h), the bands of
 * the random plans (median, p10, p90 over seeds), and which methods give
 * the same positions as another to round-off (same_as, same_pair). */
#ifndef VB_ANALYSIS_H
#define VB_ANALYSIS_H

#include "results.h"

/* Each fills its rows of the sweep from its jobs.  0, or -1 out of memory. */
int vb_sweep_analyse_orders(vb_sweep *s);
int vb_sweep_analyse_same(vb_sweep *s);

#endif
