/* gridspec.h — a case file's grid (gridspec.c): the keys that hold several
 * values, expanded, and the points of their product. */
#ifndef VB_GRIDSPEC_H
#define VB_GRIDSPEC_H

#include <stddef.h>

#include "case.h"
#include "parser.h"

/* The keys with several values, and each one's values. */
typedef struct {
    vb_entry *e[VB_MAX_GRID_KEYS]; /* the entries with several values */
    char spec[VB_MAX_GRID_KEYS][VB_CASE_LINE_MAX + 1]; /* their values as written */
    double *x[VB_MAX_GRID_KEYS];
    size_t count[VB_MAX_GRID_KEYS];
    int n;
    size_t points;
} vb_grid_spec;

/* Find the keys with several values and expand each.  0 (g->n = 0 for a
 * case of one point) or -1 after a message. */
int vb_grid_spec_find(vb_parser *p, vb_grid_spec *g);
void vb_grid_spec_free(vb_grid_spec *g);
/* Point `pt` of the grid: its index along each key (the first slowest). */
void vb_grid_spec_index(const vb_grid_spec *g, size_t pt, size_t *idx);
/* Where a case lies in its grid; NULL when out of memory. */
vb_case_grid *vb_grid_spec_point(const vb_grid_spec *g, const char *name, size_t pt);
/* A number of a grid, as text: the shortest that reads back to it (into
 * VB_GRID_VALUE_TEXT bytes). */
void vb_grid_value_text(double x, char *buf);

#endif
