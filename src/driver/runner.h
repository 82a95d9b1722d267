/* runner.h — what a runner can do: the one place that knows the kinds.
 *
 * A runner is an entry of a case's list and a row of every table: an
 * integrator of the table, built in or a plugin's (isolated), fixed-step or
 * adaptive, an external engine (engine/), a frame loop round another entry
 * (loops/).  The layers above driver/ ask this header what a runner can do
 * (vb_runner_caps) and ask it to do what differs by kind (its step bound,
 * who it is in a message, its provenance line, what it keeps between runs);
 * they never ask which kind it is.  A new kind of runner is its own folder
 * and this file's runner.c, and no sweep, output or check file.
 *
 * A run's state is caps.state.size doubles: for the d x n particles of the
 * models of model.h, x[N] then v[N] (N = n d); for a rigid body (rigid.h,
 * docs/rigid.md §7), x[3] q[4] v[3] w[3]. */
#ifndef VB_RUNNER_H
#define VB_RUNNER_H

#include <stddef.h>

#include "engine.h"
#include "model.h"
#include "precision.h"
#include "verletbench.h"

/* The kinds of state a runner can carry. */
typedef enum {
    VB_STATE_PARTICLES, /* d x n point masses: x[N], v[N] (model.h) */
    VB_STATE_RIGID_BODY /* a rigid body: x[3], q[4], v[3], w[3] (rigid.h) */
} vb_state_kind;

typedef struct vb_state_shape {
    vb_state_kind kind;
    size_t size; /* doubles: 2N, or VB_RIGID_COMPONENTS */
} vb_state_shape;

/* A particle model's state, as a runner must carry it to run on it. */
vb_state_shape vb_state_of_model(const vb_model *m);
/* A rigid body's (rigid.h): 13 doubles. */
vb_state_shape vb_state_of_rigid_body(void);
/* "particles", "rigid body" */
const char *vb_state_kind_name(vb_state_kind k);

/* What a sweep refines, level after level (docs/method.md §5, §9). */
typedef enum {
    VB_REFINES_DT, /* the plan's step: dt, dt/2, ... */
    /* a step of its own inside the frames of level 0, which it holds: an
     * accumulator's physics_dt / 2^level, its rows' dt */
    VB_REFINES_PHYSICS_DT,
    /* its tolerance inside the frames of level 0 (an adaptive method): the
     * tolerance / VB_TOL_RATIO^level, the x of its fits, its rows' tol */
    VB_REFINES_TOL
} vb_refines;

/* What a runner can do on a model. */
typedef struct vb_runner_caps {
    vb_state_shape state; /* the state it carries */
    vb_refines refines;   /* anything but dt: it holds the frames of level 0 */
    /* there and back again (the reversal table): started, stepped, turned
     * round and stepped back through the same steps by its method */
    int reverses;
    /* started from exact history, x(t), v(t) and x(t - h'), for one step
     * (the one-step table) */
    int one_step;
    /* its runs' wall time is what its method costs a user (run --timing):
     * not an engine's, whose time is its process's, nor a frame loop's
     * (a plugin's is timed too, in a worker) */
    int timed;
    /* its runs call a plugin's code (its method's, a loop's inner one's,
     * or its model's): they go to worker processes that may crash
     * (plugin/isolate.h) */
    int isolated;
    /* a process of its own (an engine): never in a worker, since it runs
     * apart already, and its runs are those the sweep's plans ask of it
     * (a directory of trajectories holds no others): no frame-rate rows */
    int external;
    /* it reports a drawn state at the plan's times and keeps its physics
     * steps at times of their own (a frame loop): err_draw_max, err_draw_rms */
    int draws;
    /* a method built into verletbench: run --strict=mine judges these */
    int builtin;
    /* what it declares of itself (an engine's capability line,
     * docs/real-engines.md §1.6, §1.7): float64 and velocity state but for
     * an engine that said otherwise.  A built-in method's arithmetic is its
     * case's, not a declaration of its own. */
    vb_precision precision;
    vb_velocity_kind velocity;
    int substeps; /* the substeps a frame it declared (§1.9); 0: not said */
    /* the entry of the integrator table it steps with, for its parameters
     * (a frame loop's is the method inside it; an engine's is itself, an
     * entry without parameters) */
    const vb_integrator *method;
} vb_runner_caps;

/* What entry r (an element of a case's list) can do on model m. */
vb_runner_caps vb_runner_caps_of(const vb_integrator *r, const vb_model *m);

/* The most steps a run of n frames up to t_end takes at a sweep's level
 * (h_equal: the frames' one size when all are equal, else 0), and what
 * sets that when it is not the frames (a frame loop's [loop] key). */
typedef struct vb_step_bound {
    double steps;
    const char *key;    /* the case file's key that sets them, or NULL: the frames */
    const char *value;  /* its value as written ("1/120") */
    unsigned long line; /* its line, 0 when it did not come from a case file */
    double step;        /* the step the key gives at the level asked */
} vb_step_bound;
vb_step_bound vb_runner_bound(const vb_integrator *r, double n, double h_equal, double t_end,
                              int level);

/* Who r is in a message about a run of it on m that failed: "engine NAME
 * (COMMAND)", "plugin integrator NAME (FILE)", "NAME on the plugin model
 * MODEL (FILE)". */
void vb_runner_who(const vb_integrator *r, const vb_model *m, char *buf, size_t len);
/* Its line in every file's provenance, without "# " or a line end (an
 * engine's command and declarations): 1, or 0 for none. */
int vb_runner_provenance(const vb_integrator *r, char *buf, size_t len);
/* The directory its runs are read from (recorded trajectories), or NULL:
 * it computes them. */
const char *vb_runner_recorded(const vb_integrator *r);
/* Done with a case: what it keeps between runs let go (an engine's
 * persistent workers). */
void vb_runner_release(const vb_integrator *r);

#endif
