/* merge.c — the shards of run --shard K/N read back into whole sweeps. */
#include "shardmerge.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shardfile.h"
#include "shards.h"

/* one shard.csv found: its case (the path it names), K and N */
struct vb_shard_file {
    char *file, *case_path, *name;
    int k, n;
};

/* "# verletbench V: shard K/N of the runs of PATH": K, N, PATH.  -1 if not */
static int shard_head(const char *file, int *k, int *n, char **case_path)
{
    /* a regular file only: a FIFO would block, a device never end */
    struct stat st;
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    FILE *f = fopen(file, "r");
    if (!f)
        return -1;
    char line[4096 + 128];
    int rc = -1;
    if (fgets(line, sizeof line, f) && strchr(line, '\n')) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *p = strstr(line, ": shard ");
        char *end;
        if (p && !strncmp(line, "# verletbench ", 14)) {
            errno = 0;
            long a = strtol(p + 8, &end, 10), b = *end == '/' ? strtol(end + 1, &end, 10) : 0;
            const char *rest = " of the runs of ";
            if (!errno && a >= 1 && b >= a && b <= VB_MAX_SHARDS &&
                !strncmp(end, rest, strlen(rest)) && end[strlen(rest)]) {
                *k = (int)a;
                *n = (int)b;
                *case_path = strdup(end + strlen(rest));
                rc = *case_path ? 0 : -1;
            }
        }
    }
    fclose(f);
    return rc;
}

long vb_merge_clash(const char *out, char *const *dirs, size_t n_dirs)
{
    char *out_real = realpath(out, NULL);
    if (!out_real) {
        /* not there yet: where it would be, by its parent's real path */
        char *copy = strdup(out), *slash = copy ? strrchr(copy, '/') : NULL;
        const char *base = slash ? slash + 1 : out;
        if (slash)
            *slash = '\0';
        char *parent = copy ? realpath(slash ? (copy[0] ? copy : "/") : ".", NULL) : NULL;
        if (parent && (out_real = malloc(strlen(parent) + strlen(base) + 2)))
            sprintf(out_real, "%s/%s", parent, base);
        free(parent);
        free(copy);
    }
    long found = -1;
    for (size_t a = 0; out_real && a < n_dirs && found < 0; a++) {
        char *in_real = realpath(dirs[a], NULL);
        size_t lo = strlen(out_real), li = in_real ? strlen(in_real) : 0;
        int clash = in_real && (!strncmp(out_real, in_real, lo < li ? lo : li) &&
                                (lo == li || (lo < li ? in_real[lo] : out_real[li]) == '/'));
        free(in_real);
        if (clash)
            found = (long)a;
    }
    free(out_real);
    return found;
}

