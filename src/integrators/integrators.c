/* integrators.c — the table of integrators: the built-in methods of
 * docs/method.md §2 in a fixed order, then any a plugin registers. */
#include "integrator.h"
#include "model.h" /* vb_param_in_range, vb_parse_double */
#include "rigid.h"
#include "rigid_method.h"
#include "stack.h" /* vb_stack_of */

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const vb_integrator vb_integrator_euler;
extern const vb_integrator vb_integrator_euler_semi;
extern const vb_integrator vb_integrator_verlet;
extern const vb_integrator vb_integrator_verlet_naive;
extern const vb_integrator vb_integrator_tcv;
extern const vb_integrator vb_integrator_verlet_var;
extern const vb_integrator vb_integrator_velocity_verlet;
extern const vb_integrator vb_integrator_leapfrog;
extern const vb_integrator vb_integrator_rk4;
extern const vb_integrator vb_integrator_beeman;
extern const vb_integrator vb_integrator_yoshida4;
extern const vb_integrator vb_integrator_pefrl;
extern const vb_integrator vb_integrator_rkf45;
extern const vb_integrator vb_integrator_rk8pd;
extern const vb_integrator vb_integrator_jakobsen;
extern const vb_integrator vb_integrator_tcv_jakobsen;
extern const vb_integrator vb_integrator_shake;
extern const vb_integrator vb_integrator_rattle;

static const vb_integrator *const builtin[] = {
    &vb_integrator_euler,      &vb_integrator_euler_semi, &vb_integrator_verlet,
    &vb_integrator_verlet_naive, &vb_integrator_tcv,      &vb_integrator_verlet_var,
    &vb_integrator_velocity_verlet, &vb_integrator_leapfrog, &vb_integrator_rk4,
    &vb_integrator_beeman,     &vb_integrator_yoshida4,   &vb_integrator_pefrl,
    &vb_integrator_rkf45,      &vb_integrator_rk8pd,
    /* constrained (VB_CONSTRAINED): rods, docs/constraints.md */
    &vb_integrator_jakobsen,   &vb_integrator_tcv_jakobsen, &vb_integrator_shake,
    &vb_integrator_rattle,
};
#define N_BUILTIN (sizeof builtin / sizeof builtin[0])

#define MAX_EXTRA 64

/* Registered once, before any run starts; read-only afterwards. */
static const vb_integrator *extra[MAX_EXTRA];
static size_t n_extra;

size_t vb_integrator_count(void) { return N_BUILTIN + n_extra; }

const vb_integrator *vb_integrator_at(size_t i)
{
    if (i < N_BUILTIN)
        return builtin[i];
    if (i - N_BUILTIN < n_extra)
        return extra[i - N_BUILTIN];
    return NULL;
}

const vb_integrator *vb_integrator_find(const char *name)
{
    for (size_t i = 0; i < vb_integrator_count(); i++)
        if (strcmp(vb_integrator_at(i)->name, name) == 0)
            return vb_integrator_at(i);
    /* a rigid body's rotation method (rigid_method.h) */
    return vb_rigid_entry_find(name);
}

