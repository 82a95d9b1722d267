/* isolate.h — plugin code run in worker processes (docs/method.md §8), so
 * that a plugin that exits, crashes, aborts or hangs fails the work that
 * called it, with the reason, and the rest of the sweep goes on, as an
 * external engine that fails does.
 *
 * The work is cut into units (the runs of a plan, a plugin integrator's
 * one-step rows, ...).  A worker is a fork of this process: it sees
 * everything as it was, and gives back nothing but its units' results,
 * each sent as soon as it has it.  A worker serves one thread at a time
 * and stays for that thread's next units (a fork is ~0.5 ms; a plan's runs
 * often less).  When a worker does not finish, the units it did not send
 * that call a plugin's code (foreign) each get a worker of their own, so
 * only the units whose own code fails are lost, and the others are handed
 * back to be done here: the results of everything else are what they
 * would have been.  Workers run in process groups of their own
 * (children.h), killed at their time limit and on an interrupt. */
#ifndef VB_ISOLATE_H
#define VB_ISOLATE_H

#include <stddef.h>

/* What a failed unit says: how its worker ended. */
#define VB_ISOLATE_WHY 256

typedef struct vb_isolate_out vb_isolate_out;

/* In the worker: unit's result, its bytes.  0, or -1 (the parent is gone). */
int vb_isolate_put(vb_isolate_out *out, size_t unit, const void *bytes, size_t len);

/* The work of some units, in a worker: each one's result through
 * vb_isolate_put.  0, or -1 with a message for a failure of the machine
 * (memory), which fails the whole call, not the units. */
typedef int vb_units_fn(void *ctx, const size_t *units, size_t n, vb_isolate_out *out,
                        char *err, size_t errlen);
/* In this process, once for every unit: its bytes; or (bytes NULL) why a
 * worker failed it; or (both NULL) a unit handed back, to be done here.
 * 0, or -1 when out of memory. */
typedef int vb_unit_done_fn(void *ctx, size_t unit, const void *bytes, size_t len,
                            const char *why);
/* Whether a unit calls a plugin's code (may fail a worker). */
typedef int vb_unit_foreign_fn(void *ctx, size_t unit);

typedef struct vb_isolate vb_isolate;

/* Workers for fn on ctx (what they see is ctx as it is when each is
 * forked), each unit allowed `seconds` (a request of k units k times
 * that).  NULL when out of memory. */
vb_isolate *vb_isolate_new(vb_units_fn *fn, vb_unit_done_fn *done, vb_unit_foreign_fn *foreign,
                           void *ctx, double seconds);
/* Run the units (any numbers, each once) in a worker, from any thread, and
 * hand each unit's outcome to done.  0, or -1 with a message: a failure of
 * the machine (no worker could be started, memory), or done's. */
int vb_isolate_run(vb_isolate *iso, const size_t *units, size_t n, char *err, size_t errlen);
/* End the workers. */
void vb_isolate_free(vb_isolate *iso);

/* All three, for work done once; foreign NULL: every unit calls a
 * plugin's code. */
int vb_isolate_units(const size_t *units, size_t n, double seconds, vb_units_fn *fn,
                     vb_unit_done_fn *done, vb_unit_foreign_fn *foreign, void *ctx, char *err,
                     size_t errlen);

#endif
