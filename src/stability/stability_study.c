/* stability_study.c — the searches of a stability study (stability_study.h). */
#include "stability_study.h"
#include "parallel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    vb_stab_study *s;
    char **errs; /* one a row: the message of a failed search */
    int *over;   /* one a row: it failed as over max_steps */
} task_ctx;

static int one(void *ctx, size_t i)
{
    task_ctx *c = ctx;
    vb_stab_study *s = c->s;
    vb_stab_row *row = &s->rows[i];
    vb_stab_opts o = s->opts;
    o.jitter = s->jitters[row->jitter];
    o.seed = row->seed;
    char err[512];
    int rc = vb_stab_search(&s->problems[row->point], row->g, &o, &row->r, err, sizeof err);
    if (rc != 0) {
        c->errs[i] = strdup(err);
        c->over[i] = rc == -2;
        return -1;
    }
    /* a scan that went up from above the first limit z* (--scan-from in
     * PEFRL's island) found the edge of a later stable interval, which has
     * no closed form here: nothing to compare it with */
    if (row->theory > 0.0 && row->r.z_scan > row->theory)
        row->theory = NAN;
    /* a limit above an unstable gap of the step matrix is none: the run of
     * P periods was too short for the gap's slow growth to reach F */
    row->gap.lo = row->gap.hi = row->gap.periods = NAN;
    if (o.jitter == 0.0 && row->r.status == VB_STAB_LIMIT)
        vb_stab_gap_below(&s->problems[row->point], row->g, &o, 0.5 * o.z_min, row->r.z_lo,
                          &row->gap);
    return 0;
}

int vb_stab_study_run(vb_stab_study *s, unsigned threads, char *err, size_t errlen)
{
    s->n_rows = 0;
    size_t per_jitter_seeds = 0;
    for (size_t j = 0; j < s->n_jitters; j++)
        per_jitter_seeds += s->jitters[j] > 0.0 ? s->seeds : 1;
    size_t n = s->n_integ * s->n_points * per_jitter_seeds;
    s->rows = calloc(n, sizeof *s->rows);
    char **errs = calloc(n, sizeof *errs);
    int *over = calloc(n ? n : 1, sizeof *over);
    if (!s->rows || !errs || !over) {
        free(errs);
        free(over);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t g = 0; g < s->n_integ; g++)
        for (size_t p = 0; p < s->n_points; p++)
            for (size_t j = 0; j < s->n_jitters; j++) {
                unsigned k = s->jitters[j] > 0.0 ? s->seeds : 1;
                for (unsigned q = 0; q < k; q++) {
                    vb_stab_row *row = &s->rows[s->n_rows++];
                    row->g = s->integ[g];
                    row->point = p;
                    row->jitter = j;
                    /* fixed steps have no generator: the seed column says 0 */
                    row->seed = s->jitters[j] > 0.0 ? s->seed0 + q : 0;
                    row->theory = s->jitters[j] > 0.0
                                      ? (double)NAN
                                      : vb_stab_theory(&s->problems[p], row->g);
                }
            }
    task_ctx c = {s, errs, over};
    int rc = vb_parallel_for(s->n_rows, NULL, threads, one, &c, NULL, NULL);
    if (rc != 0) {
        snprintf(err, errlen, "a search failed");
        for (size_t i = 0; i < s->n_rows; i++)
            if (errs[i]) {
                snprintf(err, errlen, "%s", errs[i]);
                rc = over[i] ? -2 : -1;
                break;
            }
    }
    for (size_t i = 0; i < s->n_rows; i++)
        free(errs[i]);
    free(errs);
    free(over);
    return rc == 0 ? 0 : rc == -2 ? -2 : -1;
}

void vb_stab_study_free(vb_stab_study *s)
{
    free(s->rows);
    s->rows = NULL;
    s->n_rows = 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

vb_stab_group *vb_stab_groups(const vb_stab_study *s, size_t *n)
{
    vb_stab_group *gs = calloc(s->n_rows ? s->n_rows : 1, sizeof *gs);
    double *z = calloc(s->n_rows ? s->n_rows : 1, sizeof *z);
    *n = 0;
    if (!gs || !z) {
        free(gs);
        free(z);
        return NULL;
    }
    for (size_t i = 0; i < s->n_rows;) {
        const vb_stab_row *a = &s->rows[i];
        vb_stab_group *g = &gs[(*n)++];
        g->first = i;
        size_t k = 0;
        while (i < s->n_rows && s->rows[i].g == a->g && s->rows[i].point == a->point &&
               s->rows[i].jitter == a->jitter) {
            if (s->rows[i].r.status == VB_STAB_LIMIT)
                z[k++] = s->rows[i].r.z_lo;
            i++;
        }
        g->count = i - g->first;
        g->found = k;
        g->median = g->least = g->largest = NAN;
        if (k) {
            qsort(z, k, sizeof *z, cmp_double);
            g->median = k % 2 ? z[k / 2] : 0.5 * (z[k / 2 - 1] + z[k / 2]);
            g->least = z[0];
            g->largest = z[k - 1];
        }
    }
    free(z);
    return gs;
}
