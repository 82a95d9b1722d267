/* sweep.c — plan a case's runs, run them, and work out what they mean. */
#include "sweep.h"
#include "engine.h"

#include <float.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "integrator.h"
#include "isolate.h"
#include "lanes.h"
#include "metrics.h"
#include "parallel.h"
#include "plugin.h"
#include "truth.h"

/* ---- norms ---------------------------------------------------------------- */

typedef enum { SCALE_POS, SCALE_VEL, SCALE_UNIT } scale_kind;

static const struct {
    const char *name;
    size_t offset;
    scale_kind scale;
} norms[VB_N_NORMS] = {
    {"err_pos_final", offsetof(vb_run_result, err_pos_final), SCALE_POS},
    {"err_pos_max", offsetof(vb_run_result, err_pos_max), SCALE_POS},
    {"err_pos_rms", offsetof(vb_run_result, err_pos_rms), SCALE_POS},
    {"err_vel_final", offsetof(vb_run_result, err_vel_final), SCALE_VEL},
    {"err_vel_max", offsetof(vb_run_result, err_vel_max), SCALE_VEL},
    {"err_energy_max", offsetof(vb_run_result, err_energy_max), SCALE_UNIT},
    {"err_angmom_max", offsetof(vb_run_result, err_angmom_max), SCALE_UNIT},
    {"err_momentum_max", offsetof(vb_run_result, err_momentum_max), SCALE_UNIT},
    {"err_return", offsetof(vb_run_result, err_return), SCALE_POS},
    {"err_constraint_max", offsetof(vb_run_result, err_constraint_max), SCALE_POS},
};

const char *vb_norm_name(vb_norm n) { return norms[n].name; }

double vb_norm_value(const vb_run_result *r, vb_norm n)
{
    double v;
    memcpy(&v, (const char *)r + norms[n].offset, sizeof v);
    return v;
}

int vb_norm_applies(const vb_case *c, vb_norm n)
{
    const vb_model_type *t = c->model.type;
    switch (n) {
    case VB_NORM_ENERGY_MAX:
        return t->energy != NULL;
    case VB_NORM_ANGMOM_MAX:
        return (t->flags & VB_CONSERVES_ANGMOM) && t->dim >= 2;
    case VB_NORM_MOMENTUM_MAX:
        return (t->flags & VB_CONSERVES_MOMENTUM) != 0;
    case VB_NORM_RETURN:
        /* every run of the case has the same t_end: ask the first */
        return (t->flags & VB_PERIODIC) && vb_whole_periods(&c->model, c->t_end);
    case VB_NORM_CONSTRAINT_MAX:
        return vb_model_constrained(&c->model);
    default:
        return 1;
    }
}

/* What a reference solution cannot resolve: errors in position or velocity
 * below VB_REF_RESOLUTION times its own (truth.h).  0 for an exact one and
 * for the norms the truth does not enter (energy, momenta, return). */
double vb_norm_resolution(const vb_run_result *r, vb_norm n)
{
    if (!r->has_reference)
        return 0.0;
    switch (n) {
    case VB_NORM_POS_FINAL:
    case VB_NORM_POS_MAX:
    case VB_NORM_POS_RMS:
        return VB_REF_RESOLUTION * r->ref_err_pos;
    case VB_NORM_VEL_FINAL:
    case VB_NORM_VEL_MAX:
        return VB_REF_RESOLUTION * r->ref_err_vel;
    default:
        return 0.0;
    }
}

double vb_norm_scale(const vb_run_result *r, vb_norm n)
{
    return norms[n].scale == SCALE_POS   ? r->pos_scale
           : norms[n].scale == SCALE_VEL ? r->vel_scale
                                         : 1.0;
}

const double vb_onestep_ratio[VB_ONESTEP_RATIOS] = {1.0, 1.5};

/* ---- planning ------------------------------------------------------------- */

int vb_adaptive(const vb_integrator *g) { return (g->flags & VB_ADAPTIVE) != 0; }

double vb_sweep_tolerance(const vb_case *c, int level)
{
    return c->tolerance * pow(VB_TOL_RATIO, -(double)level);
}

static double level_dt(const vb_case *c, int level) { return ldexp(c->dt, -level); }

static vb_plan_spec plan_for(const vb_case *c, vb_plan_kind kind, int level, unsigned long seed)
{
    vb_plan_spec p = {.kind = kind, .t_end = c->t_end, .dt = level_dt(c, level), .level = level};
    if (kind == VB_PLAN_RANDOM) {
        p.jitter = c->jitter;
        p.seed = seed;
        snprintf(p.id, sizeof p.id, "random-L%d-S%lu", level, seed);
    } else if (kind == VB_PLAN_TRACE) {
        p.trace = &c->trace;
        p.trace_scale = ldexp(1.0, -level);
        snprintf(p.id, sizeof p.id, "trace-L%d", level);
    } else {
        snprintf(p.id, sizeof p.id, "fixed-L%d", level);
    }
    return p;
}

/* The plans of one integrator, in the order the sweep runs them: every kind,
 * level and seed.  All integrators of a case share them. */
static size_t plans_per_integrator(const vb_case *c)
{
    size_t per_level = 1 + (size_t)c->seeds * (c->jitter > 0.0) + (c->trace_path != NULL);
    return (size_t)c->halvings * per_level;
}

static void fill_plans(const vb_case *c, vb_plan_spec *plans, vb_plan_kind *kinds, int *levels,
                       unsigned long *seeds_out)
{
    size_t j = 0;
    for (int kind = 0; kind < VB_N_PLANS; kind++) {
        if ((kind == VB_PLAN_RANDOM && !(c->jitter > 0.0)) ||
            (kind == VB_PLAN_TRACE && !c->trace_path))
            continue;
        int seeds = kind == VB_PLAN_RANDOM ? c->seeds : 1;
        for (int level = 0; level < c->halvings; level++)
            for (int sd = 1; sd <= seeds; sd++, j++) {
                unsigned long seed = kind == VB_PLAN_RANDOM ? (unsigned long)sd : 0;
                plans[j] = plan_for(c, (vb_plan_kind)kind, level, seed);
                if (kinds)
                    kinds[j] = (vb_plan_kind)kind;
                if (levels)
                    levels[j] = level;
                if (seeds_out)
                    seeds_out[j] = seed;
            }
    }
}

