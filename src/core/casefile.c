/* casefile.c — case files through libinih.
 *
 * Debian's libinih is built without line numbers in the handler, so the text
 * reaches it through a reader that counts lines; the reader also does what
 * inih would otherwise get subtly wrong for us: it strips leading blanks (so
 * an indented line is not taken as the continuation of the previous value),
 * cuts '#' comments after a value, rejects lines longer than inih's buffer
 * instead of letting inih split them, and notes section headers (inih
 * reports only keys, so an empty or unknown section would pass unseen). */
#include "casefile.h"
#include "infile.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "integrator.h"

/* inih's line buffer (INI_MAX_LINE) is 200 bytes, with room for "\r\n\0" */
#define INIH_MAX_LINE 200
#define MAX_LINE (INIH_MAX_LINE - 3)
#define MAX_KEYS 64

typedef struct {
    char section[32];
    char key[32];
    char value[MAX_LINE + 1];
    unsigned long line;
} entry;

typedef struct {
    const char *path;
    const char *text;
    size_t len, pos;
    unsigned long line;
    entry keys[MAX_KEYS];
    size_t n_keys;
    char sections[4][16];
    int n_sections;
    char err[768];
    int failed;
} parser;

/* the first three are required; [engines] is not */
static const char *const known_sections[] = {"case", "steps", "integrators", "engines"};
#define N_SECTIONS 4

static void fail(parser *p, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(parser *p, unsigned long line, const char *fmt, ...)
{
    if (p->failed)
        return; /* the first mistake is the one to fix */
    int n = snprintf(p->err, sizeof p->err, "%s:%lu: ", p->path, line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, sizeof p->err - (size_t)n, fmt, ap);
    va_end(ap);
    p->failed = 1;
}

/* s is the line's n characters, not NUL-terminated */
static void note_section(parser *p, const char *s, size_t len)
{
    const char *end = memchr(s, ']', len);
    if (!end) {
        /* inih would take "[steps" as a section name; say what is wrong */
        fail(p, p->line, "syntax error: '[' without a closing ']'");
        return;
    }
    size_t n = (size_t)(end - s - 1);
    char name[64];
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, s + 1, n);
    name[n] = '\0';
    for (size_t i = 0; i < N_SECTIONS; i++)
        if (strcmp(name, known_sections[i]) == 0) {
            for (int k = 0; k < p->n_sections; k++)
                if (strcmp(p->sections[k], name) == 0) {
                    fail(p, p->line, "[%s] appears twice", name);
                    return;
                }
            strcpy(p->sections[p->n_sections++], name);
            return;
        }
    fail(p, p->line, "unknown section [%s] (valid: [case], [steps], [integrators], [engines])",
         name);
}

/* inih's reader: one line a call, like fgets */
static char *reader(char *buf, int size, void *stream)
{
    parser *p = stream;
    if (p->pos >= p->len || p->failed)
        return NULL;
    const char *s = p->text + p->pos;
    const char *nl = memchr(s, '\n', p->len - p->pos);
    size_t n = nl ? (size_t)(nl - s) : p->len - p->pos;
    p->pos += n + (nl ? 1 : 0);
    p->line++;
    if (memchr(s, '\0', n)) {
        fail(p, p->line, "binary data (a NUL byte); a case file is text");
        return NULL;
    }
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    /* a '#' after a blank starts a comment, as ';' does for inih */
    for (size_t i = 1; i < n; i++)
        if (s[i] == '#' && (s[i - 1] == ' ' || s[i - 1] == '\t')) {
            n = i;
            break;
        }
    while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n > MAX_LINE || (int)n + 2 > size) {
        fail(p, p->line, "line is longer than %d characters", MAX_LINE);
        return NULL;
    }
    memcpy(buf, s, n);
    buf[n] = '\n';
    buf[n + 1] = '\0';
    if (n > 0 && s[0] == '[')
        note_section(p, s, n);
    return buf;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
    parser *p = user;
    if (p->failed)
        return 0;
    if (!section[0]) {
        fail(p, p->line, "%s: a key before any section ([case], [steps], [integrators])", key);
        return 0;
    }
    for (size_t i = 0; i < p->n_keys; i++)
        if (strcmp(p->keys[i].section, section) == 0 && strcmp(p->keys[i].key, key) == 0) {
            fail(p, p->line, "%s: duplicate key (first set at line %lu)", key, p->keys[i].line);
            return 0;
        }
    if (!value[0]) {
        fail(p, p->line, "%s: empty value", key);
        return 0;
    }
    if (p->n_keys == MAX_KEYS) {
        fail(p, p->line, "%s: more than %d keys", key, MAX_KEYS);
        return 0;
    }
    if (strlen(key) >= sizeof p->keys[0].key) {
        fail(p, p->line, "%.40s...: unknown key", key);
        return 0;
    }
    entry *e = &p->keys[p->n_keys++];
    snprintf(e->section, sizeof e->section, "%s", section);
    snprintf(e->key, sizeof e->key, "%s", key);
    snprintf(e->value, sizeof e->value, "%s", value);
    e->line = p->line;
    return 1;
}

