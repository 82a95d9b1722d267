/* contact_orders.c — the contact measures' orders in dt (contact_orders.h):
 * each level's point taken as orders.csv's are (analysis.h: the level's
 * run, or a random plan's median over its seeds) and fitted by
 * vb_fit_order, the same floors and rules. */
#include "contact_orders.h"

#include <math.h>
#include <stdlib.h>

#include "analysis.h"

int vb_contact_err_applies(const vb_contact_result *c, vb_contact_err m)
{
    switch (m) {
    case VB_CONTACT_ERR_T_ROLL:
    case VB_CONTACT_ERR_S_ROLL:
    case VB_CONTACT_ERR_V_ROLL:
    case VB_CONTACT_ERR_SLIP_MAX:
        return isfinite(c->t_roll_exact);
    case VB_CONTACT_ERR_CREEP:
        return c->creep_exact == 0.0;
    default:
        return 1;
    }
}

double vb_contact_err_value(const vb_run_result *r, vb_contact_err m)
{
    const vb_contact_result *c = &r->contact;
    double e = NAN;
    switch (m) {
    case VB_CONTACT_ERR_T_ROLL:
        e = fabs(c->t_roll - c->t_roll_exact);
        break;
    case VB_CONTACT_ERR_S_ROLL:
        e = fabs(c->s_roll - c->s_roll_exact);
        break;
    case VB_CONTACT_ERR_V_ROLL:
        e = fabs(c->v_roll - c->v_roll_exact);
        break;
    case VB_CONTACT_ERR_SLIP_MAX:
        e = c->slip_max;
        break;
    case VB_CONTACT_ERR_A_ERR:
        e = fabs(c->a_err);
        break;
    case VB_CONTACT_ERR_CREEP:
        e = fabs(c->creep - c->creep_exact);
        break;
    case VB_CONTACT_ERR_ENERGY_ERR:
        e = c->energy_err;
        break;
    default:
        e = c->depth_max;
        break;
    }
    /* a run that stopped, or a measure that never came (t_roll inf: its
     * s_roll and v_roll blank): no point of a power law, as a diverged
     * run's inf in runs.csv */
    return r->status == VB_STATUS_OK && c->body && e >= 0.0 ? e : (double)INFINITY;
}

double vb_contact_err_scale(const vb_run_result *r, vb_contact_err m)
{
    switch (m) {
    case VB_CONTACT_ERR_T_ROLL:
        return r->t_end; /* a time of the run lies within it */
    case VB_CONTACT_ERR_S_ROLL:
    case VB_CONTACT_ERR_CREEP:
    case VB_CONTACT_ERR_DEPTH_MAX:
        return r->pos_scale; /* runs.csv's position norms' */
    case VB_CONTACT_ERR_V_ROLL:
    case VB_CONTACT_ERR_SLIP_MAX:
        return r->vel_scale; /* its velocity norms' */
    default:
        return 1.0; /* a_err is over g, energy_err over the energy's scale */
    }
}

/* a run of the case with a body's measures, or NULL: a wall's case */
static const vb_contact_result *body_of(const vb_sweep *s)
{
    for (size_t k = 0; k < s->n_jobs; k++)
        if (s->jobs[k].res.contact.has && s->jobs[k].res.contact.body)
            return &s->jobs[k].res.contact;
    return NULL;
}

/* The row of entry i, plan kind and measure m: its points level by level,
 * fitted; 0 when the plan has no runs. */
static int fit_row(const vb_sweep *s, size_t i, vb_plan_kind kind, vb_contact_err m,
                   const vb_sweep_job **sel, double *vals, vb_contact_order_row *row)
{
    const vb_case *c = s->c;
    double scale[VB_MAX_LEVELS], steps[VB_MAX_LEVELS], resolution[VB_MAX_LEVELS];
    vb_precision prec = vb_precision_coarser(c->precision, vb_sweep_caps(c, i).precision);
    int position = m == VB_CONTACT_ERR_S_ROLL || m == VB_CONTACT_ERR_CREEP;
    int levels = 0;
    *row = (vb_contact_order_row){.o = {.integ = i, .kind = kind}, .measure = m};
    for (int level = 0; level < c->halvings && level < VB_MAX_LEVELS; level++) {
        size_t n = vb_sweep_level_jobs(s, i, kind, level, sel);
        if (n == 0)
            break;
        double sc = 0.0, st = 0.0;
        for (size_t k = 0; k < n; k++) {
            vals[k] = vb_contact_err_value(&sel[k]->res, m);
            sc = fmax(sc, vb_contact_err_scale(&sel[k]->res, m));
            st = fmax(st, (double)sel[k]->res.steps);
        }
        scale[level] = sc;
        steps[level] = st;
        resolution[level] = vb_sweep_precision_floor(c, prec, position, sc);
        row->o.dt[level] = vb_runner_level_x(&sel[0]->plan, &sel[0]->res);
        row->o.err[level] = kind == VB_PLAN_RANDOM ? vb_sweep_median(vals, n) : vals[0];
        row->o.x_tol = sel[0]->plan.tol > 0.0;
        levels++;
    }
    if (levels == 0)
        return 0;
    vb_fit_order(row->o.dt, row->o.err, scale, steps, resolution, levels, &row->o.fit);
    /* no label: a power law is measured, never as-expected or off one */
    row->o.verdict = vb_fit_verdict(&row->o.fit, 0);
    return 1;
}

int vb_sweep_contact_orders(vb_sweep *s)
{
    const vb_case *c = s->c;
    s->contact_orders = NULL;
    s->n_contact_orders = 0;
    const vb_contact_result *body = body_of(s);
    if (!body)
        return 0;
    s->contact_orders =
        calloc(c->n_integ * VB_N_PLANS * VB_N_CONTACT_ERRS, sizeof *s->contact_orders);
    const vb_sweep_job **sel = calloc((size_t)c->seeds + 1, sizeof *sel);
    double *vals = calloc((size_t)c->seeds + 1, sizeof *vals);
    int rc = s->contact_orders && sel && vals ? 0 : -1;
    for (size_t i = 0; i < c->n_integ && rc == 0; i++)
        for (int kind = 0; kind < VB_N_PLANS; kind++)
            for (int m = 0; m < VB_N_CONTACT_ERRS; m++)
                if (vb_contact_err_applies(body, (vb_contact_err)m) &&
                    fit_row(s, i, (vb_plan_kind)kind, (vb_contact_err)m, sel, vals,
                            &s->contact_orders[s->n_contact_orders]))
                    s->n_contact_orders++;
    free(sel);
    free(vals);
    return rc;
}
