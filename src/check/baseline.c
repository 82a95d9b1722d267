/* baseline.c — a baseline's tables read back: '#' lines, a header, plain
 * fields, every cell held to what the writer prints there; the rows of
 * runs.csv, sorted by what identifies them (orders.csv's: baseline_orders.c).  A
 * table that cannot be read as such is refused, never taken as "nothing
 * got worse". */
#include "baseline.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handler.h"
#include "infile.h"
#include "loop.h"
#include "truth.h"

int vb_read_file(const char *path, size_t limit, char **text, size_t *len, char *err,
                 size_t errlen)
{
    *text = NULL;
    *len = 0;
    FILE *f = vb_open_input(path, "a table", err, errlen);
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f)) {
                snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
                free(buf);
                fclose(f);
                return -1;
            }
            break;
        }
        if (cap >= limit) {
            snprintf(err, errlen, "%s: larger than %zu bytes: not a table verletbench wrote", path,
                     limit);
            free(buf);
            fclose(f);
            return -1;
        }
        cap = cap * 2 > limit ? limit : cap * 2;
        char *more = realloc(buf, cap + 1);
        if (!more)
            free(buf);
        buf = more;
    }
    fclose(f);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* ---- a CSV table as `run` writes it: '#' lines, a header, plain fields ---- */

void vb_table_free(vb_table *t)
{
    for (size_t i = 0; i < t->nrow; i++)
        free(t->rows[i]);
    free(t->rows);
    free(t->line);
    free(t->head);
    free(t->comments);
    free(t->comment_line);
    free(t->buf);
    memset(t, 0, sizeof *t);
}

int vb_compare_bad(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return VB_COMPARE_BAD;
}