static const entry *find(const parser *p, const char *section, const char *key)
{
    for (size_t i = 0; i < p->n_keys; i++)
        if (strcmp(p->keys[i].section, section) == 0 && strcmp(p->keys[i].key, key) == 0)
            return &p->keys[i];
    return NULL;
}

/* The line of a section header, for "missing key" messages. */
static unsigned long section_line(const parser *p, const char *section)
{
    for (size_t i = 0; i < p->n_keys; i++)
        if (strcmp(p->keys[i].section, section) == 0)
            return p->keys[i].line;
    return 1;
}

static const entry *require(parser *p, const char *section, const char *key)
{
    const entry *e = find(p, section, key);
    if (!e)
        fail(p, section_line(p, section), "[%s] %s: missing (required)", section, key);
    return e;
}

static int number(parser *p, const entry *e, double *out)
{
    if (vb_parse_double(e->value, out) != 0) {
        fail(p, e->line, "%s: '%s' is not a finite number", e->key, e->value);
        return -1;
    }
    return 0;
}

static int whole(parser *p, const entry *e, int lo, int hi, int *out)
{
    double x;
    if (vb_parse_double(e->value, &x) != 0 || x != floor(x)) {
        fail(p, e->line, "%s: '%s' is not a whole number", e->key, e->value);
        return -1;
    }
    if (x < lo || x > hi) {
        fail(p, e->line, "%s = %s is out of range: %s must be in %d..%d", e->key, e->value,
             e->key, lo, hi);
        return -1;
    }
    *out = (int)x;
    return 0;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* A case's name is a directory under --out: one safe path component, not
 * too long for the hidden ".NAME.new-XXXXXX" beside it (NAME_MAX 255), and
 * not a name verletbench gives something else in an output directory. */
#define CASE_NAME_MAX 200
static const char *const reserved_names[] = {"summary.md", "REPORT.md", "bench.csv",
                                             "bench-engine.csv", "baseline"};

static int reserved_name(const char *s)
{
    for (size_t i = 0; i < sizeof reserved_names / sizeof reserved_names[0]; i++)
        if (strcmp(s, reserved_names[i]) == 0)
            return 1;
    return 0;
}

static int safe_name(const char *s)
{
    if (!s[0] || s[0] == '.' || strlen(s) > CASE_NAME_MAX || reserved_name(s))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '.' || *s == '+'))
            return 0;
    return 1;
}

/* "cases/spring.case" -> "spring" */
static char *case_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".case") == 0)
        n -= 5;
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, base, n);
        s[n] = '\0';
    }
    return s;
}

/* A trace path is relative to the case file's directory. */
static char *resolve(const char *case_path, const char *rel)
{
    const char *slash = strrchr(case_path, '/');
    if (rel[0] == '/' || !slash)
        return strdup(rel);
    size_t d = (size_t)(slash - case_path) + 1, n = strlen(rel);
    char *s = malloc(d + n + 1);
    if (s) {
        memcpy(s, case_path, d);
        memcpy(s + d, rel, n + 1);
    }
    return s;
}

static int check_case(parser *p, vb_case *c)
{
    /* every key must be known: the model's parameters once the model is */
    const entry *m = require(p, "case", "model");
    if (!m)
        return -1;
    const vb_model_type *type = vb_model_find(m->value);
    if (!type) {
        char names[256];
        vb_model_names_text(names, sizeof names);
        fail(p, m->line, "model: unknown model '%s' (valid: %s)", m->value, names);
        return -1;
    }
    vb_model_defaults(&c->model, type);
    for (size_t i = 0; i < p->n_keys; i++) {
        const entry *e = &p->keys[i];
        char err[512];
        if (strcmp(e->section, "case") != 0 || !strcmp(e->key, "model") ||
            !strcmp(e->key, "t_end") || !strcmp(e->key, "description"))
            continue;
        if (vb_model_set(&c->model, e->key, e->value, err, sizeof err) != 0) {
            if (strncmp(err, "unknown parameter", 17) == 0) {
                char names[256];
                vb_model_param_names(type, names, sizeof names);
                fail(p, e->line, "%s: unknown key in [case] (valid: model, t_end, description, %s)",
                     e->key, names);
            } else {
                fail(p, e->line, "%s", err);
            }
            return -1;
        }
    }
    char err[512];
    if (vb_model_setup(&c->model, err, sizeof err) != 0) {
        fail(p, m->line, "%s", err);
        return -1;
    }
    const entry *d = find(p, "case", "description");
    c->description = dup_or_null(d ? d->value : NULL);
    const entry *t = require(p, "case", "t_end");
    if (!t || number(p, t, &c->t_end) != 0)
        return -1;
    if (!(c->t_end > 0.0)) {
        fail(p, t->line, "t_end = %s must be > 0", t->value);
        return -1;
    }
    return 0;
}

