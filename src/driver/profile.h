/* profile.h — what a case is, asked once (issue 52): the description
 * casefile/ makes when a case loads (vb_case.profile), and that every
 * layer above driver/ reads in place of asking which kind of state, model
 * or entry it holds.
 *
 *  - its state: what every runner of the case carries, particles or a
 *    rigid body (vb_state_desc: its size, the body itself, what a chart's
 *    path of it holds, the errors the state has of its own);
 *  - what it steps: each entry's caps (runner.h), asked once, what a
 *    sweep's level is for each (runner.h's vb_runner_level_plan), and the
 *    entries by where their runs go (here, in worker processes) and by
 *    the tables they are rows of;
 *  - what it measures: the VB_MEASURE_* bits, of which the norms that
 *    apply, the tables and the charts follow (a measure that a state has,
 *    the attitude, or a runner's, contact events, a frame loop's drawn
 *    state, an adaptive method's tolerance, is a bit here, never a test of
 *    a kind above);
 *  - how it shards: every run of it is a job a shard carries whole
 *    (output/shardfile.c writes every field of its result, whatever it
 *    measures), so every case shards; one that runs an engine's command
 *    needs that engine on every machine, and a merge has each entry that
 *    declares itself with a run (an engine) make one before it reads the
 *    shards (declaring, below).
 *
 * What differs by kind is decided here and in runner.c, from the model and
 * the entries; the layers above read the answers. */
#ifndef VB_PROFILE_H
#define VB_PROFILE_H

#include <stddef.h>

#include "model.h"
#include "rigid.h"
#include "runner.h"
#include "verletbench.h"

/* The errors a state has of its own, beside the position's and the
 * velocity's: a rigid body's attitude error and drift of its world
 * angular momentum (rigid_metrics.h); none for particles. */
#define VB_STATE_ERRORS 2

/* The state a case's runners carry. */
typedef struct vb_state_desc {
    vb_state_shape shape;      /* its kind and size (runner.h) */
    const vb_rigid_body *body; /* a rigid body's own description, or NULL */
    /* the bodies it holds (the particles, or one rigid body, whatever the
     * doubles its state is packed in) */
    size_t bodies;
    /* What a chart's path of a run holds: path_width numbers of the
     * reported state x[N] then v[N] from index path_at (the coordinates:
     * 0; a rigid body's body-frame w: v's 3..5), path_dim numbers a body
     * (a particle's coordinates, the body's w). */
    size_t path_at, path_width, path_dim;
    /* a path read from the state rather than copied from it, path_width
     * numbers (a body at a contact: its speed along the slope and w R,
     * bodyrun.h's vb_body_path), or NULL: copied from path_at */
    void (*path_read)(const vb_rigid_body *b, const double *x, const double *v, double *out);
    /* the exact path's period, after which it repeats (a rigid body's
     * w(t): its polhode is closed), or INFINITY: none */
    double path_period;
    /* the charts draw its path at any fixed step of the sweep (draw --dt:
     * a rigid body's w), not at the coarsest alone */
    int path_every_step;
    /* how many errors vb_state_errors gives (0, or VB_STATE_ERRORS) */
    size_t errors;
    /* what its final state is in a sentence: "position", "attitude" */
    const char *pose;
} vb_state_desc;

/* The state of model m's runs. */
vb_state_desc vb_state_desc_of(const vb_model *m);

/* The state's own errors at a step (x, v) against the exact (xe, ve),
 * into out[0 .. d->errors): a rigid body's attitude error (rad) and
 * |L - L0| / |L0| (vb_rigid_errors_of: the same numbers a run's maxima
 * are of).  Their number. */
size_t vb_state_errors(const vb_state_desc *d, const double *x, const double *v,
                       const double *xe, const double *ve, double *out);

/* What a case's runs measure besides the position's and velocity's
 * errors, every one. */
enum {
    VB_MEASURE_ENERGY = 1u << 0,     /* the model has an energy */
    VB_MEASURE_ANGMOM = 1u << 1,     /* an angular momentum that is conserved */
    VB_MEASURE_MOMENTUM = 1u << 2,   /* a momentum that is conserved */
    VB_MEASURE_RETURN = 1u << 3,     /* t_end a whole number of periods: the return */
    VB_MEASURE_CONSTRAINT = 1u << 4, /* the model's rods: the drift off them */
    /* a rigid body's state: the attitude, the angular velocity, the flips
     * and the tumble (rigid_metrics.h), and its own chart data */
    VB_MEASURE_ATTITUDE = 1u << 5,
    /* a frame loop among the entries: the drawn state's errors */
    VB_MEASURE_DRAWN = 1u << 6,
    /* a runner at a contact among them: contact events (contact.csv) */
    VB_MEASURE_CONTACT = 1u << 7,
    /* ... on the bounce: the heights after each bounce (bounces.csv) */
    VB_MEASURE_BOUNCES = 1u << 8,
    /* an adaptive method among them: its levels are tolerances */
    VB_MEASURE_TOLERANCE = 1u << 9,
    /* a solver's run on a stack of boxes among them: a stack's measures
     * (stacks.csv) */
    VB_MEASURE_STACK = 1u << 10
};

typedef struct vb_profile {
    vb_state_desc state;
    unsigned measures; /* VB_MEASURE_* */
    size_t n;               /* entries */
    /* caps[i]: entry i's, asked once; what an engine declares with its
     * first run (runner.h's vb_runner_declared) is not among them:
     * sweep/results.h's vb_sweep_caps adds it */
    vb_runner_caps *caps;
    /* The entries whose runs go to worker processes (plugin/isolate.h):
     * when any entry's runs call a plugin's code (its method's, a loop's
     * inner one's, the model's), every entry's but those of a process of
     * their own (an engine's), so that a plan's runs go together there as
     * here; else none. */
    size_t *in_workers, n_in_workers;
    /* plugin[i]: entry i's own runs call a plugin's code (may fail a
     * worker: isolate.h's foreign units) */
    unsigned char *plugin;
    /* The entries of the frame-rate table ([loop] rates): every one that
     * computes its runs (an engine's are the runs the plans ask of it). */
    size_t *rated, n_rated;
    /* The entries that declare what they are with their first run (an
     * engine's capability line: its precision and velocity, which its
     * caps, its provenance line and the norms it is fitted for follow):
     * a merge has each make a run before it reads the shards. */
    size_t *declaring, n_declaring;
    /* The entries whose levels refine a physics step of their own inside
     * the frames of level 0 (an accumulator loop). */
    size_t *own_step, n_own_step;
    /* halves[i]: entry i's levels halve the plan's step (any but those
     * that hold the frames of level 0: an adaptive method, an
     * accumulator), so its run at a level is the level's plan */
    unsigned char *halves;
} vb_profile;

/* The description of the runs of entries integ[0..n) on model m up to
 * t_end.  0, or -1 out of memory (p is then empty). */
int vb_profile_make(vb_profile *p, const vb_model *m, const vb_integrator *const *integ,
                    size_t n, double t_end);
void vb_profile_free(vb_profile *p);

/* Units units[0..n) of work, unit k a run of entry entry[k] (entry NULL:
 * each unit is the entry of its number), split by where the runs go:
 * those whose runs call a plugin's code into there (worker processes),
 * the others into here, each in the order given.  The number put there;
 * *n_here the others'. */
size_t vb_profile_split(const vb_profile *p, const size_t *units, const size_t *entry, size_t n,
                        size_t *here, size_t *n_here, size_t *there);

#endif
