/* engine.h — external engines (docs/engines.md): a program in any language
 * that integrates a run verletbench describes and writes back its
 * trajectory, measured as the built-in integrators are.
 *
 * A run is handed to the engine as one line of JSON on its standard input
 * (the model with its parameters, the initial state and every step h_n);
 * the engine writes the trajectory on its standard output as CSV, a row a
 * step from t_0, and exits 0.  Or the trajectories were written beforehand,
 * one file a run, into a directory (`verletbench problem`, then `score`).
 * Either way the rows are read one step at a time, beside the built-in
 * runs of the same plan, and checked as they come: the columns, the time of
 * every row against the step sequence, the end of the output, the exit
 * status, and a time limit per run.  An engine that fails fails its run
 * alone (status engine-failed, with what went wrong); a NaN it reports is
 * a run that diverged, as for a built-in. */
#ifndef VB_ENGINE_H
#define VB_ENGINE_H

#include <stddef.h>

#include "model.h"
#include "plan.h"
#include "precision.h"
#include "verletbench.h"

/* The protocol this verletbench speaks (docs/real-engines.md §1): version 2
 * adds a capability line, persistent workers, float32 and velocity
 * declarations; a version-1 engine (no capability line) works as before.
 * A request of particles says version 2; a rigid body's (§4) says 3, and
 * goes only to an engine whose capability line says protocol=3 or more; a
 * body at a contact (a model with a wall: §6) says 4, and goes only to an
 * engine that says protocol=4; a stack of bodies on the ground (model
 * `stack`, §7) says 5, and goes only to an engine that says protocol=5. */
#define VB_ENGINE_PROTOCOL 2
#define VB_ENGINE_PROTOCOL_BODY 3
#define VB_ENGINE_PROTOCOL_CONTACT 4
#define VB_ENGINE_PROTOCOL_STACK 5

/* The frame of a rigid body's wx, wy, wz columns (its capability line's
 * angvel, docs/real-engines.md §4.1). */
typedef enum {
    VB_ANGVEL_WORLD = 0, /* the world's axes (most engines) */
    VB_ANGVEL_BODY       /* the body's own axes (MuJoCo's free joint) */
} vb_angvel_frame;

/* Where an engine's velocity columns come from (its capability line). */
typedef enum {
    VB_VELOCITY_STATE = 0, /* the engine's own velocity */
    VB_VELOCITY_DERIVED,   /* a difference of positions (matter-js) */
    VB_VELOCITY_NONE       /* no velocity columns at all */
} vb_velocity_kind;

/* What an engine declares in the first line of its output:
 * "# verletbench-engine protocol=2 persistent=1 precision=float32 ..." */
typedef struct vb_engine_caps {
    int protocol; /* 0: no capability line (version 1) */
    int persistent;
    vb_precision precision;
    vb_velocity_kind velocity;
    int substeps;     /* 0: not said */
    vb_angvel_frame angvel; /* protocol 3: the frame of a body's angular velocity */
    int angvel_said;        /* the line had angvel= (a body's engine, protocol 3 or 4) */
    char engine[128]; /* NAME@VERSION, or "" */
} vb_engine_caps;

/* "state", "derived", "none" */
const char *vb_velocity_kind_name(vb_velocity_kind v);
/* "world", "body" */
const char *vb_angvel_frame_name(vb_angvel_frame f);

/* In an engine's vb_integrator.flags: not a C integrator, never stepped.
 * Plugins cannot set it (vb_integrator_validate refuses unknown flags). */
#define VB_ENGINE_FLAG (1u << 30)

/* The most engines a case may have (its [engines] and the command line's
 * together): each may run on every thread at once, and an interrupt must
 * be able to stop them all. */
#define VB_MAX_ENGINES 32

/* How long a failed run's message may be (what went wrong, and the end of
 * what the engine said on its standard error). */
#define VB_ENGINE_FAILURE_MAX 512

/* The time limit of one run, when none is given (seconds). */
#define VB_ENGINE_TIMEOUT 600.0

typedef struct vb_engine {
    vb_integrator integ; /* first: what the sweep and the tables see */
    char name[64];
    char summary[160];
    char *command; /* run by /bin/sh -c in cwd; NULL for a directory */
    char *cwd;     /* where the command runs; NULL: here */
    char *dir;     /* trajectories read from dir/RUN.csv; NULL for a command */
    char *file;    /* or every run's from this one file (`score FILE`) */
    double timeout;
    /* what the engine declared, learnt from its first run that wrote a
     * capability line, and its persistent workers: shared by the threads
     * that run it (the engine itself is const to them) */
    struct vb_engine_shared *shared;
} vb_engine;

static inline const vb_engine *vb_engine_of(const vb_integrator *g)
{
    return g && (g->flags & VB_ENGINE_FLAG) ? (const vb_engine *)(const void *)g : NULL;
}

/* ---- the engine itself (engine.c) ---- */

/* An engine as the command line spells it (--engine, --trajectories),
 * parsed once: the spelling checked whole when it is read, and every case
 * then made its own engine from the parts, never parsing it again. */
typedef struct vb_engine_spec {
    char name[64];
    int order;           /* 0: measured without a label */
    const char *command; /* inside the spelling; NULL for a directory */
    const char *dir;     /* inside the spelling; NULL for a command */
} vb_engine_spec;
/* "NAME:ORDER=COMMAND" or, with is_dir, "NAME:ORDER=DIR"; or without
 * ":ORDER", an engine measured without a label (order 0: its verdict is
 * "measured").  0 and *s (pointing into spelling), or -1 with a message
 * naming what is wrong: the one parser of an engine's spelling. */
