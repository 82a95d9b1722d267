/* casecharts.h — what is drawn of a results directory: its cases (those
 * of the last run, as its summary.md names them), each case's charts by
 * what its tables hold, the article's figures, and RESULTS/REPORT.md with
 * each case's table beside its charts. */
#ifndef VB_CASECHARTS_H
#define VB_CASECHARTS_H

#include <stddef.h>

#include "drawing.h"
#include "pick.h"

/* The cases of RESULTS: the "## NAME" headings of its summary.md that have
 * a convergence.csv, grid.csv, polhode.csv or motion.csv, else every
 * directory that has one.  Their number (0: none), the names in *names
 * (free each and the array). */
size_t vb_drawn_cases(const char *results, char ***names);

/* A case as its charts are chosen (drawing.h's applies and add): its
 * directory RESULTS/NAME, where its charts go (OUT/NAME), what draw --dt
 * and --methods picked (NULL: nothing), the group of charts its tables
 * make it one of (grid.csv, else motion.csv, else polhode.csv, else a
 * sweep's). */
typedef struct vb_chart_case {
    const char *results, *out, *name;
    const vb_pick *pick;
    vb_chart_group group;
} vb_chart_case;

/* RESULTS/NAME/TABLE's file into buf */
void vb_chart_case_path(const vb_chart_case *cc, const vb_schema *table, char *buf, size_t len);
/* the case has the table (a regular file) */
int vb_chart_case_has(const vb_chart_case *cc, const vb_schema *table);
/* the case has the kind's table: an applies of drawing.h */
int vb_chart_case_has_its(const vb_chart_case *cc, const vb_chart_kind *kind);
/* the table's header names the column col (NULL: any), and whether it has
 * a row (*rows 0 or 1); 0 when it cannot be read */
int vb_chart_case_header(const vb_chart_case *cc, const vb_schema *table, const char *col,
                         int *rows);
/* A chart of kind into b: OUT/NAME/STEM.png of RESULTS/NAME/its table,
 * titled title (NULL: the case's name), arg as the kind takes it.  0, or
 * -1 (out of memory). */
int vb_chart_case_add(const vb_chart_case *cc, vb_batch *b, const vb_chart_kind *kind,
                      const char *stem, const char *title, const char *arg, const char *caption);

/* A case's charts, in report order (chartkinds.c's table's), into b
 * (targets OUT/NAME/STEM.png), each with what draw --dt and --methods picked (pick NULL: nothing; the
 * captions say what was).  0, or -1 (out of memory). */
int vb_case_charts(const char *results, const char *out, const char *name, const vb_pick *pick,
                   vb_batch *b);

/* The article's figures from RESULTS/article-{projectile,spring,orbit}
 * into OUT.  0, or -1 with a message (a case missing). */
int vb_article_charts(const char *results, const char *out, vb_batch *b, char *err,
                      size_t errlen);

/* RESULTS/REPORT.md, whole or not at all: each case's summary.md and the
 * charts drawn of it (drawn: batches[i] for cases[i]; NULL: no gnuplot,
 * and the report says so).  0, or -1 with a message. */
int vb_write_report(const char *results, const char *out, char *const *cases, size_t n,
                    const vb_batch *batches, char *err, size_t errlen);

/* REPORT.md may be written: not a directory, not read-only.  0, or -1
 * with a message. */
int vb_report_writable(const char *results, char *err, size_t errlen);

#endif
