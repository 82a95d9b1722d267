/* drawing.h — charts drawn in batches: a batch is the charts of one case
 * (or the article's figures, or one chart asked for by name), each a table
 * read back, a gnuplot program written by the C of gpcharts.h, and a file
 * that appears whole or not at all.  Batches are drawn on up to `jobs`
 * gnuplot processes at once, each fed batch after batch. */
#ifndef VB_DRAWING_H
#define VB_DRAWING_H

#include <stddef.h>

#include "csvread.h"
#include "gp.h"
#include "schema.h"

/* A kind of chart (draw --chart NAME): one const vb_chart_kind each,
 * defined in its builder's file beside the builder (polhode.c's
 * vb_kind_polhode), listed once in chartkinds.c's table (chartkinds.h). */
typedef struct vb_chart_kind vb_chart_kind;

typedef struct vb_chart_spec {
    const vb_chart_kind *kind;
    char *table;  /* the CSV it reads */
    char *target; /* the file it is written to */
    char *title;
    char *arg;    /* a path's plan, a grid's other keys ("k2=v2"), float32's method */
    char *integrators; /* a path's curves, space-separated (NULL: all) */
    char *layout;      /* a path's layout (NULL: by the number of curves) */
    char *stem, *caption; /* for the report */
    /* what draw --dt and --methods picked (pick.h): the step of a chart whose
     * kind is one_step (0: the coarsest), the curves of every chart
     * ("a,b", and the exact one; NULL: every one) */
    double dt;
    char *methods;
    int drawn;            /* set by vb_draw_batches */
} vb_chart_spec;

typedef struct vb_batch {
    char *name;
    vb_chart_spec *charts;
    size_t n;
    size_t drawn, failed;
} vb_batch;

/* Add a chart to a batch (strings copied; NULL ones stay NULL).  0 or -1. */
int vb_batch_add(vb_batch *b, const vb_chart_kind *kind, const char *table, const char *target,
                 const char *title, const char *arg, const char *stem, const char *caption);
/* What draw --dt and --methods picked, for every chart of a batch (the
 * list copied).  0 or -1. */
int vb_batch_pick(vb_batch *b, double dt, const char *methods);
void vb_batch_free(vb_batch *b);

/* Draw the batches, scratch directories under scratch_parent, on up to
 * jobs gnuplots.  Each chart that fails is said on stderr ("draw:
 * TARGET: why") and leaves no file.  The number of charts that failed. */
size_t vb_draw_batches(vb_batch *batches, size_t n, unsigned jobs, const char *scratch_parent);

/* what `draw --chart KIND TABLE OUT` takes after OUT */
typedef enum {
    VB_CHART_ARGS_TITLE,      /* [TITLE] */
    VB_CHART_ARGS_PATH,       /* [TITLE] [PLAN] ['INTEGRATOR ...'] [single|grid] */
    VB_CHART_ARGS_GRID,       /* [TITLE] [K2=V2,...]: a combination of the other keys */
    VB_CHART_ARGS_INTEGRATOR  /* INTEGRATOR [TITLE] */
} vb_chart_args;

/* a case's results directory as its charts are chosen (casecharts.h) */
struct vb_chart_case;

/* the cases whose charts a kind is among, by what their directories hold:
 * each gets the charts of its group and no other's */
typedef enum {
    VB_CHARTS_BY_NAME,   /* none: drawn by name alone (draw --chart) */
    VB_CHARTS_PARTICLES, /* a sweep of particles' (convergence.csv and the rest) */
    VB_CHARTS_GRID,      /* a grid's own directory (grid.csv) */
    VB_CHARTS_BODY,      /* a rigid body's (polhode.csv: its particle chart
                          * data would be the packed (x, q)) */
    VB_CHARTS_BODY_CONTACT /* a rigid body at a contact's (motion.csv: a body
                            * on the ground; contact.csv says what it measured) */
} vb_chart_group;

/* the chart's gnuplot program into ch from the rows t (picked): 0, or -1
 * with a message naming the file */
typedef int vb_chart_build(vb_chart *ch, const vb_chart_spec *c, const vb_csv *t, char *err,
                           size_t errlen);

struct vb_chart_kind {
    const char *name;        /* as asked for: draw --chart NAME; a-z 0-9 - */
    const vb_schema *table;  /* the table it reads (its file: CASE/table->file) */
    vb_chart_args args;
    /* drawn at one step of the several its table holds, the coarsest or
     * the one draw --dt picks (pick.h: a rigid body's w) */
    int one_step;
    vb_chart_build *build;
    /* Which cases get it, in the report under the case's table, in the
     * order of the table (chartkinds.c): those of its group that applies
     * says yes to (NULL: every one), a chart each, OUT/CASE/NAME.png
     * titled with the case's name and caption under it; or, for charts
     * that vary with the case (one a grid's combination, a caption naming
     * draw --dt's step), those add puts in b itself (0, or -1: out of
     * memory) for a case of its group. */
    vb_chart_group group;
    int (*applies)(const struct vb_chart_case *cc, const vb_chart_kind *kind);
    const char *caption;
    int (*add)(const struct vb_chart_case *cc, const vb_chart_kind *kind, vb_batch *b);
};

#endif
