/* judge.c — what changed, judged: each metric of each integrator and plan
 * over the step sizes (the median over seeds for a random plan) against
 * the baseline's, each run's status, and each fitted order and verdict.
 *
 * What is judged, and why (docs/check.md):
 *  - the maximum and RMS errors and the energy and angular-momentum errors
 *    of every step size, per integrator and plan: for a random plan the
 *    median over its seeds, the figure the order is fitted to, since one
 *    seed's error moves with the accidents of its steps when the method
 *    changes;
 *  - a run's status (ok -> diverged is worse), run by run;
 *  - every fitted order of those norms, and its verdict.
 * Final-time errors are listed but never judged: they oscillate with the
 * phase the run ends at.  A series of errors that got worse only at coarse
 * step sizes while every finer one got better is a method whose error
 * curve now crosses the old one: better in the asymptotic range, reported
 * as such. */
#include "judge.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"

/* ---- series: one metric of one integrator and plan over the step sizes ---- */

#define MAX_LEVELS 65

typedef struct {
    int n; /* levels */
    double before[MAX_LEVELS], after[MAX_LEVELS], floor[MAX_LEVELS];
    const char *dt[MAX_LEVELS];
    int seeds[MAX_LEVELS];
    int signal_before, signal_after; /* some value above the round-off floor */
    vb_precision prec;               /* the arithmetic the tables record */
} series;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y); /* inf sorts last */
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Metric m of the new runs [first, last) (one integrator and plan, sorted
 * by level and seed) that have a partner in the baseline: per level, the
 * value (the median over seeds for a random plan) before and after, and
 * the floor below which an error is round-off, whatever the method
 * (vb_check_roundoff_floor: N^1.5 in float64, N in float32; docs/check.md). */
static int build_series(const vb_run_set *now, size_t first, size_t last, int m,
                        vb_precision prec, const vb_tolerance *tol, series *s)
{
    memset(s, 0, sizeof *s);
    s->prec = prec;
    double *a = malloc((last - first) * sizeof *a), *b = malloc((last - first) * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return -1;
    }
    for (size_t i = first; i < last && s->n < MAX_LEVELS;) {
        int level = now->r[i].level;
        size_t k = 0;
        double steps = 0.0, scale = 0.0;
        const char *dt = now->r[i].dt;
        for (; i < last && now->r[i].level == level; i++) {
            const vb_run_rec *r = &now->r[i], *o = r->partner;
            if (!o)
                continue;
            a[k] = o->m[m];
            b[k] = r->m[m];
            k++;
            /* the new run's: the floor is not the baseline's to set */
            steps = fmax(steps, r->steps);
            double sc = vb_check_scale(m) == VB_SCALE_POS   ? r->pscale
                        : vb_check_scale(m) == VB_SCALE_VEL ? r->vscale
                                                 : 1.0;
            scale = fmax(scale, sc);
        }
        if (k == 0)
            continue;
        int l = s->n++;
        s->before[l] = median(a, k);
        s->after[l] = median(b, k);
        s->floor[l] = vb_check_roundoff_floor(prec, tol->floor_ulps, steps, scale > 0 ? scale : 1.0);
        s->dt[l] = dt;
        s->seeds[l] = (int)k;
        s->signal_before |= !(s->before[l] <= s->floor[l]);
        s->signal_after |= !(s->after[l] <= s->floor[l]);
    }
    free(a);
    free(b);
    return 0;
}

typedef enum { SAME, WORSE, BETTER } change;

static change level_change(const series *s, int l, const vb_tolerance *tol)
{
    double eb = s->before[l], en = s->after[l], fl = s->floor[l];
    if (isinf(eb) || isinf(en)) /* a seed that did not finish decides the median */
        return eb == en ? SAME : isinf(en) ? WORSE : BETTER;
    if (s->prec == VB_FLOAT32) {
        /* float32's round-off is a few per cent of the error just above
         * its floor (docs/real-engines.md §1.6), more than rtol: a change
         * is one only when the difference itself clears the floor */
        if (en > eb * (1 + tol->rtol) && en - eb > fl)
            return WORSE;
        if (eb > en * (1 + tol->rtol) && eb - en > fl)
            return BETTER;
        return SAME;
    }
    if (en > eb * (1 + tol->rtol) && en > fl)
        return WORSE;
    if (eb > en * (1 + tol->rtol) && eb > fl)
        return BETTER;
    return SAME;
}

static void level_text(const series *s, int l, const char *plan, vb_change *c)
{
    snprintf(c->dt, sizeof c->dt, "%.6g", strtod(s->dt[l], NULL));
    if (!strcmp(plan, "random"))
        snprintf(c->seed, sizeof c->seed, "med%d", s->seeds[l]);
    snprintf(c->before, sizeof c->before, "%.4g", s->before[l]);
    snprintf(c->after, sizeof c->after, "%.4g", s->after[l]);
    c->factor = s->before[l] > 0 && isfinite(s->before[l]) && isfinite(s->after[l])
                    ? s->after[l] / s->before[l]
                    : 0.0;
}

