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

double vb_sqrt_product(double a, double b)
{
    if (!(a > 0.0 && b > 0.0 && isfinite(a) && isfinite(b)))
        return sqrt(a * b); /* 0, inf or nan as the plain form says */
    int ea, eb;
    double fa = frexp(a, &ea), fb = frexp(b, &eb);
    int e = ea + eb;
    if (e % 2 != 0) { /* an even exponent halves exactly */
        fa *= 2.0;
        e -= 1;
    }
    /* fa fb in [1/4, 2): normal; sqrt(fa fb 2^e) = sqrt(fa fb) 2^(e/2), each
     * rounding the one sqrt(a * b) makes when a * b is normal */
    return ldexp(sqrt(fa * fb), e / 2);
}
