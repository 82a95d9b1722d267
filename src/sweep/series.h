/* series.h — what the charts draw along a run, recorded alongside a sweep,
 * at the resolution of the charts' pixels:
 *  - a long run (VB_LONG_PERIODS periods for a periodic model, else one
 *    t_end) of every integrator at the coarsest dt, fixed and random steps,
 *    kept as the maximum position and energy errors (and, for a model with
 *    rods, the drift off them) in each of VB_SERIES_WINDOWS equal windows
 *    of time (a maximum, so no spike is lost between samples: the charts
 *    draw these errors' upper envelope on a log axis);
 *  - the path over one t_end of the bodies a chart shows (every one of up
 *    to VB_PATH_SHOWN_MAX, else VB_PATH_SHOWN_MANY spread along them: a
 *    chart of 64 bodies shows no more): every step while there are at most
 *    VB_PATH_POINTS; past that the "M4" reduction of each of
 *    VB_PATH_COLUMNS equal windows of time (more than any chart has pixel
 *    columns), its first and last step and the steps where a coordinate is
 *    lowest and highest, so every extreme stays visible; plus the exact
 *    path at VB_PATH_POINTS + 1 evenly spaced times (fewer past
 *    VB_PATH_VALUES points times the bodies kept).
 * What a path holds and the errors a state has of its own are the case's
 * description's (driver/profile.h): a rigid body's case (docs/rigid.md §7)
 * records besides, in the same windows, the largest attitude error and
 * drift of the world angular momentum (the functions its runs' maxima are
 * of), and its paths are of the body-frame angular velocity w (the
 * polhode, and w against time), its three components tracked, at every
 * fixed step of the sweep of at most VB_PATH_LEVEL_STEPS steps (draw --dt
 * chooses one; the coarsest always) besides the random plan's coarsest;
 * its exact path spans one period of w(t) where that is shorter than
 * t_end (the polhode is closed; w(t) repeats with that period).
 * With full set (run --full-chart-data) every step of every body instead.
 * Memory is bounded by these constants, not by the number of steps,
 * unless full is asked. */
#ifndef VB_SERIES_H
#define VB_SERIES_H

#include <stddef.h>

#include "casefile.h"
#include "simulate.h"

#define VB_LONG_PERIODS 50
#define VB_SERIES_WINDOWS 1000
#define VB_PATH_POINTS 2000
#define VB_PATH_VALUES 8000
#define VB_PATH_COLUMNS 1000
/* a rigid body's w is recorded at a finer fixed step than the coarsest
 * when its run takes at most this many steps: each finer step is the
 * sweep's run of that step again for the charts; spin-major-1's 3600 s at
 * 1/60 s (216 000 steps, nine methods) would add 5 s of processor time to
 * make for a chart of 570 periods that no pixel resolves */
#define VB_PATH_LEVEL_STEPS 131072
/* the most numbers a path read from the state holds a point (profile.h's
 * path_read: a body at a contact's VB_BODY_PATH_WIDTH) */
#define VB_PATH_READ_MAX 4
/* a chart of a chain shows every body of up to 8, else 6 spread along it
 * (draw/pathchart.c) */
#define VB_PATH_SHOWN_MAX 8
#define VB_PATH_SHOWN_MANY 6

typedef struct vb_series_row {
    size_t integ;
    vb_plan_kind kind;
    double dt, t_end;
    unsigned long long steps;
    vb_status status;
    char id[40];                           /* the run's name, for an engine */
    char failure[512];                     /* an engine's: what went wrong */
    size_t n;                              /* windows that saw a step */
    size_t cap;                            /* windows: VB_SERIES_WINDOWS, or a step each */
    double *t, *err_pos, *err_energy;      /* window end, maxima in it */
    double *err_constraint;                /* the largest drift off the rods in it */
    double *err_att, *err_angmom;          /* a rigid body's: attitude (rad), |L - L0| / |L0| */
    double pos_scale;                      /* largest |x| of the exact solution */
    double pos_signed, pos_rms;            /* the run's signed witness and RMS error */
    /* the first integrator (an index) whose row of the same plan has the
     * same position, or energy, errors in every window to round-off, or
     * (size_t)-1: the charts say "= NAME" instead of hiding one under it */
    size_t same_pos_as, same_energy_as;
} vb_series_row;

#define VB_PATH_EXACT ((size_t)-1)

typedef struct vb_path_row {
    size_t integ; /* VB_PATH_EXACT for the exact solution */
    vb_plan_kind kind;
    int level;    /* the sweep's level of a fixed plan's step, dt / 2^level */
    double dt; /* the step: a fixed plan's own, t_end / N; a random plan's mean */
    size_t n, cap;
    double *t, *x; /* x: n rows of the set's path_width (separate blocks) */
    char failure[256]; /* a plugin's worker that failed (isolate.h): why; n is 0 */
} vb_path_row;

typedef struct vb_series_set {
    vb_series_row *series;
    size_t n_series;
    /* each integrator's paths, path_slots of them in this order: the
     * fixed plan at levels 0 .. path_levels - 1, then the random plan's
     * coarsest (with jitter); the exact one last.  path_levels is the
     * case's halvings for a rigid body, else 1.  A path an integrator does
     * not have (a level of a method whose sweep refines a tolerance or a
     * physics step, not dt) has no points. */
    vb_path_row *paths;
    size_t n_paths;
    size_t path_slots;
    int path_levels;
    int has_energy;
    int has_constraint; /* the model has rods: err_constraint is recorded */
    double periods; /* the long run is periods * t_end */
    int full;       /* every step kept (run --full-chart-data) */
    /* numbers a point of a path holds (the case's description,
     * driver/profile.h): the model's n, or a rigid body's w, 3 */
    size_t path_width;
    /* the exact path's period (a rigid body's w(t); inf: none), its span
     * when shorter than t_end */
    double w_period;
} vb_series_set;

/* The bodies whose paths are kept (0-based, in order, into out: room for
 * VB_PATH_SHOWN_MAX): every one of up to VB_PATH_SHOWN_MAX, else
 * VB_PATH_SHOWN_MANY spread along them, the first and the last among them;
 * with full, every one (out NULL: only their number).  Their number. */
size_t vb_path_bodies(size_t particles, int full, size_t *out);

/* Record the long runs and paths of a case (full: every step of them, no
 * reduction).  max_steps bounds a long run: it is shortened, never
 * refused.  0, or -1 with a message. */
int vb_series_run(const vb_case *c, double max_steps, unsigned threads, int full,
                  vb_series_set *set, char *err, size_t errlen);
void vb_series_free(vb_series_set *set);

/* The long runs of the charts that are not runs of the sweep (none for a
 * model that is not periodic): what `verletbench problem` asks an engine
 * for besides the sweep, "long-fixed" and "long-random-S1".  Their number. */
size_t vb_series_plans(const struct vb_case *c, double max_steps, vb_plan_spec out[2]);

#endif
