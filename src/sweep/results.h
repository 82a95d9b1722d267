/* results.h — what a sweep holds: every run of its plan (a job: an
 * integrator under one plan, its result), and the rows of what the runs
 * mean (fitted orders, random-plan bands, one-step errors, reversals,
 * timings), with the charts' series.  The parts of the sweep fill it
 * (jobs.c, analysis.c, onestep.c, reversal.c, timing.c, series.c), merge
 * fills its jobs from shards, and the tables are written from it
 * (output/). */
#ifndef VB_RESULTS_H
#define VB_RESULTS_H

#include "casefile.h"
#include "norms.h"
#include "orders.h"
#include "roundoff.h"
#include "series.h"
#include "runner.h"
#include "simulate.h"

#define VB_N_PLANS 3

/* A runner that refines its tolerance (VB_REFINES_TOL, runner.h: an
 * adaptive method) runs on the frames of level 0 at every level, with the
 * tolerance `tolerance` / VB_TOL_RATIO^level: the tolerance is what its
 * sweep refines, and the x of its fitted orders. */
#define VB_TOL_RATIO 10.0
/* What the case's entry i can do on its model (runner.h): as the case's
 * description holds it (profile.h), with what it has declared by now (an
 * engine's capability line). */
vb_runner_caps vb_sweep_caps(const vb_case *c, size_t i);
/* The tolerance an adaptive method's runs are held to at a level. */
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
    /* the points (medians for random): each level's x (its step, or its
     * tolerance: vb_runner_level_x) and error */
    double dt[VB_MAX_LEVELS], err[VB_MAX_LEVELS];
    /* its x are tolerances on the frames of the case's dt (an adaptive
     * method's levels), not steps */
    int x_tol;
    vb_verdict verdict;
} vb_order_row;

/* The errors of a rigid body's contact measures (contact.csv's body view,
 * result.h's vb_contact_result) whose order in dt a sweep fits
 * (contact_orders.h, docs/contact.md "Orders in dt"): each a distance from
 * its exact value, which the model gives. */
typedef enum {
    VB_CONTACT_ERR_T_ROLL,     /* |t_roll - t_roll_exact|, where the exact body rolls */
    VB_CONTACT_ERR_S_ROLL,     /* |s_roll - s_roll_exact|, there */
    VB_CONTACT_ERR_V_ROLL,     /* |v_roll - v_roll_exact|, there */
    VB_CONTACT_ERR_SLIP_MAX,   /* slip_max (exact 0), there */
    VB_CONTACT_ERR_A_ERR,      /* |a_err| (already over g) */
    VB_CONTACT_ERR_CREEP,      /* |creep| (exact 0), where it must stick */
    VB_CONTACT_ERR_ENERGY_ERR, /* energy_err (exact 0) */
    VB_CONTACT_ERR_DEPTH_MAX,  /* depth_max (exact 0) */
    VB_N_CONTACT_ERRS
} vb_contact_err;

/* One of them fitted for one entry (METHOD+SOLVER) and plan: an order
 * row as orders.csv's (its norm unused: what is fitted is the measure),
 * first, so that orders.csv's getters read it (orders_table.h). */
typedef struct vb_contact_order_row {
    vb_order_row o;
    vb_contact_err measure;
} vb_contact_order_row;

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

/* A reversal's verdict.  BELOW_RESOLUTION: the return error is within
 * the round-off of the case's arithmetic, but the same method in float64
 * about the origin misses by more than its own round-off, so the floor
 * hides a real irreversibility (docs/float32.md §5): never "yes". */
typedef enum { VB_REVERSIBLE_NO, VB_REVERSIBLE_YES, VB_REVERSIBLE_BELOW_RESOLUTION } vb_reversible;

/* "yes", "no" or "below-resolution" */
static inline const char *vb_reversible_name(vb_reversible r)
{
    return r == VB_REVERSIBLE_YES ? "yes" : r == VB_REVERSIBLE_NO ? "no" : "below-resolution";
}

typedef struct vb_reverse_row {
    size_t integ;
    vb_plan_kind kind;
    double dt;
    unsigned long long steps;
    double err_pos, err_vel; /* how far the run back misses (x0, -v0) */
    double scale;            /* the largest |x| on the way */
    double floor;            /* round-off for this run */
    vb_reversible reversible;
} vb_reverse_row;

/* A plugin whose code failed (isolate.h) what the sweep does besides its
 * runs (a run that failed says so itself: status plugin-failed): those
 * rows are left out, and this says which and why. */
typedef struct vb_plugin_failure {
    size_t integ;
    char what[48]; /* "its one-step errors", "its reversal test", "its timing" */
    char why[256];
} vb_plugin_failure;

/* The wall time of one run of the sweep (run --timing: timing.h). */
typedef struct vb_timing_row {
    size_t integ;
    vb_plan_kind kind;
    int level;
    const vb_sweep_job *job; /* the run timed: its steps, evaluations, errors */
    int repeats;
    double seconds; /* the median of the repeats */
} vb_timing_row;

/* A row of the frame-rate table (rates.h): one loop x integrator, frames
 * kind and display rate. */
typedef struct vb_rate_row {
    size_t integ;
    vb_plan_kind kind; /* fixed, random (seed 1, the case's jitter), or the case's trace */
    double rate;       /* Hz, as the case gives it */
    double dt;         /* the frames' dt: t_end/N for fixed frames, 1/rate nominal or mean */
    unsigned long long frames;
    vb_status status;
    unsigned long long fail_step; /* the step a run that did not finish stopped at */
    double err_final;          /* |x_drawn(t_end) - x(t_end)| */
    double y_max, y_max_exact; /* the highest drawn value of the height, and the truth's at the same frames */
    double err_energy_max;     /* NAN where the model has no energy */
    double err_draw_max;
    double lag;                /* the time an accumulator's clamp dropped (lag_max) */
    /* a rigid body's: the time a stable spin first tumbled (NAN: it did
     * not, or the exact motion flips; docs/rigid.md §4) */
    double t_tumble;
    double *x_final;           /* the drawn position at t_end (n), for the spread */
    char failure[256];         /* a plugin's worker that failed it (isolate.h): why */
} vb_rate_row;

/* The spread across rates of one integrator and frames kind. */
typedef struct vb_rate_spread {
    double final;  /* the largest distance between two rates' final positions */
    double y_max;  /* max - min of the highest point */
    double energy; /* max - min of err_energy_max (NAN without energy) */
    int rates;     /* rates whose run finished */
} vb_rate_spread;

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
    /* a rigid body's contact measures' orders in dt (contact_orders.h) */
    vb_contact_order_row *contact_orders;
    size_t n_contact_orders;
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
    vb_rate_row *rates; /* the frame-rate table ([loop] rates, rates.h) */
    size_t n_rates;
} vb_sweep;

/* Bad input to a sweep (a plan over the step limit, a shard that does not
 * fit): what the command reports as exit status 2; -1 is a failure of the
 * machine (out of memory). */
#define VB_SWEEP_USAGE (-2)

/* Record a plugin's failure of a part of the sweep (in the thread that
 * owns the sweep).  0, or -1 out of memory. */
int vb_sweep_plugin_failed(vb_sweep *s, size_t integ, const char *what, const char *why);

/* the shard (1..N) that computes job k, 0 when not sharded */
int vb_sweep_job_shard(const vb_sweep *s, size_t job);

void vb_sweep_free(vb_sweep *s);

#endif
