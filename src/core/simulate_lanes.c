/* simulate_lanes.c — up to VB_LANES runs of one integrator on one model in
 * lockstep (simulate.h, lanes.h).  Each lane starts, ends and is measured
 * exactly as vb_simulate would do it; only the steps go together. */
#include "simulate.h"

#include <stdlib.h>
#include <string.h>

#include "integrator.h"
#include "lanes.h"
#include "metrics.h"

void vb_force_lanes_eval(vb_force_lanes *f, const double *t, const vb_lane_vec x,
                         const vb_lane_vec v, vb_lane_vec a)
{
    f->evals++;
    if (f->accel_lanes) {
        f->accel_lanes(f->model, t, x, v, a);
        return;
    }
    for (size_t i = 0; i < f->n; i++) {
        double xi[VB_MAX_DIM], vi[VB_MAX_DIM], ai[VB_MAX_DIM];
        for (unsigned d = 0; d < f->dim; d++) {
            xi[d] = x[d][i];
            vi[d] = v[d][i];
        }
        f->accel(f->model, t[i], xi, vi, ai);
        for (unsigned d = 0; d < f->dim; d++)
            a[d][i] = ai[d];
    }
    /* lanes not in use still get a value: the batched steps read every lane */
    for (size_t i = f->n; i < VB_LANES; i++)
        for (unsigned d = 0; d < f->dim; d++)
            a[d][i] = 0.0;
}

int vb_simulate_lanes_supports(const vb_integrator *integ)
{
    return vb_integrator_lanes_of(integ) != NULL && integ->state_size <= VB_STATE_MAX;
}

typedef struct {
    vb_plan plan;
    int begun;
    void *work;
    vb_metrics m;
    int live;                 /* still taking steps of its own */
    unsigned long long evals; /* its start's evaluations, then the lanes' at its end */
} lane;

int vb_simulate_lanes(const vb_run_spec *specs, size_t n, vb_run_result *res, char *err,
                      size_t errlen)
{
    const vb_integrator *integ = specs[0].integ;
    const vb_model *model = specs[0].model;
    const vb_model_type *type = model->type;
    const vb_integrator_lanes *gl = vb_integrator_lanes_of(integ);
    unsigned dim = type->dim;
    lane L[VB_LANES];
    void *state = NULL;
    int rc = -1;

    memset(L, 0, sizeof L);
    if (n < 1 || n > VB_LANES || !vb_simulate_lanes_supports(integ)) {
        snprintf(err, errlen, "internal: %zu lanes of %s", n, integ->name);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (specs[i].integ != integ || specs[i].model != model || specs[i].trajectory ||
            specs[i].on_step) {
            snprintf(err, errlen, "internal: lanes must share integrator and model");
            return -1;
        }
    if (!(state = calloc(1, gl->state_size))) {
        snprintf(err, errlen, "out of memory for the lanes of %s", integ->name);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        memset(&res[i], 0, sizeof res[i]);
        if (type->work_alloc && !(L[i].work = type->work_alloc(model->self))) {
            snprintf(err, errlen, "out of memory for the exact solution of %s", type->name);
            goto done;
        }
        if (vb_plan_begin(&L[i].plan, &specs[i].plan) != 0) {
            snprintf(err, errlen, "out of memory for the random generator");
            goto done;
        }
        L[i].begun = 1;
    }

    double x0[VB_MAX_DIM], v0[VB_MAX_DIM];
    double t[VB_LANES], h[VB_LANES], t_next[VB_LANES] = {0};
    size_t live = 0;
    _Alignas(max_align_t) unsigned char scalar[VB_STATE_MAX], lane0[VB_STATE_MAX];
    memset(lane0, 0, sizeof lane0);
    type->initial(model->self, x0, v0);
    for (size_t i = 0; i < n; i++) {
        vb_metrics_init(&L[i].m, model, x0, v0);
        res[i].status = VB_STATUS_OK;
        t[i] = 0.0;
        h[i] = 0.0;
        if (vb_plan_next(&L[i].plan, &h[i], &t_next[i])) {
            /* the start as a scalar run makes it, then into lane i */
            vb_force sf = vb_model_force(model);
            memset(scalar, 0, sizeof scalar);
            integ->start(scalar, &sf, 0.0, x0, v0, h[i]);
            gl->load(state, i, scalar);
            if (i == 0)
                memcpy(lane0, scalar, sizeof lane0);
            L[i].evals = sf.evals;
            L[i].live = 1;
            live++;
        }
    }

    /* lanes not in use copy lane 0's start (lanes.h) */
    for (size_t i = n; i < VB_LANES; i++) {
        gl->load(state, i, lane0);
        t[i] = 0.0;
        h[i] = h[0];
    }
    vb_force_lanes f = {type->accel_lanes, type->accel, model->self, dim, n, 0};
    vb_lane_vec X, V;
    while (live) {
        /* a lane that has stopped steps on with its last step: nothing it
         * computes is read again, and no lane reads another's slots */
        gl->step(state, &f, t, h);
        gl->observe(state, n, X, V);
        for (size_t i = 0; i < n; i++) {
            if (!L[i].live)
                continue;
            double x[VB_MAX_DIM], v[VB_MAX_DIM], xe[VB_MAX_DIM], ve[VB_MAX_DIM];
            res[i].steps++;
            t[i] = t_next[i];
            for (unsigned d = 0; d < dim; d++) {
                x[d] = X[d][i];
                v[d] = V[d][i];
            }
            if (!vb_all_finite(x, v, dim))
                res[i].status = VB_STATUS_DIVERGED;
            else if (type->exact(model->self, L[i].work, t[i], xe, ve) != 0 ||
                     !vb_all_finite(xe, ve, dim))
                res[i].status = VB_STATUS_EXACT_FAILED;
            else
                vb_metrics_add(&L[i].m, x, v, xe, ve);
            if (res[i].status != VB_STATUS_OK || !vb_plan_next(&L[i].plan, &h[i], &t_next[i])) {
                L[i].live = 0;
                L[i].evals += f.evals;
                live--;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        vb_plan_end(&L[i].plan);
        L[i].begun = 0;
        vb_run_finish(&specs[i], &L[i].plan, &L[i].m, L[i].evals, &res[i]);
    }
    rc = 0;
done:
    for (size_t i = 0; i < n; i++) {
        if (L[i].begun)
            vb_plan_end(&L[i].plan);
        if (L[i].work)
            type->work_free(L[i].work);
    }
    free(state);
    return rc;
}
