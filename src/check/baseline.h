/* baseline.h — a baseline's tables read back: a CSV table as `run` writes
 * it, its '#' lines and its cells, and the rows of runs.csv (baseline.c)
 * and orders.csv (baseline_orders.c).  Inside check/, but for vb_read_file and the
 * limits. */
#ifndef VB_BASELINE_H
#define VB_BASELINE_H

#include <stddef.h>

#include "precision.h"
#include "runs_table.h"

/* The text of one table and the name it goes by in messages. */
typedef struct {
    const char *path;
    const char *text;
    size_t len;
} vb_text;

/* Read a whole file of at most `limit` bytes into a NUL-terminated buffer
 * (free it).  0, or -1 with a message. */
int vb_read_file(const char *path, size_t limit, char **text, size_t *len, char *err,
                 size_t errlen);

/* The largest baseline table read: far above any real one (a sweep of
 * every integrator at 24 halvings and 1000 seeds is ~100 MB). */
#define VB_TABLE_LIMIT ((size_t)1 << 30)

/* What the readers return: 0, VB_COMPARE_BAD (-1) when a table cannot be
 * used (damaged, made from other parameters, comparing nothing: the
 * message says which file, line and column), VB_COMPARE_OOM (-2) when
 * memory ran out. */
#define VB_COMPARE_BAD (-1)
#define VB_COMPARE_OOM (-2)
/* A comparison of two sides with different `halvings` (casetables.h): the
 * step sizes both have are the same runs, those only one side has are
 * counted apart. */
#define VB_COMPARE_SHARED_LEVELS 1u

/* The message, and VB_COMPARE_BAD; "out of memory", and VB_COMPARE_OOM. */
int vb_compare_bad(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int vb_compare_oom(char *err, size_t errlen);

/* ---- a CSV table as `run` writes it: '#' lines, a header, plain fields ---- */

typedef struct {
    const char *path;
    char *buf;
    char **comments;
    unsigned long *comment_line; /* the line number of each comment */
    size_t n_comments;
    char **head;
    unsigned long head_line;
    size_t ncol;
    char ***rows;
    unsigned long *line; /* the line number of each row */
    size_t nrow;
} vb_table;

/* Fields are split at every comma: the tables never quote.  0, or a
 * VB_COMPARE_ code with the message. */
int vb_table_parse(vb_text in, vb_table *t, char *err, size_t errlen);
void vb_table_free(vb_table *t);
/* The cells of a table as the writer prints them, for the readers of
 * check/ (runs.csv in baseline.c, orders.csv in baseline_orders.c): the column of
 * that name or a message naming it (0, or VB_COMPARE_BAD); a number
 * (%.17g: plain decimal digits, no sign, no blank, no hexadecimal, nan or
 * inf, and "inf" itself where allow_inf), one that may be negative, a
 * count (%llu), the name of a plan.  0, or -1 for a cell the writer never
 * writes. */
int vb_need_column(const vb_table *t, const char *name, int *col, char *err, size_t errlen);
int vb_cell_number(const char *s, int allow_inf, double *out);
int vb_cell_signed(const char *s, double *out);
int vb_cell_count(const char *s, unsigned long long *out);
int vb_plan_name_valid(const char *s);
/* A cell that is not what the writer puts there: file, line, column. */
int vb_table_bad_cell(const vb_table *t, size_t row, int col, const char *want, char *err,
                      size_t errlen);
/* The comment lines that fix what was run: "# model=..." and "# dt=...",
 * with a trace named by its file name only (the case may be given by
 * another path); with VB_COMPARE_SHARED_LEVELS, without "halvings=N". */
void vb_table_provenance(const vb_table *t, unsigned flags, char *out, size_t len);
/* The "# integrators=a,b,c" line, or NULL; whether a name is in such a list. */
const char *vb_table_integrators(const vb_table *t);
int vb_in_list(const char *list, const char *name);
/* An integrator's name as the tables print it (a-z 0-9 - _, and a method
 * with parameters set, NAME:KEY=VALUE[:KEY=VALUE]). */
int vb_check_name_valid(const char *s);
/* The arithmetic the table records for integrator `integ`: float32 for a
 * built-in run in float32 (its name carries ":precision=float32") and for
 * an engine whose provenance line says it declared precision=float32
 * ("# engine NAME: ...; protocol 2, ..., float32, velocity ..."); float64
 * otherwise.  check's round-off floor is read from the tables, never from
 * the case file, so `compare OLD NEW` judges alike. */
vb_precision vb_table_precision(const vb_table *t, const char *integ);
/* 1 when the table's provenance says engine `integ` declared velocity=none
 * ("# engine NAME: ...; protocol 2, ..., velocity none"): its rows leave
 * the metrics of vb_check_velocity blank (docs/real-engines.md §1.7). */
int vb_table_no_velocity(const vb_table *t, const char *integ);

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

#endif
