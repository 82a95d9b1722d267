/* shardmerge.c — the shards of run --shard K/N made whole: matched with
 * their cases, read into sweeps, and the sweeps finished in the order of
 * the run that made them. */
#include "shardmerge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plans.h"
#include "shards.h"
#include "simulate.h"
#include "sweep.h"

void vb_shard_refs_free(vb_shard_ref *refs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(refs[i].file);
        free(refs[i].name);
        free(refs[i].case_path);
    }
    free(refs);
}


/* Each shard's case file, loaded once (a grid's every point), in order of
 * first appearance; m->point_of[i]: shard i's case, an index into
 * m->set.all. */
static int match_cases(vb_merge *m, char *err, size_t errlen)
{
    char why[1024];
    const vb_shard_ref *sf = m->sf;
    m->point_of = calloc(m->n_sf ? m->n_sf : 1, sizeof *m->point_of);
    if (!m->point_of) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    vb_case_set *set = &m->set;
    for (size_t i = 0; i < m->n_sf; i++) {
        size_t f = 0, first = 0;
        for (; f < set->n_files; first += set->file[f++].n)
            if (!strcmp(set->file[f].points[0].path, sf[i].case_path))
                break;
        if (f == set->n_files && vb_case_set_add(set, sf[i].case_path, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: its case file: %s (merge where the shards ran)", sf[i].file,
                     why);
            return VB_SWEEP_USAGE;
        }
        const vb_case_file *cf = &set->file[f];
        size_t k = 0;
        while (k < cf->n && strcmp(cf->points[k].name, sf[i].name) != 0)
            k++;
        if (k == cf->n) {
            if (cf->points[0].grid)
                snprintf(err, errlen,
                         "%s: in a directory named %s, but its case file %s is a grid whose "
                         "points are %s, %s, ...",
                         sf[i].file, sf[i].name, cf->points[0].path, cf->points[0].name,
                         cf->n > 1 ? cf->points[1].name : "");
            else
                snprintf(err, errlen, "%s: in a directory named %s, but its case %s is %s",
                         sf[i].file, sf[i].name, cf->points[0].path, cf->points[0].name);
            return VB_SWEEP_USAGE;
        }
        m->point_of[i] = first + k;
    }
    m->n = set->n;
    return 0;
}

/* Every point of a grid is needed for the grid's tables; every shard of a
 * case file is of one N: m->shard_n_of[c], case c's. */
static int count_shards(vb_merge *m, char *err, size_t errlen)
{
    const vb_shard_ref *sf = m->sf;
    const vb_case_set *set = &m->set;
    m->shard_n_of = calloc(m->n ? m->n : 1, sizeof *m->shard_n_of);
    if (!m->shard_n_of) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t f = 0, first = 0; f < set->n_files; first += set->file[f++].n) {
        int file_n = 0;
        const char *file_n_shard = NULL;
        for (size_t k = 0; k < set->file[f].n; k++) {
            const vb_case *pc = &set->file[f].points[k];
            int found = 0;
            for (size_t i = 0; i < m->n_sf; i++) {
                if (m->point_of[i] != first + k)
                    continue;
                found = 1;
                if (file_n && sf[i].n != file_n) {
                    snprintf(err, errlen, "%s is shard %d/%d of %s, but %s is of %s in %d shards",
                             sf[i].file, sf[i].k, sf[i].n, sf[i].case_path, file_n_shard, pc->path,
                             file_n);
                    return VB_SWEEP_USAGE;
                }
                file_n = sf[i].n;
                file_n_shard = sf[i].file;
            }
            if (!found) {
                snprintf(err, errlen,
                         "%s: grid point %s has no shards in the directories given; a "
                         "grid's tables need every point (run --shard K/N %s)",
                         pc->path, pc->name, pc->path);
                return VB_SWEEP_USAGE;
            }
        }
        for (size_t k = 0; k < set->file[f].n; k++)
            m->shard_n_of[first + k] = file_n;
    }
    return 0;
}

