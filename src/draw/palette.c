/* palette.c — colours and point types of the curves (palette.h). */
#include "palette.h"

#include <string.h>

/* integrators in table order (the constrained ones, then the rotation
 * methods, last: they never share a chart with the others, so their
 * colours may repeat; none of the rotation methods' is the exact path's
 * grey) */
static const char *const builtin[] = {
    "euler", "euler-semi", "verlet", "verlet-naive", "tcv", "verlet-var", "velocity-verlet",
    "leapfrog", "rk4", "beeman", "yoshida4", "pefrl", "rkf45", "rk8pd", "jakobsen",
    "tcv-jakobsen", "shake", "rattle", "rigid-euler", "rigid-no-gyro", "rigid-explicit-gyro",
    "rigid-explicit-gyro-linear", "rigid-implicit-gyro", "rigid-rk4", "rigid-splitting",
    "rigid-no-squish", "rigid-splitting4"};
static const char *const colours[] = {
    "#d62728", "#ff7f0e", "#1f77b4", "#9467bd", "#2ca02c", "#17becf", "#000000", "#8c564b", "#e377c2",
    "#bcbd22", "#393b79", "#e6550d", "#637939", "#7b4173", "#d62728", "#2ca02c", "#1f77b4", "#000000",
    "#d62728", "#8c564b", "#ff7f0e", "#bcbd22", "#9467bd", "#e377c2", "#1f77b4", "#17becf", "#2ca02c"};
/* all open shapes: drawn concentric on coincident curves, none hides the
 * smaller ones inside it */
static const int points[] = {1, 2, 6, 8, 4, 12, 3, 10, 14, 1, 2, 4, 6, 8, 1, 4, 6, 3,
                             1, 2, 6, 8, 4, 12, 3, 10, 14};
/* a built-in method with parameters set takes these in turn */
static const char *const extra_colours[] = {"#ff7f0e", "#9467bd", "#8c564b", "#17becf",
                                            "#bcbd22", "#e377c2", "#393b79", "#7f7f7f"};
static const int extra_points[] = {2, 8, 12, 10, 14, 4, 6, 1};
/* yours: colours no built-in has, and filled shapes (every built-in's is
 * open), so your curve is never mistaken for euler-semi's */
static const char *const user_colours[] = {"#ff00ff", "#ffb000", "#006d6d", "#808080",
                                           "#56b4e9", "#800020", "#00d084", "#ff6f91"};
static const int user_points[] = {7, 5, 9, 11, 13, 15, 7, 5};

#define N_BUILTIN (sizeof builtin / sizeof builtin[0])

/* 1 + the place of a built-in name, or 0 */
static size_t builtin_index(const char *name, size_t len)
{
    for (size_t i = 0; i < N_BUILTIN; i++)
        if (strlen(builtin[i]) == len && strncmp(builtin[i], name, len) == 0)
            return i + 1;
    return 0;
}

/* a rotation method in a frame loop ("rigid-euler@variable": spin-major's
 * one step a frame) takes its method's colour: a rigid case's charts draw
 * one loop of each method, and nine of them would run past the eight
 * colours of the names not built in */
static size_t whole_index(const char *name)
{
    size_t i = builtin_index(name, strlen(name));
    const char *at = strchr(name, '@');
    if (!i && at && !strncmp(name, "rigid-", 6))
        i = builtin_index(name, (size_t)(at - name));
    return i;
}

/* "jakobsen:sweeps=10" is a built-in's */
static int is_builtin(const char *name)
{
    const char *colon = strchr(name, ':');
    return builtin_index(name, colon ? (size_t)(colon - name) : strlen(name)) > 0;
}

/* the place of a name not built in among the chart's names that are not,
 * counted up to and with it: 0..7 */
static size_t extra_index(const char *const *series, size_t n, const char *name)
{
    size_t at = n;
    for (size_t i = 0; i < n; i++)
        if (strcmp(series[i], name) == 0) {
            at = i;
            break;
        }
    size_t k = 0;
    if (at < n)
        for (size_t i = 0; i <= at; i++)
            k += whole_index(series[i]) == 0;
    return (k + 7) % 8;
}

const char *vb_palette_colour(const char *const *series, size_t n, const char *name)
{
    size_t i = whole_index(name);
    if (i)
        return colours[i - 1];
    return (is_builtin(name) ? extra_colours : user_colours)[extra_index(series, n, name)];
}

int vb_palette_point(const char *const *series, size_t n, const char *name)
{
    size_t i = whole_index(name);
    if (i)
        return points[i - 1];
    return (is_builtin(name) ? extra_points : user_points)[extra_index(series, n, name)];
}

size_t vb_palette_builtins(const char *const **names, const char *const **cols, const int **pts)
{
    *names = builtin;
    *cols = colours;
    *pts = points;
    return N_BUILTIN;
}
