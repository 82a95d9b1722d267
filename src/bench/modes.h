/* modes.h — the modes of the benchmark (bench --help): what one timed run
 * of each is, and a mode timed against a fused loop, pair by pair
 * (modes.c). */
#ifndef VB_MODES_H
#define VB_MODES_H

#include <stddef.h>

#include "fused.h"
#include "verletbench.h"

typedef enum {
    VB_BENCH_FUSED,
    VB_BENCH_SINGLE,
    VB_BENCH_SIM,
    VB_BENCH_GSL,
    VB_BENCH_REFERENCE,
    VB_BENCH_GRID
} vb_bench_mode;
#define VB_N_BENCH_MODES (VB_BENCH_GRID + 1)
extern const char *const vb_bench_mode_name[VB_N_BENCH_MODES];

/* the step of the timed runs unless bench --dt says otherwise: small
 * enough for every default system to stay where it started */
#define VB_BENCH_DT 1e-5

/* the grid of the reference and grid modes: VB_REF_GRID fixed steps over
 * the model's natural time */
#define VB_REF_GRID 20000

/* Each timing lasts at least this long (ns of this process's CPU time:
 * vb_cpu_ns, so the other processes of a shared machine do not lengthen a
 * timing while it waits for a core): runs are repeated back to back until
 * it does, so a cheap system (64 springs: 2 ms a run) is not timed in the
 * scheduler's noise. */
#define MIN_TIMING_NS 4e7

/* One mode on one system, ready to time: how many runs back to back make
 * one timing, from an untimed first run that also warms the caches. */
typedef struct {
    vb_bench_mode md;
    vb_fused_kind fk;
    const vb_integrator *g;
    const vb_model *m;
    double mu;
    double h; /* the step; 0: VB_BENCH_DT */
    unsigned long steps, runs;
    size_t *n_integ;
} vb_timer;

/* The untimed first run, and how many runs make a timing.  0 or -1. */
int vb_timer_init(vb_timer *t);

/* The median of `repeat` timings of t; with a fused loop f, also the
 * median of the ratios of each timing to a timing of f taken just before
 * it, per particle-step (np particles in t's system, nf in f's).  Paired,
 * because this machine's speed wanders between timings (a 64-spring loop
 * measured 76 ns in one process and 135 in the next): a drift then moves
 * both sides of a ratio, not one.  ns per step (per grid point for the
 * reference and the grid).  0 or -1. */
int vb_time_paired(vb_timer *t, vb_timer *f, double np, double nf, int repeat, double *ns,
                   double *ratio);

#endif
