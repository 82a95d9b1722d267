/* casefile.c — case files read into cases: a file's text, its entries
 * (parser.c), its grid (gridspec.c), each point checked (checks.c); and
 * the case files of a command line together. */
#include "casefile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "gridspec.h"
#include "infile.h"
#include "integrator.h"
#include "parser.h"

int vb_case_parse_points(const char *path, const char *text, size_t len, vb_case **cases,
                         size_t *n, char *err, size_t errlen)
{
    *cases = NULL;
    *n = 0;
    vb_parser *p = vb_parser_read(path, text, len, err, errlen);
    if (!p)
        return -1;
    vb_grid_spec g;
    vb_case *out = NULL;
    size_t made = 0;
    if (vb_grid_spec_find(p, &g) != 0)
        goto failed;
    out = calloc(g.points, sizeof *out);
    if (!out) {
        vb_parser_fail(p, 1, "out of memory");
        goto failed;
    }
    /* each point: the entries with the point's values, checked as if the
     * file had given them */
    for (size_t pt = 0; pt < g.points; pt++) {
        size_t idx[VB_MAX_GRID_KEYS];
        vb_grid_spec_index(&g, pt, idx);
        for (int k = 0; k < g.n; k++) {
            char t[VB_GRID_VALUE_TEXT];
            vb_grid_value_text(g.x[k][idx[k]], t);
            snprintf(g.e[k]->value, sizeof g.e[k]->value, "%s", t);
        }
        vb_case *c = &out[pt];
        int rc = vb_case_from_entries(p, c, pt > 0 && out[0].trace_path ? &out[0].trace : NULL);
        made++;
        if (rc == 0 && vb_case_describe(c) != 0) {
            vb_parser_fail(p, 1, "out of memory");
            rc = -1;
        }
        if (rc == 0 && g.n) {
            c->grid = vb_grid_spec_point(&g, c->name, pt);
            char *name = c->grid ? malloc(strlen(c->name) + strlen(c->grid->label) + 2) : NULL;
            if (!name) {
                vb_parser_fail(p, 1, "out of memory");
                rc = -1;
            } else {
                sprintf(name, "%s@%s", c->name, c->grid->label);
                free(c->name);
                c->name = name;
                if (strlen(name) > VB_CASE_NAME_MAX) {
                    vb_parser_fail(p, g.e[0]->line,
                                   "the grid's points are named %.60s..., longer than %d "
                                   "characters: a shorter case file name or fewer keys",
                                   name, VB_CASE_NAME_MAX);
                    rc = -1;
                }
            }
        }
        if (rc != 0) {
            if (g.n) {
                /* which point failed, as the values it was given */
                size_t used = strlen(p->err);
                used += (size_t)snprintf(p->err + used, sizeof p->err - used, " (grid point %zu of "
                                         "%zu: ", pt + 1, g.points);
                for (int k = 0; k < g.n && used < sizeof p->err; k++)
                    used += (size_t)snprintf(p->err + used, sizeof p->err - used,
                                             "%s%s = %s on line %lu", k ? ", " : "",
                                             g.e[k]->key, g.e[k]->value, g.e[k]->line);
                if (used < sizeof p->err)
                    snprintf(p->err + used, sizeof p->err - used, ")");
            }
            goto failed;
        }
    }
    vb_grid_spec_free(&g);
    free(p);
    *cases = out;
    *n = made;
    return 0;
failed:
    snprintf(err, errlen, "%s", p->err);
    vb_case_free_points(out, made);
    vb_grid_spec_free(&g);
    free(p);
    return -1;
}

int vb_case_parse(const char *path, const char *text, size_t len, vb_case *c, char *err,
                  size_t errlen)
{
    vb_case *cases;
    size_t n;
    memset(c, 0, sizeof *c);
    if (vb_case_parse_points(path, text, len, &cases, &n, err, errlen) != 0)
        return -1;
    if (n != 1) {
        snprintf(err, errlen, "%s: a grid of %zu points, where one case is wanted", path, n);
        vb_case_free_points(cases, n);
        return -1;
    }
    *c = cases[0];
    free(cases);
    return 0;
}

