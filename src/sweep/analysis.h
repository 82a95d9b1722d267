/* analysis.h — what a sweep's runs mean: for every integrator, plan and norm the order
 * fitted to its errors against dt and its verdict (orders.h), the bands of
 * the random plans (median, p10, p90 over seeds), and which methods give
 * the same positions as another to round-off (same_as, same_pair). */
#ifndef VB_ANALYSIS_H
#define VB_ANALYSIS_H

#include "precision.h"
#include "results.h"

/* Each fills its rows of the sweep from its jobs.  0, or -1 out of memory. */
int vb_sweep_analyse_orders(vb_sweep *s);
int vb_sweep_analyse_same(vb_sweep *s);

/* The jobs of one integrator, plan and level, in the sweep's order (a
 * random plan's seeds), into out (room for the case's seeds + 1): how
 * many.  Every fit of a sweep takes its level's points from these: a
 * fixed plan's or a trace's one run, a random plan's median over seeds. */
size_t vb_sweep_level_jobs(const vb_sweep *s, size_t integ, vb_plan_kind kind, int level,
                           const vb_sweep_job **out);
/* In a case run in float32, or about a shifted origin, what the run's own
 * round-off allows an error of size scale (a position's, position 1, held
 * in ulps of the origin's shift too), in arithmetic p: a floor below which
 * nothing is fitted.  0 for a float64 case about the origin. */
double vb_sweep_precision_floor(const vb_case *c, vb_precision p, int position, double scale);
/* A random plan's point: the median of a level's values over its seeds
 * (GSL's), vals sorted in place (a diverged seed's inf last). */
double vb_sweep_median(double *vals, size_t n);

#endif
