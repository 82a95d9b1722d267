/* casefile.h — case files (docs/cases.md): what a sweep runs.
 *
 *   [case]         model = orbit, its parameters (e = 0.9), t_end, description
 *   [steps]        dt, halvings, jitter, seeds, trace, tolerance
 *   [integrators]  use = all | a list
 *   [engines]      NAME = COMMAND, NAME.order = P, timeout = SECONDS (optional)
 *
 * A numeric key of [case] or [steps] may hold a grid instead of one value:
 * a list (e = 0.1, 0.5, 0.9) or a range (e = 0.1 .. 0.9 step 0.2, k = 1 ..
 * 1000 times 10).  The file is then expanded to one case per point of the
 * grid (the product of every such key's values), each checked as if the
 * file had given its values, and named NAME@KEY=VALUE[,KEY=VALUE...].
 *
 * Parsed with libinih; every mistake is reported as "FILE:LINE: key: why". */
#ifndef VB_CASEFILE_H
#define VB_CASEFILE_H

#include <stddef.h>

#include "model.h"
#include "plan.h"
#include "verletbench.h"

#define VB_MAX_HALVINGS 24
#define VB_MAX_SEEDS 1000
/* an adaptive integrator's tolerance at level 0 when a case gives none */
#define VB_CASE_TOLERANCE 1e-3

/* Grids: at most this many keys with several values, and points in all. */
#define VB_MAX_GRID_KEYS 4
#define VB_MAX_GRID_POINTS 1000
#define VB_GRID_VALUE_TEXT 32

/* Where a case lies in its file's grid; every point has its own copy. */
typedef struct vb_case_grid {
    char *name;             /* the case file's name: the grid's own directory */
    size_t point, points;   /* this point, 0-based, of how many */
    int n_keys;
    char key[VB_MAX_GRID_KEYS][32];  /* in the order of the file: the first varies slowest */
    char section[VB_MAX_GRID_KEYS][32];
    char spec[VB_MAX_GRID_KEYS][200]; /* the values as written ("0.1 .. 0.9 step 0.2") */
    size_t count[VB_MAX_GRID_KEYS];  /* how many values each key takes */
    double value[VB_MAX_GRID_KEYS];  /* this point's */
    char text[VB_MAX_GRID_KEYS][VB_GRID_VALUE_TEXT]; /* the same, shortest ("0.3") */
    char label[VB_MAX_GRID_KEYS * (32 + VB_GRID_VALUE_TEXT + 2)]; /* "e=0.3,jitter=0.5" */
} vb_case_grid;

typedef struct vb_case {
    char *path;        /* as given */
    char *name;        /* the file name without directory and ".case"; for a point
                        * of a grid, NAME@KEY=VALUE,... */
    char *description; /* or NULL */
    vb_model model;
    double t_end;
    double dt;         /* the coarsest step */
    int halvings;      /* step sizes dt, dt/2, ..., dt/2^(halvings-1) */
    double jitter;     /* random plans when > 0 */
    int seeds;         /* random plans per step size */
    double tolerance;  /* adaptive integrators' at level 0 (sweep.h) */
    char *trace_path;  /* resolved against the case file's directory, or NULL */
    vb_trace trace;
    int trace_borrowed; /* a grid's later points share the first one's steps */
    const vb_integrator **integ; /* built-in and plugin integrators, then engines */
    size_t n_integ;
    struct vb_engine **engines; /* the case's own (its file's, and --engine's) */
    size_t n_engines;
    vb_case_grid *grid; /* a point of a grid, or NULL for a case of one point */
} vb_case;

/* Load and check a case file: every point of it, in order (one for a file
 * without a grid), into a malloc'd array.  0, or -1 with "FILE:LINE: ..."
 * in err.  Free with vb_case_free_points. */
int vb_case_load_points(const char *path, vb_case **cases, size_t *n, char *err, size_t errlen);
void vb_case_free_points(vb_case *cases, size_t n);
/* The same for a file of one point: a grid is refused with a message. */
int vb_case_load(const char *path, vb_case *c, char *err, size_t errlen);
void vb_case_free(vb_case *c);

/* The case files of a command line, each expanded to its points: every
 * point in order in `all` (the cases stay where they were loaded: plans
 * point into them). */
typedef struct vb_case_file {
    vb_case *points; /* vb_case_load_points' array */
    size_t n;
} vb_case_file;

typedef struct vb_case_set {
    vb_case_file *file;
    size_t n_files;
    vb_case **all;
    size_t n;
} vb_case_set;

/* Load one more file (set zeroed first).  0, or -1 with its message. */
int vb_case_set_add(vb_case_set *set, const char *path, char *err, size_t errlen);
/* Load every file.  0, or -1 with the first file's message. */
int vb_case_set_load(vb_case_set *set, char *const *paths, size_t n_paths, char *err,
                     size_t errlen);
/* Each case, grid point and (with grids set) grid writes its own
 * directory under out: 0, or -1 naming two that would write the same one. */
int vb_case_set_distinct(const vb_case_set *set, const char *out, int grids, char *err,
                         size_t errlen);
void vb_case_set_free(vb_case_set *set);

/* "cases/x.case", or "cases/x.case@e=0.3" for a point of a grid: a case
 * as messages name it. */
const char *vb_case_label(const vb_case *c, char *buf, size_t len);

/* Add an external engine (engine.h) after the integrators; the case owns it
 * from then on.  0, or -1 with a message (a name already taken). */
int vb_case_add_engine(vb_case *c, struct vb_engine *e, char *err, size_t errlen);
/* Keep the engines only (`score`: the trajectories, nothing else). */
void vb_case_engines_only(vb_case *c);

/* Parse a case from memory (for the fuzzer and tests); `path` names it in
 * messages and anchors a relative trace path. */
int vb_case_parse(const char *path, const char *text, size_t len, vb_case *c, char *err,
                  size_t errlen);
int vb_case_parse_points(const char *path, const char *text, size_t len, vb_case **cases,
                         size_t *n, char *err, size_t errlen);

#endif
