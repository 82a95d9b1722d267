/* gpcharts.h — the charts verletbench draws, each written as gnuplot commands
 * by C that reads the table and decides what to draw: which curves, which
 * coincide, the axes' ranges, the slope guides, the key's width.  gnuplot
 * only draws; no chart asks it to hunt for anything.
 *
 * Each function writes one chart's commands to ch (whole, or nothing when
 * it returns -1 with a message naming the file). */
#ifndef VB_GPCHARTS_H
#define VB_GPCHARTS_H

#include <stddef.h>

#include "csvread.h"
#include "gp.h"

/* convergence.csv: error against dt, a panel a plan, fitted orders in the
 * key, slope guides */
int vb_chart_convergence(vb_chart *ch, const vb_csv *t, const char *title, char *err,
                         size_t errlen);
/* convergence.csv: random steps, median over seeds, the 10th-90th band */
int vb_chart_band(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen);
/* convergence.csv: error against force evaluations */
int vb_chart_work(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen);
/* timing.csv: error against seconds */
int vb_chart_work_time(vb_chart *ch, const vb_csv *t, const char *title, char *err,
                       size_t errlen);

/* timeseries.csv: one error over time */
/* rigid_timeseries.csv: a rigid body's attitude error; its energy and world
 * angular momentum drift, two panels of each plan (VB_OVER_RIGID_ENERGY) */
typedef enum {
    VB_OVER_POS,
    VB_OVER_ENERGY,
    VB_OVER_CONSTRAINT,
    VB_OVER_ATTITUDE,
    VB_OVER_RIGID_ENERGY,
    VB_OVER_ANGMOM
} vb_over_what;
int vb_chart_over_time(vb_chart *ch, const vb_csv *t, vb_over_what what, const char *title,
                       char *err, size_t errlen);

/* paths.csv: the paths of one plan over the exact one; integrators NULL:
 * every one; layout "grid", "single" or NULL (a grid for more than 4) */
int vb_chart_path(vb_chart *ch, const vb_csv *t, const char *title, const char *plan,
                  const char *const *integrators, size_t n_integrators, const char *layout,
                  char *err, size_t errlen);

/* rates.csv: the drawn state's error against display rate, and the apex
 * (y_max against the exact apex) */
int vb_chart_rates(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen);
int vb_chart_apex(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen);
/* the rates chart's rows have an apex to draw (a y_max column with numbers) */
int vb_rates_have_apex(const vb_csv *t);

/* grid.csv: the fitted order or the finest error against the grid's first
 * key, at one combination of the others ("k2=v2,k3=v3"; NULL: all rows) */
typedef enum { VB_GRID_ORDER, VB_GRID_ERROR } vb_grid_mode;
int vb_chart_grid(vb_chart *ch, const vb_csv *t, const char *title, vb_grid_mode mode,
                  const char *rest, char *err, size_t errlen);
/* the keys of a grid.csv (the columns between point and integrator), and
 * the combinations of those after the first in the order of the file */
int vb_grid_keys(const vb_csv *t, int *first_key, int *n_keys);
size_t vb_grid_rests(const vb_csv *t, char ***rests);

/* bounces.csv: the height after each bounce against e^2n h0, log scale, at
 * the coarsest step; contact.csv: the smallest speed that passes the wall
 * against dt, with the bound (w + 2r)/dt (contactcharts.c) */
int vb_chart_bounces(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen);
int vb_chart_tunnel(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen);

/* polhode.csv: a rigid body's w (body frame) of each method at one fixed
 * step, a panel each, over the exact polhode on the energy ellipsoid
 * (polhode.c) */
int vb_chart_polhode(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen);
/* polhode.csv: the same w against time, w1, w2, w3 a panel each, every
 * method over the exact w(t) (angvelchart.c).  Both read the rows of one
 * fixed step: drawing.c picks them (pick.h). */
int vb_chart_angvel_time(vb_chart *ch, const vb_csv *t, const char *title, char *err,
                         size_t errlen);

/* longrun.csv, stability-summary.csv, a float32 sweep (one method) */
int vb_chart_longrun(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen);
int vb_chart_stability(vb_chart *ch, const vb_csv *t, const char *title, char *err,
                       size_t errlen);
int vb_chart_float32(vb_chart *ch, const vb_csv *t, const char *integrator, const char *title,
                     char *err, size_t errlen);

/* the series of a table without the methods of adaptive steps (a tol > 0:
 * their x is a tolerance, not a step; they belong on the work chart): the
 * count, into out (room for gs->n_series) */
size_t vb_stepsized(const vb_csv *t, const vb_groups *gs, const char **out);

#endif
