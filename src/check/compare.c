/* compare.c — one case's tables against a baseline.
 *
 * What is judged, and why (docs/check.md):
 *  - the maximum and RMS errors and the energy and angular-momentum errors
 *    of every step size, per integrator and plan: for a random plan the
 *    median over its seeds, the figure the order is fitted to, since one
 *    seed's error moves with the accidents of its steps when the method
 *    changes;
 *  - a run's status (ok -> diverged is worse), run by run;
 *  - every fitted order of those norms, and its verdict.
 * Final-time errors are listed but never judged: they oscillate with the
 * phase the run ends at.  A series of errors that got worse only at coarse
 * step sizes while every finer one got better is a method whose error
 * curve now crosses the old one: better in the asymptotic range, reported
 * as such. */
#include "compare.h"
#include "infile.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

typedef struct {
    const char *path;
    char *buf;
    char **comments;
    unsigned long *comment_line; /* the line number of each comment */
    size_t n_comments;
    char **head;
    unsigned long head_line;
    size_t ncol;
    char ***rows;
    unsigned long *line; /* the line number of each row */
    size_t nrow;
} table;

static void table_free(table *t)
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

static int bad(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return VB_COMPARE_BAD;
}

static int oom(char *err, size_t errlen)
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
static int unique_columns(const table *t, char *err, size_t errlen)
{
    char **names = malloc(t->ncol * sizeof *names);
    if (!names)
        return oom(err, errlen);
    memcpy(names, t->head, t->ncol * sizeof *names);
    qsort(names, t->ncol, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 1; i < t->ncol && rc == 0; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            rc = bad(err, errlen,
                     "%s:%lu: column '%.60s' appears twice in the header: not a table verletbench "
                     "wrote",
                     t->path, t->head_line, names[i]);
    free(names);
    return rc;
}

/* Fields are split at every comma: the tables never quote. */
static int table_parse(vb_text in, table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->path = in.path;
    if (memchr(in.text, '\0', in.len))
        return bad(err, errlen, "%s: binary data (a NUL byte): not a table verletbench wrote",
                   in.path);
    t->buf = malloc(in.len + 1);
    size_t lines = 1;
    for (size_t i = 0; i < in.len; i++)
        lines += in.text[i] == '\n';
    t->comments = calloc(lines, sizeof *t->comments);
    t->comment_line = calloc(lines, sizeof *t->comment_line);
    t->rows = calloc(lines, sizeof *t->rows);
    t->line = calloc(lines, sizeof *t->line);
    if (!t->buf || !t->comments || !t->comment_line || !t->rows || !t->line) {
        table_free(t);
        return oom(err, errlen);
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
                table_free(t);
                return oom(err, errlen);
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
                    table_free(t);
                    return rc;
                }
            } else if (nf != t->ncol) {
                free(field);
                int rc = bad(err, errlen, "%s:%lu: %zu fields, the header has %zu", in.path,
                             lineno, nf, t->ncol);
                table_free(t);
                return rc;
            } else {
                t->line[t->nrow] = lineno;
                t->rows[t->nrow++] = field;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    if (!t->head) {
        table_free(t);
        return bad(err, errlen, "%s: no header line: not a table verletbench wrote", in.path);
    }
    return 0;
}

static int column(const table *t, const char *name)
{
    for (size_t i = 0; i < t->ncol; i++)
        if (strcmp(t->head[i], name) == 0)
            return (int)i;
    return -1;
}

/* the column or a message naming it */
static int need_column(const table *t, const char *name, int *col, char *err, size_t errlen)
{
    *col = column(t, name);
    if (*col < 0)
        return bad(err, errlen, "%s: no column '%s' in the header: not a table verletbench wrote",
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
 * values as the shortest text of a double (at most 160 in all) */
static int valid_name(const char *s)
{
    size_t n = strlen(s), base = strcspn(s, ":");
    if (n == 0 || n > 160 || base == 0 || base > 40)
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
static void provenance(const table *t, unsigned flags, char *out, size_t len)
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
static const char *listed_integrators(const table *t)
{
    for (size_t i = 0; i < t->n_comments; i++)
        if (strncmp(t->comments[i], "# integrators=", 14) == 0)
            return t->comments[i] + 14;
    return NULL;
}

static int in_list(const char *list, const char *name)
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

/* ---- runs ---- */

static const char *const METRICS[] = {"err_pos_final",  "err_pos_max",      "err_pos_rms",
                                      "err_vel_final",  "err_vel_max",      "err_energy_max",
                                      "err_angmom_max", "err_momentum_max", "err_return",
                                      "err_constraint_max"};
#define N_METRICS 10
/* which metrics are final-time values (never judged: the error at t_end,
 * and the return error |x(t_end) - x(0)|, oscillate with where the run's
 * phase error leaves it), and which scale:
 * 0 position, 1 velocity, 2 relative (none) */
static const int FINAL[N_METRICS] = {1, 0, 0, 1, 0, 0, 0, 0, 1, 0};
static const int SCALE[N_METRICS] = {0, 0, 0, 1, 1, 2, 2, 2, 0, 0};
/* the first metrics every baseline has; the later ones came with
 * verletbench 0.3, and a baseline without their columns is not compared on
 * them (a newer version measuring more is not a damaged baseline) */
#define N_ALWAYS 7

typedef struct run_rec {
    const char *model, *integ, *plan, *seed, *status, *dt;
    int level;
    /* what fixes the run besides its key: the same on both sides, or the
     * two are not the same run (jitter is NAN for a trace plan) */
    double dt_value, jitter, t_end, steps;
    double pscale, vscale; /* of the exact solution: the same on both sides */
    double m[N_METRICS];   /* NAN where the metric does not apply */
    unsigned long line;
    const struct run_rec *partner; /* the same run on the other side, or NULL */
} run_rec;

typedef struct {
    run_rec *r;
    size_t n;
    int has[N_METRICS];     /* the metric applies (its cells are filled) */
    int present[N_METRICS]; /* the table has its column */
} run_set;

static int by_run_key(const void *a, const void *b)
{
    const run_rec *x = a, *y = b;
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
static int bad_cell(const table *t, size_t row, int col, const char *want, char *err,
                    size_t errlen)
{
    return bad(err, errlen, "%s:%lu: column %s: '%.60s' is not %s", t->path, t->line[row],
               t->head[col], t->rows[row][col], want);
}

/* Read and check every row of a runs.csv; sorted by (integrator, plan,
 * level, seed).  Every cell is held to what the writer prints there
 * (vb_run_print_row): a number where it prints one, blank where it prints
 * nothing, "inf" only among the errors of a run that did not finish. */
static int read_runs_into(const table *t, run_set *set, char *err, size_t errlen)
{
    memset(set, 0, sizeof *set);
    int cmod, ci, cp, cl, cs, cst, cdt, cj, cn, ct, cfe, cfs, cps, cvs, cm[N_METRICS];
    if (need_column(t, "model", &cmod, err, errlen) ||
        need_column(t, "integrator", &ci, err, errlen) || need_column(t, "plan", &cp, err, errlen) ||
        need_column(t, "level", &cl, err, errlen) || need_column(t, "seed", &cs, err, errlen) ||
        need_column(t, "status", &cst, err, errlen) || need_column(t, "dt", &cdt, err, errlen) ||
        need_column(t, "jitter", &cj, err, errlen) || need_column(t, "steps", &cn, err, errlen) ||
        need_column(t, "t_end", &ct, err, errlen) ||
        need_column(t, "force_evals", &cfe, err, errlen) ||
        need_column(t, "fail_step", &cfs, err, errlen) ||
        need_column(t, "pos_scale", &cps, err, errlen) ||
        need_column(t, "vel_scale", &cvs, err, errlen))
        return VB_COMPARE_BAD;
    for (int m = 0; m < N_METRICS; m++)
        if (m < N_ALWAYS ? need_column(t, METRICS[m], &cm[m], err, errlen) != 0
                         : (cm[m] = column(t, METRICS[m])) < -1)
            return VB_COMPARE_BAD;
    /* columns a later verletbench added: checked where the table has them */
    int cref[2] = {column(t, "ref_err_pos"), column(t, "ref_err_vel")};
    int cres = column(t, "resolved");
    if (t->nrow == 0)
        return bad(err, errlen, "%s: no runs, only a header: nothing to compare", t->path);
    set->r = calloc(t->nrow, sizeof *set->r);
    if (!set->r)
        return oom(err, errlen);
    set->n = t->nrow;
    /* a metric applies when its cells are filled; one blank cell among
     * filled ones is damage */
    for (int m = 0; m < N_METRICS; m++) {
        set->present[m] = cm[m] >= 0;
        set->has[m] = cm[m] >= 0 && t->rows[0][cm[m]][0] != '\0';
    }
    for (size_t i = 0; i < t->nrow; i++) {
        char **f = t->rows[i];
        run_rec *r = &set->r[i];
        unsigned long long count;
        r->line = t->line[i];
        r->model = f[cmod];
        r->integ = f[ci];
        r->plan = f[cp];
        r->seed = f[cs];
        r->status = f[cst];
        r->dt = f[cdt];
        if (!valid_name(r->integ))
            return bad(err, errlen, "%s:%lu: integrator '%.60s' is not an integrator name", t->path,
                       r->line, r->integ);
        if (!valid_name(r->model))
            return bad_cell(t, i, cmod, "a model name", err, errlen);
        if (!valid_plan(r->plan))
            return bad(err, errlen, "%s:%lu: plan '%.60s' (want fixed, random or trace)", t->path,
                       r->line, r->plan);
        int random = !strcmp(r->plan, "random"), trace = !strcmp(r->plan, "trace");
        if (parse_count(f[cl], &count) != 0 || count > 64)
            return bad_cell(t, i, cl, "a step-size level (0 to 64)", err, errlen);
        r->level = (int)count;
        if (parse_number(r->dt, 0, &r->dt_value) != 0 || !(r->dt_value > 0))
            return bad_cell(t, i, cdt, "a step size (a finite number > 0)", err, errlen);
        /* jitter: 0 with fixed steps, the case's (> 0) with random ones,
         * blank for a trace; the seed only with random steps */
        r->jitter = NAN;
        if (trace ? f[cj][0] != '\0'
                  : parse_number(f[cj], 0, &r->jitter) != 0 || (random ? !(r->jitter > 0)
                                                                       : r->jitter != 0))
            return bad_cell(t, i, cj,
                            trace    ? "blank (a trace plan has no jitter)"
                            : random ? "a jitter (a finite number > 0)"
                                     : "0 (fixed steps have no jitter)",
                            err, errlen);
        if (random ? parse_count(r->seed, &count) != 0 : r->seed[0] != '\0')
            return bad_cell(t, i, cs,
                            random ? "a seed (a count)" : "blank (only random steps have a seed)",
                            err, errlen);
        if (parse_count(f[cn], &count) != 0)
            return bad_cell(t, i, cn, "a count of steps", err, errlen);
        r->steps = (double)count;
        if (parse_number(f[ct], 0, &r->t_end) != 0 || !(r->t_end > 0))
            return bad_cell(t, i, ct, "an end time (a finite number > 0)", err, errlen);
        if (parse_count(f[cfe], &count) != 0)
            return bad_cell(t, i, cfe, "a count of force evaluations", err, errlen);
        int ok = !strcmp(r->status, "ok");
        if (!ok && strcmp(r->status, "diverged") != 0 && strcmp(r->status, "exact-failed") != 0 &&
            strcmp(r->status, "engine-failed") != 0 && strcmp(r->status, "plugin-failed") != 0)
            return bad(err, errlen,
                       "%s:%lu: status '%.60s' (want ok, diverged, exact-failed, engine-failed "
                       "or plugin-failed)",
                       t->path, r->line, r->status);
        if (ok ? f[cfs][0] != '\0' : parse_count(f[cfs], &count) != 0)
            return bad_cell(t, i, cfs,
                            ok ? "blank (the run's status is ok)"
                               : "the step it failed at (a count)",
                            err, errlen);
        if (parse_number(f[cps], 0, &r->pscale) != 0)
            return bad_cell(t, i, cps, "a scale (a finite number >= 0)", err, errlen);
        if (parse_number(f[cvs], 0, &r->vscale) != 0)
            return bad_cell(t, i, cvs, "a scale (a finite number >= 0)", err, errlen);
        for (int k = 0; k < 2; k++) {
            double x;
            if (cref[k] >= 0 && f[cref[k]][0] && parse_number(f[cref[k]], !ok, &x) != 0)
                return bad_cell(t, i, cref[k], "blank or a reference's error (a number >= 0)", err,
                                errlen);
        }
        if (cres >= 0 && f[cres][0] && strcmp(f[cres], "yes") != 0 && strcmp(f[cres], "no") != 0)
            return bad_cell(t, i, cres, "blank, yes or no", err, errlen);
        for (int m = 0; m < N_METRICS; m++) {
            const char *c = cm[m] >= 0 ? f[cm[m]] : "";
            r->m[m] = NAN;
            if (!set->has[m] && !c[0])
                continue;
            /* a finished run has finite errors; one that did not, inf */
            if (!set->has[m] || parse_number(c, !ok, &r->m[m]) != 0 || (!ok && isfinite(r->m[m])))
                return bad(err, errlen, "%s:%lu: %s = '%.60s': %s", t->path, r->line, METRICS[m], c,
                           !set->has[m] ? "a value in a column that is blank on its first row"
                           : ok          ? "not a finite number >= 0 (the run's status is ok)"
                                         : "a run that did not finish has the error inf");
        }
    }
    qsort(set->r, set->n, sizeof *set->r, by_run_key);
    for (size_t i = 1; i < set->n; i++)
        if (by_run_key(&set->r[i - 1], &set->r[i]) == 0)
            return bad(err, errlen, "%s:%lu: the same run as line %lu (%s, %s, level %d, seed '%s')",
                       t->path, set->r[i].line, set->r[i - 1].line, set->r[i].integ,
                       set->r[i].plan, set->r[i].level, set->r[i].seed);
    return 0;
}

/* read_runs_into, and nothing left allocated when it fails */
static int read_runs(const table *t, run_set *set, char *err, size_t errlen)
{
    int rc = read_runs_into(t, set, err, errlen);
    if (rc != 0) {
        free(set->r);
        set->r = NULL;
    }
    return rc;
}

static run_rec *find_run(const run_set *set, const run_rec *key)
{
    return bsearch(key, set->r, set->n, sizeof *set->r, by_run_key);
}

/* ---- recording changes ---- */

static int record(vb_changes *out, const vb_change *c)
{
    /* fold changes of one case, integrator, plan and metric into the one
     * that changed most, so a broken method gives one line per metric */
    for (size_t i = 0; i < out->n; i++) {
        vb_change *o = &out->v[i];
        if (o->kind == c->kind && !strcmp(o->case_name, c->case_name) &&
            !strcmp(o->integ, c->integ) && !strcmp(o->plan, c->plan) &&
            !strcmp(o->metric, c->metric)) {
            size_t rows = o->rows + c->rows;
            if (fabs(log(c->factor > 0 ? c->factor : 1)) > fabs(log(o->factor > 0 ? o->factor : 1)))
                *o = *c;
            o->rows = rows;
            return 0;
        }
    }
    if (out->n == out->cap) {
        size_t cap = out->cap ? 2 * out->cap : 64;
        vb_change *more = realloc(out->v, cap * sizeof *more);
        if (!more)
            return -1;
        out->v = more;
        out->cap = cap;
    }
    out->v[out->n++] = *c;
    return 0;
}

static void fill(vb_change *c, vb_change_kind kind, const char *name, const char *integ,
                 const char *plan, const char *metric)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->rows = 1;
    snprintf(c->case_name, sizeof c->case_name, "%s", name);
    snprintf(c->integ, sizeof c->integ, "%s", integ);
    snprintf(c->plan, sizeof c->plan, "%s", plan);
    snprintf(c->metric, sizeof c->metric, "%s", metric);
}

/* ---- series: one metric of one integrator and plan over the step sizes ---- */

#define MAX_LEVELS 65

typedef struct {
    int n; /* levels */
    double before[MAX_LEVELS], after[MAX_LEVELS], floor[MAX_LEVELS];
    const char *dt[MAX_LEVELS];
    int seeds[MAX_LEVELS];
    int signal_before, signal_after; /* some value above the round-off floor */
} series;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y); /* inf sorts last */
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Errors below this are round-off, whatever the method: it grows like
 * N^1.5 in a second-order ODE (Brouwer's law; docs/check.md). */
static double roundoff_floor(const vb_tolerance *tol, double steps, double scale)
{
    return tol->floor_ulps * DBL_EPSILON * pow(steps > 1.0 ? steps : 1.0, 1.5) * scale;
}

/* Metric m of the new runs [first, last) (one integrator and plan, sorted
 * by level and seed) that have a partner in the baseline: per level, the
 * value (the median over seeds for a random plan) before and after. */
static int build_series(const run_set *now, size_t first, size_t last, int m,
                        const vb_tolerance *tol, series *s)
{
    memset(s, 0, sizeof *s);
    double *a = malloc((last - first) * sizeof *a), *b = malloc((last - first) * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return -1;
    }
    for (size_t i = first; i < last && s->n < MAX_LEVELS;) {
        int level = now->r[i].level;
        size_t k = 0;
        double steps = 0.0, scale = 0.0;
        const char *dt = now->r[i].dt;
        for (; i < last && now->r[i].level == level; i++) {
            const run_rec *r = &now->r[i], *o = r->partner;
            if (!o)
                continue;
            a[k] = o->m[m];
            b[k] = r->m[m];
            k++;
            /* the new run's: the floor is not the baseline's to set */
            steps = fmax(steps, r->steps);
            double sc = SCALE[m] == 0 ? r->pscale : SCALE[m] == 1 ? r->vscale : 1.0;
            scale = fmax(scale, sc);
        }
        if (k == 0)
            continue;
        int l = s->n++;
        s->before[l] = median(a, k);
        s->after[l] = median(b, k);
        s->floor[l] = roundoff_floor(tol, steps, scale > 0 ? scale : 1.0);
        s->dt[l] = dt;
        s->seeds[l] = (int)k;
        s->signal_before |= !(s->before[l] <= s->floor[l]);
        s->signal_after |= !(s->after[l] <= s->floor[l]);
    }
    free(a);
    free(b);
    return 0;
}

typedef enum { SAME, WORSE, BETTER } change;

static change level_change(const series *s, int l, const vb_tolerance *tol)
{
    double eb = s->before[l], en = s->after[l], fl = s->floor[l];
    if (isinf(eb) || isinf(en)) /* a seed that did not finish decides the median */
        return eb == en ? SAME : isinf(en) ? WORSE : BETTER;
    if (en > eb * (1 + tol->rtol) && en > fl)
        return WORSE;
    if (eb > en * (1 + tol->rtol) && eb > fl)
        return BETTER;
    return SAME;
}

static void level_text(const series *s, int l, const char *plan, vb_change *c)
{
    snprintf(c->dt, sizeof c->dt, "%.6g", strtod(s->dt[l], NULL));
    if (!strcmp(plan, "random"))
        snprintf(c->seed, sizeof c->seed, "med%d", s->seeds[l]);
    snprintf(c->before, sizeof c->before, "%.4g", s->before[l]);
    snprintf(c->after, sizeof c->after, "%.4g", s->after[l]);
    c->factor = s->before[l] > 0 && isfinite(s->before[l]) && isfinite(s->after[l])
                    ? s->after[l] / s->before[l]
                    : 0.0;
}

/* Judge one series and record what changed. */
static int judge_series(const series *s, const char *name, const char *integ, const char *plan,
                        int m, const vb_tolerance *tol, vb_changes *out)
{
    change ch[MAX_LEVELS];
    int worst = -1, best = -1, finest_worse = -1;
    for (int l = 0; l < s->n; l++) {
        ch[l] = level_change(s, l, tol);
        out->compared++;
        double f = s->before[l] > 0 ? s->after[l] / s->before[l] : 1.0;
        if (ch[l] == WORSE) {
            finest_worse = l;
            if (worst < 0 || !(f <= s->after[worst] / s->before[worst]))
                worst = l;
        } else if (ch[l] == BETTER) {
            if (best < 0 || f < s->after[best] / s->before[best])
                best = l;
        }
    }
    vb_change c;
    if (FINAL[m]) {
        if (worst < 0 && best < 0)
            return 0;
        fill(&c, VB_FINAL, name, integ, plan, METRICS[m]);
        level_text(s, worst >= 0 ? worst : best, plan, &c);
        return record(out, &c);
    }
    int worse_levels = 0, better_levels = 0;
    for (int l = 0; l < s->n; l++) {
        worse_levels += ch[l] == WORSE;
        better_levels += ch[l] == BETTER;
    }
    /* worse only at coarse steps, better at every finer one (two at least):
     * the new error curve crosses the old one on its way to the asymptotic
     * range, where it is lower */
    int crossing = finest_worse >= 0 && s->n - 1 - finest_worse >= 2;
    for (int l = finest_worse + 1; crossing && l < s->n; l++)
        crossing = ch[l] == BETTER;
    if (worst >= 0 && !crossing) {
        fill(&c, VB_WORSE, name, integ, plan, METRICS[m]);
        level_text(s, worst, plan, &c);
        c.rows = (size_t)worse_levels;
        out->worse += (size_t)worse_levels;
        out->better += (size_t)better_levels;
        return record(out, &c);
    }
    if (best < 0)
        return 0;
    fill(&c, VB_BETTER, name, integ, plan, METRICS[m]);
    level_text(s, best, plan, &c);
    c.rows = (size_t)better_levels;
    if (crossing)
        snprintf(c.note, sizeof c.note, "worse at dt >= %.3g (%d step size%s), better at every finer dt",
                 strtod(s->dt[finest_worse], NULL), worse_levels, worse_levels == 1 ? "" : "s");
    out->better += (size_t)better_levels;
    return record(out, &c);
}

/* The signal of each (integrator, plan, metric): whether its errors rise
 * above round-off before and after (an order fitted to round-off alone is
 * noise, and a series now at round-off is as good as exact). */
typedef struct {
    const char *integ, *plan;
    int m;
    int before, after;
} signal_rec;

typedef struct {
    signal_rec *v;
    size_t n, cap;
} signal_set;

static int signal_add(signal_set *ss, const char *integ, const char *plan, int m, int before,
                      int after)
{
    if (ss->n == ss->cap) {
        size_t cap = ss->cap ? 2 * ss->cap : 64;
        signal_rec *more = realloc(ss->v, cap * sizeof *more);
        if (!more)
            return -1;
        ss->v = more;
        ss->cap = cap;
    }
    ss->v[ss->n++] = (signal_rec){integ, plan, m, before, after};
    return 0;
}

static const signal_rec *signal_find(const signal_set *ss, const char *integ, const char *plan,
                                     const char *metric)
{
    for (size_t i = 0; i < ss->n; i++)
        if (!strcmp(ss->v[i].integ, integ) && !strcmp(ss->v[i].plan, plan) &&
            !strcmp(METRICS[ss->v[i].m], metric))
            return &ss->v[i];
    return NULL;
}

/* The "# integrators=" line of a baseline table: required, a list of
 * integrator names, each once.  Without it nothing says which rows the
 * table must have, and rows deleted with the line would pass unseen. */
static int need_list(const table *t, const char **list, char *err, size_t errlen)
{
    *list = listed_integrators(t);
    if (!*list)
        return bad(err, errlen, "%s: no '# integrators=' line: the baseline is damaged (make a new "
                                "one with make baseline)",
                   t->path);
    unsigned long line = 0;
    for (size_t i = 0; i < t->n_comments; i++)
        if (t->comments[i] + 14 == *list)
            line = t->comment_line[i];
    for (const char *p = *list;;) {
        const char *e = strchr(p, ',');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        char name[64];
        if (k >= sizeof name || (snprintf(name, sizeof name, "%.*s", (int)k, p), !valid_name(name)))
            return bad(err, errlen, "%s:%lu: '# integrators=%.200s': '%.*s' is not an integrator "
                                    "name",
                       t->path, line, *list, (int)(k > 60 ? 60 : k), p);
        for (const char *q = *list; q < p;) {
            const char *qe = strchr(q, ',');
            if ((size_t)(qe - q) == k && strncmp(q, p, k) == 0)
                return bad(err, errlen, "%s:%lu: '# integrators=%.200s' names %s twice", t->path,
                           line, *list, name);
            q = qe + 1;
        }
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

/* The runs of each integrator the baseline's header lists: as many as the
 * plan makes now for any integrator (every integrator gets the same plan;
 * with VB_COMPARE_SHARED_LEVELS as many as the baseline's own plan makes,
 * as its first integrator has), and none of an integrator it does not
 * list. */
static int check_counts(const table *bt, const run_set *base, const run_set *now,
                        unsigned flags, char *err, size_t errlen)
{
    const char *list;
    int rc = need_list(bt, &list, err, errlen);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < base->n; i++)
        if (!in_list(list, base->r[i].integ))
            return bad(err, errlen, "%s:%lu: integrator %s is not in the header's list "
                                    "(# integrators=%.200s)",
                       bt->path, base->r[i].line, base->r[i].integ, list);
    const run_set *plan = flags & VB_COMPARE_SHARED_LEVELS ? base : now;
    size_t want = 0;
    while (want < plan->n && !strcmp(plan->r[want].integ, plan->r[0].integ))
        want++;
    for (const char *p = list;;) {
        const char *e = strchr(p, ',');
        char integ[64];
        snprintf(integ, sizeof integ, "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
        size_t have = 0;
        for (size_t k = 0; k < base->n; k++)
            have += !strcmp(base->r[k].integ, integ);
        if (have != want)
            return bad(err, errlen, "%s: %zu runs of %s, the plan in its header makes %zu: the "
                                    "baseline is damaged (make a new one with make baseline)",
                       bt->path, have, integ, want);
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

/* A run and its partner are the same run: the key that paired them
 * (integrator, plan, level, seed) and everything else the plan fixes, to
 * the bit; and the scales of the exact solution the errors are measured
 * against, which no method changes (to 1e-6: another libm may move them in
 * the last bits).  The round-off floor is taken from the new run alone, but
 * a baseline run of a billion steps, or of a huge scale, is not the run
 * made now: comparing its errors would compare nothing.
 * A run that did not finish counts the steps it took and the scales over
 * them: those then depend on the method, and only bound the other side. */
static int same_run(const table *bt, const run_rec *o, const run_rec *r, char *err, size_t errlen)
{
    int ok_b = !strcmp(o->status, "ok"), ok_n = !strcmp(r->status, "ok");
    const char *col = NULL;
    char was[64], is[64];
    if (strcmp(o->model, r->model) != 0) {
        col = "model";
        snprintf(was, sizeof was, "%.60s", o->model);
        snprintf(is, sizeof is, "%.60s", r->model);
    } else {
        static const char *const name[] = {"dt", "jitter", "t_end", "steps"};
        const double b[] = {o->dt_value, o->jitter, o->t_end, o->steps};
        const double n[] = {r->dt_value, r->jitter, r->t_end, r->steps};
        for (int k = 0; k < 4 && !col; k++) {
            int same = b[k] == n[k] || (isnan(b[k]) && isnan(n[k]));
            if (k == 3 && !(ok_b && ok_n)) /* steps: the one that stopped took fewer */
                same = ok_b ? b[k] >= n[k] : ok_n ? b[k] <= n[k] : 1;
            if (!same) {
                col = name[k];
                snprintf(was, sizeof was, "%.17g", b[k]);
                snprintf(is, sizeof is, "%.17g", n[k]);
            }
        }
    }
    if (col)
        return bad(err, errlen, "%s:%lu: column %s: %s in the baseline, %s in the same run made "
                                "now (%s, %s, level %d%s%s): not the run it claims to be; the "
                                "baseline is damaged (make a new one with make baseline)",
                   bt->path, o->line, col, was, is, r->integ, r->plan, r->level,
                   r->seed[0] ? ", seed " : "", r->seed);
    const double sb[] = {o->pscale, o->vscale}, sn[] = {r->pscale, r->vscale};
    for (int k = 0; k < 2 && ok_b && ok_n; k++)
        if (!(fabs(sb[k] - sn[k]) <= 1e-6 * fmax(fabs(sb[k]), fabs(sn[k]))))
            return bad(err, errlen, "%s:%lu: column %s: %.17g in the baseline, %.17g in the same "
                                    "run made now (%s, %s, level %d%s%s): the scale of the exact "
                                    "solution, which no method changes; the baseline is damaged "
                                    "(make a new one with make baseline)",
                       bt->path, o->line, k ? "vel_scale" : "pos_scale", sb[k], sn[k], r->integ,
                       r->plan, r->level, r->seed[0] ? ", seed " : "", r->seed);
    return 0;
}

/* The finest level of a set of runs. */
static int finest_level(const run_set *set)
{
    int l = -1;
    for (size_t i = 0; i < set->n; i++)
        if (set->r[i].level > l)
            l = set->r[i].level;
    return l;
}

static int compare_runs(const table *bt, const table *nt, const char *name,
                        const vb_tolerance *tol, unsigned flags, vb_changes *out,
                        signal_set *signal, char *err, size_t errlen)
{
    run_set base, now;
    int rc = read_runs(bt, &base, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = read_runs(nt, &now, err, errlen)) != 0) {
        free(base.r);
        return rc;
    }
    if ((rc = check_counts(bt, &base, &now, flags, err, errlen)) != 0)
        goto done;
    /* the step sizes only one side has (VB_COMPARE_SHARED_LEVELS): neither
     * gone nor new, only not compared */
    int shared = INT_MAX;
    if (flags & VB_COMPARE_SHARED_LEVELS) {
        int fb = finest_level(&base), fn = finest_level(&now);
        shared = fb < fn ? fb : fn;
    }
    for (int m = 0; m < N_METRICS; m++) {
        if (!base.present[m]) { /* an older baseline: a metric it does not know */
            now.has[m] = 0;
            continue;
        }
        if (base.has[m] != now.has[m]) {
            rc = bad(err, errlen, "%s: column %s is %s, but the case %s it", bt->path, METRICS[m],
                     base.has[m] ? "filled" : "blank", base.has[m] ? "does not measure" : "measures");
            goto done;
        }
    }
    for (size_t i = 0; i < now.n; i++) {
        run_rec *o = find_run(&base, &now.r[i]);
        now.r[i].partner = o;
        if (o)
            o->partner = &now.r[i];
        if (o && (rc = same_run(bt, o, &now.r[i], err, errlen)) != 0)
            goto done;
    }
    vb_change c;
    /* run by run: a status that got worse, runs gone, runs new */
    for (size_t i = 0; i < now.n; i++) {
        const run_rec *r = &now.r[i], *o = r->partner;
        if (!o && r->level > shared) {
            out->unshared++;
            continue;
        }
        if (!o) {
            fill(&c, VB_NEW, name, r->integ, r->plan, "run");
            out->added++;
            if (record(out, &c) != 0)
                goto oom;
            continue;
        }
        if (strcmp(o->status, r->status) != 0) {
            int worse = strcmp(r->status, "ok") != 0;
            fill(&c, worse ? VB_WORSE : VB_BETTER, name, r->integ, r->plan, "status");
            snprintf(c.dt, sizeof c.dt, "%.6g", strtod(r->dt, NULL));
            snprintf(c.seed, sizeof c.seed, "%s", r->seed);
            snprintf(c.before, sizeof c.before, "%s", o->status);
            snprintf(c.after, sizeof c.after, "%s", r->status);
            *(worse ? &out->worse : &out->better) += 1;
            if (record(out, &c) != 0)
                goto oom;
        }
    }
    for (size_t i = 0; i < base.n; i++)
        if (!base.r[i].partner && base.r[i].level > shared)
            out->unshared++;
        else if (!base.r[i].partner) {
            fill(&c, VB_MISSING, name, base.r[i].integ, base.r[i].plan, "run");
            out->missing++;
            if (record(out, &c) != 0)
                goto oom;
        }
    /* series by series */
    for (size_t i = 0; i < now.n;) {
        size_t j = i;
        while (j < now.n && !strcmp(now.r[j].integ, now.r[i].integ) &&
               !strcmp(now.r[j].plan, now.r[i].plan))
            j++;
        for (int m = 0; m < N_METRICS; m++) {
            if (!now.has[m])
                continue;
            series s;
            if (build_series(&now, i, j, m, tol, &s) != 0)
                goto oom;
            if (s.n == 0)
                continue;
            if (signal_add(signal, now.r[i].integ, now.r[i].plan, m, s.signal_before,
                           s.signal_after) != 0 ||
                judge_series(&s, name, now.r[i].integ, now.r[i].plan, m, tol, out) != 0)
                goto oom;
        }
        i = j;
    }
    rc = 0;
    goto done;
oom:
    rc = oom(err, errlen);
done:
    free(base.r);
    free(now.r);
    return rc;
}

/* ---- orders.csv: fitted orders and verdicts ---- */

static const char *const VERDICTS[] = {"exact",        "as-expected",         "above-label",
                                       "undetermined", "no-asymptotic-range", "below-resolution",
                                       "uncertain",    "below-label",         "not-converging"};

/* How good a verdict is: exact, then meeting the label (as expected or
 * above it: both keep the promise), then no claim either way (nothing
 * fitted, no power law, or errors a reference solution cannot resolve:
 * the method may have got better, or the reference worse; either way the
 * label is no longer shown to hold), then below the label (or off it with
 * an interval that still reaches it, uncertain: the same failure to keep
 * the label, only not proven, so a change between the two is no change),
 * then an error that does not fall at all. */
static int verdict_rank(const char *v)
{
    static const int rank[] = {4, 3, 3, 2, 2, 2, 1, 1, 0};
    for (size_t i = 0; i < sizeof VERDICTS / sizeof VERDICTS[0]; i++)
        if (!strcmp(v, VERDICTS[i]))
            return rank[i];
    return -1;
}

typedef struct {
    const char *integ, *plan, *norm, *verdict;
    double order; /* NAN when none */
    unsigned long line;
    const void *partner;
} order_rec;

static int by_order_key(const void *a, const void *b)
{
    const order_rec *x = a, *y = b;
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
static int read_orders(const table *t, order_rec **out, char *err, size_t errlen)
{
    *out = NULL;
    int ci, cp, cn, co, cpt, cex, cv, crg, cd1, cd2, clo;
    if (need_column(t, "integrator", &ci, err, errlen) || need_column(t, "plan", &cp, err, errlen) ||
        need_column(t, "norm", &cn, err, errlen) || need_column(t, "order", &co, err, errlen) ||
        need_column(t, "points", &cpt, err, errlen) ||
        need_column(t, "expected", &cex, err, errlen) ||
        need_column(t, "verdict", &cv, err, errlen) || need_column(t, "range", &crg, err, errlen) ||
        need_column(t, "dt_first", &cd1, err, errlen) ||
        need_column(t, "dt_last", &cd2, err, errlen) ||
        need_column(t, "local_orders", &clo, err, errlen))
        return VB_COMPARE_BAD;
    if (t->nrow == 0)
        return bad(err, errlen, "%s: no orders, only a header: nothing to compare", t->path);
    order_rec *r = calloc(t->nrow, sizeof *r);
    if (!r)
        return oom(err, errlen);
    for (size_t i = 0; i < t->nrow; i++) {
        char **f = t->rows[i];
        r[i] = (order_rec){f[ci], f[cp], f[cn], f[cv], NAN, t->line[i], NULL};
        int known_norm = 0;
        for (int m = 0; m < N_METRICS; m++)
            known_norm |= !strcmp(r[i].norm, METRICS[m]);
        const char *why = !valid_name(r[i].integ) ? "integrator"
                          : !valid_plan(r[i].plan) ? "plan"
                          : !known_norm            ? "norm"
                          : verdict_rank(r[i].verdict) < 0 ? "verdict"
                                                          : NULL;
        if (why) {
            free(r);
            return bad(err, errlen, "%s:%lu: %s '%.60s' cannot be read", t->path, t->line[i], why,
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
        else if (parse_count(f[cex], &count) != 0)
            col = cex, want = "an integrator's label order (a count)";
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
            return bad_cell(t, i, col, want, err, errlen);
        }
    }
    qsort(r, t->nrow, sizeof *r, by_order_key);
    for (size_t i = 1; i < t->nrow; i++)
        if (by_order_key(&r[i - 1], &r[i]) == 0) {
            int rc = bad(err, errlen, "%s:%lu: the same order as line %lu (%s, %s, %s)", t->path,
                         r[i].line, r[i - 1].line, r[i].integ, r[i].plan, r[i].norm);
            free(r);
            return rc;
        }
    *out = r;
    return 0;
}

/* the baseline fits this norm for some integrator (a norm it fits for none
 * was added by a newer version: not damage) */
static int norm_known(const order_rec *b, size_t nb, const char *norm)
{
    for (size_t i = 0; i < nb; i++)
        if (!strcmp(b[i].norm, norm))
            return 1;
    return 0;
}

static int compare_orders(const table *bt, const table *nt, const char *name,
                          const vb_tolerance *tol, vb_changes *out, const signal_set *signal,
                          char *err, size_t errlen)
{
    order_rec *b, *n;
    int rc = read_orders(bt, &b, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = read_orders(nt, &n, err, errlen)) != 0) {
        free(b);
        return rc;
    }
    const char *list;
    if ((rc = need_list(bt, &list, err, errlen)) != 0)
        goto done;
    for (size_t i = 0; i < bt->nrow; i++)
        if (!in_list(list, b[i].integ)) {
            rc = bad(err, errlen, "%s:%lu: integrator %s is not in the header's list", bt->path,
                     b[i].line, b[i].integ);
            goto done;
        }
    /* every integrator is fitted on the same plans and norms: b is sorted
     * by (integrator, plan, norm), so each integrator's rows repeat the
     * first one's; an integrator with some of its orders gone is damage */
    size_t n_first = 0;
    while (n_first < bt->nrow && !strcmp(b[n_first].integ, b[0].integ))
        n_first++;
    for (size_t i = n_first; i < bt->nrow;) {
        size_t j = i;
        while (j < bt->nrow && !strcmp(b[j].integ, b[i].integ))
            j++;
        int same = j - i == n_first;
        for (size_t k = 0; same && k < n_first; k++)
            same = !strcmp(b[i + k].plan, b[k].plan) && !strcmp(b[i + k].norm, b[k].norm);
        if (!same) {
            rc = bad(err, errlen, "%s: the orders of %s (%zu) are not those of %s (%zu): the "
                                  "baseline is damaged (make a new one with make baseline)",
                     bt->path, b[i].integ, j - i, b[0].integ, n_first);
            goto done;
        }
        i = j;
    }
    /* and every integrator the header lists has them */
    for (const char *p = list;;) {
        const char *e = strchr(p, ',');
        char integ[64];
        snprintf(integ, sizeof integ, "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
        size_t k = 0;
        while (k < bt->nrow && strcmp(b[k].integ, integ) != 0)
            k++;
        if (k == bt->nrow) {
            rc = bad(err, errlen, "%s: no order of %s, which its header lists: the baseline is "
                                  "damaged (make a new one with make baseline)",
                     bt->path, integ);
            goto done;
        }
        if (!e)
            break;
        p = e + 1;
    }
    for (size_t i = 0; i < nt->nrow; i++) {
        order_rec *o = bsearch(&n[i], b, bt->nrow, sizeof *b, by_order_key);
        if (o) {
            o->partner = &n[i];
            n[i].partner = o;
        } else if (list && in_list(list, n[i].integ) && norm_known(b, bt->nrow, n[i].norm)) {
            rc = bad(err, errlen, "%s: no order of %s, %s, %s, which the case fits: the baseline "
                                  "is damaged (make a new one with make baseline)",
                     bt->path, n[i].integ, n[i].plan, n[i].norm);
            goto done;
        }
    }
    for (size_t i = 0; i < nt->nrow; i++) {
        const order_rec *r = &n[i], *o = r->partner;
        if (!o)
            continue; /* a new integrator: counted with its runs */
        int m = 0;
        while (m < N_METRICS && strcmp(METRICS[m], r->norm))
            m++;
        const signal_rec *sg = signal_find(signal, r->integ, r->plan, r->norm);
        if (FINAL[m] || !sg || (!sg->before && !sg->after))
            continue; /* final-time, or fitted to round-off on both sides */
        /* a series at round-off is as good as exact, whatever its fit says */
        const char *vb = sg->before ? o->verdict : "exact", *vn = sg->after ? r->verdict : "exact";
        out->compared++;
        int rank_b = verdict_rank(vb), rank_n = verdict_rank(vn), worse, better;
        if (rank_b != rank_n) {
            worse = rank_n < rank_b;
            better = !worse;
        } else if (isfinite(o->order) && isfinite(r->order) && sg->before && sg->after) {
            worse = r->order < o->order - tol->order_tol;
            better = r->order > o->order + tol->order_tol;
        } else {
            worse = better = 0;
        }
        if (!worse && !better)
            continue;
        vb_change c;
        char metric[40];
        snprintf(metric, sizeof metric, "order %s", r->norm);
        fill(&c, worse ? VB_WORSE : VB_BETTER, name, r->integ, r->plan, metric);
        snprintf(c.dt, sizeof c.dt, "all");
        if (sg->before && isfinite(o->order))
            snprintf(c.before, sizeof c.before, "%.2f %s", o->order, vb);
        else
            snprintf(c.before, sizeof c.before, "%s", vb);
        if (sg->after && isfinite(r->order))
            snprintf(c.after, sizeof c.after, "%.2f %s", r->order, vn);
        else
            snprintf(c.after, sizeof c.after, "%s", vn);
        *(worse ? &out->worse : &out->better) += 1;
        if (record(out, &c) != 0) {
            rc = oom(err, errlen);
            goto done;
        }
    }
    rc = 0;
done:
    free(b);
    free(n);
    return rc;
}

/* One '#' line of orders.csv against the same line of runs.csv: equal, but
 * that the first says what the file holds ("runs of" there, "fitted orders
 * of" here; output/provenance.c's lines, the same version and commit). */
static int same_comment(const char *runs, const char *orders)
{
    const char *what = strstr(runs, ": runs of ");
    if (strncmp(runs, "# verletbench ", 14) != 0 || !what)
        return strcmp(runs, orders) == 0;
    size_t n = (size_t)(what - runs);
    return strncmp(runs, orders, n) == 0 && strncmp(orders + n, ": fitted orders of ", 19) == 0 &&
           strcmp(what + 10, orders + n + 19) == 0;
}

/* A baseline's orders.csv was written by the same run as its runs.csv,
 * which alone is held against the case's parameters: it carries the same
 * '#' lines (version, parameters, integrators, truth), none gone, none
 * added.  Orders from another case or other parameters, or with those
 * lines deleted, would be judged as if they were this case's. */
static int same_header(const table *runs, const table *orders, char *err, size_t errlen)
{
    size_t n = runs->n_comments < orders->n_comments ? runs->n_comments : orders->n_comments;
    for (size_t i = 0; i < n; i++)
        if (!same_comment(runs->comments[i], orders->comments[i]))
            return bad(err, errlen,
                       "%s:%lu: '%.200s' where %s:%lu has '%.200s': not written with that "
                       "runs.csv; the baseline is damaged (make a new one with make baseline)",
                       orders->path, orders->comment_line[i], orders->comments[i], runs->path,
                       runs->comment_line[i], runs->comments[i]);
    if (runs->n_comments > n)
        return bad(err, errlen,
                   "%s: lacks the line '%.200s' of %s:%lu: not written with that runs.csv; the "
                   "baseline is damaged (make a new one with make baseline)",
                   orders->path, runs->comments[n], runs->path, runs->comment_line[n]);
    if (orders->n_comments > n)
        return bad(err, errlen,
                   "%s:%lu: '%.200s', which %s lacks: not written with that runs.csv; the "
                   "baseline is damaged (make a new one with make baseline)",
                   orders->path, orders->comment_line[n], orders->comments[n], runs->path);
    return 0;
}

int vb_compare_tables(const char *name, const char *case_path, vb_text base_runs,
                      vb_text base_orders, vb_text now_runs, vb_text now_orders,
                      const vb_tolerance *tol, vb_changes *out, char *err, size_t errlen)
{
    return vb_compare_tables_ex(name, case_path, base_runs, base_orders, now_runs, now_orders,
                                tol, 0, out, err, errlen);
}

int vb_compare_tables_ex(const char *name, const char *case_path, vb_text base_runs,
                         vb_text base_orders, vb_text now_runs, vb_text now_orders,
                         const vb_tolerance *tol, unsigned flags, vb_changes *out, char *err,
                         size_t errlen)
{
    table rb, rn, ob, on;
    int rc = table_parse(base_runs, &rb, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = table_parse(now_runs, &rn, err, errlen)) != 0) {
        table_free(&rb);
        return rc;
    }
    char provb[2048], provn[2048];
    provenance(&rb, flags, provb, sizeof provb);
    provenance(&rn, flags, provn, sizeof provn);
    if (strcmp(provb, provn) != 0) {
        rc = bad(err, errlen,
                 "%s: the baseline was made with other parameters than %s has now:\n"
                 "  baseline: %.400s  now:      %.400s"
                 "(a changed case needs a new baseline: make baseline)",
                 base_runs.path, case_path, provb[0] ? provb : "(no parameter lines)\n", provn);
        table_free(&rb);
        table_free(&rn);
        return rc;
    }
    size_t compared0 = out->compared;
    signal_set signal = {0};
    if ((rc = table_parse(base_orders, &ob, err, errlen)) != 0) {
        table_free(&rb);
        table_free(&rn);
        return rc;
    }
    rc = same_header(&rb, &ob, err, errlen);
    if (rc == 0)
        rc = compare_runs(&rb, &rn, name, tol, flags, out, &signal, err, errlen);
    /* the signal records point into the runs tables: free them after */
    if (rc == 0 && (rc = table_parse(now_orders, &on, err, errlen)) == 0) {
        rc = compare_orders(&ob, &on, name, tol, out, &signal, err, errlen);
        table_free(&on);
    }
    table_free(&ob);
    free(signal.v);
    table_free(&rb);
    table_free(&rn);
    if (rc == 0 && out->compared == compared0)
        rc = bad(err, errlen, "%s: no run of the baseline matches a run made now: nothing was "
                              "compared",
                 base_runs.path);
    return rc;
}

int vb_compare_gone(const char *name, vb_text base_runs, vb_changes *out, char *err,
                    size_t errlen)
{
    table t;
    run_set runs;
    int rc = table_parse(base_runs, &t, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = read_runs(&t, &runs, err, errlen)) == 0) {
        vb_change c;
        for (size_t i = 0; i < runs.n && rc == 0; i++) {
            fill(&c, VB_MISSING, name, runs.r[i].integ, runs.r[i].plan, "run");
            out->missing++;
            if (record(out, &c) != 0)
                rc = oom(err, errlen);
        }
        free(runs.r);
    }
    table_free(&t);
    return rc;
}

/* ---- the report ---- */

static void print_kind(const vb_changes *c, vb_change_kind kind, const char *title, FILE *f)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++)
        n += c->v[i].kind == kind;
    if (!n)
        return;
    fprintf(f, "\n%s:\n", title);
    if (kind == VB_MISSING || kind == VB_NEW) {
        fprintf(f, "  %-18s %-18s %-7s %s\n", "case", "integrator", "plan", "runs");
        for (size_t i = 0; i < c->n; i++)
            if (c->v[i].kind == kind)
                fprintf(f, "  %-18s %-18s %-7s %zu\n", c->v[i].case_name, c->v[i].integ,
                        c->v[i].plan, c->v[i].rows);
        return;
    }
    fprintf(f, "  %-18s %-18s %-7s %-10s %-6s %-26s %-24s %-24s %s\n", "case", "integrator",
            "plan", "dt", "seed", "metric", "baseline", "now", "change");
    for (size_t i = 0; i < c->n; i++) {
        const vb_change *v = &c->v[i];
        if (v->kind != kind)
            continue;
        char factor[48] = "";
        if (v->factor > 0)
            snprintf(factor, sizeof factor, v->factor >= 1 ? "x%.3g" : "/%.3g",
                     v->factor >= 1 ? v->factor : 1 / v->factor);
        char more[160] = "";
        if (v->note[0])
            snprintf(more, sizeof more, " (%s)", v->note);
        else if (v->rows > 1)
            snprintf(more, sizeof more, " (largest of %zu)", v->rows);
        fprintf(f, "  %-18s %-18s %-7s %-10s %-6s %-26s %-24s %-24s %s%s\n", v->case_name,
                v->integ, v->plan, v->dt, v->seed[0] ? v->seed : "-", v->metric, v->before,
                v->after, factor, more);
    }
}

void vb_changes_print(const vb_changes *c, FILE *f)
{
    print_kind(c, VB_WORSE, "WORSE than the baseline", f);
    print_kind(c, VB_MISSING, "MISSING: in the baseline, not run now", f);
    print_kind(c, VB_BETTER, "better than the baseline (not a failure; make baseline to keep it)",
               f);
    print_kind(c, VB_FINAL,
               "final-time errors that changed (not judged: they oscillate with the phase at t_end)",
               f);
    print_kind(c, VB_NEW, "new: no baseline to compare with", f);
}

int vb_changes_add_case(vb_changes *out, vb_change_kind kind, const char *name, size_t runs)
{
    vb_change c;
    fill(&c, kind, name, "(every one)", "-", "run");
    c.rows = runs;
    *(kind == VB_MISSING ? &out->missing : &out->added) += runs;
    return record(out, &c);
}

void vb_changes_header(FILE *f, const char *cmd, size_t cases, const char *what,
                       const vb_tolerance *tol)
{
    fprintf(f, "verletbench %s: %zu case%s %s (rtol %g, round-off floor %g ulps, order tolerance %g)\n",
            cmd, cases, cases == 1 ? "" : "s", what, tol->rtol, tol->floor_ulps, tol->order_tol);
}

void vb_changes_case_line(FILE *f, const char *name, int worse)
{
    fprintf(f, "  %-22s %s\n", name, worse ? "WORSE" : "ok");
}

int vb_changes_report(const vb_changes *c, FILE *f)
{
    vb_changes_print(c, f);
    if (c->unshared)
        fprintf(f,
                "\n%zu runs at step sizes only one side has were not compared; each side's "
                "orders are\nfitted over its own step sizes: a change of an order or a verdict "
                "says what the\nother step sizes show\n",
                c->unshared);
    int failed = c->worse > 0 || c->missing > 0;
    fprintf(f,
            "\n%s: %zu values compared; %zu worse, %zu better, %zu baseline runs missing, "
            "%zu new runs\n",
            failed ? "FAILED" : "passed", c->compared, c->worse, c->better, c->missing, c->added);
    return failed;
}

void vb_changes_free(vb_changes *c)
{
    free(c->v);
    memset(c, 0, sizeof *c);
}
