/* runner.h — what a runner can do: the one place that knows the kinds.
 *
 * A runner is an entry of a case's list and a row of every table: an
 * integrator of the table, built in or a plugin's (isolated), fixed-step or
 * adaptive, an external engine (engine/; at a contact, measured besides by
 * contactrun.h), a frame loop round another entry (loops/), a method inside
 * a contact handler (composed/), a rotation method on a rigid body
 * (rigid_method.h: a method's run, measured besides by rigid_metrics.h).
 * The layers above driver/ ask this header what a runner can do
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
#include "metrics.h"
#include "model.h"
#include "plan.h"
#include "precision.h"
#include "result.h"
#include "verletbench.h"

struct vb_truth; /* truth.h */

/* The kinds of state a runner can carry. */
typedef enum {
    VB_STATE_PARTICLES, /* d x n point masses: x[N], v[N] (model.h) */
    VB_STATE_RIGID_BODY /* a rigid body: x[3], q[4], v[3], w[3] (rigid.h) */
} vb_state_kind;

typedef struct vb_state_shape {
    vb_state_kind kind;
    size_t size; /* doubles: 2N, or VB_RIGID_COMPONENTS */
} vb_state_shape;

/* The state a runner must carry to run on model m: a particle model's
 * 2N doubles, a rigid body's (rigid.h) 13. */
vb_state_shape vb_state_of_model(const vb_model *m);
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
    /* a method inside a contact handler (composed.h), or an engine (a
     * body at a contact, protocol 4), on a model with a contact: its runs
     * carry the contact measures (contact.csv) */
    int contact;
    /* a method inside a contact solver on a stack of boxes (stackrun.h):
     * its runs carry a stack's measures (stacks.csv) */
    int stack;
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
/* What r has declared of itself by now into c (an engine's capability
 * line, read with its first run: its precision, velocity and substeps;
 * nothing for any other runner): the one part of its caps that a run
 * tells, where the rest is known before any. */
void vb_runner_declared(const vb_integrator *r, vb_runner_caps *c);

/* ---- a sweep's levels, as each runner takes them ----
 * A runner refines the plan's step level after level, or (one that holds
 * the frames of level 0) a tolerance or a physics step of its own
 * (vb_refines): what a level is, is decided here, and the layers above
 * read the plan and the x it gives. */

/* The plan a runner of caps c runs at a sweep's level: at_level (dt /
 * 2^level, the plans' own) where it refines dt; else the frames of level
 * 0 (frames0), with tol, the level's tolerance (an adaptive method: its
 * id "ID-T<level>"), or with the level alone, which its physics step
 * halves (an accumulator: "ID-P<level>"). */
vb_plan_spec vb_runner_level_plan(const vb_runner_caps *c, const vb_plan_spec *at_level,
                                  const vb_plan_spec *frames0, double tol);
/* The x of a run's level, of its fits and its bands: the tolerance its
 * plan holds (an adaptive method's), else its step, its result's dt (a
 * fixed plan's own t_end / N, a random plan's nominal dt, an
 * accumulator's physics step). */
double vb_runner_level_x(const vb_plan_spec *plan, const struct vb_run_result *res);
/* What a runner's row holds of its own, beyond what any run of its plan
 * writes whatever its method did (result.h's vb_run_frame): VB_OWN_STEPS,
 * its steps are a count of its own (a frame loop's physics steps), not the
 * plan's; VB_OWN_DT, its dt is its own step (an accumulator's physics
 * step), not the plan's. */
enum { VB_OWN_STEPS = 1u, VB_OWN_DT = 2u };
unsigned vb_runner_own(const vb_runner_caps *c);

/* The tolerance a run of r under plan is held to (the plan's, or
 * VB_DEFAULT_TOL where it gives none), or NaN for a runner without one
 * (any but an adaptive method). */
double vb_runner_tolerance(const vb_integrator *r, const vb_plan_spec *plan);

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

/* ---- a run: open, start, (advance, observe, measure)..., finish, close ----
 *
 * The driver (simulate.c) steps every kind of runner through these and
 * nothing else, as GSL's ode-initval2 driver steps any step type and
 * REBOUND calls one step function. */

typedef struct vb_run vb_run;

typedef struct vb_run_ops {
    /* Start at t = 0 from the model's initial state s0; h is the plan's
     * first step.  0, or -1 when it could not start (res: its status and
     * failure).  Either way it sets run->no_velocity when it reports
     * positions alone. */
    int (*start)(vb_run *run, const double *s0, double h, vb_run_result *res);
    /* The plan's step from t by h, taken and nothing read back: the driver
     * advances every run of a grid step before any observes, so that the
     * processor overlaps their independent chains of dependent operations.
     * NULL: the step is taken by observe (an engine's row, a loop's frame). */
    void (*advance)(vb_run *run, double t, double h);
    /* What it reports at t_next, reached by a step h, into s
     * (caps.state.size doubles): 0, or -1 when the run stopped there (res:
     * its status and failure). */
    int (*observe)(vb_run *run, double t_next, double h, double *s, vb_run_result *res);
    /* The reported state s against the truth (xe, ve) at its time: NULL,
     * or the name of an error that is not finite.  NULL: run->m measures
     * it (vb_metrics_add_sized). */
    const char *(*measure)(vb_run *run, const double *s, const double *xe, const double *ve,
                           const vb_exact_size *size);
    /* The driver stopped the run early (its state not finite, an error not
     * measurable): let go now of what it holds (an engine's process).
     * NULL: nothing to let go. */
    void (*halt)(vb_run *run);
    /* Its result, once it stopped or reached the plan's end (res: the
     * status and steps the driver counted); last is its last state. */
    void (*finish)(vb_run *run, const vb_plan_spec *spec, const vb_plan *plan,
                   const struct vb_truth *truth, const double *last, vb_run_result *res);
    void (*close)(vb_run *run);
} vb_run_ops;

/* One run of a runner: its kind's memory begins with this. */
struct vb_run {
    const vb_run_ops *ops;
    const vb_integrator *entry;
    const vb_model *model;
    vb_force force;  /* the model's force, counted, for a method's steps */
    vb_metrics m;    /* its reported states against the truth, unless measure */
    int no_velocity; /* it reports positions alone (an engine of velocity=none) */
    /* The state of a method of the table that entry->step advances and
     * entry->observe reads, or NULL (any other kind).  For a plain run
     * (below) the driver calls those two on it directly: in the grid's
     * inner loop one indirect call a step in place of two, plus the
     * observe's, cost 4 % of a sweep's instructions (callgrind, spring and
     * orbit). */
    void *method_state;
    /* Its advance and observe are exactly entry->step and entry->observe
     * on method_state (a plain method's run, not a rigid body's, which
     * measures at the time it observes): the driver calls those two
     * directly. */
    int plain;
};

/* A run of entry r on model m under plan: NULL out of memory.  Its kind's
 * operations in run->ops; vb_run_close frees it. */
vb_run *vb_run_open(const vb_integrator *r, const vb_model *m, const vb_plan_spec *plan);
void vb_run_close(vb_run *run);

#endif
