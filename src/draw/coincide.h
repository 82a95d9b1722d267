/* coincide.h — curves that lie on one another, drawn so that every colour
 * stays visible.
 *
 * A curve whose errors equal an earlier one's to round-off (the table's
 * same_as column, energy_same_as on the energy chart) is that curve's
 * "follower"; so is one within a line's width of an earlier curve at three
 * quarters of the points either draws (vb_curves_near: verlet under
 * verlet-naive on the 64-mass chain's random panel), keyed "≈".  The
 * leader is drawn wider, its followers over it at one width, striped: with
 * K curves in the group, follower r (1 .. K-1) draws only the r-th of every
 * K dashes, so the line reads leader, 1st, 2nd ... follower's colour in
 * turn, and the wider leader shows along both edges.  The point symbols
 * (each integrator its own shape) are concentric: biggest for the leader,
 * smaller for each later follower.  The key entry of a follower says
 * "= LEADER" or "≈ LEADER". */
#ifndef VB_COINCIDE_H
#define VB_COINCIDE_H

#include <stdio.h>

#include "csvread.h"

/* a curve within NEAR_FRAC of the panel's span of decades (4 px of a 330 px
 * panel) at NEAR_SHARE of the points either draws would hide under it */
#define VB_NEAR_FRAC 0.012
#define VB_NEAR_SHARE 0.75
/* a chart over time spans at most this many decades: a run that overflows
 * (Euler on the chaotic Henon-Heiles, to 1e300) leaves it at the top
 * instead of flattening every other curve into one line */
#define VB_MAX_DECADES 20.0
/* one dash of a striped follower, in line widths */
#define VB_STRIPE 12.0

typedef struct vb_curves {
    const vb_groups *gs;
    const char **series; /* the curves drawn, in order */
    size_t ns;
    const char *plans[VB_MAX_PANELS];
    size_t np;
    const char **raw;  /* [p * ns + s]: the leader the table names, or "" */
    const char **near; /* [p * ns + s]: the curve it would hide under, or "" */
    /* the work chart: equal errors lie on one curve only at equal cost, the
     * force evaluations of each curve's first row (within 5 %) */
    int by_cost;
    double *cost; /* [p * ns + s] */
} vb_curves;

/* The chart's curves: series, or all the table's when NULL; raw from the
 * first row of each curve's column samecol (NULL or absent: none).  0, or
 * -1 (out of memory). */
int vb_curves_init(vb_curves *c, const vb_csv *t, const vb_groups *gs, const char **series,
                   size_t ns, const char *samecol);
void vb_curves_free(vb_curves *c);
/* the curve of panel p and series s, or NULL */
const vb_group *vb_curve(const vb_curves *c, size_t p, size_t s);
/* Find the curves that would hide under an earlier one: y[row] the value a
 * row draws (log10 of it on a log axis; NaN: not drawn). */
void vb_curves_near(vb_curves *c, const double *y);

const char *vb_same_as(const vb_curves *c, size_t p, size_t s);
int vb_follower_rank(const vb_curves *c, size_t p, size_t s);
double vb_curve_lw(const vb_curves *c, size_t p, size_t s, double w);
double vb_curve_ps(const vb_curves *c, size_t p, size_t s, double z);
int vb_curve_dt(const vb_curves *c, size_t p, size_t s);
/* "  = NAME", "  ≈ NAME" or "" */
void vb_same_note(const vb_curves *c, size_t p, size_t s, char *buf, size_t len);
/* some curve of panel p is keyed "≈" */
int vb_panel_has_near(const vb_curves *c, size_t p);
/* "unset label 22", then, where panel p has a curve keyed "≈", the label
 * that says what "≈" means ("same WHAT"), at graph height y */
void vb_near_label(const vb_curves *c, size_t p, const char *what, double y, FILE *f);
/* the dash types of panel p's followers */
void vb_curves_stripes(const vb_curves *c, size_t p, FILE *f);

#endif
