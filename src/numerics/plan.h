/* plan.h — step plans (docs/method.md §1): the sequence h_0, h_1, ... of one run.
 * A plan is an iterator with no global state; the random plan owns its
 * generator, so runs in different threads never share one. */
#ifndef VB_PLAN_H
#define VB_PLAN_H

#include <stddef.h>
#include <gsl/gsl_rng.h>

typedef enum { VB_PLAN_FIXED, VB_PLAN_RANDOM, VB_PLAN_TRACE } vb_plan_kind;

/* A recorded frame-time trace: positive steps, one a line. */
typedef struct vb_trace {
    double *h;
    size_t n;
    double sum; /* summed in order, as a run advances t */
    char *path; /* as loaded (engines' requests name it); NULL if built in memory */
} vb_trace;

/* Read a trace.  0, or -1 with "FILE:LINE: ..." in err. */
int vb_trace_load(const char *path, vb_trace *tr, char *err, size_t errlen);
/* The same for a path that a file names (a trajectory's header, which
 * `score` reads): the messages say where it is not a trace, never what it
 * holds, since the header may name any file (/etc/shadow). */
int vb_trace_load_unquoted(const char *path, vb_trace *tr, char *err, size_t errlen);
void vb_trace_free(vb_trace *tr);

typedef struct vb_plan_spec {
    vb_plan_kind kind;
    double t_end;        /* > 0; for a trace, 0 means "the whole trace" */
    double dt;           /* fixed and random */
    double jitter;       /* random: 0 <= jitter < 1 */
    unsigned long seed;  /* random */
    const vb_trace *trace;
    /* A sweep refines a trace by scaling its steps by trace_scale (2^-k at
     * level k) and replaying it from the start when it runs out, so that the
     * pattern of step changes h/h' stays the recorded one; the frame-rate
     * table scales it to each display rate, by more than 1 for a slower one.
     * 0 means 1; a scale of 1 replays nothing: the trace must cover t_end
     * (docs/method.md §1). */
    double trace_scale;
    /* the run's name for an external engine (engine.h): "fixed-L2",
     * "random-L0-S1", ...; "" where none was given */
    char id[40];
    int level; /* the k of dt/2^k in a sweep, else 0 */
    /* the tolerance of an adaptive integrator's error control (the steps
     * above are then its frames); 0 for the default, VB_DEFAULT_TOL */
    double tol;
} vb_plan_spec;

typedef struct vb_plan {
    vb_plan_spec spec;
    gsl_rng *rng;
    unsigned long long n, N; /* steps taken; N for the fixed plan */
    double t, t_end, h_fixed, land_tol;
    int done;
} vb_plan;

/* A step that would stop short of t_end by less than LAND_TOL times the
 * typical step is stretched onto t_end instead, so no run ends with a
 * sliver of a step whose h/h' or 1/h would only measure round-off. */
#define VB_PLAN_LAND_TOL 1e-9

/* No run may take more steps than this, whatever --max-steps says: step
 * counts and t_n = n h stay exact in a double below 2^53, and a step of at
 * least t_end/2^50 is still four ulps of any t <= t_end, so t keeps moving.
 * 1.1e15 steps is years of computing anyway. */
#define VB_PLAN_MAX_STEPS 1125899906842624.0 /* 2^50 */

/* A trace file is at most this many bytes, and a line at most
 * VB_TRACE_MAX_LINE: a recorded trace of an hour at 60 Hz is ~2 MB, and a
 * wrong file (a device, a FIFO fed forever) is refused instead of read
 * until memory runs out. */
#define VB_TRACE_MAX_BYTES (16u << 20)
#define VB_TRACE_MAX_LINE 1024

/* An adaptive method's tolerance when nothing sets one (sim, bench, the
 * charts' long runs of a case without `tolerance`). */
#define VB_DEFAULT_TOL 1e-6

const char *vb_plan_name(vb_plan_kind kind);

/* The end time the plan will reach. */
double vb_plan_t_end(const vb_plan_spec *spec);

/* The number of steps the plan takes (fixed, trace), or an upper bound on
 * it (random), for the step limit.  Exact for a trace at any scale. */
double vb_plan_max_steps(const vb_plan_spec *spec);

/* Check a spec: 0, or -1 with a message naming the bad value. */
int vb_plan_check(const vb_plan_spec *spec, char *err, size_t errlen);

/* 0, or -1 if the generator could not be allocated. */
int vb_plan_begin(vb_plan *p, const vb_plan_spec *spec);
/* The next step h and the time t_next it reaches: 1, or 0 when done. */
int vb_plan_next(vb_plan *p, double *h, double *t_next);
void vb_plan_end(vb_plan *p);

/* Where a plan is, to replay its steps from there: the iterator and its
 * generator's state (5 kB for mt19937).  A run that must go over its steps
 * again (backwards, for the reversal test) keeps a checkpoint every K steps
 * instead of every step, and regenerates K at a time. */
typedef struct vb_plan_checkpoint {
    vb_plan at;
    void *rng_state; /* NULL for plans without a generator */
} vb_plan_checkpoint;

/* 0, or -1 if out of memory. */
int vb_plan_save(const vb_plan *p, vb_plan_checkpoint *cp);
/* p must come from vb_plan_begin with the same spec. */
void vb_plan_restore(vb_plan *p, const vb_plan_checkpoint *cp);
void vb_plan_checkpoint_free(vb_plan_checkpoint *cp);

#endif
