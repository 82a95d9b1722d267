/* loop.h — frame loops as games run them (docs/method.md §9): how many
 * physics steps a frame takes, and what state the frame draws.
 *
 *   variable     one step of the frame's own dt (what a run does without
 *                a [loop]: today's behaviour)
 *   accumulator  fixed steps of physics_dt while the accumulated frame time
 *                covers one ("Fix Your Timestep"); draw = last (the newest
 *                physics state), interpolate (between the last two, by the
 *                time left over), extrapolate (on from the last two); at
 *                most max_substeps a frame, the time beyond dropped
 *   semi-fixed   the frame split into the fewest equal steps no larger than
 *                physics_dt
 *   substeps     the frame split into `substeps` equal steps
 *
 * A loop wraps an integrator into an entry of the case's integrator list
 * (vb_loop.integ, named "velocity-verlet@accumulator(1/120;interpolate)"),
 * so that every table has a row for each loop x integrator.  The entry is
 * never stepped as an integrator: the driver runs it a frame at a time
 * (frameloop.h), and this layer knows no truth and no metrics. */
#ifndef VB_LOOP_H
#define VB_LOOP_H

#include <stddef.h>

#include "integrator.h"
#include "verletbench.h"

/* In a loop's vb_integrator.flags (plugins cannot set it:
 * vb_integrator_validate refuses unknown flags). */
#define VB_LOOP_FLAG (1u << 29)

typedef enum {
    VB_LOOP_VARIABLE,
    VB_LOOP_ACCUMULATOR,
    VB_LOOP_SEMI_FIXED,
    VB_LOOP_SUBSTEPS,
    VB_N_LOOP_KINDS
} vb_loop_kind;

typedef enum { VB_DRAW_LAST, VB_DRAW_INTERPOLATE, VB_DRAW_EXTRAPOLATE, VB_N_DRAWS } vb_draw;

/* The most loops a [loop] kind list may hold, and the largest `substeps`
 * and `max_substeps` a case may give (a semi-fixed loop is not held to it:
 * it takes the ceil(h/physics_dt) steps a frame needs, counted by the step
 * limit, docs/method.md §9). */
#define VB_MAX_LOOPS 4
#define VB_MAX_SUBSTEPS 1000

/* The longest part after the '@' of a row's name that the check reads
 * back ("accumulator(" 12, physics_dt as written 23, ";extrapolate" 12,
 * ";max=1000)" 10: 57 at most), and so the longest row name: a method's
 * (integrator.h) and that. */
#define VB_LOOP_PART_MAX 80
#define VB_LOOP_NAME_MAX (VB_METHOD_NAME_MAX + 1 + VB_LOOP_PART_MAX)

typedef struct vb_loop_spec {
    vb_loop_kind kind;
    double physics_dt;  /* accumulator: the step; semi-fixed: the largest */
    char dt_text[24];   /* physics_dt as written ("1/120"), for the name */
    unsigned long dt_line; /* the case file's line of physics_dt, for messages */
    vb_draw draw;       /* accumulator */
    int max_substeps;   /* accumulator: the clamp, 0 for none */
    int substeps;       /* substeps */
} vb_loop_spec;

typedef struct vb_loop {
    vb_integrator integ; /* first: what the sweep and the tables see */
    const vb_integrator *inner;
    vb_loop_spec spec;
    char *name; /* METHOD@LOOP, the inner name whole: never cut (vb_loop_free frees it) */
} vb_loop;

static inline const vb_loop *vb_loop_of(const vb_integrator *g)
{
    return g && (g->flags & VB_LOOP_FLAG) ? (const vb_loop *)(const void *)g : NULL;
}

/* An integrator as such: a loop's own, else g. */
static inline const vb_integrator *vb_loop_inner(const vb_integrator *g)
{
    const vb_loop *l = vb_loop_of(g);
    return l ? l->inner : g;
}

const char *vb_loop_kind_name(vb_loop_kind k);
const char *vb_draw_name(vb_draw d);
/* by name: 0, or -1 */
int vb_loop_kind_find(const char *s, vb_loop_kind *k);
int vb_draw_find(const char *s, vb_draw *d);

/* A time as a finite number or a fraction "A/B" of two ("1/120"): 0, or -1. */
int vb_loop_parse_time(const char *text, double *out);

/* inner in the loop spec; NULL out of memory.  vb_loop_free frees it. */
vb_loop *vb_loop_new(const vb_integrator *inner, const vb_loop_spec *spec);
void vb_loop_free(vb_loop *l);

/* The step the loop refines: an accumulator (and a semi-fixed loop) at a
 * sweep's level k steps at physics_dt / 2^k. */
double vb_loop_physics_dt(const vb_loop_spec *s, int level);

/* The most physics steps loop l takes over at most n frames that end at
 * t_end, at a sweep's level: for the step limit (a substeps loop of 1000
 * takes 1000 times its frames).  h_equal: the frames' one size when they
 * are all equal (a fixed plan), for an exact count; 0 when they vary. */
double vb_loop_max_steps(const vb_loop_spec *s, double n, double h_equal, double t_end,
                         int level);

/* An accumulator keeps the frames of level 0 at every level and refines
 * physics_dt alone (docs/method.md §9). */
int vb_loop_holds_frames(const vb_integrator *g);

/* ---- a loop running: frames in, physics steps out ---- */

typedef struct vb_loop_run {
    const vb_loop *loop;
    const vb_integrator *g; /* the inner integrator */
    void *state;            /* its state */
    size_t n;
    double *prev, *cur;     /* the last two physics states, x then v (2n each) */
    double dt;              /* the physics step (accumulator, semi-fixed) at this level */
    double t_phys;          /* the physics time reached */
    unsigned long long n_phys; /* accumulator: fixed steps taken; t_phys = n_phys dt */
    double max_steps;       /* accumulator: the clamp at this level, max_substeps 2^level
                               (0: none): the same time a frame, M physics_dt, at
                               every level, so a sweep compares one scenario */
    double lag;             /* the time the clamp dropped so far */
    double alpha;           /* accumulator: the leftover time / dt at this frame */
} vb_loop_run;

/* Ready to run loop l at a sweep level: memory for the inner state.  0, or
 * -1 out of memory.  vb_loop_run_free frees it (and calls finish). */
int vb_loop_run_init(vb_loop_run *r, const vb_loop *l, size_t n, int level);
void vb_loop_run_free(vb_loop_run *r, int started);

/* Start at t = 0 from (x0, v0); h is the first frame's dt. */
void vb_loop_run_start(vb_loop_run *r, vb_force *f, const double *x0, const double *v0, double h);

/* The physics steps of the frame that ends at t_frame (its dt h), one at a
 * time: call until it returns 0.  Each call takes one step and puts the
 * physics time reached in *t_phys; (x, v) of the new state are r->cur. */
typedef struct vb_loop_frame {
    double t_frame, h;
    /* steps still to take in this frame: 64 bits, as a run's step count is
     * (a frame of 1 s at physics_dt = 1e-10 owes 10^10; the step limit,
     * at most 2^50, bounds it) */
    unsigned long long left;
    double sub; /* their size (semi-fixed, substeps, variable) */
} vb_loop_frame;
void vb_loop_frame_begin(vb_loop_run *r, vb_loop_frame *fr, double t_frame, double h);
int vb_loop_frame_step(vb_loop_run *r, vb_loop_frame *fr, vb_force *f, double *t_phys);
/* The state the frame draws, into x and v (n each). */
void vb_loop_draw(const vb_loop_run *r, double *x, double *v);

#endif