static int check_steps(parser *p, vb_case *c)
{
    static const char *const keys[] = {"dt", "halvings", "jitter", "seeds", "trace", "tolerance"};
    for (size_t i = 0; i < p->n_keys; i++) {
        const entry *e = &p->keys[i];
        if (strcmp(e->section, "steps") != 0)
            continue;
        int ok = 0;
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            ok |= strcmp(e->key, keys[k]) == 0;
        if (!ok) {
            fail(p, e->line,
                 "%s: unknown key in [steps] (valid: dt, halvings, jitter, seeds, trace, "
                 "tolerance)",
                 e->key);
            return -1;
        }
    }
    const entry *dt = require(p, "steps", "dt");
    if (!dt || number(p, dt, &c->dt) != 0)
        return -1;
    if (!(c->dt > 0.0)) {
        fail(p, dt->line, "dt = %s must be > 0", dt->value);
        return -1;
    }
    const entry *h = require(p, "steps", "halvings");
    if (!h || whole(p, h, 2, VB_MAX_HALVINGS, &c->halvings) != 0)
        return -1;
    const entry *j = find(p, "steps", "jitter");
    c->jitter = 0.0;
    if (j) {
        if (number(p, j, &c->jitter) != 0)
            return -1;
        if (!(c->jitter >= 0.0 && c->jitter < 1.0)) {
            fail(p, j->line, "jitter = %s must be in [0, 1)", j->value);
            return -1;
        }
    }
    const entry *s = find(p, "steps", "seeds");
    c->seeds = 0;
    if (c->jitter > 0.0) {
        if (!s) {
            fail(p, j->line, "seeds: missing: jitter > 0 asks for random plans, seeds says how many");
            return -1;
        }
        if (whole(p, s, 1, VB_MAX_SEEDS, &c->seeds) != 0)
            return -1;
    } else if (s && whole(p, s, 0, VB_MAX_SEEDS, &c->seeds) != 0) {
        return -1;
    }
    /* adaptive integrators: the tolerance at level 0, divided by
     * VB_TOL_RATIO a level; the finest must stay above what double
     * precision can hold a step to */
    const entry *tol = find(p, "steps", "tolerance");
    c->tolerance = VB_CASE_TOLERANCE;
    if (tol) {
        if (number(p, tol, &c->tolerance) != 0)
            return -1;
        if (!(c->tolerance > 0.0 && c->tolerance <= 1.0)) {
            fail(p, tol->line, "tolerance = %s must be in (0, 1]", tol->value);
            return -1;
        }
    }
    double finest = c->tolerance * pow(10.0, -(double)(c->halvings - 1));
    if (finest < 1e-14) {
        fail(p, tol ? tol->line : h->line,
             "%s: the finest tolerance of an adaptive integrator, %g / 10^%d = %.3g, is below "
             "1e-14 (double precision): raise tolerance or lower halvings",
             tol ? "tolerance" : "halvings", c->tolerance, c->halvings - 1, finest);
        return -1;
    }
    const entry *tr = find(p, "steps", "trace");
    if (tr) {
        char err[768];
        c->trace_path = resolve(p->path, tr->value);
        if (!c->trace_path || vb_trace_load(c->trace_path, &c->trace, err, sizeof err) != 0) {
            fail(p, tr->line, "trace: %s", c->trace_path ? err : "out of memory");
            return -1;
        }
        /* the rule the plan applies at level 0, where the trace is played
         * once: it may fall short of t_end only by the landing tolerance */
        if (c->t_end > c->trace.sum + VB_PLAN_LAND_TOL * c->trace.sum / (double)c->trace.n) {
            fail(p, tr->line, "trace: %s: the trace sums to %.17g, short of t_end = %.17g", c->trace_path,
                 c->trace.sum, c->t_end);
            return -1;
        }
    }
    return 0;
}

