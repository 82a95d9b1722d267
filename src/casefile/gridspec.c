/* gridspec.c — the grid of a case file: the keys that hold several values
 * (a list "a, b, c", or a range "A .. B step S" or "A .. B times F"),
 * each expanded to its values, and where a point lies in the product of
 * them. */
#include "gridspec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"

/* The keys a grid may vary: the numbers of [case] and [steps], and a
 * solver's numbers of [contact] (iterations, substeps, ...: issue 55's
 * equal-cost comparison is a grid of them); never [contact]'s handler,
 * whose list is the case's entries, not points. */
static int gridable(const vb_entry *e)
{
    if (!strcmp(e->section, "contact"))
        return strcmp(e->key, "handler") != 0;
    if (!strcmp(e->section, "case"))
        return strcmp(e->key, "model") != 0 && strcmp(e->key, "description") != 0;
    if (!strcmp(e->section, "steps"))
        return strcmp(e->key, "trace") != 0;
    return 0;
}

/* Does a value hold several (a list or a range)? */
static int looks_like_grid(const char *v) { return strchr(v, ',') || strstr(v, ".."); }

/* "1 2 3": numbers side by side, a list without its commas */
static int numbers_without_commas(const char *v)
{
    char text[VB_CASE_LINE_MAX + 1];
    snprintf(text, sizeof text, "%s", v);
    int n = 0;
    double x;
    for (char *save = NULL, *tok = strtok_r(text, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save), n++)
        if (vb_parse_double(tok, &x) != 0)
            return 0;
    return n >= 2;
}

/* A grid key names a column of grid.csv and a part of each point's
 * directory name: letters, digits and '_', and none of the table's own
 * columns (a plugin's parameter may be named anything else) */
static const char *const grid_columns[] = {
    "point",      "integrator",  "plan",         "norm",         "order",
    "order_se",   "order_ci95",  "points",       "expected",     "verdict",
    "range",      "dt_coarsest", "tol_coarsest", "err_coarsest", "dt_finest",
    "tol_finest", "err_finest",  "same_as"};