int vb_compare_oom(char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory");
    return VB_COMPARE_OOM;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every column once: a header naming one twice would have column() read
 * the first and leave the second unread, so a table could carry a doctored
 * copy beside the real one (or the other way round). */
static int unique_columns(const vb_table *t, char *err, size_t errlen)
{
    char **names = malloc(t->ncol * sizeof *names);
    if (!names)
        return vb_compare_oom(err, errlen);
    memcpy(names, t->head, t->ncol * sizeof *names);
    qsort(names, t->ncol, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 1; i < t->ncol && rc == 0; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            rc = vb_compare_bad(
                err, errlen,
                "%s:%lu: column '%.60s' appears twice in the header: not a table verletbench "
                "wrote",
                t->path, t->head_line, names[i]);
    free(names);
    return rc;
}

/* Fields are split at every comma: the tables never quote. */
int vb_table_parse(vb_text in, vb_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->path = in.path;
    if (memchr(in.text, '\0', in.len))
        return vb_compare_bad(
            err, errlen, "%s: binary data (a NUL byte): not a table verletbench wrote", in.path);
    t->buf = malloc(in.len + 1);
    size_t lines = 1;
    for (size_t i = 0; i < in.len; i++)
        lines += in.text[i] == '\n';
    t->comments = calloc(lines, sizeof *t->comments);
    t->comment_line = calloc(lines, sizeof *t->comment_line);
    t->rows = calloc(lines, sizeof *t->rows);
    t->line = calloc(lines, sizeof *t->line);
    if (!t->buf || !t->comments || !t->comment_line || !t->rows || !t->line) {
        vb_table_free(t);
        return vb_compare_oom(err, errlen);
    }
    memcpy(t->buf, in.text, in.len);
    t->buf[in.len] = '\0';
    char *line = t->buf;
    if (in.len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
        line += 3; /* a byte-order mark an editor may have added */
    unsigned long lineno = 0;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r')
            line[--n] = '\0'; /* CRLF, as a checkout on another system may have it */
        if (line[0] == '#') {
            t->comment_line[t->n_comments] = lineno;
            t->comments[t->n_comments++] = line;
        } else if (line[0]) {
            size_t nf = 1;
            for (char *p = line; *p; p++)
                nf += *p == ',';
            char **field = malloc(nf * sizeof *field);
            if (!field) {
                vb_table_free(t);
                return vb_compare_oom(err, errlen);
            }
            size_t k = 0;
            field[k++] = line;
            for (char *p = line; *p; p++)
                if (*p == ',') {
                    *p = '\0';
                    field[k++] = p + 1;
                }
            if (!t->head) {
                t->head = field;
                t->head_line = lineno;
                t->ncol = nf;
                int rc = unique_columns(t, err, errlen);
                if (rc != 0) {
                    vb_table_free(t);
                    return rc;
                }
            } else if (nf != t->ncol) {
                free(field);
                int rc = vb_compare_bad(err, errlen, "%s:%lu: %zu fields, the header has %zu",
                                        in.path, lineno, nf, t->ncol);
                vb_table_free(t);
                return rc;
            } else {
                t->line[t->nrow] = lineno;
                t->rows[t->nrow++] = field;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    if (!t->head) {
        vb_table_free(t);
        return vb_compare_bad(err, errlen, "%s: no header line: not a table verletbench wrote",
                              in.path);
    }
    return 0;
}

static int column(const vb_table *t, const char *name)
{
    for (size_t i = 0; i < t->ncol; i++)
        if (strcmp(t->head[i], name) == 0)
            return (int)i;
    return -1;
}

/* the column or a message naming it */
int vb_need_column(const vb_table *t, const char *name, int *col, char *err, size_t errlen)
{
    *col = column(t, name);
    if (*col < 0)
        return vb_compare_bad(err, errlen,
                              "%s: no column '%s' in the header: not a table verletbench wrote",
                              t->path, name);
    return 0;
}

static int digit(char c) { return c >= '0' && c <= '9'; }

/* The text of a number as the writer prints it (%.17g, %.6f, %.3f): an
 * optional '-' where negative values occur, digits, an optional fraction,
 * an optional exponent.  strtod alone would also take leading blanks, a
 * '+', hexadecimal ("0x1p-3"), "nan" and "infinity", none of which the
 * writer ever writes: a cell holding one was written by someone else. */
static int number_text(const char *s, int allow_minus)
{
    const char *p = s;
    if (*p == '-' && allow_minus)
        p++;
    if (!digit(*p))
        return 0;
    while (digit(*p))
        p++;
    if (*p == '.') {
        if (!digit(*++p))
            return 0;
        while (digit(*p))
            p++;
    }
    if (*p == 'e') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!digit(*p))
            return 0;
        while (digit(*p))
            p++;
    }
    return *p == '\0';
}

/* A number as the tables print it (%.17g), >= 0; "inf" only where allowed
 * (the errors of a run that did not finish). */
int vb_cell_number(const char *s, int allow_inf, double *out)
{
    if (allow_inf && strcmp(s, "inf") == 0) {
        *out = INFINITY;
        return 0;
    }
    if (!number_text(s, 0))
        return -1;
    double x = strtod(s, NULL);
    if (!isfinite(x)) /* "1e999": out of range */
        return -1;
    *out = x;
    return 0;
}

/* A finite number that may be negative (a fitted order). */
int vb_cell_signed(const char *s, double *out)
{
    if (!number_text(s, 1))
        return -1;
    double x = strtod(s, NULL);
    if (!isfinite(x))
        return -1;
    *out = x;
    return 0;
}

/* A count as %llu or %d prints it: digits only, no sign, no blank, no
 * leading zero. */
int vb_cell_count(const char *s, unsigned long long *out)
{
    for (const char *p = s; *p; p++)
        if (!digit(*p))
            return -1;
    if (!s[0] || (s[0] == '0' && s[1]))
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, NULL, 10);
    if (errno == ERANGE)
        return -1;
    *out = x;
    return 0;
}

/* integrator names are what a plugin may register, a-z 0-9 - _ (at most
 * 40), and a method with parameters set, NAME:KEY=VALUE[:KEY=VALUE] with
 * values as the shortest text of a double (at most VB_METHOD_NAME_MAX in
 * all, integrator.h: every name the writer prints, whole) */
int vb_check_name_valid(const char *s)
{
    /* a frame loop's row, METHOD@LOOP (loop.h): "tcv@substeps(4)",
     * "velocity-verlet@accumulator(1/120;interpolate;max=8)" */
    const char *at = strchr(s, '@');
    if (at) {
        size_t m = strlen(at + 1);
        if (m == 0 || m > VB_LOOP_PART_MAX ||
            strspn(at + 1, "abcdefghijklmnopqrstuvwxyz0123456789-.+/;=()") != m)
            return 0;
        char method[VB_METHOD_NAME_MAX + 1];
        if ((size_t)(at - s) >= sizeof method)
            return 0;
        memcpy(method, s, (size_t)(at - s));
        method[at - s] = '\0';
        return vb_check_name_valid(method);
    }
    /* a method inside a contact handler, METHOD+HANDLER (composed.h):
     * "velocity-verlet+toi", "jakobsen:sweeps=10+project" */
    const char *plus = strrchr(s, '+');
    if (plus && vb_contact_handler_find(plus + 1)) {
        char method[VB_METHOD_NAME_MAX + 1];
        if ((size_t)(plus - s) >= sizeof method)
            return 0;
        memcpy(method, s, (size_t)(plus - s));
        method[plus - s] = '\0';
        return vb_check_name_valid(method);
    }
    size_t n = strlen(s), base = strcspn(s, ":");
    if (n == 0 || n > VB_METHOD_NAME_MAX || base == 0 || base > 40)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int plain = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!plain && !(i >= base && (c == ':' || c == '=' || c == '.' || c == '+' || c == 'e' ||
                                       (c >= 'A' && c <= 'Z'))))
            return 0;
    }
    return 1;
}