int vb_engine_spec_parse(const char *spelling, int is_dir, vb_engine_spec *s, char *err,
                         size_t errlen);
/* The engine of a parsed spelling, run in cwd (NULL: here).  NULL with a
 * message (out of memory). */
vb_engine *vb_engine_from_spec(const vb_engine_spec *s, double timeout, const char *cwd,
                               char *err, size_t errlen);
/* vb_engine_spec_parse, then vb_engine_from_spec (sim's one engine). */
vb_engine *vb_engine_parse(const char *spelling, int is_dir, char *err, size_t errlen);
/* A command (or directory) engine from its parts; cwd may be NULL; order
 * 0 for none. */
vb_engine *vb_engine_new(const char *name, int order, const char *command, const char *dir,
                         const char *cwd, double timeout, char *err, size_t errlen);
void vb_engine_free(vb_engine *e);
/* What the threads running an engine share (process.c): its declarations
 * and its idle workers.  NULL when out of memory. */
struct vb_engine_shared *vb_engine_shared_new(void);
void vb_engine_shared_free(struct vb_engine_shared *sh);
/* What the engine declared: 1 and *caps, or 0 while no run has written a
 * capability line (then *caps is version 1's: float64, velocity state). */
int vb_engine_caps_of(const vb_engine *e, vb_engine_caps *caps);
/* Where g's velocity comes from: what its engine declared, state for a
 * built-in or an engine without a capability line (§1.7). */
vb_velocity_kind vb_engine_velocity_of(const vb_integrator *g);
/* g is an engine that declared velocity=none (docs/real-engines.md §1.7):
 * its velocity errors, energy and momenta are left out of its tables. */
int vb_engine_without_velocity(const vb_integrator *g);
/* The engine's provenance line (docs/real-engines.md §1.10), without "# "
 * or a line end: "engine NAME: COMMAND; NAME@VERSION; protocol 2,
 * persistent, float64, velocity state". */
void vb_engine_provenance(const vb_engine *e, char *buf, size_t len);
/* End the engine's persistent workers: their stdin closed, each given the
 * time limit of a run to exit, then killed.  Their exit status fails
 * nothing (every run was judged by its answer).  Also by vb_engine_free. */
void vb_engine_close_workers(const vb_engine *e);
/* A name an engine may have: a-z 0-9 - _, at most 63, not an integrator's
 * and not "exact".  0, or -1 with a message. */
int vb_engine_check_name(const char *name, char *err, size_t errlen);

/* ---- the request (request.c) and a trajectory's header (header.c) ---- */

/* The name of a run in requests and file names: "fixed-L0", "random-L2-S5",
 * "trace-L1", "long-fixed", "sim", ... (plan.h: vb_plan_spec.id). */

/* One line of JSON (no newline) that describes the run: what an engine gets
 * on its standard input and what `verletbench problem` writes. */
int vb_engine_write_request(FILE *f, const vb_model *m, const vb_plan_spec *plan);

/* Rebuild a run from a trajectory's "# verletbench run=..." header line:
 * the model (type, parameters; set up) and the plan (its trace loaded into
 * *trace).  0, or -1 with a message naming the key that is wrong. */
int vb_engine_parse_header(const char *line, vb_model *m, vb_plan_spec *plan, vb_trace *trace,
                           char *err, size_t errlen);

/* The comment line a trajectory starts with: the run, the model and its
 * parameters, the plan; enough for `score FILE` to rebuild the run. */
void vb_engine_header(char *buf, size_t len, const vb_model *m, const vb_plan_spec *plan);

/* ---- a run (trajectory.c; its process: process.c) ---- */

/* A run of an engine, its rows read as the steps go. */
typedef struct vb_engine_run vb_engine_run;

/* Start the engine on the run (or open its file) and read up to row 0,
 * which must be the initial state.  NULL with *why set (out of memory, or
 * the engine could not be started: then why says so, and the returned run
 * is still NULL). */
vb_engine_run *vb_engine_start(const vb_engine *e, const vb_model *m, const vb_plan_spec *plan,
                               char *why, size_t whylen);
/* 0 when the run's rows carry no velocity (its capability line declared
 * velocity=none, docs/real-engines.md §1.7): vb_engine_next then leaves v
 * as it was, and the run is measured by its positions alone. */
int vb_engine_run_has_velocity(const vb_engine_run *r);
/* The row of the step that ends at t (the plan's t_{n+1}, after a step h):
 * 0, or -1 with vb_engine_why() set.  evals is the engine's count of force
 * evaluations so far, or the number of rows when it gives none. */
int vb_engine_next(vb_engine_run *r, double t, double h, double *x, double *v,
                   unsigned long long *evals);
/* A stack's run (model `stack`, protocol 5: docs/real-engines.md §7): the
 * n bodies' states of the row vb_engine_next read last (row 0 before it),
 * body 1 (the bottom) first, each as the rigid models keep it (w in the
 * body frame, q's sign continued from its previous row's); NULL for a run
 * of another model.  vb_engine_next gives the model's face besides (the
 * boxes' centres and their velocities); a row with a number that is not
 * finite is a run that diverged: the face's x of that body is NaN there. */
const struct vb_rigid_state *vb_engine_stack_states(const vb_engine_run *r);
/* After the last row: no more rows, and exit status 0.  0 or -1. */
int vb_engine_finish(vb_engine_run *r);
const char *vb_engine_why(const vb_engine_run *r);
/* Stop it (killed if still running) and free. */
void vb_engine_stop(vb_engine_run *r);

#endif
