/* gpcharts.h — what the charts' builders share.  Each builder writes one
 * chart as gnuplot commands, by C that reads the table and decides what to
 * draw: which curves, which coincide, the axes' ranges, the slope guides,
 * the key's width; gnuplot only draws, and no chart asks it to hunt for
 * anything.  A builder is static in its file, beside its entry in the table
 * of chart kinds (drawing.h's vb_chart_kind, chartkinds.c):
 *
 *   convergence.c   convergence       error against dt, a panel a plan,
 *                                     fitted orders in the key, slope guides
 *   errcharts.c     band, work,       random steps' median and 10th-90th
 *                   work-time         band; error against force evaluations,
 *                                     against seconds (timing.csv)
 *   overtime.c      error-time, energy-time, constraint-time (timeseries.csv);
 *                   attitude-time, invariants-time (rigid_timeseries.csv)
 *   pathchart.c     path              the paths of a plan over the exact one
 *   rateschart.c    rates, apex       the drawn state's error and the apex
 *                                     against display rate
 *   contactcharts.c bounces, tunnel   the height after each bounce; the
 *                                     speed that passes the wall against dt
 *   gridchart.c     grid-order,       a grid's fitted order and finest error
 *                   grid-error        against its first key
 *   polhode.c       polhode           a rigid body's w on the energy ellipsoid
 *   angvelchart.c   angvel-time       its w1, w2, w3 against time
 *   rollcharts.c    roll-time, creep, a rigid body at a contact's v and w R
 *                   roll-map          against time, its creep against dt,
 *                                     the roll/slip map over alpha and mu
 *   stackcharts.c   stack-stand,      how long a stack stands against the
 *                   stack-cost        mass ratio; drift against N substeps
 *                                     and N iterations at equal cost
 *   studies.c       longrun, stability, float32: the studies' tables
 *
 * Each writes one chart's commands to ch (whole, or nothing when it returns
 * -1 with a message naming the file). */
#ifndef VB_GPCHARTS_H
#define VB_GPCHARTS_H

#include <stddef.h>

#include "csvread.h"
#include "drawing.h"
#include "gp.h"

/* the series of a table without the methods of adaptive steps (a tol > 0:
 * their x is a tolerance, not a step; they belong on the work chart): the
 * count, into out (room for gs->n_series) */
size_t vb_stepsized(const vb_csv *t, const vb_groups *gs, const char **out);

/* A case's convergence.csv has a row of a method with steps of its own
 * size (tol 0, or no tol column) and plan `plan` (NULL: any): 1 or 0, -1
 * when it cannot be read (convergence.c) */
int vb_conv_stepsized(const struct vb_chart_case *cc, const char *plan);

/* the rates chart's rows have an apex to draw (a y_max column with numbers) */
int vb_rates_have_apex(const vb_csv *t);

/* the keys of a grid.csv, the columns between point and integrator: the
 * first's index and their number, 0; -1 when it is not a grid's table
 * (gridchart.c; the roll map's keys too) */
int vb_grid_keys(const vb_csv *t, int *first_key, int *n_keys);

#endif