int vb_merge_read(vb_merge *m, char *const *dirs, size_t n_dirs, double max_steps, char *err,
                  size_t errlen)
{
    int rc = 0;
    char why[1024];
    vb_shard_file *sf = NULL;
    size_t n_sf = 0, cap_sf = 0, swept = 0, n = 0;
    long n_grids = 0;
    vb_case_set set;
    memset(&set, 0, sizeof set);
    vb_sweep *sweeps = NULL;
    vb_grid *grids = NULL;
    size_t *point_of = NULL, *rank = NULL;
    int *shard_n_of = NULL;
    err[0] = '\0';

    /* every DIR/NAME/shard.csv */
    for (size_t a = 0; a < n_dirs && rc == 0; a++) {
        /* in name order, so that what is said first does not depend on
         * the file system */
        struct dirent **ents = NULL;
        int n_ents = scandir(dirs[a], &ents, NULL, alphasort);
        if (n_ents < 0) {
            snprintf(err, errlen, "%s: %s", dirs[a], strerror(errno));
            rc = VB_SWEEP_USAGE;
            break;
        }
        size_t before = n_sf;
        for (int ei = 0; ei < n_ents && rc == 0; ei++) {
            const struct dirent *e = ents[ei];
            if (e->d_name[0] == '.')
                continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s/shard.csv", dirs[a], e->d_name);
            if (access(path, F_OK) != 0)
                continue;
            if (n_sf == cap_sf) {
                cap_sf = cap_sf ? 2 * cap_sf : 16;
                vb_shard_file *more = realloc(sf, cap_sf * sizeof *sf);
                if (!more) {
                    rc = -1;
                    break;
                }
                sf = more;
            }
            vb_shard_file *s = &sf[n_sf];
            memset(s, 0, sizeof *s);
            s->file = strdup(path);
            s->name = strdup(e->d_name);
            if (!s->file || !s->name || shard_head(path, &s->k, &s->n, &s->case_path) != 0) {
                snprintf(err, errlen,
                         "%s: not a shard of verletbench run --shard: a regular file whose "
                         "first line says shard K/N (1 <= K <= N <= %d) of the runs of a "
                         "case file",
                         path, VB_MAX_SHARDS);
                free(s->file), free(s->name);
                rc = VB_SWEEP_USAGE;
                break;
            }
            n_sf++;
        }
        for (int ei = 0; ei < n_ents; ei++)
            free(ents[ei]);
        free(ents);
        if (rc == 0 && n_sf == before) {
            snprintf(err, errlen, "%s: no NAME/shard.csv in it: not a directory of run --shard",
                     dirs[a]);
            rc = VB_SWEEP_USAGE;
        }
    }
    if (rc != 0)
        goto done;

    /* their case files, each loaded once (a grid's every point), in order of
     * first appearance; point_of[i]: shard i's case, an index into set.all */
    point_of = calloc(n_sf ? n_sf : 1, sizeof *point_of);
    if (!point_of) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto done;
    }
    for (size_t i = 0; i < n_sf && rc == 0; i++) {
        size_t f = 0, first = 0;
        for (; f < set.n_files; first += set.file[f++].n)
            if (!strcmp(set.file[f].points[0].path, sf[i].case_path))
                break;
        if (f == set.n_files && vb_case_set_add(&set, sf[i].case_path, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: its case file: %s (merge where the shards ran)", sf[i].file,
                     why);
            rc = VB_SWEEP_USAGE;
            break;
        }
        const vb_case_file *cf = &set.file[f];
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
            rc = VB_SWEEP_USAGE;
            break;
        }
        point_of[i] = first + k;
    }
    if (rc != 0)
        goto done;
    n = set.n;

    /* every point of a grid is needed for the grid's tables; every shard of
     * a case file is of one N */
    shard_n_of = calloc(n ? n : 1, sizeof *shard_n_of);
    if (!shard_n_of) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto done;
    }
    for (size_t f = 0, first = 0; f < set.n_files && rc == 0;
         first += set.file[f++].n) {
        int file_n = 0;
        const char *file_n_shard = NULL;
        for (size_t k = 0; k < set.file[f].n && rc == 0; k++) {
            const vb_case *pc = &set.file[f].points[k];
            int found = 0;
            for (size_t i = 0; i < n_sf; i++) {
                if (point_of[i] != first + k)
                    continue;
                found = 1;
                if (file_n && sf[i].n != file_n) {
                    snprintf(err, errlen, "%s is shard %d/%d of %s, but %s is of %s in %d shards",
                             sf[i].file, sf[i].k, sf[i].n, sf[i].case_path, file_n_shard, pc->path,
                             file_n);
                    rc = VB_SWEEP_USAGE;
                    break;
                }
                file_n = sf[i].n;
                file_n_shard = sf[i].file;
            }
            if (rc == 0 && !found) {
                snprintf(err, errlen,
                         "%s: grid point %s has no shards in the directories given; a "
                         "grid's tables need every point (run --shard K/N %s)",
                         pc->path, pc->name, pc->path);
                rc = VB_SWEEP_USAGE;
            }
        }
        for (size_t k = 0; k < set.file[f].n; k++)
            shard_n_of[first + k] = file_n;
    }
    if (rc != 0)
        goto done;

    /* the sweeps, each file's points split as run --shard split them */
    sweeps = calloc(n ? n : 1, sizeof *sweeps);
    if (!sweeps) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto done;
    }
    for (; swept < n; swept++) {
        rc = vb_sweep_begin(set.all[swept], &sweeps[swept], max_steps, why, sizeof why);
        if (rc != 0) {
            swept++;
            snprintf(err, errlen, "%s", why);
            goto done;
        }
    }
    for (size_t f = 0, first = 0; f < set.n_files; first += set.file[f++].n)
        if (vb_sweep_shard(&sweeps[first], set.file[f].n, 1, shard_n_of[first]) != 0) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            goto done;
        }
    for (size_t ci = 0; ci < n && rc == 0; ci++) {
        int nk = shard_n_of[ci];
        for (int k = 1; k <= nk && rc == 0; k++) {
            const char *first = NULL;
            for (size_t i = 0; i < n_sf; i++)
                if (point_of[i] == ci && sf[i].k == k) {
                    if (first) {
                        snprintf(err, errlen, "%s: shard %d/%d given twice: %s and %s",
                                 set.all[ci]->name, k, nk, first, sf[i].file);
                        rc = VB_SWEEP_USAGE;
                        break;
                    }
                    first = sf[i].file;
                }
            if (!first && rc == 0) {
                snprintf(err, errlen, "%s: shard %d/%d is missing (run --shard %d/%d %s)",
                         set.all[ci]->name, k, nk, k, nk, set.all[ci]->path);
                rc = VB_SWEEP_USAGE;
            }
        }
    }
    /* read them: each checked against this build and the case as it is */
    for (size_t i = 0; i < n_sf && rc == 0; i++) {
        vb_sweep *s = &sweeps[point_of[i]];
        size_t filled = 0, want = 0;
        int oi = 0, om = 0;
        rc = vb_sweep_read_shard(s, sf[i].k, sf[i].n, sf[i].file, &filled, &oi, &om, why,
                                 sizeof why);
        if (rc == 0 && (oi < 1 || oi > om)) {
            snprintf(err, errlen, "%s: no '# order=I/M' line with 1 <= I <= M: not a whole shard",
                     sf[i].file);
            rc = VB_SWEEP_USAGE;
            break;
        }
        if (rc == 0 && s->order_m && (s->order_i != oi || s->order_m != om)) {
            snprintf(err, errlen,
                     "%s: case %d of %d in the run that made it, where its case's other "
                     "shards say %d of %d: shards of different command lines",
                     sf[i].file, oi, om, s->order_i, s->order_m);
            rc = VB_SWEEP_USAGE;
            break;
        }
        s->order_i = oi;
        s->order_m = om;
        if (rc != 0) {
            snprintf(err, errlen, "%s", why);
            break;
        }
        for (size_t k = 0; k < s->n_jobs; k++)
            want += vb_sweep_job_shard(s, k) == sf[i].k;
        if (filled != want) {
            snprintf(err, errlen, "%s: %zu of its %zu runs: a cut shard", sf[i].file, filled, want);
            rc = VB_SWEEP_USAGE;
        }
    }
    if (rc != 0)
        goto done;

    /* written in the order of the run that made them (its command line,
     * every point of a grid in turn): rank[a] is the case that came a-th
     * (the sweeps and cases themselves stay put: plans point into them) */
    rank = malloc((n ? n : 1) * sizeof *rank);
    if (!rank) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto done;
    }
    for (size_t a = 0; a < n; a++) {
        size_t b = a;
        for (; b > 0 && sweeps[rank[b - 1]].order_i > sweeps[a].order_i; b--)
            rank[b] = rank[b - 1];
        rank[b] = a;
    }
    for (size_t a = 1; a < n; a++) {
        const vb_sweep *p = &sweeps[rank[a - 1]], *q = &sweeps[rank[a]];
        if (q->order_i == p->order_i || q->order_m != sweeps[rank[0]].order_m) {
            char la[4096], lb[4096];
            snprintf(err, errlen,
                     "%s and %s come from different runs (their '# order=' lines): merge "
                     "the shards of one command line",
                     vb_case_label(p->c, la, sizeof la), vb_case_label(q->c, lb, sizeof lb));
            rc = VB_SWEEP_USAGE;
            goto done;
        }
    }
    n_grids = vb_grids_begin(&set, &grids);
    if (n_grids < 0) {
        n_grids = 0;
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto done;
    }
