/* changes.h — what got worse, what got better, against a baseline: the
 * tolerances that decide it, each change, and the report that check and
 * compare end with. */
#ifndef VB_CHANGES_H
#define VB_CHANGES_H

#include <stddef.h>
#include <stdio.h>

#include "loop.h"

typedef struct {
    /* an error counts as changed when it moves by more than this factor
     * (after > before (1 + rtol), or before > after (1 + rtol)) */
    double rtol;
    /* errors below floor_ulps · eps · steps^1.5 · scale are round-off,
     * whatever the method: two of them are never compared (a float32
     * run's: floor_ulps · eps32 · steps · scale, vb_check_roundoff_floor) */
    double floor_ulps;
    /* a fitted order counts as changed when it moves by more than this */
    double order_tol;
} vb_tolerance;

/* Defaults, justified in docs/check.md. */
#define VB_CHECK_RTOL 1e-3
#define VB_CHECK_FLOOR_ULPS 16.0
#define VB_CHECK_ORDER_TOL 0.05

/* WORSE fails the check; the others are reported.  FINAL is a change of a
 * final-time error, listed but never judged: it oscillates with where the
 * run's phase error leaves the solution at t_end. */
typedef enum { VB_WORSE, VB_BETTER, VB_MISSING, VB_NEW, VB_FINAL } vb_change_kind;

/* One change; changes of one (case, integrator, plan, metric) are folded
 * into the one that changed most, with `rows` counting them all. */
typedef struct {
    vb_change_kind kind;
    char case_name[64], plan[16], metric[40];
    char integ[VB_LOOP_NAME_MAX + 1]; /* whole: changes are folded by it (loop.h) */
    char dt[32], seed[24];
    char before[48], after[48];
    double factor; /* after / before for errors; 0 when it does not apply */
    size_t rows;
    char note[96]; /* e.g. "worse only at dt >= 0.02, better at every finer dt" */
} vb_change;

typedef struct {
    vb_change *v;
    size_t n, cap;
    size_t compared;      /* values compared in all */
    size_t worse, better; /* values, not table rows */
    size_t missing, added;
    size_t unshared; /* runs at step sizes only one side has (VB_COMPARE_SHARED_LEVELS) */
} vb_changes;

/* Record a change, folded into one of the same case, integrator, plan and
 * metric if there is one (the one that changed most stays, rows counts
 * them all).  0, or -1 out of memory. */
int vb_changes_record(vb_changes *out, const vb_change *c);
/* A change of one row, its other fields empty. */
void vb_change_fill(vb_change *c, vb_change_kind kind, const char *name, const char *integ,
                    const char *plan, const char *metric);

/* The table of changes: worse first, then missing, better, final-time,
 * new. */
void vb_changes_print(const vb_changes *c, FILE *f);

/* A whole case only one side has: VB_MISSING (its runs, all gone) or
 * VB_NEW.  0, or -1 out of memory. */
int vb_changes_add_case(vb_changes *out, vb_change_kind kind, const char *name, size_t runs);

/* The line check and compare begin with, "verletbench CMD: N cases WHAT
 * (the tolerances)", and the line of each case, "ok" or "WORSE". */
void vb_changes_header(FILE *f, const char *cmd, size_t cases, const char *what,
                       const vb_tolerance *tol);
void vb_changes_case_line(FILE *f, const char *name, int worse);

/* What check and compare end with: the table of changes, then
 * "passed: ..." or "FAILED: ..." with the counts.  1 when anything got
 * worse or a baseline run is missing (the exit status), else 0. */
int vb_changes_report(const vb_changes *c, FILE *f);
void vb_changes_free(vb_changes *c);

#endif