static int grid_key_ok(const char *key)
{
    for (const char *c = key; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_'))
            return 0;
    for (size_t i = 0; i < sizeof grid_columns / sizeof grid_columns[0]; i++)
        if (!strcmp(key, grid_columns[i]))
            return 0;
    return key[0] != '\0';
}

/* A number of a grid, as text: the shortest that reads back to it. */
void vb_grid_value_text(double x, char *buf)
{
    vb_format_shortest(x == 0.0 ? 0.0 : x, buf, VB_GRID_VALUE_TEXT); /* no "-0" */
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

/* A value of a range rounded to 15 significant digits, the digits a double
 * always holds: 10 1.5^3 is 33.75 however pow rounds, and a grid point
 * should be the number a reader of the file expects. */
static double round15(double x)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", x);
    return strtod(buf, NULL);
}

/* A number as written, m 10^e exactly, |m| < 10^17: 0, or -1 when it has
 * more digits than that or is not a plain decimal ("0x1p-3", "inf"). */
static int decimal(const char *t, long long *m, int *e)
{
    const char *p = t;
    int neg = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    long long v = 0;
    int digits = 0, scale = 0, any = 0, dot = 0;
    for (;; p++) {
        if (*p == '.' && !dot) {
            dot = 1;
            continue;
        }
        if (*p < '0' || *p > '9')
            break;
        any = 1;
        if (v == 0 && *p == '0') {
            scale -= dot; /* a leading zero after the point */
            continue;
        }
        if (++digits > 17)
            return -1;
        v = v * 10 + (*p - '0');
        scale -= dot;
    }
    if (!any)
        return -1;
    long ex = 0;
    if (*p == 'e' || *p == 'E') {
        char *end;
        ex = strtol(p + 1, &end, 10);
        if (end == p + 1 || ex > 300 || ex < -300)
            return -1;
        p = end;
    }
    if (*p)
        return -1;
    *m = neg ? -v : v;
    *e = scale + (int)ex;
    return 0;
}

/* m 10^(from) as a multiple of 10^to (to <= from), or -1 when it grows
 * past what 64 bits hold with room to add */
static int rescale(long long *m, int from, int to)
{
    for (int k = to; k < from; k++) {
        if (*m > 100000000000000000LL || *m < -100000000000000000LL)
            return -1;
        *m *= 10;
    }
    return 0;
}

/* what a grid is written as, for a message */
static const char grid_hint[] =
    "a list 'a, b, c', or a range 'A .. B step S' or 'A .. B times F'";

/* The values of a list "a, b, c" (text: a copy of e's value, cut here) into
 * x[] (at most cap).  Their count, or 0 after a message. */
static size_t list_values(vb_parser *p, const vb_entry *e, char *text, double *x, size_t cap)
{
    size_t n = 0;
    for (char *save = NULL, *tok = strtok_r(text, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *t = trim(tok);
        if (!*t) {
            vb_parser_fail(p, e->line, "%s: an empty value in the list '%s'", e->key, e->value);
            return 0;
        }
        if (n == cap) {
            vb_parser_fail(p, e->line, "%s: more than %d values", e->key, VB_MAX_GRID_POINTS);
            return 0;
        }
        if (vb_parse_double(t, &x[n]) != 0) {
            vb_parser_fail(p, e->line,
                           "%s: '%s' in the list %s (a grid is %s)", e->key, t,
                           vb_number_refusal(t), grid_hint);
            return 0;
        }
        n++;
    }
    /* "1, 2," or "1,,2": a value left out is a mistake, not a grid of fewer */
    size_t commas = 0;
    for (const char *c = e->value; *c; c++)
        commas += *c == ',';
    if (commas + 1 != n) {
        vb_parser_fail(p, e->line, "%s: an empty value in the list '%s'", e->key, e->value);
        return 0;
    }
    return n;
}

/* A + i S as decimals, exactly, where A, B and S are plain decimals of at
 * most 17 digits: the points are the numbers a reader of the file expects,
 * read as doubles only at the end (0.9 .. 0 step -0.3 ends on 0, where
 * 0.9 + 3 (-0.3) is 1.1e-16 in binary).  Their count into x[] (at most
 * cap); 0 after a message; -1 when A, B and S are not such decimals. */
static long decimal_range(vb_parser *p, const vb_entry *e, const char *a_text,
                          const char *b_text, const char *s_text, double *x, size_t cap)
{
    long long ma, mb, ms;
    int ea, eb, es;
    if (decimal(a_text, &ma, &ea) != 0 || decimal(b_text, &mb, &eb) != 0 ||
        decimal(s_text, &ms, &es) != 0)
        return -1;
    int e0 = ea < eb ? (ea < es ? ea : es) : (eb < es ? eb : es);
    if (rescale(&ma, ea, e0) != 0 || rescale(&mb, eb, e0) != 0 || rescale(&ms, es, e0) != 0)
        return -1;
    if (ms == 0) {
        vb_parser_fail(p, e->line, "%s: '%s': the step S must not be 0", e->key, e->value);
        return 0;
    }
    long long steps = (mb - ma) / ms; /* whole steps toward B */
    if (steps < 1) {
        vb_parser_fail(p, e->line,
                       "%s: '%s' has fewer than two points: the step must lead "
                       "from %s toward %s and reach A + S at least once",
                       e->key, e->value, a_text, b_text);
        return 0;
    }
    if (steps + 1 > (long long)cap) {
        vb_parser_fail(p, e->line, "%s: '%s' has more than %d points", e->key, e->value,
                       VB_MAX_GRID_POINTS);
        return 0;
    }
    size_t n = 0;
    for (long long i = 0; i <= steps; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%llde%d", ma + i * ms, e0);
        x[n++] = strtod(buf, NULL);
    }
    return (long)n;
}

/* A range in binary: how many steps of S (factors of F, geometric) lead
 * from A to B, B included when a whole number of them reaches it to
 * round-off (1e-12 of a step), each point rounded to the 15 digits a double
 * always holds, and none past B.  Their count into x[] (at most cap), or 0
 * after a message. */
static size_t binary_range(vb_parser *p, const vb_entry *e, double a, double b, double by,
                           int geometric, const char *a_text, const char *b_text, double *x,
                           size_t cap)
{
    double span;
    if (geometric) {
        if (!(a != 0.0 && b != 0.0 && (a > 0.0) == (b > 0.0) && by > 0.0 && by != 1.0)) {
            vb_parser_fail(p, e->line,
                           "%s: '%s': a range by a factor needs A and B of one sign, "
                           "neither 0, and F > 0, F != 1",
                           e->key, e->value);
            return 0;
        }
        span = log(b / a) / log(by);
    } else {
        if (!(by != 0.0)) {
            vb_parser_fail(p, e->line, "%s: '%s': the step S must not be 0", e->key, e->value);
            return 0;
        }
        span = (b - a) / by;
    }
    if (!(span >= 1.0 - 1e-12) || !isfinite(span)) {
        vb_parser_fail(p, e->line,
                       "%s: '%s' has fewer than two points: %s must lead from %s toward "
                       "%s and reach %s at least once",
                       e->key, e->value, geometric ? "the factor" : "the step", a_text, b_text,
                       geometric ? "A F" : "A + S");
        return 0;
    }
    if (span + 1.0 > (double)cap + 1e-12) {
        vb_parser_fail(p, e->line, "%s: '%s' has more than %d points", e->key, e->value,
                       VB_MAX_GRID_POINTS);
        return 0;
    }
    size_t n = (size_t)floor(span + 1e-12) + 1;
    for (size_t i = 0; i < n; i++)
        x[i] = round15(geometric ? a * pow(by, (double)i) : a + (double)i * by);
    /* a last point past B by round-off is B (1 .. 1000 times 10 ends
     * on 1000, never on 1000.0000000000002) */
    if ((x[n - 1] - b) * (b - a) > 0.0)
        x[n - 1] = b;
    return n;
}

/* The values of a range "A .. B step S" or "A .. B times F" (text: a copy
 * of e's value, cut here; dots: its "..") into x[] (at most cap).  Their
 * count, or 0 after a message. */
static size_t range_values(vb_parser *p, const vb_entry *e, char *text, char *dots, double *x,
                           size_t cap)
{
    if (strchr(text, ',') || strstr(dots + 2, "..") || dots[2] == '.') {
        vb_parser_fail(p, e->line, "%s: '%s' is not a grid: %s", e->key, e->value, grid_hint);
        return 0;
    }
    *dots = '\0';
    char *rest = dots + 2, *word[4];
    int nw = 0;
    for (char *save = NULL, *tok = strtok_r(rest, " \t", &save); tok && nw < 4;
         tok = strtok_r(NULL, " \t", &save))
        word[nw++] = tok;
    const char *a_text = trim(text);
    double a, b, by;
    int geometric = nw == 3 && !strcmp(word[1], "times");
    if (nw != 3 || (strcmp(word[1], "step") && !geometric) || vb_parse_double(a_text, &a) != 0 ||
        vb_parse_double(word[0], &b) != 0 || vb_parse_double(word[2], &by) != 0) {
        vb_parser_fail(p, e->line,
                       "%s: '%s' is not a range: write 'A .. B step S' (A, A + S, ... up "
                       "to B) or 'A .. B times F' (A, A F, A F^2, ... up to B)",
                       e->key, e->value);
        return 0;
    }
    if (!geometric) {
        long n = decimal_range(p, e, a_text, word[0], word[2], x, cap);
        if (n >= 0)
            return (size_t)n;
    }
    return binary_range(p, e, a, b, by, geometric, a_text, word[0], x, cap);
}

/* The values of a grid entry into x[] (at most cap): "a, b, c", "A .. B
 * step S" or "A .. B times F", two or more, each once.  Their count, or 0
 * after a message. */
static size_t grid_values(vb_parser *p, const vb_entry *e, double *x, size_t cap)
{
    char text[VB_CASE_LINE_MAX + 1];
    snprintf(text, sizeof text, "%s", e->value);
    char *dots = strstr(text, "..");
    size_t n = dots ? range_values(p, e, text, dots, x, cap) : list_values(p, e, text, x, cap);
    if (n == 0)
        return 0;
    if (n < 2) {
        vb_parser_fail(p, e->line, "%s: a grid of one value '%s': write the value alone", e->key,
                       e->value);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (x[i] == x[j] || !isfinite(x[i])) {
                char t[VB_GRID_VALUE_TEXT];
                vb_grid_value_text(x[i], t);
                vb_parser_fail(p, e->line, "%s: %s %s", e->key, t,
                               isfinite(x[i]) ? "appears twice in the grid"
                                              : "is not a finite number");
                return 0;
            }
    return n;
}

void vb_grid_spec_free(vb_grid_spec *g)
{
    for (int k = 0; k < g->n; k++)
        free(g->x[k]);
}

/* Find the keys with several values and expand each.  0 (g->n = 0 for a
 * case of one point) or -1 after a message. */
int vb_grid_spec_find(vb_parser *p, vb_grid_spec *g)
{
    memset(g, 0, sizeof *g);
    g->points = 1;
    for (size_t i = 0; i < p->n_keys; i++) {
        vb_entry *e = &p->keys[i];
        /* a trace is a path ("../traces/a.trace" is one file) and a
         * description text: neither is ever a grid */
        int sec = !strcmp(e->section, "case") || !strcmp(e->section, "steps") ||
                  !strcmp(e->section, "contact");
        if (!sec || !strcmp(e->key, "description") || !strcmp(e->key, "trace") ||
            (!strcmp(e->section, "contact") && !strcmp(e->key, "handler")))
            continue;
        if (gridable(e) && !looks_like_grid(e->value) && numbers_without_commas(e->value)) {
            vb_parser_fail(p, e->line,
                           "%s: '%s' is several numbers without commas: a list is written "
                           "'a, b, c'",
                           e->key, e->value);
            return -1;
        }
        if (!looks_like_grid(e->value))
            continue;
        if (!gridable(e)) {
            vb_parser_fail(p, e->line,
                           "%s: one model a case (a grid varies numbers: the model's "
                           "parameters, t_end, dt, halvings, jitter, seeds, tolerance and "
                           "a contact solver's keys)",
                           e->key);
            return -1;
        }
        if (!grid_key_ok(e->key)) {
            vb_parser_fail(p, e->line,
                           "%s: a grid's key names a column of grid.csv and its points' "
                           "directories: use letters, digits and '_', and not the table's "
                           "own columns (point, integrator, plan, norm, order, ...)",
                           e->key);
            return -1;
        }
        if (g->n == VB_MAX_GRID_KEYS) {
            vb_parser_fail(p, e->line, "%s: a grid over more than %d keys", e->key,
                           VB_MAX_GRID_KEYS);
            return -1;
        }
        double *x = malloc(VB_MAX_GRID_POINTS * sizeof *x);
        if (!x) {
            vb_parser_fail(p, e->line, "out of memory");
            return -1;
        }
        g->x[g->n] = x;
        g->e[g->n] = e;
        snprintf(g->spec[g->n], sizeof g->spec[g->n], "%s", e->value);
        size_t n = grid_values(p, e, x, VB_MAX_GRID_POINTS);
        g->count[g->n++] = n;
        if (n == 0)
            return -1;
        if ((double)g->points * (double)n > VB_MAX_GRID_POINTS) {
            vb_parser_fail(p, e->line, "%s: the grid has %.0f points, more than %d", e->key,
                           (double)g->points * (double)n, VB_MAX_GRID_POINTS);
            return -1;
        }
        g->points *= n;
    }
    return 0;
}

/* Point `pt` of the grid: its index along each key (the first slowest). */
void vb_grid_spec_index(const vb_grid_spec *g, size_t pt, size_t *idx)
{
    for (int k = g->n; k-- > 0;) {
        idx[k] = pt % g->count[k];
        pt /= g->count[k];
    }
}

/* Where a case lies in its grid; NULL when out of memory. */
vb_case_grid *vb_grid_spec_point(const vb_grid_spec *g, const char *name, size_t pt)
{
    vb_case_grid *cg = calloc(1, sizeof *cg);
    if (!cg || !(cg->name = strdup(name))) {
        free(cg);
        return NULL;
    }
    size_t idx[VB_MAX_GRID_KEYS];
    vb_grid_spec_index(g, pt, idx);
    cg->point = pt;
    cg->points = g->points;
    cg->n_keys = g->n;
    size_t used = 0;
    for (int k = 0; k < g->n; k++) {
        snprintf(cg->key[k], sizeof cg->key[k], "%s", g->e[k]->key);
        snprintf(cg->section[k], sizeof cg->section[k], "%s", g->e[k]->section);
        snprintf(cg->spec[k], sizeof cg->spec[k], "%s", g->spec[k]);
        cg->count[k] = g->count[k];
        cg->value[k] = g->x[k][idx[k]];
        vb_grid_value_text(cg->value[k], cg->text[k]);
        used += (size_t)snprintf(cg->label + used, sizeof cg->label - used, "%s%s=%s",
                                 k ? "," : "", cg->key[k], cg->text[k]);
    }
    return cg;
}
