/* rigidcontact/solvers.c — the table of contact solvers for rigid bodies,
 * their keys, and the cache they carry (rigidcontact.h). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"
#include "rigidcontact.h"

extern const vb_body_solver vb_solver_toi, vb_solver_pgs, vb_solver_soft, vb_solver_xpbd,
    vb_solver_speculative, vb_solver_regularized;

/* the reference first, then the engines' families */
static const vb_body_solver *const table[] = {&vb_solver_toi,  &vb_solver_pgs,
                                              &vb_solver_soft, &vb_solver_xpbd,
                                              &vb_solver_speculative, &vb_solver_regularized};
#define N_SOLVERS (sizeof table / sizeof table[0])

size_t vb_body_solver_count(void) { return N_SOLVERS; }

const vb_body_solver *vb_body_solver_at(size_t i) { return i < N_SOLVERS ? table[i] : NULL; }

const vb_body_solver *vb_body_solver_find(const char *name)
{
    for (size_t i = 0; i < N_SOLVERS; i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}

void vb_body_solver_defaults(const vb_body_solver *s, vb_solver_params *p)
{
    memset(p, 0, sizeof *p);
    s->defaults(p);
}

/* ---- keys ---- */

typedef enum { K_INT, K_DOUBLE, K_DOUBLES, K_LEVER, K_CONE, K_YESNO, K_WARM } key_kind;

typedef struct key_spec {
    const char *name;
    unsigned bit;
    key_kind kind;
    size_t off;
    int count;     /* K_DOUBLES */
    double lo, hi; /* the range, inclusive */
    const char *range;
} key_spec;

#define OFF(f) offsetof(vb_solver_params, f)
static const key_spec keys[] = {
    /* 0: no velocity solve at all (the bodies fall: issue 55's check) */
    {"iterations", VB_KEY_ITERATIONS, K_INT, OFF(iterations), 1, 0, 10000, "an integer in [0, 10000]"},
    {"position_iterations", VB_KEY_POSITION_ITERATIONS, K_INT, OFF(position_iterations), 1, 0, 10000, "an integer in [0, 10000]"},
    {"substeps", VB_KEY_SUBSTEPS, K_INT, OFF(substeps), 1, 1, 10000, "an integer in [1, 10000]"},
    {"relax_iterations", VB_KEY_RELAX, K_INT, OFF(relax_iterations), 1, 0, 10000, "an integer in [0, 10000]"},
    {"baumgarte", VB_KEY_BAUMGARTE, K_DOUBLE, OFF(baumgarte), 1, 0, 1, "a number in [0, 1]"},
    {"slop", VB_KEY_SLOP, K_DOUBLE, OFF(slop), 1, 0, 1, "a number in [0, 1] m"},
    {"margin", VB_KEY_MARGIN, K_DOUBLE, OFF(margin), 1, 0, 1, "a number in [0, 1] m"},
    {"warm_start", VB_KEY_WARM_START, K_WARM, OFF(warm_start), 1, 0, 1, "yes (the solver's default factor), no, or a factor in [0, 1] (0: off)"},
    {"threshold", VB_KEY_THRESHOLD, K_DOUBLE, OFF(threshold), 1, 0, INFINITY, "a number >= 0 m/s"},
    {"hertz", VB_KEY_SOFTNESS, K_DOUBLE, OFF(hertz), 1, 0, INFINITY, "a number >= 0 (0: rigid)"},
    {"damping_ratio", VB_KEY_SOFTNESS, K_DOUBLE, OFF(damping_ratio), 1, 0, INFINITY, "a number >= 0"},
    {"pushout", VB_KEY_SOFTNESS, K_DOUBLE, OFF(pushout), 1, 0, INFINITY, "a number >= 0 m/s"},
    {"max_correction", VB_KEY_MAX_CORRECTION, K_DOUBLE, OFF(max_correction), 1, 0, INFINITY, "a number >= 0 m"},
    {"lever", VB_KEY_LEVER, K_LEVER, OFF(jolt_lever), 1, 0, 1, "midpoint (Jolt 3b47ec3) or body (PR 2123)"},
    {"solref", VB_KEY_MUJOCO, K_DOUBLES, OFF(solref), 2, -INFINITY, INFINITY, "two numbers: timeconst dampratio (> 0), or two <= 0 (direct)"},
    {"solimp", VB_KEY_MUJOCO, K_DOUBLES, OFF(solimp), 5, 0, INFINITY, "five numbers: dmin dmax width midpoint power, dmin and dmax in (0, 1)"},
    {"impratio", VB_KEY_MUJOCO, K_DOUBLE, OFF(impratio), 1, 1e-4, INFINITY, "a number >= 1e-4"},
    {"cone", VB_KEY_MUJOCO, K_CONE, OFF(cone), 1, 0, 1, "pyramidal or elliptic"},
    {"refsafe", VB_KEY_MUJOCO, K_YESNO, OFF(refsafe), 1, 0, 1, "yes or no"},
    {"compliance", VB_KEY_COMPLIANCE, K_DOUBLE, OFF(compliance), 1, 0, INFINITY, "a number >= 0 m/N (0: rigid)"},
};
#define N_KEYS (sizeof keys / sizeof keys[0])

static void key_names(const vb_body_solver *s, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_KEYS && used < len; i++) {
        if (!(s->keys & keys[i].bit))
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", keys[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static int bad_value(const key_spec *k, const char *value, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s = %s: must be %s", k->name, value, k->range);
    return -2;
}

