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
 * a convergence.csv or grid.csv, else every directory that has one.  Their
 * number (0: none), the names in *names (free each and the array). */
size_t vb_drawn_cases(const char *results, char ***names);

/* A case's charts, in report order, into b (targets OUT/NAME/STEM.png),
 * each with what draw --dt and --methods picked (pick NULL: nothing; the
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
