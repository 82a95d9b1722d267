/* checks.c — a case from the entries of its file: every section checked
 * ([case] and its model, [steps], [integrators], [engines]) as if the file
 * had given only the values of one point of its grid, and the case named
 * after its file. */
#include "rigid.h"
#include "rigid_method.h"
#include "checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "float32.h"
#include "integrator.h"
#include "contactcheck.h"
#include "loopcheck.h"
#include "numbers.h"

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* A case's name (VB_CASE_NAME_MAX) is not a name verletbench gives
 * something else in an output directory. */
static const char *const reserved_names[] = {"summary.md", "REPORT.md", "bench.csv",
                                             "bench-engine.csv", "baseline"};

static int reserved_name(const char *s)
{
    for (size_t i = 0; i < sizeof reserved_names / sizeof reserved_names[0]; i++)
        if (strcmp(s, reserved_names[i]) == 0)
            return 1;
    return 0;
}

/* not starting with '.' ("...case" would be "..", outside --out) nor '-'
 * (the directory "-x" reads as an option to compare, draw and ls) */
static int safe_name(const char *s)
{
    if (!s[0] || s[0] == '.' || s[0] == '-' || strlen(s) > VB_CASE_NAME_MAX || reserved_name(s))
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

static int check_case(vb_parser *p, vb_case *c)
{
    /* every key must be known: the model's parameters once the model is */
    const vb_entry *m = vb_parser_require(p, "case", "model");
    if (!m)
        return -1;
    const vb_model_type *type = vb_model_find(m->value);
    if (!type) {
        char names[256];
        vb_model_names_text(names, sizeof names);
        vb_parser_fail(p, m->line, "model: unknown model '%s' (valid: %s)", m->value, names);
        return -1;
    }
    vb_model_defaults(&c->model, type);
    for (size_t i = 0; i < p->n_keys; i++) {
        const vb_entry *e = &p->keys[i];
        char err[512];
        if (strcmp(e->section, "case") != 0 || !strcmp(e->key, "model") ||
            !strcmp(e->key, "t_end") || !strcmp(e->key, "description"))
            continue;
        if (vb_model_set(&c->model, e->key, e->value, err, sizeof err) != 0) {
            if (strncmp(err, "unknown parameter", 17) == 0) {
                char names[256];
                vb_model_param_names(type, names, sizeof names);
                vb_parser_fail(p, e->line,
                               "%s: unknown key in [case] (valid: model, t_end, description, %s)",
                               e->key, names);
            } else {
                vb_parser_fail(p, e->line, "%s", err);
            }
            return -1;
        }
    }
    char err[512];
    if (vb_model_setup(&c->model, err, sizeof err) != 0) {
        vb_parser_fail(p, m->line, "%s", err);
        return -1;
    }
    const vb_entry *d = vb_parser_find(p, "case", "description");
    c->description = dup_or_null(d ? d->value : NULL);
    const vb_entry *t = vb_parser_require(p, "case", "t_end");
    if (!t || vb_parser_number(p, t, &c->t_end) != 0)
        return -1;
    if (!(c->t_end > 0.0)) {
        vb_parser_fail(p, t->line, "t_end = %s must be > 0", t->value);
        return -1;
    }
    return 0;
}

/* shared: the trace the grid's first point loaded, borrowed by the others
 * (the same file: a grid never varies it), or NULL */
static int check_steps(vb_parser *p, vb_case *c, const vb_trace *shared)
{
    static const char *const keys[] = {"dt", "halvings", "jitter", "seeds", "trace", "tolerance"};
    for (size_t i = 0; i < p->n_keys; i++) {
        const vb_entry *e = &p->keys[i];
        if (strcmp(e->section, "steps") != 0)
            continue;
        int ok = 0;
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            ok |= strcmp(e->key, keys[k]) == 0;
        if (!ok) {
            vb_parser_fail(p, e->line,
                           "%s: unknown key in [steps] (valid: dt, halvings, jitter, seeds, trace, "
                           "tolerance)",
                           e->key);
            return -1;
        }
    }
    const vb_entry *dt = vb_parser_require(p, "steps", "dt");
    if (!dt || vb_parser_number(p, dt, &c->dt) != 0)
        return -1;
    if (!(c->dt > 0.0)) {
        vb_parser_fail(p, dt->line, "dt = %s must be > 0", dt->value);
        return -1;
    }
    const vb_entry *h = vb_parser_require(p, "steps", "halvings");
    if (!h || vb_parser_whole(p, h, 2, VB_MAX_HALVINGS, &c->halvings) != 0)
        return -1;
    const vb_entry *j = vb_parser_find(p, "steps", "jitter");
    c->jitter = 0.0;
    if (j) {
        if (vb_parser_number(p, j, &c->jitter) != 0)
            return -1;
        if (!(c->jitter >= 0.0 && c->jitter < 1.0)) {
            vb_parser_fail(p, j->line, "jitter = %s must be in [0, 1)", j->value);
            return -1;
        }
    }
    const vb_entry *s = vb_parser_find(p, "steps", "seeds");
    c->seeds = 0;
    if (c->jitter > 0.0) {
        if (!s) {
            vb_parser_fail(p, j->line,
                           "seeds: missing: jitter > 0 asks for random plans, seeds says how many");
            return -1;
        }
        if (vb_parser_whole(p, s, 1, VB_MAX_SEEDS, &c->seeds) != 0)
            return -1;
    } else if (s && vb_parser_whole(p, s, 0, VB_MAX_SEEDS, &c->seeds) != 0) {
        return -1;
    }
    /* adaptive integrators: the tolerance at level 0, divided by
     * VB_TOL_RATIO a level; the finest must stay above what double
     * precision can hold a step to */
    const vb_entry *tol = vb_parser_find(p, "steps", "tolerance");
    c->tolerance = VB_CASE_TOLERANCE;
    if (tol) {
        if (vb_parser_number(p, tol, &c->tolerance) != 0)
            return -1;
        if (!(c->tolerance > 0.0 && c->tolerance <= 1.0)) {
            vb_parser_fail(p, tol->line, "tolerance = %s must be in (0, 1]", tol->value);
            return -1;
        }
    }
    double finest = c->tolerance * pow(10.0, -(double)(c->halvings - 1));
    if (finest < 1e-14) {
        vb_parser_fail(
            p, tol ? tol->line : h->line,
            "%s: the finest tolerance of an adaptive integrator, %g / 10^%d = %.3g, is below "
            "1e-14 (double precision): raise tolerance or lower halvings",
            tol ? "tolerance" : "halvings", c->tolerance, c->halvings - 1, finest);
        return -1;
    }
    const vb_entry *tr = vb_parser_find(p, "steps", "trace");
    if (tr) {
        char err[768];
        c->trace_path = resolve(p->path, tr->value);
        if (c->trace_path && shared) {
            c->trace = *shared;
            c->trace_borrowed = 1;
        } else if (!c->trace_path ||
                   vb_trace_load(c->trace_path, &c->trace, err, sizeof err) != 0) {
            vb_parser_fail(p, tr->line, "trace: %s", c->trace_path ? err : "out of memory");
            return -1;
        }
        /* the rule the plan applies at level 0, where the trace is played
         * once: it may fall short of t_end only by the landing tolerance */
        if (c->t_end > c->trace.sum + VB_PLAN_LAND_TOL * c->trace.sum / (double)c->trace.n) {
            vb_parser_fail(p, tr->line,
                           "trace: %s: the trace sums to %.17g, short of t_end = %.17g",
                           c->trace_path, c->trace.sum, c->t_end);
            return -1;
        }
    }
    return 0;
}

static int check_use_list(vb_parser *p, vb_case *c, const vb_entry *u, char *list,
                          const char **written);

static int check_integrators(vb_parser *p, vb_case *c)
{
    for (size_t i = 0; i < p->n_keys; i++)
        if (!strcmp(p->keys[i].section, "integrators") && strcmp(p->keys[i].key, "use") != 0 &&
            strcmp(p->keys[i].key, "precision") != 0 && strcmp(p->keys[i].key, "offset") != 0) {
            vb_parser_fail(p, p->keys[i].line,
                           "%s: unknown key in [integrators] (valid: use, precision, offset)",
                           p->keys[i].key);
            return -1;
        }
    const vb_entry *u = vb_parser_require(p, "integrators", "use");
    if (!u)
        return -1;
    /* room for every integrator, and for every name the list could hold
     * (a method may come several times with different parameters) */
    size_t total = vb_integrator_count() + vb_rigid_entry_count() + strlen(u->value) / 2 + 1;
    c->integ = calloc(total, sizeof *c->integ);
    if (!c->integ) {
        vb_parser_fail(p, u->line, "out of memory");
        return -1;
    }
    if (strcmp(u->value, "all") == 0) {
        /* the adaptive methods sweep a tolerance on frames of dt, which
         * only a case chosen for them makes sense of: they are named; on a
         * model with rods, every method that enforces them, and elsewhere
         * every method that does not (there they are their plain methods) */
        int rods = vb_model_constrained(&c->model);
        /* a rigid body: every rotation method (rigid_method.h) */
        if (vb_rigid_body_of(&c->model)) {
            for (size_t i = 0; i < vb_rigid_entry_count(); i++)
                c->integ[c->n_integ++] = vb_rigid_entry_at(i);
            return 0;
        }
        for (size_t i = 0; i < vb_integrator_count(); i++) {
            const vb_integrator *g = vb_integrator_at(i);
            if (!(g->flags & VB_ADAPTIVE) && !(g->flags & VB_CONSTRAINED) == !rods)
                c->integ[c->n_integ++] = g;
        }
        return 0;
    }
    char list[VB_CASE_LINE_MAX + 1];
    /* each method's name as written, for the message when a later one is
     * the same method spelled otherwise (tokens point into list) */
    const char **written = calloc(total, sizeof *written);
    if (!written) {
        vb_parser_fail(p, u->line, "out of memory");
        return -1;
    }
    int rc = check_use_list(p, c, u, list, written);
    free(written);
    return rc;
}

/* the names of a 'use' list (cut in list), each looked up and checked
 * against the model and the names before it */
static int check_use_list(vb_parser *p, vb_case *c, const vb_entry *u, char *list,
                          const char **written)
{
    char *item[VB_CASE_LIST_MAX];
    int n = vb_parser_list(p, u, list, item);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        const char *tok = item[i];
        if (strcmp(tok, "all") == 0) {
            vb_parser_fail(p, u->line,
                           "use: 'all' (every integrator that suits the model, the adaptive "
                           "ones aside) stands alone: write 'use = all' or a list of names");
            return -1;
        }
        char why[512];
        const vb_integrator *g =
            strchr(tok, ':') ? vb_integrator_lookup(tok, why, sizeof why) : vb_integrator_find(tok);
        if (!g) {
            char names[512];
            vb_integrator_names(names, sizeof names);
            if (strchr(tok, ':'))
                vb_parser_fail(p, u->line, "use: %s", why);
            else if (strchr(tok, '='))
                vb_parser_fail(p, u->line,
                               "use: '%s' is a parameter without its method: write "
                               "NAME:KEY=VALUE with no spaces (jakobsen:sweeps=10)",
                               tok);
            else
                vb_parser_fail(p, u->line, "use: unknown integrator '%s' (valid: all, %s)", tok,
                               names);
            return -1;
        }
        if (vb_integrator_suits(g, &c->model, why, sizeof why) != 0) {
            vb_parser_fail(p, u->line, "use: %s", why);
            return -1;
        }
        for (size_t k = 0; k < c->n_integ; k++)
            if (c->integ[k] == g) {
                if (strcmp(tok, written[k]) == 0)
                    vb_parser_fail(p, u->line, "use: %s is listed twice", tok);
                else /* two spellings, or a parameter at its default */
                    vb_parser_fail(p, u->line,
                                   "use: %s and %s are the same method, %s (a parameter at "
                                   "its default is left out of a name)",
                                   written[k], tok, g->name);
                return -1;
            }
        written[c->n_integ] = tok;
        c->integ[c->n_integ++] = g;
    }
    if (c->n_integ == 0) {
        vb_parser_fail(p, u->line, "use: no integrators");
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

/* [engines]: NAME = COMMAND, NAME.order = P (optional: without it the
 * engine is measured without a label), and timeout = SECONDS for all */
static int check_engines(vb_parser *p, vb_case *c)
{
    double timeout = VB_ENGINE_TIMEOUT;
    const vb_entry *t = vb_parser_find(p, "engines", "timeout");
    if (t && (vb_parser_number(p, t, &timeout) != 0 || !(timeout > 0.0 && timeout <= 1e6))) {
        if (!p->failed)
            vb_parser_fail(p, t->line, "timeout = %s must be in (0, 1e6] seconds", t->value);
        return -1;
    }
    char *cwd = case_dir(p->path);
    if (!cwd) {
        vb_parser_fail(p, 1, "out of memory");
        return -1;
    }
    int rc = 0;
    /* the NAME.KEY lines first: a misspelt NAME.order is said as itself,
     * not as the engine that lacks an order */
    for (size_t i = 0; i < p->n_keys && rc == 0; i++) {
        const vb_entry *e = &p->keys[i];
        if (strcmp(e->section, "engines") != 0 || !strcmp(e->key, "timeout"))
            continue;
        const char *dot = strchr(e->key, '.');
        if (dot) {
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)(dot - e->key), e->key);
            if (strcmp(dot, ".order") != 0 || !vb_parser_find(p, "engines", name)) {
                vb_parser_fail(p, e->line,
                               "%s: unknown key in [engines] (valid: NAME = COMMAND, "
                               "NAME.order = P, timeout = SECONDS)",
                               e->key);
                rc = -1;
            }
        }
    }
    for (size_t i = 0; i < p->n_keys && rc == 0; i++) {
        const vb_entry *e = &p->keys[i];
        if (strcmp(e->section, "engines") != 0 || !strcmp(e->key, "timeout") || strchr(e->key, '.'))
            continue;
        char okey[40];
        snprintf(okey, sizeof okey, "%s.order", e->key);
        const vb_entry *o = vb_parser_find(p, "engines", okey);
        /* no NAME.order: measured without a label (verdict "measured") */
        double order = 0;
        if (o && (strspn(o->value, "0123456789") != strlen(o->value) ||
            vb_parser_number(p, o, &order) != 0 || order != floor(order) || order < 1 ||
            order > 16)) {
            if (!p->failed)
                vb_parser_fail(p, o->line, "%s = %s must be a whole number from 1 to 16", okey,
                               o->value);
            rc = -1;
            break;
        }
        char why[256];
        vb_engine *eng =
            vb_engine_new(e->key, (int)order, e->value, NULL, cwd, timeout, why, sizeof why);
        if (!eng) {
            vb_parser_fail(p, e->line, "%s", why);
            rc = -1;
            break;
        }
        if (vb_case_add_engine(c, eng, why, sizeof why) != 0) {
            vb_engine_free(eng);
            vb_parser_fail(p, e->line, "%s", why);
            rc = -1;
        }
    }
    free(cwd);
    return rc;
}

