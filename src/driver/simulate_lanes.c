/* simulate_lanes.c — up to VB_LANES runs of one integrator on one model in
 * lockstep (simulate.h, lanes.h).  Each lane starts, ends and is measured
 * exactly as vb_simulate would do it; only the steps go together. */
#include "simulate.h"

#include <stdlib.h>
#include <string.h>

#include "integrator.h"
#include "lanes.h"
#include "metrics.h"
#include "truth.h"

int vb_simulate_lanes_supports(const vb_integrator *integ)
{
    return vb_integrator_lanes_of(integ) != NULL;
}

typedef struct {
    vb_plan plan;
    int begun;
    vb_truth *truth;
    vb_metrics m;
    int live;                 /* still taking steps of its own */
    unsigned long long evals; /* its start's evaluations, then the lanes' at its end */
} lane;

int vb_simulate_lanes(const vb_run_spec *specs, size_t used, vb_run_result *res, char *err,
                      size_t errlen)
{
    const vb_integrator *integ = specs[0].integ;
    const vb_model *model = specs[0].model;
    const vb_model_type *type = model->type;
    const vb_integrator_lanes *gl = vb_integrator_lanes_of(integ);
    size_t n = model->n;
    lane L[VB_LANES];
    void *state = NULL, *scalar = NULL, *lane0 = NULL;
    double *buf = NULL;
    vb_lane_row *X = NULL;
    int rc = -1;

    memset(L, 0, sizeof L);
    if (used < 1 || used > VB_LANES || !gl) {
        snprintf(err, errlen, "internal: %zu lanes of %s", used, integ->name);
        return -1;
    }
    for (size_t i = 0; i < used; i++)
        if (specs[i].integ != integ || specs[i].model != model || specs[i].trajectory ||
            specs[i].on_step) {
            snprintf(err, errlen, "internal: lanes must share integrator and model");
            return -1;
        }
    size_t ssize = integ->state_size(n);
    state = calloc(1, gl->state_size(n));
    scalar = calloc(1, ssize);
    lane0 = calloc(1, ssize);
    buf = malloc(7 * n * sizeof *buf); /* x0 v0 xe ve x v, and the force's gather */
    X = malloc(2 * n * sizeof *X);
    double *scratch = malloc(3 * n * sizeof *scratch);
    if (!state || !scalar || !lane0 || !buf || !X || !scratch) {
        free(scratch);
        snprintf(err, errlen, "out of memory for the lanes of %s", integ->name);
        goto done;
    }
    for (size_t i = 0; i < used; i++) {
        memset(&res[i], 0, sizeof res[i]);
        if (!(L[i].truth = vb_truth_alloc(model))) {
            snprintf(err, errlen, "out of memory for the exact solution of %s", type->name);
            free(scratch);
            goto done;
        }
        if (vb_plan_begin(&L[i].plan, &specs[i].plan) != 0) {
            snprintf(err, errlen, "out of memory for the random generator");
            free(scratch);
            goto done;
        }
        L[i].begun = 1;
    }

    double *x0 = buf, *v0 = buf + n, *xe = buf + 2 * n, *ve = buf + 3 * n, *x = buf + 4 * n,
           *v = buf + 5 * n;
    vb_lane_row *V = X + n;
    double t[VB_LANES], h[VB_LANES], t_next[VB_LANES] = {0};
    size_t live = 0;
    type->initial(model->self, x0, v0);
    for (size_t i = 0; i < used; i++) {
        vb_metrics_init(&L[i].m, model, x0, v0);
        res[i].status = VB_STATUS_OK;
        t[i] = 0.0;
        h[i] = 0.0;
        if (vb_plan_next(&L[i].plan, &h[i], &t_next[i])) {
            /* the start as a scalar run makes it, then into lane i */
            vb_force sf = vb_model_force(model);
            memset(scalar, 0, ssize);
            integ->start(scalar, &sf, 0.0, x0, v0, h[i]);
            gl->load(state, i, scalar);
            if (i == 0)
                memcpy(lane0, scalar, ssize);
            L[i].evals = sf.evals;
            L[i].live = 1;
            live++;
        }
    }

    /* lanes not in use copy lane 0's start (lanes.h) */
    for (size_t i = used; i < VB_LANES; i++) {
        gl->load(state, i, lane0);
        t[i] = 0.0;
        h[i] = h[0];
    }
    vb_force_lanes f = {model->accel_lanes, type->accel, model->self, n, used, 0, scratch};
    while (live) {
        /* a lane that has stopped steps on with its last step: nothing it
         * computes is read again, and no lane reads another's slots */
        gl->step(state, &f, t, h);
        gl->observe(state, used, X, V);
        for (size_t i = 0; i < used; i++) {
            if (!L[i].live)
                continue;
            res[i].steps++;
            t[i] = t_next[i];
            for (size_t c = 0; c < n; c++) {
                x[c] = X[c][i];
                v[c] = V[c][i];
            }
            if (!vb_all_finite(x, v, n))
                res[i].status = VB_STATUS_DIVERGED;
            else if (vb_truth_at(L[i].truth, t[i], xe, ve) != 0 || !vb_all_finite(xe, ve, n))
                res[i].status = VB_STATUS_EXACT_FAILED;
            else {
                const char *bad = vb_metrics_add(&L[i].m, x, v, xe, ve);
                if (bad)
                    vb_run_unmeasurable(&res[i], bad);
            }
            if (res[i].status != VB_STATUS_OK || !vb_plan_next(&L[i].plan, &h[i], &t_next[i])) {
                L[i].live = 0;
                L[i].evals += f.evals;
                live--;
                vb_run_finish(model, &specs[i].plan, &L[i].plan, &L[i].m, x, L[i].evals,
                              L[i].truth, &res[i]);
            }
        }
    }
    free(scratch);
    rc = 0;
done:
    for (size_t i = 0; i < used; i++) {
        if (L[i].begun)
            vb_plan_end(&L[i].plan);
        vb_truth_free(L[i].truth);
    }
    free(state);
    free(scalar);
    free(lane0);
    free(buf);
    free(X);
    return rc;
}
