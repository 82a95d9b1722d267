/* merge.h — the shards of run --shard K/N made whole again (merge.c): every
 * SHARDDIR/NAME/shard.csv found, its case file loaded once, every shard of
 * every point there exactly once, each read back and held to this build
 * and the case as it is now; then the sweeps finished, in the order of the
 * run that made them.  The files written from them are the same bytes as
 * one run's (docs/method.md §8). */
#ifndef VB_MERGE_H
#define VB_MERGE_H

#include <stddef.h>

#include "casefile.h"
#include "grid.h"
#include "results.h"

typedef struct vb_shard_file vb_shard_file;

typedef struct vb_merge {
    vb_case_set set;     /* the shards' case files, each once, every point */
    vb_sweep *sweeps;    /* set.all[i]'s */
    size_t n, swept;     /* cases; sweeps begun */
    vb_sweep *ordered;   /* a shallow copy of each finished sweep, in the run's order */
    size_t *rank;        /* rank[a]: the case that came a-th in the run that made them */
    vb_grid *grids;
    long n_grids;
    vb_shard_file *sf;   /* every shard.csv found */
    size_t n_sf;
    size_t *point_of;    /* shard i's case, an index into set.all */
    int *shard_n_of;     /* each case's N */
} vb_merge;

/* The first of the shard directories that the output directory out is,
 * holds or lies in (by their real paths: a link or ".." is no way out),
 * or -1: a merge into it would replace what it reads. */
long vb_merge_clash(const char *out, char *const *dirs, size_t n_dirs);

/* Find, check and read every shard of the directories given (m zeroed
 * first), the sweeps begun with max_steps.  0; VB_SWEEP_USAGE with the
 * message for a shard missing, given twice, cut, or not made by this build
 * from the case as it is; -1 with the message for a failure of the
 * machine. */
int vb_merge_read(vb_merge *m, char *const *dirs, size_t n_dirs, double max_steps, char *err,
                  size_t errlen);

/* What the filled jobs mean, and the runs no shard made (one-step, reversal,
 * the charts' long runs: vb_sweep_finish), each sweep added to its grid;
 * m->ordered then holds them in the run's order.  0, or -1 with the
 * message. */
int vb_merge_finish(vb_merge *m, double max_steps, unsigned flags, unsigned threads, char *err,
                    size_t errlen);

void vb_merge_free(vb_merge *m);

#endif
