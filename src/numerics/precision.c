/* precision.c — the arithmetic a run is made in, and its round-off. */
#include "precision.h"

#include "orders.h"
#include "roundoff.h"

#include <float.h>
#include <math.h>
#include <string.h>

const char *vb_precision_name(vb_precision p)
{
    return p == VB_FLOAT32 ? "float32" : "float64";
}

int vb_precision_parse(const char *text, vb_precision *out)
{
    if (strcmp(text, "float64") == 0)
        *out = VB_FLOAT64;
    else if (strcmp(text, "float32") == 0)
        *out = VB_FLOAT32;
    else
        return -1;
    return 0;
}

double vb_precision_eps(vb_precision p)
{
    return p == VB_FLOAT32 ? (double)FLT_EPSILON : DBL_EPSILON;
}

vb_precision vb_precision_coarser(vb_precision a, vb_precision b)
{
    return (a == VB_FLOAT32 || b == VB_FLOAT32) ? VB_FLOAT32 : VB_FLOAT64;
}

double vb_roundoff_floor(vb_precision p, double scale)
{
    return VB_FLOOR_ULPS * vb_precision_eps(p) * scale;
}

double vb_same_floor(vb_precision p, double steps, double scale)
{
    double n = steps > 1.0 ? steps : 1.0;
    if (p == VB_FLOAT32)
        return VB_SAME32_ULPS * (double)FLT_EPSILON * n * scale;
    return VB_SAME_ULPS * DBL_EPSILON * pow(n, 1.5) * scale;
}

double vb_same_rtol(vb_precision p)
{
    return p == VB_FLOAT32 ? VB_SAME32_RTOL : VB_SAME_RTOL;
}

int vb_same_signed_in(vb_precision p, double a, double b, double rms_a, double rms_b,
                      double steps, double scale, size_t n)
{
    double tol = 1.5 * sqrt((double)n) *
                 fmax(vb_same_floor(p, steps, scale), vb_same_rtol(p) * fmax(rms_a, rms_b));
    return isfinite(a) && isfinite(b) && fabs(a - b) <= tol;
}

int vb_same_to_roundoff_in(vb_precision p, double a, double b, double steps, double scale)
{
    if (p != VB_FLOAT32)
        return vb_same_to_roundoff(a, b, steps, scale);
    if (!isfinite(a) || !isfinite(b))
        return 0;
    double d = fabs(a - b);
    double n = steps > 1.0 ? steps : 1.0;
    return d <= VB_SAME32_ULPS * (double)FLT_EPSILON * n * scale &&
           d <= VB_SAME32_RTOL * fmax(fabs(a), fabs(b));
}

double vb_check_roundoff_floor(vb_precision p, double ulps, double steps, double scale)
{
    double n = steps > 1.0 ? steps : 1.0;
    if (p == VB_FLOAT32)
        return ulps * (double)FLT_EPSILON * n * scale;
    return ulps * DBL_EPSILON * pow(n, 1.5) * scale;
}
