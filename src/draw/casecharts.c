/* casecharts.c — what is drawn of a results directory (casecharts.h). */
#include "casecharts.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chartkinds.h"
#include "outfile.h"
#include "charts.h"
#include "grid.h"
#include "tables.h"

static int exists(const char *dir, const char *name, const char *file)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s/%s", dir, name, file);
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* a case name as run writes them: letters, digits and ._+@=,- */
static int case_name_ok(const char *s)
{
    if (!s[0])
        return 0;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+@=,-", *s))
            return 0;
    return 1;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

size_t vb_drawn_cases(const char *results, char ***names)
{
    size_t n = 0, cap = 64;
    char **out = malloc(cap * sizeof *out);
    *names = out;
    if (!out)
        return 0;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/summary.md", results);
    FILE *f = fopen(path, "r");
    if (f) {
        /* the cases of the last run, so a case directory left from an older
         * run is not reported as if it were current (a grid's points are
         * NAME@KEY=VALUE,...; its own tables are NAME) */
        char line[4096];
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = '\0';
            if (strncmp(line, "## ", 3) != 0 || !case_name_ok(line + 3))
                continue;
            if (!exists(results, line + 3, vb_conv_schema.file) &&
                !exists(results, line + 3, vb_grid_schema.file) &&
                !exists(results, line + 3, vb_polhode_schema.file) &&
                !exists(results, line + 3, vb_motion_schema.file))
                continue;
            if (n == cap) {
                char **more = realloc(out, (cap *= 2) * sizeof *more);
                if (!more)
                    break;
                *names = out = more;
            }
            out[n++] = strdup(line + 3);
        }
        fclose(f);
        return n;
    }
    /* no summary: every case directory, those with convergence.csv first,
     * then the grids, then the rigid bodies' */
    const char *const marks[] = {vb_conv_schema.file, vb_grid_schema.file, vb_polhode_schema.file,
                                 vb_motion_schema.file};
    struct dirent **ents = NULL;
    int ne = scandir(results, &ents, NULL, by_name);
    for (int pass = 0; pass < 4; pass++)
        for (int i = 0; i < ne; i++) {
            const char *d = ents[i]->d_name;
            if (d[0] == '.' || !exists(results, d, marks[pass]) ||
                (pass >= 2 && exists(results, d, vb_conv_schema.file)))
                continue;
            if (n == cap) {
                char **more = realloc(out, (cap *= 2) * sizeof *more);
                if (!more)
                    break;
                *names = out = more;
            }
            out[n++] = strdup(d);
        }
    for (int i = 0; i < ne; i++)
        free(ents[i]);
    free(ents);
    return n;
}

void vb_chart_case_path(const vb_chart_case *cc, const vb_schema *table, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s/%s", cc->results, cc->name, table->file);
}

int vb_chart_case_has(const vb_chart_case *cc, const vb_schema *table)
{
    return exists(cc->results, cc->name, table->file);
}

int vb_chart_case_has_its(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    return vb_chart_case_has(cc, kind->table);
}

int vb_chart_case_header(const vb_chart_case *cc, const vb_schema *table, const char *col,
                         int *rows)
{
    char path[PATH_MAX * 2];
    vb_chart_case_path(cc, table, path, sizeof path);
    FILE *f = fopen(path, "r");
    *rows = 0;
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    int found = 0, header = 0;
    while (getline(&line, &cap, f) > 0) {
        if (line[0] == '#')
            continue;
        if (header) {
            *rows = 1;
            break;
        }
        header = 1;
        line[strcspn(line, "\r\n")] = '\0';
        for (char *save = NULL, *c = strtok_r(line, ",", &save); c && col; c = strtok_r(NULL, ",", &save))
            found |= !strcmp(c, col);
    }
    free(line);
    fclose(f);
    return found;
}

int vb_chart_case_add(const vb_chart_case *cc, vb_batch *b, const vb_chart_kind *kind,
                      const char *stem, const char *title, const char *arg, const char *caption)
{
    char table[PATH_MAX * 2], target[PATH_MAX * 2];
    vb_chart_case_path(cc, kind->table, table, sizeof table);
    snprintf(target, sizeof target, "%s/%s/%s.png", cc->out, cc->name, stem);
    return vb_batch_add(b, kind, table, target, title ? title : cc->name, arg, stem, caption);
}

static int case_charts(const char *results, const char *out, const char *name, const vb_pick *pick,
                       vb_batch *b);

