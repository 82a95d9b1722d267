/* csvtable.h — a CSV table as `run` writes it, read back: '#' lines, a
 * header, plain fields, and its cells held to what the writer prints; the
 * parameters its comment lines record.  What check/'s readers of runs.csv
 * and orders.csv (baseline.h) stand on, and casedirs.c reads files with.
 * Inside check/. */
#ifndef VB_CSVTABLE_H
#define VB_CSVTABLE_H

#include <stddef.h>

#include "precision.h"

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
/* The column of that name, or -1. */
int vb_table_column(const vb_table *t, const char *name);
/* The cells of a table as the writer prints them, for the readers of
 * check/ (runs.csv in baseline.c, orders.csv in baseline_orders.c): the column of
 * that name or a message naming it (0, or VB_COMPARE_BAD); a number
 * (%.17g: plain decimal digits, no sign but a zero's, no blank, no
 * hexadecimal, nan or inf, and "inf" itself where allow_inf), one that may be negative, a
 * count (%llu), the name of a plan.  0, or -1 for a cell the writer never
 * writes. */
int vb_need_column(const vb_table *t, const char *name, int *col, char *err, size_t errlen);
int vb_cell_number(const char *s, int allow_inf, double *out);
int vb_cell_signed(const char *s, double *out);
int vb_cell_count(const char *s, unsigned long long *out);
int vb_plan_name_valid(const char *s);
/* a run's status: ok, diverged, exact-failed, engine-failed, plugin-failed */
int vb_status_valid(const char *s);
/* A cell that is not what the writer puts there: file, line, column. */
int vb_table_bad_cell(const vb_table *t, size_t row, int col, const char *want, char *err,
                      size_t errlen);
/* The comment lines that fix what was run: "# model=..." and "# dt=...",
 * with a trace named by its file name only (the case may be given by
 * another path); with VB_COMPARE_SHARED_LEVELS, without "halvings=N". */
void vb_table_provenance(const vb_table *t, unsigned flags, char *out, size_t len);
/* A cell of a column that names a run (integrator, plan, status, model):
 * 1 with *want what it is not (NULL: it is what the writer prints there,
 * the model the '# model=' line's), 0 for another column. */
int vb_run_key_cell(const vb_table *t, const char *column, const char *cell, const char **want);
/* KEY=VALUE of the '# model=' line (its parameters), or NAN; the model's
 * name, that line's first word, into buf ("" without the line). */
double vb_table_model_param(const vb_table *t, const char *key);
void vb_table_model_name(const vb_table *t, char *buf, size_t len);
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

#endif
