/* clock.h — wall time for the measurements that want it (bench, run
 * --timing): a monotonic clock and the median of repeats. */
#ifndef VB_CLOCK_H
#define VB_CLOCK_H

/* nanoseconds on CLOCK_MONOTONIC */
double vb_now_ns(void);
/* the median of a[0..n-1] (sorted in place); NAN for n = 0 */
double vb_median_sort(double *a, int n);

#endif