int vb_case_charts(const char *results, const char *out, const char *name, const vb_pick *pick,
                   vb_batch *b)
{
    int rc = case_charts(results, out, name, pick, b);
    if (rc == 0 && pick && pick->methods) {
        /* the report says which curves a chart holds */
        for (size_t i = 0; i < b->n; i++) {
            vb_chart_spec *c = &b->charts[i];
            size_t len = (c->caption ? strlen(c->caption) : 0) + strlen(pick->methods) + 64;
            char *more = malloc(len);
            if (!more)
                return -1;
            snprintf(more, len, "%s; the methods %s (draw --methods)", c->caption ? c->caption : "",
                     pick->methods);
            free(c->caption);
            c->caption = more;
        }
    }
    return rc || vb_batch_pick(b, pick ? pick->dt : 0.0, pick ? pick->methods : NULL) ? -1 : 0;
}

static int case_charts(const char *results, const char *out, const char *name, const vb_pick *pick,
                       vb_batch *b)
{
    b->name = strdup(name);
    if (!b->name)
        return -1;
    vb_chart_case cc = {.results = results, .out = out, .name = name, .pick = pick};
    cc.group = vb_chart_case_has(&cc, &vb_grid_schema)      ? VB_CHARTS_GRID
               : vb_chart_case_has(&cc, &vb_motion_schema)  ? VB_CHARTS_BODY_CONTACT
               : vb_chart_case_has(&cc, &vb_polhode_schema) ? VB_CHARTS_BODY
                                                            : VB_CHARTS_PARTICLES;
    int rc = 0;
    for (size_t i = 0; i < vb_chart_kind_count(); i++) {
        const vb_chart_kind *k = vb_chart_kind_at(i);
        if (k->group != cc.group)
            continue;
        if (k->add)
            rc |= k->add(&cc, k, b);
        else if (!k->applies || k->applies(&cc, k))
            rc |= vb_chart_case_add(&cc, b, k, k->name, NULL, NULL, k->caption);
    }
    return rc;
}

int vb_article_charts(const char *results, const char *out, vb_batch *b, char *err, size_t errlen)
{
    static const char *const cases[] = {"projectile", "spring", "orbit"};
    char path[PATH_MAX * 2];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/article-%s/%s", results, cases[i], vb_paths_schema.file);
        if (access(path, R_OK) != 0) {
            snprintf(err, errlen,
                     "%s missing: run 'verletbench run cases/article-%s.case --out %s' (or 'make "
                     "article')",
                     path, cases[i], results);
            return -1;
        }
    }
    static const struct {
        const char *file, *model, *plan, *integ, *title;
    } figs[] = {
        {"fig01-fixed-projectile", "projectile", "fixed", "euler-semi verlet", "Fig. 1  projectile"},
        {"fig02-fixed-spring", "spring", "fixed", "euler-semi verlet", "Fig. 2  spring"},
        {"fig03-fixed-orbit", "orbit", "fixed", "euler-semi verlet", "Fig. 3  orbit"},
        {"fig04-wrong-start", "projectile", "fixed", "verlet-naive verlet",
         "Fig. 4  projectile, x(-1) = x(0) - v(0) dt"},
        {"fig05-random-projectile", "projectile", "random", "tcv verlet euler-semi", "Fig. 5  projectile"},
        {"fig06-random-spring", "spring", "random", "tcv verlet euler-semi", "Fig. 6  spring"},
        {"fig07-random-orbit", "orbit", "random", "tcv verlet euler-semi", "Fig. 7  orbit"},
        {"fig08-random-projectile-var", "projectile", "random", "tcv verlet euler-semi verlet-var",
         "Fig. 8  projectile, with verlet-var"},
        {"fig09-random-spring-var", "spring", "random", "tcv verlet euler-semi verlet-var",
         "Fig. 9  spring, with verlet-var"},
        {"fig10-random-orbit-var", "orbit", "random", "tcv verlet euler-semi verlet-var",
         "Fig. 10  orbit, with verlet-var"},
    };
    b->name = strdup("article");
    char target[PATH_MAX * 2];
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
        snprintf(path, sizeof path, "%s/article-%s/%s", results, figs[i].model,
                 vb_paths_schema.file);
        snprintf(target, sizeof target, "%s/%s.png", out, figs[i].file);
        if (vb_batch_add(b, vb_chart_kind_named("path"), path, target, figs[i].title, figs[i].plan, figs[i].file,
                         NULL) != 0 ||
            !(b->charts[b->n - 1].integrators = strdup(figs[i].integ)) ||
            !(b->charts[b->n - 1].layout = strdup("single"))) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    /* not in the article: how the errors scale, the question its graphs
     * could not answer */
    snprintf(path, sizeof path, "%s/article-spring/%s", results, vb_conv_schema.file);
    snprintf(target, sizeof target, "%s/fig11-orders-spring.png", out);
    if (vb_batch_add(b, vb_chart_kind_named("convergence"), path, target, "Fig. 11  spring: error against step size",
                     NULL, "fig11-orders-spring", NULL) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

int vb_report_writable(const char *results, char *err, size_t errlen)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/REPORT.md", results);
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s is a directory: not replacing it", path);
        return -1;
    }
    /* not over a read-only file (as `run` treats its tables), even as root */
    if (access(path, W_OK) != 0 || (st.st_mode & 0222) == 0) {
        snprintf(err, errlen, "%s is read-only: not replacing it (chmod u+w it to allow)", path);
        return -1;
    }
    return 0;
}