vb_plan_spec *vb_sweep_plans(const vb_case *c, size_t *n)
{
    *n = plans_per_integrator(c);
    vb_plan_spec *plans = calloc(*n ? *n : 1, sizeof *plans);
    if (plans)
        fill_plans(c, plans, NULL, NULL, NULL);
    return plans;
}

static int plan_jobs(const vb_case *c, vb_sweep *s, char *err, size_t errlen)
{
    size_t per = plans_per_integrator(c);
    s->n_jobs = c->n_integ * per;
    s->jobs = calloc(s->n_jobs ? s->n_jobs : 1, sizeof *s->jobs);
    vb_plan_spec *plans = calloc(per ? per : 1, sizeof *plans);
    vb_plan_kind *kinds = calloc(per ? per : 1, sizeof *kinds);
    int *levels = calloc(per ? per : 1, sizeof *levels);
    unsigned long *seeds = calloc(per ? per : 1, sizeof *seeds);
    if (!s->jobs || !plans || !kinds || !levels || !seeds) {
        free(plans), free(kinds), free(levels), free(seeds);
        char label[4096];
        snprintf(err, errlen, "%s: out of memory for %zu runs", vb_case_label(c, label, sizeof label),
                 s->n_jobs);
        return -1;
    }
    fill_plans(c, plans, kinds, levels, seeds);
    for (size_t i = 0; i < c->n_integ; i++)
        for (size_t k = 0; k < per; k++) {
            vb_sweep_job *job = &s->jobs[i * per + k];
            job->integ = i;
            job->kind = kinds[k];
            job->level = levels[k];
            job->seed = seeds[k];
            job->plan = plans[k];
            if (vb_adaptive(c->integ[i])) {
                /* the frames of level 0, the tolerance of this level */
                job->plan = plan_for(c, kinds[k], 0, seeds[k]);
                job->plan.tol = vb_sweep_tolerance(c, levels[k]);
                job->plan.level = levels[k];
                snprintf(job->plan.id, sizeof job->plan.id, "%s-T%d", plans[k].id, levels[k]);
            }
        }
    free(plans), free(kinds), free(levels), free(seeds);
    return 0;
}

int vb_sweep_check(const vb_case *c, double max_steps, char *err, size_t errlen)
{
    /* the finest step decides the cost; the seed does not */
    for (int kind = 0; kind < VB_N_PLANS; kind++) {
        if ((kind == VB_PLAN_RANDOM && !(c->jitter > 0.0)) ||
            (kind == VB_PLAN_TRACE && !c->trace_path))
            continue;
        for (int level = 0; level < c->halvings; level++) {
            vb_plan_spec p = plan_for(c, (vb_plan_kind)kind, level, 1);
            double n = vb_plan_max_steps(&p);
            if (n > max_steps) {
                char label[4096];
                snprintf(err, errlen,
                         "%s: dt/2^%d = %g needs up to %.3g steps a run, over the limit of %.3g "
                         "(raise it with --max-steps or VERLETBENCH_MAX_STEPS)",
                         vb_case_label(c, label, sizeof label), level, level_dt(c, level), n,
                         max_steps);
                return VB_SWEEP_USAGE;
            }
        }
    }
    return 0;
}

/* ---- running the jobs: a plan at a time, every integrator on it, on threads ---- */

/* The jobs are planned integrator by integrator, each integrator's in the
 * same order (kind, level, seed): job g of integrator i is
 * jobs[i * per + g].  Task g runs plan g for every integrator at once, the
 * truth computed once per step (vb_simulate_grid). */
typedef struct {
    const vb_case *c;
    vb_sweep *s;
    size_t per; /* jobs per integrator */
    atomic_size_t jobs_done;
    vb_progress_fn *progress;
    void *progress_ctx;
    /* a case whose runs call a plugin's code: every run but an engine's
     * goes to a worker process first (isolate.h), the runs of a plan
     * together, as they go here; here[k]: job k handed back, to be run
     * here with the engines' */
    int iso;
    unsigned char *here;
} job_ctx;

static int calls_plugin(const vb_case *c, size_t i)
{
    return vb_plugin_code(c->integ[i], &c->model);
}

/* The runs of task g of the integrators idx[0..n) into res (integrator
 * idx[k]'s into res[k]): those that step on the plan's times together,
 * one grid, the truth computed once a step; an adaptive one, on frames
 * and a tolerance of its own, alone.  Each result is what it would be
 * alone, bit for bit (simulate.h).  0, or -1 with a message. */
static int run_task(const job_ctx *jc, size_t g, const size_t *idx, size_t n,
                    vb_run_result *res, char *err, size_t errlen)
{
    const vb_case *c = jc->c;
    const vb_sweep_job *jobs = jc->s->jobs;
    const vb_integrator **grid = malloc((n ? n : 1) * sizeof *grid);
    size_t *at = malloc((n ? n : 1) * sizeof *at), m = 0;
    vb_run_result *gres = malloc((n ? n : 1) * sizeof *gres);
    int rc = grid && at && gres ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "out of memory");
    for (size_t k = 0; k < n; k++)
        memset(&res[k], 0, sizeof res[k]);
    for (size_t k = 0; rc == 0 && k < n; k++)
        if (!vb_adaptive(c->integ[idx[k]])) {
            grid[m] = c->integ[idx[k]];
            at[m++] = k;
        }
    if (rc == 0 && m) {
        vb_grid_spec spec = {.model = &c->model, .plan = jobs[idx[at[0]] * jc->per + g].plan,
                             .integ = grid, .n_integ = m};
        rc = vb_simulate_grid(&spec, gres, err, errlen);
        for (size_t q = 0; rc == 0 && q < m; q++)
            res[at[q]] = gres[q];
    }
    for (size_t k = 0; rc == 0 && k < n; k++)
        if (vb_adaptive(c->integ[idx[k]])) {
            vb_grid_spec spec = {.model = &c->model, .plan = jobs[idx[k] * jc->per + g].plan,
                                 .integ = &c->integ[idx[k]], .n_integ = 1};
            rc = vb_simulate_grid(&spec, &res[k], err, errlen);
        }
    for (size_t k = 0; rc != 0 && k < n; k++)
        vb_run_result_clear(&res[k]);
    free(grid);
    free(at);
    free(gres);
    return rc;
}

/* In a worker: the runs of jobs units[0..n) (one task's), each result
 * sent as it is. */
