/* rates.c — the frame-rate table: every loop x integrator at each display
 * rate, one grid a rate and frames kind, the drawn states recorded as they
 * go (vb_step_fn); in a case whose runs call a plugin's code, each grid in
 * a worker process first (isolate.h), as the sweep's runs are. */
#include "rates.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate.h"
#include "jobs.h"
#include "plugin.h"
#include "vector.h"

size_t vb_rate_height_index(const vb_model *m) { return m->type->dim - 1; }

/* what the frames of one grid record, integrator k into row[k] */
typedef struct {
    const vb_model *m;
    vb_rate_row **row;
    double *xe_final; /* the truth at the last frame each saw (n each) */
} recorder;

static void record(void *ctx, size_t k, double t, const double *x, const double *v,
                   const double *xe, const double *ve)
{
    (void)t, (void)v, (void)ve;
    recorder *r = ctx;
    vb_rate_row *row = r->row[k];
    size_t n = r->m->n, y = vb_rate_height_index(r->m);
    if (!(x[y] <= row->y_max))
        row->y_max = x[y];
    if (!(xe[y] <= row->y_max_exact))
        row->y_max_exact = xe[y];
    memcpy(row->x_final, x, n * sizeof *x);
    memcpy(r->xe_final + k * n, xe, n * sizeof *xe);
}

/* the frames of the plan, and their dt (t_end/N for fixed frames) */
static void count_frames(const vb_plan_spec *plan, vb_rate_row *r)
{
    vb_plan p;
    double h, t;
    r->frames = 0;
    if (vb_plan_begin(&p, plan) == 0) {
        while (vb_plan_next(&p, &h, &t))
            r->frames++;
        r->dt = plan->kind == VB_PLAN_FIXED ? p.h_fixed : plan->dt; /* a trace's mean */
        vb_plan_end(&p);
    }
}

/* one grid: every integrator but the engines (a request of theirs names a
 * plan of the sweep's) under the frames of plan */
static int run_rate(const vb_case *c, const vb_plan_spec *plan, const vb_integrator **integ,
                    vb_rate_row **row, size_t m, char *err, size_t errlen)
{
    size_t n = c->model.n;
    vb_run_result *res = calloc(m ? m : 1, sizeof *res);
    double *xe = malloc((m ? m : 1) * n * sizeof *xe);
    recorder rec = {&c->model, row, xe};
    int rc = res && xe ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "out of memory for the frame-rate table");
    vb_grid_spec g = {.model = &c->model, .plan = *plan, .integ = integ, .n_integ = m,
                      .on_step = record, .on_step_ctx = &rec};
    if (rc == 0)
        rc = vb_simulate_grid(&g, res, err, errlen);
    for (size_t k = 0; rc == 0 && k < m; k++) {
        vb_rate_row *r = row[k];
        r->status = res[k].status;
        r->fail_step = res[k].fail_step;
        r->dt = res[k].dt;
        count_frames(plan, r);
        r->err_energy_max = res[k].has_energy ? res[k].err_energy_max : (double)NAN;
        r->err_draw_max = res[k].err_draw_max; /* its position's, without a loop */
        r->lag = res[k].lag_max;
        r->t_tumble = res[k].has_attitude ? res[k].t_tumble : (double)NAN;
        r->err_final = res[k].status == VB_STATUS_OK
                           ? vb_distance(r->x_final, xe + k * n, n)
                           : (double)INFINITY;
        if (res[k].status != VB_STATUS_OK)
            r->y_max = r->err_energy_max = r->err_draw_max = INFINITY;
    }
    for (size_t k = 0; res && k < m; k++)
        vb_run_result_clear(&res[k]);
    free(res);
    free(xe);
    return rc;
}

/* ---- the grids: here, or in workers ---- */

/* The table's grids: g = kind * n_rates + rate, each of its m integrators
 * (those not an engine's) integ[q] = c->integ[idx[q]]; here[g * m + q]: a
 * worker handed that run back, to be made in this process. */
typedef struct {
    vb_sweep *s;
    const vb_integrator **integ;
    const size_t *idx;
    size_t m;
    int kinds;
    const vb_plan_kind *kind_of; /* the frames kinds (vb_sweep_rate_kinds) */
    unsigned char *here;
} rates_ctx;

/* grid g's frames: kind g / n_rates at rate g % n_rates (jobs.h) */
static vb_plan_spec grid_plan(const rates_ctx *x, size_t g)
{
    const vb_case *c = x->s->c;
    size_t kd = g / (size_t)c->n_rates, ri = g % (size_t)c->n_rates;
    return vb_sweep_rate_plan(c, c->rates[ri], x->kind_of[kd]);
}

/* integrator q's row of grid g: rows by integrator, then frames kind, then
 * rate, the order the tables and charts read them in */
static vb_rate_row *grid_row(const rates_ctx *x, size_t g, size_t q)
{
    return &x->s->rates[q * (size_t)x->kinds * (size_t)x->s->c->n_rates + g];
}

