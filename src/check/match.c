/* match.c — the rows of a baseline matched with the rows made now: each
 * run with the same run (integrator, plan, level, seed, and everything the
 * plan fixes), each order with the same integrator, plan and norm; and the
 * baseline held to its own header, so rows deleted from it are damage,
 * not runs that went missing. */
#include "match.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"

/* The "# integrators=" line of a baseline table: required, a list of
 * integrator names, each once.  Without it nothing says which rows the
 * table must have, and rows deleted with the line would pass unseen. */
static int need_list(const vb_table *t, const char **list, char *err, size_t errlen)
{
    *list = vb_table_integrators(t);
    if (!*list)
        return vb_compare_bad(err, errlen,
                              "%s: no '# integrators=' line: the baseline is damaged (make a new "
                              "one with make baseline)",
                              t->path);
    unsigned long line = 0;
    for (size_t i = 0; i < t->n_comments; i++)
        if (t->comments[i] + 14 == *list)
            line = t->comment_line[i];
    for (const char *p = *list;;) {
        const char *e = strchr(p, ',');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        char name[VB_LOOP_NAME_MAX + 1]; /* any row's name, whole (loop.h) */
        if (k >= sizeof name ||
            (snprintf(name, sizeof name, "%.*s", (int)k, p), !vb_check_name_valid(name)))
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: '# integrators=%.200s': '%.*s' is not an integrator "
                                  "name",
                                  t->path, line, *list, (int)(k > 60 ? 60 : k), p);
        for (const char *q = *list; q < p;) {
            const char *qe = strchr(q, ',');
            if ((size_t)(qe - q) == k && strncmp(q, p, k) == 0)
                return vb_compare_bad(err, errlen, "%s:%lu: '# integrators=%.200s' names %s twice",
                                      t->path, line, *list, name);
            q = qe + 1;
        }
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

/* the runs of integrator integ in set */
static size_t runs_of(const vb_run_set *set, const char *integ)
{
    size_t have = 0;
    for (size_t k = 0; k < set->n; k++)
        have += !strcmp(set->r[k].integ, integ);
    return have;
}

/* The count of runs most integrators of the list have in set (the plan
 * every one of them ran); where two counts are as common, the first
 * integrator's (into first, VB_LOOP_NAME_MAX + 1 bytes), and *beside names
 * it (NULL where most agree). */
static size_t runs_wanted(const char *list, const vb_run_set *set, char *first,
                          const char **beside)
{
    size_t best = 0, best_votes = 0, tie = 0;
    *beside = NULL;
    for (const char *p = list; p;) {
        const char *e = strchr(p, ',');
        char integ[VB_LOOP_NAME_MAX + 1];
        snprintf(integ, sizeof integ, "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
        size_t have = runs_of(set, integ), votes = 0;
        for (const char *q = list; q;) {
            const char *qe = strchr(q, ',');
            char other[VB_LOOP_NAME_MAX + 1];
            snprintf(other, sizeof other, "%.*s", (int)(qe ? (size_t)(qe - q) : strlen(q)), q);
            votes += runs_of(set, other) == have;
            q = qe ? qe + 1 : NULL;
        }
        if (p == list)
            snprintf(first, VB_LOOP_NAME_MAX + 1, "%s", integ);
        if (votes > best_votes)
            best = have, best_votes = votes, tie = 0;
        else if (votes == best_votes && have != best)
            tie = 1;
        p = e ? e + 1 : NULL;
    }
    if (tie) { /* no count the most have: the first integrator's */
        best = runs_of(set, first);
        *beside = first;
    }
    return best;
}

/* The runs of each integrator the baseline's header lists: as many as the
 * plan makes now for any integrator (every integrator gets the same plan),
 * and none of an integrator it does not list.  With
 * VB_COMPARE_SHARED_LEVELS the baseline's own plan is not run now: every
 * integrator then has as many runs as most of them have (runs_wanted),
 * and one that has another count is the damaged one, named as such. */
static int check_counts(const vb_table *bt, const vb_run_set *base, const vb_run_set *now,
                        unsigned flags, char *err, size_t errlen)
{
    const char *list;
    int rc = need_list(bt, &list, err, errlen);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < base->n; i++)
        if (!vb_in_list(list, base->r[i].integ))
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: integrator %s is not in the header's list "
                                  "(# integrators=%.200s)",
                                  bt->path, base->r[i].line, base->r[i].integ, list);
    size_t want = 0;
    const char *beside = NULL; /* the integrator whose count is wanted, when a tie */
    char first[VB_LOOP_NAME_MAX + 1];
    if (flags & VB_COMPARE_SHARED_LEVELS)
        want = runs_wanted(list, base, first, &beside);
    else
        while (want < now->n && !strcmp(now->r[want].integ, now->r[0].integ))
            want++;
    for (const char *p = list;;) {
        const char *e = strchr(p, ',');
        char integ[VB_LOOP_NAME_MAX + 1];
        snprintf(integ, sizeof integ, "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
        size_t have = runs_of(base, integ);
        if (have != want && !(flags & VB_COMPARE_SHARED_LEVELS))
            return vb_compare_bad(err, errlen,
                                  "%s: %zu runs of %s, the plan in its header makes %zu: the "
                                  "baseline is damaged (make a new one with make baseline)",
                                  bt->path, have, integ, want);
        if (have != want)
            return vb_compare_bad(err, errlen,
                                  "%s: %zu runs of %s, where %s%s %zu: every integrator of "
                                  "the header runs the same plan; the table is damaged",
                                  bt->path, have, integ, beside ? beside : "the others have",
                                  beside ? " has" : "", want);
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

/* A run and its partner are the same run: the key that paired them
 * (integrator, plan, level, seed) and everything else the plan fixes, to
 * the bit; and the scales of the exact solution the errors are measured
 * against, which no method changes (to 1e-6: another libm may move them in
 * the last bits).  The round-off floor is taken from the new run alone, but
 * a baseline run of a billion steps, or of a huge scale, is not the run
 * made now: comparing its errors would compare nothing.
 * A run that did not finish counts the steps it took and the scales over
 * them: those then depend on the method, and only bound the other side. */
static int same_run(const vb_table *bt, const vb_run_rec *o, const vb_run_rec *r, char *err,
                    size_t errlen)
{
    int ok_b = !strcmp(o->status, "ok"), ok_n = !strcmp(r->status, "ok");
    const char *col = NULL;
    char was[64], is[64];
    if (strcmp(o->model, r->model) != 0) {
        col = VB_RUNS_COL(MODEL);
        snprintf(was, sizeof was, "%.60s", o->model);
        snprintf(is, sizeof is, "%.60s", r->model);
    } else {
        /* steps and a frame loop's lag_max count as the run goes: the one
         * that stopped has taken fewer, and dropped less time */
        static const int name[] = {VB_COL_RUNS_DT,  VB_COL_RUNS_JITTER, VB_COL_RUNS_T_END,
                                   VB_COL_RUNS_TOL, VB_COL_RUNS_STEPS,  VB_COL_RUNS_LAG_MAX};
        const double b[] = {o->dt_value, o->jitter, o->t_end, o->tol, o->steps, o->lag};
        const double n[] = {r->dt_value, r->jitter, r->t_end, r->tol, r->steps, r->lag};
        for (int k = 0; k < 6 && !col; k++) {
            int same = b[k] == n[k] || (isnan(b[k]) && isnan(n[k]));
            if (k >= 4 && !(ok_b && ok_n) && !same)
                same = ok_b ? b[k] >= n[k] : ok_n ? b[k] <= n[k] : 1;
            if (!same) { /* NAN: a blank cell (a trace's jitter, a tolerance) */
                col = vb_schema_name(&vb_runs_schema, (size_t)name[k]);
                snprintf(was, sizeof was, isnan(b[k]) ? "blank" : "%.17g", b[k]);
                snprintf(is, sizeof is, isnan(n[k]) ? "blank" : "%.17g", n[k]);
            }
        }
    }
    if (col)
        return vb_compare_bad(err, errlen,
                              "%s:%lu: column %s: %s in the baseline, %s in the same run made "
                              "now (%s, %s, level %d%s%s): not the run it claims to be; the "
                              "baseline is damaged (make a new one with make baseline)",
                              bt->path, o->line, col, was, is, r->integ, r->plan, r->level,
                              r->seed[0] ? ", seed " : "", r->seed);
    const double sb[] = {o->pscale, o->vscale}, sn[] = {r->pscale, r->vscale};
    for (int k = 0; k < 2 && ok_b && ok_n; k++)
        if (!(fabs(sb[k] - sn[k]) <= 1e-6 * fmax(fabs(sb[k]), fabs(sn[k]))))
            return vb_compare_bad(err, errlen,
                                  "%s:%lu: column %s: %.17g in the baseline, %.17g in the same "
                                  "run made now (%s, %s, level %d%s%s): the scale of the exact "
                                  "solution, which no method changes; the baseline is damaged "
                                  "(make a new one with make baseline)",
                                  bt->path, o->line, k ? VB_RUNS_COL(VEL_SCALE) : VB_RUNS_COL(POS_SCALE),
                                  sb[k], sn[k],
                                  r->integ, r->plan, r->level, r->seed[0] ? ", seed " : "",
                                  r->seed);
    return 0;
}

/* The finest level of a set of runs. */
static int finest_level(const vb_run_set *set)
{
    int l = -1;
    for (size_t i = 0; i < set->n; i++)
        if (set->r[i].level > l)
            l = set->r[i].level;
    return l;
}

/* Each run made now paired with the same run of the baseline (partner),
 * after the baseline's counts are held to the plan and its metrics to the
 * case's; *shared: the finest level both sides have (with
 * VB_COMPARE_SHARED_LEVELS; else every level).  0, or VB_COMPARE_BAD with
 * why. */
int vb_match_runs(const vb_table *bt, vb_run_set *base, vb_run_set *now, unsigned flags,
                  int *shared, char *err, size_t errlen)
{
    int rc = check_counts(bt, base, now, flags, err, errlen);
    if (rc != 0)
        return rc;
    /* the step sizes only one side has (VB_COMPARE_SHARED_LEVELS): neither
     * gone nor new, only not compared */
    *shared = INT_MAX;
    if (flags & VB_COMPARE_SHARED_LEVELS) {
        int fb = finest_level(base), fn = finest_level(now);
        *shared = fb < fn ? fb : fn;
    }
    if (base->has_ref != now->has_ref)
        return vb_compare_bad(err, errlen, "%s: column ref_err_pos is %s, but the case %s",
                              bt->path, base->has_ref ? "filled" : "blank",
                              base->has_ref ? "has an exact solution"
                                            : "has a reference solution (no exact one)");
    for (int m = 0; m < vb_check_metrics(); m++) {
        if (base->has[m] != now->has[m])
            return vb_compare_bad(err, errlen, "%s: column %s is %s, but the case %s it", bt->path,
                                  vb_check_metric(m), base->has[m] ? "filled" : "blank",
                                  base->has[m] ? "does not measure" : "measures");
    }
    for (size_t i = 0; i < now->n; i++) {
        vb_run_rec *o = vb_find_run(base, &now->r[i]);
        now->r[i].partner = o;
        if (o)
            o->partner = &now->r[i];
        if (o && (rc = same_run(bt, o, &now->r[i], err, errlen)) != 0)
            return rc;
    }
    return 0;
}

/* a norm computed from the velocity (vb_check_velocity) */
static int velocity_norm(const char *norm)
{
    for (int m = 0; m < vb_check_metrics(); m++)
        if (vb_check_velocity(m) && !strcmp(vb_check_metric(m), norm))
            return 1;
    return 0;
}

/* Each order fitted now paired with the baseline's of the same
 * integrator, plan and norm (partner), after the baseline's orders are
 * held to its header's list of integrators, each with the same plans and
 * norms.  0, or VB_COMPARE_BAD with why. */
int vb_match_orders(const vb_table *bt, vb_order_rec *b, vb_order_rec *n, size_t nn, char *err,
                    size_t errlen)
{
    const char *list;
    int rc = need_list(bt, &list, err, errlen);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < bt->nrow; i++)
        if (!vb_in_list(list, b[i].integ))
            return vb_compare_bad(err, errlen, "%s:%lu: integrator %s is not in the header's list",
                                  bt->path, b[i].line, b[i].integ);
    /* every integrator is fitted on the same plans and norms: b is sorted
     * by (integrator, plan, norm), so each integrator's rows repeat those
     * of the first with a velocity; an engine without one (its provenance,
     * docs/real-engines.md §1.7) has them but the norms of the velocity.
     * An integrator with some of its orders gone is damage. */
    size_t ref = 0;
    while (ref < bt->nrow && vb_table_no_velocity(bt, b[ref].integ))
        ref++;
    if (ref == bt->nrow)
        ref = 0;
    size_t ref_end = ref;
    while (ref_end < bt->nrow && !strcmp(b[ref_end].integ, b[ref].integ))
        ref_end++;
    for (size_t i = 0; i < bt->nrow;) {
        size_t j = i;
        while (j < bt->nrow && !strcmp(b[j].integ, b[i].integ))
            j++;
        int no_v = vb_table_no_velocity(bt, b[i].integ);
        size_t want = 0, at = i;
        int same = 1;
        for (size_t k = ref; k < ref_end; k++) {
            if (no_v && velocity_norm(b[k].norm))
                continue;
            want++;
            same = same && at < j && !strcmp(b[at].plan, b[k].plan) &&
                   !strcmp(b[at].norm, b[k].norm);
            at++;
        }
        if (!same || j - i != want)
            return vb_compare_bad(err, errlen,
                                  "%s: the orders of %s (%zu) are not those of %s (%zu%s): the "
                                  "baseline is damaged (make a new one with make baseline)",
                                  bt->path, b[i].integ, j - i, b[ref].integ, want,
                                  no_v ? ", but the velocity's: it declared velocity=none" : "");
        i = j;
    }
    /* and every integrator the header lists has them */
    for (const char *p = list;;) {
        const char *e = strchr(p, ',');
        char integ[VB_LOOP_NAME_MAX + 1];
        snprintf(integ, sizeof integ, "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
        size_t k = 0;
        while (k < bt->nrow && strcmp(b[k].integ, integ) != 0)
            k++;
        if (k == bt->nrow)
            return vb_compare_bad(err, errlen,
                                  "%s: no order of %s, which its header lists: the baseline is "
                                  "damaged (make a new one with make baseline)",
                                  bt->path, integ);
        if (!e)
            break;
        p = e + 1;
    }
    for (size_t i = 0; i < nn; i++) {
        vb_order_rec *o = bsearch(&n[i], b, bt->nrow, sizeof *b, vb_by_order_key);
        if (o) {
            o->partner = &n[i];
            n[i].partner = o;
        } else if (list && vb_in_list(list, n[i].integ) &&
                   !(velocity_norm(n[i].norm) && vb_table_no_velocity(bt, n[i].integ))) {
            /* (an engine that declared velocity=none in the baseline and
             * reports a velocity now: its velocity's orders are new, not
             * gone from the baseline) */
            return vb_compare_bad(err, errlen,
                                  "%s: no order of %s, %s, %s, which the case fits: the baseline "
                                  "is damaged (make a new one with make baseline)",
                                  bt->path, n[i].integ, n[i].plan, n[i].norm);
        }
    }
    return 0;
}