static int iso_runs(void *ctx, const size_t *units, size_t n, vb_isolate_out *out, char *err,
                    size_t errlen)
{
    const job_ctx *jc = ctx;
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    vb_run_result *res = malloc((n ? n : 1) * sizeof *res);
    char packed[VB_RUN_PACKED_MAX];
    int rc = idx && res ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "out of memory");
    for (size_t k = 0; rc == 0 && k < n; k++)
        idx[k] = units[k] / jc->per;
    if (rc == 0 && n && (rc = run_task(jc, units[0] % jc->per, idx, n, res, err, errlen)) == 0)
        for (size_t k = 0; k < n; k++) {
            size_t len = vb_run_result_pack(&res[k], packed, sizeof packed);
            if (rc == 0 && vb_isolate_put(out, units[k], packed, len) != 0) {
                snprintf(err, errlen, "cannot send a result to verletbench");
                rc = -1;
            }
            vb_run_result_clear(&res[k]);
        }
    free(idx);
    free(res);
    return rc;
}

/* In this process: job k's result, or why its worker failed it, or (both
 * NULL) handed back to be run here. */
static int iso_run_done(void *ctx, size_t k, const void *bytes, size_t len, const char *why)
{
    job_ctx *jc = ctx;
    vb_sweep_job *job = &jc->s->jobs[k];
    if (bytes)
        return vb_run_result_unpack(&job->res, bytes, len);
    if (why)
        return vb_run_plugin_failed(&jc->c->model, &job->plan, why, &job->res);
    jc->here[k] = 1;
    return 0;
}

static int iso_run_foreign(void *ctx, size_t k)
{
    const job_ctx *jc = ctx;
    return calls_plugin(jc->c, k / jc->per);
}

/* progress in runs, not tasks */
static void task_done(void *ctx, size_t done, size_t total);

static void iso_task_done(void *ctx, size_t g)
{
    job_ctx *jc = ctx;
    (void)g;
    atomic_fetch_add(&jc->jobs_done, jc->c->n_integ);
    if (jc->progress)
        task_done(jc, 0, 0);
}

/* Task g's runs here: every integrator's, or, in a case whose runs went
 * to workers, those they handed back and the engines' (an engine is a
 * process of its own already). */
static int job_task(void *ctx, size_t g)
{
    job_ctx *jc = ctx;
    const vb_case *c = jc->c;
    vb_sweep_job *jobs = jc->s->jobs;
    char err[sizeof jobs[0].err] = "out of memory";
    size_t *idx = malloc((c->n_integ ? c->n_integ : 1) * sizeof *idx), n = 0;
    vb_run_result *res = malloc((c->n_integ ? c->n_integ : 1) * sizeof *res);
    int failed = !idx || !res;
    for (size_t i = 0; !failed && i < c->n_integ; i++)
        if (!jc->iso || vb_engine_of(c->integ[i]) || jc->here[i * jc->per + g])
            idx[n++] = i;
    if (!failed && n)
        failed = run_task(jc, g, idx, n, res, err, sizeof err) != 0;
    for (size_t k = 0; !failed && k < n; k++)
        jobs[idx[k] * jc->per + g].res = res[k];
    for (size_t i = 0; failed && i < c->n_integ; i++) {
        vb_sweep_job *job = &jobs[i * jc->per + g];
        job->failed = 1;
        memcpy(job->err, err, sizeof err);
    }
    free(idx);
    free(res);
    if (!jc->iso)
        atomic_fetch_add(&jc->jobs_done, c->n_integ);
    return failed ? -1 : 0;
}

/* progress in runs, not tasks */
static void task_done(void *ctx, size_t done, size_t total)
{
    (void)done;
    (void)total;
    job_ctx *jc = ctx;
    jc->progress(jc->progress_ctx, atomic_load(&jc->jobs_done), jc->s->n_jobs);
}

/* Every job, on `threads` threads.  0, or -1 when a job failed (its slot
 * says why) or no thread could start. */
static int run_jobs(const vb_case *c, vb_sweep *s, unsigned threads, vb_progress_fn *progress,
                    void *ctx)
{
    size_t per = c->n_integ ? s->n_jobs / c->n_integ : 0;
    size_t *order = malloc((per ? per : 1) * sizeof *order);
    if (!order)
        return -1;
    /* the finest levels are the longest: start them first, so no thread is
     * left with a long task at the end (plan order within a level) */
    int top = 0;
    for (size_t g = 0; g < per; g++)
        if (s->jobs[g].level > top)
            top = s->jobs[g].level;
    size_t n = 0;
    for (int level = top; level >= 0; level--)
        for (size_t g = 0; g < per; g++)
            if (s->jobs[g].level == level && (!s->shard_n || s->task_shard[g] == s->shard_k))
                order[n++] = g;
    job_ctx jc = {.c = c, .s = s, .per = per, .progress = progress, .progress_ctx = ctx};
    int rc = 0;
    for (size_t i = 0; i < c->n_integ; i++)
        jc.iso |= calls_plugin(c, i);
    atomic_init(&jc.jobs_done, 0);
    if (jc.iso) {
        /* the tasks in the same order, each one worker's group: every run
         * but an engine's; then here what the workers handed back, and the
         * engines' (no thread runs while workers are forked) */
        size_t ni = 0;
        for (size_t i = 0; i < c->n_integ; i++)
            ni += !vb_engine_of(c->integ[i]);
        size_t *units = malloc((n * ni > 0 ? n * ni : 1) * sizeof *units);
        size_t *at = malloc((n + 1) * sizeof *at);
        jc.here = calloc(s->n_jobs ? s->n_jobs : 1, 1);
        rc = units && at && jc.here ? 0 : -1;
        for (size_t t = 0, u = 0; rc == 0 && t < n; t++) {
            at[t] = u;
            for (size_t i = 0; i < c->n_integ; i++)
                if (!vb_engine_of(c->integ[i]))
                    units[u++] = i * per + order[t];
            at[t + 1] = u;
        }
        char err[sizeof s->jobs[0].err] = "out of memory";
        if (rc == 0 && vb_isolate_groups(units, at, n, threads, vb_plugin_timeout(), iso_runs,
                                         iso_run_done, iso_run_foreign, iso_task_done, &jc, err,
                                         sizeof err) != 0) {
            /* a failure of the machine: said by the first task's jobs */
            for (size_t i = 0; i < c->n_integ; i++) {
                s->jobs[i * per + order[0]].failed = 1;
                memcpy(s->jobs[i * per + order[0]].err, err, sizeof err);
            }
            rc = -1;
        }
        free(units);
        free(at);
    }
    if (rc == 0)
        rc = vb_parallel_for(n, order, threads, job_task, &jc,
                             progress && !jc.iso ? task_done : NULL, &jc);
    free(jc.here);
    free(order);
    return rc;
}