void vb_integrator_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < vb_integrator_count() && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", vb_integrator_at(i)->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    /* and the rotation methods, which a rigid body takes (rigid_method.h) */
    for (size_t i = 0; i < vb_rigid_entry_count() && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "; for a rigid body: ",
                         vb_rigid_entry_at(i)->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

int vb_integrator_validate(const vb_integrator *g, char *err, size_t errlen)
{
    if (!g || !g->name || !g->name[0]) {
        snprintf(err, errlen, "an integrator has no name");
        return -1;
    }
    for (const char *c = g->name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_')) {
            snprintf(err, errlen,
                     "integrator name '%.40s' may use only a-z, 0-9, '-' and '_'", g->name);
            return -1;
        }
    if (strlen(g->name) > 40) {
        snprintf(err, errlen, "integrator name '%.40s...' is longer than 40 characters", g->name);
        return -1;
    }
    /* "all" means every integrator in a case file; "exact" names the exact
     * solution's rows in the chart data */
    if (strcmp(g->name, "all") == 0 || strcmp(g->name, "exact") == 0) {
        snprintf(err, errlen, "integrator name '%s' is reserved", g->name);
        return -1;
    }
    if (!g->summary) {
        snprintf(err, errlen, "integrator %s has no summary", g->name);
        return -1;
    }
    /* one line of text: it goes into tables, CSV and Markdown as it is */
    for (const char *c = g->summary; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            snprintf(err, errlen, "integrator %s: its summary holds a control character (a line "
                                  "break, a tab): give one line of text", g->name);
            return -1;
        }
    if (strlen(g->summary) > 200) {
        snprintf(err, errlen, "integrator %s: its summary is longer than 200 characters", g->name);
        return -1;
    }
    if (g->order < 1 || g->order > 16) {
        snprintf(err, errlen, "integrator %s: order %d is not in 1..16", g->name, g->order);
        return -1;
    }
    if (!g->state_size) {
        snprintf(err, errlen, "integrator %s: state_size is required", g->name);
        return -1;
    }
    /* bytes for one component, and for 4096: a sane state grows with N */
    size_t s1 = g->state_size(1), s4k = g->state_size(4096);
    if (s1 == 0 || s1 > (1u << 20) || s4k < s1 || s4k > (1u << 30)) {
        snprintf(err, errlen,
                 "integrator %s: state_size(1) = %zu and state_size(4096) = %zu: want 1 to "
                 "1 MiB for one component, growing at most to 1 GiB",
                 g->name, s1, s4k);
        return -1;
    }
    if (!g->start || !g->step || !g->observe || !g->reverse) {
        const char *missing = !g->start ? "start" : !g->step ? "step" : !g->observe ? "observe"
                                                                                 : "reverse";
        snprintf(err, errlen,
                 "integrator %s: start, step, observe and reverse are required (%s is NULL)",
                 g->name, missing);
        return -1;
    }
    if ((g->flags & VB_HISTORY) && !g->start_history) {
        snprintf(err, errlen, "integrator %s keeps history but has no start_history", g->name);
        return -1;
    }
    if (g->flags & ~(unsigned)(VB_SYMPLECTIC | VB_HISTORY | VB_ADAPTIVE | VB_CONSTRAINED)) {
        snprintf(err, errlen, "integrator %s: unknown flags 0x%x", g->name, g->flags);
        return -1;
    }
    if (!(g->flags & VB_ADAPTIVE) != !g->set_tolerance) {
        snprintf(err, errlen, "integrator %s: set_tolerance is required with VB_ADAPTIVE, and "
                              "only then", g->name);
        return -1;
    }
    if ((g->flags & VB_ADAPTIVE) && (g->flags & (VB_HISTORY | VB_CONSTRAINED))) {
        snprintf(err, errlen, "integrator %s: an adaptive method cannot also keep history or "
                              "constraints",
                 g->name);
        return -1;
    }
    if (g->n_params > VB_MAX_INTEGRATOR_PARAMS || (g->n_params && !g->params) ||
        !g->n_params != !g->set_params) {
        snprintf(err, errlen, "integrator %s: %u parameters: at most %d, with their specs and "
                              "set_params (both or neither)",
                 g->name, g->n_params, VB_MAX_INTEGRATOR_PARAMS);
        return -1;
    }
    for (unsigned i = 0; i < g->n_params; i++) {
        const vb_param_spec *ps = &g->params[i];
        int ok = ps->name && ps->name[0] && strlen(ps->name) <= 30 && ps->help &&
                 isfinite(ps->def) && vb_param_in_range(ps, ps->def) &&
                 !(ps->flags & ~(unsigned)VB_PARAM_INTEGER);
        for (const char *c = ok ? ps->name : ""; *c; c++)
            ok &= (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_';
        for (unsigned k = 0; ok && k < i; k++)
            ok = strcmp(ps->name, g->params[k].name) != 0;
        if (!ok) {
            snprintf(err, errlen, "integrator %s: parameter %u is malformed: a name of a-z, 0-9 "
                                  "and '_' (at most 30, once), a help text, and a default "
                                  "within its range",
                     g->name, i);
            return -1;
        }
    }
    return 0;
}

/* An entry as this version reads it: a version-2 entry ends before
 * set_tolerance, a version-3 one before params, so only that much of it is
 * read and the rest is NULL. */
static void widen(const vb_integrator *g, unsigned abi, vb_integrator *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out, g,
           abi >= 4   ? sizeof *out
           : abi == 3 ? offsetof(vb_integrator, params)
                      : offsetof(vb_integrator, set_tolerance));
}

int vb_integrator_validate_abi(const vb_integrator *g, unsigned abi, char *err, size_t errlen)
{
    if (!g)
        return vb_integrator_validate(g, err, errlen);
    vb_integrator w;
    widen(g, abi, &w);
    return vb_integrator_validate(&w, err, errlen);
}

int vb_integrator_register_abi(const vb_integrator *g, unsigned abi, char *err, size_t errlen)
{
    if (abi >= 4 || !g)
        return vb_integrator_register(g, err, errlen);
    /* kept until exit, like the plugin it came from */
    vb_integrator *w = malloc(sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    widen(g, abi, w);
    if (vb_integrator_register(w, err, errlen) != 0) {
        free(w);
        return -1;
    }
    return 0;
}

int vb_integrator_register(const vb_integrator *g, char *err, size_t errlen)
{
    if (vb_integrator_validate(g, err, errlen) != 0)
        return -1;
    if (vb_integrator_find(g->name)) {
        snprintf(err, errlen, "integrator name '%s' is already taken", g->name);
        return -1;
    }
    if (n_extra == MAX_EXTRA) {
        snprintf(err, errlen, "more than %d plugin integrators", MAX_EXTRA);
        return -1;
    }
    extra[n_extra++] = g;
    return 0;
}

void vb_integrator_names_constrained(char *buf, size_t len, int constrained)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < vb_integrator_count() && used < len; i++) {
        const vb_integrator *g = vb_integrator_at(i);
        if (!(g->flags & VB_CONSTRAINED) == !constrained) {
            int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", g->name);
            used += n > 0 ? (size_t)n : 0;
        }
    }
}

