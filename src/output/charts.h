/* charts.h — the chart data of a sweep, for the gnuplot scripts: unless
 * --no-chart-data, convergence.csv, timeseries.csv and paths.csv. */
#ifndef VB_CHARTS_H
#define VB_CHARTS_H

#include <stdio.h>

#include "results.h"
#include "schema.h"

/* The chart data's tables on their schemas (schema.h), which draw/ reads
 * them by: their columns in order, and a column's name from its enum
 * (VB_CONV_COL(ERR_POS_MAX) is "err_pos_max"). */

/* What every table draw/ draws from holds, under one name in each: the
 * row's integrator, its plan, its step (the chart data's, rates.csv,
 * bounces.csv, contact.csv, grid.csv, timing.csv); draw/'s readers of any
 * table name them by these (csvread.c's curves, pick.c), and
 * tests/test_schema.c holds every such table's columns to them. */
#define VB_CHART_INTEGRATOR VB_CONV_COL(INTEGRATOR)
#define VB_CHART_PLAN VB_CONV_COL(PLAN)
#define VB_CHART_DT VB_CONV_COL(DT)

/* convergence.csv: a row a point of the err_pos_max fits */
enum {
    VB_COL_CONV_INTEGRATOR,
    VB_COL_CONV_PLAN,
    VB_COL_CONV_LEVEL,
    VB_COL_CONV_DT,
    VB_COL_CONV_ERR_POS_MAX,
    VB_COL_CONV_P10,
    VB_COL_CONV_P90,
    VB_COL_CONV_FORCE_EVALS,
    VB_COL_CONV_ORDER,
    VB_COL_CONV_VERDICT,
    VB_COL_CONV_SAME_AS,
    VB_COL_CONV_TOL,
    VB_CONV_COLUMNS
};
extern const vb_schema vb_conv_schema;
#define VB_CONV_COL(c) vb_schema_name(&vb_conv_schema, VB_COL_CONV_##c)

/* timeseries.csv: the long runs' errors over time (err_energy and
 * energy_same_as where the model has energy, err_constraint where it has
 * rods) */
enum {
    VB_COL_SERIES_INTEGRATOR,
    VB_COL_SERIES_PLAN,
    VB_COL_SERIES_DT,
    VB_COL_SERIES_T,
    VB_COL_SERIES_ERR_POS,
    VB_COL_SERIES_ERR_ENERGY,
    VB_COL_SERIES_SAME_AS,
    VB_COL_SERIES_ENERGY_SAME_AS,
    VB_COL_SERIES_ERR_CONSTRAINT,
    VB_SERIES_COLUMNS
};
extern const vb_schema vb_series_schema;
#define VB_SERIES_COL(c) vb_schema_name(&vb_series_schema, VB_COL_SERIES_##c)

/* paths.csv: x, y, z as many as the model's dimensions */
enum {
    VB_COL_PATHS_INTEGRATOR,
    VB_COL_PATHS_PLAN,
    VB_COL_PATHS_DT,
    VB_COL_PATHS_T,
    VB_COL_PATHS_X,
    VB_COL_PATHS_Y,
    VB_COL_PATHS_Z,
    VB_COL_PATHS_BODY,
    VB_PATHS_COLUMNS
};
extern const vb_schema vb_paths_schema;
#define VB_PATHS_COL(c) vb_schema_name(&vb_paths_schema, VB_COL_PATHS_##c)

/* rigid_timeseries.csv */
enum {
    VB_COL_RIGID_SERIES_INTEGRATOR,
    VB_COL_RIGID_SERIES_PLAN,
    VB_COL_RIGID_SERIES_DT,
    VB_COL_RIGID_SERIES_T,
    VB_COL_RIGID_SERIES_ERR_ATT,
    VB_COL_RIGID_SERIES_ERR_ENERGY,
    VB_COL_RIGID_SERIES_ERR_ANGMOM,
    VB_RIGID_SERIES_COLUMNS
};
extern const vb_schema vb_rigid_series_schema;
#define VB_RIGID_SERIES_COL(c) vb_schema_name(&vb_rigid_series_schema, VB_COL_RIGID_SERIES_##c)

/* polhode.csv */
enum {
    VB_COL_POLHODE_INTEGRATOR,
    VB_COL_POLHODE_PLAN,
    VB_COL_POLHODE_DT,
    VB_COL_POLHODE_T,
    VB_COL_POLHODE_W1,
    VB_COL_POLHODE_W2,
    VB_COL_POLHODE_W3,
    VB_POLHODE_COLUMNS
};
extern const vb_schema vb_polhode_schema;
#define VB_POLHODE_COL(c) vb_schema_name(&vb_polhode_schema, VB_COL_POLHODE_##c)

/* motion.csv: a body at a contact, each run's speed along the slope v and
 * w R (driver/bodyrun.h's vb_body_path) over t_end, and the exact ones */
enum {
    VB_COL_MOTION_INTEGRATOR,
    VB_COL_MOTION_PLAN,
    VB_COL_MOTION_DT,
    VB_COL_MOTION_T,
    VB_COL_MOTION_V,
    VB_COL_MOTION_W_R,
    VB_MOTION_COLUMNS
};
extern const vb_schema vb_motion_schema;
#define VB_MOTION_COL(c) vb_schema_name(&vb_motion_schema, VB_COL_MOTION_##c)

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
/* a body at a contact (docs/contact.md, "3D: rolling and resting bodies"):
 * its speed along the slope and w R over t_end at every fixed dt the
 * paths hold and the coarsest random one, and the exact ones */
void vb_write_motion(const vb_sweep *s, FILE *f);

#endif
