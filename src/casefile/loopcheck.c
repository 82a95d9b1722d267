/* loopcheck.c — [loop]: the frame loops a case compares (docs/cases.md). */
#include "loopcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"

static const char *const loop_keys[] = {"kind",     "physics_dt", "draw",
                                        "max_substeps", "substeps", "rates"};
#define VALID_KEYS "kind, physics_dt, draw, max_substeps, substeps, rates"

/* a comma-separated list of names, each found by find into out[]: the
 * count, or -1 after a message */
static int name_list(vb_parser *p, const vb_entry *e, int (*find)(const char *, int *),
                     const char *valid, int *out, int cap)
{
    char list[VB_CASE_LINE_MAX + 1], *item[VB_CASE_LIST_MAX];
    int n_items = vb_parser_list(p, e, list, item);
    if (n_items < 0)
        return -1;
    int n = 0;
    for (int i = 0; i < n_items; i++) {
        const char *tok = item[i];
        int v;
        if (find(tok, &v) != 0) {
            vb_parser_fail(p, e->line, "%s: unknown %s '%s' (valid: %s)", e->key, e->key, tok,
                           valid);
            return -1;
        }
        for (int k = 0; k < n; k++)
            if (out[k] == v) {
                vb_parser_fail(p, e->line, "%s: %s is listed twice", e->key, tok);
                return -1;
            }
        if (n == cap) {
            vb_parser_fail(p, e->line, "%s: at most %d in a list", e->key, cap);
            return -1;
        }
        out[n++] = v;
    }
    if (n == 0)
        vb_parser_fail(p, e->line, "%s: empty list", e->key);
    return n ? n : -1;
}

static int find_kind(const char *s, int *v)
{
    vb_loop_kind k;
    int rc = vb_loop_kind_find(s, &k);
    *v = (int)k;
    return rc;
}

static int find_draw(const char *s, int *v)
{
    vb_draw d;
    int rc = vb_draw_find(s, &d);
    *v = (int)d;
    return rc;
}

static int has_kind(const int *kinds, int n, vb_loop_kind k)
{
    for (int i = 0; i < n; i++)
        if (kinds[i] == (int)k)
            return 1;
    return 0;
}

/* a key that only some kinds take, given where none of the list does */
static int misplaced(vb_parser *p, const vb_entry *e, int used, const char *who)
{
    if (e && !used) {
        vb_parser_fail(p, e->line, "%s: only %s takes it, and kind = %s has none", e->key, who,
                       vb_parser_find(p, "loop", "kind") ? vb_parser_find(p, "loop", "kind")->value
                                                         : "variable (the default)");
        return -1;
    }
    return 0;
}

/* the loops of the section, into specs, for runs to t_end; their count, or -1 */
static int loop_specs(vb_parser *p, double t_end, vb_loop_spec *specs)
{
    for (size_t i = 0; i < p->n_keys; i++) {
        const vb_entry *e = &p->keys[i];
        int ok = 0;
        if (strcmp(e->section, "loop") != 0)
            continue;
        for (size_t k = 0; k < sizeof loop_keys / sizeof loop_keys[0]; k++)
            ok |= strcmp(e->key, loop_keys[k]) == 0;
        if (!ok) {
            vb_parser_fail(p, e->line, "%s: unknown key in [loop] (valid: " VALID_KEYS ")",
                           e->key);
            return -1;
        }
    }
    int kinds[VB_N_LOOP_KINDS] = {VB_LOOP_VARIABLE}, n_kinds = 1;
    int draws[VB_N_DRAWS] = {VB_DRAW_LAST}, n_draws = 1;
    const vb_entry *ek = vb_parser_find(p, "loop", "kind");
    if (ek && (n_kinds = name_list(p, ek, find_kind,
                                   "variable, accumulator, semi-fixed, substeps", kinds,
                                   VB_N_LOOP_KINDS)) < 0)
        return -1;
    int acc = has_kind(kinds, n_kinds, VB_LOOP_ACCUMULATOR);
    int semi = has_kind(kinds, n_kinds, VB_LOOP_SEMI_FIXED);
    int sub = has_kind(kinds, n_kinds, VB_LOOP_SUBSTEPS);
    const vb_entry *edt = vb_parser_find(p, "loop", "physics_dt");
    const vb_entry *edraw = vb_parser_find(p, "loop", "draw");
    const vb_entry *emax = vb_parser_find(p, "loop", "max_substeps");
    const vb_entry *esub = vb_parser_find(p, "loop", "substeps");
    if (misplaced(p, edt, acc || semi, "an accumulator or a semi-fixed loop") ||
        misplaced(p, edraw, acc, "an accumulator") || misplaced(p, emax, acc, "an accumulator") ||
        misplaced(p, esub, sub, "a substeps loop"))
        return -1;
    vb_loop_spec base = {.kind = VB_LOOP_VARIABLE};
    if (acc || semi) {
        if (!edt) {
            vb_parser_fail(p, ek->line, "[loop] physics_dt: missing: kind = %s needs the physics "
                                        "step (1/120, or 0.008333)",
                           ek->value);
            return -1;
        }
        if (vb_loop_parse_time(edt->value, &base.physics_dt) != 0) {
            vb_parser_fail(p, edt->line, "physics_dt: '%s' is not a finite number or a "
                                         "fraction A/B",
                           edt->value);
            return -1;
        }
        if (!(base.physics_dt > 0.0)) {
            vb_parser_fail(p, edt->line, "physics_dt = %s must be > 0", edt->value);
            return -1;
        }
        if (strlen(edt->value) >= sizeof base.dt_text || strpbrk(edt->value, ",;() ")) {
            vb_parser_fail(p, edt->line, "physics_dt = %s: at most %zu characters, written as "
                                         "a number or A/B",
                           edt->value, sizeof base.dt_text - 1);
            return -1;
        }
        snprintf(base.dt_text, sizeof base.dt_text, "%s", edt->value);
        base.dt_line = edt->line;
        /* an accumulator steps only once a whole physics_dt has gone by:
         * one longer than the run would never step, and its rows would
         * show the start, untouched, as "exact" (docs/method.md §9) */
        if (acc && base.physics_dt > t_end) {
            vb_parser_fail(p, edt->line, "physics_dt = %s is longer than t_end = %g: an "
                                         "accumulator would take no physics step in the run",
                           edt->value, t_end);
            return -1;
        }
    }
    if (edraw && (n_draws = name_list(p, edraw, find_draw, "last, interpolate, extrapolate",
                                      draws, VB_N_DRAWS)) < 0)
        return -1;
    if (emax) {
        if (strcmp(emax->value, "0") == 0) {
            vb_parser_fail(p, emax->line, "max_substeps = 0 would never step: leave it out for "
                                          "no clamp, or give 1..%d",
                           VB_MAX_SUBSTEPS);
            return -1;
        }
        if (vb_parser_whole(p, emax, 1, VB_MAX_SUBSTEPS, &base.max_substeps) != 0)
            return -1;
    }
    if (sub) {
        if (!esub) {
            vb_parser_fail(p, ek->line, "[loop] substeps: missing: kind = %s needs the steps a "
                                        "frame",
                           ek->value);
            return -1;
        }
        if (vb_parser_whole(p, esub, 1, VB_MAX_SUBSTEPS, &base.substeps) != 0)
            return -1;
    }
    int n = 0;
    for (int i = 0; i < n_kinds; i++) {
        int per = kinds[i] == VB_LOOP_ACCUMULATOR ? n_draws : 1;
        for (int d = 0; d < per; d++, n++) {
            specs[n] = base;
            specs[n].kind = (vb_loop_kind)kinds[i];
            specs[n].draw = (vb_draw)(kinds[i] == VB_LOOP_ACCUMULATOR ? draws[d] : VB_DRAW_LAST);
        }
    }
    return n;
}