/* grid g's runs of integrators qs[0..n) */
static int run_grid(const rates_ctx *x, size_t g, const size_t *qs, size_t n, char *err,
                    size_t errlen)
{
    const vb_integrator **integ = malloc((n ? n : 1) * sizeof *integ);
    vb_rate_row **row = malloc((n ? n : 1) * sizeof *row);
    int rc = integ && row ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "out of memory for the frame-rate table");
    for (size_t k = 0; rc == 0 && k < n; k++) {
        integ[k] = x->integ[qs[k]];
        row[k] = grid_row(x, g, qs[k]);
    }
    vb_plan_spec plan = grid_plan(x, g);
    if (rc == 0 && n)
        rc = run_rate(x->s->c, &plan, integ, row, n, err, errlen);
    free(integ);
    free(row);
    return rc;
}

/* what a worker sends of a row: these, then its drawn position at t_end */
typedef struct {
    vb_status status;
    unsigned long long frames, fail_step;
    double dt, err_final, y_max, y_max_exact, err_energy_max, err_draw_max, lag, t_tumble;
} rate_result;

/* in a worker: the runs of one grid, units g * m + q */
static int iso_rates(void *ctx, const size_t *units, size_t n, vb_isolate_out *out, char *err,
                     size_t errlen)
{
    rates_ctx *x = ctx;
    size_t g = n ? units[0] / x->m : 0, dim = x->s->c->model.n;
    size_t *qs = calloc(n ? n : 1, sizeof *qs);
    size_t len = sizeof(rate_result) + dim * sizeof(double);
    char *b = malloc(len);
    int rc = qs && b ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "out of memory for the frame-rate table");
    for (size_t k = 0; rc == 0 && k < n; k++)
        qs[k] = units[k] % x->m;
    if (rc == 0)
        rc = run_grid(x, g, qs, n, err, errlen);
    for (size_t k = 0; rc == 0 && k < n; k++) {
        const vb_rate_row *r = grid_row(x, g, qs[k]);
        rate_result got;
        memset(&got, 0, sizeof got); /* its padding too: every byte sent is set */
        got.status = r->status;
        got.frames = r->frames;
        got.fail_step = r->fail_step;
        got.dt = r->dt;
        got.err_final = r->err_final;
        got.y_max = r->y_max;
        got.y_max_exact = r->y_max_exact;
        got.err_energy_max = r->err_energy_max;
        got.err_draw_max = r->err_draw_max;
        got.lag = r->lag;
        got.t_tumble = r->t_tumble;
        memcpy(b, &got, sizeof got);
        memcpy(b + sizeof got, r->x_final, dim * sizeof(double));
        if (vb_isolate_put(out, units[k], b, len) != 0) {
            snprintf(err, errlen, "cannot send a result to verletbench");
            rc = -1;
        }
    }
    free(qs);
    free(b);
    return rc;
}

/* in this process: a row, or why its worker failed it (the row says
 * plugin-failed: its frames, nothing measured), or (both NULL) handed
 * back to be run here */
static int iso_rates_done(void *ctx, size_t unit, const void *bytes, size_t len,
                          const char *why)
{
    rates_ctx *x = ctx;
    size_t g = unit / x->m, dim = x->s->c->model.n;
    vb_rate_row *r = grid_row(x, g, unit % x->m);
    if (!bytes && !why) {
        x->here[unit] = 1;
        return 0;
    }
    if (bytes && len == sizeof(rate_result) + dim * sizeof(double)) {
        rate_result got;
        memcpy(&got, bytes, sizeof got);
        r->status = got.status;
        r->frames = got.frames;
        r->fail_step = got.fail_step;
        r->dt = got.dt;
        r->err_final = got.err_final;
        r->y_max = got.y_max;
        r->y_max_exact = got.y_max_exact;
        r->err_energy_max = got.err_energy_max;
        r->err_draw_max = got.err_draw_max;
        r->lag = got.lag;
        r->t_tumble = got.t_tumble;
        memcpy(r->x_final, (const char *)bytes + sizeof got, dim * sizeof(double));
        return 0;
    }
    vb_plan_spec plan = grid_plan(x, g);
    count_frames(&plan, r);
    r->status = VB_STATUS_PLUGIN_FAILED;
    r->err_final = r->y_max = r->err_energy_max = r->err_draw_max = INFINITY;
    r->y_max_exact = NAN; /* no frame was drawn in this process */
    snprintf(r->failure, sizeof r->failure, "%s",
             bytes ? "a worker's result of the wrong size" : why);
    return 0;
}

static int iso_rates_foreign(void *ctx, size_t unit)
{
    const rates_ctx *x = ctx;
    return x->s->c->profile.plugin[x->idx[unit % x->m]];
}

/* Every grid, each in a worker first (one at a time: the table is small),
 * then here the runs the workers handed back. */
