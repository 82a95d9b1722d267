/* stability_study.h — a stability study: every integrator at every point of
 * a model parameter (the damped spring's c, the orbit's e), every jitter
 * and every seed, each a search of stability_search.h, run on threads and read
 * back in a fixed order (the same tables for any thread count). */
#ifndef VB_STABILITY_STUDY_H
#define VB_STABILITY_STUDY_H

#include <stddef.h>

#include "stability_search.h"

typedef struct vb_stab_row {
    const vb_integrator *g;
    size_t point, jitter; /* indices into the study's values and jitters */
    unsigned long seed;
    double theory;        /* vb_stab_theory, NAN with jitter or none */
    vb_stab_result r;
    /* a limit of fixed steps above an interval the step matrix calls
     * unstable (vb_stab_gap_below); NANs when there is none */
    vb_stab_gap gap;
} vb_stab_row;

typedef struct vb_stab_study {
    /* given */
    const char *vary;          /* the parameter varied, or NULL */
    size_t n_points;           /* >= 1 */
    const double *values;      /* the vary's values (n_points), or NULL */
    vb_stab_problem *problems; /* one a point, set up */
    const vb_integrator *const *integ;
    size_t n_integ;
    const double *jitters;     /* n_jitters >= 1; 0 is fixed steps */
    size_t n_jitters;
    unsigned seeds;            /* a jittered search is made with seeds seed0 .. */
    unsigned long seed0;
    vb_stab_opts opts;         /* jitter and seed are set a row at a time */
    /* made: integrator-major, then point, jitter, seed */
    vb_stab_row *rows;
    size_t n_rows;
} vb_stab_study;

/* 0, or -1 with the first failure's message (-2 when that failure was a
 * verdict over opts.max_steps: a usage error).  vb_stab_study_free after. */
int vb_stab_study_run(vb_stab_study *s, unsigned threads, char *err, size_t errlen);
void vb_stab_study_free(vb_stab_study *s);

/* A group: the rows of one integrator, point and jitter (its seeds), at
 * rows[first .. first + count).  Their z_lo's median, least and largest,
 * over the seeds that found a limit; found = how many did. */
typedef struct vb_stab_group {
    size_t first, count, found;
    double median, least, largest;
} vb_stab_group;
/* The groups in order; *n of them, an array to free. */
vb_stab_group *vb_stab_groups(const vb_stab_study *s, size_t *n);

#endif
