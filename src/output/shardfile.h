/* shardfile.h — shard.csv: a shard's results (run --shard K/N), and the
 * merge's finding and reading of them (the merge itself:
 * sweep/shardmerge.h). */
#ifndef VB_SHARDFILE_H
#define VB_SHARDFILE_H

#include <stdio.h>

#include "results.h"
#include "schema.h"
#include "shardmerge.h"

/* shard.csv: a shard's results, exactly (hex floats); and reading one back
 * into the jobs of a sweep begun with the same case and N.  The reader
 * checks every '#' line but the truth's against what this build and case
 * write (another version or other parameters: VB_SWEEP_USAGE naming the
 * line) and fills only jobs of shard k, each once (*filled counts them);
 * *order_i / *order_m: the case's place in the run that made it. */
/* shard.csv's columns: the job's key, every field of a run's result (one
 * table in shardfile.c with the reading rules merge holds them to), the
 * failure text */
extern const vb_schema vb_shard_schema;

void vb_sweep_write_shard(const vb_sweep *s, FILE *f);
int vb_sweep_read_shard(vb_sweep *s, int k, int n, const char *path, size_t *filled,
                        int *order_i, int *order_m, char *err, size_t errlen);

/* Every SHARDDIR/NAME/shard.csv of the directories given, each in name
 * order, with what its first line says ("# verletbench V: shard K/N of the
 * runs of PATH"): *out (vb_shard_refs_free), *n_out of them.  0;
 * VB_SWEEP_USAGE with the message for a directory that cannot be read or
 * holds no shard, or a shard.csv whose first line is not a shard's; -1
 * out of memory. */
int vb_shards_find(char *const *dirs, size_t n_dirs, vb_shard_ref **out, size_t *n_out,
                   char *err, size_t errlen);

#endif