static int run_isolated(rates_ctx *x, size_t grids, char *err, size_t errlen)
{
    size_t m = x->m, n_units = grids * m;
    size_t *units = malloc((n_units ? n_units : 1) * sizeof *units);
    size_t *at = malloc((grids + 1) * sizeof *at);
    size_t *qs = calloc(m ? m : 1, sizeof *qs);
    x->here = calloc(n_units ? n_units : 1, 1);
    int rc = units && at && qs && x->here ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "out of memory for the frame-rate table");
    for (size_t g = 0; rc == 0 && g < grids; g++) {
        at[g] = g * m;
        for (size_t q = 0; q < m; q++)
            units[g * m + q] = g * m + q;
    }
    if (rc == 0) {
        at[grids] = n_units;
        rc = vb_isolate_groups(units, at, grids, 1, vb_plugin_timeout(), iso_rates,
                               iso_rates_done, iso_rates_foreign, NULL, x, err, errlen);
    }
    for (size_t g = 0; rc == 0 && g < grids; g++) {
        size_t n = 0;
        for (size_t q = 0; q < m; q++)
            if (x->here[g * m + q])
                qs[n++] = q;
        rc = run_grid(x, g, qs, n, err, errlen);
    }
    free(units);
    free(at);
    free(qs);
    free(x->here);
    x->here = NULL;
    return rc;
}

int vb_sweep_rates(vb_sweep *s, char *err, size_t errlen)
{
    const vb_case *c = s->c;
    s->n_rates = 0;
    if (c->n_rates == 0)
        return 0;
    vb_plan_kind kind_of[3];
    int kinds = vb_sweep_rate_kinds(c, kind_of);
    size_t m = 0, n = c->model.n;
    const vb_integrator **integ = malloc((c->n_integ ? c->n_integ : 1) * sizeof *integ);
    size_t *idx = malloc((c->n_integ ? c->n_integ : 1) * sizeof *idx);
    size_t cap = c->n_integ * (size_t)kinds * (size_t)c->n_rates;
    s->rates = calloc(cap ? cap : 1, sizeof *s->rates);
    int rc = integ && idx && s->rates ? 0 : -1;
    /* the entries that compute their runs (an engine's are the runs the
     * plans ask of it: profile.h) */
    for (size_t k = 0; rc == 0 && k < c->profile.n_rated; k++, m++) {
        idx[m] = c->profile.rated[k];
        integ[m] = c->integ[idx[m]];
    }
    /* rows by integrator, then frames kind, then rate: the order the
     * tables and charts read them in */
    for (size_t q = 0; rc == 0 && q < m; q++)
        for (int kd = 0; kd < kinds; kd++)
            for (int ri = 0; ri < c->n_rates; ri++) {
                vb_rate_row *r = &s->rates[s->n_rates++];
                r->integ = idx[q];
                r->kind = kind_of[kd];
                r->rate = c->rates[ri];
                r->y_max = r->y_max_exact = -INFINITY;
                if (!(r->x_final = calloc(n, sizeof *r->x_final)))
                    rc = -1;
            }
    if (rc != 0)
        snprintf(err, errlen, "out of memory for the frame-rate table");
    rates_ctx x = {s, integ, idx, m, kinds, kind_of, NULL};
    size_t grids = (size_t)kinds * (size_t)c->n_rates;
    /* a plugin's code that crashes or hangs at the rates' frames fails
     * its rows, not the command (isolate.h) */
    int iso = c->profile.n_in_workers > 0;
    size_t *all = calloc(m ? m : 1, sizeof *all);
    if (rc == 0 && !all) {
        snprintf(err, errlen, "out of memory for the frame-rate table");
        rc = -1;
    }
    for (size_t q = 0; rc == 0 && q < m; q++)
        all[q] = q;
    if (rc == 0 && iso)
        rc = run_isolated(&x, grids, err, errlen);
    for (size_t g = 0; rc == 0 && !iso && g < grids; g++)
        rc = run_grid(&x, g, all, m, err, errlen);
    free(all);
    free(integ);
    free(idx);
    return rc;
}

vb_rate_spread vb_rate_spread_of(const vb_sweep *s, size_t i, vb_plan_kind kind)
{
    vb_rate_spread sp = {0.0, 0.0, 0.0, 0};
    double ylo = INFINITY, yhi = -INFINITY, elo = INFINITY, ehi = -INFINITY;
    size_t n = s->c->model.n;
    for (size_t a = 0; a < s->n_rates; a++) {
        const vb_rate_row *r = &s->rates[a];
        if (r->integ != i || r->kind != kind)
            continue;
        if (r->status != VB_STATUS_OK)
            return (vb_rate_spread){INFINITY, INFINITY, INFINITY, sp.rates};
        sp.rates++;
        ylo = fmin(ylo, r->y_max), yhi = fmax(yhi, r->y_max);
        elo = fmin(elo, r->err_energy_max), ehi = fmax(ehi, r->err_energy_max);
        for (size_t b = 0; b < a; b++) {
            const vb_rate_row *o = &s->rates[b];
            if (o->integ == i && o->kind == kind)
                sp.final = fmax(sp.final, vb_distance(r->x_final, o->x_final, n));
        }
    }
    sp.y_max = sp.rates ? yhi - ylo : (double)NAN;
    sp.energy = sp.rates && isfinite(ehi) ? ehi - elo : (double)NAN;
    return sp;
}