/* ---- orders and bands ------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The jobs of one integrator, plan and level. */
static size_t select_jobs(const vb_sweep *s, size_t integ, vb_plan_kind kind, int level,
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

/* the longest rod of a model, 0 for none */
static double rod_max(const vb_model *m)
{
    double L = 0.0;
    for (size_t k = 0; k < m->cons.n; k++)
        L = fmax(L, m->cons.rod[k].length);
    return L;
}

static int analyse_orders(vb_sweep *s)
{
    const vb_case *c = s->c;
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
                if (!vb_norm_applies(c, (vb_norm)nm))
                    continue;
                vb_order_row row = {.integ = i, .kind = (vb_plan_kind)kind, .norm = (vb_norm)nm};
                double scale[VB_MAX_LEVELS], resolution[VB_MAX_LEVELS], evals[VB_MAX_LEVELS];
                /* a method that holds its rods to a tolerance (shake,
                 * rattle: tol) drifts by about that at every step size: a
                 * floor of its own, as a reference's resolution is, below
                 * which its drift is never fitted (docs/constraints.md) */
                double tol = vb_integrator_param(c->integ[i], "tol");
                double tol_floor = nm == VB_NORM_CONSTRAINT_MAX && tol > 0.0
                                       ? 2.0 * tol * rod_max(&c->model)
                                       : 0.0;
                int levels = 0;
                for (int level = 0; level < c->halvings; level++) {
                    size_t n = select_jobs(s, i, (vb_plan_kind)kind, level, sel);
                    if (n == 0)
                        break;
                    double sc = 0.0, rs = 0.0;
                    for (size_t k = 0; k < n; k++) {
                        vals[k] = vb_norm_value(&sel[k]->res, (vb_norm)nm);
                        sc = fmax(sc, vb_norm_scale(&sel[k]->res, (vb_norm)nm));
                        rs = fmax(rs, vb_norm_resolution(&sel[k]->res, (vb_norm)nm));
                    }
                    scale[level] = sc;
                    resolution[level] = fmax(rs, tol_floor);
                    evals[level] = 0.0;
                    for (size_t k = 0; k < n; k++)
                        evals[level] += (double)sel[k]->res.force_evals;
                    if (kind == VB_PLAN_RANDOM) {
                        /* inf (a diverged seed) sorts last, as it should */
                        qsort(vals, n, sizeof *vals, cmp_double);
                        vb_band_row *b = &s->bands[s->n_bands++];
                        b->integ = i;
                        b->level = level;
                        b->dt = vb_adaptive(c->integ[i]) ? sel[0]->plan.tol : sel[0]->plan.dt;
                        b->norm = (vb_norm)nm;
                        b->median = gsl_stats_median_from_sorted_data(vals, 1, n);
                        b->p10 = gsl_stats_quantile_from_sorted_data(vals, 1, n, 0.1);
                        b->p90 = gsl_stats_quantile_from_sorted_data(vals, 1, n, 0.9);
                        b->runs = 0;
                        for (size_t k = 0; k < n; k++)
                            b->runs += sel[k]->res.status == VB_STATUS_OK;
                        row.dt[level] = b->dt;
                        row.err[level] = b->median;
                    } else {
                        row.dt[level] = sel[0]->res.dt;
                        row.err[level] = vals[0];
                    }
                    if (vb_adaptive(c->integ[i]))
                        row.dt[level] = sel[0]->plan.tol;
                    levels++;
                }
                if (levels == 0)
                    continue;
                vb_fit_order(row.dt, row.err, scale, resolution, levels, &row.fit);
                row.verdict = vb_fit_verdict(&row.fit, c->integ[i]->order);
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
                if (vb_adaptive(c->integ[i]) && levels > 1 && (same_work || same_err) &&
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

/* ---- methods that give the same positions ----------------------------------- */

/* Do two runs of the same plan have the same position errors?  The largest
 * and the RMS error, the norms the tables and charts show; not the error
 * at t_end, one sample that may fall near a zero of the error (the spring
 * after one period: 2e-13 where the largest is 5e-7), where round-off is a
 * large share of it and two runs of the same positions differ by 3 %. */
static int same_run(const vb_sweep_job *a, const vb_sweep_job *b)
{
    const vb_run_result *x = &a->res, *y = &b->res;
    /* an adaptive method's runs are on frames and a tolerance of their own */
    if (x->status != VB_STATUS_OK || y->status != VB_STATUS_OK || x->steps != y->steps ||
        a->plan.tol != b->plan.tol)
        return 0;
    double n = (double)x->steps, sc = fmax(x->pos_scale, y->pos_scale);
    return vb_same_to_roundoff(x->err_pos_max, y->err_pos_max, n, sc) &&
           vb_same_to_roundoff(x->err_pos_rms, y->err_pos_rms, n, sc);
}

/* same_as: the jobs of one integrator and plan are consecutive and in the
 * same order (level, seed) for every integrator, so run k of one matches
 * run k of another. */
static int analyse_same(vb_sweep *s)
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
                for (size_t r = 0; same && r < count[kind]; r++)
                    same = same_run(&s->jobs[fi + r], &s->jobs[fo + r]);
                s->same_pair[(i * n + o) * VB_N_PLANS + kind] = (unsigned char)same;
                if (same && s->same_as[i * VB_N_PLANS + kind] == VB_SAME_NONE)
                    s->same_as[i * VB_N_PLANS + kind] = o;
            }
        }
    free(first);
    return 0;
}

/* ---- one step from exact data ---------------------------------------------- */

/* One-step errors are taken at h = T/16, T/32, ... with T the model's
 * natural time (a period, the time of flight), whatever the case's dt: far
 * enough from round-off that even p = 5 shows over several halvings.  At one
 * moment the leading error term can happen to be small (an acceleration
 * passing through zero), so each error is the largest over moments spread
 * across T: still c h^p, with the largest c. */
#define ONESTEP_FIRST 16.0
#define ONESTEP_MOMENTS 5

static double onestep_moment(double T, int j) { return T * (0.11 + 0.19 * j); }

/* The truth at every time the one-step test needs, once for all the
 * integrators: for moment j, level k and ratio r, x(t - h') (which = 0),
 * (x, v)(t) (1) and (x, v)(t + h) (2).  Evaluated in increasing t, so a
 * reference solution integrates once. */
#define ONESTEP_POINTS (ONESTEP_MOMENTS * VB_ONESTEP_LEVELS * VB_ONESTEP_RATIOS * 3)

