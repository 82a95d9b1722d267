/* rates.c — the frame-rate table: every loop x integrator at each display
 * rate, one grid a rate and frames kind, the drawn states recorded as they
 * go (vb_step_fn). */
#include "rates.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "jobs.h"
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
        r->dt = res[k].dt;
        r->frames = 0;
        vb_plan p;
        double h, t;
        if (vb_plan_begin(&p, plan) == 0) {
            while (vb_plan_next(&p, &h, &t))
                r->frames++;
            r->dt = plan->kind == VB_PLAN_FIXED ? p.h_fixed : plan->dt; /* a trace's mean */
            vb_plan_end(&p);
        }
        r->err_energy_max = res[k].has_energy ? res[k].err_energy_max : (double)NAN;
        r->err_draw_max = res[k].has_draw ? res[k].err_draw_max : res[k].err_pos_max;
        r->lag = res[k].has_draw ? res[k].lag_max : 0.0;
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
    vb_rate_row **row = malloc((c->n_integ ? c->n_integ : 1) * sizeof *row);
    size_t cap = c->n_integ * (size_t)kinds * (size_t)c->n_rates;
    s->rates = calloc(cap ? cap : 1, sizeof *s->rates);
    int rc = integ && idx && row && s->rates ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < c->n_integ; i++)
        if (!vb_engine_of(c->integ[i])) {
            idx[m] = i;
            integ[m++] = c->integ[i];
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
    for (int kd = 0; rc == 0 && kd < kinds; kd++)
        for (int ri = 0; rc == 0 && ri < c->n_rates; ri++) {
            vb_plan_spec plan = vb_sweep_rate_plan(c, c->rates[ri], kind_of[kd]);
            for (size_t q = 0; q < m; q++)
                row[q] = &s->rates[(q * (size_t)kinds + (size_t)kd) * (size_t)c->n_rates +
                                   (size_t)ri];
            rc = run_rate(c, &plan, integ, row, m, err, errlen);
        }
    free(integ);
    free(idx);
    free(row);
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
