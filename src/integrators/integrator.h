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

#endif