int vb_integrator_suits(const vb_integrator *g, const vb_model *m, char *err, size_t errlen)
{
    /* a rigid body takes the rotation methods, and they take nothing else
     * (rigid.h); an engine (its own flag bit) takes either, and says with
     * its first run whether it speaks protocol 3, a rigid body's
     * (engine/: docs/real-engines.md §4) */
    int stack = vb_stack_of(m) != NULL; /* rigid bodies, inside a contact solver */
    int rigid_model = vb_rigid_body_of(m) != NULL || stack;
    int rigid_method = vb_integrator_rigid_method(g) != NULL;
    if (g->flags > 0xffu)
        return 0;
    if (rigid_model != rigid_method) {
        char names[512];
        if (rigid_model) {
            vb_rigid_method_names(names, sizeof names);
            snprintf(err, errlen, "%s is not a rigid-body method, and the model %s is %s "
                                  "(its methods: %s)",
                     g->name, m->type->name, stack ? "a stack of rigid bodies" : "a rigid body",
                     names);
        } else {
            vb_rigid_model_names(names, sizeof names);
            snprintf(err, errlen, "%s is a rigid-body method, and the model %s is not a rigid "
                                  "body (rigid models: %s)",
                     g->name, m->type->name, names);
        }
        return -1;
    }
    /* an engine (its own flag bit) keeps its own constraints */
    if (!vb_model_constrained(m) || (g->flags & VB_CONSTRAINED) || g->flags > 0xffu)
        return 0;
    char names[512];
    vb_integrator_names_constrained(names, sizeof names, 1);
    snprintf(err, errlen, "%s does not enforce constraints, and the model %s has %zu rod%s: its "
                          "bodies would fall off them (constrained integrators: %s)",
             g->name, m->type->name, m->cons.n, m->cons.n == 1 ? "" : "s", names);
    return -1;
}

