/* bodyrun.h — a rotation method inside a contact solver on a rigid body
 * with a contact (METHOD+SOLVER, composed.h), contactrun.h's twin for the
 * bodies of rigidcontact/ (docs/contact.md, "3D: rolling and resting
 * bodies"): each plan step is the solver's step round the method's, the
 * states read in the incline's frame (models/incline.h), and at the end
 * the contact's measures beside the model's exact answer (vb_contact_answer):
 * when and where it starts to roll, the slip after, the last phase's
 * acceleration, the creep of a body that must stick, the energy, the
 * deepest penetration.  It knows no solver: the solver's step, its keys
 * and its cache are the entry's and rigidcontact.h's. */
#ifndef VB_BODYRUN_H
#define VB_BODYRUN_H

#include <stddef.h>

#include "composed.h"
#include "result.h"

typedef struct vb_bodyrun {
    const vb_composed *cm; /* NULL: an engine's rows (vb_bodyrun_observe) */
    const vb_rigid_body *body;
    vb_body_step_fn *step; /* the rotation method's (NULL for an engine) */
    vb_body_contact contact;
    vb_contact_answer answer;
    vb_contact_body b;
    vb_contact_world w;
    vb_contact_cache cache;
    void *work; /* the exact solution's scratch */
    /* the series the measures read: t, the centre's distance down the
     * slope, its speed along it, the slip */
    double *t, *x, *v, *u;
    size_t len, cap;
    int oom;
    /* what each sample adds up as it comes: the deepest penetration, the
     * largest |E - E_exact|, the largest exact speed */
    double depth_max, energy_gap, v_exact_max;
} vb_bodyrun;

/* 1 when m is a rigid body on the ground (roll, box-incline): a body at a
 * contact whose runs these measures read */
int vb_bodyrun_applies(const vb_model *m);
/* 0, or -1 (the model has no body on the ground, or out of memory).  cm
 * NULL: the states come from elsewhere (an engine's rows, protocol 4),
 * given by vb_bodyrun_observe, and vb_bodyrun_step is not called. */
int vb_bodyrun_init(vb_bodyrun *br, const vb_composed *cm, const vb_model *m);
void vb_bodyrun_free(vb_bodyrun *br);
/* the face's state (rigid.h: x[7], v[7]) at t = 0 */
void vb_bodyrun_start(vb_bodyrun *br, const double *x0, const double *v0);
/* the solver's step from t by h into the face's (x, v): 0, or the
 * solver's code (rigidcontact.h: VB_BODY_DIVERGED, ...) */
int vb_bodyrun_step(vb_bodyrun *br, double t, double h, double *x, double *v);
/* a state the run did not step (an engine's row at t: the face's x, v),
 * recorded as a step's is */
void vb_bodyrun_observe(vb_bodyrun *br, double t, const double *x, const double *v);
/* what a solver's code says, for a diverged run's message */
const char *vb_bodyrun_why(int code);

/* What a chart draws of a body at a contact (output/'s motion.csv): its
 * state (x, v packed as its face packs them) read in the incline's frame
 * by vb_incline_read, the reading the measures are of: out[0] the
 * centre's speed along the slope v, out[1] w R, the speed the spin about
 * the rolling axis gives the centre over the lowest point (R the depth of
 * the lowest point under the centre: a ball's radius), so that the slip
 * is out[0] - out[1].  A model without a contact: NaNs. */
#define VB_BODY_PATH_WIDTH 2
void vb_body_path(const vb_rigid_body *b, const double *x, const double *v, double *out);
/* the contact measures into res->contact */
void vb_bodyrun_finish(vb_bodyrun *br, vb_run_result *res);

#endif