/* [integrators] precision and offset: each method of the list in that
 * arithmetic about that origin (float32.h); 'use = all' keeps the methods
 * that have the form, a list naming one that has not is refused. */
static int check_precision(vb_parser *p, vb_case *c)
{
    const vb_entry *pe = vb_parser_find(p, "integrators", "precision");
    const vb_entry *oe = vb_parser_find(p, "integrators", "offset");
    c->precision = VB_FLOAT64;
    c->offset = 0.0;
    if (pe && vb_precision_parse(pe->value, &c->precision) != 0) {
        vb_parser_fail(p, pe->line, "precision = %s: give float64 or float32", pe->value);
        return -1;
    }
    if (oe) {
        if (vb_parser_number(p, oe, &c->offset) != 0)
            return -1;
        if (!(fabs(c->offset) <= 1e30)) {
            vb_parser_fail(p, oe->line, "offset = %s: give a shift of the origin up to 1e30",
                           oe->value);
            return -1;
        }
    }
    if (c->precision == VB_FLOAT64 && c->offset == 0.0)
        return 0;
    const vb_entry *u = vb_parser_find(p, "integrators", "use");
    int all = u && !strcmp(u->value, "all");
    size_t kept = 0;
    for (size_t i = 0; i < c->n_integ; i++) {
        char why[512];
        const vb_integrator *g =
            vb_integrator_in_precision(c->integ[i], c->precision, c->offset, why, sizeof why);
        if (g)
            c->integ[kept++] = g;
        else if (!all) {
            vb_parser_fail(p, (pe ? pe : oe)->line, "%s: %s", pe ? "precision" : "offset", why);
            return -1;
        }
    }
    c->n_integ = kept;
    if (kept == 0) {
        vb_parser_fail(p, (pe ? pe : oe)->line, "no integrator of the case has this form");
        return -1;
    }
    return 0;
}

