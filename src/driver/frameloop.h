/* frameloop.h — a frame loop's run against the truth (docs/method.md §9):
 * the loop (loop.h) takes its physics steps, each measured at its own time
 * as any run's steps are (the existing metrics stay those of the physics
 * state), and the state each frame draws is measured at the frame's time:
 * err_draw_max, err_draw_rms, and the time a clamp dropped (lag_max).
 * driver/runner.c runs a loop's entry through this a frame at a time. */
#ifndef VB_FRAMELOOP_H
#define VB_FRAMELOOP_H

#include "loop.h"
#include "metrics.h"
#include "model.h"
#include "rigid_metrics.h"
#include "truth.h"

typedef struct vb_frameloop {
    vb_loop_run run;
    vb_truth *truth;      /* at the physics times, its own: they are not the frames' */
    vb_metrics m;         /* the physics state's errors */
    /* a rigid body's besides (rigid_metrics.h), at the physics steps; NULL
     * for a particle model */
    vb_rigid_metrics *rigid;
    double *xe, *ve;      /* the truth at a physics time */
    double draw_max, draw_rms_scale, draw_rms_ss; /* the drawn position's error */
    unsigned long long draw_count, steps;         /* frame points t_0 .. t_N; physics steps */
    int started;
} vb_frameloop;

/* 0, or -1 out of memory (vb_frameloop_free either way). */
int vb_frameloop_init(vb_frameloop *fl, const vb_loop *l, const vb_model *model, int level);
void vb_frameloop_free(vb_frameloop *fl);

/* Start from (x0, v0) at t = 0, the first frame's dt h. */
void vb_frameloop_start(vb_frameloop *fl, vb_force *f, const double *x0, const double *v0,
                        double h);

/* What a frame can end in. */
typedef enum {
    VB_FRAME_OK,
    VB_FRAME_DIVERGED,   /* a physics state not finite */
    VB_FRAME_NO_TRUTH,   /* the truth at a physics time could not be computed */
    VB_FRAME_UNMEASURABLE /* *bad names the error that is not finite */
} vb_frame_status;

/* The frame that ends at t_frame (its dt h): its physics steps measured,
 * then the state it draws into (x, v). */
vb_frame_status vb_frameloop_frame(vb_frameloop *fl, vb_force *f, double t_frame, double h,
                                   double *x, double *v, const char **bad);

/* The drawn position x against the truth xe at the frame's time: NULL, or
 * the name of an error that is not finite. */
const char *vb_frameloop_draw_add(vb_frameloop *fl, const double *x, const double *xe);

double vb_frameloop_draw_rms(const vb_frameloop *fl);

#endif
