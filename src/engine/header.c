/* header.c — the comment line a trajectory starts with, "# verletbench
 * run=... model=... plan=...": written from a run, compared key by key
 * with a run's own, and read back into a run (score FILE). */
#include "header.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *vb_engine_run_id(const vb_plan_spec *plan) { return plan->id[0] ? plan->id : "run"; }

void vb_engine_header(char *buf, size_t len, const vb_model *m, const vb_plan_spec *plan)
{
    size_t used = 0;
#define ADD(...)                                                                                  \
    do {                                                                                          \
        int w_ = snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__);                  \
        used += w_ > 0 ? (size_t)w_ : 0;                                                          \
    } while (0)
    ADD("# verletbench run=%s model=%s", vb_engine_run_id(plan), m->type->name);
    for (unsigned i = 0; i < m->type->n_params; i++)
        if (vb_param_said(&m->type->params[i], m->p[i]))
            ADD(" %s=%.17g", m->type->params[i].name, m->p[i]);
    ADD(" plan=%s t_end=%.17g level=%d", vb_plan_name(plan->kind), plan->t_end, plan->level);
    if (plan->kind != VB_PLAN_TRACE)
        ADD(" dt=%.17g", plan->dt);
    if (plan->kind == VB_PLAN_RANDOM)
        ADD(" jitter=%.17g seed=%lu", plan->jitter, plan->seed);
    if (plan->kind == VB_PLAN_TRACE)
        ADD(" trace=%s trace_scale=%.17g",
            plan->trace && plan->trace->path ? plan->trace->path : "?", plan->trace_scale);
#undef ADD
    if (used >= len && len > 0)
        buf[len - 1] = '\0';
}

/* The tokens of a header line after its "# verletbench " (separated by
 * spaces; a written one may also have tabs and a CR): the next one from *p,
 * its length, and the length of its key (up to '=', all of it without). */
static size_t header_token(const char **p, size_t *klen)
{
    while (**p == ' ' || **p == '\t' || **p == '\r')
        (*p)++;
    size_t n = strcspn(*p, " \t\r");
    const char *eq = memchr(*p, '=', n);
    *klen = eq ? (size_t)(eq - *p) : n;
    return n;
}

/* the token of LINE whose key is key[0..klen), and how many there are */
static const char *header_find(const char *line, const char *key, size_t klen, size_t *len,
                               int *count)
{
    const char *found = NULL;
    *count = 0;
    for (const char *p = line;;) {
        size_t kl, n = header_token(&p, &kl);
        if (!n)
            return found;
        if (kl == klen && kl < n && !strncmp(p, key, klen) && (*count)++ == 0) {
            found = p;
            *len = n;
        }
        p += n;
    }
}

/* Two values of one key say the same: the same text, the same number in
 * another spelling (1 and 1.0), or, for a trace, a file of the same name:
 * the same steps may lie elsewhere on another machine, and every row's time
 * is checked against them anyway. */
static int same_value(const char *a, size_t na, const char *b, size_t nb, int is_trace)
{
    if (na == nb && !strncmp(a, b, na))
        return 1;
    if (is_trace) {
        const char *ba = a + na, *bb = b + nb;
        while (ba > a && ba[-1] != '/')
            ba--;
        while (bb > b && bb[-1] != '/')
            bb--;
        return (size_t)(a + na - ba) == (size_t)(b + nb - bb) &&
               !strncmp(ba, bb, (size_t)(a + na - ba));
    }
    char ta[64], tb[64];
    double x, y;
    if (na >= sizeof ta || nb >= sizeof tb)
        return 0;
    memcpy(ta, a, na), ta[na] = '\0';
    memcpy(tb, b, nb), tb[nb] = '\0';
    return vb_parse_double(ta, &x) == 0 && vb_parse_double(tb, &y) == 0 && x == y;
}

/* The first KEY=VALUE of a header line that differs from the run's, as
 * "KEY=VALUE" texts (got, want).  Compared key by key, in any order: a
 * header with its parameters in another order is the same run.  A key the
 * run has that the line lacks, one the line has that the run lacks, or one
 * the line gives twice differ. */
int vb_engine_header_differs(const char *want_line, const char *got_line, char *got, char *want,
                             size_t len)
{
    static const char lead[] = "# verletbench ";
    const char *w0 = want_line + (strncmp(want_line, lead, sizeof lead - 1) ? 0 : sizeof lead - 1);
    const char *g0 = got_line + (strncmp(got_line, lead, sizeof lead - 1) ? 0 : sizeof lead - 1);
    /* every key of the run's, in its order */
    for (const char *a = w0;;) {
        size_t ka, na = header_token(&a, &ka), nb = 0;
        if (!na)
            break;
        int count;
        const char *b = header_find(g0, a, ka, &nb, &count);
        if (count != 1 || !same_value(a + ka + 1, na - ka - 1, b + ka + 1, nb - ka - 1,
                                      ka == 5 && !strncmp(a, "trace", 5))) {
            if (!b)
                snprintf(got, len, "no '%.*s='", (int)(ka > 40 ? 40 : ka), a);
            else
                snprintf(got, len, "'%.*s'%s", (int)(nb > 80 ? 80 : nb), b,
                         count > 1 ? " and more of that key" : "");
            snprintf(want, len, "'%.*s'", (int)(na > 80 ? 80 : na), a);
            return 1;
        }
        a += na;
    }
    /* and none besides */
    for (const char *b = g0;;) {
        size_t kb, nb = header_token(&b, &kb), na;
        if (!nb)
            return 0;
        int count;
        if (!header_find(w0, b, kb, &na, &count)) {
            snprintf(got, len, "'%.*s'", (int)(nb > 80 ? 80 : nb), b);
            snprintf(want, len, "no '%.*s='", (int)(kb > 40 ? 40 : kb), b);
            return 1;
        }
        b += nb;
    }
}

