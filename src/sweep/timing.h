/* timing.h — wall time of a sweep's runs (timing.c): run --timing. */
#ifndef VB_TIMING_H
#define VB_TIMING_H

#include <stddef.h>

#include "results.h"

/* A short run is repeated until the repeats add up to 3 ms (at least 3,
 * at most 51 times): the median of a few milliseconds is steady to a few
 * per cent on a quiet machine (two timings of orbit, spring and chain-64,
 * 552 runs: the median run differed by 0.3 %, the 90th percentile by
 * 5.5 %, where 10 ms gave 0.4 % and 23 %), and a sweep's timing stays a
 * fraction of its cost (10 ms made it 19 CPU-s, serial, against the
 * sweep's 32 on two threads).  A run of 200 ms or more is timed once: the disturbances the
 * median guards against (an interrupt, a page fault) last microseconds and
 * average out over it, and three of SHAKE's runs on the 16-rod chain would
 * cost more than the sweep itself. */
#define VB_TIMING_MIN_NS 3e6
#define VB_TIMING_LONG_NS 200e6
#define VB_TIMING_MIN_REPEATS 3
#define VB_TIMING_MAX_REPEATS 51

/* Time the runs of a sweep (seed 1 of the random plans, every fixed and
 * trace run; no engines, no runs that failed): a run of a plugin's code in
 * a worker process (isolate.h), its time taken there; one whose worker
 * fails is left out, and said (vb_sweep_plugin_failed).  0, or -1 when out
 * of memory; *out is malloc'd. */
int vb_timing_run(vb_sweep *s, vb_timing_row **out, size_t *n_out);

#endif