static int load_text(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
    FILE *f = vb_open_input(path, "a case file", err, errlen);
    if (!f)
        return -1;
    /* case files are small; a limit keeps a wrong argument from eating memory */
    enum { LIMIT = 1 << 20 };
    char *t = malloc(LIMIT + 1);
    size_t n = t ? fread(t, 1, LIMIT + 1, f) : 0;
    int bad = !t || ferror(f);
    int saved = errno;
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: cannot read: %s", path, t ? strerror(saved) : "out of memory");
        free(t);
        return -1;
    }
    if (n > LIMIT) {
        snprintf(err, errlen, "%s: larger than %d bytes; not a case file", path, LIMIT);
        free(t);
        return -1;
    }
    *text = t;
    *len = n;
    return 0;
}

int vb_case_load_points(const char *path, vb_case **cases, size_t *n, char *err, size_t errlen)
{
    char *text;
    size_t len;
    *cases = NULL;
    *n = 0;
    if (load_text(path, &text, &len, err, errlen) != 0)
        return -1;
    int rc = vb_case_parse_points(path, text, len, cases, n, err, errlen);
    free(text);
    return rc;
}

int vb_case_load(const char *path, vb_case *c, char *err, size_t errlen)
{
    char *text;
    size_t len;
    memset(c, 0, sizeof *c);
    if (load_text(path, &text, &len, err, errlen) != 0)
        return -1;
    int rc = vb_case_parse(path, text, len, c, err, errlen);
    free(text);
    return rc;
}

void vb_case_free_points(vb_case *cases, size_t n)
{
    /* the first point owns the trace the others borrow: free it last */
    for (size_t i = n; i-- > 0;)
        vb_case_free(&cases[i]);
    free(cases);
}

int vb_case_set_add(vb_case_set *set, const char *path, char *err, size_t errlen)
{
    vb_case_file *files = realloc(set->file, (set->n_files + 1) * sizeof *files);
    if (!files) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    set->file = files;
    vb_case_file *f = &set->file[set->n_files];
    if (vb_case_load_points(path, &f->points, &f->n, err, errlen) != 0)
        return -1;
    set->n_files++;
    vb_case **all = realloc(set->all, (set->n + f->n) * sizeof *all);
    if (!all) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    set->all = all;
    for (size_t k = 0; k < f->n; k++)
        set->all[set->n++] = &f->points[k];
    return 0;
}

int vb_case_set_load(vb_case_set *set, char *const *paths, size_t n_paths, char *err,
                     size_t errlen)
{
    memset(set, 0, sizeof *set);
    for (size_t i = 0; i < n_paths; i++)
        if (vb_case_set_add(set, paths[i], err, errlen) != 0)
            return -1;
    return 0;
}

int vb_case_set_distinct(const vb_case_set *set, const char *out, int grids, char *err,
                         size_t errlen)
{
    /* the directories: each case's (a point's too), then each grid's */
    size_t n = set->n + set->n_files;
    const char **name = malloc((n ? n : 1) * sizeof *name);
    const char **path = malloc((n ? n : 1) * sizeof *path);
    if (!name || !path) {
        free(name), free(path);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < set->n; i++, m++) {
        name[m] = set->all[i]->name;
        path[m] = set->all[i]->path;
    }
    for (size_t i = 0; grids && i < set->n_files; i++)
        if (set->file[i].n && set->file[i].points[0].grid) {
            name[m] = set->file[i].points[0].grid->name;
            path[m++] = set->file[i].points[0].path;
        }
    int rc = 0;
    for (size_t i = 0; i < m && rc == 0; i++)
        for (size_t k = 0; k < i && rc == 0; k++)
            if (strcmp(name[i], name[k]) == 0) {
                snprintf(err, errlen, "%s and %s would both write %s/%s/", path[k], path[i], out,
                         name[i]);
                rc = -1;
            }
    free(name);
    free(path);
    return rc;
}

void vb_case_set_free(vb_case_set *set)
{
    for (size_t i = 0; i < set->n_files; i++)
        vb_case_free_points(set->file[i].points, set->file[i].n);
    free(set->file);
    free(set->all);
    memset(set, 0, sizeof *set);
}

int vb_case_set_runs_own(const vb_case_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        for (size_t k = 0; k < set->all[i]->n_integ; k++)
            if (!vb_integrator_builtin(set->all[i]->integ[k]))
                return 1;
    return 0;
}
