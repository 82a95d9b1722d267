/* sweep.h — a case's whole plan (docs/method.md §5): every integrator at
 * dt, dt/2, ... under the fixed plan, `seeds` random plans and the trace
 * (jobs.h), then what the runs mean: fitted orders, random-plan bands,
 * one-step errors, and whether a run retraces itself backwards.  What a
 * command calls; what a sweep holds is results.h. */
#ifndef VB_SWEEP_H
#define VB_SWEEP_H

#include "jobs.h"
#include "results.h"
#include "shards.h"

/* Flags of vb_sweep_run. */
enum {
    /* only the tables: no long runs or paths for the charts (check, baseline) */
    VB_SWEEP_TABLES_ONLY = 1u,
    /* also time the runs, alone and on one thread, into timing.csv */
    VB_SWEEP_TIMING = 2u
};

/* `threads` runs jobs in parallel (1: in this thread); the results are the
 * same bytes whatever it is, since every job owns its slot and everything
 * after the jobs runs in one thread in a fixed order.  progress is then
 * called from the workers, one at a time. */
int vb_sweep_run(const vb_case *c, vb_sweep *s, double max_steps, unsigned flags,
                 unsigned threads, vb_progress_fn *progress, void *ctx, char *err,
                 size_t errlen);

/* The same in parts, for shards (run --shard K/N, merge): begin plans the
 * jobs; vb_sweep_shard says which shard computes each (over a group of
 * sweeps: the points of one case file's grid, jointly, or its one case)
 * and makes them shard_k's; compute runs the jobs (a shard's only); finish
 * works out what the filled jobs mean and runs the rest (one-step,
 * reversal, the charts' long runs), which makes the sweep whole.  A merge
 * fills every job from the shards between begin and finish: the files then
 * equal vb_sweep_run's. */
int vb_sweep_finish(const vb_case *c, vb_sweep *s, double max_steps, unsigned flags,
                    unsigned threads, char *err, size_t errlen);

/* shard.csv: a shard's results, exactly (hex floats); and reading one back
 * into the jobs of a sweep begun with the same case and N.  The reader
 * checks every '#' line but the truth's against what this build and case
 * write (another version or other parameters: VB_SWEEP_USAGE naming the
 * line) and fills only jobs of shard k, each once (*filled counts them);
 * *order_i / *order_m: the case's place in the run that made it. */
void vb_sweep_write_shard(const vb_sweep *s, FILE *f);
int vb_sweep_read_shard(vb_sweep *s, int k, int n, const char *path, size_t *filled,
                        int *order_i, int *order_m, char *err, size_t errlen);

/* Write {runs,orders,bands,onestep,onestep_orders,reverse}.csv, the chart
 * data {convergence,timeseries,paths}.csv (unless tables_only) and
 * summary.md into DIR, a new empty directory (vb_casedir_begin makes it). */
int vb_sweep_write(const vb_sweep *s, const char *dir, char *err, size_t errlen);

/* Write every sweep into the results directory DIR/NAME, and every grid
 * (grid.h) into DIR/ITS-NAME, each directory replaced whole, all of them
 * written before any is swapped in (a write that fails changes nothing).
 * 0, or VB_OUTDIR_USAGE or VB_OUTDIR_FAIL (outdir.h) with a message. */
struct vb_outdir;
struct vb_grid;
int vb_sweep_write_all(const struct vb_outdir *o, const vb_sweep *sweeps, size_t n,
                       const struct vb_grid *grids, size_t n_grids, char *err, size_t errlen);

/* The text one of those files would have ("runs.csv", ...), in a buffer
 * to free.  0, or -1 (out of memory, or no such file in this sweep). */
int vb_sweep_table_text(const vb_sweep *s, const char *file, char **text, size_t *len);

/* mkdir -p.  0, or -1 with a message naming the part that failed. */
/* 1 when NAME is a file `run` writes in a case's directory (runs.csv, ...) */
int vb_sweep_file_name(const char *name);

int vb_make_dir(const char *path, char *err, size_t errlen);

/* The summary table of a case, in Markdown. */
void vb_sweep_summary(const vb_sweep *s, FILE *out);

#endif
