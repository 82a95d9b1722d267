/* contactrun.h — a method inside a contact handler, run against the truth
 * (docs/contact.md): each plan step is the handler's step (contact/
 * handler.h) round the method's, the states measured as any run's are,
 * and at the end the contact's own measures (contact_metrics.h) held
 * beside the model's exact answer: per-bounce restitution, bounces and
 * rest, penetration, the slide's stop, the tunnel's passing speed at the
 * run's step.  driver/runner.c runs a METHOD+HANDLER entry through this,
 * and measures an engine's rows at a contact by it (protocol 4). */
#ifndef VB_CONTACTRUN_H
#define VB_CONTACTRUN_H

#include <stddef.h>

#include "composed.h"
#include "result.h"
#include "walls.h"

typedef struct vb_contactrun {
    const vb_composed *cm; /* NULL: an engine's rows */
    vb_model_wall wall;
    vb_force *force;
    void *state; /* the inner method's */
    size_t n;    /* N: components of x and v */
    double x[VB_CONTACT_MAX_DIM], v[VB_CONTACT_MAX_DIM];
    /* the series the measures read: t, and (bounce) the separation and
     * normal velocity, (slide) the position and velocity along the slope */
    double *t, *a, *b;
    size_t len, cap;
    int oom; /* the series could not grow: no contact measures */
} vb_contactrun;

/* 0, or -1 (the model has no contact, or out of memory).  cm NULL: the
 * states come from elsewhere, an engine's rows (vb_contactrun_observe),
 * and the tunnel's passing speed is its runner's to find. */
int vb_contactrun_init(vb_contactrun *cr, const vb_composed *cm, const vb_model *m,
                       vb_force *force);
void vb_contactrun_free(vb_contactrun *cr);
void vb_contactrun_start(vb_contactrun *cr, const double *x0, const double *v0);
/* the handler's step from t by h into (x, v): 0, or a handler error */
int vb_contactrun_step(vb_contactrun *cr, double t, double h, double *x, double *v);
/* the state (x, v) at t from elsewhere (an engine's row), in the series */
void vb_contactrun_observe(vb_contactrun *cr, double t, const double *x, const double *v);
/* the contact measures into res->contact (the run's dt in res->dt); an
 * engine's pass_speed is left NaN */
void vb_contactrun_finish(vb_contactrun *cr, vb_run_result *res);

#endif
