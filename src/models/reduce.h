/* reduce.h — remainder(x, y) without the libm call in the common case.
 *
 * The exact solutions reduce a phase at every step (the mean anomaly of the
 * orbit, the elliptic argument of the pendulum), and glibc's remainder()
 * took 7 % of a whole sweep.  Runs seldom go past one and a half periods, so
 * for |x| < 3y/2 the answer is x itself or x -+ y, and those differences are
 * exact (Sterbenz: y/2 <= |x| <= 2y).  Ties (|x| - y = y/2, where IEEE
 * rounds the quotient to even) and everything else go to remainder(): the
 * result is the same bits, signed zeros included; a test checks it. */
#ifndef VB_REDUCE_H
#define VB_REDUCE_H

#include <math.h>

/* IEEE remainder(x, y) for y > 0, finite. */
static inline double vb_remainder(double x, double y)
{
    double half = 0.5 * y;
    if (fabs(x) <= half)
        return x; /* quotient 0 (a tie at +-y/2 rounds to 0, the even one) */
    if (x > 0.0 && x - y < half) {
        double r = x - y;
        return r == 0.0 ? 0.0 : r; /* remainder(y, y) = +0 */
    }
    if (x < 0.0 && x + y > -half) {
        double r = x + y;
        return r == 0.0 ? -0.0 : r; /* remainder(-y, y) = -0: x's sign */
    }
    return remainder(x, y);
}

#endif
