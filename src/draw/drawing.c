/* drawing.c — batches of charts on a few gnuplots (drawing.h). */
#include "drawing.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvread.h"
#include "pick.h"
#include "plotter.h"

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

int vb_batch_add(vb_batch *b, const vb_chart_kind *kind, const char *table, const char *target,
                 const char *title, const char *arg, const char *stem, const char *caption)
{
    vb_chart_spec *more = realloc(b->charts, (b->n + 1) * sizeof *more);
    if (!more)
        return -1;
    b->charts = more;
    vb_chart_spec *c = &b->charts[b->n];
    *c = (vb_chart_spec){.kind = kind,
                         .table = dup_or_null(table),
                         .target = dup_or_null(target),
                         .title = dup_or_null(title ? title : ""),
                         .arg = dup_or_null(arg),
                         .stem = dup_or_null(stem),
                         .caption = dup_or_null(caption)};
    b->n++;
    return c->table && c->target && c->title ? 0 : -1;
}

int vb_batch_pick(vb_batch *b, double dt, const char *methods)
{
    for (size_t i = 0; i < b->n; i++) {
        vb_chart_spec *c = &b->charts[i];
        c->dt = dt;
        if (methods && !(c->methods = strdup(methods)))
            return -1;
    }
    return 0;
}

void vb_batch_free(vb_batch *b)
{
    for (size_t i = 0; i < b->n; i++) {
        vb_chart_spec *c = &b->charts[i];
        free(c->table), free(c->target), free(c->title), free(c->arg), free(c->methods);
        free(c->integrators), free(c->layout), free(c->stem), free(c->caption);
    }
    free(b->charts);
    free(b->name);
    memset(b, 0, sizeof *b);
}

/* the tables of one batch, each read once */
typedef struct {
    char *path;
    vb_csv t;
    int ok;
    char err[1024];
} cached;

static const vb_csv *table_of(cached *cache, size_t *n, const char *path, char *err, size_t errlen)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(cache[i].path, path)) {
            if (!cache[i].ok)
                snprintf(err, errlen, "%s", cache[i].err);
            return cache[i].ok ? &cache[i].t : NULL;
        }
    cached *c = &cache[(*n)++];
    c->path = strdup(path);
    c->ok = c->path && vb_csv_read(path, &c->t, c->err, sizeof c->err) == 0;
    if (!c->ok) {
        vb_csv_free(&c->t);
        snprintf(err, errlen, "%s", c->err);
    }
    return c->ok ? &c->t : NULL;
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

/* One batch on one gnuplot: every chart's program written, drawn, and
 * each good file renamed to its target; a failed chart removes its target,
 * so that no earlier chart stands in for it. */
