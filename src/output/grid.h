/* grid.h — what the points of a case file's grid (casefile.h) measured,
 * side by side: for every integrator, plan and error norm, the fitted order
 * and the error at the coarsest and the finest step of each point.
 *
 * The points are cases of their own (NAME@e=0.3 ...), with every file a
 * case has; the grid adds a directory of its own, DIR/NAME/, with
 *   grid.csv    one row per point, integrator, plan and norm
 *   summary.md  the order and the error of err_pos_max against the grid
 * (docs/cases.md "Grids", docs/method.md §8).  A point is added once its
 * sweep is done, and only what these files need is kept of it, so a
 * command can free each sweep before the next. */
#ifndef VB_GRID_H
#define VB_GRID_H

#include <stdio.h>

#include "casefile.h"
#include "schema.h"
#include "sweep.h"

/* grid.csv's columns in order: point and the grid's keys (a group of
 * columns, one a key), then a row's (a column's name: VB_GRID_COL(ERR_FINEST)) */
enum {
    VB_COL_GRID_POINT,
    VB_COL_GRID_INTEGRATOR,
    VB_COL_GRID_PLAN,
    VB_COL_GRID_NORM,
    VB_COL_GRID_ORDER,
    VB_COL_GRID_ORDER_SE,
    VB_COL_GRID_ORDER_CI95,
    VB_COL_GRID_POINTS,
    VB_COL_GRID_EXPECTED,
    VB_COL_GRID_VERDICT,
    VB_COL_GRID_RANGE,
    VB_COL_GRID_DT_COARSEST,
    VB_COL_GRID_TOL_COARSEST,
    VB_COL_GRID_ERR_COARSEST,
    VB_COL_GRID_DT_FINEST,
    VB_COL_GRID_TOL_FINEST,
    VB_COL_GRID_ERR_FINEST,
    VB_COL_GRID_SAME_AS,
    VB_GRID_COLUMNS
};

extern const vb_schema vb_grid_schema;
#define VB_GRID_COL(c) vb_schema_name(&vb_grid_schema, VB_COL_GRID_##c)

typedef struct vb_grid_row {
    size_t point;
    size_t integ; /* index into the case's integrators (the same list at every point) */
    vb_plan_kind kind;
    vb_norm norm;
    vb_verdict verdict;
    vb_range range;
    int exact;
    int points;                /* fitted */
    int levels;                /* step sizes measured */
    double order, order_se, order_ci95;
    /* the error at level 0 and at the last level: dt, or for an adaptive
     * method the frames' dt, and its tolerance (0 for the others) */
    double dt_coarsest, tol_coarsest, err_coarsest;
    double dt_finest, tol_finest, err_finest;
} vb_grid_row;

typedef struct vb_grid {
    const vb_case *first;  /* its first point: the file, the keys, the integrators */
    const vb_case **point; /* every point, in order (the cases outlive the grid) */
    size_t points, added;
    vb_grid_row *rows;         /* each point's rows together, as its sweep has them */
    size_t n_rows, cap;
    size_t *first_row, *rows_of; /* point i's: rows[first_row[i] ...], rows_of[i] of them */
    /* every point's results.h same_pair relation, n_integ^2 VB_N_PLANS each */
    unsigned char *same_pair;
    int has_plan[VB_N_PLANS];
} vb_grid;

/* A grid for the points of one case file, cases[0 .. n-1] (each with
 * c->grid set).  0, or -1 when out of memory. */
int vb_grid_begin(vb_grid *g, const vb_case *cases, size_t n);
/* What the finished sweep of one of its points says.  0 or -1. */
int vb_grid_add(vb_grid *g, const vb_sweep *s);
void vb_grid_free(vb_grid *g);

/* The grids of a case set: one for each file with a grid, over its
 * points, in order.  Their count, or -1 when out of memory. */
long vb_grids_begin(const vb_case_set *set, vb_grid **grids);
void vb_grids_free(vb_grid *grids, size_t n);
/* The same, with every point's finished sweep added: sweeps[i] is
 * set->all[i]'s (a merge's, which holds them all).  Their count, or -1
 * when out of memory. */
long vb_grids_of_sweeps(const vb_case_set *set, const vb_sweep *sweeps, vb_grid **grids);
/* The grid a point belongs to, or NULL (a case of one point). */
vb_grid *vb_grid_of(vb_grid *grids, size_t n, const vb_case *c);

/* grid.csv and summary.md into DIR (a fresh directory).  0 or -1 with a
 * message. */
int vb_grid_write(const vb_grid *g, const char *dir, char *err, size_t errlen);
/* The grid's tables in Markdown (its summary.md, and its part of
 * DIR/summary.md). */
void vb_grid_summary(const vb_grid *g, FILE *f);

#endif
