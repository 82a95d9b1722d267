/* simulate.c — the driver of one run. */
#include "simulate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integrator.h"
#include "metrics.h"

const char vb_run_columns[] =
    "model,integrator,plan,dt,jitter,seed,steps,t_end,force_evals,"
    "err_pos_final,err_pos_max,err_pos_rms,err_vel_final,err_vel_max,err_energy_max,status,"
    "err_angmom_max,fail_step,pos_scale,vel_scale";

const char *vb_status_name(vb_status s)
{
    switch (s) {
    case VB_STATUS_OK:
        return "ok";
    case VB_STATUS_DIVERGED:
        return "diverged";
    case VB_STATUS_EXACT_FAILED:
        return "exact-failed";
    }
    return "?";
}

int vb_all_finite(const double *a, const double *b, unsigned dim)
{
    for (unsigned i = 0; i < dim; i++)
        if (!isfinite(a[i]) || !isfinite(b[i]))
            return 0;
    return 1;
}

static const char *const axis[VB_MAX_DIM] = {"x", "y", "z"};

static void trajectory_header(FILE *f, unsigned dim)
{
    fputs("t", f);
    if (dim == 1) {
        fputs(",x,v,x_exact,v_exact", f);
    } else {
        for (unsigned i = 0; i < dim; i++)
            fprintf(f, ",%s", axis[i]);
        for (unsigned i = 0; i < dim; i++)
            fprintf(f, ",v%s", axis[i]);
        for (unsigned i = 0; i < dim; i++)
            fprintf(f, ",%s_exact", axis[i]);
        for (unsigned i = 0; i < dim; i++)
            fprintf(f, ",v%s_exact", axis[i]);
    }
    fputs(",err_pos,energy\n", f);
}

static void trajectory_row(FILE *f, const vb_model *model, double t, const double *x,
                           const double *v, const double *xe, const double *ve)
{
    unsigned dim = model->type->dim;
    fprintf(f, "%.17g", t);
    for (unsigned i = 0; i < dim; i++)
        fprintf(f, ",%.17g", x[i]);
    for (unsigned i = 0; i < dim; i++)
        fprintf(f, ",%.17g", v[i]);
    for (unsigned i = 0; i < dim; i++)
        fprintf(f, ",%.17g", xe[i]);
    for (unsigned i = 0; i < dim; i++)
        fprintf(f, ",%.17g", ve[i]);
    fprintf(f, ",%.17g,", vb_distance(x, xe, dim));
    if (model->type->energy)
        fprintf(f, "%.17g", model->type->energy(model->self, x, v));
    fputc('\n', f);
}

void vb_run_finish(const vb_run_spec *spec, const vb_plan *plan, const vb_metrics *m,
                   unsigned long long force_evals, vb_run_result *res)
{
    res->t_end = vb_plan_t_end(&spec->plan);
    switch (spec->plan.kind) {
    case VB_PLAN_FIXED:
        res->dt = plan->h_fixed;
        break;
    case VB_PLAN_RANDOM:
        res->dt = spec->plan.dt;
        break;
    case VB_PLAN_TRACE:
        res->dt = res->t_end / (double)plan->n;
        break;
    }
    res->force_evals = force_evals;
    res->has_energy = m->has_energy;
    res->has_angmom = m->has_angmom;
    res->pos_scale = m->pos_scale;
    res->vel_scale = m->vel_scale;
    if (res->status == VB_STATUS_OK) {
        res->err_pos_final = m->pos_final;
        res->err_pos_max = m->pos_max;
        res->err_pos_rms = vb_metrics_pos_rms(m);
        res->err_vel_final = m->vel_final;
        res->err_vel_max = m->vel_max;
        res->err_energy_max = m->energy_max;
        res->err_angmom_max = m->angmom_max;
    } else {
        /* docs/method.md §4: a run that did not finish has infinite errors */
        res->fail_step = res->steps;
        res->err_pos_final = res->err_pos_max = res->err_pos_rms = INFINITY;
        res->err_vel_final = res->err_vel_max = INFINITY;
        res->err_energy_max = res->err_angmom_max = INFINITY;
    }
}

