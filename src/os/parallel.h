/* parallel.h — independent tasks on a small pthread pool. */
#ifndef VB_PARALLEL_H
#define VB_PARALLEL_H

#include <stddef.h>

/* Task i of n; returns 0, or -1 to stop handing out further tasks. */
typedef int vb_task_fn(void *ctx, size_t i);
/* Called after each task, one call at a time, with how many are done. */
typedef void vb_done_fn(void *ctx, size_t done, size_t n);

/* Run fn(ctx, order[k]) for k = 0..n-1 (order NULL: i = k) on `threads`
 * threads, this one included.  Tasks must only write their own slots; the
 * caller then reads them in a fixed order, so the result is the same for any
 * thread count.  0, or -1 if a task failed (later tasks may not have run). */
int vb_parallel_for(size_t n, const size_t *order, unsigned threads, vb_task_fn *fn, void *ctx,
                    vb_done_fn *done, void *done_ctx);

#endif
