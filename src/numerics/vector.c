/* vector.c — norms of state vectors that neither overflow nor underflow. */
#include "vector.h"

double vb_distance_scaled(const double *a, const double *b, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = a[i] - b[i];
        s += d * d;
    }
    if (s >= DBL_MIN / DBL_EPSILON && s <= DBL_MAX)
        return sqrt(s);
    double big = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = a[i] - b[i];
        if (fabs(d) > big || isnan(d))
            big = fabs(d);
    }
    if (big == 0.0 || !isfinite(big))
        return big;
    s = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = (a[i] - b[i]) / big;
        s += d * d;
    }
    return big * sqrt(s);
}

/* |a|: the distance from zero, formed as vb_distance forms it (a - 0 = a) */
double vb_magnitude(const double *a, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * a[i];
    if (s >= DBL_MIN / DBL_EPSILON && s <= DBL_MAX)
        return sqrt(s);
    double big = 0.0;
    for (size_t i = 0; i < n; i++)
        if (fabs(a[i]) > big || isnan(a[i]))
            big = fabs(a[i]);
    if (big == 0.0 || !isfinite(big))
        return big;
    s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += (a[i] / big) * (a[i] / big);
    return big * sqrt(s);
}
