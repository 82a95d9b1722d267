/* baseline.c — a baseline's tables read back: '#' lines, a header, plain
 * fields, every cell held to what the writer prints there; the rows of
 * runs.csv and orders.csv, sorted by what identifies them.  A table that
 * cannot be read as such is refused, never taken as "nothing got worse". */
#include "baseline.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "loop.h"

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
static int need_column(const vb_table *t, const char *name, int *col, char *err, size_t errlen)
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
static int parse_number(const char *s, int allow_inf, double *out)
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
static int parse_signed(const char *s, double *out)
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
static int parse_count(const char *s, unsigned long long *out)
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

static int valid_plan(const char *s)
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

const char *const vb_check_metric[VB_CHECK_METRICS] = {
    "err_pos_final",  "err_pos_max",      "err_pos_rms", "err_vel_final",
    "err_vel_max",    "err_energy_max",   "err_angmom_max", "err_momentum_max",
    "err_return",     "err_constraint_max", "err_draw_max", "err_draw_rms"};
const int vb_check_final[VB_CHECK_METRICS] = {1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0};
const int vb_check_scale[VB_CHECK_METRICS] = {0, 0, 0, 1, 1, 2, 2, 2, 0, 0, 0, 0};
const int vb_check_velocity[VB_CHECK_METRICS] = {0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0};
/* the first metrics every baseline has; the later ones came with
 * verletbench 0.3, and a baseline without their columns is not compared on
 * them (a newer version measuring more is not a damaged baseline) */
#define N_ALWAYS 7

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

/* Read and check every row of a runs.csv; sorted by (integrator, plan,
 * level, seed).  Every cell is held to what the writer prints there
 * (vb_run_print_row): a number where it prints one, blank where it prints
 * nothing, "inf" only among the errors of a run that did not finish. */
