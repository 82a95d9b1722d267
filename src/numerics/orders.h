/* orders.h — convergence orders from errors at dt, dt/2, ... (docs/method.md §5). */
#ifndef VB_ORDERS_H
#define VB_ORDERS_H

#define VB_MAX_LEVELS 32

/* Points at or below the round-off floor, eps * scale * max(VB_FLOOR_ULPS,
 * VB_FLOOR_ULPS_PER_STEP * N) for a run of N steps, are round-off, not
 * truncation error (docs/method.md §5).
 *
 * Why it grows as N.  A step adds a rounding error of an ulp or so to each
 * component (x + v h, v + a h: eps |x|, eps |v|).  With fixed steps those
 * errors are correlated from one step to the next (the same h, similar
 * magnitudes, the same rounding), so they add up rather than cancel:
 * after N steps the velocity is off by up to ~N eps |v|, and the position
 * by the sum of h times that, ~h N^2/2 eps |v| = (N/2) eps |v| T over a run
 * of length T = N h, where |v| T is the size of the positions; the energy,
 * a sum of such terms, alike.  So at a fixed t_end, which is how a sweep
 * adds steps, round-off grows as N (as sqrt N where the roundings are
 * independent, as under random steps).  Brouwer's t^1.5, behind the N^1.5
 * of the "=" rule (roundoff.h) and of check's floor, is the growth at a
 * fixed step over a growing time; those two only decide what is compared,
 * and may err high.  This floor decides what is fitted: too high, it
 * hides truncation errors.
 *
 * Measured (docs/method.md §5): the methods exact on a constant force, on
 * the projectile at N = 10 ... 10^5 steps, fixed and random, reach 0.37 N
 * ulps of the positions' size and 0.98 N in the relative energy error; the
 * fine end of the cases' fits shows the same (the orbit's PEFRL energy
 * error stops falling at 0.005 to 0.06 N ulps, RK4's at 0.004 to 0.09 N), while truncation errors
 * the fits need lie at 1.8 N ulps (the orbit's PEFRL energy at N = 5027,
 * still on its line of slope 4).  Hence 1 N ulps: the largest round-off
 * measured, and below the truncation errors that still follow their power
 * law.  Below N = 1000 the flat thousand ulps of before stand: an error
 * within a thousand ulps of the solution's size says nothing of
 * truncation, whatever N. */
#define VB_FLOOR_ULPS 1e3
#define VB_FLOOR_ULPS_PER_STEP 1.0

/* The round-off floor of a run of `steps` steps whose errors measure
 * something of size `scale`, in arithmetic of machine epsilon eps. */
double vb_fit_floor(double eps, double steps, double scale);

/* A fitted order within this of the label is "as expected".  A genuine
 * order-p method fitted in its asymptotic range lands within a few hundredths
 * of p on fixed steps; the median of random plans moves by ~0.1; the nearest
 * wrong answer is a whole order away. */
#define VB_VERDICT_TOL 0.25

/* The asymptotic range is where the error is one power of the step: the
 * fit uses a run of at least three points, reaching the finest step it can,
 * whose local orders all lie within this of their median.  0.2 passes the
 * scatter of a random plan's median over 16 seeds (measured: up to 0.18)
 * and rejects a transient. */
#define VB_AGREE_TOL 0.2

/* An error above this fraction of the solution's size is no power law:
 * the run is qualitatively wrong there (an orbit that escaped). */
#define VB_SATURATION 0.1

/* Without a power law, the error still converges if it falls at least like
 * dt^0.5 over the two finest halvings (the mean of their local orders);
 * below that, at these step sizes it does not converge at all (plain
 * Verlet under random steps: local orders ~0). */
#define VB_CONVERGING_ORDER 0.5

/* A verdict compares an order with the label only when the order is a
 * power law measured over an asymptotic range.  A trend over all points
 * (no such range) never earns as-expected or above-label, nor below-label:
 * it says what the errors do instead. */