/* The sweeps, each file's points split as run --shard split them. */
static int begin_sweeps(vb_merge *m, double max_steps, char *err, size_t errlen)
{
    const vb_case_set *set = &m->set;
    m->sweeps = calloc(m->n ? m->n : 1, sizeof *m->sweeps);
    if (!m->sweeps) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (; m->swept < m->n; m->swept++) {
        int rc = vb_sweep_begin(set->all[m->swept], &m->sweeps[m->swept], max_steps, err, errlen);
        if (rc != 0) {
            m->swept++;
            return rc;
        }
    }
    for (size_t f = 0, first = 0; f < set->n_files; first += set->file[f++].n)
        if (vb_sweep_shard(&m->sweeps[first], set->file[f].n, 1, m->shard_n_of[first]) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    return 0;
}

/* Every shard K of N of every case given once. */
static int each_shard_once(const vb_merge *m, char *err, size_t errlen)
{
    const vb_shard_ref *sf = m->sf;
    for (size_t ci = 0; ci < m->n; ci++) {
        int nk = m->shard_n_of[ci];
        for (int k = 1; k <= nk; k++) {
            const char *first = NULL;
            for (size_t i = 0; i < m->n_sf; i++)
                if (m->point_of[i] == ci && sf[i].k == k) {
                    if (first) {
                        snprintf(err, errlen, "%s: shard %d/%d given twice: %s and %s",
                                 m->set.all[ci]->name, k, nk, first, sf[i].file);
                        return VB_SWEEP_USAGE;
                    }
                    first = sf[i].file;
                }
            if (!first) {
                snprintf(err, errlen, "%s: shard %d/%d is missing (run --shard %d/%d %s)",
                         m->set.all[ci]->name, k, nk, k, nk, m->set.all[ci]->path);
                return VB_SWEEP_USAGE;
            }
        }
    }
    return 0;
}

/* Shard i read into its sweep, checked against this build and the case as
 * it is, and whole: its place in the run, and every run of its jobs. */
static int read_shard(vb_merge *m, size_t i, vb_shard_reader *read, char *err, size_t errlen)
{
    const vb_shard_ref *sf = &m->sf[i];
    vb_sweep *s = &m->sweeps[m->point_of[i]];
    size_t filled = 0, want = 0;
    int oi = 0, om = 0;
    int rc = read(s, sf->k, sf->n, sf->file, &filled, &oi, &om, err, errlen);
    if (rc == 0 && (oi < 1 || oi > om)) {
        snprintf(err, errlen, "%s: no '# order=I/M' line with 1 <= I <= M: not a whole shard",
                 sf->file);
        return VB_SWEEP_USAGE;
    }
    if (rc == 0 && s->order_m && (s->order_i != oi || s->order_m != om)) {
        snprintf(err, errlen,
                 "%s: case %d of %d in the run that made it, where its case's other "
                 "shards say %d of %d: shards of different command lines",
                 sf->file, oi, om, s->order_i, s->order_m);
        return VB_SWEEP_USAGE;
    }
    s->order_i = oi;
    s->order_m = om;
    if (rc != 0)
        return rc;
    for (size_t k = 0; k < s->n_jobs; k++)
        want += vb_sweep_job_shard(s, k) == sf->k;
    if (filled != want) {
        snprintf(err, errlen, "%s: %zu of its %zu runs: a cut shard", sf->file, filled, want);
        return VB_SWEEP_USAGE;
    }
    return 0;
}

/* Written in the order of the run that made them (its command line, every
 * point of a grid in turn): m->rank[a] is the case that came a-th (the
 * sweeps and cases themselves stay put: plans point into them). */
static int rank_cases(vb_merge *m, char *err, size_t errlen)
{
    const vb_sweep *sweeps = m->sweeps;
    size_t *rank = m->rank = malloc((m->n ? m->n : 1) * sizeof *m->rank);
    if (!rank) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t a = 0; a < m->n; a++) {
        size_t b = a;
        for (; b > 0 && sweeps[rank[b - 1]].order_i > sweeps[a].order_i; b--)
            rank[b] = rank[b - 1];
        rank[b] = a;
    }
    for (size_t a = 1; a < m->n; a++) {
        const vb_sweep *p = &sweeps[rank[a - 1]], *q = &sweeps[rank[a]];
        if (q->order_i == p->order_i || q->order_m != sweeps[rank[0]].order_m) {
            char la[4096], lb[4096];
            snprintf(err, errlen,
                     "%s and %s come from different runs (their '# order=' lines): merge "
                     "the shards of one command line",
                     vb_case_label(p->c, la, sizeof la), vb_case_label(q->c, lb, sizeof lb));
            return VB_SWEEP_USAGE;
        }
    }
    return 0;
}