/* ---- methods with parameters set: "jakobsen:sweeps=10" ---- */

typedef struct {
    vb_integrator integ; /* first: a copy of its type, named for its values */
    const vb_integrator *type;
    double p[VB_MAX_INTEGRATOR_PARAMS];
    char name[VB_METHOD_NAME_MAX + 1]; /* whole: a name is looked up, never cut */
} instance;

/* Made while the command line and case files are read, before any run;
 * kept until exit, read-only in between. */
#define MAX_INSTANCES 256
static instance *instances[MAX_INSTANCES];
static size_t n_instances;

static const instance *instance_of(const vb_integrator *g)
{
    for (size_t i = 0; i < n_instances; i++)
        if (&instances[i]->integ == g)
            return instances[i];
    return NULL;
}

const vb_integrator *vb_integrator_type(const vb_integrator *g)
{
    const instance *in = instance_of(g);
    return in ? in->type : g;
}

const vb_rigid_method *vb_integrator_rigid_method(const vb_integrator *g)
{
    return vb_rigid_entry_method(vb_integrator_type(g));
}

int vb_integrator_builtin(const vb_integrator *g)
{
    const vb_integrator *type = vb_integrator_type(g);
    for (size_t i = 0; i < N_BUILTIN; i++)
        if (builtin[i] == type)
            return 1;
    return vb_rigid_entry_method(type) != NULL;
}

double vb_integrator_param(const vb_integrator *g, const char *name)
{
    const instance *in = instance_of(g);
    for (unsigned i = 0; i < g->n_params; i++)
        if (strcmp(g->params[i].name, name) == 0)
            return in ? in->p[i] : g->params[i].def;
    return NAN;
}

void vb_integrator_set_params(const vb_integrator *g, void *state)
{
    if (!g->set_params)
        return;
    const instance *in = instance_of(g);
    double p[VB_MAX_INTEGRATOR_PARAMS];
    for (unsigned i = 0; i < g->n_params; i++)
        p[i] = in ? in->p[i] : g->params[i].def;
    g->set_params(state, p);
}

/* The parameters of the built-in methods whose values are words, each
 * value its index: SHAKE's and RATTLE's solver (constrain.h). */
static const char *const solver_words[] = {"direct", "sweeps", NULL};

static const char *const *words_of(const vb_integrator *g, const vb_param_spec *ps)
{
    return vb_integrator_builtin(g) && strcmp(ps->name, "solver") == 0 ? solver_words : NULL;
}

void vb_integrator_param_text(const vb_integrator *g, unsigned k, double value, char *buf,
                              size_t len)
{
    const char *const *words = words_of(g, &g->params[k]);
    if (words)
        snprintf(buf, len, "%s", words[(int)value]);
    else
        vb_format_shortest(value, buf, len);
}

/* "direct, sweeps" */
static void word_list(const char *const *words, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; words[i] && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", words[i]);
        used += n > 0 ? (size_t)n : 0;
    }
}

/* "sweeps, tol" */
static void param_names(const vb_integrator *g, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < g->n_params && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", g->params[i].name);
        used += n > 0 ? (size_t)n : 0;
    }
}

/* The type named before the colon of TEXT ("jakobsen" of
 * "jakobsen:sweeps=10"), one with parameters, and TEXT's form checked: the
 * forms people type by mistake, each told what to write.  The type, or
 * NULL with the message. */
