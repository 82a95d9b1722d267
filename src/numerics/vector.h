/* vector.h — the length of a state vector and the distance between two,
 * over all N components of a system, without overflow or underflow: the
 * position and velocity errors of docs/method.md §4, and the sizes they are
 * measured against. */
#ifndef VB_VECTOR_H
#define VB_VECTOR_H

#include <float.h>
#include <math.h>
#include <stddef.h>

/* Euclidean norm of a - b over n components that neither overflows nor
 * underflows.  Inline: a run takes two at every step, and the plain sum is
 * almost always fine. */
double vb_distance_scaled(const double *a, const double *b, size_t n);

static inline double vb_distance(const double *a, const double *b, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = a[i] - b[i];
        s += d * d;
    }
    /* the plain sum is exact enough unless a square over- or underflowed */
    if (s >= DBL_MIN / DBL_EPSILON && s <= DBL_MAX)
        return sqrt(s);
    return vb_distance_scaled(a, b, n);
}

/* |a|, the same way */
double vb_magnitude(const double *a, size_t n);

/* sqrt(a b) for a, b >= 0, though a b over- or underflows (k = m = 1e200:
 * sqrt(k m) = 1e200, where k * m is inf).  The bits of sqrt(a * b) wherever
 * a * b is a normal double: the product is formed of a and b brought to
 * [1/2, 2) by powers of two, whose even sum is halved exactly. */
double vb_sqrt_product(double a, double b);

#endif
