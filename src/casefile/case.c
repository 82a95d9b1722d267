/* case.c — a case, once read: its label, its engines, and its end. */
#include "case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "composed.h"
#include "engine.h"
#include "loop.h"

int vb_case_add_engine(vb_case *c, vb_engine *e, char *err, size_t errlen)
{
    if (c->n_engines == VB_MAX_ENGINES) {
        snprintf(err, errlen, "engine %s: at most %d engines a case", e->name, VB_MAX_ENGINES);
        return -1;
    }
    for (size_t k = 0; k < c->n_integ; k++)
        if (!strcmp(c->integ[k]->name, e->name)) {
            snprintf(err, errlen, "engine %s: the name is taken by %s", e->name,
                     vb_engine_of(c->integ[k]) ? "another engine" : "an integrator");
            return -1;
        }
    const vb_integrator **integ = realloc(c->integ, (c->n_integ + 1) * sizeof *integ);
    vb_engine **engines = integ ? realloc(c->engines, (c->n_engines + 1) * sizeof *engines) : NULL;
    if (integ)
        c->integ = integ;
    if (!engines) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    c->engines = engines;
    c->engines[c->n_engines++] = e;
    c->integ[c->n_integ++] = &e->integ;
    if (vb_case_describe(c) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

int vb_case_describe(vb_case *c)
{
    vb_profile_free(&c->profile);
    return vb_profile_make(&c->profile, &c->model, c->integ, c->n_integ, c->t_end);
}

/* A loop or a METHOD+HANDLER row is made for its case and owned by it
 * (an engine is freed with c->engines, a plain method is static). */
static void free_owned(const vb_integrator *g)
{
    if (vb_loop_of(g))
        vb_loop_free((vb_loop *)(void *)g);
    else if (vb_composed_of(g))
        vb_composed_free((vb_composed *)(void *)g);
}

int vb_case_wrap_methods(vb_case *c, size_t n,
                         const vb_integrator *(*make)(const vb_integrator *inner, size_t k,
                                                      const void *ctx),
                         const void *ctx)
{
    size_t total = c->n_integ * n;
    const vb_integrator **integ = calloc(total ? total : 1, sizeof *integ);
    if (!integ)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < c->n_integ; i++)
        for (size_t k = 0; k < n; k++) {
            const vb_integrator *g = make(c->integ[i], k, ctx);
            if (!g) {
                for (size_t j = 0; j < m; j++)
                    free_owned(integ[j]);
                free(integ);
                return -1;
            }
            integ[m++] = g;
        }
    free(c->integ);
    c->integ = integ;
    c->n_integ = m;
    return 0;
}

int vb_case_engines_only(vb_case *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n_integ; i++)
        if (vb_engine_of(c->integ[i]))
            c->integ[k++] = c->integ[i];
        else
            free_owned(c->integ[i]); /* dropped here, so not freed by vb_case_free */
    c->n_integ = k;
    return vb_case_describe(c);
}

int vb_case_add_engine_specs(vb_case *c, const vb_engine_spec *spec, size_t n, double timeout,
                             int timeout_given, int engines_only, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        char why[512];
        vb_engine *e = vb_engine_from_spec(&spec[i], timeout, NULL, why, sizeof why);
        if (e && e->dir && c->grid) {
            /* a grid's trajectories: a directory a point, as `problem`
             * writes the requests, DIR/NAME@KEY=VALUE/RUN.csv */
            size_t len = strlen(e->dir) + strlen(c->name) + 2;
            char *dir = malloc(len);
            struct stat st;
            if (dir) {
                snprintf(dir, len, "%s/%s", e->dir, c->name);
                free(e->dir);
                e->dir = dir;
                /* said now, not as every run failing on its missing file */
                if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
                    snprintf(why, sizeof why, "--trajectories: %.200s: no such directory: a "
                                              "grid's trajectories are read from a directory a "
                                              "point (DIR/%s/RUN.csv, as problem writes them): "
                                              "DIR is the directory that holds them all",
                             dir, c->name);
                    vb_engine_free(e);
                    e = NULL;
                }
            } else {
                vb_engine_free(e);
                e = NULL;
                snprintf(why, sizeof why, "out of memory");
            }
        }
        if (!e || vb_case_add_engine(c, e, why, sizeof why) != 0) {
            vb_engine_free(e);
            snprintf(err, errlen, "%s: %s", c->path, why);
            return -1;
        }
    }
    if (timeout_given)
        for (size_t i = 0; i < c->n_engines; i++)
            c->engines[i]->timeout = timeout;
    if (engines_only) {
        if (vb_case_engines_only(c) != 0) {
            snprintf(err, errlen, "%s: out of memory", c->path);
            return -1;
        }
        if (c->n_integ == 0) {
            snprintf(err, errlen, "%s: --engines-only, but no engine: give --engine or "
                                  "--trajectories, or an [engines] section",
                     c->path);
            return -1;
        }
    }
    return 0;
}

void vb_case_free(vb_case *c)
{
    vb_model_free(&c->model);
    free(c->path);
    free(c->name);
    free(c->description);
    free(c->trace_path);
    if (!c->trace_borrowed)
        vb_trace_free(&c->trace);
    if (c->grid)
        free(c->grid->name);
    free(c->grid);
    for (size_t i = 0; c->integ && i < c->n_integ; i++)
        free_owned(c->integ[i]);
    free(c->integ);
    for (size_t i = 0; i < c->n_engines; i++)
        vb_engine_free(c->engines[i]);
    free(c->engines);
    vb_profile_free(&c->profile);
    memset(c, 0, sizeof *c);
}

const char *vb_case_label(const vb_case *c, char *buf, size_t len)
{
    if (!c->grid)
        return c->path;
    snprintf(buf, len, "%s@%s", c->path, c->grid->label);
    return buf;
}
