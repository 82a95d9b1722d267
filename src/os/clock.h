/* clock.h — the clocks of the measurements (bench, run --timing): wall
 * time, the CPU time of this process, and the median of repeats. */
#ifndef VB_CLOCK_H
#define VB_CLOCK_H

/* nanoseconds on CLOCK_MONOTONIC */
double vb_now_ns(void);
/* nanoseconds of CPU this process has used (CLOCK_PROCESS_CPUTIME_ID):
 * for a timing of work done in this process, which the other processes of
 * a shared machine then do not lengthen while it waits for a core */
double vb_cpu_ns(void);
/* the median of a[0..n-1] (sorted in place); NAN for n = 0 */
double vb_median_sort(double *a, int n);

#endif
