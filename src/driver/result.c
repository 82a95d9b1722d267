/* result.c — a run's result: the fields of its row once it stopped, a
 * failed run's, and a result as bytes for another process. */
#include "result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    res->err_att_max = res->err_angvel_max = INFINITY;
    res->err_draw_max = res->err_draw_rms = INFINITY;
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
    /* what a run draws at the frames is what it reports there: a frame
     * loop's run puts its drawn state's own errors in their place
     * (runner.c) */
    res->err_draw_max = res->err_pos_max;
    res->err_draw_rms = res->err_pos_rms;
}

void vb_run_failed(vb_run_result *res, vb_status status, const char *why)
{
    res->status = status;
    free(res->failure);
    res->failure = why ? strdup(why) : NULL; /* NULL when out of memory: the status still says it */
}

void vb_run_unmeasurable(vb_run_result *res, const char *what)
{
    char why[160];
    snprintf(why, sizeof why, "its %s is not a finite number, though its state is: the run "
                              "has grown past what doubles measure", what);
    vb_run_failed(res, VB_STATUS_DIVERGED, why);
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


void vb_contact_result_blank(vb_contact_result *c)
{
    double *all = &c->e_bounce[0];
    for (size_t i = 0; i < VB_CONTACT_E_SHOWN; i++)
        all[i] = NAN;
    c->bounces = c->bounces_exact = c->t_rest = c->t_rest_exact = c->gain10 = c->depth_max = NAN;
    c->stop_x = c->stop_x_exact = c->stop_t = c->stop_t_exact = NAN;
    c->pass_speed = c->pass_bound = c->pass_at_most = NAN;
    for (size_t i = 0; i < VB_CONTACT_APEXES; i++)
        c->height[i] = c->energy[i] = NAN;
    c->t_roll = c->t_roll_exact = c->s_roll = c->s_roll_exact = c->v_roll = c->v_roll_exact = NAN;
    c->slip_max = c->a_err = c->creep = c->creep_exact = c->creep_speed = c->energy_err = NAN;
}
