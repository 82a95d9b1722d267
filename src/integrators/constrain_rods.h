/* constrain_rods.h — inside integrators/ only: what the sweeps onto the
 * rods (constrain.c) and their direct solvers (constrain_direct.c) share:
 * how close the doubles allow, a rod's two ends, and whether the rods are
 * a chain hung from a pivot. */
#ifndef VB_CONSTRAIN_RODS_H
#define VB_CONSTRAIN_RODS_H

#include <stddef.h>

#include "verletbench.h"

/* What "as close as the doubles allow" is: a length or speed computed from
 * coordinates of size X is uncertain by a few ulps of X (differences, a
 * sum of d squares); 8 is generous, and still 1e-14 of X. */
#define ROUNDOFF_ULPS 8.0

/* the larger of two finite numbers, inline (fmax is a libm call here, for
 * NaN rules a NaN state does not need: it fails the tests that follow) */
static inline double larger(double a, double b) { return a > b ? a : b; }

/* the ends of rod r: particle i's coordinates, and j's or the pivot's;
 * their inverse masses (a pivot's 0) */
typedef struct {
    double *xi, *xj;
    const double *pj;
    double wi, wj;
} ends;

static inline ends ends_of(const vb_constraints *c, const vb_constraint *r, double *x)
{
    unsigned d = c->dim;
    int pivot = r->j == VB_PIVOT;
    return (ends){x + r->i * d, pivot ? NULL : x + r->j * d, pivot ? r->pivot : x + r->j * d,
                  c->inv_mass[r->i], pivot ? 0.0 : c->inv_mass[r->j]};
}

/* The rods of a chain hung from a pivot at most: rod k from bead k to
 * bead k - 1, rod 0 to the pivot (a linkage's, models/linkage.c). */
#define CHAIN_MAX 64

static inline int is_chain(const vb_constraints *c)
{
    if (c->n > CHAIN_MAX || c->dim < 1 || c->dim > 3)
        return 0;
    for (size_t k = 0; k < c->n; k++)
        if (c->rod[k].i != k || c->rod[k].j != (k ? k - 1 : VB_PIVOT))
            return 0;
    return 1;
}

#endif
