/* shardfile.h — shard.csv: a shard's results (run --shard K/N), and the
 * merge's finding and reading of them (the merge itself:
 * sweep/shardmerge.h). */
#ifndef VB_SHARDFILE_H
#define VB_SHARDFILE_H

#include <stdio.h>

#include "results.h"
#include "schema.h"
#include "shardmerge.h"

/* shard.csv's columns in order: a run's key and status, its result's
 * counts and flags, its doubles exactly (%a), and a plugin's failure */
enum {
    VB_COL_SHARD_JOB,
    VB_COL_SHARD_INTEGRATOR,
    VB_COL_SHARD_PLAN,
    VB_COL_SHARD_LEVEL,
    VB_COL_SHARD_SEED,
    VB_COL_SHARD_STATUS,
    VB_COL_SHARD_STEPS,
    VB_COL_SHARD_FORCE_EVALS,
    VB_COL_SHARD_FAIL_STEP,
    VB_COL_SHARD_HAS_ENERGY,
    VB_COL_SHARD_HAS_ANGMOM,
    VB_COL_SHARD_HAS_MOMENTUM,
    VB_COL_SHARD_HAS_RETURN,
    VB_COL_SHARD_HAS_REFERENCE,
    VB_COL_SHARD_HAS_CONSTRAINT,
    VB_COL_SHARD_DT,
    VB_COL_SHARD_T_END,
    VB_COL_SHARD_ERR_POS_FINAL,
    VB_COL_SHARD_ERR_POS_MAX,
    VB_COL_SHARD_ERR_POS_RMS,
    VB_COL_SHARD_ERR_VEL_FINAL,
    VB_COL_SHARD_ERR_VEL_MAX,
    VB_COL_SHARD_ERR_ENERGY_MAX,
    VB_COL_SHARD_ERR_ANGMOM_MAX,
    VB_COL_SHARD_ERR_MOMENTUM_MAX,
    VB_COL_SHARD_ERR_RETURN,
    VB_COL_SHARD_POS_SCALE,
    VB_COL_SHARD_VEL_SCALE,
    VB_COL_SHARD_REF_ERR_POS,
    VB_COL_SHARD_REF_ERR_VEL,
    VB_COL_SHARD_REF_BAD_FORCE_T,
    VB_COL_SHARD_ERR_CONSTRAINT_MAX,
    VB_COL_SHARD_ERR_POS_SIGNED,
    VB_COL_SHARD_FAILURE,
    VB_SHARD_COLUMNS
};
extern const vb_schema vb_shard_schema;

/* shard.csv: a shard's results, exactly (hex floats); and reading one back
 * into the jobs of a sweep begun with the same case and N.  The reader
 * checks every '#' line but the truth's against what this build and case
 * write (another version or other parameters: VB_SWEEP_USAGE naming the
 * line) and fills only jobs of shard k, each once (*filled counts them);
 * *order_i / *order_m: the case's place in the run that made it. */
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
