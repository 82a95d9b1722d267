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

/* shared: the trace the grid's first point loaded, borrowed by the others
 * (the same file: a grid never varies it), or NULL */
static int check_steps(parser *p, vb_case *c, const vb_trace *shared)
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
        if (c->trace_path && shared) {
            c->trace = *shared;
            c->trace_borrowed = 1;
        } else if (!c->trace_path ||
                   vb_trace_load(c->trace_path, &c->trace, err, sizeof err) != 0) {
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

static int check_use_list(parser *p, vb_case *c, const entry *u, char *list, const char **written);

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
    /* room for every integrator, and for every name the list could hold
     * (a method may come several times with different parameters) */
    size_t total = vb_integrator_count() + strlen(u->value) / 2 + 1;
    c->integ = calloc(total, sizeof *c->integ);
    if (!c->integ) {
        fail(p, u->line, "out of memory");
        return -1;
    }
    if (strcmp(u->value, "all") == 0) {
        /* the adaptive methods sweep a tolerance on frames of dt, which
         * only a case chosen for them makes sense of: they are named; on a
         * model with rods, every method that enforces them, and elsewhere
         * every method that does not (there they are their plain methods) */
        int rods = vb_model_constrained(&c->model);
        for (size_t i = 0; i < vb_integrator_count(); i++) {
            const vb_integrator *g = vb_integrator_at(i);
            if (!(g->flags & VB_ADAPTIVE) && !(g->flags & VB_CONSTRAINED) == !rods)
                c->integ[c->n_integ++] = g;
        }
        return 0;
    }
    char list[MAX_LINE + 1];
    snprintf(list, sizeof list, "%s", u->value);
    /* each method's name as written, for the message when a later one is
     * the same method spelled otherwise (tokens point into list) */
    const char **written = calloc(total, sizeof *written);
    if (!written) {
        fail(p, u->line, "out of memory");
        return -1;
    }
    int rc = check_use_list(p, c, u, list, written);
    free(written);
    return rc;
}

/* the names of a 'use' list (in list, cut in place), each looked up and
 * checked against the model and the names before it */
