/* casefile.h — case files (docs/cases.md): what a sweep runs.
 *
 *   [case]         model = orbit, its parameters (e = 0.9), t_end, description
 *   [steps]        dt, halvings, jitter, seeds, trace, tolerance
 *   [integrators]  use = all | a list
 *   [engines]      NAME = COMMAND, NAME.order = P, timeout = SECONDS (optional)
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

typedef struct vb_case {
    char *path;        /* as given */
    char *name;        /* the file name without directory and ".case" */
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
    const vb_integrator **integ; /* built-in and plugin integrators, then engines */
    size_t n_integ;
    struct vb_engine **engines; /* the case's own (its file's, and --engine's) */
    size_t n_engines;
} vb_case;

/* Load and check a case file.  0, or -1 with "FILE:LINE: ..." in err. */
int vb_case_load(const char *path, vb_case *c, char *err, size_t errlen);
void vb_case_free(vb_case *c);

/* Add an external engine (engine.h) after the integrators; the case owns it
 * from then on.  0, or -1 with a message (a name already taken). */
int vb_case_add_engine(vb_case *c, struct vb_engine *e, char *err, size_t errlen);
/* Keep the engines only (`score`: the trajectories, nothing else). */
void vb_case_engines_only(vb_case *c);

/* Parse a case from memory (for the fuzzer and tests); `path` names it in
 * messages and anchors a relative trace path. */
int vb_case_parse(const char *path, const char *text, size_t len, vb_case *c, char *err,
                  size_t errlen);

#endif
