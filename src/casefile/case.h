/* case.h — a case: what a sweep runs (docs/cases.md).  A model with its
 * parameters, an end time, the step sizes (dt, halvings), the random plans
 * (jitter, seeds), a trace, the integrators and engines; for a point of a
 * case file's grid, where it lies in the grid; and what it is, described
 * once (profile: driver/profile.h).  casefile.h reads cases from files. */
#ifndef VB_CASE_H
#define VB_CASE_H

#include <math.h>

#include "precision.h"
#include <stddef.h>

#include "model.h"
#include "plan.h"
#include "profile.h"
#include "verletbench.h"

#define VB_MAX_HALVINGS 24
#define VB_MAX_SEEDS 1000
#define VB_MAX_RATES 8
/* an adaptive integrator's tolerance at level 0 when a case gives none */
#define VB_CASE_TOLERANCE 1e-3

/* Grids: at most this many keys with several values, and points in all. */
#define VB_MAX_GRID_KEYS 4
#define VB_MAX_GRID_POINTS 1000
#define VB_GRID_VALUE_TEXT 32

/* Where a case lies in its file's grid; every point has its own copy. */

/* A case's name is a directory under --out: one safe path component, not
 * too long for the hidden ".NAME.new-XXXXXX" beside it (NAME_MAX 255). */
#define VB_CASE_NAME_MAX 200

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
    double tolerance;  /* adaptive integrators' at level 0 (results.h) */
    char *trace_path;  /* resolved against the case file's directory, or NULL */
    vb_trace trace;
    int trace_borrowed; /* a grid's later points share the first one's steps */
    const vb_integrator **integ; /* built-in and plugin integrators, then engines */
    size_t n_integ;
    struct vb_engine **engines; /* the case's own (its file's, and --engine's) */
    size_t n_engines;
    vb_case_grid *grid; /* a point of a grid, or NULL for a case of one point */
    /* [integrators] precision and offset: the arithmetic of the built-in
     * methods and the shift of the origin (float32.h, docs/float32.md);
     * float64 and 0 unless the case says otherwise */
    vb_precision precision;
    double offset;
    double rates[VB_MAX_RATES]; /* [loop] rates: display rates (Hz) of the frame-rate table */
    int n_rates;
    unsigned long rates_line; /* the case file's line of rates, for messages */
    /* What the case is (profile.h): its state, what each entry steps,
     * what its runs measure.  Made when the case is read and again when
     * its list of entries changes (vb_case_describe); the layers above
     * read it, and never ask an entry or the model which kind it is. */
    vb_profile profile;
} vb_case;

/* (Re)make c->profile from its model and entries: 0, or -1 out of
 * memory. */
int vb_case_describe(vb_case *c);

/* What round-off is measured against in a case's runs of n components:
 * the errors' scale, and the origin's shift, whose ulps the positions are
 * held in (|x + X| <= |x| + |X| sqrt(n)). */
static inline double vb_case_roundoff_scale(const vb_case *c, double scale, size_t n)
{
    return scale + fabs(c->offset) * sqrt((double)n);
}

/* "cases/x.case", or "cases/x.case@e=0.3" for a point of a grid: a case
 * as messages name it. */
const char *vb_case_label(const vb_case *c, char *buf, size_t len);

/* Add an external engine (engine.h) after the integrators; the case owns it
 * from then on.  0, or -1 with a message (a name already taken). */
int vb_case_add_engine(vb_case *c, struct vb_engine *e, char *err, size_t errlen);
/* Keep the engines only (`score`: the trajectories, nothing else): 0, or
 * -1 out of memory. */
int vb_case_engines_only(vb_case *c);
/* Each of the case's methods wrapped n ways (in a loop, inside a contact
 * handler or solver), method by method so a method's rows stand together:
 * make(inner, k, ctx) is inner's k-th wrapper, owned by the case, NULL out
 * of memory.  0, or -1 out of memory (the case's methods as they were). */
int vb_case_wrap_methods(vb_case *c, size_t n,
                         const vb_integrator *(*make)(const vb_integrator *inner, size_t k,
                                                      const void *ctx),
                         const void *ctx);

/* The engines of a command line, added to a case: spec[i] as
 * vb_engine_spec_parse read it, a command (--engine) or a directory
 * (--trajectories: a grid's point reads DIR/POINT/RUN.csv), each with the
 * time limit `timeout`; with timeout_given that limit holds for the
 * case's own [engines] too; with engines_only the case keeps its engines
 * alone (and must have one).  0, or -1 with "CASEFILE: why" in err. */
struct vb_engine_spec;
int vb_case_add_engine_specs(vb_case *c, const struct vb_engine_spec *spec, size_t n,
                             double timeout, int timeout_given, int engines_only, char *err,
                             size_t errlen);

void vb_case_free(vb_case *c);

#endif