static int check_use_list(parser *p, vb_case *c, const entry *u, char *list, const char **written)
{
    for (char *save = NULL, *tok = strtok_r(list, ", \t", &save); tok;
         tok = strtok_r(NULL, ", \t", &save)) {
        if (strcmp(tok, "all") == 0) {
            fail(p, u->line, "use: 'all' (every integrator that suits the model, the adaptive "
                             "ones aside) stands alone: write 'use = all' or a list of names");
            return -1;
        }
        char why[512];
        const vb_integrator *g = strchr(tok, ':') ? vb_integrator_lookup(tok, why, sizeof why)
                                                  : vb_integrator_find(tok);
        if (!g) {
            char names[512];
            vb_integrator_names(names, sizeof names);
            if (strchr(tok, ':'))
                fail(p, u->line, "use: %s", why);
            else if (strchr(tok, '='))
                fail(p, u->line, "use: '%s' is a parameter without its method: write "
                                 "NAME:KEY=VALUE with no spaces (jakobsen:sweeps=10)",
                     tok);
            else
                fail(p, u->line, "use: unknown integrator '%s' (valid: all, %s)", tok, names);
            return -1;
        }
        if (vb_integrator_suits(g, &c->model, why, sizeof why) != 0) {
            fail(p, u->line, "use: %s", why);
            return -1;
        }
        for (size_t k = 0; k < c->n_integ; k++)
            if (c->integ[k] == g) {
                if (strcmp(tok, written[k]) == 0)
                    fail(p, u->line, "use: %s is listed twice", tok);
                else /* two spellings, or a parameter at its default */
                    fail(p, u->line, "use: %s and %s are the same method, %s (a parameter at "
                                     "its default is left out of a name)",
                         written[k], tok, g->name);
                return -1;
            }
        written[c->n_integ] = tok;
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

/* ---- grids ------------------------------------------------------------------ */

/* The keys a grid may vary: the numbers of [case] and [steps]. */
static int gridable(const entry *e)
{
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
    char text[MAX_LINE + 1];
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
static void grid_text(double x, char *buf)
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

/* The values of a grid entry into x[] (at most cap): "a, b, c", "A .. B
 * step S" or "A .. B times F".  Their count, or 0 after a message. */
static size_t grid_values(parser *p, const entry *e, double *x, size_t cap)
{
    char text[MAX_LINE + 1];
    snprintf(text, sizeof text, "%s", e->value);
    const char *hint = "a list 'a, b, c', or a range 'A .. B step S' or 'A .. B times F'";
    char *dots = strstr(text, "..");
    size_t n = 0;
    if (!dots) {
        for (char *save = NULL, *tok = strtok_r(text, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save)) {
            char *t = trim(tok);
            if (!*t) {
                fail(p, e->line, "%s: an empty value in the list '%s'", e->key, e->value);
                return 0;
            }
            if (n == cap) {
                fail(p, e->line, "%s: more than %d values", e->key, VB_MAX_GRID_POINTS);
                return 0;
            }
            if (vb_parse_double(t, &x[n]) != 0) {
                fail(p, e->line, "%s: '%s' in the list is not a finite number (a grid is %s)",
                     e->key, t, hint);
                return 0;
            }
            n++;
        }
        /* "1, 2," or "1,,2": a value left out is a mistake, not a grid of fewer */
        size_t commas = 0;
        for (const char *c = e->value; *c; c++)
            commas += *c == ',';
        if (commas + 1 != n) {
            fail(p, e->line, "%s: an empty value in the list '%s'", e->key, e->value);
            return 0;
        }
    } else {
        if (strchr(text, ',') || strstr(dots + 2, "..") || dots[2] == '.') {
            fail(p, e->line, "%s: '%s' is not a grid: %s", e->key, e->value, hint);
            return 0;
        }
        *dots = '\0';
        char *rest = dots + 2, *word[4];
        int nw = 0;
        for (char *save = NULL, *tok = strtok_r(rest, " \t", &save); tok && nw < 4;
             tok = strtok_r(NULL, " \t", &save))
            word[nw++] = tok;
        double a, b, by;
        int geometric = nw == 3 && !strcmp(word[1], "times");
        if (nw != 3 || (strcmp(word[1], "step") && !geometric) ||
            vb_parse_double(trim(text), &a) != 0 || vb_parse_double(word[0], &b) != 0 ||
            vb_parse_double(word[2], &by) != 0) {
            fail(p, e->line, "%s: '%s' is not a range: write 'A .. B step S' (A, A + S, ... up "
                             "to B) or 'A .. B times F' (A, A F, A F^2, ... up to B)",
                 e->key, e->value);
            return 0;
        }
        /* A + i S as decimals, exactly, where A, B and S are plain decimals
         * of at most 17 digits: the points are the numbers a reader of the
         * file expects, read as doubles only at the end (0.9 .. 0 step -0.3
         * ends on 0, where 0.9 + 3 (-0.3) is 1.1e-16 in binary) */
        long long ma, mb, ms;
        int ea, eb, es;
        if (!geometric && decimal(trim(text), &ma, &ea) == 0 && decimal(word[0], &mb, &eb) == 0 &&
            decimal(word[2], &ms, &es) == 0) {
            int e0 = ea < eb ? (ea < es ? ea : es) : (eb < es ? eb : es);
            if (rescale(&ma, ea, e0) == 0 && rescale(&mb, eb, e0) == 0 &&
                rescale(&ms, es, e0) == 0) {
                if (ms == 0) {
                    fail(p, e->line, "%s: '%s': the step S must not be 0", e->key, e->value);
                    return 0;
                }
                long long steps = (mb - ma) / ms; /* whole steps toward B */
                if (steps < 1) {
                    fail(p, e->line, "%s: '%s' has fewer than two points: the step must lead "
                                     "from %s toward %s and reach A + S at least once",
                         e->key, e->value, trim(text), word[0]);
                    return 0;
                }
                if (steps + 1 > (long long)cap) {
                    fail(p, e->line, "%s: '%s' has more than %d points", e->key, e->value,
                         VB_MAX_GRID_POINTS);
                    return 0;
                }
                for (long long i = 0; i <= steps; i++) {
                    char buf[64];
                    snprintf(buf, sizeof buf, "%llde%d", ma + i * ms, e0);
                    x[n++] = strtod(buf, NULL);
                }
                goto counted;
            }
        }
        /* otherwise in binary: how many steps of S (factors of F) lead from
         * A to B, B included when a whole number of them reaches it to
         * round-off (1e-12 of a step), each point rounded to the 15 digits
         * a double always holds, and none past B */
        double span;
        if (geometric) {
            if (!(a != 0.0 && b != 0.0 && (a > 0.0) == (b > 0.0) && by > 0.0 && by != 1.0)) {
                fail(p, e->line, "%s: '%s': a range by a factor needs A and B of one sign, "
                                 "neither 0, and F > 0, F != 1",
                     e->key, e->value);
                return 0;
            }
            span = log(b / a) / log(by);
        } else {
            if (!(by != 0.0)) {
                fail(p, e->line, "%s: '%s': the step S must not be 0", e->key, e->value);
                return 0;
            }
            span = (b - a) / by;
        }
        if (!(span >= 1.0 - 1e-12) || !isfinite(span)) {
            fail(p, e->line, "%s: '%s' has fewer than two points: %s must lead from %s toward "
                             "%s and reach %s at least once",
                 e->key, e->value, geometric ? "the factor" : "the step", trim(text), word[0],
                 geometric ? "A F" : "A + S");
            return 0;
        }
        if (span + 1.0 > (double)cap + 1e-12) {
            fail(p, e->line, "%s: '%s' has more than %d points", e->key, e->value,
                 VB_MAX_GRID_POINTS);
            return 0;
        }
        n = (size_t)floor(span + 1e-12) + 1;
        for (size_t i = 0; i < n; i++)
            x[i] = round15(geometric ? a * pow(by, (double)i) : a + (double)i * by);
        /* a last point past B by round-off is B (1 .. 1000 times 10 ends
         * on 1000, never on 1000.0000000000002) */
        if ((x[n - 1] - b) * (b - a) > 0.0)
            x[n - 1] = b;
    }
counted:
    if (n < 2) {
        fail(p, e->line, "%s: a grid of one value '%s': write the value alone", e->key, e->value);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (x[i] == x[j] || !isfinite(x[i])) {
                char t[VB_GRID_VALUE_TEXT];
                grid_text(x[i], t);
                fail(p, e->line, "%s: %s %s", e->key, t,
                     isfinite(x[i]) ? "appears twice in the grid" : "is not a finite number");
                return 0;
            }
    return n;
}

/* ---- a case from its entries ------------------------------------------------- */

/* Check the entries into c and name it.  0 or -1 (p->failed says why). */
static int check_point(parser *p, vb_case *c, const vb_trace *shared)
{
    if (check_case(p, c) == 0 && check_steps(p, c, shared) == 0 && check_integrators(p, c) == 0)
        check_engines(p, c);
    if (!p->failed) {
        c->path = strdup(p->path);
        c->name = case_name(p->path);
        if (!c->path || !c->name)
            fail(p, 1, "out of memory");
        else if (!safe_name(c->name) && !p->failed) {
            /* "...case" would be "..", and write its tables outside --out */
            snprintf(p->err, sizeof p->err,
                     "%s: the case is named '%.60s%s' after its file, and that is not a safe "
                     "directory name: use letters, digits, '-', '_', '.' and '+', not starting "
                     "with '.', at most %d characters, and none of summary.md, REPORT.md, "
                     "bench.csv, bench-engine.csv and baseline (verletbench writes those)",
                     p->path, c->name, strlen(c->name) > 60 ? "..." : "", CASE_NAME_MAX);
            p->failed = 1;
        }
    }
    return p->failed ? -1 : 0;
}

/* The text parsed into entries, its sections checked; NULL with err. */
static parser *parse_entries(const char *path, const char *text, size_t len, char *err,
                             size_t errlen)
{
    parser *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
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
    if (p->failed) {
        snprintf(err, errlen, "%s", p->err);
        free(p);
        return NULL;
    }
    return p;
}

typedef struct {
    entry *e[VB_MAX_GRID_KEYS]; /* the entries with several values */
    char spec[VB_MAX_GRID_KEYS][MAX_LINE + 1]; /* their values as written */
    double *x[VB_MAX_GRID_KEYS];
    size_t count[VB_MAX_GRID_KEYS];
    int n;
    size_t points;
} grid_spec;

static void grid_spec_free(grid_spec *g)
{
    for (int k = 0; k < g->n; k++)
        free(g->x[k]);
}

/* Find the keys with several values and expand each.  0 (g->n = 0 for a
 * case of one point) or -1 after a message. */
static int find_grid(parser *p, grid_spec *g)
{
    memset(g, 0, sizeof *g);
    g->points = 1;
    for (size_t i = 0; i < p->n_keys; i++) {
        entry *e = &p->keys[i];
        /* a trace is a path ("../traces/a.trace" is one file) and a
         * description text: neither is ever a grid */
        int sec = !strcmp(e->section, "case") || !strcmp(e->section, "steps");
        if (!sec || !strcmp(e->key, "description") || !strcmp(e->key, "trace"))
            continue;
        if (gridable(e) && !looks_like_grid(e->value) && numbers_without_commas(e->value)) {
            fail(p, e->line, "%s: '%s' is several numbers without commas: a list is written "
                             "'a, b, c'",
                 e->key, e->value);
            return -1;
        }
        if (!looks_like_grid(e->value))
            continue;
        if (!gridable(e)) {
            fail(p, e->line, "%s: one model a case (a grid varies numbers: the model's "
                             "parameters, t_end, dt, halvings, jitter, seeds and tolerance)",
                 e->key);
            return -1;
        }
        if (!grid_key_ok(e->key)) {
            fail(p, e->line, "%s: a grid's key names a column of grid.csv and its points' "
                             "directories: use letters, digits and '_', and not the table's "
                             "own columns (point, integrator, plan, norm, order, ...)",
                 e->key);
            return -1;
        }
        if (g->n == VB_MAX_GRID_KEYS) {
            fail(p, e->line, "%s: a grid over more than %d keys", e->key, VB_MAX_GRID_KEYS);
            return -1;
        }
        double *x = malloc(VB_MAX_GRID_POINTS * sizeof *x);
        if (!x) {
            fail(p, e->line, "out of memory");
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
            fail(p, e->line, "%s: the grid has %.0f points, more than %d", e->key,
                 (double)g->points * (double)n, VB_MAX_GRID_POINTS);
            return -1;
        }
        g->points *= n;
    }
    return 0;
}

/* Point `pt` of the grid: its index along each key (the first slowest). */
static void grid_index(const grid_spec *g, size_t pt, size_t *idx)
{
    for (int k = g->n; k-- > 0;) {
        idx[k] = pt % g->count[k];
        pt /= g->count[k];
    }
}

/* Where a case lies in its grid; NULL when out of memory. */
static vb_case_grid *grid_of(const grid_spec *g, const char *name, size_t pt)
{
    vb_case_grid *cg = calloc(1, sizeof *cg);
    if (!cg || !(cg->name = strdup(name))) {
        free(cg);
        return NULL;
    }
    size_t idx[VB_MAX_GRID_KEYS];
    grid_index(g, pt, idx);
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
        grid_text(cg->value[k], cg->text[k]);
        used += (size_t)snprintf(cg->label + used, sizeof cg->label - used, "%s%s=%s",
                                 k ? "," : "", cg->key[k], cg->text[k]);
    }
    return cg;
}

int vb_case_parse_points(const char *path, const char *text, size_t len, vb_case **cases,
                         size_t *n, char *err, size_t errlen)
{
    *cases = NULL;
    *n = 0;
    parser *p = parse_entries(path, text, len, err, errlen);
    if (!p)
        return -1;
    grid_spec g;
    vb_case *out = NULL;
    size_t made = 0;
    if (find_grid(p, &g) != 0)
        goto failed;
    out = calloc(g.points, sizeof *out);
    if (!out) {
        fail(p, 1, "out of memory");
        goto failed;
    }
    /* each point: the entries with the point's values, checked as if the
     * file had given them */
    for (size_t pt = 0; pt < g.points; pt++) {
        size_t idx[VB_MAX_GRID_KEYS];
        grid_index(&g, pt, idx);
        for (int k = 0; k < g.n; k++) {
            char t[VB_GRID_VALUE_TEXT];
            grid_text(g.x[k][idx[k]], t);
            snprintf(g.e[k]->value, sizeof g.e[k]->value, "%s", t);
        }
        vb_case *c = &out[pt];
        int rc = check_point(p, c, pt > 0 && out[0].trace_path ? &out[0].trace : NULL);
        made++;
        if (rc == 0 && g.n) {
            c->grid = grid_of(&g, c->name, pt);
            char *name = c->grid ? malloc(strlen(c->name) + strlen(c->grid->label) + 2) : NULL;
            if (!name) {
                fail(p, 1, "out of memory");
                rc = -1;
            } else {
                sprintf(name, "%s@%s", c->name, c->grid->label);
                free(c->name);
                c->name = name;
                if (strlen(name) > CASE_NAME_MAX) {
                    fail(p, g.e[0]->line, "the grid's points are named %.60s..., longer than %d "
                                          "characters: a shorter case file name or fewer keys",
                         name, CASE_NAME_MAX);
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
    grid_spec_free(&g);
    free(p);
    *cases = out;
    *n = made;
    return 0;
failed:
    snprintf(err, errlen, "%s", p->err);
    vb_case_free_points(out, made);
    grid_spec_free(&g);
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
    free(c->integ);
    for (size_t i = 0; i < c->n_engines; i++)
        vb_engine_free(c->engines[i]);
    free(c->engines);
    memset(c, 0, sizeof *c);
}

void vb_case_free_points(vb_case *cases, size_t n)
{
    /* the first point owns the trace the others borrow: free it last */
    for (size_t i = n; i-- > 0;)
        vb_case_free(&cases[i]);
    free(cases);
}

const char *vb_case_label(const vb_case *c, char *buf, size_t len)
{
    if (!c->grid)
        return c->path;
    snprintf(buf, len, "%s@%s", c->path, c->grid->label);
    return buf;
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
