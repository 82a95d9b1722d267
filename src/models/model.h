/* model.h — the table of models, and a model instance: a type (verletbench.h)
 * with its parameter values and what it derived from them (docs/method.md
 * §3).
 *
 * One file per model (src/models/NAME.c) defines one const vb_model_type;
 * models.c holds the table, built-in ones first, then any a plugin adds.  An
 * instance is read-only once set up, so any number of runs can share it. */
#ifndef VB_MODEL_H
#define VB_MODEL_H

#include <stddef.h>

#include "numbers.h" /* vb_parse_double, vb_format_shortest: parameters as text */
#include "verletbench.h"

typedef struct vb_model {
    const vb_model_type *type;
    double p[VB_MAX_MODEL_PARAMS];
    void *self;       /* type->create's instance; NULL until vb_model_setup */
    size_t particles; /* n */
    size_t n;         /* N = n d: the components of the state */
    double *mass;     /* the particles' masses (all 1 when the type gives none) */
    /* the rods (cons.n = 0: none), as integrators see them through
     * vb_force.constraints: the list and the inverse masses live here */
    vb_constraints cons;
    vb_constraint *rods;
    double *inv_mass;
} vb_model;

/* The table: every model, built-in then plugin. */
size_t vb_model_count(void);
const vb_model_type *vb_model_at(size_t i);
const vb_model_type *vb_model_find(const char *name);

/* Add a plugin's model after the others.  0, or -1 with a message (a name
 * taken, a malformed entry). */
int vb_model_register(const vb_model_type *type, char *err, size_t errlen);
/* Check that an entry is complete and sane (for plugins).  0 or -1. */
int vb_model_validate(const vb_model_type *type, char *err, size_t errlen);
/* The same for an entry of a plugin built for ABI version abi (2, 3 or 4):
 * an older entry is read only as far as its struct went, and registered as
 * a copy with the later members NULL. */
int vb_model_validate_abi(const vb_model_type *type, unsigned abi, char *err, size_t errlen);
int vb_model_register_abi(const vb_model_type *type, unsigned abi, char *err, size_t errlen);

/* The model has rods (vb_constraint) */
static inline int vb_model_constrained(const vb_model *m) { return m->cons.n > 0; }

/* "projectile, spring, ..." */
void vb_model_names_text(char *buf, size_t len);

/* Fill in the defaults; no instance yet. */
void vb_model_defaults(vb_model *m, const vb_model_type *type);

/* Set one parameter from text ("e", "0.9").  Returns 0; -1 for an unknown
 * key, -2 for a value that is not a finite number, not a whole number
 * where one is asked for, or out of range; err then says which and lists
 * what is allowed. */
int vb_model_set(vb_model *m, const char *key, const char *value, char *err, size_t errlen);

/* Make the instance once the parameters are set.  0 or -1 with err. */
int vb_model_setup(vb_model *m, char *err, size_t errlen);
/* Free the instance (vb_model_setup's); the parameters stay. */
void vb_model_free(vb_model *m);

/* "k, m, x0, v0" — the parameter names of a type. */
void vb_model_param_names(const vb_model_type *type, char *buf, size_t len);

/* The force law of an instance, with its counter at zero. */
vb_force vb_model_force(const vb_model *m);

/* x within the parameter's range (and whole where it must be) */
int vb_param_in_range(const vb_param_spec *ps, double x);
/* The range of a parameter in words: "[0, 1)" or "> 0", and "whole". */
void vb_param_range_text(const vb_param_spec *ps, char *buf, size_t len);
/* Whether a parameter's value is written where a run says what it was
 * made from (provenance, summary, a trajectory's header): always, but for
 * a VB_PARAM_QUIET_DEFAULT one at its default. */
int vb_param_said(const vb_param_spec *ps, double x);

/* For the built-in models' create, destroy and particles: a zeroed block
 * of `size` bytes (NULL and "out of memory" in err), free, and one particle. */
void *vb_model_self_alloc(size_t size, char *err, size_t errlen);
void vb_model_self_free(void *self);
size_t vb_model_one_particle(const void *self);

#endif
