/* plugin.h — integrators and models loaded from a shared object (--plugin path.so).
 * The object exports a vb_plugin table (verletbench.h) under the symbol
 * VB_PLUGIN_SYMBOL; its entries join the integrator and model tables after the
 * built-in ones, for the rest of the process. */
#ifndef VB_PLUGIN_H
#define VB_PLUGIN_H

#include <stddef.h>

#include "verletbench.h"

/* Load one plugin and register its integrators.  0, or -1 with a message
 * naming the file and what is wrong (missing, not a plugin, another ABI
 * version, a malformed entry, a name already taken): the CLI exits 2. */
int vb_plugin_load(const char *path, char *err, size_t errlen);

/* The plugin an integrator or model came from (its type's name, as
 * vb_integrator_type gives it), for what a shard records: the plugin
 * file's name and a hash of its content taken when it was loaded (FNV-1a,
 * 64 bits, over its bytes), so that two builds of a plugin under one name
 * are told apart.  NULL (and *hash untouched) for a built-in. */
const char *vb_plugin_of_integrator(const char *name, unsigned long long *hash);
const char *vb_plugin_of_model(const char *name, unsigned long long *hash);

/* Runs of integrator g on model m call a plugin's code: g or m came from
 * one.  Such runs go to worker processes (isolate.h). */
struct vb_model;
int vb_plugin_code(const vb_integrator *g, const struct vb_model *m);

/* The time limit of one plugin run in a worker, in seconds
 * (--plugin-timeout), VB_PLUGIN_TIMEOUT unless set. */
#define VB_PLUGIN_TIMEOUT 600.0
void vb_plugin_set_timeout(double seconds);
double vb_plugin_timeout(void);

#endif
