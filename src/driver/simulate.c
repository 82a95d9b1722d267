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

const char *vb_status_name(vb_status s)
{
    switch (s) {
    case VB_STATUS_OK:
        return "ok";
    case VB_STATUS_DIVERGED:
        return "diverged";
    case VB_STATUS_EXACT_FAILED:
        return "exact-failed";
    case VB_STATUS_ENGINE_FAILED:
        return "engine-failed";
    case VB_STATUS_PLUGIN_FAILED:
        return "plugin-failed";
    }
    return "?";
}

int vb_all_finite(const double *a, const double *b, size_t n)
{
    /* x * 0 is 0 for a finite x and NaN for an infinite or NaN one: one sum
     * of them says it for the whole state, with no branch a component
     * (this runs for every run at every step) */
    double z = 0.0;
    for (size_t i = 0; i < n; i++)
        z += a[i] * 0.0 + b[i] * 0.0;
    return z == 0.0;
}

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

/* ---- results ---- */

/* t_end is a whole number k >= 1 of the model's periods (to 1e-9) */
int vb_whole_periods(const vb_model *model, double t_end)
{
    if (!(model->type->flags & VB_PERIODIC))
        return 0;
    double T = model->type->natural_time(model->self), k = floor(t_end / T + 0.5);
    return k >= 1.0 && fabs(t_end - k * T) <= 1e-9 * t_end;
}

/* docs/method.md §4: a run that did not finish has infinite errors */
static void unfinished(vb_run_result *res)
{
    res->fail_step = res->steps;
    res->err_pos_final = res->err_pos_max = res->err_pos_rms = res->err_pos_signed = INFINITY;
    res->err_vel_final = res->err_vel_max = INFINITY;
    res->err_energy_max = res->err_angmom_max = res->err_momentum_max = INFINITY;
    res->err_return = res->err_constraint_max = INFINITY;
}

void vb_run_finish(const vb_model *model, const vb_plan_spec *spec, const vb_plan *plan,
                   const vb_metrics *m, const double *x_last, unsigned long long force_evals,
                   const vb_truth *truth, vb_run_result *res)
{
    res->t_end = vb_plan_t_end(spec);
    switch (spec->kind) {
    case VB_PLAN_FIXED:
        res->dt = plan->h_fixed;
        break;
    case VB_PLAN_RANDOM:
        res->dt = spec->dt;
        break;
    case VB_PLAN_TRACE:
        res->dt = res->t_end / (double)plan->n;
        break;
    }
    res->force_evals = force_evals;
    res->has_energy = m->has_energy;
    res->has_angmom = m->has_angmom;
    res->has_momentum = m->has_momentum;
    res->has_constraint = m->has_constraint;
    res->no_velocity = !m->has_velocity;
    res->has_return = vb_whole_periods(model, res->t_end);
    res->pos_scale = m->pos_scale;
    res->vel_scale = m->vel_scale;
    res->has_reference = truth && vb_truth_is_reference(truth);
    res->ref_bad_force_t = truth ? vb_truth_bad_force_time(truth) : (double)NAN;
    if (res->has_reference) {
        res->ref_err_pos = vb_truth_err_pos(truth);
        res->ref_err_vel = vb_truth_err_vel(truth);
    }
    if (res->status == VB_STATUS_OK) {
        res->err_pos_final = m->pos_final;
        res->err_pos_max = m->pos_max;
        res->err_pos_rms = vb_metrics_pos_rms(m);
        res->err_pos_signed = vb_metrics_pos_signed_mean(m);
        res->err_vel_final = vb_metrics_vel_final(m);
        res->err_vel_max = vb_metrics_vel_max(m);
        res->err_energy_max = vb_metrics_energy_max(m);
        res->err_angmom_max = vb_metrics_angmom_max(m);
        res->err_momentum_max = vb_metrics_momentum_max(m);
        res->err_constraint_max = m->constraint_max;
        if (res->has_return) {
            /* back where it started: x(t_end) against x(0), the truth aside */
            double *x0 = malloc(2 * model->n * sizeof *x0);
            if (x0) {
                model->type->initial(model->self, x0, x0 + model->n);
                res->err_return = vb_distance(x_last, x0, model->n);
                free(x0);
            } else {
                res->err_return = NAN;
            }
        }
    } else {
        unfinished(res);
    }
}

void vb_run_unmeasurable(vb_run_result *res, const char *what)
{
    char why[160];
    snprintf(why, sizeof why, "its %s is not a finite number, though its state is: the run "
                              "has grown past what doubles measure", what);
    res->status = VB_STATUS_DIVERGED;
    free(res->failure);
    res->failure = strdup(why); /* NULL when out of memory: the status still says it */
}

int vb_run_frame(const vb_model *m, const vb_plan_spec *spec, vb_run_result *out)
{
    vb_plan p;
    double *xv = malloc(2 * m->n * sizeof *xv), h, t;
    if (!xv || vb_plan_begin(&p, spec) != 0) {
        free(xv);
        return -1;
    }
    memset(out, 0, sizeof *out);
    while (vb_plan_next(&p, &h, &t))
        out->steps++;
    vb_metrics mt;
    m->type->initial(m->self, xv, xv + m->n);
    vb_metrics_init(&mt, m, xv, xv + m->n);
    vb_run_finish(m, spec, &p, &mt, xv, 0, NULL, out);
    out->has_reference = !m->type->exact; /* truth.c: no exact solution, a reference */
    vb_plan_end(&p);
    free(xv);
    return 0;
}

int vb_run_plugin_failed(const vb_model *model, const vb_plan_spec *plan, const char *why,
                         vb_run_result *out)
{
    if (vb_run_frame(model, plan, out) != 0)
        return -1;
    /* a run that did not finish, at step 0: whatever it did in the
     * process that ended is lost with it */
    out->status = VB_STATUS_PLUGIN_FAILED;
    out->steps = 0;
    unfinished(out);
    out->failure = strdup(why);
    return out->failure ? 0 : -1;
}

size_t vb_run_result_pack(const vb_run_result *r, void *buf, size_t cap)
{
    size_t text = r->failure ? strlen(r->failure) : 0;
    if (text > 1000)
        text = 1000;
    if (sizeof *r + text > cap)
        return 0;
    vb_run_result copy = *r;
    copy.failure = NULL;
    memcpy(buf, &copy, sizeof copy);
    memcpy((char *)buf + sizeof copy, r->failure ? r->failure : "", text);
    return sizeof copy + text;
}

int vb_run_result_unpack(vb_run_result *r, const void *bytes, size_t len)
{
    if (len < sizeof *r)
        return -1;
    memcpy(r, bytes, sizeof *r);
    r->failure = NULL;
    if (len > sizeof *r) {
        r->failure = strndup((const char *)bytes + sizeof *r, len - sizeof *r);
        if (!r->failure)
            return -1;
    }
    return 0;
}

void vb_run_result_clear(vb_run_result *r)
{
    free(r->failure);
    r->failure = NULL;
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
