/* csvtable.c — a CSV table as `run` writes it, read back: the file whole,
 * its '#' lines, its header and its plain fields, each cell held to what
 * the writer prints there, and the parameters and declarations its
 * comment lines record.  The readers of runs.csv (baseline.c) and
 * orders.csv (baseline_orders.c) stand on it.  A table that cannot be read
 * as such is refused, never taken as "nothing got worse". */
#include "csvtable.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handler.h"
#include "infile.h"
#include "integrator.h"
#include "loop.h"
#include "result.h"
#include "rigidcontact.h"

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

int vb_table_column(const vb_table *t, const char *name)
{
    for (size_t i = 0; i < t->ncol; i++)
        if (strcmp(t->head[i], name) == 0)
            return (int)i;
    return -1;
}

/* the column or a message naming it */
int vb_need_column(const vb_table *t, const char *name, int *col, char *err, size_t errlen)
{
    *col = vb_table_column(t, name);
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
 * (the errors of a run that did not finish).  A zero may carry a sign:
 * %.17g prints a negative zero "-0", and -0 is 0 (read as +0). */
int vb_cell_number(const char *s, int allow_inf, double *out)
{
    if (allow_inf && strcmp(s, "inf") == 0) {
        *out = INFINITY;
        return 0;
    }
    if (!number_text(s, s[0] == '-'))
        return -1;
    double x = strtod(s, NULL);
    if (s[0] == '-' && x != 0.0)
        return -1;
    x = fabs(x);
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
     * "velocity-verlet+toi", "jakobsen:sweeps=10+project"; or a rotation
     * method inside a contact solver, METHOD+SOLVER: "rigid-splitting+pgs" */
    const char *plus = strrchr(s, '+');
    if (plus && (vb_contact_handler_find(plus + 1) || vb_body_solver_find(plus + 1))) {
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

/* a run's status as the tables print it (driver/result.c's names) */
int vb_status_valid(const char *s)
{
    for (int k = VB_STATUS_OK; k <= VB_STATUS_PLUGIN_FAILED; k++)
        if (!strcmp(s, vb_status_name((vb_status)k)))
            return 1;
    return 0;
}

int vb_plan_name_valid(const char *s)
{
    return !strcmp(s, "fixed") || !strcmp(s, "random") || !strcmp(s, "trace");
}

/* ---- the parameters a table was made with ---- */

int vb_run_key_cell(const vb_table *t, const char *column, const char *cell, const char **want)
{
    char model[64];
    if (!strcmp(column, "integrator"))
        *want = vb_check_name_valid(cell) ? NULL : "an integrator's name";
    else if (!strcmp(column, "plan"))
        *want = vb_plan_name_valid(cell) ? NULL : "a plan";
    else if (!strcmp(column, "status"))
        *want = vb_status_valid(cell) ? NULL : "a run's status (ok, diverged, ...)";
    else if (!strcmp(column, "model")) {
        vb_table_model_name(t, model, sizeof model);
        *want = !strcmp(cell, model) ? NULL : "the model of the '# model=' line";
    } else
        return 0;
    return 1;
}

double vb_table_model_param(const vb_table *t, const char *key)
{
    char pat[40];
    snprintf(pat, sizeof pat, " %s=", key);
    for (size_t i = 0; i < t->n_comments; i++) {
        if (strncmp(t->comments[i], "# model=", 8) != 0)
            continue;
        const char *p = strstr(t->comments[i], pat);
        return p ? strtod(p + strlen(pat), NULL) : (double)NAN;
    }
    return NAN;
}

void vb_table_model_name(const vb_table *t, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < t->n_comments; i++)
        if (strncmp(t->comments[i], "# model=", 8) == 0) {
            snprintf(buf, len, "%.*s", (int)strcspn(t->comments[i] + 8, " "),
                     t->comments[i] + 8);
            return;
        }
}

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

/* A cell that is not what the writer puts there: file, line, column. */
int vb_table_bad_cell(const vb_table *t, size_t row, int col, const char *want, char *err,
                      size_t errlen)
{
    return vb_compare_bad(err, errlen, "%s:%lu: column %s: '%.60s' is not %s", t->path,
                          t->line[row], t->head[col], t->rows[row][col], want);
}
