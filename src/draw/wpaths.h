/* wpaths.h — what the two charts of a rigid body's w share (polhode.csv,
 * docs/rigid.md §7): the energy ellipsoid and w's period from body.csv
 * beside it, the box the charts draw (the ellipsoid's semi-axes with a
 * margin), and each method's curve: where it leaves the box, and the
 * earlier method whose path it is, to the file's digits (the polhode on the
 * ellipsoid, polhode.c; w against time, angvelchart.c). */
#ifndef VB_WPATHS_H
#define VB_WPATHS_H

#include <stddef.h>

#include "csvread.h"
#include "casecharts.h"
#include "gp.h"

/* the box drawn: this many times the ellipsoid's semi-axes sqrt(2T / I_i),
 * the largest |w_i| on the energy surface of the start */
#define VB_W_BOX 1.4

/* I1, I2, I3, 2T and w's period (inf where w(t) never returns) of the
 * body table t was drawn with: body.csv in t's directory, read by its
 * columns (output/body_table.h).  0, or -1 with a message naming the file
 * (missing, a column missing, numbers that are no rigid body's). */
int vb_w_ellipsoid(const vb_csv *t, double I[3], double *two_T, double *period, char *err,
                   size_t errlen);

/* a method's curve: its rows first..last of the plan drawn, up to end */
typedef struct vb_w_panel {
    const vb_group *g;
    size_t end;     /* one past the last row drawn */
    double left_at; /* the time it left the box, or NaN */
    int same_as;    /* the earlier curve it equals, or -1 */
} vb_w_panel;

/* The curves of every method under plan, in the order of the file, into pn
 * (room for gs->n_series): each up to where a component leaves the box of
 * semi-axes a, and the earlier curve with the same w at every row.  Their
 * number; *dt the step of the first (NaN for none). */
size_t vb_w_panels(const vb_csv *t, const vb_groups *gs, const char *plan, const double a[3],
                   vb_w_panel *pn, double *dt);
/* What both charts start from: the table's columns checked, its ellipsoid
 * and period, its curves, the fixed plan's (the one step the table was
 * picked to, pick.h) panels and the box's semi-axes a_i = sqrt(2T / I_i) */
typedef struct vb_w_chart {
    double I[3], two_T, period, a[3], dt;
    vb_groups gs;
    const vb_group *exact; /* NULL: the table has no exact rows */
    vb_w_panel *pn;
    size_t np;
} vb_w_chart;

/* 0, or -1 with a message naming the table (a column, its body.csv, no
 * method's curve); free with vb_w_chart_free either way */
int vb_w_chart_make(const vb_csv *t, vb_w_chart *w, char *err, size_t errlen);
void vb_w_chart_free(vb_w_chart *w);

/* "A = B = C", the methods of curve k and of those that are its path, and
 * " (leaves the box at t = T)" when it does */
void vb_w_key(const vb_w_panel *pn, size_t np, size_t k, char *key, size_t len);
/* rows first..end-1 as a data block of t, w1, w2, w3: its id */
int vb_w_block(vb_chart *ch, const vb_csv *t, size_t first, size_t end);

/* A rigid body's chart of w into b, OUT/CASE/NAME.png, its caption
 * "BEFORE at the fixed step dt = X (draw --dt)AFTER", or "BEFORE at the
 * coarsest fixed stepAFTER" when draw --dt picked none: 0, or -1 */
int vb_w_chart_add(const vb_chart_case *cc, const vb_chart_kind *kind, vb_batch *b,
                   const char *before, const char *after);

#endif
