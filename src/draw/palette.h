/* palette.h — one colour and point type per curve, so a method looks the
 * same on every chart: the built-in integrators in table order, a built-in
 * with parameters set ("jakobsen:sweeps=10") and yours (a plugin's method,
 * an engine) from palettes of their own. */
#ifndef VB_PALETTE_H
#define VB_PALETTE_H

#include <stddef.h>

/* The colour ("#rrggbb") and gnuplot point type of curve NAME among the
 * chart's curves series[0..n) (a name not built in takes the next colour of
 * its palette by its place among them). */
const char *vb_palette_colour(const char *const *series, size_t n, const char *name);
int vb_palette_point(const char *const *series, size_t n, const char *name);

/* the grey of the exact path */
#define VB_EXACT_COLOUR "#888888"

/* The built-in names and their colours, in table order (for the tests'
 * and a user's reading: `verletbench draw --palette`). */
size_t vb_palette_builtins(const char *const **names, const char *const **colours,
                           const int **points);

#endif