int vb_simulate(const vb_run_spec *spec, vb_run_result *res, char *err, size_t errlen)
{
    const vb_integrator *integ = spec->integ;
    const vb_model *model = spec->model;
    const vb_model_type *type = model->type;
    unsigned dim = type->dim;
    _Alignas(max_align_t) unsigned char local[VB_STATE_MAX];
    void *state = local;
    void *work = NULL;
    vb_plan plan;
    int rc = -1;

    memset(res, 0, sizeof *res);
    if (integ->state_size > sizeof local && !(state = calloc(1, integ->state_size))) {
        snprintf(err, errlen, "out of memory for the state of %s", integ->name);
        return -1;
    }
    if (type->work_alloc && !(work = type->work_alloc(model->self))) {
        snprintf(err, errlen, "out of memory for the exact solution of %s", type->name);
        goto done;
    }
    if (vb_plan_begin(&plan, &spec->plan) != 0) {
        snprintf(err, errlen, "out of memory for the random generator");
        goto done;
    }

    double x[VB_MAX_DIM], v[VB_MAX_DIM], xe[VB_MAX_DIM], ve[VB_MAX_DIM];
    vb_force force = vb_model_force(model);
    vb_metrics m;
    type->initial(model->self, x, v);
    vb_metrics_init(&m, model, x, v);
    if (spec->trajectory) {
        trajectory_header(spec->trajectory, dim);
        trajectory_row(spec->trajectory, model, 0.0, x, v, x, v);
    }
    if (spec->on_step)
        spec->on_step(spec->on_step_ctx, 0.0, x, v, x, v);

    double t = 0.0, h, t_next;
    res->status = VB_STATUS_OK;
    if (vb_plan_next(&plan, &h, &t_next)) {
        integ->start(state, &force, t, x, v, h);
        do {
            integ->step(state, &force, t, h);
            res->steps++;
            t = t_next;
            integ->observe(state, x, v);
            if (!vb_all_finite(x, v, dim)) {
                res->status = VB_STATUS_DIVERGED;
                break;
            }
            /* a NaN from the exact solution must not pass for a zero error */
            if (type->exact(model->self, work, t, xe, ve) != 0 || !vb_all_finite(xe, ve, dim)) {
                res->status = VB_STATUS_EXACT_FAILED;
                break;
            }
            vb_metrics_add(&m, x, v, xe, ve);
            if (spec->trajectory)
                trajectory_row(spec->trajectory, model, t, x, v, xe, ve);
            if (spec->on_step)
                spec->on_step(spec->on_step_ctx, t, x, v, xe, ve);
        } while (vb_plan_next(&plan, &h, &t_next));
    }
    vb_plan_end(&plan);
    vb_run_finish(spec, &plan, &m, force.evals, res);
    if (spec->trajectory && ferror(spec->trajectory)) {
        snprintf(err, errlen, "writing the trajectory failed: %s", strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (work)
        type->work_free(work);
    if (state != local)
        free(state);
    return rc;
}

static void print_num(FILE *out, double x) { fprintf(out, ",%.17g", x); }

void vb_run_print_row(FILE *out, const vb_run_spec *spec, const vb_run_result *r)
{
    const vb_plan_spec *p = &spec->plan;
    fprintf(out, "%s,%s,%s,%.17g,", spec->model->type->name, spec->integ->name,
            vb_plan_name(p->kind), r->dt);
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
    print_num(out, r->err_vel_final);
    print_num(out, r->err_vel_max);
    if (r->has_energy)
        print_num(out, r->err_energy_max);
    else
        fputc(',', out);
    fprintf(out, ",%s,", vb_status_name(r->status));
    if (r->has_angmom)
        fprintf(out, "%.17g", r->err_angmom_max);
    fputc(',', out);
    if (r->status != VB_STATUS_OK)
        fprintf(out, "%llu", r->fail_step);
    print_num(out, r->pos_scale);
    print_num(out, r->vel_scale);
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