/* Judge one series and record what changed. */
static int judge_series(const series *s, const char *name, const char *integ, const char *plan,
                        int m, const vb_tolerance *tol, vb_changes *out)
{
    change ch[MAX_LEVELS];
    int worst = -1, best = -1, finest_worse = -1;
    for (int l = 0; l < s->n; l++) {
        ch[l] = level_change(s, l, tol);
        out->compared++;
        double f = s->before[l] > 0 ? s->after[l] / s->before[l] : 1.0;
        if (ch[l] == WORSE) {
            finest_worse = l;
            if (worst < 0 || !(f <= s->after[worst] / s->before[worst]))
                worst = l;
        } else if (ch[l] == BETTER) {
            if (best < 0 || f < s->after[best] / s->before[best])
                best = l;
        }
    }
    vb_change c;
    if (vb_check_final(m)) {
        if (worst < 0 && best < 0)
            return 0;
        vb_change_fill(&c, VB_FINAL, name, integ, plan, vb_check_metric(m));
        level_text(s, worst >= 0 ? worst : best, plan, &c);
        return vb_changes_record(out, &c);
    }
    int worse_levels = 0, better_levels = 0;
    for (int l = 0; l < s->n; l++) {
        worse_levels += ch[l] == WORSE;
        better_levels += ch[l] == BETTER;
    }
    /* worse only at coarse steps, better at every finer one (two at least):
     * the new error curve crosses the old one on its way to the asymptotic
     * range, where it is lower */
    int crossing = finest_worse >= 0 && s->n - 1 - finest_worse >= 2;
    for (int l = finest_worse + 1; crossing && l < s->n; l++)
        crossing = ch[l] == BETTER;
    if (worst >= 0 && !crossing) {
        vb_change_fill(&c, VB_WORSE, name, integ, plan, vb_check_metric(m));
        level_text(s, worst, plan, &c);
        c.rows = (size_t)worse_levels;
        out->worse += (size_t)worse_levels;
        out->better += (size_t)better_levels;
        return vb_changes_record(out, &c);
    }
    if (best < 0)
        return 0;
    vb_change_fill(&c, VB_BETTER, name, integ, plan, vb_check_metric(m));
    level_text(s, best, plan, &c);
    c.rows = (size_t)better_levels;
    if (crossing)
        snprintf(c.note, sizeof c.note,
                 "worse at dt >= %.3g (%d step size%s), better at every finer dt",
                 strtod(s->dt[finest_worse], NULL), worse_levels, worse_levels == 1 ? "" : "s");
    out->better += (size_t)better_levels;
    return vb_changes_record(out, &c);
}

/* The signal of each (integrator, plan, metric): whether its errors rise
 * above round-off before and after (an order fitted to round-off alone is
 * noise, and a series now at round-off is as good as exact). */
static int signal_add(vb_signal_set *ss, const char *integ, const char *plan, int m, int before,
                      int after)
{
    if (ss->n == ss->cap) {
        size_t cap = ss->cap ? 2 * ss->cap : 64;
        vb_signal_rec *more = realloc(ss->v, cap * sizeof *more);
        if (!more)
            return -1;
        ss->v = more;
        ss->cap = cap;
    }
    ss->v[ss->n++] = (vb_signal_rec){integ, plan, m, before, after};
    return 0;
}

static const vb_signal_rec *signal_find(const vb_signal_set *ss, const char *integ,
                                        const char *plan, const char *metric)
{
    for (size_t i = 0; i < ss->n; i++)
        if (!strcmp(ss->v[i].integ, integ) && !strcmp(ss->v[i].plan, plan) &&
            !strcmp(vb_check_metric(ss->v[i].m), metric))
            return &ss->v[i];
    return NULL;
}

