/* integrators.c — the table of integrators: the built-in methods of
 * docs/method.md §2 in a fixed order, then any a plugin registers. */
#include "integrator.h"
#include "lanes.h"

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

static const vb_integrator *const builtin[] = {
    &vb_integrator_euler,      &vb_integrator_euler_semi, &vb_integrator_verlet,
    &vb_integrator_verlet_naive, &vb_integrator_tcv,      &vb_integrator_verlet_var,
    &vb_integrator_velocity_verlet, &vb_integrator_leapfrog, &vb_integrator_rk4,
    &vb_integrator_beeman,     &vb_integrator_yoshida4,   &vb_integrator_pefrl,
    &vb_integrator_rkf45,      &vb_integrator_rk8pd,
};
#define N_BUILTIN (sizeof builtin / sizeof builtin[0])

extern const vb_integrator_lanes vb_integrator_euler_lanes;
extern const vb_integrator_lanes vb_integrator_euler_semi_lanes;
extern const vb_integrator_lanes vb_integrator_verlet_lanes;
extern const vb_integrator_lanes vb_integrator_verlet_naive_lanes;
extern const vb_integrator_lanes vb_integrator_tcv_lanes;
extern const vb_integrator_lanes vb_integrator_verlet_var_lanes;
extern const vb_integrator_lanes vb_integrator_velocity_verlet_lanes;
extern const vb_integrator_lanes vb_integrator_leapfrog_lanes;
extern const vb_integrator_lanes vb_integrator_rk4_lanes;

/* the batched entry point of builtin[i] */
static const vb_integrator_lanes *const builtin_lanes[N_BUILTIN] = {
    &vb_integrator_euler_lanes,      &vb_integrator_euler_semi_lanes,
    &vb_integrator_verlet_lanes,     &vb_integrator_verlet_naive_lanes,
    &vb_integrator_tcv_lanes,        &vb_integrator_verlet_var_lanes,
    &vb_integrator_velocity_verlet_lanes, &vb_integrator_leapfrog_lanes,
    &vb_integrator_rk4_lanes,
    /* the methods after rk4 run one at a time only */
    NULL, NULL, NULL, NULL, NULL,
};

const vb_integrator_lanes *vb_integrator_lanes_of(const vb_integrator *integ)
{
    for (size_t i = 0; i < N_BUILTIN; i++)
        if (builtin[i] == integ)
            return builtin_lanes[i];
    return NULL;
}
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
    return NULL;
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
        snprintf(err, errlen, "integrator %s: start, step, observe and reverse are required",
                 g->name);
        return -1;
    }
    if ((g->flags & VB_HISTORY) && !g->start_history) {
        snprintf(err, errlen, "integrator %s keeps history but has no start_history", g->name);
        return -1;
    }
    if (g->flags & ~(unsigned)(VB_SYMPLECTIC | VB_HISTORY | VB_ADAPTIVE)) {
        snprintf(err, errlen, "integrator %s: unknown flags 0x%x", g->name, g->flags);
        return -1;
    }
    if (!(g->flags & VB_ADAPTIVE) != !g->set_tolerance) {
        snprintf(err, errlen, "integrator %s: set_tolerance is required with VB_ADAPTIVE, and "
                              "only then", g->name);
        return -1;
    }
    if ((g->flags & VB_ADAPTIVE) && (g->flags & VB_HISTORY)) {
        snprintf(err, errlen, "integrator %s: an adaptive method cannot also keep history",
                 g->name);
        return -1;
    }
    return 0;
}

/* An entry as this version reads it: a version-2 entry ends before
 * set_tolerance, so only that much of it is read and the rest is NULL. */
static void widen(const vb_integrator *g, unsigned abi, vb_integrator *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out, g, abi >= 3 ? sizeof *out : offsetof(vb_integrator, set_tolerance));
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
    if (abi >= 3 || !g)
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
