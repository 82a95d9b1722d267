/* analysis.c — what a sweep's runs mean: the fitted orders and verdicts,
 * the random plans' bands, and which methods give the same positions. */
#include "analysis.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

#include "engine.h"
#include "integrator.h"
#include "precision.h"

/* In a case run in float32, or about a shifted origin, what the run's own
 * round-off allows (precision.h), p being the coarser of the case's and
 * the engine's arithmetic: an error below it is not fitted.  The
 * positions are held in ulps of the origin's shift too; the other norms
 * are not shifted.  0 for a float64 case about the origin, whose floor is
 * vb_fit_order's own. */
double vb_sweep_precision_floor(const vb_case *c, vb_precision p, int position, double scale)
{
    if (p == VB_FLOAT64 && c->offset == 0.0)
        return 0.0;
    return vb_roundoff_floor(p, position ? vb_case_roundoff_scale(c, scale, c->model.n) : scale);
}

static double precision_floor(const vb_case *c, vb_precision p, int nm, double scale)
{
    int pos = nm == VB_NORM_POS_FINAL || nm == VB_NORM_POS_MAX || nm == VB_NORM_POS_RMS ||
              nm == VB_NORM_RETURN;
    return vb_sweep_precision_floor(c, p, pos, scale);
}

/* ---- orders and bands ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double vb_sweep_median(double *vals, size_t n)
{
    /* inf (a diverged seed) sorts last, as it should */
    qsort(vals, n, sizeof *vals, cmp_double);
    return gsl_stats_median_from_sorted_data(vals, 1, n);
}

size_t vb_sweep_level_jobs(const vb_sweep *s, size_t integ, vb_plan_kind kind, int level,
                           const vb_sweep_job **out)
{
    size_t n = 0;
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        if (j->integ == integ && j->kind == kind && j->level == level)
            out[n++] = j;
    }
    return n;
}

/* The arithmetic a method's runs are made in: an engine's declaration
 * (precision=float32, docs/real-engines.md §1.6), double otherwise. */
static vb_precision precision_of(const vb_sweep *s, size_t i)
{
    return vb_sweep_caps(s->c, i).precision;
}

/* An engine whose velocity is a difference of positions (velocity=derived):
 * its velocity and what is computed from it are reported, never judged
 * against the label (docs/real-engines.md §1.7). */
static int derived_velocity(const vb_sweep *s, size_t i, vb_norm nm)
{
    return vb_sweep_caps(s->c, i).velocity == VB_VELOCITY_DERIVED && vb_norm_needs_velocity(nm);
}

/* the longest rod of a model, 0 for none */
static double rod_max(const vb_model *m)
{
    double L = 0.0;
    for (size_t k = 0; k < m->cons.n; k++)
        L = fmax(L, m->cons.rod[k].length);
    return L;
}

/* The energy at t = 0 of the case's model (NAN without one): where it is
 * 0 the energy error is absolute, |E_n - E_0| (docs/method.md §4). */
static double initial_energy(const vb_model *m)
{
    if (!m->type->energy)
        return NAN;
    double *x = malloc(2 * m->n * sizeof *x), e = NAN;
    if (x) {
        m->type->initial(m->self, x, x + m->n);
        e = m->type->energy(m->self, x, x + m->n);
    }
    free(x);
    return e;
}

/* The size an error of norm nm measures (vb_norm_scale: the positions',
 * the velocities', or 1 for an error already relative), but for an energy
 * error about E_0 = 0.  That one is absolute, in the model's units of
 * energy, and its round-off is that of the energy's terms: the kinetic
 * energy, at most max m |v|^2/2 over the run (with E_0 = 0 the potential
 * is as large).  Measured against 1, the drop's (cases/drop.case: 48 J/kg
 * of each after 1 s) were 10 N ulps of 1 and fitted as errors. */
static double norm_scale(const vb_model *m, double e0, const vb_run_result *r, vb_norm nm)
{
    if (nm != VB_NORM_ENERGY_MAX || e0 != 0.0)
        return vb_norm_scale(r, nm);
    double mass = 0.0;
    for (size_t i = 0; i < m->particles; i++)
        mass = fmax(mass, m->mass ? m->mass[i] : 1.0);
    double kinetic = 0.5 * mass * r->vel_scale * r->vel_scale;
    return kinetic > 0.0 ? kinetic : 1.0;
}

