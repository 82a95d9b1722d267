/* roundoff.c — two errors that differ by round-off alone. */
#include "roundoff.h"

#include <float.h>
#include <math.h>

int vb_same_to_roundoff(double a, double b, double steps, double scale)
{
    if (!isfinite(a) || !isfinite(b))
        return 0;
    double floor = VB_SAME_ULPS * DBL_EPSILON * pow(steps > 1.0 ? steps : 1.0, 1.5) * scale;
    double d = fabs(a - b);
    return d <= floor && d <= VB_SAME_RTOL * fmax(fabs(a), fabs(b));
}
