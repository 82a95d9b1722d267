/* sweep.h — a case's whole plan (docs/method.md §5): every integrator at dt, dt/2, ...
 * under the fixed plan, `seeds` random plans and the trace, then what the
 * runs mean: fitted orders, random-plan bands, one-step errors, and whether
 * a run retraces itself backwards.  The runs of one plan (a kind, a level,
 * a seed) go together, every integrator on the same step times, so the
 * truth is computed once for all of them (simulate.h); plans are
 * independent tasks, each writing only its own slots, so they can go in
 * any order or in parallel and the tables come out the same. */
#ifndef VB_SWEEP_H
#define VB_SWEEP_H

#include "casefile.h"
#include "orders.h"
#include "roundoff.h"
#include "series.h"
#include "simulate.h"
#include "timing.h"

/* The error norms a sweep fits orders for (docs/method.md §4 columns). */
typedef enum {
    VB_NORM_POS_FINAL,
    VB_NORM_POS_MAX,
    VB_NORM_POS_RMS,
    VB_NORM_VEL_FINAL,
    VB_NORM_VEL_MAX,
    VB_NORM_ENERGY_MAX,
    VB_NORM_ANGMOM_MAX,
    VB_NORM_MOMENTUM_MAX,
    VB_NORM_RETURN,
    VB_NORM_CONSTRAINT_MAX,
    VB_N_NORMS
} vb_norm;

struct vb_case;
const char *vb_norm_name(vb_norm n);
double vb_norm_value(const vb_run_result *r, vb_norm n);
/* 0 if the case's runs have no such quantity (energy of the damped spring,
 * a return error when t_end is not a whole number of periods). */
int vb_norm_applies(const struct vb_case *c, vb_norm n);
/* Errors at or below this cannot be told from the reference solution's own
 * (0 for an exact solution): never fitted (truth.h). */
double vb_norm_resolution(const vb_run_result *r, vb_norm n);
/* The size of what a norm measures in a run: |x|, |v|, or 1 (relative). */
double vb_norm_scale(const vb_run_result *r, vb_norm n);

#define VB_N_PLANS 3

/* An adaptive integrator (VB_ADAPTIVE) runs on the frames of level 0 at
 * every level, with the tolerance `tolerance` / VB_TOL_RATIO^level: the
 * tolerance is what its sweep refines, and the x of its fitted orders. */
#define VB_TOL_RATIO 10.0
int vb_adaptive(const vb_integrator *g);
double vb_sweep_tolerance(const vb_case *c, int level);

typedef struct vb_sweep_job {
    size_t integ;      /* index into the case's integrators */
    vb_plan_kind kind;
    int level;         /* dt / 2^level */
    unsigned long seed;
    vb_plan_spec plan;
    vb_run_result res;
    int failed;        /* the machine failed (memory); err says why */
    int loaded;        /* merge: res came from a shard */
    char err[128];
} vb_sweep_job;

typedef struct vb_order_row {
    size_t integ;
    vb_plan_kind kind;
    vb_norm norm;
    vb_fit fit;
    double dt[VB_MAX_LEVELS], err[VB_MAX_LEVELS]; /* the points (medians for random) */
    vb_verdict verdict;
} vb_order_row;

typedef struct vb_band_row {
    size_t integ;
    int level;
    double dt;
    vb_norm norm;
    double median, p10, p90;
    int runs; /* seeds that finished */
} vb_band_row;

/* One step from exact data (x(t), v(t) and, for multistep methods,
 * x(t - h')) at h = T/16, T/32, ... (T the model's natural time), with
 * h' = ratio h. */
#define VB_ONESTEP_RATIOS 2
#define VB_ONESTEP_LEVELS 8
extern const double vb_onestep_ratio[VB_ONESTEP_RATIOS]; /* 1 and 1.5 */

typedef struct vb_onestep_row {
    size_t integ;
    int ratio; /* index into vb_onestep_ratio */
    double h[VB_ONESTEP_LEVELS], err_pos[VB_ONESTEP_LEVELS], err_vel[VB_ONESTEP_LEVELS];
    vb_fit fit_pos, fit_vel;
} vb_onestep_row;

typedef struct vb_reverse_row {
    size_t integ;
    vb_plan_kind kind;
    double dt;
    unsigned long long steps;
    double err_pos, err_vel; /* how far the run back misses (x0, -v0) */
    double scale;            /* the largest |x| on the way */
    double floor;            /* round-off for this run */
    int reversible;
} vb_reverse_row;

/* A plugin whose code failed (isolate.h) what the sweep does besides its
 * runs (a run that failed says so itself: status plugin-failed): those
 * rows are left out, and this says which and why. */