done:
    /* the merge holds all of it, whatever happened: vb_merge_free */
    memset(m, 0, sizeof *m);
    m->set = set;
    m->sweeps = sweeps;
    m->n = n;
    m->swept = swept;
    m->rank = rank;
    m->grids = grids;
    m->n_grids = n_grids;
    m->sf = sf;
    m->n_sf = n_sf;
    m->point_of = point_of;
    m->shard_n_of = shard_n_of;
    return rc;
}

int vb_merge_finish(vb_merge *m, double max_steps, unsigned flags, unsigned threads, char *err,
                    size_t errlen)
{
    char why[1024];
    for (size_t ci = 0; ci < m->n; ci++) {
        int rc = vb_sweep_finish(m->set.all[ci], &m->sweeps[ci], max_steps, flags, threads, why,
                                 sizeof why);
        vb_grid *g = rc == 0 ? vb_grid_of(m->grids, (size_t)m->n_grids, m->set.all[ci]) : NULL;
        if (g && vb_grid_add(g, &m->sweeps[ci]) != 0) {
            snprintf(why, sizeof why, "out of memory");
            rc = -1;
        }
        if (rc != 0) {
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
    vb_grids_free(m->grids, (size_t)m->n_grids);
    free(m->point_of);
    free(m->shard_n_of);
    vb_case_set_free(&m->set);
    for (size_t i = 0; i < m->n_sf; i++) {
        free(m->sf[i].file);
        free(m->sf[i].name);
        free(m->sf[i].case_path);
    }
    free(m->sf);
    memset(m, 0, sizeof *m);
}
