/* stackrun.h — a stack of boxes (models/stack.h) inside a contact solver
 * round a rotation method (issue 55): the solver's step a plan step of dt
 * from 0 to t_end, every box measured after each, against the exact
 * answer that no box moves:
 *   drift_max   the largest displacement |x_k(t) - x_k(0)| of any box's
 *               centre at any step (exact 0);
 *   speed_rms   the jitter: the root mean square of the boxes' centre
 *               speeds over every box and step (exact 0);
 *   depth_max   the deepest penetration of any contact, box on ground or
 *               box on box, at any step (exact 0);
 *   t_collapse  the first step's time at which a box has moved by half
 *               its edge; NAN (a blank cell) where the stack stood for the
 *               whole run.
 * It knows no solver: the solver is the table's (rigidcontact.h).  An
 * engine's stack (protocol 5) is measured here too, its rows' states given
 * a row at a time to the same measure (vb_stack_world_observe). */
#ifndef VB_STACKRUN_H
#define VB_STACKRUN_H

#include <stddef.h>

#include "rigidcontact.h"
#include "stack.h"

typedef struct vb_stack_spec {
    const vb_stack *stack;
    const vb_body_solver *solver;
    vb_solver_params params;  /* its keys */
    vb_body_step_fn *method;  /* the rotation method's step (rigid_method.h) */
    double dt, t_end;         /* t_end a whole number of steps, to 1e-9 of one */
} vb_stack_spec;

typedef struct vb_stack_result {
    int code;                 /* 0, or the solver's (rigidcontact.h): the run diverged */
    double t_stop;            /* where it stopped: t_end, or the step that failed */
    size_t steps;
    double drift_max, speed_rms, depth_max, t_collapse;
} vb_stack_result;

/* A run a step at a time, for a runner that steps it (runner.c): the
 * world of the stack's boxes, its solver's cache and the measures so far. */
typedef struct vb_stack_world {
    const vb_stack *stack;
    vb_contact_world w;
    vb_contact_cache cache;
    vb_stack_result res;
    double speed2; /* the sum of the boxes' squared speeds over the steps, */
    int speed2_scaled; /* ... in units of 2^1200 once the plain sum would overflow */
} vb_stack_world;

/* 0, or -1 with a message: the solver refuses the world
 * (vb_body_solver_accepts), or out of memory.  The boxes at their start.
 * solver NULL: a world whose states come from elsewhere (an engine's rows,
 * protocol 5), given by vb_stack_world_observe, never stepped. */
int vb_stack_world_init(vb_stack_world *sw, const vb_stack *s, const vb_body_solver *solver,
                        char *err, size_t errlen);
/* the boxes back at their start, the cache and the measures cleared */
void vb_stack_world_start(vb_stack_world *sw);
/* The solver's step by h to t_next, measured: VB_BODY_OK, or the solver's
 * code (the run diverged: the measures are up to the step before). */
int vb_stack_world_step(vb_stack_world *sw, const vb_body_solver *solver,
                        const vb_solver_params *params, vb_body_step_fn *method,
                        double t_next, double h);
/* The boxes' states at t from elsewhere (an engine's row: states[n], w in
 * the body frame) measured as a solver's step's are, with the same
 * measure: VB_BODY_OK, or VB_BODY_DIVERGED for a state that is not finite
 * (the measures are up to the row before). */
int vb_stack_world_observe(vb_stack_world *sw, const vb_rigid_state *states, double t);
/* the boxes' centres x[3 n] and velocities v[3 n] (the model's face) */
void vb_stack_world_centres(const vb_stack_world *sw, double *x, double *v);
/* the measures of the steps made */
void vb_stack_world_finish(vb_stack_world *sw, vb_stack_result *res);
void vb_stack_world_free(vb_stack_world *sw);

/* One run.  0 with *res filled (a solver's code in res->code, the
 * measures up to its step); -1 with a message: the solver refuses the
 * world (vb_body_solver_accepts), t_end is no whole number of steps, or
 * out of memory.  final, when not NULL, takes the n boxes' last states. */
int vb_stack_run(const vb_stack_spec *sp, vb_stack_result *res, vb_rigid_state *final,
                 char *err, size_t errlen);

#endif