static size_t point_index(int j, int k, int r, int which)
{
    return (((size_t)j * VB_ONESTEP_LEVELS + (size_t)k) * VB_ONESTEP_RATIOS + (size_t)r) * 3 +
           (size_t)which;
}

typedef struct {
    double t;
    size_t i;
} timed;

static int by_time(const void *a, const void *b)
{
    double x = ((const timed *)a)->t, y = ((const timed *)b)->t;
    return (x > y) - (x < y);
}

/* xv[i * 2N ..]: (x, v) at point i; 0, or -1 when the truth failed */
static int onestep_truth(const vb_model *m, double T, double *xv)
{
    timed pts[ONESTEP_POINTS];
    for (int j = 0; j < ONESTEP_MOMENTS; j++)
        for (int k = 0; k < VB_ONESTEP_LEVELS; k++)
            for (int r = 0; r < VB_ONESTEP_RATIOS; r++) {
                double t = onestep_moment(T, j), h = ldexp(T / ONESTEP_FIRST, -k);
                size_t i = point_index(j, k, r, 0);
                pts[i] = (timed){t - vb_onestep_ratio[r] * h, i};
                pts[i + 1] = (timed){t, i + 1};
                pts[i + 2] = (timed){t + h, i + 2};
            }
    qsort(pts, ONESTEP_POINTS, sizeof pts[0], by_time);
    vb_truth *tr = vb_truth_alloc(m);
    if (!tr)
        return -1;
    int rc = 0;
    size_t n = m->n;
    for (size_t p = 0; p < ONESTEP_POINTS && rc == 0; p++) {
        double *x = xv + pts[p].i * 2 * n;
        rc = vb_truth_at(tr, pts[p].t, x, x + n) == 0 && vb_all_finite(x, x + n, n) ? 0 : -1;
    }
    vb_truth_free(tr);
    return rc;
}

/* one step of h from the truth at point (j, k, r); its errors */
static int onestep_error(const vb_integrator *g, const vb_model *m, const double *xv, int j,
                         int k, int r, double t, double h, double *err_pos, double *err_vel)
{
    size_t n = m->n;
    const double *xp = xv + point_index(j, k, r, 0) * 2 * n;
    const double *x = xv + point_index(j, k, r, 1) * 2 * n, *v = x + n;
    const double *x1 = xv + point_index(j, k, r, 2) * 2 * n, *v1 = x1 + n;
    void *state = calloc(1, g->state_size(n));
    double *xn = malloc(2 * n * sizeof *xn);
    if (!state || !xn) {
        free(state);
        free(xn);
        return -1;
    }
    vb_force f = vb_model_force(m);
    vb_integrator_set_params(g, state);
    if (g->start_history)
        g->start_history(state, &f, t, x, v, xp, vb_onestep_ratio[r] * h, h);
    else
        g->start(state, &f, t, x, v, h);
    g->step(state, &f, t, h);
    g->observe(state, xn, xn + n);
    *err_pos = vb_distance(xn, x1, n);
    *err_vel = vb_distance(xn + n, v1, n);
    free(state);
    free(xn);
    return 0;
}

/* What the one-step rows of a case share: T, the truth at every point
 * (xv) and the sizes the errors are measured against. */
typedef struct {
    vb_sweep *s;
    double T;
    double *xv;
    int have, truth_ok;
    double xs, vs;
    size_t *slot; /* integrator i's first row */
} onestep_ctx;

static int onestep_prepare(onestep_ctx *o)
{
    const vb_model *m = &o->s->c->model;
    size_t n = m->n;
    if (o->have)
        return 0;
    o->xv = malloc(ONESTEP_POINTS * 2 * n * sizeof *o->xv);
    if (!o->xv)
        return -1;
    o->truth_ok = onestep_truth(m, o->T, o->xv) == 0;
    /* the sizes the errors are measured against: the largest |x|, |v| at
     * the moments */
    o->xs = o->vs = 0.0;
    for (int j = 0; o->truth_ok && j < ONESTEP_MOMENTS; j++) {
        const double *x = o->xv + point_index(j, 0, 0, 1) * 2 * n;
        o->xs = fmax(o->xs, vb_magnitude(x, n));
        o->vs = fmax(o->vs, vb_magnitude(x + n, n));
    }
    o->have = 1;
    return 0;
}

/* integrator i's rows, one a ratio */
static int onestep_rows(onestep_ctx *o, size_t i, vb_onestep_row *rows)
{
    const vb_case *c = o->s->c;
    const vb_model *m = &c->model;
    double T = o->T;
    if (onestep_prepare(o) != 0)
        return -1;
    for (int r = 0; r < VB_ONESTEP_RATIOS; r++) {
        vb_onestep_row *row = &rows[r];
        double sc_pos[VB_ONESTEP_LEVELS], sc_vel[VB_ONESTEP_LEVELS];
        row->integ = i;
        row->ratio = r;
        for (int k = 0; k < VB_ONESTEP_LEVELS; k++) {
            double h = ldexp(T / ONESTEP_FIRST, -k);
            row->h[k] = h;
            row->err_pos[k] = row->err_vel[k] = 0.0;
            for (int j = 0; j < ONESTEP_MOMENTS; j++) {
                double ep = NAN, ev = NAN;
                if (o->truth_ok && onestep_error(c->integ[i], m, o->xv, j, k, r,
                                                 onestep_moment(T, j), h, &ep, &ev) != 0)
                    return -1;
                if (!(ep <= row->err_pos[k]))
                    row->err_pos[k] = ep;
                if (!(ev <= row->err_vel[k]))
                    row->err_vel[k] = ev;
            }
            sc_pos[k] = o->xs;
            sc_vel[k] = o->vs;
        }
        vb_fit_order(row->h, row->err_pos, sc_pos, NULL, VB_ONESTEP_LEVELS, &row->fit_pos);
        vb_fit_order(row->h, row->err_vel, sc_vel, NULL, VB_ONESTEP_LEVELS, &row->fit_vel);
    }
    return 0;
}

