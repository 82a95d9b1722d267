/* baseline.h — a baseline's tables read back: the rows of runs.csv
 * (baseline.c) and orders.csv (baseline_orders.c), each a CSV table as
 * `run` writes it (csvtable.h).  Inside check/. */
#ifndef VB_BASELINE_H
#define VB_BASELINE_H

#include <stddef.h>

#include "csvtable.h"
#include "runs_table.h"

/* ---- runs.csv ---- */

/* The metrics compared: the columns of runs.csv whose role is VB_METRIC
 * (output/runs_table.c), in its order, by number: their names; which are
 * final-time values (never judged: the error at t_end, and the return
 * error |x(t_end) - x(0)|, oscillate with where the run's phase error
 * leaves it); their scale; and which are computed from the velocity
 * (blank for an engine without one).  A new metric is a line of that
 * table. */
#define VB_CHECK_METRICS_MAX VB_SCHEMA_MAX_COLUMNS
static inline int vb_check_metrics(void) { return (int)vb_runs_metrics(); }
static inline const char *vb_check_metric(int m) { return vb_runs_metric((size_t)m)->name; }
static inline int vb_check_final(int m) { return vb_runs_metric((size_t)m)->final; }
static inline vb_scale vb_check_scale(int m) { return vb_runs_metric((size_t)m)->scale; }
static inline int vb_check_velocity(int m) { return vb_runs_metric((size_t)m)->velocity; }
/* The number of the metric of that name, or -1. */
int vb_check_metric_index(const char *name);

typedef struct vb_run_rec {
    const char *model, *integ, *plan, *seed, *status, *dt;
    int level;
    /* what fixes the run besides its key: the same on both sides, or the
     * two are not the same run (jitter is NAN for a trace plan) */
    double dt_value, jitter, t_end, steps;
    double pscale, vscale; /* of the exact solution: the same on both sides */
    /* an adaptive method's tolerance (NAN for another method) and a frame
     * loop's lag_max (NAN in a table without loops): fixed by the plan, as
     * dt is */
    double tol, lag;
    double m[VB_CHECK_METRICS_MAX];   /* NAN where the metric does not apply */
    int no_velocity; /* an engine of velocity=none (vb_table_no_velocity) */
    unsigned long line;
    const struct vb_run_rec *partner; /* the same run on the other side, or NULL */
} vb_run_rec;

typedef struct {
    vb_run_rec *r;
    size_t n;
    int has[VB_CHECK_METRICS_MAX]; /* the metric applies (its cells are filled) */
    int has_ref; /* ref_err_pos, ref_err_vel and resolved are filled (a reference solution) */
} vb_run_set;

/* Read and check every row of a runs.csv, sorted by (integrator, plan,
 * level, seed); nothing left allocated when it fails. */
int vb_read_runs(const vb_table *t, vb_run_set *set, char *err, size_t errlen);
vb_run_rec *vb_find_run(const vb_run_set *set, const vb_run_rec *key);

/* ---- orders.csv ---- */

typedef struct {
    const char *integ, *plan, *norm, *verdict;
    double order; /* NAN when none */
    unsigned long line;
    const void *partner;
} vb_order_rec;

/* Read and check every row of an orders.csv, sorted by (integrator, plan,
 * norm); *out is malloc'd. */
int vb_read_orders(const vb_table *t, vb_order_rec **out, char *err, size_t errlen);
/* the order of (integrator, plan, norm) */
int vb_by_order_key(const void *a, const void *b);
/* How good a verdict is (4 exact ... 0 not converging), or -1 for none. */
int vb_verdict_rank(const char *v);
/* The verdicts a fit's table leaves the order blank with (exact,
 * undetermined, below-resolution): 1 for those. */
int vb_verdict_without_order(const char *v);
/* A local_orders cell as the writer prints it: "q q q", each with 3
 * decimals or '-' where undefined, one blank between.  1 when it is. */
int vb_local_orders_text(const char *s);
/* A least-squares slope over contiguous points is a weighted mean, with
 * positive weights, of the slopes between neighbours: 1 when order lies
 * between the least and the greatest of the local orders (printed to 3
 * decimals: within 0.0005 of them). */
int vb_order_within_local(double order, const char *local);

#endif
