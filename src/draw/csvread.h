/* csvread.h — a table of a results directory read back for its charts: the
 * '#' lines, the header and the cells as written, and the curves in it.
 *
 * Every table `run` writes keeps the rows of one plan and integrator
 * together (the writers guarantee it); a chart draws such a run of rows as
 * one curve, found once here.  A file whose pairs are not contiguous was
 * not written by verletbench and is refused. */
#ifndef VB_CSVREAD_H
#define VB_CSVREAD_H

#include <stddef.h>

/* The largest table a chart reads (the chart data of a sweep is a few MB;
 * a full-resolution one a few tens). */
#define VB_CSV_LIMIT ((size_t)1 << 30)

typedef struct vb_csv {
    char *path;
    char *text;      /* the file, cut into lines and fields in place (NULL: another's) */
    char **comments; /* the '#' lines, in order, without the newline */
    size_t n_comments;
    char **head; /* the column names */
    int n_cols;
    char **cell; /* n_rows * n_cols (a row of another count of fields is refused) */
    size_t n_rows;
    /* each cell as a number, parsed the first time it is asked for (a
     * chart reads a path's cells several times; strtod was 70 % of draw's
     * own instructions).  NULL: parsed at each call.  Written by
     * vb_csv_num, so one table is read by one thread at a time (draw's
     * tables are each of one batch, on one thread). */
    double *num;
    unsigned char *parsed;
} vb_csv;

/* 0, or -1 with a message naming the file (no header, too large, unreadable;
 * a row of another count of fields than the header, or a last line cut
 * short: file and line). */
int vb_csv_read(const char *path, vb_csv *t, char *err, size_t errlen);
void vb_csv_free(vb_csv *t);
/* The rows of t where keep[row] is set, as a table of their own that
 * shares t's text (free it with vb_csv_free before t).  0, or -1. */
int vb_csv_filter(const vb_csv *t, const unsigned char *keep, vb_csv *out);
/* the index of a column, or -1 */
int vb_csv_col(const vb_csv *t, const char *name);
/* a cell's text; "" for a column of -1 */
const char *vb_csv_str(const vb_csv *t, size_t row, int col);
/* a cell as a number: NaN when empty or not a number ("inf" is infinite) */
double vb_csv_num(const vb_csv *t, size_t row, int col);
/* 1 when a cell holds a finite number */
int vb_csv_finite(const vb_csv *t, size_t row, int col, double *out);

/* One curve: the rows first..last of one plan and integrator. */
typedef struct vb_group {
    const char *plan, *integ;
    size_t first, last;
} vb_group;

/* The plans a chart draws a panel for, in this order, when present. */
#define VB_MAX_PANELS 3
extern const char *const vb_chart_plans[VB_MAX_PANELS];

typedef struct vb_groups {
    vb_group *g;
    size_t n;
    const char **series; /* the integrators in order of first appearance, "exact" left out */
    size_t n_series;
    const char *plans[VB_MAX_PANELS]; /* fixed, random, trace: those present */
    size_t n_plans;
} vb_groups;

/* The curves of a table with integrator and plan columns: 0, or -1 with a
 * message (a missing column, or the rows of one pair not together) and
 * nothing left to free (vb_groups_free may still be called: it is a
 * no-op then). */
int vb_groups_make(const vb_csv *t, vb_groups *gs, char *err, size_t errlen);
void vb_groups_free(vb_groups *gs);
/* the curve of one plan and integrator, or NULL */
const vb_group *vb_group_find(const vb_groups *gs, const char *plan, const char *integ);
/* the position of a name in series, or -1 */
int vb_series_index(const vb_groups *gs, const char *integ);

/* The columns a chart needs are there and hold numbers: 0, or -1 with the
 * message the scripts gave ("FILE: no column "dt" in the header: ..."). */
int vb_csv_require(const vb_csv *t, const char *const *cols, char *err, size_t errlen);
/* The header names a column (of text): 0, or -1 with the message. */
int vb_csv_has(const vb_csv *t, const char *col, char *err, size_t errlen);

#endif
