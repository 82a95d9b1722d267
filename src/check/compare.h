/* compare.h — one case's tables against a baseline: what got worse, what
 * got better.  The baseline is what `verletbench run` wrote (runs.csv and
 * orders.csv of a case); the new side is the same tables of a fresh sweep,
 * as text.  A baseline that cannot be read as such tables — cut short,
 * columns renamed or named twice, cells that are not what the writer
 * prints, runs or orders of a listed integrator gone, an orders.csv not
 * written with its runs.csv, runs that are not the runs made now — is
 * refused, never taken as "nothing got worse". */
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

/* WORSE fails the check; the others are reported.  FINAL is a change of a
 * final-time error, listed but never judged: it oscillates with where the
 * run's phase error leaves the solution at t_end. */
typedef enum { VB_WORSE, VB_BETTER, VB_MISSING, VB_NEW, VB_FINAL } vb_change_kind;

/* One change; changes of one (case, integrator, plan, metric) are folded
 * into the one that changed most, with `rows` counting them all. */
typedef struct {
    vb_change_kind kind;
    char case_name[64], integ[48], plan[16], metric[40];
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

/* Compare a case's baseline tables with new ones.  `name` is the case's
 * name, `case_path` its file (for messages).
 * Returns 0, VB_COMPARE_BAD (-1) when the baseline cannot be used: damaged,
 * made from other parameters, or comparing nothing (err says which file,
 * line and column); VB_COMPARE_OOM (-2) when memory ran out. */
#define VB_COMPARE_BAD (-1)
#define VB_COMPARE_OOM (-2)
int vb_compare_tables(const char *name, const char *case_path, vb_text base_runs,
                      vb_text base_orders, vb_text now_runs, vb_text now_orders,
                      const vb_tolerance *tol, vb_changes *out, char *err, size_t errlen);

/* A case of the baseline that is run no more (a point of a grid the case
 * file narrowed, from k = 1, 2, 3 to k = 1, 2): every run of its runs.csv
 * is missing, as the runs of a dropped integrator are.  0, or
 * VB_COMPARE_BAD (a runs.csv that cannot be read) or VB_COMPARE_OOM. */
int vb_compare_gone(const char *name, vb_text base_runs, vb_changes *out, char *err,
                    size_t errlen);

/* The same, where the two sides may have different `halvings` (6 against
 * 9, say): the step sizes both have are compared, those only one side has
 * are counted in out->unshared, neither missing nor new; each side's
 * orders are its own fit.  flags: 0, or VB_COMPARE_SHARED_LEVELS. */
#define VB_COMPARE_SHARED_LEVELS 1u
int vb_compare_tables_ex(const char *name, const char *case_path, vb_text base_runs,
                         vb_text base_orders, vb_text now_runs, vb_text now_orders,
                         const vb_tolerance *tol, unsigned flags, vb_changes *out, char *err,
                         size_t errlen);

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