int vb_judge_runs(const vb_table *bt, const vb_table *nt, const char *name, const vb_tolerance *tol,
                  unsigned flags, vb_changes *out, vb_signal_set *signal, char *err, size_t errlen)
{
    vb_run_set base, now;
    int rc = vb_read_runs(bt, &base, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = vb_read_runs(nt, &now, err, errlen)) != 0) {
        free(base.r);
        return rc;
    }
    int shared;
    if ((rc = vb_match_runs(bt, &base, &now, flags, &shared, err, errlen)) != 0)
        goto done;
    vb_change c;
    /* run by run: a status that got worse, runs gone, runs new */
    for (size_t i = 0; i < now.n; i++) {
        const vb_run_rec *r = &now.r[i], *o = r->partner;
        if (!o && r->level > shared) {
            out->unshared++;
            continue;
        }
        if (!o) {
            vb_change_fill(&c, VB_NEW, name, r->integ, r->plan, "run");
            out->added++;
            if (vb_changes_record(out, &c) != 0)
                goto oom;
            continue;
        }
        if (strcmp(o->status, r->status) != 0) {
            int worse = strcmp(r->status, "ok") != 0;
            vb_change_fill(&c, worse ? VB_WORSE : VB_BETTER, name, r->integ, r->plan,
                           VB_RUNS_COL(STATUS));
            snprintf(c.dt, sizeof c.dt, "%.6g", strtod(r->dt, NULL));
            snprintf(c.seed, sizeof c.seed, "%s", r->seed);
            snprintf(c.before, sizeof c.before, "%s", o->status);
            snprintf(c.after, sizeof c.after, "%s", r->status);
            *(worse ? &out->worse : &out->better) += 1;
            if (vb_changes_record(out, &c) != 0)
                goto oom;
        }
    }
    for (size_t i = 0; i < base.n; i++)
        if (!base.r[i].partner && base.r[i].level > shared)
            out->unshared++;
        else if (!base.r[i].partner) {
            vb_change_fill(&c, VB_MISSING, name, base.r[i].integ, base.r[i].plan, "run");
            out->missing++;
            if (vb_changes_record(out, &c) != 0)
                goto oom;
        }
    /* series by series */
    for (size_t i = 0; i < now.n;) {
        size_t j = i;
        while (j < now.n && !strcmp(now.r[j].integ, now.r[i].integ) &&
               !strcmp(now.r[j].plan, now.r[i].plan))
            j++;
        /* either side in float32: float32's round-off tells them apart */
        vb_precision prec = vb_precision_coarser(vb_table_precision(bt, now.r[i].integ),
                                                 vb_table_precision(nt, now.r[i].integ));
        /* an engine without velocity, on either side, has no such series
         * (its blanks: a velocity it reports now has nothing to compare
         * with in a baseline where it declared none) */
        int no_v = now.r[i].no_velocity || vb_table_no_velocity(bt, now.r[i].integ);
        for (int m = 0; m < vb_check_metrics(); m++) {
            if (!now.has[m] || (no_v && vb_check_velocity(m)))
                continue;
            series s;
            if (build_series(&now, i, j, m, prec, tol, &s) != 0)
                goto oom;
            if (s.n == 0)
                continue;
            if (signal_add(signal, now.r[i].integ, now.r[i].plan, m, s.signal_before,
                           s.signal_after) != 0 ||
                judge_series(&s, name, now.r[i].integ, now.r[i].plan, m, tol, out) != 0)
                goto oom;
        }
        i = j;
    }
    rc = 0;
    goto done;
oom:
    rc = vb_compare_oom(err, errlen);
done:
    free(base.r);
    free(now.r);
    return rc;
}

int vb_judge_orders(const vb_table *bt, const vb_table *nt, const char *name,
                    const vb_tolerance *tol, vb_changes *out, const vb_signal_set *signal,
                    char *err, size_t errlen)
{
    vb_order_rec *b, *n;
    int rc = vb_read_orders(bt, &b, err, errlen);
    if (rc != 0)
        return rc;
    if ((rc = vb_read_orders(nt, &n, err, errlen)) != 0) {
        free(b);
        return rc;
    }
    if ((rc = vb_match_orders(bt, b, n, nt->nrow, err, errlen)) != 0)
        goto done;
    for (size_t i = 0; i < nt->nrow; i++) {
        const vb_order_rec *r = &n[i], *o = r->partner;
        if (!o)
            continue; /* a new integrator: counted with its runs */
        int m = vb_check_metric_index(r->norm); /* baseline_orders.c knows it */
        const vb_signal_rec *sg = signal_find(signal, r->integ, r->plan, r->norm);
        if (m < 0 || vb_check_final(m) || !sg || (!sg->before && !sg->after))
            continue; /* final-time, or fitted to round-off on both sides */
        /* a series at round-off is as good as exact, whatever its fit says */
        const char *vb = sg->before ? o->verdict : "exact", *vn = sg->after ? r->verdict : "exact";
        out->compared++;
        int rank_b = vb_verdict_rank(vb), rank_n = vb_verdict_rank(vn), worse, better;
        if (rank_b != rank_n) {
            worse = rank_n < rank_b;
            better = !worse;
        } else if (isfinite(o->order) && isfinite(r->order) && sg->before && sg->after) {
            worse = r->order < o->order - tol->order_tol;
            better = r->order > o->order + tol->order_tol;
        } else {
            worse = better = 0;
        }
        if (!worse && !better)
            continue;
        vb_change c;
        char metric[40];
        snprintf(metric, sizeof metric, "order %s", r->norm);
        vb_change_fill(&c, worse ? VB_WORSE : VB_BETTER, name, r->integ, r->plan, metric);
        snprintf(c.dt, sizeof c.dt, "all");
        if (sg->before && isfinite(o->order))
            snprintf(c.before, sizeof c.before, "%.2f %s", o->order, vb);
        else
            snprintf(c.before, sizeof c.before, "%s", vb);
        if (sg->after && isfinite(r->order))
            snprintf(c.after, sizeof c.after, "%.2f %s", r->order, vn);
        else
            snprintf(c.after, sizeof c.after, "%s", vn);
        *(worse ? &out->worse : &out->better) += 1;
        if (vb_changes_record(out, &c) != 0) {
            rc = vb_compare_oom(err, errlen);
            goto done;
        }
    }
    rc = 0;
done:
    free(b);
    free(n);
    return rc;
}