static int read_runs_into(const vb_table *t, vb_run_set *set, char *err, size_t errlen)
{
    memset(set, 0, sizeof *set);
    int cmod, ci, cp, cl, cs, cst, cdt, cj, cn, ct, cfe, cfs, cps, cvs, cm[VB_CHECK_METRICS];
    if (need_column(t, "model", &cmod, err, errlen) ||
        need_column(t, "integrator", &ci, err, errlen) ||
        need_column(t, "plan", &cp, err, errlen) || need_column(t, "level", &cl, err, errlen) ||
        need_column(t, "seed", &cs, err, errlen) || need_column(t, "status", &cst, err, errlen) ||
        need_column(t, "dt", &cdt, err, errlen) || need_column(t, "jitter", &cj, err, errlen) ||
        need_column(t, "steps", &cn, err, errlen) || need_column(t, "t_end", &ct, err, errlen) ||
        need_column(t, "force_evals", &cfe, err, errlen) ||
        need_column(t, "fail_step", &cfs, err, errlen) ||
        need_column(t, "pos_scale", &cps, err, errlen) ||
        need_column(t, "vel_scale", &cvs, err, errlen))
        return VB_COMPARE_BAD;
    for (int m = 0; m < VB_CHECK_METRICS; m++)
        if (m < N_ALWAYS ? need_column(t, vb_check_metric[m], &cm[m], err, errlen) != 0
                         : (cm[m] = column(t, vb_check_metric[m])) < -1)
            return VB_COMPARE_BAD;
    /* columns a later verletbench added: checked where the table has them */
    int cref[2] = {column(t, "ref_err_pos"), column(t, "ref_err_vel")};
    int cres = column(t, "resolved");
    if (t->nrow == 0)
        return vb_compare_bad(err, errlen, "%s: no runs, only a header: nothing to compare",
                              t->path);
    set->r = calloc(t->nrow, sizeof *set->r);
    if (!set->r)
        return vb_compare_oom(err, errlen);
    set->n = t->nrow;
    /* a metric applies when its cells are filled; one blank cell among
     * filled ones is damage, but for the blanks of an engine that declared
     * velocity=none (its provenance) in the metrics of the velocity: those
     * are told by the first row of another integrator */
    size_t first_v = t->nrow;
    for (size_t i = 0; i < t->nrow; i++) {
        set->r[i].no_velocity = vb_table_no_velocity(t, t->rows[i][ci]);
        if (!set->r[i].no_velocity && first_v == t->nrow)
            first_v = i;
    }
    for (int m = 0; m < VB_CHECK_METRICS; m++) {
        size_t row = vb_check_velocity[m] ? first_v : 0;
        set->present[m] = cm[m] >= 0;
        set->has[m] = cm[m] >= 0 && row < t->nrow && t->rows[row][cm[m]][0] != '\0';
    }
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
        if (!vb_check_name_valid(r->model))
            return vb_table_bad_cell(t, i, cmod, "a model name", err, errlen);
        if (!valid_plan(r->plan))
            return vb_compare_bad(err, errlen, "%s:%lu: plan '%.60s' (want fixed, random or trace)",
                                  t->path, r->line, r->plan);
        int random = !strcmp(r->plan, "random"), trace = !strcmp(r->plan, "trace");
        if (parse_count(f[cl], &count) != 0 || count > 64)
            return vb_table_bad_cell(t, i, cl, "a step-size level (0 to 64)", err, errlen);
        r->level = (int)count;
        if (parse_number(r->dt, 0, &r->dt_value) != 0 || !(r->dt_value > 0))
            return vb_table_bad_cell(t, i, cdt, "a step size (a finite number > 0)", err, errlen);
        /* jitter: 0 with fixed steps, the case's (> 0) with random ones,
         * blank for a trace; the seed only with random steps */
        r->jitter = NAN;
        if (trace ? f[cj][0] != '\0'
                  : parse_number(f[cj], 0, &r->jitter) != 0 || (random ? !(r->jitter > 0)
                                                                       : r->jitter != 0))
            return vb_table_bad_cell(t, i, cj,
                                     trace    ? "blank (a trace plan has no jitter)"
                                     : random ? "a jitter (a finite number > 0)"
                                              : "0 (fixed steps have no jitter)",
                                     err, errlen);
        if (random ? parse_count(r->seed, &count) != 0 : r->seed[0] != '\0')
            return vb_table_bad_cell(
                t, i, cs, random ? "a seed (a count)" : "blank (only random steps have a seed)",
                err, errlen);
        if (parse_count(f[cn], &count) != 0)
            return vb_table_bad_cell(t, i, cn, "a count of steps", err, errlen);
        r->steps = (double)count;
        if (parse_number(f[ct], 0, &r->t_end) != 0 || !(r->t_end > 0))
            return vb_table_bad_cell(t, i, ct, "an end time (a finite number > 0)", err, errlen);
        if (parse_count(f[cfe], &count) != 0)
            return vb_table_bad_cell(t, i, cfe, "a count of force evaluations", err, errlen);
        int ok = !strcmp(r->status, "ok");
        if (!ok && strcmp(r->status, "diverged") != 0 && strcmp(r->status, "exact-failed") != 0 &&
            strcmp(r->status, "engine-failed") != 0 && strcmp(r->status, "plugin-failed") != 0)
            return vb_compare_bad(
                err, errlen,
                "%s:%lu: status '%.60s' (want ok, diverged, exact-failed, engine-failed "
                "or plugin-failed)",
                t->path, r->line, r->status);
        if (ok ? f[cfs][0] != '\0' : parse_count(f[cfs], &count) != 0)
            return vb_table_bad_cell(t, i, cfs,
                                     ok ? "blank (the run's status is ok)"
                                        : "the step it failed at (a count)",
                                     err, errlen);
        if (parse_number(f[cps], 0, &r->pscale) != 0)
            return vb_table_bad_cell(t, i, cps, "a scale (a finite number >= 0)", err, errlen);
        if (parse_number(f[cvs], 0, &r->vscale) != 0)
            return vb_table_bad_cell(t, i, cvs, "a scale (a finite number >= 0)", err, errlen);
        for (int k = 0; k < 2; k++) {
            double x;
            if (cref[k] >= 0 && f[cref[k]][0] && parse_number(f[cref[k]], !ok, &x) != 0)
                return vb_table_bad_cell(
                    t, i, cref[k], "blank or a reference's error (a number >= 0)", err, errlen);
        }
        if (cres >= 0 && f[cres][0] && strcmp(f[cres], "yes") != 0 && strcmp(f[cres], "no") != 0)
            return vb_table_bad_cell(t, i, cres, "blank, yes or no", err, errlen);
        for (int m = 0; m < VB_CHECK_METRICS; m++) {
            const char *c = cm[m] >= 0 ? f[cm[m]] : "";
            r->m[m] = NAN;
            if ((!set->has[m] || (r->no_velocity && vb_check_velocity[m])) && !c[0])
                continue;
            /* a finished run has finite errors; one that did not, inf */
            if (!set->has[m] || parse_number(c, !ok, &r->m[m]) != 0 || (!ok && isfinite(r->m[m])))
                return vb_compare_bad(err, errlen, "%s:%lu: %s = '%.60s': %s", t->path, r->line,
                                      vb_check_metric[m], c,
                                      !set->has[m]
                                          ? "a value in a column that is blank on its first row"
                                      : ok ? "not a finite number >= 0 (the run's status is ok)"
                                           : "a run that did not finish has the error inf");
        }
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

/* ---- orders.csv: fitted orders and verdicts ---- */

static const char *const VERDICTS[] = {"exact",        "as-expected",         "above-label",
                                       "undetermined", "no-asymptotic-range", "below-resolution",
                                       "uncertain",    "below-label",         "not-converging",
                                       "measured"};

/* How good a verdict is: exact, then meeting the label (as expected or
 * above it: both keep the promise), then no claim either way (nothing
 * fitted, no power law, or errors a reference solution cannot resolve:
 * the method may have got better, or the reference worse; either way the
 * label is no longer shown to hold), then below the label (or off it with
 * an interval that still reaches it, uncertain: the same failure to keep
 * the label, only not proven, so a change between the two is no change),
 * then an error that does not fall at all. */
int vb_verdict_rank(const char *v)
{
    static const int rank[] = {4, 3, 3, 2, 2, 2, 1, 1, 0, 2};
    for (size_t i = 0; i < sizeof VERDICTS / sizeof VERDICTS[0]; i++)
        if (!strcmp(v, VERDICTS[i]))
            return rank[i];
    return -1;
}

int vb_by_order_key(const void *a, const void *b)
{
    const vb_order_rec *x = a, *y = b;
    int c = strcmp(x->integ, y->integ);
    if (!c)
        c = strcmp(x->plan, y->plan);
    if (!c)
        c = strcmp(x->norm, y->norm);
    return c;
}

/* The verdicts the writer leaves the order blank with: an exact series
 * has no slope, an undetermined one none that could be fitted, and one
 * below a reference's resolution is never fitted. */
static int verdict_without_order(const char *v)
{
    return !strcmp(v, "exact") || !strcmp(v, "undetermined") || !strcmp(v, "below-resolution");
}

/* local_orders: "q q q", each with 3 decimals or '-' where undefined */
static int local_orders_text(const char *s)
{
    char buf[64];
    for (const char *p = s; *p;) {
        const char *e = strchr(p, ' ');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        double x;
        if (k == 0 || k >= sizeof buf)
            return 0;
        memcpy(buf, p, k);
        buf[k] = '\0';
        if (strcmp(buf, "-") != 0 && parse_signed(buf, &x) != 0)
            return 0;
        p = e ? e + 1 : p + k;
        if (e && !*p)
            return 0; /* a trailing blank */
    }
    return 1;
}

/* Read and check every row of an orders.csv (write_orders), sorted by
 * (integrator, plan, norm). */
int vb_read_orders(const vb_table *t, vb_order_rec **out, char *err, size_t errlen)
{
    *out = NULL;
    int ci, cp, cn, co, cpt, cex, cv, crg, cd1, cd2, clo;
    if (need_column(t, "integrator", &ci, err, errlen) ||
        need_column(t, "plan", &cp, err, errlen) || need_column(t, "norm", &cn, err, errlen) ||
        need_column(t, "order", &co, err, errlen) || need_column(t, "points", &cpt, err, errlen) ||
        need_column(t, "expected", &cex, err, errlen) ||
        need_column(t, "verdict", &cv, err, errlen) || need_column(t, "range", &crg, err, errlen) ||
        need_column(t, "dt_first", &cd1, err, errlen) ||
        need_column(t, "dt_last", &cd2, err, errlen) ||
        need_column(t, "local_orders", &clo, err, errlen))
        return VB_COMPARE_BAD;
    if (t->nrow == 0)
        return vb_compare_bad(err, errlen, "%s: no orders, only a header: nothing to compare",
                              t->path);
    vb_order_rec *r = calloc(t->nrow, sizeof *r);
    if (!r)
        return vb_compare_oom(err, errlen);
    for (size_t i = 0; i < t->nrow; i++) {
        char **f = t->rows[i];
        r[i] = (vb_order_rec){f[ci], f[cp], f[cn], f[cv], NAN, t->line[i], NULL};
        int known_norm = 0;
        for (int m = 0; m < VB_CHECK_METRICS; m++)
            known_norm |= !strcmp(r[i].norm, vb_check_metric[m]);
        const char *why = !vb_check_name_valid(r[i].integ)    ? "integrator"
                          : !valid_plan(r[i].plan)            ? "plan"
                          : !known_norm                       ? "norm"
                          : vb_verdict_rank(r[i].verdict) < 0 ? "verdict"
                                                              : NULL;
        if (why) {
            free(r);
            return vb_compare_bad(err, errlen, "%s:%lu: %s '%.60s' cannot be read", t->path,
                                  t->line[i], why,
                                  !strcmp(why, "integrator") ? f[ci]
                                  : !strcmp(why, "plan")     ? f[cp]
                                  : !strcmp(why, "norm")     ? f[cn]
                                                             : f[cv]);
        }
        /* the order is blank exactly when the verdict has none */
        int blank = verdict_without_order(r[i].verdict);
        unsigned long long count;
        double x;
        int col = -1;
        const char *want = NULL;
        if (blank ? f[co][0] != '\0' : parse_signed(f[co], &r[i].order) != 0)
            col = co, want = blank ? "blank (the verdict has no order)"
                                   : "an order (a finite number; the verdict has one)";
        else if (parse_count(f[cpt], &count) != 0)
            col = cpt, want = "a count of points";
        else if (f[cex][0] ? parse_count(f[cex], &count) != 0
                           : strcmp(r[i].verdict, "measured") != 0 &&
                                 vb_verdict_rank(r[i].verdict) != 4 &&
                                 strcmp(r[i].verdict, "undetermined") != 0 &&
                                 strcmp(r[i].verdict, "no-asymptotic-range") != 0 &&
                                 strcmp(r[i].verdict, "not-converging") != 0 &&
                                 strcmp(r[i].verdict, "below-resolution") != 0)
            col = cex, want = "an integrator's label order (a count), or blank for an engine "
                              "without a label";
        else if (strcmp(f[crg], "asymptotic") != 0 && strcmp(f[crg], "all") != 0 &&
                 strcmp(f[crg], "none") != 0)
            col = crg, want = "a range (asymptotic, all or none)";
        else if (f[cd1][0] || f[cd2][0]) {
            if (parse_number(f[cd1], 0, &x) != 0 || !(x > 0))
                col = cd1, want = "a step size (a finite number > 0; blank with dt_last)";
            else if (parse_number(f[cd2], 0, &x) != 0 || !(x > 0))
                col = cd2, want = "a step size (a finite number > 0; blank with dt_first)";
        }
        if (col < 0 && !local_orders_text(f[clo]))
            col = clo, want = "local orders (numbers or '-' separated by one blank)";
        if (col >= 0) {
            free(r);
            return vb_table_bad_cell(t, i, col, want, err, errlen);
        }
    }
    qsort(r, t->nrow, sizeof *r, vb_by_order_key);
    for (size_t i = 1; i < t->nrow; i++)
        if (vb_by_order_key(&r[i - 1], &r[i]) == 0) {
            int rc =
                vb_compare_bad(err, errlen, "%s:%lu: the same order as line %lu (%s, %s, %s)",
                               t->path, r[i].line, r[i - 1].line, r[i].integ, r[i].plan, r[i].norm);
            free(r);
            return rc;
        }
    *out = r;
    return 0;
}