static void draw_batch(vb_plotter *p, vb_batch *b)
{
    cached *cache = calloc(b->n + 1, sizeof *cache);
    unsigned long *ids = calloc(b->n + 1, sizeof *ids);
    unsigned char *failed = calloc(b->n + 1, 1);
    char (*outs)[64] = calloc(b->n + 1, sizeof *outs);
    size_t nc = 0;
    if (!cache || !ids || !failed || !outs) {
        fprintf(stderr, "verletbench draw: %s: out of memory\n", b->name ? b->name : "");
        b->failed = b->n;
        goto done;
    }
    unsigned long first = 0, last = 0;
    for (size_t i = 0; i < b->n; i++) {
        vb_chart_spec *c = &b->charts[i];
        char err[2048];
        const vb_csv *t = table_of(cache, &nc, c->table, err, sizeof err);
        /* the rows picked: one step of a rigid body's w (the coarsest, or
         * draw --dt's), the methods of draw --methods */
        vb_csv picked = {0};
        int one = c->kind->one_step;
        if (t && (one || c->methods)) {
            vb_pick pk = {.dt = c->dt, .methods = c->methods};
            t = vb_pick_rows(t, &pk, one, &picked, NULL, err, sizeof err) == 0 ? &picked : NULL;
        }
        int svg = ends_with(c->target, ".svg");
        FILE *f = t ? vb_plotter_chart(p, svg, &ids[i], outs[i], err, sizeof err) : NULL;
        vb_chart ch = {.f = f, .out = outs[i], .svg = svg};
        int rc = f ? c->kind->build(&ch, c, t, err, sizeof err) : -1;
        if (picked.path)
            vb_csv_free(&picked);
        if (f && fclose(f) != 0 && rc == 0) {
            snprintf(err, sizeof err, "cannot write its program: %s", strerror(errno));
            rc = -1;
        }
        if (f) {
            /* numbered in the range drawn: an empty program if it failed */
            if (!first)
                first = ids[i];
            last = ids[i];
        }
        if (rc != 0) {
            fprintf(stderr, "verletbench draw: %s: %s\n", c->target, err);
            unlink(c->target);
            if (f) {
                char path[4400], name[64];
                snprintf(name, sizeof name, "c%lu.gp", ids[i]);
                vb_plotter_path(p, name, path, sizeof path);
                FILE *empty = fopen(path, "w");
                if (empty)
                    fclose(empty);
            }
            ids[i] = 0;
            b->failed++;
        }
    }
    if (first) {
        unsigned char *fl = calloc(last - first + 2, 1);
        if (!fl || vb_plotter_draw(p, first, last, fl) != 0)
            fprintf(stderr, "verletbench draw: gnuplot (%s) ended before it was done\n",
                    vb_gnuplot_name());
        for (size_t i = 0; i < b->n; i++)
            if (ids[i])
                failed[i] = !fl || fl[ids[i] - first];
        free(fl);
    }
    for (size_t i = 0; i < b->n; i++) {
        if (!ids[i])
            continue;
        vb_chart_spec *c = &b->charts[i];
        char from[4400];
        vb_plotter_path(p, outs[i], from, sizeof from);
        if (!failed[i] && vb_chart_file_ok(from, ends_with(c->target, ".svg")) &&
            rename(from, c->target) == 0) {
            c->drawn = 1;
            b->drawn++;
            continue;
        }
        fprintf(stderr, "verletbench draw: %s: %s\n", c->target,
                failed[i] ? "gnuplot failed on it (its message above)"
                          : "not a real chart, or it could not be put in place");
        unlink(from);
        unlink(c->target);
        b->failed++;
    }
done:
    for (size_t i = 0; cache && i < nc; i++) {
        free(cache[i].path);
        if (cache[i].ok)
            vb_csv_free(&cache[i].t);
    }
    free(cache);
    free(ids);
    free(failed);
    free(outs);
}

typedef struct {
    vb_batch *batches;
    size_t n, next;
    const char *scratch;
    pthread_mutex_t lock;
    size_t failed;
} work_queue;

static void *worker(void *arg)
{
    work_queue *q = arg;
    vb_plotter p;
    char err[1024];
    int started = vb_plotter_start(&p, q->scratch, err, sizeof err) == 0;
    if (!started)
        fprintf(stderr, "verletbench draw: %s\n", err);
    for (;;) {
        pthread_mutex_lock(&q->lock);
        size_t i = q->next < q->n ? q->next++ : q->n;
        pthread_mutex_unlock(&q->lock);
        if (i == q->n)
            break;
        vb_batch *b = &q->batches[i];
        if (started)
            draw_batch(&p, b);
        else
            b->failed = b->n;
        pthread_mutex_lock(&q->lock);
        q->failed += b->failed;
        pthread_mutex_unlock(&q->lock);
    }
    if (started)
        vb_plotter_stop(&p);
    return NULL;
}

size_t vb_draw_batches(vb_batch *batches, size_t n, unsigned jobs, const char *scratch_parent)
{
    work_queue q = {.batches = batches, .n = n, .scratch = scratch_parent};
    pthread_mutex_init(&q.lock, NULL);
    if (jobs < 1)
        jobs = 1;
    if (jobs > n)
        jobs = n ? (unsigned)n : 1;
    /* a gnuplot that ends early must not end us: its pipe's writes fail instead */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    sigaction(SIGPIPE, &ign, &old);
    pthread_t *tid = calloc(jobs, sizeof *tid);
    unsigned char *made = calloc(jobs, 1);
    for (unsigned k = 1; tid && made && k < jobs; k++)
        made[k] = pthread_create(&tid[k], NULL, worker, &q) == 0;
    worker(&q);
    for (unsigned k = 1; tid && made && k < jobs; k++)
        if (made[k])
            pthread_join(tid[k], NULL);
    free(tid);
    free(made);
    sigaction(SIGPIPE, &old, NULL);
    pthread_mutex_destroy(&q.lock);
    return q.failed;
}
