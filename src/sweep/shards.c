/* shards.c — which shard computes each task of a sweep (run --shard K/N). */
#include "shards.h"

#include <stdlib.h>

/* Which shard (1..n) computes each task of a group of sweeps (the points
 * of one case file's grid, or its one case): the tasks by cost, largest
 * first, each to the shard with the least so far (the lowest-numbered of
 * equals; ties in cost in the order point, task).  A task's cost is the
 * steps its runs take (every integrator on one plan, an adaptive one's
 * frames counted as steps): the truth, computed once a step for all of
 * them, is most of what a step costs.  Every shard computes the same
 * assignment from the case file alone.  Taken over the whole grid rather
 * than point by point, so that the largest task of every point does not
 * go to shard 1. */
typedef struct {
    double cost;
    size_t sweep, task;
} shard_task;

static int by_cost(const void *a, const void *b)
{
    const shard_task *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    if (x->sweep != y->sweep)
        return x->sweep < y->sweep ? -1 : 1;
    return (x->task > y->task) - (x->task < y->task);
}

int vb_sweep_shard(vb_sweep *sweeps, size_t n_sweeps, int shard_k, int shard_n)
{
    size_t total = 0;
    for (size_t i = 0; i < n_sweeps; i++) {
        vb_sweep *s = &sweeps[i];
        size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 0;
        free(s->task_shard);
        s->task_shard = calloc(per ? per : 1, sizeof *s->task_shard);
        if (!s->task_shard)
            return -1;
        s->shard_k = shard_k;
        s->shard_n = shard_n;
        total += per;
    }
    shard_task *t = malloc((total ? total : 1) * sizeof *t);
    double *load = calloc((size_t)shard_n, sizeof *load);
    if (!t || !load) {
        free(t), free(load);
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < n_sweeps; i++) {
        const vb_sweep *s = &sweeps[i];
        size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 0;
        for (size_t g = 0; g < per; g++, m++) {
            t[m] = (shard_task){0.0, i, g};
            for (size_t j = 0; j < s->c->n_integ; j++)
                t[m].cost += vb_plan_max_steps(&s->jobs[j * per + g].plan);
        }
    }
    /* the order is total (cost, then place), so qsort's instability
     * cannot make two shards disagree */
    qsort(t, total, sizeof *t, by_cost);
    for (size_t a = 0; a < total; a++) {
        int best = 0;
        for (int k = 1; k < shard_n; k++)
            if (load[k] < load[best])
                best = k;
        load[best] += t[a].cost;
        sweeps[t[a].sweep].task_shard[t[a].task] = best + 1;
    }
    free(t), free(load);
    return 0;
}
