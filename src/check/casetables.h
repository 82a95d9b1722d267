/* casetables.h — one case's tables against a baseline: what got worse, what
 * got better.  The baseline is what `verletbench run` wrote (runs.csv and
 * orders.csv of a case); the new side is the same tables of a fresh sweep,
 * as text.  A baseline that cannot be read as such tables — cut short,
 * columns renamed or named twice, cells that are not what the writer
 * prints, runs or orders of a listed integrator gone, an orders.csv not
 * written with its runs.csv, runs that are not the runs made now — is
 * refused, never taken as "nothing got worse". */
#ifndef VB_CASETABLES_H
#define VB_CASETABLES_H

#include <stddef.h>
#include <stdio.h>

#include "baseline.h"
#include "changes.h"
#include "match.h"
#include "schema.h"

/* Compare a case's baseline tables with new ones.  `name` is the case's
 * name, `case_path` its file (for messages).
 * Returns 0, VB_COMPARE_BAD (-1) when the baseline cannot be used: damaged,
 * made from other parameters, or comparing nothing (err says which file,
 * line and column); VB_COMPARE_OOM (-2) when memory ran out. */
int vb_compare_tables(const char *name, const char *case_path, vb_text base_runs,
                      vb_text base_orders, vb_text now_runs, vb_text now_orders,
                      const vb_tolerance *tol, vb_changes *out, char *err, size_t errlen);

/* Another table of a case (orders.csv, contact.csv) was written by the
 * same run as its runs.csv, which alone is held against the case's
 * parameters: it carries the same '#' lines (version, parameters,
 * integrators, truth), none gone, none added, but that the first says
 * "WHAT of" where runs.csv's says "runs of" (WHAT: names.h's description
 * of the file).  A table from another case or other parameters, or with
 * those lines deleted, would be judged as if it were this case's.  0, or
 * VB_COMPARE_BAD with the message. */
int vb_same_header(const vb_table *runs, const vb_table *other, const char *what, char *err,
                   size_t errlen);

/* A table of a case beside runs.csv (contact.csv, contact_orders.csv,
 * flips.csv) on both sides: the baseline's and its runs.csv, then now's,
 * parsed into t[0..3].  0 with all four to free (vb_free_beside_runs),
 * or the first failure's code with none left to free. */
int vb_parse_beside_runs(vb_text base, vb_text base_runs, vb_text now, vb_text now_runs,
                         vb_table t[4], char *err, size_t errlen);
void vb_free_beside_runs(vb_table t[4]);

/* A table of a case written a row a job of the sweep beside runs.csv
 * (flips.csv, stacks.csv; output/tables.c, stack_table.c): a row a run of
 * runs.csv, in its order.  Its '#' lines are runs.csv's (vb_same_header:
 * the first `what` of, then its own after them), it has as many rows, and
 * each of its columns that runs.csv has too (col[k] the table's column of
 * the schema's k) holds the same text as its run's.  So a row deleted
 * from either, or a table cut to its header, is damage, not a run gone.
 * 0, or VB_COMPARE_BAD naming file:line and the column. */
int vb_rows_are_runs(const vb_table *t, const vb_schema *sc, const int *col,
                     const vb_table *runs, const char *what, char *err, size_t errlen);

/* A table on a schema (numerics/schema.h) in one of its views (0: a
 * schema of one view): every column of the view once and no other, col[k]
 * the table's column of the schema's k, -1 for a column of another view.
 * 0, or VB_COMPARE_BAD naming the column. */
int vb_schema_columns(const vb_table *t, const vb_schema *sc, unsigned view, int *col,
                      char *err, size_t errlen);

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
int vb_compare_tables_ex(const char *name, const char *case_path, vb_text base_runs,
                         vb_text base_orders, vb_text now_runs, vb_text now_orders,
                         const vb_tolerance *tol, unsigned flags, vb_changes *out, char *err,
                         size_t errlen);

#endif