static const vb_integrator *type_of(const char *text, const char *colon, char *err,
                                    size_t errlen)
{
    /* the name before the colon, whole: none is longer than 40 (a longer
     * one is unknown, and the message shows its start) */
    char base[64];
    snprintf(base, sizeof base, "%.*s", (int)(colon - text < 63 ? colon - text : 63), text);
    const vb_integrator *type = colon - text < 63 ? vb_integrator_find(base) : NULL;
    if (!type) {
        char names[1024];
        vb_integrator_names(names, sizeof names);
        snprintf(err, errlen, "unknown integrator '%s' in '%.80s' (valid: %s)", base, text, names);
        return NULL;
    }
    if (!type->n_params) {
        snprintf(err, errlen, "'%.80s': %s has no parameters to set", text, type->name);
        return NULL;
    }
    char example[96];
    {
        char v[32];
        vb_format_shortest(type->params[0].def, v, sizeof v);
        snprintf(example, sizeof example, "%s:%s=%s", type->name, type->params[0].name, v);
    }
    if (strpbrk(text, " \t\n")) {
        snprintf(err, errlen, "'%.80s': no spaces in a method with parameters: write "
                              "NAME:KEY=VALUE[:KEY=VALUE], as %s",
                 text, example);
        return NULL;
    }
    if (colon[1] == '\0' || strstr(colon, "::") || text[strlen(text) - 1] == ':') {
        snprintf(err, errlen, "'%.80s': an empty KEY=VALUE between ':'s: write "
                              "NAME:KEY=VALUE[:KEY=VALUE] with no spaces, as %s",
                 text, example);
        return NULL;
    }
    return type;
}

/* One KEY=VALUE of TEXT (kv, cut at its '=' here) into p[] and given[]: a
 * key of the type, set once, to a number (or a word of its list) in its
 * range.  0, or -1 with the message. */
static int set_param(const vb_integrator *type, const char *text, char *kv, double *p,
                     int *given, char *err, size_t errlen)
{
    char *eq = strchr(kv, '=');
    char names[256];
    param_names(type, names, sizeof names);
    if (!eq) {
        snprintf(err, errlen, "'%.80s': '%.40s' is not KEY=VALUE (%s takes: %s)", text, kv,
                 type->name, names);
        return -1;
    }
    *eq = '\0';
    unsigned k = 0;
    while (k < type->n_params && strcmp(type->params[k].name, kv) != 0)
        k++;
    if (k == type->n_params) {
        snprintf(err, errlen, "'%.80s': %s has no parameter '%.40s' (valid: %s)", text,
                 type->name, kv, names);
        return -1;
    }
    const vb_param_spec *ps = &type->params[k];
    char range[96];
    vb_param_range_text(ps, range, sizeof range);
    if (given[k]) {
        snprintf(err, errlen, "'%.80s': %s is set twice", text, ps->name);
        return -1;
    }
    const char *const *words = words_of(type, ps);
    if (words) {
        size_t w = 0;
        while (words[w] && strcmp(words[w], eq + 1) != 0)
            w++;
        if (!words[w]) {
            char list[128];
            word_list(words, list, sizeof list);
            snprintf(err, errlen, "'%.80s': %s = '%.40s' is not one of: %s (%s)", text,
                     ps->name, eq + 1, list, ps->help);
            return -1;
        }
        p[k] = (double)w;
    } else if (vb_parse_double(eq + 1, &p[k]) != 0) {
        snprintf(err, errlen, "'%.80s': %s = '%.40s' %s (%s must be %s)", text, ps->name,
                 eq + 1, vb_number_refusal(eq + 1), ps->name, range);
        return -1;
    }
    if (!vb_param_in_range(ps, p[k])) {
        snprintf(err, errlen, "'%.80s': %s = %.40s is out of range: %s must be %s (%s)", text,
                 ps->name, eq + 1, ps->name, range, ps->help);
        return -1;
    }
    given[k] = 1;
    return 0;
}

/* The method of type with parameters p, named name: the one made before
 * under that name, or a new one.  NULL with the message when the table of
 * them is full. */
