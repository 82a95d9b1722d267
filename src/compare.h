/* compare.h — one case's tables against a baseline: what got worse, what
 * got better.  Both sides are directories as `verletbench run` writes them
 * (NAME/runs.csv, NAME/orders.csv); the comparison reads only those files. */
#ifndef VB_COMPARE_H
#define VB_COMPARE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    /* an error counts as changed when it moves by more than this factor
     * (after > before (1 + rtol), or before > after (1 + rtol)) */
    double rtol;
    /* errors below floor_ulps · eps · steps^1.5 · scale are round-off,
     * whatever the method: two of them are never compared */
    double floor_ulps;
    /* a fitted order counts as changed when it moves by more than this */
    double order_tol;
} vb_tolerance;

/* Defaults, justified in docs/check.md. */
#define VB_CHECK_RTOL 1e-3
#define VB_CHECK_FLOOR_ULPS 16.0
#define VB_CHECK_ORDER_TOL 0.05

typedef enum { VB_WORSE, VB_BETTER, VB_MISSING, VB_NEW } vb_change_kind;

/* One change; run rows of one (case, integrator, plan, metric) are folded
 * into the row that changed most, with `rows` counting them all. */
typedef struct {
    vb_change_kind kind;
    char case_name[64], integ[48], plan[16], metric[40];
    char dt[32], seed[24];
    char before[48], after[48];
    double factor; /* after / before for errors; 0 when it does not apply */
    size_t rows;
} vb_change;

typedef struct {
    vb_change *v;
    size_t n, cap;
    size_t compared;      /* values compared in all */
    size_t worse, better; /* values, not table rows */
    size_t missing, added;
} vb_changes;

/* Compare BASE/NAME with NEW/NAME.  0, or -1 with a message when a file is
 * missing or unreadable, or the two were made with different parameters
 * (then the baseline is stale, not the method worse). */
int vb_compare_case(const char *base, const char *now, const char *name, const vb_tolerance *tol,
                    vb_changes *out, char *err, size_t errlen);

/* The table of changes: worse first, then missing, better, new. */
void vb_changes_print(const vb_changes *c, FILE *f);
void vb_changes_free(vb_changes *c);

#endif
