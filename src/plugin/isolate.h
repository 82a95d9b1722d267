/* isolate.h — plugin code run in worker processes (docs/method.md §8), so
 * that a plugin that exits, crashes, aborts or hangs fails the work that
 * called it, with the reason, and the rest of the sweep goes on, as an
 * external engine that fails does.
 *
 * The work is cut into units (a run, a plugin integrator's one-step rows,
 * ...), and the units into groups (the runs of one plan: they share its
 * truth).  A worker is a fork of this process: it sees everything as it
 * was, and gives back nothing but its units' results, each sent as soon as
 * it has it.  Each group goes to one worker, up to `workers` groups at
 * once, and a worker stays for the next group (a fork is ~0.5 ms; a plan's
 * runs often less).  When a worker does not finish, each unit it did not
 * send that calls a plugin's code (foreign) goes to a worker of its own,
 * so only the units whose own code fails are lost, and the others are
 * handed back to be done here: the results of everything else are what
 * they would have been.  The workers are driven from one thread, with no
 * other thread of this process running (a fork copies one thread; a lock
 * another held would stay locked in the child).  They run in process
 * groups of their own (children.h), killed at their time limit and on an
 * interrupt. */
#ifndef VB_ISOLATE_H
#define VB_ISOLATE_H

#include <stddef.h>

/* What a failed unit says: how its worker ended. */
#define VB_ISOLATE_WHY 256

typedef struct vb_isolate_out vb_isolate_out;

/* In the worker: unit's result, its bytes.  0, or -1 (the parent is gone). */
int vb_isolate_put(vb_isolate_out *out, size_t unit, const void *bytes, size_t len);

/* The work of a group of units, in a worker: each one's result through
 * vb_isolate_put.  0, or -1 with a message for a failure of the machine
 * (memory), which fails the whole call, not the units. */
typedef int vb_units_fn(void *ctx, const size_t *units, size_t n, vb_isolate_out *out,
                        char *err, size_t errlen);
/* In this process, once for every unit: its bytes; or (bytes NULL) why a
 * worker failed it; or (both NULL) a unit handed back, to be done here.
 * 0, or -1 when out of memory. */
typedef int vb_unit_done_fn(void *ctx, size_t unit, const void *bytes, size_t len,
                            const char *why);
/* Whether a unit calls a plugin's code (may fail a worker); NULL: all do. */
typedef int vb_unit_foreign_fn(void *ctx, size_t unit);
/* After group k (for a progress line); may be NULL. */
typedef void vb_group_done_fn(void *ctx, size_t group);

/* Run the groups (group k: units[at[k]] .. units[at[k + 1] - 1], any
 * numbers, each once) through fn on ctx in at most `workers` workers at
 * once, each unit allowed `seconds` (a group of k units k times that),
 * and hand each unit's outcome to done.  0, or -1 with a message: a
 * failure of the machine (no worker could be started, memory), or done's. */
int vb_isolate_groups(const size_t *units, const size_t *at, size_t n_groups, unsigned workers,
                      double seconds, vb_units_fn *fn, vb_unit_done_fn *done,
                      vb_unit_foreign_fn *foreign, vb_group_done_fn *group_done, void *ctx,
                      char *err, size_t errlen);

/* One group of n units, in one worker. */
int vb_isolate_units(const size_t *units, size_t n, double seconds, vb_units_fn *fn,
                     vb_unit_done_fn *done, vb_unit_foreign_fn *foreign, void *ctx, char *err,
                     size_t errlen);

#endif
