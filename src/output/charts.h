/* charts.h — the chart data of a sweep, for the gnuplot scripts: unless
 * --no-chart-data, convergence.csv, timeseries.csv and paths.csv. */
#ifndef VB_CHARTS_H
#define VB_CHARTS_H

#include <stdio.h>

#include "results.h"

void vb_write_convergence(const vb_sweep *s, FILE *f);
void vb_write_timeseries(const vb_sweep *s, FILE *f);
/* one row per point and body, the bodies of one integrator and plan one
 * after another (each body's path contiguous, for the charts) */
void vb_write_paths(const vb_sweep *s, FILE *f);
/* a rigid body's case (docs/rigid.md §7): the attitude, energy and world
 * angular momentum errors over time, window maxima; the path of w in the
 * body frame, each run's and the exact one, with a line giving the energy
 * ellipsoid it lies on */
void vb_write_rigid_timeseries(const vb_sweep *s, FILE *f);
void vb_write_polhode(const vb_sweep *s, FILE *f);

#endif
