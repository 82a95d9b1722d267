/* frameloop.c — a frame loop run and measured: its physics states at
 * their times, its drawn states at the frames'. */
#include "frameloop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int vb_frameloop_init(vb_frameloop *fl, const vb_loop *l, const vb_model *model, int level)
{
    memset(fl, 0, sizeof *fl);
    int rc = vb_loop_run_init(&fl->run, l, model->n, level);
    fl->truth = vb_truth_alloc(model);
    fl->xe = malloc(2 * model->n * sizeof *fl->xe);
    if (fl->xe)
        fl->ve = fl->xe + model->n;
    fl->m.model = model;
    int rigid_ok = 1;
    if (vb_rigid_body_of(model))
        rigid_ok = (fl->rigid = calloc(1, sizeof *fl->rigid)) != NULL;
    return rc == 0 && fl->truth && fl->xe && rigid_ok ? 0 : -1;
}

void vb_frameloop_free(vb_frameloop *fl)
{
    if (fl->run.state)
        vb_loop_run_free(&fl->run, fl->started);
    vb_truth_free(fl->truth);
    free(fl->xe);
    free(fl->rigid);
    memset(fl, 0, sizeof *fl);
}

void vb_frameloop_start(vb_frameloop *fl, vb_force *f, const double *x0, const double *v0,
                        double h)
{
    vb_metrics_init(&fl->m, fl->m.model, x0, v0);
    if (fl->rigid)
        vb_rigid_metrics_init(fl->rigid, vb_rigid_body_of(fl->m.model));
    fl->draw_count = 1; /* t_0, drawn exactly */
    vb_loop_run_start(&fl->run, f, x0, v0, h);
    fl->started = 1;
}

vb_frame_status vb_frameloop_frame(vb_frameloop *fl, vb_force *f, double t_frame, double h,
                                   double *x, double *v, const char **bad)
{
    vb_loop_frame fr;
    double t;
    size_t n = fl->run.n;
    vb_loop_frame_begin(&fl->run, &fr, t_frame, h);
    while (vb_loop_frame_step(&fl->run, &fr, f, &t)) {
        fl->steps++;
        const double *cx = fl->run.cur, *cv = fl->run.cur + n;
        for (size_t i = 0; i < n; i++)
            if (!isfinite(cx[i]) || !isfinite(cv[i]))
                return VB_FRAME_DIVERGED;
        if (vb_truth_at(fl->truth, t, fl->xe, fl->ve) != 0)
            return VB_FRAME_NO_TRUTH;
        for (size_t i = 0; i < n; i++)
            if (!isfinite(fl->xe[i]) || !isfinite(fl->ve[i]))
                return VB_FRAME_NO_TRUTH;
        if ((*bad = vb_metrics_add(&fl->m, cx, cv, fl->xe, fl->ve)) != NULL)
            return VB_FRAME_UNMEASURABLE;
        if (fl->rigid &&
            (*bad = vb_rigid_metrics_add(fl->rigid, t, cx, cv, fl->xe, fl->ve)) != NULL)
            return VB_FRAME_UNMEASURABLE;
    }
    vb_loop_draw(&fl->run, x, v);
    return VB_FRAME_OK;
}

const char *vb_frameloop_draw_add(vb_frameloop *fl, const double *x, const double *xe)
{
    double e = vb_distance(x, xe, fl->run.n);
    if (!isfinite(e))
        return "drawn-state error";
    fl->draw_count++;
    if (e > fl->draw_max)
        fl->draw_max = e;
    /* the sum of squares as scale^2 * ss, as metrics.c keeps err_pos_rms */
    if (e > fl->draw_rms_scale) {
        double r = fl->draw_rms_scale / e;
        fl->draw_rms_ss = 1.0 + fl->draw_rms_ss * r * r;
        fl->draw_rms_scale = e;
    } else if (e > 0.0) {
        double r = e / fl->draw_rms_scale;
        fl->draw_rms_ss += r * r;
    }
    return NULL;
}

double vb_frameloop_draw_rms(const vb_frameloop *fl)
{
    return fl->draw_rms_scale * sqrt(fl->draw_rms_ss / (double)fl->draw_count);
}
