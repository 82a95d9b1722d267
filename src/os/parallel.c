/* parallel.c — a pthread pool for independent tasks. */
#include "parallel.h"

#include <pthread.h>
#include <stdatomic.h>

#define MAX_THREADS 64

typedef struct {
    size_t n;
    const size_t *order;
    vb_task_fn *fn;
    void *ctx;
    vb_done_fn *done;
    void *done_ctx;
    atomic_size_t next, finished;
    atomic_int failed;
    pthread_mutex_t lock; /* serialises done() */
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        size_t k = atomic_fetch_add(&p->next, 1);
        if (k >= p->n || atomic_load(&p->failed))
            break;
        if (p->fn(p->ctx, p->order ? p->order[k] : k) != 0)
            atomic_store(&p->failed, 1);
        size_t d = atomic_fetch_add(&p->finished, 1) + 1;
        if (p->done) {
            pthread_mutex_lock(&p->lock);
            p->done(p->done_ctx, d, p->n);
            pthread_mutex_unlock(&p->lock);
        }
    }
    return NULL;
}

int vb_parallel_for(size_t n, const size_t *order, unsigned threads, vb_task_fn *fn, void *ctx,
                    vb_done_fn *done, void *done_ctx)
{
    pool p = {.n = n, .order = order, .fn = fn, .ctx = ctx, .done = done, .done_ctx = done_ctx};
    atomic_init(&p.next, 0);
    atomic_init(&p.finished, 0);
    atomic_init(&p.failed, 0);
    pthread_mutex_init(&p.lock, NULL);
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if ((size_t)threads > n)
        threads = n ? (unsigned)n : 1u;
    pthread_t tid[MAX_THREADS];
    unsigned started = 0;
    for (unsigned t = 1; t < threads; t++)
        if (pthread_create(&tid[started], NULL, worker, &p) == 0)
            started++;
    worker(&p); /* this thread works too; with no other thread it does all */
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&p.lock);
    return atomic_load(&p.failed) ? -1 : 0;
}