int vb_plan_name_valid(const char *s)
{
    return !strcmp(s, "fixed") || !strcmp(s, "random") || !strcmp(s, "trace");
}

/* ---- the parameters a table was made with ---- */

/* The comment lines that fix what was run: "# model=..." and "# dt=...",
 * with a trace named by its file name only (the case may be given by
 * another path); with VB_COMPARE_SHARED_LEVELS, without "halvings=N": the
 * step sizes both sides have are the same runs. */
void vb_table_provenance(const vb_table *t, unsigned flags, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < t->n_comments && used < len; i++) {
        const char *c = t->comments[i];
        if (strncmp(c, "# model=", 8) != 0 && strncmp(c, "# dt=", 5) != 0)
            continue;
        char line[1024];
        snprintf(line, sizeof line, "%s", c);
        char *tr = strstr(line, "trace=");
        if (tr) {
            char *end = strchr(tr, ' ');
            char *slash = NULL;
            for (char *p = tr + 6; *p && (!end || p < end); p++)
                if (*p == '/')
                    slash = p;
            if (slash)
                memmove(tr + 6, slash + 1, strlen(slash + 1) + 1);
        }
        char *hv = strstr(line, " halvings=");
        if (hv && (flags & VB_COMPARE_SHARED_LEVELS)) {
            char *end = strchr(hv + 1, ' ');
            memmove(hv, end ? end : hv + strlen(hv), strlen(end ? end : hv + strlen(hv)) + 1);
        }
        int n = snprintf(out + used, len - used, "%s\n", line);
        used += n > 0 ? (size_t)n : 0;
    }
}

/* The "# integrators=a,b,c" line, or NULL. */
const char *vb_table_integrators(const vb_table *t)
{
    for (size_t i = 0; i < t->n_comments; i++)
        if (strncmp(t->comments[i], "# integrators=", 14) == 0)
            return t->comments[i] + 14;
    return NULL;
}

int vb_in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if (k == n && strncmp(p, name, n) == 0)
            return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* Whether the ", "-separated list [p, end) holds the item `want`. */
static int in_items(const char *p, const char *end, const char *want)
{
    size_t n = strlen(want);
    while (p < end) {
        const char *e = strstr(p, ", ");
        if (!e || e > end)
            e = end;
        if ((size_t)(e - p) == n && strncmp(p, want, n) == 0)
            return 1;
        p = e + (e < end ? 2 : 0);
    }
    return 0;
}

/* An engine's declarations in its provenance line (output/provenance.c,
 * engine.c): the last "; protocol " part, as the command before them may
 * hold anything and the engine=NAME@VERSION no space; NULL when the table
 * has no such line for `integ`. */
static const char *engine_declarations(const vb_table *t, const char *integ)
{
    size_t n = strlen(integ);
    const char *decl = NULL;
    for (size_t i = 0; i < t->n_comments && !decl; i++) {
        const char *c = t->comments[i];
        if (strncmp(c, "# engine ", 9) != 0 || strncmp(c + 9, integ, n) != 0 ||
            strncmp(c + 9 + n, ": ", 2) != 0)
            continue;
        for (const char *p = strstr(c, "; protocol "); p; p = strstr(p + 1, "; protocol "))
            decl = p + 2;
    }
    return decl;
}