/* a/b -> the path of b relative to a, both absolute and canonical */
static void relative(const char *from, const char *to, char *buf, size_t len)
{
    size_t common = 0, i = 0;
    for (; from[i] && to[i] && from[i] == to[i]; i++)
        if (from[i] == '/')
            common = i;
    if ((!from[i] || from[i] == '/') && (!to[i] || to[i] == '/'))
        common = i;
    buf[0] = '\0';
    for (const char *p = from + common; *p; p++)
        if (*p == '/')
            strncat(buf, buf[0] ? "/.." : "..", len - strlen(buf) - 1);
    const char *rest = to + common + (to[common] == '/');
    if (rest[0])
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "/" : "", rest);
    if (!buf[0])
        snprintf(buf, len, ".");
}

/* percent-encoded as Python's urllib.parse.quote does: a space, a bracket
 * or a newline in it would end the Markdown link */
static void quote(const char *s, char *buf, size_t len)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 4 < len; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("_.-~/", *p))
            buf[n++] = (char)*p;
        else
            n += (size_t)snprintf(buf + n, len - n, "%%%02X", *p);
    }
    buf[n] = '\0';
}

/* a case's "## NAME" heading as GitHub makes its anchor: lower case, only
 * letters, digits, '-' and '_' kept (a grid point's "spring@k=1.5" is
 * #springk15) */
static void anchor_of(const char *name, char *buf, size_t len)
{
    size_t n = 0;
    for (; *name && n + 1 < len; name++) {
        char c = *name >= 'A' && *name <= 'Z' ? (char)(*name - 'A' + 'a') : *name;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')
            buf[n++] = c;
    }
    buf[n] = '\0';
}

static void copy_file(FILE *to, const char *path, int from_line, int to_line)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    int k = 0;
    while (getline(&line, &cap, f) > 0) {
        k++;
        if (k >= from_line && (to_line <= 0 || k <= to_line))
            fputs(line, to);
    }
    free(line);
    fclose(f);
}

int vb_write_report(const char *results, const char *out, char *const *cases, size_t n,
                    const vb_batch *batches, char *err, size_t errlen)
{
    char path[PATH_MAX + 32], rel[PATH_MAX * 3], q[PATH_MAX * 3];
    snprintf(path, sizeof path, "%s/REPORT.md", results);
    char *ra = realpath(results, NULL), *rb = realpath(out, NULL);
    if (ra && rb)
        relative(ra, rb, rel, sizeof rel);
    else
        snprintf(rel, sizeof rel, "../%s", out);
    free(ra);
    free(rb);
    quote(rel, q, sizeof q);
    vb_outfile o;
    if (vb_outfile_open(&o, path, err, errlen) != 0)
        return -1;
    FILE *f = o.f;
    fputs("# verletbench report\n\n", f);
    snprintf(path, sizeof path, "%s/summary.md", results);
    copy_file(f, path, 3, 4);
    fputc('\n', f);
    if (!batches)
        fputs("> Charts were skipped: gnuplot was not found when this report was made "
              "(`apt-get install gnuplot-nox`, then `make plots`).\n\n",
              f);
    /* links to the headings, a repeated anchor numbered -1, -2, ... */
    char **seen = calloc(n + 1, sizeof *seen);
    fputs("Cases:", f);
    for (size_t i = 0; i < n; i++) {
        char a[1024], b[1100];
        anchor_of(cases[i], a, sizeof a);
        snprintf(b, sizeof b, "%s", a);
        for (int k = 1;; k++) {
            size_t j = 0;
            while (j < i && seen && seen[j] && strcmp(seen[j], b) != 0)
                j++;
            if (j == i)
                break;
            snprintf(b, sizeof b, "%s-%d", a, k);
        }
        if (seen)
            seen[i] = strdup(b);
        fprintf(f, " [%s](#%s)", cases[i], b);
    }
    fputs("\n\n", f);
    for (size_t i = 0; seen && i < n; i++)
        free(seen[i]);
    free(seen);
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s/summary.md", results, cases[i]);
        copy_file(f, path, 1, 0);
        fputc('\n', f);
        for (size_t k = 0; batches && k < batches[i].n; k++) {
            const vb_chart_spec *c = &batches[i].charts[k];
            if (access(c->target, F_OK) != 0)
                continue;
            fprintf(f, "**%s**\n\n![%s: %s](%s/%s/%s.png)\n\n", c->caption, cases[i], c->caption, q,
                    cases[i], c->stem);
        }
    }
    return vb_outfile_commit(&o, err, errlen);
}
