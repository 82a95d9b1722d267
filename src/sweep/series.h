/* series.h — what the charts draw along a run, recorded alongside a sweep:
 *  - a long run (VB_LONG_PERIODS periods for a periodic model, else one
 *    t_end) of every integrator at the coarsest dt, fixed and random steps,
 *    kept as the maximum position and energy errors (and, for a model with
 *    rods, the drift off them) in each of
 *    VB_SERIES_WINDOWS equal windows of time (a maximum, so no spike is
 *    lost between samples);
 *  - the path over one t_end, every k-th step so at most VB_PATH_POINTS
 *    points, and at most VB_PATH_VALUES points times bodies (a chart of 64
 *    bodies cannot show 2000 points of each, and gnuplot would read 22 MB
 *    to draw it), plus the exact path sampled as finely.
 * Memory is bounded by these constants, not by the number of steps. */
#ifndef VB_SERIES_H
#define VB_SERIES_H

#include <stddef.h>

#include "casefile.h"
#include "simulate.h"

#define VB_LONG_PERIODS 50
#define VB_SERIES_WINDOWS 1000
#define VB_PATH_POINTS 2000
#define VB_PATH_VALUES 8000
#define VB_PATH_MIN_POINTS 100

typedef struct vb_series_row {
    size_t integ;
    vb_plan_kind kind;
    double dt, t_end;
    unsigned long long steps;
    vb_status status;
    char id[40];                           /* the run's name, for an engine */
    char failure[512];                     /* an engine's: what went wrong */
    size_t n;                              /* windows that saw a step */
    double *t, *err_pos, *err_energy;      /* window end, maxima in it */
    double *err_constraint;                /* the largest drift off the rods in it */
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
    double dt;
    size_t n;
    double *t, *x; /* x: n rows of dim */
    char failure[256]; /* a plugin's worker that failed (isolate.h): why; n is 0 */
} vb_path_row;

typedef struct vb_series_set {
    vb_series_row *series;
    size_t n_series;
    vb_path_row *paths;
    size_t n_paths;
    int has_energy;
    int has_constraint; /* the model has rods: err_constraint is recorded */
    double periods; /* the long run is periods * t_end */
} vb_series_set;

/* Record the long runs and paths of a case.  max_steps bounds a long run:
 * it is shortened, never refused.  0, or -1 with a message. */
int vb_series_run(const vb_case *c, double max_steps, unsigned threads, vb_series_set *set,
                  char *err, size_t errlen);
void vb_series_free(vb_series_set *set);

/* The long runs of the charts that are not runs of the sweep (none for a
 * model that is not periodic): what `verletbench problem` asks an engine
 * for besides the sweep, "long-fixed" and "long-random-S1".  Their number. */
size_t vb_series_plans(const struct vb_case *c, double max_steps, vb_plan_spec out[2]);

#endif
