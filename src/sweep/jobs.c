/* jobs.c — a sweep's jobs: planned (every integrator at every kind of
 * plan, level and seed), then run a plan at a time, every integrator on
 * it, on threads, or in worker processes when a plugin's code runs. */
#include "jobs.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate.h"
#include "parallel.h"
#include "plugin.h"
#include "truth.h"

/* ---- planning ---- */

int vb_sweep_rate_kinds(const vb_case *c, vb_plan_kind kinds[3])
{
    int n = 0;
    kinds[n++] = VB_PLAN_FIXED;
    if (c->jitter > 0.0)
        kinds[n++] = VB_PLAN_RANDOM;
    if (c->trace_path)
        kinds[n++] = VB_PLAN_TRACE;
    return n;
}

vb_plan_spec vb_sweep_rate_plan(const vb_case *c, double rate, vb_plan_kind kind)
{
    vb_plan_spec p = {.kind = kind, .t_end = c->t_end, .dt = 1.0 / rate};
    if (kind == VB_PLAN_RANDOM) {
        p.jitter = c->jitter;
        p.seed = 1;
    } else if (kind == VB_PLAN_TRACE) {
        /* the recorded pattern (each frame against the mean, a spike's
         * share of it) at this rate: its mean frame sum/n becomes 1/rate */
        p.trace = &c->trace;
        p.trace_scale = (double)c->trace.n / (c->trace.sum * rate);
    }
    snprintf(p.id, sizeof p.id, "rates-%g-%s", rate, vb_plan_name(kind));
    return p;
}

/* The most physics steps a run of the frames p takes in any loop of the
 * case (loop.h): as many as its frames at the most (variable), many more
 * (substeps, a fine accumulator); *most the entry that takes them, and
 * *why what sets its count (runner.h), or NULL when none takes more than a
 * step a frame. */
static double loop_steps(const vb_case *c, const vb_plan_spec *p, int level,
                         const vb_integrator **most, vb_step_bound *why)
{
    double frames = vb_plan_max_steps(p), n = frames;
    /* fixed frames are all t_end/N: a semi-fixed loop's count is exact */
    double h_equal = p->kind == VB_PLAN_FIXED ? p->t_end / frames : 0.0;
    *most = NULL;
    for (size_t i = 0; i < c->n_integ; i++) {
        vb_step_bound b = vb_runner_bound(c->integ[i], frames, h_equal, vb_plan_t_end(p), level);
        if (b.steps > n)
            n = b.steps, *most = c->integ[i], *why = b;
    }
    return n;
}

/* The frame-rate table's runs ([loop] rates) against the step limit, as a
 * level of the sweep is: 0, or VB_SWEEP_USAGE naming the rates line */
static int check_rates(const vb_case *c, double max_steps, char *err, size_t errlen)
{
    vb_plan_kind kinds[3];
    int n_kinds = vb_sweep_rate_kinds(c, kinds);
    for (int ri = 0; ri < c->n_rates; ri++)
        for (int kd = 0; kd < n_kinds; kd++) {
            vb_plan_spec p = vb_sweep_rate_plan(c, c->rates[ri], kinds[kd]);
            const vb_integrator *most;
            vb_step_bound why;
            double n = loop_steps(c, &p, 0, &most, &why);
            if (n > max_steps) {
                char label[4096];
                snprintf(err, errlen,
                         "%s:%lu: rates: %s at %g Hz, %s frames, needs up to %.3g steps a run, "
                         "over the limit of %.3g (raise it with --max-steps or "
                         "VERLETBENCH_MAX_STEPS)",
                         c->path, c->rates_line,
                         most ? most->name : vb_case_label(c, label, sizeof label),
                         c->rates[ri], vb_plan_name(kinds[kd]), n, max_steps);
                return VB_SWEEP_USAGE;
            }
        }
    return 0;
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
                plans[j] = vb_sweep_plan_for(c, (vb_plan_kind)kind, level, seed);
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
            /* the level's plan, or, for a runner that holds the frames of
             * level 0, those frames and its tolerance or physics step of
             * this level (docs/method.md §5, §9) */
            vb_plan_spec frames0 = vb_sweep_plan_for(c, kinds[k], 0, seeds[k]);
            job->plan = vb_runner_level_plan(&c->profile.caps[i], &plans[k], &frames0,
                                             vb_sweep_tolerance(c, levels[k]));
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
            vb_plan_spec p = vb_sweep_plan_for(c, (vb_plan_kind)kind, level, 1);
            /* a frame loop's physics steps; the loop that needs the most, to be named */
            const vb_integrator *most;
            vb_step_bound why;
            double n = loop_steps(c, &p, level, &most, &why);
            if (n > max_steps && most && why.key) {
                /* physics_dt sets the count (an accumulator's, a
                 * semi-fixed loop's), not the frames' dt: name its line */
                char label[4096];
                snprintf(err, errlen,
                         "%s:%lu: %s = %s: %s at %s/2^%d = %g needs up to %.3g "
                         "steps a run, over the limit of %.3g (raise it with --max-steps or "
                         "VERLETBENCH_MAX_STEPS)",
                         c->path, why.line, why.key, why.value,
                         vb_case_label(c, label, sizeof label), why.key, level, why.step, n,
                         max_steps);
                return VB_SWEEP_USAGE;
            }
            if (n > max_steps) {
                char label[4096];
                snprintf(err, errlen,
                         "%s: dt/2^%d = %g needs up to %.3g steps a run, over the limit of %.3g "
                         "(raise it with --max-steps or VERLETBENCH_MAX_STEPS)",
                         vb_case_label(c, label, sizeof label), level, vb_sweep_level_dt(c, level), n,
                         max_steps);
                return VB_SWEEP_USAGE;
            }
        }
    }
    return check_rates(c, max_steps, err, errlen);
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
    /* a case whose runs call a plugin's code: the runs of its entries
     * profile.in_workers go to worker processes first (isolate.h), the
     * runs of a plan together, as they go here; here[k]: job k is run
     * here, the job of an entry never sent, or handed back */
    int iso;
    unsigned char *here;
    /* the model's reference, its natural steps computed once for every
     * plan (truth.h); NULL: an exact solution, or each grid its own */
    vb_reference *reference;
} job_ctx;

