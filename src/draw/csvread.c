/* csvread.c — a results table read back for its charts (csvread.h). */
#include "csvread.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts.h"
#include "infile.h"

const char *const vb_chart_plans[VB_MAX_PANELS] = {"fixed", "random", "trace"};

static int read_all(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
    FILE *f = vb_open_input(path, "a table", err, errlen);
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            snprintf(err, errlen, "%s: out of memory", path);
            fclose(f);
            return -1;
        }
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        if (cap > VB_CSV_LIMIT) {
            snprintf(err, errlen, "%s: larger than %zu MB: not a chart's table", path,
                     VB_CSV_LIMIT >> 20);
            free(buf);
            fclose(f);
            return -1;
        }
        cap *= 2;
        char *more = realloc(buf, cap);
        if (!more)
            free(buf);
        buf = more;
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* cut one line into fields in place: their number */
static int split(char *line, char **out, int max)
{
    int n = 0;
    for (char *p = line;;) {
        char *comma = strchr(p, ',');
        if (n < max)
            out[n] = p;
        n++;
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

/* room for the cells as numbers; none (parsed at each call) when memory
 * is short */
static void numbers_alloc(vb_csv *t)
{
    size_t n = t->n_rows * (size_t)t->n_cols;
    t->num = malloc((n ? n : 1) * sizeof *t->num);
    t->parsed = calloc(n ? n : 1, 1);
    if (!t->num || !t->parsed) {
        free(t->num), free(t->parsed);
        t->num = NULL, t->parsed = NULL;
    }
}

int vb_csv_read(const char *path, vb_csv *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    size_t len;
    if (read_all(path, &t->text, &len, err, errlen) != 0)
        return -1;
    t->path = strdup(path);
    /* count lines, then cut them */
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += t->text[i] == '\n';
    char **line = malloc(lines * sizeof *line);
    t->comments = malloc(lines * sizeof *t->comments);
    if (!t->path || !line || !t->comments) {
        free(line);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    size_t n_data = 0;
    unsigned long *at = malloc(lines * sizeof *at), lineno = 0; /* a data line's number */
    if (!at) {
        free(line);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    if (len && t->text[len - 1] != '\n') {
        free(line), free(at);
        snprintf(err, errlen,
                 "%s:%zu: the last line ends without a line end: the file was cut short "
                 "(every table verletbench writes ends its lines)",
                 path, lines);
        return -1;
    }
    for (char *p = t->text; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        size_t l = strlen(p);
        if (l && p[l - 1] == '\r')
            p[l - 1] = '\0';
        lineno++;
        if (p[0] == '#')
            t->comments[t->n_comments++] = p;
        else if (p[0])
            at[n_data] = lineno, line[n_data++] = p;
        if (!nl)
            break;
        p = nl + 1;
    }
    if (n_data == 0) {
        free(line), free(at);
        snprintf(err, errlen, "%s: no header line: not a table verletbench wrote", path);
        return -1;
    }
    char *probe[1];
    t->n_cols = split(line[0], probe, 1);
    t->head = malloc((size_t)t->n_cols * sizeof *t->head);
    t->n_rows = n_data - 1;
    t->cell = malloc((t->n_rows ? t->n_rows : 1) * (size_t)t->n_cols * sizeof *t->cell);
    if (!t->head || !t->cell) {
        free(line), free(at);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    /* the header was cut already: walk its fields */
    char *p = line[0];
    for (int c = 0; c < t->n_cols; c++) {
        t->head[c] = p;
        p += strlen(p) + 1;
    }
    for (size_t r = 0; r < t->n_rows; r++) {
        char **row = t->cell + r * (size_t)t->n_cols;
        int got = split(line[r + 1], row, t->n_cols);
        if (got != t->n_cols) { /* a row cut short or run on: not what a writer prints */
            snprintf(err, errlen,
                     "%s:%lu: %d fields, the header has %d: not a row verletbench wrote", path,
                     at[r + 1], got, t->n_cols);
            free(line), free(at);
            return -1;
        }
    }
    free(line), free(at);
    numbers_alloc(t);
    return 0;
}

int vb_csv_filter(const vb_csv *t, const unsigned char *keep, vb_csv *out)
{
    memset(out, 0, sizeof *out);
    size_t n = 0;
    for (size_t r = 0; r < t->n_rows; r++)
        n += keep[r] != 0;
    out->path = strdup(t->path);
    out->comments = malloc((t->n_comments + 1) * sizeof *out->comments);
    out->head = malloc(((size_t)t->n_cols + 1) * sizeof *out->head);
    out->cell = malloc((n ? n : 1) * ((size_t)t->n_cols + 1) * sizeof *out->cell);
    if (!out->path || !out->comments || !out->head || !out->cell) {
        vb_csv_free(out);
        return -1;
    }
    memcpy(out->comments, t->comments, t->n_comments * sizeof *out->comments);
    out->n_comments = t->n_comments;
    memcpy(out->head, t->head, (size_t)t->n_cols * sizeof *out->head);
    out->n_cols = t->n_cols;
    for (size_t r = 0; r < t->n_rows; r++)
        if (keep[r])
            memcpy(out->cell + out->n_rows++ * (size_t)t->n_cols, t->cell + r * (size_t)t->n_cols,
                   (size_t)t->n_cols * sizeof *out->cell);
    numbers_alloc(out);
    return 0;
}

void vb_csv_free(vb_csv *t)
{
    free(t->path);
    free(t->text);
    free(t->comments);
    free(t->head);
    free(t->cell);
    free(t->num);
    free(t->parsed);
    memset(t, 0, sizeof *t);
}

int vb_csv_col(const vb_csv *t, const char *name)
{
    for (int c = 0; c < t->n_cols; c++)
        if (strcmp(t->head[c], name) == 0)
            return c;
    return -1;
}

const char *vb_csv_str(const vb_csv *t, size_t row, int col)
{
    return col < 0 || row >= t->n_rows ? "" : t->cell[row * (size_t)t->n_cols + (size_t)col];
}

static double parse(const char *s)
{
    if (!s[0])
        return (double)NAN;
    char *end;
    double v = strtod(s, &end);
    return *end == '\0' ? v : (double)NAN;
}

double vb_csv_num(const vb_csv *t, size_t row, int col)
{
    if (col < 0 || row >= t->n_rows)
        return (double)NAN;
    size_t k = row * (size_t)t->n_cols + (size_t)col;
    if (!t->num)
        return parse(t->cell[k]);
    if (!t->parsed[k]) {
        t->num[k] = parse(t->cell[k]);
        t->parsed[k] = 1;
    }
    return t->num[k];
}

int vb_csv_finite(const vb_csv *t, size_t row, int col, double *out)
{
    double v = vb_csv_num(t, row, col);
    if (out)
        *out = v;
    return isfinite(v);
}

int vb_csv_require(const vb_csv *t, const char *const *cols, char *err, size_t errlen)
{
    for (; *cols; cols++) {
        int c = vb_csv_col(t, *cols);
        if (c < 0) {
            snprintf(err, errlen, "%s: no column \"%s\" in the header: the chart needs it",
                     t->path, *cols);
            return -1;
        }
        size_t r = 0;
        while (r < t->n_rows && isnan(vb_csv_num(t, r, c)))
            r++;
        if (r == t->n_rows) {
            snprintf(err, errlen, "%s: no numbers in column \"%s\": the chart needs them",
                     t->path, *cols);
            return -1;
        }
    }
    return 0;
}

int vb_csv_has(const vb_csv *t, const char *col, char *err, size_t errlen)
{
    if (vb_csv_col(t, col) >= 0)
        return 0;
    snprintf(err, errlen, "%s: no column \"%s\" in the header: the chart needs it", t->path, col);
    return -1;
}

static int same_pair(const vb_group *g, const char *plan, const char *integ)
{
    return strcmp(g->plan, plan) == 0 && strcmp(g->integ, integ) == 0;
}

static int groups_fill(const vb_csv *t, vb_groups *gs, char *err, size_t errlen)
{
    int ci = vb_csv_col(t, VB_CHART_INTEGRATOR), cp = vb_csv_col(t, VB_CHART_PLAN);
    if (ci < 0 || cp < 0) {
        snprintf(err, errlen, "%s: no column \"%s\" in the header: the chart needs it", t->path,
                 ci < 0 ? VB_CHART_INTEGRATOR : VB_CHART_PLAN);
        return -1;
    }
    gs->g = malloc((t->n_rows ? t->n_rows : 1) * sizeof *gs->g);
    gs->series = malloc((t->n_rows ? t->n_rows : 1) * sizeof *gs->series);
    if (!gs->g || !gs->series) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    int present[VB_MAX_PANELS] = {0};
    for (size_t r = 0; r < t->n_rows; r++) {
        const char *plan = vb_csv_str(t, r, cp), *integ = vb_csv_str(t, r, ci);
        if (gs->n && same_pair(&gs->g[gs->n - 1], plan, integ)) {
            gs->g[gs->n - 1].last = r;
            continue;
        }
        if (vb_group_find(gs, plan, integ)) {
            snprintf(err, errlen,
                     "%s: the rows of one plan and integrator are not contiguous (%s, %s)",
                     t->path, plan, integ);
            return -1;
        }
        gs->g[gs->n++] = (vb_group){plan, integ, r, r};
        if (strcmp(integ, "exact") != 0 && vb_series_index(gs, integ) < 0)
            gs->series[gs->n_series++] = integ;
        for (int k = 0; k < VB_MAX_PANELS; k++)
            present[k] |= strcmp(plan, vb_chart_plans[k]) == 0;
    }
    for (int k = 0; k < VB_MAX_PANELS; k++)
        if (present[k])
            gs->plans[gs->n_plans++] = vb_chart_plans[k];
    return 0;
}

int vb_groups_make(const vb_csv *t, vb_groups *gs, char *err, size_t errlen)
{
    memset(gs, 0, sizeof *gs);
    if (groups_fill(t, gs, err, errlen) == 0)
        return 0;
    vb_groups_free(gs);
    return -1;
}

void vb_groups_free(vb_groups *gs)
{
    free(gs->g);
    free(gs->series);
    memset(gs, 0, sizeof *gs);
}

const vb_group *vb_group_find(const vb_groups *gs, const char *plan, const char *integ)
{
    for (size_t k = 0; k < gs->n; k++)
        if (same_pair(&gs->g[k], plan, integ))
            return &gs->g[k];
    return NULL;
}

int vb_series_index(const vb_groups *gs, const char *integ)
{
    for (size_t k = 0; k < gs->n_series; k++)
        if (strcmp(gs->series[k], integ) == 0)
            return (int)k;
    return -1;
}
