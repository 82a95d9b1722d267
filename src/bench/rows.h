/* rows.h — the benchmark's table, row by row (rows.c): the CSV rows
 * model,integrator,mode,steps,ns_per_step,ratio_to_fused,particles,
 * ns_per_particle_step,fused_on. */
#ifndef VB_ROWS_H
#define VB_ROWS_H

#include <stddef.h>

#include "model.h"
#include "modes.h"

#define VB_BENCH_MAX_ROWS 128

typedef struct {
    char text[VB_BENCH_MAX_ROWS][224];
    size_t n;
} vb_bench_rows;

/* The orbit's fused loop (e = 0.5, the central mass mu), timed into
 * orbit_fused, the ratios' fallback for a system without one of its own,
 * and its row.  0 or -1. */
int vb_bench_orbit(vb_timer *orbit_fused, const vb_model *orbit, double mu, unsigned long steps,
                   int repeat, vb_bench_rows *out);

/* What the rows of a system are timed with: pp_steps particle-steps a
 * run, `repeat` timings each, steps of h (0: VB_BENCH_DT), and the modes
 * (a bit 1u << mode each; the reference's bit brings the grid). */
typedef struct {
    unsigned long pp_steps;
    int repeat;
    double h;
    unsigned modes;
} vb_bench_how;

/* The rows of one system: its fused loop, then each integrator's modes,
 * each against the system's own fused loop (or the orbit's), and for a
 * model without an exact solution its reference and grid.  0, or -1, with
 * why when a timing failed (err untouched when the system's own fused
 * loop did). */
int vb_bench_system(vb_model *m, vb_timer *orbit_fused, const vb_integrator *const *list,
                    size_t n, const vb_bench_how *how, vb_bench_rows *out, char *err,
                    size_t errlen);

#endif