/* Check the entries into c and name it.  0 or -1 (p->failed says why). */
int vb_case_from_entries(vb_parser *p, vb_case *c, const vb_trace *shared)
{
    if (check_case(p, c) == 0 && check_steps(p, c, shared) == 0 &&
        check_integrators(p, c) == 0 && check_precision(p, c) == 0 &&
        vb_case_check_loop(p, c) == 0 && vb_case_check_contact(p, c) == 0)
        check_engines(p, c);
    if (!p->failed) {
        c->path = strdup(p->path);
        c->name = case_name(p->path);
        if (!c->path || !c->name)
            vb_parser_fail(p, 1, "out of memory");
        else if (!safe_name(c->name) && !p->failed) {
            /* "...case" would be "..", and write its tables outside --out */
            snprintf(p->err, sizeof p->err,
                     "%s: the case is named '%.60s%s' after its file, and that is not a safe "
                     "directory name: use letters, digits, '-', '_', '.' and '+', not starting "
                     "with '.' or '-', at most %d characters, and none of summary.md, REPORT.md, "
                     "bench.csv, bench-engine.csv and baseline (verletbench writes those)",
                     p->path, c->name, strlen(c->name) > 60 ? "..." : "", VB_CASE_NAME_MAX);
            p->failed = 1;
        }
    }
    return p->failed ? -1 : 0;
}
