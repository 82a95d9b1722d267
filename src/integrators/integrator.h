/* integrator.h — the table of integrators: built-in, then any loaded from
 * plugins.  The driver and the CLI look integrators up here and know nothing
 * else about them. */
#ifndef VB_INTEGRATOR_H
#define VB_INTEGRATOR_H

#include <stddef.h>
#include "verletbench.h"

size_t vb_integrator_count(void);
const vb_integrator *vb_integrator_at(size_t i);
const vb_integrator *vb_integrator_find(const char *name);

/* A name as typed: "tcv", or a method with parameters set,
 * "jakobsen:sweeps=10" (NAME:KEY=VALUE[:KEY=VALUE]).  The latter is an
 * instance: a copy of its type named canonically (its keys in the type's
 * order, values in their shortest form), made once and kept until exit,
 * so the same text always gives the same pointer.  NULL with a message
 * (an unknown name, key or value). */
const vb_integrator *vb_integrator_lookup(const char *text, char *err, size_t errlen);
/* The longest name vb_integrator_lookup makes, whole (never cut): a name
 * of at most 40 characters (vb_integrator_validate) and up to
 * VB_MAX_INTEGRATOR_PARAMS ":KEY=VALUE", a key of at most 30 characters
 * and a value at most 24, the shortest text of a double
 * ("-2.2250738585072014e-308"; the words of a word value are shorter).
 * The check reads names back up to this length (check/baseline.c). */
#define VB_METHOD_NAME_MAX (40 + VB_MAX_INTEGRATOR_PARAMS * (1 + 30 + 1 + 24))
/* Whether g may run on model m: a constrained model (rods) takes only the
 * methods that enforce constraints (VB_CONSTRAINED), and an external
 * engine, which keeps its own.  0, or -1 with why. */
struct vb_model;
int vb_integrator_suits(const vb_integrator *g, const struct vb_model *m, char *err,
                        size_t errlen);
/* "jakobsen, tcv-jakobsen, shake, rattle": the names of the built-in and
 * plugin integrators with (or without) VB_CONSTRAINED */
void vb_integrator_names_constrained(char *buf, size_t len, int constrained);

/* The value of g's parameter `name` (an instance's, or its type's
 * default), or NAN when it has none of that name. */
double vb_integrator_param(const vb_integrator *g, const char *name);

/* Parameter k of g at value, as it is typed: a word for a parameter whose
 * values are words (shake:solver=sweeps), or the number's shortest form. */
void vb_integrator_param_text(const vb_integrator *g, unsigned k, double value, char *buf,
                              size_t len);

/* The type an instance was made from, or g itself. */
const vb_integrator *vb_integrator_type(const vb_integrator *g);
/* 1 for a built-in method (with parameters set or not), 0 for a plugin's
 * or an engine's: run --strict=mine judges only those. */
int vb_integrator_builtin(const vb_integrator *g);
/* The rotation method (rigid_method.h) g, or the entry it is an instance
 * of, steps a rigid body with; NULL for a method of particles. */
struct vb_rigid_method;
const struct vb_rigid_method *vb_integrator_rigid_method(const vb_integrator *g);
/* Before start: give a method its parameters (an instance's values, the
 * defaults for its type).  Nothing for a method without any. */
void vb_integrator_set_params(const vb_integrator *g, void *state);

/* "euler, euler-semi, ..." */
void vb_integrator_names(char *buf, size_t len);

/* Add integrators after the built-in ones (from a plugin).  Returns 0, or -1
 * with a message if a name is already taken or the entry is malformed. */
int vb_integrator_register(const vb_integrator *integ, char *err, size_t errlen);

/* Check that an entry is complete and sane (used for plugins). 0 or -1. */
int vb_integrator_validate(const vb_integrator *integ, char *err, size_t errlen);

/* The same for an entry of a plugin built for ABI version abi (2 or 3): a
 * version-2 entry is read only as far as it goes, and registered as a copy
 * with the later members NULL. */
int vb_integrator_validate_abi(const vb_integrator *integ, unsigned abi, char *err,
                               size_t errlen);
int vb_integrator_register_abi(const vb_integrator *integ, unsigned abi, char *err,
                               size_t errlen);

/* An entry that wraps inner (a frame loop, a method inside a contact
 * handler): inner's description (order, flags, parameters) under another
 * name and flags, with none of its callbacks and no state of its own, for
 * the wrapper's own runner steps it through inner. */
vb_integrator vb_integrator_wrapper(const vb_integrator *inner, const char *name,
                                   unsigned flags);

#endif