/* Each entry of every case that declares what it is with its first run
 * (an engine's capability line, profile.h) makes one, its coarsest fixed
 * run, as it made runs in the shards before they were written: its
 * provenance line and its caps are then what they were there.  A run that
 * fails leaves its declaration unknown, and the shards' '#' lines then say
 * what differs. */
static int ask_declarations(vb_merge *m, char *err, size_t errlen)
{
    for (size_t ci = 0; ci < m->set.n; ci++) {
        const vb_case *c = m->set.all[ci];
        for (size_t k = 0; k < c->profile.n_declaring; k++) {
            vb_run_spec spec = {.integ = c->integ[c->profile.declaring[k]], .model = &c->model,
                                .plan = vb_sweep_plan_for(c, VB_PLAN_FIXED, 0, 0)};
            vb_run_result res;
            if (vb_simulate(&spec, &res, err, errlen) != 0)
                return -1;
            vb_run_result_clear(&res);
        }
    }
    return 0;
}

int vb_merge_read(vb_merge *m, vb_shard_ref *refs, size_t n_refs, vb_case_prepare *prepare,
                  const void *prepare_ctx, vb_shard_reader *read, double max_steps, char *err,
                  size_t errlen)
{
    /* the merge holds all of it from here, whatever happens: vb_merge_free */
    memset(m, 0, sizeof *m);
    m->sf = refs;
    m->n_sf = n_refs;
    err[0] = '\0';
    int rc = match_cases(m, err, errlen);
    for (size_t i = 0; rc == 0 && prepare && i < m->set.n; i++)
        rc = prepare(m->set.all[i], prepare_ctx, err, errlen);
    if (rc == 0)
        rc = ask_declarations(m, err, errlen);
    if (rc == 0)
        rc = count_shards(m, err, errlen);
    if (rc == 0)
        rc = begin_sweeps(m, max_steps, err, errlen);
    if (rc == 0)
        rc = each_shard_once(m, err, errlen);
    for (size_t i = 0; i < m->n_sf && rc == 0; i++)
        rc = read_shard(m, i, read, err, errlen);
    if (rc == 0)
        rc = rank_cases(m, err, errlen);
    return rc;
}

int vb_merge_finish(vb_merge *m, double max_steps, unsigned flags, unsigned threads, char *err,
                    size_t errlen)
{
    char why[1024];
    for (size_t ci = 0; ci < m->n; ci++) {
        if (vb_sweep_finish(m->set.all[ci], &m->sweeps[ci], max_steps, flags, threads, why,
                            sizeof why) != 0) {
            snprintf(err, errlen, "%s", why);
            return -1;
        }
    }
    /* a shallow copy of each finished sweep, in the run's order */
    m->ordered = malloc((m->n ? m->n : 1) * sizeof *m->ordered);
    if (!m->ordered) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t a = 0; a < m->n; a++)
        m->ordered[a] = m->sweeps[m->rank[a]];
    return 0;
}

void vb_merge_free(vb_merge *m)
{
    free(m->ordered);
    free(m->rank);
    for (size_t i = 0; i < m->swept; i++)
        vb_sweep_free(&m->sweeps[i]);
    free(m->sweeps);
    free(m->point_of);
    free(m->shard_n_of);
    vb_case_set_free(&m->set);
    vb_shard_refs_free(m->sf, m->n_sf);
    memset(m, 0, sizeof *m);
}