/* in a worker: the rows of integrators whose steps call a plugin's code */
static int iso_onestep(void *ctx, const size_t *units, size_t n, vb_isolate_out *out, char *err,
                       size_t errlen)
{
    onestep_ctx *o = ctx;
    vb_onestep_row rows[VB_ONESTEP_RATIOS];
    for (size_t k = 0; k < n; k++) {
        memset(rows, 0, sizeof rows);
        if (onestep_rows(o, units[k], rows) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (vb_isolate_put(out, units[k], rows, sizeof rows) != 0) {
            snprintf(err, errlen, "cannot send a result to verletbench");
            return -1;
        }
    }
    return 0;
}

static int iso_onestep_done(void *ctx, size_t i, const void *bytes, size_t len, const char *why)
{
    onestep_ctx *o = ctx;
    vb_onestep_row *rows = &o->s->onestep[o->slot[i]];
    if (bytes && len == VB_ONESTEP_RATIOS * sizeof *rows) {
        memcpy(rows, bytes, len);
        return 0;
    }
    rows[0].integ = VB_SAME_NONE; /* no rows: said, then left out */
    return vb_sweep_plugin_failed(o->s, i, "its one-step errors", bytes ? "a worker's result "
                                  "of the wrong size" : why);
}

static int analyse_onestep(vb_sweep *s)
{
    const vb_case *c = s->c;
    const vb_model *m = &c->model;
    onestep_ctx o = {.s = s, .T = m->type->natural_time(m->self)};
    s->onestep_T = o.T;
    s->onestep = calloc(c->n_integ * VB_ONESTEP_RATIOS, sizeof *s->onestep);
    o.slot = calloc(c->n_integ ? c->n_integ : 1, sizeof *o.slot);
    size_t *iso = calloc(c->n_integ ? c->n_integ : 1, sizeof *iso), n_iso = 0;
    int rc = s->onestep && o.slot && iso ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < c->n_integ; i++) {
        /* one step from an exact state is a call an external engine
         * has no protocol for: it has no row; nor has an adaptive
         * method, whose one step of h is as many as its control wants */
        if (vb_engine_of(c->integ[i]) || vb_adaptive(c->integ[i]))
            continue;
        o.slot[i] = s->n_onestep;
        s->n_onestep += VB_ONESTEP_RATIOS;
        if (calls_plugin(c, i))
            iso[n_iso++] = i; /* in a worker, below */
        else
            rc = onestep_rows(&o, i, &s->onestep[o.slot[i]]);
    }
    char err[256];
    if (rc == 0 && n_iso)
        rc = vb_isolate_units(iso, n_iso, vb_plugin_timeout(), iso_onestep, iso_onestep_done,
                              NULL, &o, err, sizeof err);
    /* the rows of a plugin that failed, left out */
    size_t kept = 0;
    for (size_t r = 0; rc == 0 && r < s->n_onestep; r += VB_ONESTEP_RATIOS)
        if (s->onestep[r].integ != VB_SAME_NONE) {
            memmove(&s->onestep[kept], &s->onestep[r], VB_ONESTEP_RATIOS * sizeof *s->onestep);
            kept += VB_ONESTEP_RATIOS;
        }
    if (rc == 0)
        s->n_onestep = kept;
    free(o.xv);
    free(o.slot);
    free(iso);
    return rc;
}

/* ---- there and back again ---------------------------------------------------- */

/* The steps of a plan, forwards and then backwards, in memory that grows
 * like sqrt(N) rather than N: a checkpoint of the plan every `chunk` steps
 * (a plan and its generator's 5 kB), and one chunk of steps regenerated at
 * a time on the way back.  A 1e9-step run needs ~10 MB, not 8 GB. */
typedef struct {
    vb_plan plan;
    vb_plan_checkpoint *cp;
    size_t n_cp, chunk, n;
    double *h; /* one chunk */
} step_replay;

static void replay_free(step_replay *r)
{
    for (size_t i = 0; i < r->n_cp; i++)
        vb_plan_checkpoint_free(&r->cp[i]);
    free(r->cp);
    free(r->h);
    vb_plan_end(&r->plan);
}

static int replay_begin(step_replay *r, const vb_plan_spec *spec)
{
    memset(r, 0, sizeof *r);
    double n = vb_plan_max_steps(spec);
    /* the chunk that balances checkpoints (~5 kB each) against the buffer
     * (8 bytes a step): sqrt(5000/8 N) */
    double chunk = ceil(sqrt(625.0 * n));
    r->chunk = chunk < 1024.0 ? 1024 : (size_t)chunk;
    r->h = malloc(r->chunk * sizeof *r->h);
    if (!r->h || vb_plan_begin(&r->plan, spec) != 0) {
        free(r->h);
        memset(r, 0, sizeof *r);
        return -1;
    }
    return 0;
}

/* The next step forwards, keeping a checkpoint at the start of each chunk.
 * 1, 0 at the end, -1 if out of memory. */
static int replay_next(step_replay *r, double *h)
{
    if (r->n % r->chunk == 0) {
        vb_plan_checkpoint cp;
        if (vb_plan_save(&r->plan, &cp) != 0)
            return -1;
        vb_plan_checkpoint *more = realloc(r->cp, (r->n_cp + 1) * sizeof *more);
        if (!more) {
            vb_plan_checkpoint_free(&cp);
            return -1;
        }
        r->cp = more;
        r->cp[r->n_cp++] = cp;
    }
    double t;
    if (!vb_plan_next(&r->plan, h, &t))
        return 0;
    r->n++;
    return 1;
}

/* Chunk c's steps regenerated into r->h; returns how many. */
static size_t replay_chunk(step_replay *r, size_t c)
{
    vb_plan_restore(&r->plan, &r->cp[c]);
    size_t k = 0;
    double t;
    while (k < r->chunk && c * r->chunk + k < r->n && vb_plan_next(&r->plan, &r->h[k], &t))
        k++;
    return k;
}

