/* bench_engine.h — what the engine protocol costs (bench_engine.c), and the
 * timing helpers of bench.c it shares. */
#ifndef VB_BENCH_ENGINE_H
#define VB_BENCH_ENGINE_H

#include <stddef.h>

#include "model.h"

/* CLOCK_MONOTONIC in ns; the median of a[0..n) (sorts a in place) */
double vb_bench_now_ns(void);
double vb_bench_median(double *a, int n);

/* ns[0] the built-in velocity-verlet through sim, ns[1] an engine that only
 * echoes the engine's trajectory, ns[2] the engine: ns per step, medians of
 * `repeat` interleaved runs of `steps` fixed steps of 1e-3 on the model. */
#define VB_BENCH_ENGINE_MODES 3
int vb_bench_engine(const char *command, const vb_model *m, unsigned long steps, int repeat,
                    double ns[VB_BENCH_ENGINE_MODES], char *err, size_t errlen);

#endif
