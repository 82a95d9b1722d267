/* contactcheck.c — [contact]: the contact handlers a case composes with
 * its methods (docs/contact.md, docs/cases.md). */
#include "contactcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "composed.h"
#include "walls.h"

#define VALID_KEYS "handler"

/* "project, impulse, toi" */
static void handler_names(char *buf, size_t len)
{
    size_t n, used = 0;
    const vb_contact_handler *const *t = vb_contact_handlers(&n);
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", t[i]->name);
}

/* The case's methods with their contact (each an entry of n, from its
 * method and its k-th handler or solver): vb_case_wrap_methods */
static int compose(vb_parser *p, vb_case *c, unsigned long line, size_t n,
                   const vb_integrator *(*make)(const vb_integrator *inner, size_t k,
                                                const void *ctx),
                   const void *ctx)
{
    if (vb_case_wrap_methods(c, n, make, ctx) == 0)
        return 0;
    vb_parser_fail(p, line, "out of memory");
    return -1;
}

/* the methods a contact can hold: use = all keeps those (as on a model
 * with rods all means the constrained ones); a method named is held to it */
static int methods_allowed(vb_parser *p, vb_case *c, const vb_entry *e,
                           int (*allows)(const vb_integrator *, char *, size_t))
{
    const vb_entry *use = vb_parser_find(p, "integrators", "use");
    char why[256];
    if (use && strcmp(use->value, "all") == 0) {
        size_t kept = 0;
        for (size_t i = 0; i < c->n_integ; i++)
            if (allows(c->integ[i], why, sizeof why) == 0)
                c->integ[kept++] = c->integ[i];
        c->n_integ = kept;
    }
    for (size_t i = 0; i < c->n_integ; i++)
        if (allows(c->integ[i], why, sizeof why) != 0) {
            vb_parser_fail(p, use ? use->line : e->line,
                           "use: %s (leave it out of use, or the [contact] out)", why);
            return -1;
        }
    return 0;
}

/* ---- solvers: a rigid body on the ground (rigidcontact/) ---- */

typedef struct solver_list {
    const vb_body_solver *s[8];
    vb_solver_params p[8];
} solver_list;

static const vb_integrator *make_solver(const vb_integrator *inner, size_t k, const void *ctx)
{
    const solver_list *l = ctx;
    vb_composed *cm = vb_composed_new_solver(inner, l->s[k], &l->p[k]);
    return cm ? &cm->integ : NULL;
}

/* "toi, pgs, ..." */
static void solver_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < vb_body_solver_count() && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                                 vb_body_solver_at(i)->name);
}

/* a key of [contact] other than handler: set on every solver listed that
 * reads it; an error names the line and the key */
static int solver_key(vb_parser *p, const vb_entry *e, solver_list *l, size_t n)
{
    char err[512], first[512] = "";
    int read = 0;
    for (size_t k = 0; k < n; k++) {
        int rc = vb_body_solver_set(l->s[k], &l->p[k], e->key, e->value, err, sizeof err);
        if (rc == -2) {
            vb_parser_fail(p, e->line, "%s: %s (solver %s)", e->key, err, l->s[k]->name);
            return -1;
        }
        if (rc == 0)
            read = 1;
        else if (!first[0])
            snprintf(first, sizeof first, "%s", err);
    }
    if (!read) {
        vb_parser_fail(p, e->line, "%s: no solver listed reads this key (%s)", e->key, first);
        return -1;
    }
    return 0;
}

static int check_solvers(vb_parser *p, vb_case *c, const vb_entry *e)
{
    solver_list l;
    size_t n = 0;
    char valid[128], list[VB_CASE_LINE_MAX + 1];
    solver_names(valid, sizeof valid);
    snprintf(list, sizeof list, "%s", e->value);
    for (char *save = NULL, *tok = strtok_r(list, ", \t", &save); tok;
         tok = strtok_r(NULL, ", \t", &save)) {
        const vb_body_solver *s = vb_body_solver_find(tok);
        char why[512];
        if (!s) {
            vb_parser_fail(p, e->line, "handler: unknown contact solver '%s' for the rigid body "
                                       "%s (valid: %s)",
                           tok, c->model.type->name, valid);
            return -1;
        }
        for (size_t k = 0; k < n; k++)
            if (l.s[k] == s) {
                vb_parser_fail(p, e->line, "handler: %s is listed twice", tok);
                return -1;
            }
        if (n == sizeof l.s / sizeof l.s[0]) {
            vb_parser_fail(p, e->line, "handler: at most %zu in a list", n);
            return -1;
        }
        if (vb_composed_solver_accepts(s, &c->model, why, sizeof why) != 0) {
            vb_parser_fail(p, e->line, "handler: %s: %s", tok, why);
            return -1;
        }
        l.s[n] = s;
        vb_body_solver_defaults(s, &l.p[n++]);
    }
    if (n == 0) {
        vb_parser_fail(p, e->line, "handler: empty list (valid: %s)", valid);
        return -1;
    }
    for (size_t i = 0; i < p->n_keys; i++) {
        const vb_entry *k = &p->keys[i];
        if (strcmp(k->section, "contact") == 0 && strcmp(k->key, "handler") != 0 &&
            solver_key(p, k, &l, n) != 0)
            return -1;
    }
    if (methods_allowed(p, c, e, vb_composed_allows_solver) != 0)
        return -1;
    return compose(p, c, e->line, n, make_solver, &l);
}

