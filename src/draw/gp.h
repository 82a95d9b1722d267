/* gp.h — writing a gnuplot program: strings quoted so that no byte of a
 * name or title can end them or run a command, numbers, data blocks, and
 * what every chart shares (style.gp's settings, reset before each chart so
 * that one gnuplot draws many). */
#ifndef VB_GP_H
#define VB_GP_H

#include <stddef.h>
#include <stdio.h>

/* One chart being written: the program, the file gnuplot writes it to (a
 * name the program may hold as it is: the plotter's own), SVG or PNG. */
typedef struct vb_chart {
    FILE *f;
    const char *out;
    int svg;
    int blocks; /* data blocks written for this chart ($c1, $c2, ...) */
} vb_chart;

/* s as a gnuplot string constant: double quotes, with \ " and newline
 * escaped, and ` (which gnuplot substitutes even in double quotes) and
 * every other control byte in octal */
void vb_gp_str(FILE *f, const char *s);
/* a number as gnuplot reads it back exactly; NaN and infinities as NaN */
void vb_gp_num(FILE *f, double v);

/* The start of a chart: reset, the shared settings, the terminal (pngcairo
 * or svg) of w x h pixels at font size pt and line width lw, butt line
 * ends when asked (striped curves need them), and the output. */
void vb_gp_begin(vb_chart *ch, double w, double h, int pt, double lw, int butt);
/* the end of a chart: its file closed */
void vb_gp_end(vb_chart *ch);

/* A data block, its lines comma-separated fields: the id to plot it by
 * ($c<id>).  End it with vb_gp_block_end. */
int vb_gp_block_begin(vb_chart *ch);
void vb_gp_block_end(vb_chart *ch);

/* the number of characters of a UTF-8 string (gnuplot's strlen under
 * `set encoding utf8`: a key's width) */
size_t vb_utf8_len(const char *s);

/* the width in pixels of a key title of n characters at the key's font
 * (DejaVu Sans 10 on pngcairo, measured on "tcv-jakobsen:sweeps=10  =
 * jakobsen:sweeps=10"; 6.2 px ran the longer titles into the plot area),
 * its sample and gaps 62 */
double vb_key_px(size_t chars);
/* the panels of one figure line up: their plot areas start and end at the
 * same x, the key (outside, right) in a margin sized to its longest title */
void vb_gp_margins(FILE *f, size_t keychars, double width);

/* what a panel of each plan is titled */
const char *vb_plan_title(const char *plan, const char *random_title, const char *trace_title);
/* "recorded frame trace NAME (N steps)" from a table's '#' lines, or
 * "recorded frame trace" */
void vb_trace_title(char *const *comments, size_t n, char *buf, size_t len);

/* the text shown where a panel has nothing finite to draw */
#define VB_NO_FINITE                                                                         \
    "no finite errors to draw: every run diverged,\nor its exact solution could not be computed"

#endif
