/* orders.c — least-squares orders over the asymptotic range. */
#include "orders.h"

#include <float.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* median of local orders [from, to) */
static double median(const double *v, int from, int to)
{
    double tmp[VB_MAX_LEVELS];
    int n = 0;
    for (int i = from; i < to; i++)
        tmp[n++] = v[i];
    qsort(tmp, (size_t)n, sizeof tmp[0], cmp_double);
    return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

/* do the local orders of points [i, j] agree? */
static int agree(const double *local, int i, int j)
{
    double m = median(local, i, j);
    for (int k = i; k < j; k++)
        if (!(fabs(local[k] - m) <= VB_AGREE_TOL))
            return 0;
    return 1;
}

/* The asymptotic range: a window of at least three usable points whose
 * local orders agree, the one reaching the finest step (the error settles
 * as the step shrinks), the longest of those.  Two points always "agree"
 * with themselves, so they prove nothing.  A window short of the finest
 * points stands only if what lies beyond is round-off growing back
 * (within 1e3 of the flat floor); an error there still far above
 * round-off and still changing means it never settled.  0 and [first,
 * last], or -1 when no window qualifies. */
static int find_window(int n, const int *usable, const double *local, const double *err,
                       const double *flat, int *first_out, int *last_out)
{
    int first = -1, last = -1;
    for (int i = 0; i < n; i++)
        for (int j = i + 2; j < n; j++) {
            int all_usable = 1;
            for (int k = i; k <= j; k++)
                all_usable &= usable[k];
            if (!all_usable || !agree(local, i, j))
                continue;
            if (first < 0 || j > last || (j == last && i < first))
                first = i, last = j;
        }
    for (int k = last + 1; first >= 0 && k < n; k++)
        if (isfinite(err[k]) && err[k] > 1e3 * flat[k])
            first = last = -1;
    *first_out = first;
    *last_out = last;
    return first < 0 ? -1 : 0;
}

double vb_fit_floor(double eps, double steps, double scale)
{
    return fmax(VB_FLOOR_ULPS, VB_FLOOR_ULPS_PER_STEP * steps) * eps * scale;
}

void vb_fit_order(const double *dt, const double *err, const double *scale, const double *steps,
                  const double *resolution, int n, vb_fit *fit)
{
    int usable[VB_MAX_LEVELS], unsaturated_ok[VB_MAX_LEVELS];
    /* floors: what is not fitted; flat: the same without the growth with
     * the steps, for "round-off growing back" below (1e3 times it: at
     * most 1e6 ulps, above any round-off a run of up to 1e6 steps makes;
     * 1e3 times the grown floor would pass truncation errors of 1e3 N
     * ulps, a chain's final velocity at 2 918 steps, for round-off) */
    double floors[VB_MAX_LEVELS], flat[VB_MAX_LEVELS];
    if (n > VB_MAX_LEVELS)
        n = VB_MAX_LEVELS;
    fit->n = n;
    fit->exact = n > 0;
    fit->unresolved = 0;
    fit->first = fit->last = -1;
    fit->points = 0;
    fit->range = VB_RANGE_NONE;
    fit->order = fit->intercept = fit->order_se = fit->order_ci95 = NAN;
    fit->converging = 0;
    fit->saturated = 0;
    fit->saturation_hid_range = 0;
    for (int k = 0; k < n; k++) {
        /* below round-off, or below what a reference solution resolves */
        double roundoff = vb_fit_floor(DBL_EPSILON, steps ? steps[k] : 1.0, scale[k]);
        double floor = resolution ? fmax(roundoff, resolution[k]) : roundoff;
        floors[k] = floor;
        flat[k] = vb_fit_floor(DBL_EPSILON, 1.0, scale[k]);
        if (resolution)
            flat[k] = fmax(flat[k], resolution[k]);
        /* above the floors; usable if not saturated too */
        unsaturated_ok[k] = isfinite(err[k]) && err[k] > floor;
        usable[k] = unsaturated_ok[k] && err[k] <= VB_SATURATION * scale[k];
        fit->saturated += unsaturated_ok[k] && !usable[k];
        if (!(isfinite(err[k]) && err[k] <= floor))
            fit->exact = 0;
        else if (err[k] > roundoff)
            fit->unresolved = 1;
        fit->local[k] = NAN;
        if (k + 1 < n && err[k] > 0 && err[k + 1] > 0 && isfinite(err[k]) && isfinite(err[k + 1]))
            fit->local[k] = log(err[k] / err[k + 1]) / log(dt[k] / dt[k + 1]);
    }
    if (fit->exact) {
        /* every point at a floor: exact if round-off is all there is;
         * if some lie above round-off but below the reference's resolution,
         * nothing can be said */
        if (fit->unresolved)
            fit->exact = 0;
        return;
    }
    fit->unresolved = 0;

    int first, last;
    find_window(n, usable, fit->local, err, flat, &first, &last);
    fit->range = VB_RANGE_ASYMPTOTIC;
    if (first < 0) {
        /* why none, for the tables: the saturation rule alone, when the
         * same search over the points above the floors, saturated ones
         * too, finds a window */
        int f2, l2;
        fit->saturation_hid_range =
            fit->saturated > 0 && find_window(n, unsaturated_ok, fit->local, err, flat, &f2, &l2) == 0;
        /* No power law anywhere (saturated, or not yet settled): the slope
         * over every point above round-off still says whether the error
         * falls as it should, and the range says it is only a trend. */
        fit->range = VB_RANGE_ALL;
        for (int k = 0; k < n; k++)
            if (isfinite(err[k]) && err[k] > floors[k]) {
                if (first < 0)
                    first = k;
                last = k;
            }
        for (int k = first; k >= 0 && k <= last; k++)
            if (!(isfinite(err[k]) && err[k] > floors[k]))
                first = last = -1; /* not contiguous: nothing to fit */
        if (first < 0 || last == first) {
            fit->range = VB_RANGE_NONE;
            return;
        }
        /* does the error still fall at the finest steps it reaches?  (The
         * two finest local orders; last > first, so there is one at least.
         * A saturated error that falls is converging, only not yet in its
         * asymptotic range.) */
        double m = first < last - 1 ? 0.5 * (fit->local[last - 1] + fit->local[last - 2])
                                    : fit->local[last - 1];
        fit->converging = m >= VB_CONVERGING_ORDER;
    }
    fit->first = first;
    fit->last = last;
    fit->points = last - first + 1;
    double x[VB_MAX_LEVELS], y[VB_MAX_LEVELS], c0, c1, cov00, cov01, cov11, sumsq;
    for (int k = first; k <= last; k++) {
        x[k - first] = log(dt[k]);
        y[k - first] = log(err[k]);
    }
    if (gsl_fit_linear(x, 1, y, 1, (size_t)fit->points, &c0, &c1, &cov00, &cov01, &cov11, &sumsq) ==
        0) {
        fit->order = c1;
        fit->intercept = c0;
        /* cov11 is sumsq/(points - 2) times the spread of x: the slope's
         * variance from the scatter about the line.  Points on an exact
         * power law give 0 (to round-off), not a false certainty of more. */
        if (fit->points >= 3 && cov11 >= 0.0) {
            fit->order_se = sqrt(cov11);
            fit->order_ci95 = gsl_cdf_tdist_Pinv(0.975, (double)(fit->points - 2)) * fit->order_se;
        }
    }
}

const char *vb_range_name(vb_range r)
{
    switch (r) {
    case VB_RANGE_NONE:
        return "none";
    case VB_RANGE_ASYMPTOTIC:
        return "asymptotic";
    case VB_RANGE_ALL:
        return "all";
    }
    return "?";
}

vb_verdict vb_fit_verdict(const vb_fit *fit, double expected)
{
    if (fit->exact)
        return VB_VERDICT_EXACT;
    if (fit->unresolved)
        return VB_VERDICT_UNRESOLVED;
    if (fit->points < 2 || !isfinite(fit->order))
        return VB_VERDICT_UNDETERMINED;
    if (fit->range == VB_RANGE_ALL)
        return fit->converging ? VB_VERDICT_NO_ASYMPTOTIC : VB_VERDICT_NOT_CONVERGING;
    if (!(expected > 0))
        return VB_VERDICT_MEASURED;
    if (fabs(fit->order - expected) <= VB_VERDICT_TOL)
        return VB_VERDICT_AS_EXPECTED;
    /* Off the label: say so only if the 95 % interval is off it too, by the
     * same tolerance (docs/method.md §5).  The tolerance stands for what
     * the interval cannot see, the bias of higher-order terms; the
     * interval, for the scatter of the points about their line. */
    double ci = isfinite(fit->order_ci95) ? fit->order_ci95 : 0.0;
    if (fit->order < expected)
        return fit->order + ci < expected - VB_VERDICT_TOL ? VB_VERDICT_BELOW
                                                            : VB_VERDICT_UNCERTAIN;
    return fit->order - ci > expected + VB_VERDICT_TOL ? VB_VERDICT_ABOVE : VB_VERDICT_UNCERTAIN;
}

int vb_fit_halvings_to_settle(const vb_fit *fit, double expected)
{
    if (vb_fit_verdict(fit, expected) != VB_VERDICT_UNCERTAIN || !isfinite(fit->order_se))
        return 0;
    if (fit->last < fit->n - 1)
        return VB_SETTLE_NOT_BY_HALVING;
    /* the interval must close to within this of the order, so that it no
     * longer reaches within VB_VERDICT_TOL of the label */
    double room = fabs(fit->order - expected) - VB_VERDICT_TOL;
    double n = fit->points, spread = n * (n * n - 1.0);
    for (int m = 1; m <= VB_SETTLE_MAX; m++) {
        double k = n + m, se = fit->order_se * sqrt(spread / (k * (k * k - 1.0)));
        if (gsl_cdf_tdist_Pinv(0.975, k - 2.0) * se < room)
            return m;
    }
    return VB_SETTLE_MAX + 1;
}

const char *vb_verdict_name(vb_verdict v)
{
    switch (v) {
    case VB_VERDICT_AS_EXPECTED:
        return "as-expected";
    case VB_VERDICT_BELOW:
        return "below-label";
    case VB_VERDICT_ABOVE:
        return "above-label";
    case VB_VERDICT_EXACT:
        return "exact";
    case VB_VERDICT_UNDETERMINED:
        return "undetermined";
    case VB_VERDICT_NOT_CONVERGING:
        return "not-converging";
    case VB_VERDICT_NO_ASYMPTOTIC:
        return "no-asymptotic-range";
    case VB_VERDICT_UNRESOLVED:
        return "below-resolution";
    case VB_VERDICT_UNCERTAIN:
        return "uncertain";
    case VB_VERDICT_MEASURED:
        return "measured";
    }
    return "?";
}
