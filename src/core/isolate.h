/* isolate.h — plugin code run in child processes (docs/method.md §8), so
 * that a plugin that exits, crashes, aborts or hangs fails the work that
 * called it, with the reason, and the rest of the sweep goes on, as an
 * external engine that fails does.
 *
 * The work is cut into units (a plugin integrator's runs of one plan, its
 * one-step rows, ...).  The units go to one child together, which sends
 * back each unit's result as soon as it has it; if that child does not
 * finish, every unit it did not send gets a child of its own, so only the
 * units whose own code fails are lost, and the results of the others are
 * what they would have been.  A child is a fork of this process: it sees
 * everything as it was, and gives back nothing but its units' bytes,
 * through a pipe.  It runs in a process group of its own (children.h),
 * killed at its time limit and on an interrupt. */
#ifndef VB_ISOLATE_H
#define VB_ISOLATE_H

#include <stddef.h>

/* What a failed unit says: how its worker ended. */
#define VB_ISOLATE_WHY 256

typedef struct vb_isolate_out vb_isolate_out;

/* In the child: unit's result, its bytes.  0, or -1 (the parent is gone). */
int vb_isolate_put(vb_isolate_out *out, size_t unit, const void *bytes, size_t len);

/* The work of some units, in the child: each one's result through
 * vb_isolate_put.  0, or -1 with a message for a failure of the machine
 * (memory), which fails the whole call, not the units. */
typedef int vb_units_fn(void *ctx, const size_t *units, size_t n, vb_isolate_out *out,
                        char *err, size_t errlen);
/* In the parent, once for every unit: its bytes, or (bytes NULL) why it
 * failed.  0, or -1 when out of memory. */
typedef int vb_unit_done_fn(void *ctx, size_t unit, const void *bytes, size_t len,
                            const char *why);

/* Run the units (any numbers, each once) through fn in child processes,
 * each allowed `seconds` (a unit's time limit; a child of k units gets k
 * times that), and hand each unit's outcome to done.  0, or -1 with a
 * message: a failure of the machine (no child could be started, memory),
 * or done's. */
int vb_isolate_units(const size_t *units, size_t n, double seconds, vb_units_fn *fn,
                     vb_unit_done_fn *done, void *ctx, char *err, size_t errlen);

#endif
