/* longrun_study.c — long runs on threads (longrun_study.h). */
#include "longrun_study.h"
#include "parallel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    vb_long_study *s;
    char **errs;
} task_ctx;

static int one(void *ctx, size_t i)
{
    task_ctx *c = ctx;
    char err[512];
    if (vb_long_run(c->s->model, c->s->integ[i], &c->s->opts, &c->s->results[i], err,
                    sizeof err) != 0) {
        c->errs[i] = strdup(err);
        return -1;
    }
    return 0;
}

int vb_long_study_run(vb_long_study *s, unsigned threads, char *err, size_t errlen)
{
    s->results = calloc(s->n_integ, sizeof *s->results);
    char **errs = calloc(s->n_integ, sizeof *errs);
    if (!s->results || !errs) {
        free(errs);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    task_ctx c = {s, errs};
    int rc = vb_parallel_for(s->n_integ, NULL, threads, one, &c, NULL, NULL);
    if (rc != 0) {
        snprintf(err, errlen, "a long run failed");
        for (size_t i = 0; i < s->n_integ; i++)
            if (errs[i]) {
                snprintf(err, errlen, "%s", errs[i]);
                break;
            }
    }
    for (size_t i = 0; i < s->n_integ; i++)
        free(errs[i]);
    free(errs);
    return rc == 0 ? 0 : -1;
}

void vb_long_study_free(vb_long_study *s)
{
    free(s->results);
    s->results = NULL;
}