/* The runs of task g of the integrators idx[0..n) into res (integrator
 * idx[k]'s into res[k]): those of one plan together, one grid, the truth
 * computed once a step; the task's plan is most runners', and a runner
 * that holds the frames of level 0 (an adaptive method, an accumulator:
 * vb_runner_level_plan) has a plan of its own, named apart.  Each result
 * is what it would be alone, bit for bit (simulate.h).  0, or -1 with a
 * message. */
static int run_task(const job_ctx *jc, size_t g, const size_t *idx, size_t n,
                    vb_run_result *res, char *err, size_t errlen)
{
    const vb_case *c = jc->c;
    const vb_sweep_job *jobs = jc->s->jobs;
    const vb_integrator **grid = malloc((n ? n : 1) * sizeof *grid);
    size_t *at = malloc((n ? n : 1) * sizeof *at);
    vb_run_result *gres = malloc((n ? n : 1) * sizeof *gres);
    unsigned char *done = calloc(n ? n : 1, 1);
    int rc = grid && at && gres && done ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "out of memory");
    for (size_t k = 0; k < n; k++)
        memset(&res[k], 0, sizeof res[k]);
    for (size_t k = 0; rc == 0 && k < n; k++) {
        if (done[k])
            continue;
        const vb_plan_spec *plan = &jobs[idx[k] * jc->per + g].plan;
        size_t m = 0;
        for (size_t q = k; q < n; q++)
            if (!done[q] && !strcmp(jobs[idx[q] * jc->per + g].plan.id, plan->id)) {
                grid[m] = c->integ[idx[q]];
                at[m++] = q;
                done[q] = 1;
            }
        vb_grid_spec spec = {.model = &c->model, .plan = *plan, .integ = grid, .n_integ = m,
                             .reference = jc->reference};
        rc = vb_simulate_grid(&spec, gres, err, errlen);
        for (size_t q = 0; rc == 0 && q < m; q++)
            res[at[q]] = gres[q];
    }
    for (size_t k = 0; rc != 0 && k < n; k++)
        vb_run_result_clear(&res[k]);
    free(grid);
    free(at);
    free(gres);
    free(done);
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
    return jc->c->profile.plugin[k / jc->per];
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
 * to workers, those they handed back and those never sent (an engine's:
 * a process of its own already). */
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
        if (jc->here[i * jc->per + g])
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
    job_ctx jc = {.c = c, .s = s, .per = per, .progress = progress, .progress_ctx = ctx,
                  .reference = vb_reference_alloc(&c->model)};
    const vb_profile *p = &c->profile;
    jc.iso = p->n_in_workers > 0;
    atomic_init(&jc.jobs_done, 0);
    /* every job is run here but those sent to workers (set again when a
     * worker hands one back) */
    jc.here = malloc(s->n_jobs ? s->n_jobs : 1);
    int rc = jc.here ? 0 : -1;
    if (rc == 0)
        memset(jc.here, 1, s->n_jobs);
    for (size_t k = 0; rc == 0 && k < p->n_in_workers; k++)
        memset(jc.here + p->in_workers[k] * per, 0, per);
    if (rc == 0 && jc.iso) {
        /* the tasks in the same order, each one worker's group: the runs
         * of the entries sent; then here what the workers handed back, and
         * the runs of the others (no thread runs while workers are
         * forked) */
        size_t ni = p->n_in_workers;
        size_t *units = malloc((n * ni > 0 ? n * ni : 1) * sizeof *units);
        size_t *at = malloc((n + 1) * sizeof *at);
        rc = units && at ? 0 : -1;
        for (size_t t = 0, u = 0; rc == 0 && t < n; t++) {
            at[t] = u;
            for (size_t k = 0; k < ni; k++)
                units[u++] = p->in_workers[k] * per + order[t];
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
    vb_reference_free(jc.reference);
    return rc;
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