/* whitespace-separated numbers of a K_DOUBLES value */
static int parse_list(const char *value, double *out, int count)
{
    char buf[256];
    if (strlen(value) >= sizeof buf)
        return -1;
    strcpy(buf, value);
    int n = 0;
    for (char *tok = strtok(buf, " \t,"); tok; tok = strtok(NULL, " \t,")) {
        if (n == count || vb_parse_double(tok, &out[n]) != 0)
            return -1;
        n++;
    }
    return n == count ? 0 : -1;
}

static int solimp_ok(const double *v)
{
    return v[0] > 0.0 && v[0] < 1.0 && v[1] > 0.0 && v[1] < 1.0 && v[2] >= 0.0 &&
           v[3] > 0.0 && v[3] < 1.0 && v[4] >= 1.0 && isfinite(v[2]) && isfinite(v[4]);
}

int vb_body_solver_set(const vb_body_solver *s, vb_solver_params *p, const char *key,
                       const char *value, char *err, size_t errlen)
{
    const key_spec *k = NULL;
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(keys[i].name, key) == 0 && (s->keys & keys[i].bit))
            k = &keys[i];
    if (!k) {
        char names[512];
        key_names(s, names, sizeof names);
        snprintf(err, errlen, "unknown key '%s' for contact solver %s (it reads: %s)", key,
                 s->name, names[0] ? names : "none");
        return -1;
    }
    char *field = (char *)p + k->off;
    double x;
    switch (k->kind) {
    case K_INT:
        if (vb_parse_double(value, &x) != 0 || x != floor(x) || x < k->lo || x > k->hi)
            return bad_value(k, value, err, errlen);
        *(int *)field = (int)x;
        return 0;
    case K_WARM:
        if (strcmp(value, "yes") == 0 || strcmp(value, "no") == 0) {
            vb_solver_params d;
            vb_body_solver_defaults(s, &d);
            /* yes: the engine's factor (Bullet's 0.85, Box2D's 1) */
            *(double *)field = strcmp(value, "no") == 0 ? 0.0 : d.warm_start > 0.0 ? d.warm_start : 1.0;
            return 0;
        }
        /* a factor */
        __attribute__((fallthrough));
    case K_DOUBLE:
        if (vb_parse_double(value, &x) != 0 || !(x >= k->lo && x <= k->hi))
            return bad_value(k, value, err, errlen);
        *(double *)field = x;
        return 0;
    case K_DOUBLES: {
        double v[5];
        if (parse_list(value, v, k->count) != 0)
            return bad_value(k, value, err, errlen);
        if (k->count == 2 && !((v[0] > 0.0 && v[1] > 0.0) || (v[0] <= 0.0 && v[1] <= 0.0)))
            return bad_value(k, value, err, errlen);
        if (k->count == 5 && !solimp_ok(v))
            return bad_value(k, value, err, errlen);
        memcpy(field, v, (size_t)k->count * sizeof *v);
        return 0;
    }
    case K_LEVER:
        if (strcmp(value, "midpoint") != 0 && strcmp(value, "body") != 0)
            return bad_value(k, value, err, errlen);
        *(int *)field = strcmp(value, "midpoint") == 0;
        return 0;
    case K_CONE:
        if (strcmp(value, "pyramidal") != 0 && strcmp(value, "elliptic") != 0)
            return bad_value(k, value, err, errlen);
        *(vb_cone *)field = strcmp(value, "elliptic") == 0 ? VB_CONE_ELLIPTIC : VB_CONE_PYRAMIDAL;
        return 0;
    case K_YESNO:
        if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
            return bad_value(k, value, err, errlen);
        *(int *)field = strcmp(value, "yes") == 0;
        return 0;
    }
    return bad_value(k, value, err, errlen);
}