vb_precision vb_table_precision(const vb_table *t, const char *integ)
{
    /* a built-in method with its parameters: NAME:KEY=VALUE:KEY=VALUE */
    for (const char *p = strchr(integ, ':'); p; p = strchr(p + 1, ':'))
        if (!strncmp(p + 1, "precision=float32", 17) && (p[18] == ':' || p[18] == '\0'))
            return VB_FLOAT32;
    const char *decl = engine_declarations(t, integ);
    return decl && in_items(decl, decl + strlen(decl), "float32") ? VB_FLOAT32 : VB_FLOAT64;
}

int vb_table_no_velocity(const vb_table *t, const char *integ)
{
    const char *decl = engine_declarations(t, integ);
    return decl && in_items(decl, decl + strlen(decl), "velocity none");
}

/* ---- runs ---- */

/* A metric's cells are filled where the writer fills them (vb_filled,
 * runs_table.c): a metric blank where it is always printed is damage, not
 * a metric the case lacks: a baseline blanked in a whole column would
 * otherwise compare nothing there. */

int vb_check_metric_index(const char *name)
{
    for (int m = 0; m < vb_check_metrics(); m++)
        if (!strcmp(vb_check_metric(m), name))
            return m;
    return -1;
}

/* Where the column of that name is in the table (col: by the schema's
 * column), -1 where the table has none. */
static int run_col(const int *col, const char *name)
{
    return col[vb_schema_find(&vb_runs_schema, name)];
}

static int by_run_key(const void *a, const void *b)
{
    const vb_run_rec *x = a, *y = b;
    int c = strcmp(x->integ, y->integ);
    if (!c)
        c = strcmp(x->plan, y->plan);
    if (!c)
        c = (x->level > y->level) - (x->level < y->level);
    if (!c)
        c = strcmp(x->seed, y->seed);
    return c;
}

/* A cell that is not what the writer puts there: file, line, column. */
int vb_table_bad_cell(const vb_table *t, size_t row, int col, const char *want, char *err,
                      size_t errlen)
{
    return vb_compare_bad(err, errlen, "%s:%lu: column %s: '%.60s' is not %s", t->path,
                          t->line[row], t->head[col], t->rows[row][col], want);
}

/* A table of a case with a frame loop: a row of one (METHOD@LOOP), or its
 * '# integrators=' line naming one. */
static int frame_loop_table(const vb_table *t, int ci)
{
    const char *list = vb_table_integrators(t);
    if (list && strchr(list, '@'))
        return 1;
    for (size_t i = 0; i < t->nrow; i++)
        if (strchr(t->rows[i][ci], '@'))
            return 1;
    return 0;
}

/* col[k]: where the schema's column k is (vb_runs_schema, the writer's
 * every column), -1 for the frame loop's columns of a table without one;
 * every column of the header one of the schema's. */
static int run_header(const vb_table *t, int col[VB_SCHEMA_MAX_COLUMNS], int *loops,
                      int *rigid, char *err, size_t errlen)
{
    const vb_schema *s = &vb_runs_schema;
    int ci;
    if (vb_need_column(t, "integrator", &ci, err, errlen) != 0)
        return VB_COMPARE_BAD;
    *loops = frame_loop_table(t, ci);
    /* a rigid body's table has its view's columns, every one of them */
    *rigid = 0;
    for (size_t k = 0; k < s->n; k++)
        if ((s->col[k].in & VB_RUNS_RIGID) && column(t, s->col[k].name) >= 0)
            *rigid = 1;
    for (size_t k = 0; k < s->n; k++) {
        const char *name = s->col[k].name;
        col[k] = column(t, name);
        if (s->col[k].in & VB_RUNS_RIGID) {
            if (col[k] < 0 && *rigid)
                return vb_compare_bad(err, errlen,
                                      "%s: no column '%s' in the header, which a rigid body's "
                                      "table has: not a table verletbench wrote",
                                      t->path, name);
            continue;
        }
        int drawn = !vb_column_in(&s->col[k], VB_RUNS_SWEEP); /* a frame loop's */
        if (col[k] < 0 && (!drawn || *loops))
            return vb_compare_bad(
                err, errlen, "%s: no column '%s' in the header: not a table verletbench wrote%s",
                t->path, name, drawn ? " (a case with a frame loop has it)" : "");
        if (col[k] >= 0 && drawn && !*loops)
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: column '%s', which only a case with a frame loop has, "
                                  "but no integrator is one (METHOD@LOOP): not a table "
                                  "verletbench wrote",
                                  t->path, t->head_line, name);
    }
    for (size_t i = 0; i < t->ncol; i++)
        if (vb_schema_find(s, t->head[i]) < 0)
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: column '%.60s' is not one verletbench writes into "
                                  "runs.csv: not a table verletbench wrote",
                                  t->path, t->head_line, t->head[i]);
    return 0;
}

