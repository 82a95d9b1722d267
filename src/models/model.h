/* model.h — the problems with exact solutions (docs/method.md §3).
 *
 * One file per model (src/models/NAME.c) defines one const struct vb_model_type;
 * models.c holds the table.  A model instance (struct vb_model) is the type,
 * its parameter values and the constants derived from them; it is read-only
 * once set up, so any number of runs can share it.
 */
#ifndef VB_MODEL_H
#define VB_MODEL_H

#include <stddef.h>
#include "lanes.h"
#include "verletbench.h"

#define VB_MAX_PARAMS 8
#define VB_MODEL_STORAGE 256

/* One parameter: its name, default and the allowed range.  A bound is
 * open when the value itself is not allowed (k > 0), closed otherwise. */
typedef struct vb_param_spec {
    const char *name;
    double def;
    double min, max;
    int min_open, max_open;
    const char *help;
} vb_param_spec;

typedef struct vb_model_type {
    const char *name;
    const char *summary;
    unsigned dim;
    const vb_param_spec *params;
    unsigned n_params;
    int velocity_dependent; /* the force law reads v */
    int periodic;           /* natural_time is a period, so long runs mean something */

    /* Derive constants from parameter values (already range-checked).
     * Returns 0, or -1 with a message in err for a combination that is not
     * allowed (an over-damped spring, say). */
    int (*setup)(void *self, const double *p, char *err, size_t errlen);
    void (*initial)(const void *self, double *x, double *v);
    vb_accel_fn *accel;
    /* The same force law on lanes (lanes.h), or NULL: then lanes call accel
     * one lane at a time. */
    vb_accel_lanes_fn *accel_lanes;
    /* Per-run scratch for exact(), e.g. a root solver and the last solution
     * to warm-start from.  Both NULL when exact() needs none. */
    void *(*work_alloc)(const void *self);
    void (*work_free)(void *work);
    /* The exact solution at t.  Returns 0, or -1 if a solve failed. */
    int (*exact)(const void *self, void *work, double t, double *x, double *v);
    /* Conserved energy, or NULL when the model dissipates it. */
    double (*energy)(const void *self, const double *x, const double *v);
    /* Conserved angular momentum (about the origin, z component) or NULL. */
    double (*angmom)(const void *self, const double *x, const double *v);
    /* A natural length of run: one period, or the time of flight. */
    double (*natural_time)(const void *self);
} vb_model_type;

typedef struct vb_model {
    const vb_model_type *type;
    double p[VB_MAX_PARAMS];
    _Alignas(double) unsigned char self[VB_MODEL_STORAGE];
} vb_model;

extern const vb_model_type *const vb_models[];
extern const size_t vb_n_models;

const vb_model_type *vb_model_find(const char *name);

/* "projectile, spring, ..." */
void vb_model_names_text(char *buf, size_t len);

/* Fill in the defaults. */
void vb_model_defaults(vb_model *m, const vb_model_type *type);

/* Set one parameter from text ("e", "0.9").  Returns 0; -1 for an unknown
 * key, -2 for a value that is not a finite number or is out of range; err
 * then says which and lists what is allowed. */
int vb_model_set(vb_model *m, const char *key, const char *value, char *err, size_t errlen);

/* Derive constants after the parameters are set.  0 or -1 with err. */
int vb_model_setup(vb_model *m, char *err, size_t errlen);

/* "k, m, x0, v0" — the parameter names of a type. */
void vb_model_param_names(const vb_model_type *type, char *buf, size_t len);

/* The force law of an instance, with its counter at zero. */
vb_force vb_model_force(const vb_model *m);

/* The range of a parameter in words: "[0, 1)" or "> 0". */
void vb_param_range_text(const vb_param_spec *ps, char *buf, size_t len);

/* Parse a finite double from the whole of `text`.  0 or -1. */
int vb_parse_double(const char *text, double *out);

#endif