void vb_body_solver_params_text(const vb_body_solver *s, const vb_solver_params *p, char *buf,
                                size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_KEYS && used < len; i++) {
        const key_spec *k = &keys[i];
        if (!(s->keys & k->bit))
            continue;
        const char *field = (const char *)p + k->off;
        char val[128];
        switch (k->kind) {
        case K_INT: snprintf(val, sizeof val, "%d", *(const int *)field); break;
        case K_WARM:
        case K_DOUBLE: snprintf(val, sizeof val, "%.17g", *(const double *)field); break;
        case K_DOUBLES: {
            const double *v = (const double *)field;
            size_t u = 0;
            val[0] = '\0';
            for (int j = 0; j < k->count; j++)
                u += (size_t)snprintf(val + u, sizeof val - u, "%s%.17g", j ? " " : "", v[j]);
            break;
        }
        case K_LEVER: snprintf(val, sizeof val, "%s", *(const int *)field ? "midpoint" : "body"); break;
        case K_CONE:
            snprintf(val, sizeof val, "%s",
                     *(const vb_cone *)field == VB_CONE_ELLIPTIC ? "elliptic" : "pyramidal");
            break;
        case K_YESNO: snprintf(val, sizeof val, "%s", *(const int *)field ? "yes" : "no"); break;
        }
        int n = snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", k->name, val);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

int vb_body_solver_accepts(const vb_body_solver *s, const vb_contact_world *w, char *err,
                           size_t errlen)
{
    if (!(s->flags & VB_SOLVER_TWO_MU) && w->mu_s != w->mu_k) {
        snprintf(err, errlen, "contact solver %s has one friction coefficient, as its engine "
                              "does: mu_s = %g and mu_k = %g differ (toi and xpbd take both)",
                 s->name, w->mu_s, w->mu_k);
        return -1;
    }
    if (!(s->flags & VB_SOLVER_BODIES) && w->n > 1) {
        snprintf(err, errlen, "contact solver %s solves one body against the ground; a world "
                              "of %zu bodies needs one that solves body on body (pgs, soft, xpbd, "
                              "regularized, toi at rest)",
                 s->name, w->n);
        return -1;
    }
    for (size_t i = 0; i < w->n; i++) {
        vb_shape_kind k = w->body[i].shape.kind;
        if (k != VB_SHAPE_SPHERE && k != VB_SHAPE_BOX) {
            snprintf(err, errlen, "contact solver %s: body %zu is neither a sphere nor a box",
                     s->name, i);
            return -1;
        }
    }
    return 0;
}

int vb_body_solver_step(const vb_body_solver *s, vb_contact_world *w, vb_contact_cache *c,
                        const vb_solver_params *p, vb_body_step_fn *method, double h)
{
    return s->step(w, c, p, method, h);
}

int vb_contact_cache_init(vb_contact_cache *c, size_t bodies)
{
    size_t n = bodies + bodies * (bodies - (bodies > 0)) / 2;
    c->n = n;
    c->m = calloc(n ? n : 1, sizeof *c->m);
    return c->m ? 0 : -1;
}

void vb_contact_cache_free(vb_contact_cache *c)
{
    free(c->m);
    c->m = NULL;
    c->n = 0;
}
