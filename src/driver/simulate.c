/* simulate.c — the driver of runs: integrators under one plan, the truth
 * computed once per step. */
#include "simulate.h"
#include "engine.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "frameloop.h"
#include "integrator.h"
#include "metrics.h"
#include "truth.h"

const char vb_run_columns[] =
    "model,integrator,plan,dt,jitter,seed,steps,t_end,force_evals,"
    "err_pos_final,err_pos_max,err_pos_rms,err_vel_final,err_vel_max,err_energy_max,status,"
    "err_angmom_max,fail_step,pos_scale,vel_scale,err_momentum_max,err_return,ref_err_pos,"
    "ref_err_vel,tol,err_constraint_max";

/* ---- trajectory files ---- */

void vb_trajectory_header(FILE *f, const vb_model *m)
{
    fputs("t", f);
    if (m->particles == 1 && m->type->dim == 1) {
        fputs(",x,v,x_exact,v_exact", f);
    } else {
        char name[64];
        static const char *const prefix[2] = {"", "v"};
        for (int exact = 0; exact < 2; exact++)
            for (int p = 0; p < 2; p++)
                for (size_t c = 0; c < m->n; c++) {
                    vb_state_component(name, sizeof name, m, prefix[p], c);
                    fprintf(f, ",%s%s", name, exact ? "_exact" : "");
                }
    }
    fputs(",err_pos,energy\n", f);
}

/* v NULL: a run without velocity, whose velocity and energy cells are empty */
static void trajectory_row(FILE *f, const vb_model *model, double t, const double *x,
                           const double *v, const double *xe, const double *ve)
{
    size_t n = model->n;
    fprintf(f, "%.17g", t);
    for (size_t i = 0; i < n; i++)
        fprintf(f, ",%.17g", x[i]);
    for (size_t i = 0; i < n; i++)
        if (v)
            fprintf(f, ",%.17g", v[i]);
        else
            fputc(',', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, ",%.17g", xe[i]);
    for (size_t i = 0; i < n; i++)
        fprintf(f, ",%.17g", ve[i]);
    fprintf(f, ",%.17g,", vb_distance(x, xe, n));
    if (model->type->energy && v)
        fprintf(f, "%.17g", model->type->energy(model->self, x, v));
    fputc('\n', f);
}

/* ---- the grid ---- */

typedef struct {
    void *state;
    vb_force force;
    vb_metrics m;
    double *x, *v; /* what it reports, N each */
    int live;
    int started; /* start was called: finish must be */
    const vb_engine *engine; /* an external engine: its rows instead of steps */
    int no_velocity;         /* ... that reports positions alone: v stays 0 */
    vb_engine_run *er;
    unsigned long long evals; /* the engine's count */
    vb_frameloop *fl; /* a frame loop's entry (loop.h): run a frame at a time */
} run_slot;

/* an engine's run that cannot go on: status engine-failed, and why */
static void engine_failed(run_slot *r, vb_run_result *res, const char *why)
{
    res->status = VB_STATUS_ENGINE_FAILED;
    free(res->failure);
    res->failure = strdup(why); /* NULL when out of memory: the status still says it */
    vb_engine_stop(r->er);
    r->er = NULL;
    r->live = 0;
}

/* a frame loop's frame (frameloop.h): its physics steps, then the state it
 * draws into r->x, r->v; 0, or -1 when the run stopped (status set) */
static int loop_frame(run_slot *r, vb_run_result *res, double t_frame, double h)
{
    const char *bad = NULL;
    switch (vb_frameloop_frame(r->fl, &r->force, t_frame, h, r->x, r->v, &bad)) {
    case VB_FRAME_OK:
        return 0;
    case VB_FRAME_DIVERGED:
        res->status = VB_STATUS_DIVERGED;
        if (r->force.stopped)
            res->failure = strdup(r->force.stopped);
        break;
    case VB_FRAME_NO_TRUTH:
        res->status = VB_STATUS_EXACT_FAILED;
        break;
    case VB_FRAME_UNMEASURABLE:
        vb_run_unmeasurable(res, bad);
        break;
    }
    r->live = 0;
    return -1;
}

/* a frame loop's result: its physics steps and their errors (the run's
 * own metrics), its drawn state's, the time it dropped; an accumulator's
 * dt is its physics_dt, the step its sweep refines (docs/method.md §9) */