static const vb_integrator *instance_named(const vb_integrator *type, const double *p,
                                           const char *name, const char *text, char *err,
                                           size_t errlen)
{
    for (size_t i = 0; i < n_instances; i++)
        if (strcmp(instances[i]->name, name) == 0)
            return &instances[i]->integ;
    if (n_instances == MAX_INSTANCES) {
        snprintf(err, errlen, "'%.80s': more than %d methods with parameters set", text,
                 MAX_INSTANCES);
        return NULL;
    }
    instance *in = calloc(1, sizeof *in);
    if (!in) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    in->type = type;
    memcpy(in->p, p, sizeof in->p);
    snprintf(in->name, sizeof in->name, "%s", name);
    in->integ = *type;
    in->integ.name = in->name;
    instances[n_instances++] = in;
    return &in->integ;
}

const vb_integrator *vb_integrator_lookup(const char *text, char *err, size_t errlen)
{
    const char *colon = strchr(text, ':');
    if (!colon) {
        const vb_integrator *g = vb_integrator_find(text);
        if (!g) {
            char names[1024];
            vb_integrator_names(names, sizeof names);
            snprintf(err, errlen, "unknown integrator '%.60s' (valid: %s)", text, names);
        }
        return g;
    }
    const vb_integrator *type = type_of(text, colon, err, errlen);
    if (!type)
        return NULL;
    double p[VB_MAX_INTEGRATOR_PARAMS];
    int given[VB_MAX_INTEGRATOR_PARAMS] = {0};
    for (unsigned i = 0; i < type->n_params; i++)
        p[i] = type->params[i].def;
    /* the keys and values whole: a text cut short would set a value the
     * user did not write, or lose a key; one too long is refused */
    char rest[1024];
    if (strlen(colon + 1) >= sizeof rest) {
        snprintf(err, errlen, "'%.80s...': more than %zu characters of KEY=VALUE", text,
                 sizeof rest - 1);
        return NULL;
    }
    snprintf(rest, sizeof rest, "%s", colon + 1);
    char *save = NULL;
    for (char *kv = strtok_r(rest, ":", &save); kv; kv = strtok_r(NULL, ":", &save))
        if (set_param(type, text, kv, p, given, err, errlen) != 0)
            return NULL;
    /* the canonical name: the keys given a value other than their default,
     * in the type's order, shortest values; so one method has one name
     * (jakobsen:sweeps=1 is jakobsen, and listing both is listing it twice) */
    int differs = 0;
    for (unsigned i = 0; i < type->n_params; i++)
        if (given[i] && p[i] != type->params[i].def)
            differs = 1;
    if (!differs)
        return type;
    char name[VB_METHOD_NAME_MAX + 1];
    size_t used = (size_t)snprintf(name, sizeof name, "%s", type->name);
    for (unsigned i = 0; i < type->n_params && used < sizeof name; i++)
        if (given[i] && p[i] != type->params[i].def) {
            char v[32];
            vb_integrator_param_text(type, i, p[i], v, sizeof v);
            used += (size_t)snprintf(name + used, sizeof name - used, ":%s=%s",
                                     type->params[i].name, v);
        }
    /* never so (integrator.h bounds every part), but a name that did not
     * fit would be looked up cut, as another method's: refused instead */
    if (used >= sizeof name) {
        snprintf(err, errlen, "'%.80s': its name is longer than %d characters", text,
                 VB_METHOD_NAME_MAX);
        return NULL;
    }
    return instance_named(type, p, name, text, err, errlen);
}

static size_t no_state(size_t n)
{
    (void)n;
    return 0;
}

vb_integrator vb_integrator_wrapper(const vb_integrator *inner, const char *name,
                                   unsigned flags)
{
    vb_integrator w = *inner;
    w.name = name;
    w.flags = flags;
    w.state_size = no_state;
    w.start = NULL;
    w.start_history = NULL;
    w.step = NULL;
    w.observe = NULL;
    w.reverse = NULL;
    w.set_tolerance = NULL;
    w.finish = NULL;
    return w;
}