/* ---- handlers: a wall (contact/) ---- */

static const vb_integrator *make_handler(const vb_integrator *inner, size_t k, const void *ctx)
{
    const vb_contact_handler *const *hs = ctx;
    vb_composed *cm = vb_composed_new(inner, hs[k]);
    return cm ? &cm->integ : NULL;
}

int vb_case_check_contact(vb_parser *p, vb_case *c)
{
    int section = 0;
    for (int k = 0; k < p->n_sections; k++)
        section |= strcmp(p->sections[k], "contact") == 0;
    vb_contact_of kind = vb_composed_contact_of(&c->model);
    if (!section && kind == VB_CONTACT_BODY) {
        const vb_entry *m = vb_parser_find(p, "case", "model");
        char valid[128];
        solver_names(valid, sizeof valid);
        vb_parser_fail(p, m ? m->line : 0, "model: %s is a body on the ground: it runs inside a "
                                           "contact solver ([contact] handler = %s)",
                       c->model.type->name, valid);
        return -1;
    }
    if (!section)
        return 0;
    if (kind == VB_CONTACT_BODY) {
        const vb_entry *e = vb_parser_require(p, "contact", "handler");
        if (!e)
            return -1;
        if (vb_parser_find(p, "loop", "kind")) {
            vb_parser_fail(p, e->line, "handler: a case has [contact] or [loop], not both (a "
                                       "solver round a frame loop is not built)");
            return -1;
        }
        return check_solvers(p, c, e);
    }
    for (size_t i = 0; i < p->n_keys; i++) {
        const vb_entry *e = &p->keys[i];
        if (strcmp(e->section, "contact") == 0 && strcmp(e->key, "handler") != 0) {
            vb_parser_fail(p, e->line, "%s: unknown key in [contact] (valid: " VALID_KEYS ")",
                           e->key);
            return -1;
        }
    }
    const vb_entry *e = vb_parser_require(p, "contact", "handler");
    if (!e)
        return -1;
    if (!vb_model_type_has_wall(c->model.type)) {
        vb_parser_fail(p, e->line, "handler: the model %s has no contact: a handler resolves "
                                   "the wall of bounce, slide or tunnel, a solver the ground "
                                   "of roll or box-incline",
                       c->model.type->name);
        return -1;
    }
    if (vb_parser_find(p, "loop", "kind")) {
        vb_parser_fail(p, e->line, "handler: a case has [contact] or [loop], not both (a handler "
                                   "round a frame loop is not built)");
        return -1;
    }
    char valid[128];
    handler_names(valid, sizeof valid);
    const vb_contact_handler *hs[8];
    size_t n = 0;
    char list[VB_CASE_LINE_MAX + 1], *item[VB_CASE_LIST_MAX];
    int n_items = vb_parser_list(p, e, list, item);
    if (n_items < 0)
        return -1;
    for (int i = 0; i < n_items; i++) {
        const char *tok = item[i];
        const vb_contact_handler *h = vb_contact_handler_find(tok);
        if (!h) {
            vb_parser_fail(p, e->line, "handler: unknown handler '%s' (valid: %s)", tok, valid);
            return -1;
        }
        for (size_t k = 0; k < n; k++)
            if (hs[k] == h) {
                vb_parser_fail(p, e->line, "handler: %s is listed twice", tok);
                return -1;
            }
        if (n == sizeof hs / sizeof hs[0]) {
            vb_parser_fail(p, e->line, "handler: at most %zu in a list", n);
            return -1;
        }
        hs[n++] = h;
    }
    if (n == 0) {
        vb_parser_fail(p, e->line, "handler: empty list (valid: %s)", valid);
        return -1;
    }
    if (methods_allowed(p, c, e, vb_composed_allows) != 0)
        return -1;
    return compose(p, c, e->line, n, make_handler, hs);
}