/* Read and check every row of a runs.csv; sorted by (integrator, plan,
 * level, seed).  Every cell is held to what the writer prints there
 * (vb_runs_schema, output/runs_table.c): a number where it prints one,
 * blank where it prints nothing, "inf" only among the errors of a run
 * that did not finish. */
static int read_runs_into(const vb_table *t, vb_run_set *set, char *err, size_t errlen)
{
    memset(set, 0, sizeof *set);
    int col[VB_SCHEMA_MAX_COLUMNS], loops, rigid;
    if (run_header(t, col, &loops, &rigid, err, errlen) != 0)
        return VB_COMPARE_BAD;
    const int cmod = run_col(col, "model"), ci = run_col(col, "integrator"),
              cp = run_col(col, "plan"), cl = run_col(col, "level"), cs = run_col(col, "seed"),
              cst = run_col(col, "status"), cdt = run_col(col, "dt"),
              cj = run_col(col, "jitter"), cn = run_col(col, "steps"),
              ct = run_col(col, "t_end"), cfe = run_col(col, "force_evals"),
              cfs = run_col(col, "fail_step"), cps = run_col(col, "pos_scale"),
              cvs = run_col(col, "vel_scale"), ctol = run_col(col, "tol"),
              cres = run_col(col, "resolved"), clag = run_col(col, "lag_max");
    const int cref[2] = {run_col(col, "ref_err_pos"), run_col(col, "ref_err_vel")};
    /* the metrics, and the two a row that is no frame loop's repeats as
     * drawn */
    const int n_metrics = vb_check_metrics();
    int cm[VB_CHECK_METRICS_MAX];
    for (int m = 0; m < n_metrics; m++)
        cm[m] = run_col(col, vb_check_metric(m));
    const int m_pos_max = vb_check_metric_index("err_pos_max"),
              m_draw_max = vb_check_metric_index("err_draw_max");
    if (t->nrow == 0)
        return vb_compare_bad(err, errlen, "%s: no runs, only a header: nothing to compare",
                              t->path);
    set->r = calloc(t->nrow, sizeof *set->r);
    if (!set->r)
        return vb_compare_oom(err, errlen);
    set->n = t->nrow;
    /* a metric the case measures has its cells filled; one blank cell
     * among filled ones is damage, but for the blanks of an engine that
     * declared velocity=none (its provenance) in the metrics of the
     * velocity: those are told by the first row of another integrator */
    size_t first_v = t->nrow;
    for (size_t i = 0; i < t->nrow; i++) {
        set->r[i].no_velocity = vb_table_no_velocity(t, t->rows[i][ci]);
        if (!set->r[i].no_velocity && first_v == t->nrow)
            first_v = i;
    }
    for (int m = 0; m < n_metrics; m++) {
        const vb_column *c = vb_runs_metric((size_t)m);
        size_t row = c->velocity ? first_v : 0;
        set->has[m] = c->filled == VB_FILLED_EVERY   ? row < t->nrow
                      : c->filled == VB_FILLED_DRAWN ? loops
                      : c->filled == VB_FILLED_RIGID ? rigid
                                                     : row < t->nrow && t->rows[row][cm[m]][0];
    }
    /* a reference solution (a model without an exact one): its own
     * errors, and whether a run's is above what it resolves, on every row */
    int has_ref = set->has_ref = t->rows[0][cref[0]][0] != '\0';
    const char *list = vb_table_integrators(t); /* match.c requires it */
    for (size_t i = 0; i < t->nrow; i++) {
        char **f = t->rows[i];
        vb_run_rec *r = &set->r[i];
        unsigned long long count;
        r->line = t->line[i];
        r->model = f[cmod];
        r->integ = f[ci];
        r->plan = f[cp];
        r->seed = f[cs];
        r->status = f[cst];
        r->dt = f[cdt];
        if (!vb_check_name_valid(r->integ))
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: integrator '%.60s' is not an integrator name", t->path,
                                  r->line, r->integ);
        if (list && !vb_in_list(list, r->integ))
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: integrator %s is not in the header's list "
                                  "(# integrators=%.200s)",
                                  t->path, r->line, r->integ, list);
        if (!vb_check_name_valid(r->model))
            return vb_table_bad_cell(t, i, cmod, "a model name", err, errlen);
        if (!vb_plan_name_valid(r->plan))
            return vb_compare_bad(err, errlen, "%s:%lu: plan '%.60s' (want fixed, random or trace)",
                                  t->path, r->line, r->plan);
        int random = !strcmp(r->plan, "random"), trace = !strcmp(r->plan, "trace");
        if (vb_cell_count(f[cl], &count) != 0 || count > 64)
            return vb_table_bad_cell(t, i, cl, "a step-size level (0 to 64)", err, errlen);
        r->level = (int)count;
        if (vb_cell_number(r->dt, 0, &r->dt_value) != 0 || !(r->dt_value > 0))
            return vb_table_bad_cell(t, i, cdt, "a step size (a finite number > 0)", err, errlen);
        /* jitter: 0 with fixed steps, the case's (> 0) with random ones,
         * blank for a trace; the seed only with random steps */
        r->jitter = NAN;
        if (trace ? f[cj][0] != '\0'
                  : vb_cell_number(f[cj], 0, &r->jitter) != 0 || (random ? !(r->jitter > 0)
                                                                       : r->jitter != 0))
            return vb_table_bad_cell(t, i, cj,
                                     trace    ? "blank (a trace plan has no jitter)"
                                     : random ? "a jitter (a finite number > 0)"
                                              : "0 (fixed steps have no jitter)",
                                     err, errlen);
        if (random ? vb_cell_count(r->seed, &count) != 0 : r->seed[0] != '\0')
            return vb_table_bad_cell(
                t, i, cs, random ? "a seed (a count)" : "blank (only random steps have a seed)",
                err, errlen);
        if (vb_cell_count(f[cn], &count) != 0)
            return vb_table_bad_cell(t, i, cn, "a count of steps", err, errlen);
        r->steps = (double)count;
        if (vb_cell_number(f[ct], 0, &r->t_end) != 0 || !(r->t_end > 0))
            return vb_table_bad_cell(t, i, ct, "an end time (a finite number > 0)", err, errlen);
        if (vb_cell_count(f[cfe], &count) != 0)
            return vb_table_bad_cell(t, i, cfe, "a count of force evaluations", err, errlen);
        int ok = !strcmp(r->status, "ok");
        if (!ok && strcmp(r->status, "diverged") != 0 && strcmp(r->status, "exact-failed") != 0 &&
            strcmp(r->status, "engine-failed") != 0 && strcmp(r->status, "plugin-failed") != 0)
            return vb_compare_bad(
                err, errlen,
                "%s:%lu: status '%.60s' (want ok, diverged, exact-failed, engine-failed "
                "or plugin-failed)",
                t->path, r->line, r->status);
        if (ok ? f[cfs][0] != '\0' : vb_cell_count(f[cfs], &count) != 0)
            return vb_table_bad_cell(t, i, cfs,
                                     ok ? "blank (the run's status is ok)"
                                        : "the step it failed at (a count)",
                                     err, errlen);
        if (vb_cell_number(f[cps], 0, &r->pscale) != 0)
            return vb_table_bad_cell(t, i, cps, "a scale (a finite number >= 0)", err, errlen);
        if (vb_cell_number(f[cvs], 0, &r->vscale) != 0)
            return vb_table_bad_cell(t, i, cvs, "a scale (a finite number >= 0)", err, errlen);
        /* an adaptive method's tolerance (the plan's, fixed by the case:
         * match.c holds it to the run made now), blank for any other */
        r->tol = NAN;
        if (f[ctol][0] && (vb_cell_number(f[ctol], 0, &r->tol) != 0 || !(r->tol > 0)))
            return vb_table_bad_cell(
                t, i, ctol, "blank, or an adaptive method's tolerance (a finite number > 0)",
                err, errlen);
        double ref_pos = NAN;
        for (int k = 0; k < 2; k++) {
            double x;
            if (has_ref ? vb_cell_number(f[cref[k]], !ok, &x) != 0 : f[cref[k]][0] != '\0')
                return vb_table_bad_cell(
                    t, i, cref[k],
                    has_ref ? "a reference's error (a number >= 0; the first row has one)"
                            : "blank (the first row has no reference's error)",
                    err, errlen);
            if (k == 0 && has_ref)
                ref_pos = x;
        }
        for (int m = 0; m < n_metrics; m++) {
            const char *c = cm[m] >= 0 ? f[cm[m]] : "";
            r->m[m] = NAN;
            if ((!set->has[m] || (r->no_velocity && vb_check_velocity(m))) && !c[0])
                continue;
            /* a finished run has finite errors; one that did not, inf */
            if (!set->has[m] || vb_cell_number(c, !ok, &r->m[m]) != 0 || (!ok && isfinite(r->m[m])))
                return vb_compare_bad(err, errlen, "%s:%lu: %s = '%.60s': %s", t->path, r->line,
                                      vb_check_metric(m), c,
                                      !set->has[m]
                                          ? "a value in a column that is blank on its first row"
                                      : ok ? "not a finite number >= 0 (the run's status is ok)"
                                           : "a run that did not finish has the error inf");
        }
        /* resolved: whether the error is above what the reference
         * resolves, VB_REF_RESOLUTION times its own (sweep/norms.c) */
        int above = r->m[m_pos_max] > VB_REF_RESOLUTION * ref_pos;
        const char *res = !has_ref ? "" : above ? "yes" : "no";
        if (strcmp(f[cres], res) != 0)
            return vb_table_bad_cell(t, i, cres,
                                     !has_ref ? "blank (no reference solution)"
                                     : above  ? "yes (err_pos_max is over 100 ref_err_pos)"
                                              : "no (err_pos_max is not over 100 ref_err_pos)",
                                     err, errlen);
        /* a frame loop's time dropped by its clamp: what the frames and
         * physics_dt fix (match.c holds it to the run made now), at most
         * the run's time; 0 on a row that is no frame loop's (an engine's),
         * whose drawn errors are then its errors at the frames */
        r->lag = NAN;
        if (!loops)
            continue;
        int loop_row = strchr(r->integ, '@') != NULL;
        if (vb_cell_number(f[clag], 0, &r->lag) != 0 || !(r->lag <= r->t_end) ||
            (!loop_row && r->lag != 0))
            return vb_table_bad_cell(t, i, clag,
                                     loop_row ? "a frame loop's lag (a time from 0 to t_end)"
                                              : "0 (a row that is no frame loop's)",
                                     err, errlen);
        for (int k = 0; k < 2 && !loop_row; k++)
            if (strcmp(f[cm[m_draw_max + k]], f[cm[m_pos_max + k]]) != 0)
                return vb_table_bad_cell(t, i, cm[m_draw_max + k],
                                         k ? "err_pos_rms (a row that is no frame loop's)"
                                           : "err_pos_max (a row that is no frame loop's)",
                                         err, errlen);
    }
    qsort(set->r, set->n, sizeof *set->r, by_run_key);
    for (size_t i = 1; i < set->n; i++)
        if (by_run_key(&set->r[i - 1], &set->r[i]) == 0)
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: the same run as line %lu (%s, %s, level %d, seed '%s')",
                                  t->path, set->r[i].line, set->r[i - 1].line, set->r[i].integ,
                                  set->r[i].plan, set->r[i].level, set->r[i].seed);
    return 0;
}

/* read_runs_into, and nothing left allocated when it fails */
int vb_read_runs(const vb_table *t, vb_run_set *set, char *err, size_t errlen)
{
    int rc = read_runs_into(t, set, err, errlen);
    if (rc != 0) {
        free(set->r);
        set->r = NULL;
    }
    return rc;
}

vb_run_rec *vb_find_run(const vb_run_set *set, const vb_run_rec *key)
{
    return bsearch(key, set->r, set->n, sizeof *set->r, by_run_key);
}