int vb_sweep_analyse_orders(vb_sweep *s)
{
    const vb_case *c = s->c;
    const double e0 = initial_energy(&c->model);
    size_t cap = c->n_integ * VB_N_PLANS * VB_N_NORMS;
    s->orders = calloc(cap, sizeof *s->orders);
    s->bands = calloc(cap * (size_t)c->halvings, sizeof *s->bands);
    const vb_sweep_job **sel = calloc((size_t)c->seeds + 1, sizeof *sel);
    double *vals = calloc((size_t)c->seeds + 1, sizeof *vals);
    if (!s->orders || !s->bands || !sel || !vals) {
        free(sel);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < c->n_integ; i++)
        for (int kind = 0; kind < VB_N_PLANS; kind++)
            for (int nm = 0; nm < VB_N_NORMS; nm++) {
                if (!vb_norm_applies_to(c, i, (vb_norm)nm))
                    continue;
                vb_runner_caps can = vb_sweep_caps(c, i);
                vb_order_row row = {.integ = i, .kind = (vb_plan_kind)kind, .norm = (vb_norm)nm};
                double scale[VB_MAX_LEVELS], resolution[VB_MAX_LEVELS], evals[VB_MAX_LEVELS];
                /* the steps of the level's runs (the most over its seeds):
                 * the round-off floor grows with them (orders.h) */
                double steps[VB_MAX_LEVELS];
                /* a method that holds its rods to a tolerance (shake,
                 * rattle: tol) drifts by about that at every step size: a
                 * floor of its own, as a reference's resolution is, below
                 * which its drift is never fitted (docs/constraints.md) */
                double tol = vb_integrator_param(can.method, "tol");
                double tol_floor = nm == VB_NORM_CONSTRAINT_MAX && tol > 0.0
                                       ? 2.0 * tol * rod_max(&c->model)
                                       : 0.0;
                /* a float32 engine's round-off floor is float32's: below
                 * it, as below a reference's resolution, nothing is fitted */
                /* a float32 case, or a float32 engine in any case */
                vb_precision prec = vb_precision_coarser(c->precision, precision_of(s, i));
                int levels = 0;
                for (int level = 0; level < c->halvings; level++) {
                    size_t n = vb_sweep_level_jobs(s, i, (vb_plan_kind)kind, level, sel);
                    if (n == 0)
                        break;
                    double sc = 0.0, rs = 0.0, st = 0.0;
                    for (size_t k = 0; k < n; k++) {
                        vals[k] = vb_norm_value(&sel[k]->res, (vb_norm)nm);
                        sc = fmax(sc, norm_scale(&c->model, e0, &sel[k]->res, (vb_norm)nm));
                        rs = fmax(rs, vb_norm_resolution(&sel[k]->res, (vb_norm)nm));
                        st = fmax(st, (double)sel[k]->res.steps);
                    }
                    scale[level] = sc;
                    steps[level] = st;
                    resolution[level] =
                        fmax(fmax(rs, tol_floor), precision_floor(c, prec, nm, sc));
                    evals[level] = 0.0;
                    for (size_t k = 0; k < n; k++)
                        evals[level] += (double)sel[k]->res.force_evals;
                    if (kind == VB_PLAN_RANDOM) {
                        double median = vb_sweep_median(vals, n);
                        vb_band_row *b = &s->bands[s->n_bands++];
                        b->integ = i;
                        b->level = level;
                        /* the level's x: its step, or its tolerance */
                        b->dt = vb_runner_level_x(&sel[0]->plan, &sel[0]->res);
                        b->norm = (vb_norm)nm;
                        b->median = median;
                        b->p10 = gsl_stats_quantile_from_sorted_data(vals, 1, n, 0.1);
                        b->p90 = gsl_stats_quantile_from_sorted_data(vals, 1, n, 0.9);
                        b->runs = 0;
                        for (size_t k = 0; k < n; k++)
                            b->runs += sel[k]->res.status == VB_STATUS_OK;
                        row.dt[level] = b->dt;
                        row.err[level] = b->median;
                    } else {
                        row.dt[level] = vb_runner_level_x(&sel[0]->plan, &sel[0]->res);
                        row.err[level] = vals[0];
                    }
                    /* its levels' plans hold a tolerance: its x is that */
                    row.x_tol = sel[0]->plan.tol > 0.0;
                    levels++;
                }
                if (levels == 0)
                    continue;
                vb_fit_order(row.dt, row.err, scale, steps, resolution, levels, &row.fit);
                row.verdict = vb_fit_verdict(
                    &row.fit, derived_velocity(s, i, (vb_norm)nm) ? 0 : c->integ[i]->order);
                /* An adaptive method whose every level cost the same took
                 * the same steps at every tolerance (its frames were short
                 * enough that the control never asked for less), and one
                 * whose error (median) did not move at all was not limited
                 * by the tolerance either: such points say nothing of it. */
                int same_work = 1, same_err = 1;
                for (int l = 1; l < levels; l++) {
                    same_work &= evals[l] == evals[0];
                    same_err &= row.err[l] == row.err[0];
                }
                if (row.x_tol && levels > 1 && (same_work || same_err) &&
                    row.verdict != VB_VERDICT_EXACT) {
                    row.fit.range = VB_RANGE_NONE;
                    row.fit.first = row.fit.last = -1;
                    row.fit.points = 0;
                    row.fit.order = row.fit.intercept = NAN;
                    row.fit.order_se = row.fit.order_ci95 = NAN;
                    row.verdict = VB_VERDICT_UNDETERMINED;
                }
                s->orders[s->n_orders++] = row;
            }
    free(sel);
    free(vals);
    return 0;
}

