/* shardmerge.h — the shards of run --shard K/N made whole again
 * (shardmerge.c): each shard's case file loaded once, every shard of every
 * point there exactly once, each read into its sweep and held to the case
 * as it is now; then the sweeps finished, in the order of the run that
 * made them.  What finds and reads the files is output/shardfile.h's; the
 * files written from the sweeps are the same bytes as one run's
 * (docs/method.md §8). */
#ifndef VB_SHARDMERGE_H
#define VB_SHARDMERGE_H

#include <stddef.h>

#include "casefile.h"
#include "results.h"

/* One shard file found (output/shardfile.h): its path, the case file its
 * first line names and the directory it lies in (NAME of
 * SHARDDIR/NAME/shard.csv, the case's or a grid point's name), and which
 * shard it is, K of N. */
typedef struct vb_shard_ref {
    char *file, *case_path, *name;
    int k, n;
} vb_shard_ref;
void vb_shard_refs_free(vb_shard_ref *refs, size_t n);

/* Reads the shard at path into the jobs of shard k of n of a sweep begun
 * from its case: *filled, the jobs it filled; *order_i / *order_m, the
 * case's place in the run that made it.  0; VB_SWEEP_USAGE or -1 with the
 * message (output/shardfile.h's vb_sweep_read_shard). */
typedef int vb_shard_reader(vb_sweep *s, int k, int n, const char *path, size_t *filled,
                            int *order_i, int *order_m, char *err, size_t errlen);

typedef struct vb_merge {
    vb_case_set set;     /* the shards' case files, each once, every point */
    vb_sweep *sweeps;    /* set.all[i]'s */
    size_t n, swept;     /* cases; sweeps begun */
    vb_sweep *ordered;   /* a shallow copy of each finished sweep, in the run's order */
    size_t *rank;        /* rank[a]: the case that came a-th in the run that made them */
    vb_shard_ref *sf;    /* every shard found */
    size_t n_sf;
    size_t *point_of;    /* shard i's case, an index into set.all */
    int *shard_n_of;     /* each case's N */
} vb_merge;

/* What the command does to each case merge loads before its sweep begins
 * (the --engine and --trajectories it was given, added as run added
 * them): 0, or VB_SWEEP_USAGE with the message in err. */
typedef int vb_case_prepare(vb_case *c, const void *ctx, char *err, size_t errlen);

/* The shards found, refs (m zeroed first; m owns them from here, whatever
 * happens), their cases each made ready by prepare (NULL: as read), each
 * read with `read` into a sweep begun with max_steps.  0; VB_SWEEP_USAGE
 * with the message for a shard missing, given twice, cut, or not made by
 * this build from the case as it is; -1 with the message for a failure
 * of the machine. */
int vb_merge_read(vb_merge *m, vb_shard_ref *refs, size_t n_refs, vb_case_prepare *prepare,
                  const void *prepare_ctx, vb_shard_reader *read, double max_steps, char *err,
                  size_t errlen);

/* What the filled jobs mean, and the runs no shard made (one-step, reversal,
 * the charts' long runs: vb_sweep_finish); m->ordered then holds the
 * sweeps in the run's order.  0, or -1 with the message. */
int vb_merge_finish(vb_merge *m, double max_steps, unsigned flags, unsigned threads, char *err,
                    size_t errlen);

void vb_merge_free(vb_merge *m);

#endif
