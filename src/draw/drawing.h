/* drawing.h — charts drawn in batches: a batch is the charts of one case
 * (or the article's figures, or one chart asked for by name), each a table
 * read back, a gnuplot program written by the C of gpcharts.h, and a file
 * that appears whole or not at all.  Batches are drawn on up to `jobs`
 * gnuplot processes at once, each fed batch after batch. */
#ifndef VB_DRAWING_H
#define VB_DRAWING_H

#include <stddef.h>

typedef enum {
    VB_KIND_CONVERGENCE,
    VB_KIND_BAND,
    VB_KIND_ERROR_TIME,
    VB_KIND_ENERGY_TIME,
    VB_KIND_CONSTRAINT_TIME,
    VB_KIND_PATH,
    VB_KIND_WORK,
    VB_KIND_WORK_TIME,
    VB_KIND_RATES,
    VB_KIND_APEX,
    VB_KIND_BOUNCES,
    VB_KIND_TUNNEL,
    VB_KIND_GRID_ORDER,
    VB_KIND_GRID_ERROR,
    VB_KIND_LONGRUN,
    VB_KIND_STABILITY,
    VB_KIND_FLOAT32,
    VB_KIND_POLHODE,
    VB_KIND_ATTITUDE_TIME,
    VB_KIND_INVARIANTS_TIME,
    VB_KIND_ANGVEL_TIME,
    VB_KIND_ROLL_TIME,
    VB_KIND_CREEP,
    VB_KIND_ROLL_MAP,
    VB_N_KINDS
} vb_chart_kind;

/* the name a kind is asked for by (draw --chart NAME), and the table it reads */
const char *vb_kind_name(vb_chart_kind k);
const char *vb_kind_table(vb_chart_kind k);
/* the kind of a name, or -1 */
int vb_kind_of(const char *name);
/* a kind drawn at one step of several its table holds, which draw --dt
 * picks (a rigid body's w: polhode, angvel-time) */
int vb_kind_at_one_step(vb_chart_kind k);

typedef struct vb_chart_spec {
    vb_chart_kind kind;
    char *table;  /* the CSV it reads */
    char *target; /* the file it is written to */
    char *title;
    char *arg;    /* a path's plan, a grid's other keys ("k2=v2"), float32's method */
    char *integrators; /* a path's curves, space-separated (NULL: all) */
    char *layout;      /* a path's layout (NULL: by the number of curves) */
    char *stem, *caption; /* for the report */
    /* what draw --dt and --methods picked (pick.h): the step of a chart of
     * vb_kind_at_one_step (0: the coarsest), the curves of every chart
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
int vb_batch_add(vb_batch *b, vb_chart_kind kind, const char *table, const char *target,
                 const char *title, const char *arg, const char *stem, const char *caption);
/* What draw --dt and --methods picked, for every chart of a batch (the
 * list copied).  0 or -1. */
int vb_batch_pick(vb_batch *b, double dt, const char *methods);
void vb_batch_free(vb_batch *b);

/* Draw the batches, scratch directories under scratch_parent, on up to
 * jobs gnuplots.  Each chart that fails is said on stderr ("draw:
 * TARGET: why") and leaves no file.  The number of charts that failed. */
size_t vb_draw_batches(vb_batch *batches, size_t n, unsigned jobs, const char *scratch_parent);

#endif
