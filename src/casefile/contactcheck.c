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

int vb_case_check_contact(vb_parser *p, vb_case *c)
{
    int section = 0;
    for (int k = 0; k < p->n_sections; k++)
        section |= strcmp(p->sections[k], "contact") == 0;
    if (!section)
        return 0;
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
                                   "the wall of bounce, slide or tunnel",
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
    const vb_entry *use = vb_parser_find(p, "integrators", "use");
    /* use = all: the methods a handler can hold (as on a model with rods,
     * all means the constrained ones); a method named is held to it */
    if (use && strcmp(use->value, "all") == 0) {
        size_t kept = 0;
        char why[256];
        for (size_t i = 0; i < c->n_integ; i++)
            if (vb_composed_allows(c->integ[i], why, sizeof why) == 0)
                c->integ[kept++] = c->integ[i];
        c->n_integ = kept;
    }
    for (size_t i = 0; i < c->n_integ; i++) {
        char why[256];
        if (vb_composed_allows(c->integ[i], why, sizeof why) != 0) {
            vb_parser_fail(p, use ? use->line : e->line, "use: %s (leave it out of use, or the "
                                                         "[contact] out)",
                           why);
            return -1;
        }
    }
    size_t total = c->n_integ * n;
    const vb_integrator **integ = calloc(total ? total : 1, sizeof *integ);
    if (!integ) {
        vb_parser_fail(p, e->line, "out of memory");
        return -1;
    }
    /* method by method, each with every handler, so a method's rows stand together */
    size_t m = 0;
    for (size_t i = 0; i < c->n_integ; i++)
        for (size_t k = 0; k < n; k++) {
            vb_composed *cm = vb_composed_new(c->integ[i], hs[k]);
            if (!cm) {
                for (size_t j = 0; j < m; j++)
                    vb_composed_free((vb_composed *)(void *)integ[j]);
                free(integ);
                vb_parser_fail(p, e->line, "out of memory");
                return -1;
            }
            integ[m++] = &cm->integ;
        }
    free(c->integ);
    c->integ = integ;
    c->n_integ = m;
    return 0;
}