static int check_integrators(parser *p, vb_case *c)
{
    for (size_t i = 0; i < p->n_keys; i++)
        if (!strcmp(p->keys[i].section, "integrators") && strcmp(p->keys[i].key, "use") != 0) {
            fail(p, p->keys[i].line, "%s: unknown key in [integrators] (valid: use)", p->keys[i].key);
            return -1;
        }
    const entry *u = require(p, "integrators", "use");
    if (!u)
        return -1;
    size_t total = vb_integrator_count();
    c->integ = calloc(total, sizeof *c->integ);
    if (!c->integ) {
        fail(p, u->line, "out of memory");
        return -1;
    }
    if (strcmp(u->value, "all") == 0) {
        /* the adaptive methods sweep a tolerance on frames of dt, which
         * only a case chosen for them makes sense of: they are named */
        for (size_t i = 0; i < total; i++)
            if (!(vb_integrator_at(i)->flags & VB_ADAPTIVE))
                c->integ[c->n_integ++] = vb_integrator_at(i);
        return 0;
    }
    char list[MAX_LINE + 1];
    snprintf(list, sizeof list, "%s", u->value);
    for (char *save = NULL, *tok = strtok_r(list, ", \t", &save); tok;
         tok = strtok_r(NULL, ", \t", &save)) {
        if (strcmp(tok, "all") == 0) {
            fail(p, u->line, "use: 'all' means every integrator with steps of its own size "
                             "(not the adaptive ones) and stands alone: write 'use = all' or a "
                             "list of names");
            return -1;
        }
        const vb_integrator *g = vb_integrator_find(tok);
        if (!g) {
            char names[512];
            vb_integrator_names(names, sizeof names);
            fail(p, u->line, "use: unknown integrator '%s' (valid: all, %s)", tok, names);
            return -1;
        }
        for (size_t k = 0; k < c->n_integ; k++)
            if (c->integ[k] == g) {
                fail(p, u->line, "use: %s is listed twice", tok);
                return -1;
            }
        c->integ[c->n_integ++] = g;
    }
    if (c->n_integ == 0) {
        fail(p, u->line, "use: no integrators");
        return -1;
    }
    return 0;
}

/* The directory a case file is in ("." for none): where its engines run. */
static char *case_dir(const char *case_path)
{
    const char *slash = strrchr(case_path, '/');
    if (!slash)
        return strdup(".");
    if (slash == case_path)
        return strdup("/");
    return strndup(case_path, (size_t)(slash - case_path));
}

/* [engines]: NAME = COMMAND, NAME.order = P, and timeout = SECONDS for all */
static int check_engines(parser *p, vb_case *c)
{
    double timeout = VB_ENGINE_TIMEOUT;
    const entry *t = find(p, "engines", "timeout");
    if (t && (number(p, t, &timeout) != 0 || !(timeout > 0.0 && timeout <= 1e6))) {
        if (!p->failed)
            fail(p, t->line, "timeout = %s must be in (0, 1e6] seconds", t->value);
        return -1;
    }
    char *cwd = case_dir(p->path);
    if (!cwd) {
        fail(p, 1, "out of memory");
        return -1;
    }
    int rc = 0;
    /* the NAME.KEY lines first: a misspelt NAME.order is said as itself,
     * not as the engine that lacks an order */
    for (size_t i = 0; i < p->n_keys && rc == 0; i++) {
        const entry *e = &p->keys[i];
        if (strcmp(e->section, "engines") != 0 || !strcmp(e->key, "timeout"))
            continue;
        const char *dot = strchr(e->key, '.');
        if (dot) {
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)(dot - e->key), e->key);
            if (strcmp(dot, ".order") != 0 || !find(p, "engines", name)) {
                fail(p, e->line, "%s: unknown key in [engines] (valid: NAME = COMMAND, "
                                 "NAME.order = P, timeout = SECONDS)",
                     e->key);
                rc = -1;
            }
        }
    }
    for (size_t i = 0; i < p->n_keys && rc == 0; i++) {
        const entry *e = &p->keys[i];
        if (strcmp(e->section, "engines") != 0 || !strcmp(e->key, "timeout") ||
            strchr(e->key, '.'))
            continue;
        char okey[40];
        snprintf(okey, sizeof okey, "%s.order", e->key);
        const entry *o = find(p, "engines", okey);
        double order;
        if (!o) {
            fail(p, e->line, "%s: the engine needs %s = P, the order its method should have", e->key,
                 okey);
            rc = -1;
            break;
        }
        if (strspn(o->value, "0123456789") != strlen(o->value) || number(p, o, &order) != 0 ||
            order != floor(order) || order < 1 || order > 16) {
            if (!p->failed)
                fail(p, o->line, "%s = %s must be a whole number from 1 to 16", okey, o->value);
            rc = -1;
            break;
        }
        char why[256];
        vb_engine *eng = vb_engine_new(e->key, (int)order, e->value, NULL, cwd, timeout, why,
                                       sizeof why);
        if (!eng) {
            fail(p, e->line, "%s", why);
            rc = -1;
            break;
        }
        if (vb_case_add_engine(c, eng, why, sizeof why) != 0) {
            vb_engine_free(eng);
            fail(p, e->line, "%s", why);
            rc = -1;
        }
    }
    free(cwd);
    return rc;
}

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
    return 0;
}