/* ---- methods that give the same positions ---- */

/* Do two runs of the same plan have the same positions?  The largest and
 * the RMS error, the norms the tables and charts show, the same to
 * round-off; not the error at t_end, one sample that may fall near a zero
 * of the error (the spring after one period: 2e-13 where the largest is
 * 5e-7), where round-off is a large share of it and two runs of the same
 * positions differ by 3 %.  And the signed witness (metrics.h) the same
 * (vb_same_signed_in): norms alone call explicit Euler "= euler-semi" on
 * a projectile, whose errors are the same size and opposite. */
static int same_run(const vb_case *c, const vb_sweep_job *a, const vb_sweep_job *b, vb_precision p)
{
    const vb_run_result *x = &a->res, *y = &b->res;
    /* an adaptive method's runs are on frames and a tolerance of their own */
    if (x->status != VB_STATUS_OK || y->status != VB_STATUS_OK || x->steps != y->steps ||
        a->plan.tol != b->plan.tol)
        return 0;
    double n = (double)x->steps;
    double sc = vb_case_roundoff_scale(c, fmax(x->pos_scale, y->pos_scale), c->model.n);
    return vb_same_to_roundoff_in(p, x->err_pos_max, y->err_pos_max, n, sc) &&
           vb_same_to_roundoff_in(p, x->err_pos_rms, y->err_pos_rms, n, sc) &&
           vb_same_signed_in(p, x->err_pos_signed, y->err_pos_signed, x->err_pos_rms,
                             y->err_pos_rms, n, sc, c->model.n);
}

/* same_as: the jobs of one integrator and plan are consecutive and in the
 * same order (level, seed) for every integrator, so run k of one matches
 * run k of another. */
int vb_sweep_analyse_same(vb_sweep *s)
{
    const vb_case *c = s->c;
    size_t n = c->n_integ;
    s->same_as = malloc(n * VB_N_PLANS * sizeof *s->same_as);
    s->same_pair = calloc(n > 0 ? n * n * VB_N_PLANS : 1, 1);
    size_t *first = malloc(n * VB_N_PLANS * sizeof *first);
    if (!s->same_as || !s->same_pair || !first) {
        free(first);
        return -1;
    }
    size_t count[VB_N_PLANS] = {0};
    for (size_t k = 0; k < c->n_integ * VB_N_PLANS; k++)
        s->same_as[k] = first[k] = VB_SAME_NONE;
    for (size_t k = 0; k < s->n_jobs; k++) {
        const vb_sweep_job *j = &s->jobs[k];
        size_t slot = j->integ * VB_N_PLANS + j->kind;
        if (first[slot] == VB_SAME_NONE)
            first[slot] = k;
        if (j->integ == 0)
            count[j->kind]++;
    }
    for (size_t kind = 0; kind < VB_N_PLANS; kind++)
        for (size_t i = 1; i < c->n_integ; i++) {
            size_t fi = first[i * VB_N_PLANS + kind];
            if (fi == VB_SAME_NONE)
                continue;
            for (size_t o = 0; o < i; o++) {
                size_t fo = first[o * VB_N_PLANS + kind];
                int same = fo != VB_SAME_NONE && count[kind] > 0;
                /* the coarser arithmetic of the two decides what is round-off */
                vb_precision p = vb_precision_coarser(
                    c->precision,
                    vb_precision_coarser(precision_of(s, i), precision_of(s, o)));
                for (size_t r = 0; same && r < count[kind]; r++)
                    same = same_run(c, &s->jobs[fi + r], &s->jobs[fo + r], p);
                s->same_pair[(i * n + o) * VB_N_PLANS + kind] = (unsigned char)same;
                if (same && s->same_as[i * VB_N_PLANS + kind] == VB_SAME_NONE)
                    s->same_as[i * VB_N_PLANS + kind] = o;
            }
        }
    free(first);
    return 0;
}