/* The most frames a run of the frame-rate table may take. */
#define MAX_RATE_FRAMES 1e8

/* rates = 30, 60, 144, 240: display rates in Hz, each > 0, none twice */
static int check_rates(vb_parser *p, vb_case *c)
{
    const vb_entry *e = vb_parser_find(p, "loop", "rates");
    if (!e)
        return 0;
    c->rates_line = e->line;
    char list[VB_CASE_LINE_MAX + 1], *item[VB_CASE_LIST_MAX];
    int n_items = vb_parser_list(p, e, list, item);
    if (n_items < 0)
        return -1;
    for (int i = 0; i < n_items; i++) {
        const char *tok = item[i];
        double hz;
        if (vb_loop_parse_time(tok, &hz) != 0) {
            vb_parser_fail(p, e->line, "rates: '%s' is not a finite number", tok);
            return -1;
        }
        if (!(hz > 0.0) || c->t_end * hz > MAX_RATE_FRAMES) {
            vb_parser_fail(p, e->line, "rates: %s Hz must be > 0, and at most %g frames over "
                                       "t_end = %g",
                           tok, MAX_RATE_FRAMES, c->t_end);
            return -1;
        }
        for (int k = 0; k < c->n_rates; k++)
            if (c->rates[k] == hz) {
                vb_parser_fail(p, e->line, "rates: %s is listed twice", tok);
                return -1;
            }
        if (c->n_rates == VB_MAX_RATES) {
            vb_parser_fail(p, e->line, "rates: at most %d rates", VB_MAX_RATES);
            return -1;
        }
        c->rates[c->n_rates++] = hz;
    }
    if (c->n_rates == 0)
        vb_parser_fail(p, e->line, "rates: empty list");
    return c->n_rates ? 0 : -1;
}

/* inner in the k-th of the loop specs */
static const vb_integrator *make_loop(const vb_integrator *inner, size_t k, const void *specs)
{
    vb_loop *l = vb_loop_new(inner, &((const vb_loop_spec *)specs)[k]);
    return l ? &l->integ : NULL;
}

int vb_case_check_loop(vb_parser *p, vb_case *c)
{
    int section = 0;
    for (int k = 0; k < p->n_sections; k++)
        section |= strcmp(p->sections[k], "loop") == 0;
    if (!section)
        return 0;
    vb_loop_spec specs[VB_N_LOOP_KINDS * VB_N_DRAWS];
    int n = loop_specs(p, c->t_end, specs);
    if (n < 0 || check_rates(p, c) != 0)
        return -1;
    const vb_entry *at = vb_parser_find(p, "loop", "kind");
    unsigned long line = at ? at->line : vb_parser_find(p, "integrators", "use")->line;
    for (size_t i = 0; i < c->n_integ; i++)
        if (c->integ[i]->flags & VB_ADAPTIVE) {
            vb_parser_fail(p, line, "%s: %s chooses its own steps: a frame loop cannot drive it "
                                    "(leave it out of use, or the [loop] out)",
                           at ? "kind" : "use", c->integ[i]->name);
            return -1;
        }
    /* integrator by integrator, each in every loop, so a method's rows stand together */
    if (vb_case_wrap_methods(c, (size_t)n, make_loop, specs) != 0) {
        vb_parser_fail(p, line, "out of memory");
        return -1;
    }
    return 0;
}
