/* simulate.c — the driver of runs: integrators under one plan, the truth
 * computed once per step. */
#include "simulate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "quaternion.h"
#include "rigid.h"
#include "integrator.h"
#include "runner.h"
#include "metrics.h"
#include "truth.h"

/* ---- trajectory files ---- */

/* A rigid body's columns (rigid.h: its face's packed state), each with its
 * _exact twin, the frames said on a line before them */
static const char *const rigid_columns[VB_RIGID_COMPONENTS] = {
    "x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"};

static void rigid_trajectory_header(FILE *f)
{
    fputs("# frames: x,y,z and vx,vy,vz the centre of mass and its velocity, world; "
          "qw,qx,qy,qz the attitude, world from body; wx,wy,wz the angular velocity, BODY "
          "frame (principal axes); err_att the angle of q_exact* q (rad); energy rotational "
          "plus translational (docs/rigid.md)\n",
          f);
    fputs("t", f);
    for (int exact = 0; exact < 2; exact++)
        for (int i = 0; i < VB_RIGID_COMPONENTS; i++)
            fprintf(f, ",%s%s", rigid_columns[i], exact ? "_exact" : "");
    fputs(",err_att,energy\n", f);
}

static void rigid_trajectory_row(FILE *f, const vb_model *model, double t, const double *x,
                                 const double *v, const double *xe, const double *ve)
{
    vb_rigid_state s, e;
    vb_rigid_face_unpack(x, v, &s);
    vb_rigid_face_unpack(xe, ve, &e);
    double c[VB_RIGID_COMPONENTS], ce[VB_RIGID_COMPONENTS];
    vb_rigid_pack(&s, c);
    vb_rigid_pack(&e, ce);
    fprintf(f, "%.17g", t);
    for (int i = 0; i < VB_RIGID_COMPONENTS; i++)
        fprintf(f, ",%.17g", c[i]);
    for (int i = 0; i < VB_RIGID_COMPONENTS; i++)
        fprintf(f, ",%.17g", ce[i]);
    fprintf(f, ",%.17g,%.17g\n", vb_quat_angle_between(e.q, s.q),
            model->type->energy(model->self, x, v));
}

static int rigid_model(const vb_model *m) { return vb_rigid_face_model(m->type, m->self) != NULL; }

void vb_trajectory_header(FILE *f, const vb_model *m)
{
    if (rigid_model(m)) {
        rigid_trajectory_header(f);
        return;
    }
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
    if (rigid_model(model)) {
        rigid_trajectory_row(f, model, t, x, v, xe, ve);
        return;
    }
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

/* The runs of a grid: each runner's run (runner.h), its reported state
 * (caps.state.size doubles) and whether it goes on. */
typedef struct {
    vb_run *run;
    double *s;
    int live;
} run_slot;

/* a run the driver stops: its kind lets go of what it holds */
static void halt(run_slot *r)
{
    r->live = 0;
    if (r->run->ops->halt)
        r->run->ops->halt(r->run);
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
        /* the state it carries, as its runner says: the model's x[N], v[N]
         * for every runner of a particle model */
        vb_state_shape shape = vb_runner_caps_of(spec->integ[k], model).state;
        run[k].run = vb_run_open(spec->integ[k], model, &spec->plan);
        run[k].s = calloc(shape.size > 2 * n ? shape.size : 2 * n, sizeof *run[k].s);
        if (!run[k].run || !run[k].s) {
            snprintf(err, errlen, "out of memory for the state of %s", spec->integ[k]->name);
            goto done;
        }
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
        vb_metrics_init(&run[k].run->m, model, x0, v0);
        memcpy(run[k].s, x0, n * sizeof *x0);
        res[k].status = VB_STATUS_OK;
        if (spec->on_step)
            spec->on_step(spec->on_step_ctx, k, 0.0, x0, v0, x0, v0);
    }

    double t = 0.0, h, t_next;
    size_t live = 0;
    if (vb_plan_next(&plan, &h, &t_next))
        for (size_t k = 0; k < k_n; k++) {
            vb_run *r = run[k].run;
            int started = r->ops->start(r, buf, h, &res[k]) == 0;
            if (r->no_velocity) {
                /* positions alone: its velocity is not measured, and stays 0 */
                vb_metrics_drop_velocity(&r->m);
                memset(run[k].s + n, 0, n * sizeof *run[k].s);
            }
            if (started) {
                run[k].live = 1;
                live++;
            }
        }
    while (live) {
        /* every live run takes its step, and then every live run reports
         * where it is: the steps of different runs are independent, and
         * side by side the processor overlaps them (one run's step is a
         * chain of dependent operations that the next one's would wait on
         * in a loop that read each run's state back after its step) */
        for (size_t k = 0; k < k_n; k++) {
            vb_run *r = run[k].run;
            if (!run[k].live)
                continue;
            if (r->plain) /* its advance, without the call to it */
                r->entry->step(r->method_state, &r->force, t, h);
            else if (r->ops->advance)
                r->ops->advance(r, t, h);
        }
        size_t finite = 0;
        for (size_t k = 0; k < k_n; k++) {
            if (!run[k].live)
                continue;
            vb_run *r = run[k].run;
            if (r->plain) /* its observe, which cannot fail */
                r->entry->observe(r->method_state, run[k].s, run[k].s + n);
            else if (r->ops->observe(r, t_next, h, run[k].s, &res[k]) != 0) {
                /* the step it stopped at counts, as a NaN's does below:
                 * step N is the row at t_N that the run could not use,
                 * whether it is not finite, bad or never came
                 * (docs/method.md §4, fail_step) */
                res[k].steps++;
                run[k].live = 0;
                live--;
                continue;
            }
            res[k].steps++;
            if (vb_all_finite(run[k].s, run[k].s + n, n)) {
                finite++;
            } else {
                res[k].status = VB_STATUS_DIVERGED;
                if (r->force.stopped) /* the method said why it stopped */
                    res[k].failure = strdup(r->force.stopped);
                halt(&run[k]);
                live--;
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
            vb_run *r = run[k].run;
            const double *x = run[k].s, *v = run[k].s + n;
            const char *bad = r->ops->measure ? r->ops->measure(r, run[k].s, xe, ve, &size)
                                              : vb_metrics_add_sized(&r->m, x, v, xe, ve, &size);
            if (bad) {
                vb_run_unmeasurable(&res[k], bad);
                halt(&run[k]);
                live--;
                continue;
            }
            if (r->no_velocity)
                v = NULL;
            if (spec->trajectory)
                trajectory_row(spec->trajectory, model, t, x, v, xe, ve);
            if (spec->on_step)
                spec->on_step(spec->on_step_ctx, k, t, x, v, xe, ve);
        }
        if (!vb_plan_next(&plan, &h, &t_next))
            break;
    }
    for (size_t k = 0; k < k_n; k++)
        run[k].run->ops->finish(run[k].run, &spec->plan, &plan, truth, run[k].s, &res[k]);
    if (spec->trajectory && ferror(spec->trajectory)) {
        snprintf(err, errlen, "writing the trajectory failed: %s", strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (begun)
        vb_plan_end(&plan);
    for (size_t k = 0; run && k < k_n; k++) {
        vb_run_close(run[k].run);
        free(run[k].s);
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