typedef enum {
    VB_VERDICT_AS_EXPECTED,
    VB_VERDICT_BELOW,
    VB_VERDICT_ABOVE,
    VB_VERDICT_EXACT,
    VB_VERDICT_UNDETERMINED,   /* fewer than two usable points */
    VB_VERDICT_NOT_CONVERGING, /* a trend, and the error does not fall at the finest steps */
    VB_VERDICT_NO_ASYMPTOTIC,  /* a trend, the error falls, but no single power law yet */
    VB_VERDICT_UNRESOLVED,     /* every error at round-off or below a reference's resolution */
    /* a power law off the label by more than VB_VERDICT_TOL, but its 95 %
     * interval still reaches within VB_VERDICT_TOL of the label: too few
     * or too scattered points to say below or above */
    VB_VERDICT_UNCERTAIN,
    /* no label to judge against (an engine measured as it is, given order
     * 0): a power law was fitted, and the tables say its order and what
     * the run equals instead of a verdict */
    VB_VERDICT_MEASURED
} vb_verdict;

typedef enum {
    VB_RANGE_NONE,       /* exact, or fewer than two points above round-off */
    VB_RANGE_ASYMPTOTIC, /* points whose local orders agree: one power law */
    VB_RANGE_ALL         /* no such points: every point above round-off, as a trend */
} vb_range;

typedef struct vb_fit {
    int n;              /* points given */
    int exact;          /* every point at the round-off floor */
    int unresolved;     /* every point at a floor, some only at a reference's resolution */
    vb_range range;     /* which points the fit used */
    int first, last;    /* the points the fit used: [first, last] */
    int points;         /* last - first + 1, or 0 */
    double order;       /* the least-squares slope of log e against log dt */
    /* its standard error sqrt(cov11) and the half-width of its 95 % interval,
     * t(0.975, points - 2) times that; NAN with fewer than three points */
    double order_se, order_ci95;
    int converging;     /* VB_RANGE_ALL: the error falls at the finest steps (VB_CONVERGING_ORDER) */
    /* points above the floor left out as saturated (above VB_SATURATION
     * scale); and 1 when that is why there is no asymptotic range: VB_RANGE_ALL,
     * where the same search with those points in finds a window whose local
     * orders agree (a power law the saturation rule hid, e.g. a first-order
     * method whose attitude errors above 0.1 rad still fall as dt) */
    int saturated, saturation_hid_range;
    double intercept;   /* log e at log dt = 0 */
    double local[VB_MAX_LEVELS]; /* log(e_k/e_{k+1}) / log(dt_k/dt_{k+1}); NAN if undefined */
} vb_fit;

/* dt decreasing, err >= 0 or inf; scale[k] the size of what err[k]
 * measures (|x| for a position error, 1 for a relative one) and steps[k]
 * the steps of its run (NULL: one step each): err at or below
 * vb_fit_floor(DBL_EPSILON, steps, scale) is round-off, above
 * VB_SATURATION scale saturated.  resolution[k] (or NULL) is a floor of
 * its own: what a reference solution cannot resolve (truth.h); points at
 * or below it are never fitted. */
void vb_fit_order(const double *dt, const double *err, const double *scale, const double *steps,
                  const double *resolution, int n, vb_fit *fit);

/* expected 0: no label; a power law is then VB_VERDICT_MEASURED */
vb_verdict vb_fit_verdict(const vb_fit *fit, double expected);

/* An uncertain verdict: how many more halvings would settle it, if each
 * adds a point to the fit on the same line with the same scatter (the
 * slope's standard error then shrinks as sqrt(n (n^2 - 1)) of the points
 * n, equally spaced in log dt; docs/method.md §5): the fewest m for which
 * t(0.975, n + m - 2) times that standard error is less than the order's
 * distance from the label less VB_VERDICT_TOL.  0 for a verdict that is
 * not uncertain; VB_SETTLE_NOT_BY_HALVING when the fit stops short of the
 * finest step (its finer errors are at a floor or off the power law, so
 * finer steps add no points); VB_SETTLE_MAX + 1 for more than
 * VB_SETTLE_MAX. */
#define VB_SETTLE_MAX 20
#define VB_SETTLE_NOT_BY_HALVING (-1)
int vb_fit_halvings_to_settle(const vb_fit *fit, double expected);
const char *vb_range_name(vb_range r);
const char *vb_verdict_name(vb_verdict v);

#endif