typedef struct vb_plugin_failure {
    size_t integ;
    char what[48]; /* "its one-step errors", "its reversal test", "its timing" */
    char why[256];
} vb_plugin_failure;

typedef struct vb_sweep {
    const vb_case *c;
    vb_sweep_job *jobs;
    size_t n_jobs;
    vb_order_row *orders;
    size_t n_orders;
    vb_band_row *bands;
    size_t n_bands;
    vb_onestep_row *onestep;
    size_t n_onestep;
    vb_reverse_row *reverse;
    size_t n_reverse;
    double onestep_T; /* one-step errors: h = T/16, ...; moments across [0, T] */
    /* same_as[i * VB_N_PLANS + plan]: the first integrator whose position
     * errors equal integrator i's to round-off in every run of that plan
     * (the same positions, as verlet-var and velocity-verlet have under any
     * steps), or VB_SAME_NONE */
    size_t *same_as;
    /* the whole relation: same_pair[(i * n + o) * VB_N_PLANS + plan] is 1
     * when integrator i's position errors equal o's (o < i) in every run of
     * the plan, to round-off (a grid asks it of every pair, grid.h) */
    unsigned char *same_pair;
    vb_series_set series; /* long runs and paths, for the charts */
    /* a shard (run --shard K/N): task g (plan g of every integrator) is
     * computed by shard task_shard[g]; only shard_k's jobs hold results */
    int shard_k, shard_n;
    int *task_shard;
    int order_i, order_m; /* the case's place in the run's list (1-based), of how many */
    vb_timing_row *timing; /* VB_SWEEP_TIMING: the wall time of runs (timing.h) */
    size_t n_timing;
    int timed;
    int tables_only;      /* VB_SWEEP_TABLES_ONLY: series is empty, no chart files */
    vb_plugin_failure *plugin_failed;
    size_t n_plugin_failed;
} vb_sweep;

/* Record a plugin's failure of a part of the sweep (in the thread that
 * owns the sweep).  0, or -1 out of memory. */
int vb_sweep_plugin_failed(vb_sweep *s, size_t integ, const char *what, const char *why);


/* Called after each finished job with (done, total): for a progress line. */
typedef void vb_progress_fn(void *ctx, size_t done, size_t total);

/* Flags of vb_sweep_run. */
enum {
    /* only the tables: no long runs or paths for the charts (check, baseline) */
    VB_SWEEP_TABLES_ONLY = 1u,
    /* also time the runs, alone and on one thread, into timing.csv */
    VB_SWEEP_TIMING = 2u
};

/* Plan, run and analyse.  0; VB_SWEEP_USAGE with a message for a plan over
 * the step limit (bad input); -1 with a message for a failure of the
 * machine (out of memory). */
#define VB_SWEEP_USAGE (-2)

/* Refuse a case whose plan needs more than max_steps steps in a run, before
 * anything is written or run: 0 or VB_SWEEP_USAGE with a message. */
int vb_sweep_check(const vb_case *c, double max_steps, char *err, size_t errlen);

/* The plans one integrator of the case runs, in the sweep's order (kind,
 * level, seed); malloc'd, *n of them; NULL when out of memory. */
vb_plan_spec *vb_sweep_plans(const vb_case *c, size_t *n);
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
int vb_sweep_begin(const vb_case *c, vb_sweep *s, double max_steps, char *err, size_t errlen);
int vb_sweep_shard(vb_sweep *sweeps, size_t n_sweeps, int shard_k, int shard_n);
int vb_sweep_compute(const vb_case *c, vb_sweep *s, unsigned threads, vb_progress_fn *progress,
                     void *ctx, char *err, size_t errlen);
int vb_sweep_finish(const vb_case *c, vb_sweep *s, double max_steps, unsigned flags,
                    unsigned threads, char *err, size_t errlen);
/* the shard (1..N) that computes job k, 0 when not sharded */
int vb_sweep_job_shard(const vb_sweep *s, size_t job);

/* shard.csv: a shard's results, exactly (hex floats); and reading one back
 * into the jobs of a sweep begun with the same case and N.  The reader
 * checks every '#' line but the truth's against what this build and case
 * write (another version or other parameters: VB_SWEEP_USAGE naming the
 * line) and fills only jobs of shard k, each once (*filled counts them);
 * *order_i / *order_m: the case's place in the run that made it. */
void vb_sweep_write_shard(const vb_sweep *s, FILE *f);
int vb_sweep_read_shard(vb_sweep *s, int k, int n, const char *path, size_t *filled,
                        int *order_i, int *order_m, char *err, size_t errlen);

void vb_sweep_free(vb_sweep *s);

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