void vb_case_engines_only(vb_case *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n_integ; i++)
        if (vb_engine_of(c->integ[i]))
            c->integ[k++] = c->integ[i];
    c->n_integ = k;
}

int vb_case_parse(const char *path, const char *text, size_t len, vb_case *c, char *err,
                  size_t errlen)
{
    parser *p = calloc(1, sizeof *p);
    memset(c, 0, sizeof *c);
    if (!p) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    p->path = path;
    p->text = text;
    p->len = len;
    /* a UTF-8 byte-order mark is allowed, as inih allows it */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        p->pos = 3;
    int rc = ini_parse_stream(reader, p, handler, p);
    if (rc > 0 && !p->failed)
        fail(p, (unsigned long)rc, "syntax error: expected '[section]' or 'key = value'");
    if (!p->failed) {
        const char *missing = NULL;
        for (size_t i = 0; i < 3 && !missing; i++) {
            int seen = 0;
            for (int k = 0; k < p->n_sections; k++)
                seen |= strcmp(p->sections[k], known_sections[i]) == 0;
            if (!seen)
                missing = known_sections[i];
        }
        if (missing)
            fail(p, p->line ? p->line : 1, "section [%s] is missing", missing);
    }
    if (!p->failed && check_case(p, c) == 0 && check_steps(p, c) == 0 &&
        check_integrators(p, c) == 0)
        check_engines(p, c);
    if (!p->failed) {
        c->path = strdup(path);
        c->name = case_name(path);
        if (!c->path || !c->name)
            fail(p, 1, "out of memory");
        else if (!safe_name(c->name) && !p->failed) {
            /* "...case" would be "..", and write its tables outside --out */
            snprintf(p->err, sizeof p->err,
                     "%s: the case is named '%.60s%s' after its file, and that is not a safe "
                     "directory name: use letters, digits, '-', '_', '.' and '+', not starting "
                     "with '.', at most %d characters, and none of summary.md, REPORT.md, "
                     "bench.csv, bench-engine.csv and baseline (verletbench writes those)",
                     path, c->name, strlen(c->name) > 60 ? "..." : "", CASE_NAME_MAX);
            p->failed = 1;
        }
    }
    int failed = p->failed;
    if (failed) {
        snprintf(err, errlen, "%s", p->err);
        vb_case_free(c);
    }
    free(p);
    return failed ? -1 : 0;
}

int vb_case_load(const char *path, vb_case *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    FILE *f = vb_open_input(path, "a case file", err, errlen);
    if (!f)
        return -1;
    /* case files are small; a limit keeps a wrong argument from eating memory */
    enum { LIMIT = 1 << 20 };
    char *text = malloc(LIMIT + 1);
    size_t n = text ? fread(text, 1, LIMIT + 1, f) : 0;
    int bad = !text || ferror(f);
    int saved = errno;
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: cannot read: %s", path, text ? strerror(saved) : "out of memory");
        free(text);
        return -1;
    }
    if (n > LIMIT) {
        snprintf(err, errlen, "%s: larger than %d bytes; not a case file", path, LIMIT);
        free(text);
        return -1;
    }
    int rc = vb_case_parse(path, text, n, c, err, errlen);
    free(text);
    return rc;
}

void vb_case_free(vb_case *c)
{
    vb_model_free(&c->model);
    free(c->path);
    free(c->name);
    free(c->description);
    free(c->trace_path);
    vb_trace_free(&c->trace);
    free(c->integ);
    for (size_t i = 0; i < c->n_engines; i++)
        vb_engine_free(c->engines[i]);
    free(c->engines);
    memset(c, 0, sizeof *c);
}