static int reversal(const vb_integrator *g, const vb_model *m, const vb_plan_spec *plan,
                    vb_reverse_row *row)
{
    step_replay r;
    size_t n = m->n;
    void *state = calloc(1, g->state_size(n));
    double *buf = malloc(4 * n * sizeof *buf);
    if (!state || !buf || replay_begin(&r, plan) != 0) {
        free(state);
        free(buf);
        return -1;
    }
    vb_force f = vb_model_force(m);
    double *x0 = buf, *v0 = buf + n, *x = buf + 2 * n, *v = buf + 3 * n, t = 0.0, h;
    m->type->initial(m->self, x0, v0);
    row->scale = vb_magnitude(x0, n);
    int got, rc = 0;
    for (int first = 1; (got = replay_next(&r, &h)) == 1; first = 0) {
        if (first) {
            vb_integrator_set_params(g, state);
            g->start(state, &f, t, x0, v0, h);
        }
        g->step(state, &f, t, h);
        t += h;
        g->observe(state, x, v);
        row->scale = fmax(row->scale, vb_magnitude(x, n));
    }
    if (got < 0) {
        rc = -1;
        goto done;
    }
    g->reverse(state);
    /* the system is autonomous: the clock of the way back only counts up */
    for (size_t c = r.n_cp; c-- > 0;) {
        size_t k = replay_chunk(&r, c);
        while (k-- > 0) {
            g->step(state, &f, t, r.h[k]);
            t += r.h[k];
        }
    }
    g->observe(state, x, v);
    for (size_t i = 0; i < n; i++)
        v0[i] = -v0[i];
    row->steps = r.n;
    row->err_pos = vb_distance(x, x0, n);
    row->err_vel = vb_distance(v, v0, n);
    /* diverged there or back: a run that did not finish has infinite
     * errors (docs/method.md §4), never NaN */
    if (!vb_all_finite(x, v, n) || !isfinite(row->err_pos) || !isfinite(row->err_vel))
        row->err_pos = row->err_vel = INFINITY;
done:
    replay_free(&r);
    free(state);
    free(buf);
    return rc;
}

/* the plans integrator i is run there and back under: every kind the
 * case has, none for an engine (it cannot be turned round mid-run) or an
 * adaptive method (its steps back are not its steps out) */
static int reversal_kinds(const vb_case *c, size_t i, vb_plan_kind *kinds)
{
    int n = 0;
    for (int kind = 0; kind < VB_N_PLANS; kind++)
        if (!((kind == VB_PLAN_RANDOM && !(c->jitter > 0.0)) ||
              (kind == VB_PLAN_TRACE && !c->trace_path) || vb_engine_of(c->integ[i]) ||
              vb_adaptive(c->integ[i])))
            kinds[n++] = (vb_plan_kind)kind;
    return n;
}

/* integrator i's rows, one a kind of plan; 0, or -1 out of memory */
static int reversal_rows(const vb_case *c, size_t i, vb_reverse_row *rows)
{
    vb_plan_kind kinds[VB_N_PLANS];
    int nk = reversal_kinds(c, i, kinds);
    for (int k = 0; k < nk; k++) {
        vb_reverse_row *row = &rows[k];
        vb_plan_spec plan = plan_for(c, kinds[k], 0, 1);
        row->integ = i;
        row->kind = kinds[k];
        row->dt = plan.dt;
        if (reversal(c->integ[i], &c->model, &plan, row) != 0)
            return -1;
        /* Round-off: docs/method.md §5's floor of 1e3 eps scale, grown as a random
         * walk over the 2N steps there and back (measured: velocity
         * Verlet misses by ~0.5 sqrt(2N) eps scale).  Anything a method
         * does wrong shows at its truncation error, orders above. */
        row->floor = VB_FLOOR_ULPS * DBL_EPSILON * row->scale * sqrt(2.0 * (double)row->steps);
        if (kinds[k] == VB_PLAN_TRACE)
            row->dt = c->t_end / (double)row->steps;
        row->reversible = row->err_pos <= row->floor;
    }
    return 0;
}

typedef struct {
    vb_sweep *s;
    size_t *slot; /* integrator i's first row */
} reversal_ctx;

