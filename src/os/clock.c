/* clock.c — a monotonic clock, a CPU clock and a median. */
#include "clock.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

static double ns_on(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double vb_now_ns(void) { return ns_on(CLOCK_MONOTONIC); }

double vb_cpu_ns(void) { return ns_on(CLOCK_PROCESS_CPUTIME_ID); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double vb_median_sort(double *a, int n)
{
    if (n <= 0)
        return NAN;
    qsort(a, (size_t)n, sizeof *a, cmp_double);
    return n % 2 ? a[n / 2] : 0.5 * (a[n / 2 - 1] + a[n / 2]);
}