int vb_engine_parse_header(const char *line, vb_model *m, vb_plan_spec *plan, vb_trace *trace,
                           char *err, size_t errlen)
{
    static const char lead[] = "# verletbench run=";
    memset(plan, 0, sizeof *plan);
    memset(trace, 0, sizeof *trace);
    if (strncmp(line, lead, sizeof lead - 1) != 0) {
        snprintf(err, errlen, "not '%s...' (the header the request gave)", lead);
        return -1;
    }
    char *copy = strdup(line + 2), *save = NULL;
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    const vb_model_type *type = NULL;
    int have_plan = 0, rc = 0;
    char trace_path[4096] = "";
    /* the model first: its parameters follow it */
    const char *seen[128];
    size_t n_seen = 0;
    for (char *tok = strtok_r(copy + strlen("verletbench "), " ", &save); tok && rc == 0;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            snprintf(err, errlen, "'%.60s': want KEY=VALUE", tok);
            rc = -1;
            break;
        }
        *eq = '\0';
        const char *key = tok, *val = eq + 1;
        /* each key once: a second would silently win */
        for (size_t k = 0; k < n_seen; k++)
            if (!strcmp(seen[k], key)) {
                snprintf(err, errlen, "%.40s= is given twice", key);
                rc = -1;
            }
        if (rc != 0)
            break;
        if (n_seen == sizeof seen / sizeof seen[0]) {
            snprintf(err, errlen, "more than %zu keys", sizeof seen / sizeof seen[0]);
            rc = -1;
            break;
        }
        seen[n_seen++] = key;
        double x = 0.0;
        int num = vb_parse_double(val, &x) == 0;
        /* level and seed are whole numbers: 0..24 and 0..2^53 */
        if (num && (!strcmp(key, "level") || !strcmp(key, "seed")) &&
            (x != floor(x) || x < 0 || x > (!strcmp(key, "level") ? 24.0 : 9007199254740992.0)))
            num = 0;
        if (!strcmp(key, "run")) {
            snprintf(plan->id, sizeof plan->id, "%s", val);
        } else if (!strcmp(key, "model")) {
            if (!(type = vb_model_find(val))) {
                snprintf(err, errlen, "model=%.60s: no such model", val);
                rc = -1;
            } else {
                vb_model_defaults(m, type);
            }
        } else if (!strcmp(key, "plan")) {
            have_plan = 1;
            if (!strcmp(val, "fixed"))
                plan->kind = VB_PLAN_FIXED;
            else if (!strcmp(val, "random"))
                plan->kind = VB_PLAN_RANDOM;
            else if (!strcmp(val, "trace"))
                plan->kind = VB_PLAN_TRACE;
            else {
                snprintf(err, errlen, "plan=%.40s: want fixed, random or trace", val);
                rc = -1;
            }
        } else if (!strcmp(key, "trace")) {
            snprintf(trace_path, sizeof trace_path, "%s", val);
        } else if (!strcmp(key, "t_end") || !strcmp(key, "dt") || !strcmp(key, "jitter") ||
                   !strcmp(key, "trace_scale") || !strcmp(key, "level") ||
                   !strcmp(key, "seed")) {
            if (!num) {
                snprintf(err, errlen, "%s=%.40s: not a number%s", key, val,
                         !strcmp(key, "level")  ? " from 0 to 24"
                         : !strcmp(key, "seed") ? ", or not a whole one from 0 to 2^53"
                                                : "");
                rc = -1;
            } else if (!strcmp(key, "t_end"))
                plan->t_end = x;
            else if (!strcmp(key, "dt"))
                plan->dt = x;
            else if (!strcmp(key, "jitter"))
                plan->jitter = x;
            else if (!strcmp(key, "trace_scale"))
                plan->trace_scale = x;
            else if (!strcmp(key, "level"))
                plan->level = (int)x;
            else
                plan->seed = (unsigned long)x;
        } else if (type) {
            char why[512];
            if (vb_model_set(m, key, val, why, sizeof why) != 0) {
                snprintf(err, errlen, "%s", why);
                rc = -1;
            }
        } else {
            snprintf(err, errlen, "%s=: model= must come before the model's parameters", key);
            rc = -1;
        }
    }
    free(copy);
    if (rc == 0 && (!type || !have_plan || !(plan->t_end > 0.0))) {
        snprintf(err, errlen, "the header names no %s",
                 !type ? "model" : !have_plan ? "plan" : "t_end");
        rc = -1;
    }
    if (rc == 0 && plan->kind == VB_PLAN_TRACE) {
        if (!trace_path[0]) {
            snprintf(err, errlen, "plan=trace but no trace=FILE");
            rc = -1;
        } else if (vb_trace_load_unquoted(trace_path, trace, err, errlen) == 0) {
            plan->trace = trace;
        } else {
            rc = -1;
        }
    }
    if (rc == 0 && vb_plan_check(plan, err, errlen) != 0)
        rc = -1;
    if (rc == 0 && vb_model_setup(m, err, errlen) != 0)
        rc = -1;
    if (rc != 0)
        vb_trace_free(trace);
    return rc;
}