static void loop_finish(const vb_frameloop *fl, const vb_model *model, const vb_plan_spec *spec,
                        const vb_plan *plan, unsigned long long evals, vb_run_result *res)
{
    res->steps = fl->steps;
    vb_run_finish(model, spec, plan, &fl->m, fl->run.cur, evals, fl->truth, res);
    if (vb_loop_holds_frames(&fl->run.loop->integ))
        res->dt = fl->run.dt;
    res->has_draw = 1;
    res->lag_max = fl->run.lag;
    if (res->status == VB_STATUS_OK) {
        res->err_draw_max = fl->draw_max;
        res->err_draw_rms = vb_frameloop_draw_rms(fl);
    } else {
        res->err_draw_max = res->err_draw_rms = INFINITY;
    }
}

int vb_simulate_grid(const vb_grid_spec *spec, vb_run_result *res, char *err, size_t errlen)
{
    const vb_model *model = spec->model;
    size_t n = model->n, k_n = spec->n_integ;
    run_slot *run = calloc(k_n ? k_n : 1, sizeof *run);
    double *buf = malloc(4 * n * sizeof *buf); /* x0, v0, xe, ve */
    vb_truth *truth = vb_truth_alloc_shared(model, spec->reference);
    vb_plan plan;
    int begun = 0, rc = -1;

    for (size_t k = 0; k < k_n; k++)
        memset(&res[k], 0, sizeof res[k]);
    if (!run || !buf || !truth) {
        snprintf(err, errlen, "out of memory for the runs of %s", model->type->name);
        goto done;
    }
    for (size_t k = 0; k < k_n; k++) {
        run[k].engine = vb_engine_of(spec->integ[k]);
        const vb_loop *loop = vb_loop_of(spec->integ[k]);
        if (loop && (!(run[k].fl = malloc(sizeof *run[k].fl)) ||
                     vb_frameloop_init(run[k].fl, loop, model, spec->plan.level) != 0)) {
            snprintf(err, errlen, "out of memory for the state of %s", spec->integ[k]->name);
            goto done;
        }
        run[k].state = run[k].engine || loop ? NULL : calloc(1, spec->integ[k]->state_size(n));
        run[k].x = malloc(2 * n * sizeof *run[k].x);
        if ((!run[k].engine && !loop && !run[k].state) || !run[k].x) {
            snprintf(err, errlen, "out of memory for the state of %s", spec->integ[k]->name);
            goto done;
        }
        run[k].v = run[k].x + n;
        run[k].force = vb_model_force(model);
    }
    if (vb_plan_begin(&plan, &spec->plan) != 0) {
        snprintf(err, errlen, "out of memory for the random generator");
        goto done;
    }
    begun = 1;

    double *x0 = buf, *v0 = buf + n, *xe = buf + 2 * n, *ve = buf + 3 * n;
    model->type->initial(model->self, x0, v0);
    if (spec->trajectory) {
        vb_trajectory_header(spec->trajectory, model);
        trajectory_row(spec->trajectory, model, 0.0, x0, v0, x0, v0);
    }
    for (size_t k = 0; k < k_n; k++) {
        vb_metrics_init(&run[k].m, model, x0, v0);
        memcpy(run[k].x, x0, n * sizeof *x0);
        res[k].status = VB_STATUS_OK;
        if (spec->on_step)
            spec->on_step(spec->on_step_ctx, k, 0.0, x0, v0, x0, v0);
    }

    double t = 0.0, h, t_next;
    size_t live = 0;
    if (vb_plan_next(&plan, &h, &t_next))
        for (size_t k = 0; k < k_n; k++) {
            if (run[k].engine) {
                char why[512];
                run[k].er = vb_engine_start(run[k].engine, model, &spec->plan, why, sizeof why);
                /* velocity=none: measured by its positions (its cells of a
                 * run that failed to start too, once the engine said so) */
                if (run[k].er ? !vb_engine_run_has_velocity(run[k].er)
                              : vb_engine_without_velocity(spec->integ[k])) {
                    run[k].no_velocity = 1;
                    vb_metrics_drop_velocity(&run[k].m);
                    memset(run[k].v, 0, n * sizeof *run[k].v);
                }
                if (!run[k].er) {
                    engine_failed(&run[k], &res[k], why);
                    continue;
                }
            } else if (run[k].fl) {
                vb_frameloop_start(run[k].fl, &run[k].force, x0, v0, h);
            } else {
                const vb_integrator *g = spec->integ[k];
                vb_integrator_set_params(g, run[k].state);
                if (g->set_tolerance)
                    g->set_tolerance(run[k].state,
                                     spec->plan.tol > 0.0 ? spec->plan.tol : VB_DEFAULT_TOL);
                g->start(run[k].state, &run[k].force, t, x0, v0, h);
                run[k].started = 1;
            }
            run[k].live = 1;
            live++;
        }
    while (live) {
        /* every live built-in takes its step, and then every live run
         * reports where it is: the steps of different runs are independent,
         * and side by side the processor overlaps them (one run's step is a
         * chain of dependent operations that the next one's would wait on
         * in a loop that read each run's state back after its step) */
        for (size_t k = 0; k < k_n; k++)
            if (run[k].live && !run[k].engine && !run[k].fl)
                spec->integ[k]->step(run[k].state, &run[k].force, t, h);
        size_t finite = 0;
        for (size_t k = 0; k < k_n; k++) {
            if (!run[k].live)
                continue;
            if (run[k].engine) {
                /* the engine's row of this step, in place of a step */
                if (vb_engine_next(run[k].er, t_next, h, run[k].x, run[k].v, &run[k].evals) !=
                    0) {
                    engine_failed(&run[k], &res[k], vb_engine_why(run[k].er));
                    live--;
                    continue;
                }
            } else if (run[k].fl) {
                if (loop_frame(&run[k], &res[k], t_next, h) != 0) {
                    live--;
                    continue;
                }
            } else {
                spec->integ[k]->observe(run[k].state, run[k].x, run[k].v);
            }
            res[k].steps++;
            if (vb_all_finite(run[k].x, run[k].v, n)) {
                finite++;
            } else {
                res[k].status = VB_STATUS_DIVERGED;
                if (run[k].force.stopped) /* the method said why it stopped */
                    res[k].failure = strdup(run[k].force.stopped);
                run[k].live = 0;
                live--;
                vb_engine_stop(run[k].er); /* a NaN it wrote: diverged, as for a built-in */
                run[k].er = NULL;
            }
        }
        t = t_next;
        if (!finite)
            break;
        /* the truth once for all of them; a NaN from it must not pass for
         * a zero error */
        int truth_ok = vb_truth_at(truth, t, xe, ve) == 0 && vb_all_finite(xe, ve, n);
        vb_exact_size size;
        if (truth_ok)
            vb_exact_sums(&size, xe, ve, n);
        for (size_t k = 0; k < k_n; k++) {
            if (!run[k].live)
                continue;
            if (!truth_ok) {
                res[k].status = VB_STATUS_EXACT_FAILED;
                run[k].live = 0;
                live--;
                continue;
            }
            const char *bad = run[k].fl
                                  ? vb_frameloop_draw_add(run[k].fl, run[k].x, xe)
                                  : vb_metrics_add_sized(&run[k].m, run[k].x, run[k].v, xe,
                                                         ve, &size);
            if (bad) {
                vb_run_unmeasurable(&res[k], bad);
                run[k].live = 0;
                live--;
                vb_engine_stop(run[k].er);
                run[k].er = NULL;
                continue;
            }
            const double *v = run[k].no_velocity ? NULL : run[k].v;
            if (spec->trajectory)
                trajectory_row(spec->trajectory, model, t, run[k].x, v, xe, ve);
            if (spec->on_step)
                spec->on_step(spec->on_step_ctx, k, t, run[k].x, v, xe, ve);
        }
        if (!vb_plan_next(&plan, &h, &t_next))
            break;
    }
    for (size_t k = 0; k < k_n; k++) {
        if (run[k].er) {
            /* an engine that gave every row must end there, and exit 0 */
            if (res[k].status == VB_STATUS_OK && vb_engine_finish(run[k].er) != 0)
                engine_failed(&run[k], &res[k], vb_engine_why(run[k].er));
            vb_engine_stop(run[k].er);
            run[k].er = NULL;
        }
        if (run[k].fl)
            loop_finish(run[k].fl, model, &spec->plan, &plan, run[k].force.evals, &res[k]);
        else
            vb_run_finish(model, &spec->plan, &plan, &run[k].m, run[k].x,
                          run[k].engine ? run[k].evals : run[k].force.evals, truth, &res[k]);
    }
    if (spec->trajectory && ferror(spec->trajectory)) {
        snprintf(err, errlen, "writing the trajectory failed: %s", strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (begun)
        vb_plan_end(&plan);
    for (size_t k = 0; run && k < k_n; k++) {
        vb_engine_stop(run[k].er);
        if (run[k].started && spec->integ[k]->finish)
            spec->integ[k]->finish(run[k].state);
        free(run[k].state);
        free(run[k].x);
        if (run[k].fl)
            vb_frameloop_free(run[k].fl);
        free(run[k].fl);
    }
    free(run);
    free(buf);
    vb_truth_free(truth);
    return rc;
}

int vb_simulate(const vb_run_spec *spec, vb_run_result *res, char *err, size_t errlen)
{
    const vb_integrator *integ[1] = {spec->integ};
    vb_grid_spec g = {spec->model, spec->plan,        integ, 1, spec->trajectory,
                      spec->on_step, spec->on_step_ctx, NULL};
    return vb_simulate_grid(&g, res, err, errlen);
}

/* ---- rows ---- */

static void print_num(FILE *out, double x) { fprintf(out, ",%.17g", x); }

/* a number, or an empty cell where the quantity does not apply */
static void print_opt(FILE *out, int has, double x)
{
    fputc(',', out);
    if (has)
        fprintf(out, "%.17g", x);
}

void vb_run_print_row(FILE *out, const vb_model *model, const vb_integrator *integ,
                      const vb_plan_spec *p, const vb_run_result *r)
{
    fprintf(out, "%s,%s,%s,%.17g,", model->type->name, integ->name, vb_plan_name(p->kind), r->dt);
    if (p->kind == VB_PLAN_RANDOM)
        fprintf(out, "%.17g,%lu", p->jitter, p->seed);
    else if (p->kind == VB_PLAN_FIXED)
        fputs("0,", out);
    else
        fputs(",", out);
    fprintf(out, ",%llu,%.17g,%llu", r->steps, r->t_end, r->force_evals);
    print_num(out, r->err_pos_final);
    print_num(out, r->err_pos_max);
    print_num(out, r->err_pos_rms);
    print_opt(out, !r->no_velocity, r->err_vel_final);
    print_opt(out, !r->no_velocity, r->err_vel_max);
    print_opt(out, r->has_energy, r->err_energy_max);
    fprintf(out, ",%s", vb_status_name(r->status));
    print_opt(out, r->has_angmom, r->err_angmom_max);
    fputc(',', out);
    if (r->status != VB_STATUS_OK)
        fprintf(out, "%llu", r->fail_step);
    print_num(out, r->pos_scale);
    print_num(out, r->vel_scale);
    print_opt(out, r->has_momentum, r->err_momentum_max);
    print_opt(out, r->has_return, r->err_return);
    print_opt(out, r->has_reference, r->ref_err_pos);
    print_opt(out, r->has_reference, r->ref_err_vel);
    /* an adaptive integrator's tolerance; its dt is then the frames' */
    print_opt(out, (integ->flags & VB_ADAPTIVE) != 0, p->tol > 0.0 ? p->tol : VB_DEFAULT_TOL);
    print_opt(out, r->has_constraint, r->err_constraint_max);
}

void vb_run_describe(FILE *out, const vb_run_spec *spec)
{
    const vb_model_type *type = spec->model->type;
    const vb_plan_spec *p = &spec->plan;
    fprintf(out, "model=%s", type->name);
    for (unsigned i = 0; i < type->n_params; i++)
        fprintf(out, " %s=%.17g", type->params[i].name, spec->model->p[i]);
    fprintf(out, " integrator=%s plan=%s t_end=%.17g", spec->integ->name, vb_plan_name(p->kind),
            vb_plan_t_end(p));
    if (p->kind != VB_PLAN_TRACE)
        fprintf(out, " dt=%.17g", p->dt);
    if (p->kind == VB_PLAN_RANDOM)
        fprintf(out, " jitter=%.17g seed=%lu", p->jitter, p->seed);
}
