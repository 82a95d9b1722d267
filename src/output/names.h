/* names.h — the files of a case's directory and of a grid's, by name: what
 * each holds (the provenance line says it) and when a sweep writes it.  A
 * directory holding only these is one verletbench wrote (outdir.h). */
#ifndef VB_NAMES_H
#define VB_NAMES_H

#include <stddef.h>

/* The files of a case, in the order they are written. */
enum {
    VB_FILE_RUNS,
    VB_FILE_ORDERS,
    VB_FILE_BANDS,
    VB_FILE_ONESTEP,
    VB_FILE_ONESTEP_ORDERS,
    VB_FILE_REVERSE,
    VB_FILE_RATES,
    VB_FILE_FLIPS,
    VB_FILE_CONTACT,
    VB_FILE_CONTACT_ORDERS,
    VB_FILE_STACKS,
    VB_FILE_SUMMARY,
    VB_FILE_CONVERGENCE,
    VB_FILE_TIMESERIES,
    VB_FILE_PATHS,
    VB_FILE_BOUNCES,
    VB_FILE_RIGID_SERIES,
    VB_FILE_POLHODE,
    VB_FILE_BODY,
    VB_FILE_MOTION,
    VB_FILE_TIMING,
    VB_FILE_SHARD,
    VB_N_CASE_FILES
};

/* When a sweep writes a file: always (a table), unless --no-chart-data
 * (chart data), with --timing, or as a shard (which writes nothing
 * else), or for a case with [loop] rates. */
typedef enum {
    VB_WRITTEN_ALWAYS,
    VB_WRITTEN_AS_CHART_DATA,
    VB_WRITTEN_WITH_TIMING,
    VB_WRITTEN_BY_A_SHARD,
    VB_WRITTEN_WITH_RATES
} vb_written;

typedef struct vb_table_file {
    const char *file;
    const char *what; /* what its provenance line says it holds; NULL: none (Markdown) */
    vb_written when;
    /* of what a case measures (profile.h's VB_MEASURE_*): every one of
     * needs, and none of unless (a rigid body's chart data is its own:
     * the particles' would draw its packed (x, q) as positions) */
    unsigned needs, unless;
} vb_table_file;

extern const vb_table_file vb_case_files[VB_N_CASE_FILES];

/* 1 when NAME is a file `run` writes in a case's directory (runs.csv, ...) */
int vb_sweep_file_name(const char *name);
/* 1 when NAME is a file of a grid's directory */
int vb_grid_file_name(const char *name);

/* mkdir -p.  0, or -1 with a message naming the part that failed. */
int vb_make_dir(const char *path, char *err, size_t errlen);

#endif
