/* shards.h — a sweep cut into shards (run --shard K/N): which shard
 * computes each task, the same in every shard, from the case file alone. */
#ifndef VB_SHARDS_H
#define VB_SHARDS_H

#include "results.h"

/* The most shards a sweep is cut into (run --shard K/N). */
#define VB_MAX_SHARDS 10000

/* Assign every task of a group of sweeps (the points of one case file's
 * grid, jointly, or its one case) to one of shard_n shards, and make the
 * sweeps shard shard_k's.  0, or -1 out of memory. */
int vb_sweep_shard(vb_sweep *sweeps, size_t n_sweeps, int shard_k, int shard_n);

#endif
