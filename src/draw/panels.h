/* panels.h — what every chart builder of gpcharts.h begins with, written
 * once: the columns it needs checked, the table's curves found (one per
 * plan and integrator, csvread.h), the curves that lie on one another
 * (coincide.h), the trace plan's title; and the lines every chart of panels
 * writes the same way: the key outside on the right with the margins that
 * line the panels up, the figure's title over a column of panels, each
 * panel's title, and a data block a curve.
 *
 * A builder opens a vb_panels, decides what it draws, writes its own axes
 * and curves between these lines, and closes it: the bytes of its program
 * are the builder's, only their source is shared. */
#ifndef VB_PANELS_H
#define VB_PANELS_H

#include <stddef.h>
#include <stdio.h>

#include "coincide.h"
#include "csvread.h"
#include "gp.h"

/* which curves a chart draws */
typedef enum {
    VB_PANELS_GROUPS,    /* none of coincide.h's: the groups alone (a path chart) */
    VB_PANELS_EVERY,     /* every integrator of the table */
    VB_PANELS_STEPSIZED  /* those of fixed or random steps (vb_stepsized) */
} vb_panels_curves;

typedef struct vb_panels {
    vb_chart *ch;
    FILE *f;
    const vb_csv *t;
    vb_groups gs;
    vb_curves C;          /* the curves drawn (VB_PANELS_GROUPS: empty) */
    const char **series;  /* C.series */
    size_t ns;            /* C.ns */
    const char **picked;  /* VB_PANELS_STEPSIZED's series (owned) */
    double *ny;           /* what each row draws, for vb_curves_near (t->n_rows + 1) */
    char trace[512];      /* the trace plan's title (vb_trace_title) */
} vb_panels;

/* Check the columns need (NULL-ended) hold numbers, find the curves, make
 * the coincidence of `which` from column samecol (NULL: none).  0, or -1
 * with a message naming the file (a missing column, rows of a curve apart,
 * out of memory); vb_panels_close may be called either way. */
int vb_panels_open(vb_panels *P, vb_chart *ch, const vb_csv *t, const char *const *need,
                   vb_panels_curves which, const char *samecol, char *err, size_t errlen);
void vb_panels_close(vb_panels *P);

/* ny[r]: log10 of column col's value where it is finite and positive, else
 * NaN (a log axis draws nothing else) */
void vb_panels_log_ny(vb_panels *P, int col);
/* the y range of panel p's curves in ny, NaN left out: 0, or -1 when none */
int vb_panels_ny_range(const vb_panels *P, const vb_curves *C, const double *ny, size_t p,
                       double *lo, double *hi);

/* "SERIES" and its note ("  = NAME", "  ≈ NAME") of panel p's curve s */
void vb_panels_key(const vb_panels *P, const vb_curves *C, size_t p, size_t s, char *buf,
                   size_t len);
/* the longest key of vb_panels_key over every panel, at least least */
size_t vb_panels_keychars(const vb_panels *P, const vb_curves *C, size_t least);

/* the key outside on the right ("width W"), and the panels' margins for a
 * key of keychars on a canvas `canvas` pixels wide */
void vb_panels_key_right(const vb_panels *P, int width, size_t keychars, double canvas);
/* "set multiplot layout ROWS, 1 title" over the panels: "TITLE: WHAT" (what
 * NULL: the title alone) */
void vb_panels_layout(const vb_panels *P, size_t rows, const char *title, const char *what);
/* "set title TEXT noenhanced" */
void vb_panels_title(const vb_panels *P, const char *text);
/* the title of panel p of C: its plan's (vb_plan_title) */
void vb_panels_plan_title(const vb_panels *P, const vb_curves *C, size_t p,
                          const char *random_title);

/* A data block for each curve of panel p, in order, each row of it written
 * by row(f, t, r, arg): the id of the first block ($c<id>). */
typedef void vb_panels_row(FILE *f, const vb_csv *t, size_t r, const void *arg);
int vb_panels_blocks(vb_panels *P, const vb_curves *C, size_t p, vb_panels_row *row,
                     const void *arg);
/* a row's two cells "X,Y" (arg: int[2], their columns) */
void vb_panels_row_xy(FILE *f, const vb_csv *t, size_t r, const void *arg);

#endif