/* in a worker: the rows of integrators whose steps call a plugin's code */
static int iso_reversal(void *ctx, const size_t *units, size_t n, vb_isolate_out *out, char *err,
                        size_t errlen)
{
    const reversal_ctx *o = ctx;
    vb_plan_kind kinds[VB_N_PLANS];
    for (size_t k = 0; k < n; k++) {
        vb_reverse_row rows[VB_N_PLANS];
        memset(rows, 0, sizeof rows);
        int nk = reversal_kinds(o->s->c, units[k], kinds);
        if (reversal_rows(o->s->c, units[k], rows) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (vb_isolate_put(out, units[k], rows, (size_t)nk * sizeof *rows) != 0) {
            snprintf(err, errlen, "cannot send a result to verletbench");
            return -1;
        }
    }
    return 0;
}

static int iso_reversal_done(void *ctx, size_t i, const void *bytes, size_t len, const char *why)
{
    const reversal_ctx *o = ctx;
    vb_plan_kind kinds[VB_N_PLANS];
    size_t nk = (size_t)reversal_kinds(o->s->c, i, kinds);
    vb_reverse_row *rows = &o->s->reverse[o->slot[i]];
    if (bytes && len == nk * sizeof *rows) {
        memcpy(rows, bytes, len);
        return 0;
    }
    for (size_t k = 0; k < nk; k++)
        rows[k].integ = VB_SAME_NONE; /* no rows: said, then left out */
    return vb_sweep_plugin_failed(o->s, i, "its reversal test", bytes ? "a worker's result of "
                                  "the wrong size" : why);
}

static int analyse_reversal(vb_sweep *s)
{
    const vb_case *c = s->c;
    const vb_model_type *type = c->model.type;
    /* only a conservative force that ignores v is the same backwards in time */
    if (!type->energy || (type->flags & VB_VELOCITY_DEPENDENT))
        return 0;
    s->reverse = calloc(c->n_integ * VB_N_PLANS, sizeof *s->reverse);
    reversal_ctx o = {s, calloc(c->n_integ ? c->n_integ : 1, sizeof *o.slot)};
    size_t *iso = calloc(c->n_integ ? c->n_integ : 1, sizeof *iso), n_iso = 0;
    int rc = s->reverse && o.slot && iso ? 0 : -1;
    vb_plan_kind kinds[VB_N_PLANS];
    for (size_t i = 0; rc == 0 && i < c->n_integ; i++) {
        int nk = reversal_kinds(c, i, kinds);
        if (!nk)
            continue;
        o.slot[i] = s->n_reverse;
        s->n_reverse += (size_t)nk;
        if (calls_plugin(c, i))
            iso[n_iso++] = i; /* in a worker, below */
        else
            rc = reversal_rows(c, i, &s->reverse[o.slot[i]]);
    }
    char err[256];
    if (rc == 0 && n_iso)
        rc = vb_isolate_units(iso, n_iso, vb_plugin_timeout(), iso_reversal, iso_reversal_done,
                              NULL, &o, err, sizeof err);
    /* the rows of a plugin that failed, left out */
    size_t kept = 0;
    for (size_t r = 0; rc == 0 && r < s->n_reverse; r++)
        if (s->reverse[r].integ != VB_SAME_NONE)
            s->reverse[kept++] = s->reverse[r];
    if (rc == 0)
        s->n_reverse = kept;
    free(o.slot);
    free(iso);
    return rc;
}

/* ---- the whole sweep ---------------------------------------------------------- */

/* ---- shards ----------------------------------------------------------------- */

/* Which shard (1..n) computes each task of a group of sweeps (the points
 * of one case file's grid, or its one case): the tasks by cost, largest
 * first, each to the shard with the least so far (the lowest-numbered of
 * equals; ties in cost in the order point, task).  A task's cost is the
 * steps its runs take (every integrator on one plan, an adaptive one's
 * frames counted as steps): the truth, computed once a step for all of
 * them, is most of what a step costs.  Every shard computes the same
 * assignment from the case file alone.  Taken over the whole grid rather
 * than point by point, so that the largest task of every point does not
 * go to shard 1. */
typedef struct {
    double cost;
    size_t sweep, task;
} shard_task;

static int by_cost(const void *a, const void *b)
{
    const shard_task *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    if (x->sweep != y->sweep)
        return x->sweep < y->sweep ? -1 : 1;
    return (x->task > y->task) - (x->task < y->task);
}

int vb_sweep_shard(vb_sweep *sweeps, size_t n_sweeps, int shard_k, int shard_n)
{
    size_t total = 0;
    for (size_t i = 0; i < n_sweeps; i++) {
        vb_sweep *s = &sweeps[i];
        size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 0;
        free(s->task_shard);
        s->task_shard = calloc(per ? per : 1, sizeof *s->task_shard);
        if (!s->task_shard)
            return -1;
        s->shard_k = shard_k;
        s->shard_n = shard_n;
        total += per;
    }
    shard_task *t = malloc((total ? total : 1) * sizeof *t);
    double *load = calloc((size_t)shard_n, sizeof *load);
    if (!t || !load) {
        free(t), free(load);
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < n_sweeps; i++) {
        const vb_sweep *s = &sweeps[i];
        size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 0;
        for (size_t g = 0; g < per; g++, m++) {
            t[m] = (shard_task){0.0, i, g};
            for (size_t j = 0; j < s->c->n_integ; j++)
                t[m].cost += vb_plan_max_steps(&s->jobs[j * per + g].plan);
        }
    }
    /* the order is total (cost, then place), so qsort's instability
     * cannot make two shards disagree */
    qsort(t, total, sizeof *t, by_cost);
    for (size_t a = 0; a < total; a++) {
        int best = 0;
        for (int k = 1; k < shard_n; k++)
            if (load[k] < load[best])
                best = k;
        load[best] += t[a].cost;
        sweeps[t[a].sweep].task_shard[t[a].task] = best + 1;
    }
    free(t), free(load);
    return 0;
}

int vb_sweep_job_shard(const vb_sweep *s, size_t job)
{
    size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 1;
    return s->task_shard ? s->task_shard[job % per] : 0;
}

int vb_sweep_begin(const vb_case *c, vb_sweep *s, double max_steps, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    int rc = vb_sweep_check(c, max_steps, err, errlen);
    if (rc != 0 || (rc = plan_jobs(c, s, err, errlen)) != 0)
        return rc;
    return 0;
}

int vb_sweep_compute(const vb_case *c, vb_sweep *s, unsigned threads, vb_progress_fn *progress,
                     void *ctx, char *err, size_t errlen)
{
    if (run_jobs(c, s, threads, progress, ctx) == 0)
        return 0;
    /* why: the first failed job in plan order, whichever thread saw it first */
    char label[4096];
    const char *name = vb_case_label(c, label, sizeof label);
    for (size_t k = 0; k < s->n_jobs; k++)
        if (s->jobs[k].failed) {
            snprintf(err, errlen, "%s: %s", name, s->jobs[k].err);
            return -1;
        }
    snprintf(err, errlen, "%s: out of memory", name);
    return -1;
}

int vb_sweep_run(const vb_case *c, vb_sweep *s, double max_steps, unsigned flags,
                 unsigned threads, vb_progress_fn *progress, void *ctx, char *err,
                 size_t errlen)
{
    int rc = vb_sweep_begin(c, s, max_steps, err, errlen);
    if (rc != 0 || (rc = vb_sweep_compute(c, s, threads, progress, ctx, err, errlen)) != 0)
        return rc;
    return vb_sweep_finish(c, s, max_steps, flags, threads, err, errlen);
}

int vb_sweep_finish(const vb_case *c, vb_sweep *s, double max_steps, unsigned flags,
                    unsigned threads, char *err, size_t errlen)
{
    char label[4096];
    const char *name = vb_case_label(c, label, sizeof label);
    s->tables_only = (flags & VB_SWEEP_TABLES_ONLY) != 0;
    s->shard_n = s->shard_k = 0; /* a merged sweep is whole */
    if (analyse_orders(s) != 0 || analyse_same(s) != 0 || analyse_onestep(s) != 0 ||
        analyse_reversal(s) != 0) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    if ((flags & VB_SWEEP_TIMING) &&
        vb_timing_run(s, &s->timing, &s->n_timing) != 0) {
        snprintf(err, errlen, "%s: out of memory for the timing", name);
        return -1;
    }
    s->timed = (flags & VB_SWEEP_TIMING) != 0;
    char why[256];
    if (!s->tables_only && vb_series_run(c, max_steps, threads, &s->series, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: recording the charts' runs: %s", name, why);
        return -1;
    }
    return 0;
}

int vb_sweep_plugin_failed(vb_sweep *s, size_t integ, const char *what, const char *why)
{
    vb_plugin_failure *more =
        realloc(s->plugin_failed, (s->n_plugin_failed + 1) * sizeof *s->plugin_failed);
    if (!more)
        return -1;
    s->plugin_failed = more;
    vb_plugin_failure *f = &more[s->n_plugin_failed++];
    f->integ = integ;
    snprintf(f->what, sizeof f->what, "%s", what);
    snprintf(f->why, sizeof f->why, "%s", why);
    return 0;
}

void vb_sweep_free(vb_sweep *s)
{
    for (size_t k = 0; s->jobs && k < s->n_jobs; k++)
        vb_run_result_clear(&s->jobs[k].res);
    free(s->jobs);
    free(s->orders);
    free(s->bands);
    free(s->onestep);
    free(s->reverse);
    free(s->same_as);
    free(s->same_pair);
    free(s->timing);
    free(s->task_shard);
    free(s->plugin_failed);
    vb_series_free(&s->series);
    memset(s, 0, sizeof *s);
}
