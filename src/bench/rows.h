/* rows.h — the benchmark's table, bench.csv, row by row (rows.c), on its
 * schema (schema.h). */
#ifndef VB_ROWS_H
#define VB_ROWS_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"
#include "modes.h"
#include "schema.h"

#define VB_BENCH_MAX_ROWS 128

/* A row: what ran (a model, an integrator or for the grid the count of
 * the runs it serves, a mode) and its timing, a median of ns a step and
 * its ratio to the fused loop (of the system fused_on) per particle-step */
typedef struct vb_bench_row {
    const char *model, *integrator, *mode, *fused_on;
    size_t runs; /* the grid's: integrator is NULL */
    unsigned long long steps, particles;
    double ns, ratio;
} vb_bench_row;

typedef struct {
    vb_bench_row row[VB_BENCH_MAX_ROWS];
    size_t n;
} vb_bench_rows;

/* bench.csv's columns in order */
enum {
    VB_COL_BENCH_MODEL,
    VB_COL_BENCH_INTEGRATOR,
    VB_COL_BENCH_MODE,
    VB_COL_BENCH_STEPS,
    VB_COL_BENCH_NS_PER_STEP,
    VB_COL_BENCH_RATIO_TO_FUSED,
    VB_COL_BENCH_PARTICLES,
    VB_COL_BENCH_NS_PER_PARTICLE_STEP,
    VB_COL_BENCH_FUSED_ON,
    VB_BENCH_COLUMNS
};
extern const vb_schema vb_bench_schema;

/* The table: its header, then its rows. */
void vb_bench_write(FILE *f, const vb_bench_rows *rows);

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
