/* contact/stepper.h — an integrator of the table (verletbench.h) as the
 * handlers' step callback (handler.h): each call starts the method at
 * (x, v), takes one step of h, and reads (x, v) back.
 *
 * Started afresh at every call, a method is a one-step method: a multistep
 * method (VB_HISTORY) would lose its history at each call, and is refused;
 * so are constrained methods (VB_CONSTRAINED: a contact is not a rod).  An
 * adaptive method (VB_ADAPTIVE) is given its tolerance before each start
 * and finished after each step. */
#ifndef VB_CONTACT_STEPPER_H
#define VB_CONTACT_STEPPER_H

#include <stddef.h>

#include "verletbench.h"

typedef struct vb_contact_stepper {
    const vb_integrator *method;
    vb_force *force;
    double params[VB_MAX_INTEGRATOR_PARAMS]; /* the method's, defaults unless set */
    double tol;                              /* adaptive methods only */
    void *state;                             /* method->state_size(N) bytes */
    unsigned long long calls;                /* steps taken, for the cost of a handler */
} vb_contact_stepper;

/* 0, or -1 with a message naming the method into err.  params: the
 * method's parameters in its order, or NULL for their defaults; tol: the
 * tolerance of an adaptive method (ignored by the others).  The force and
 * the stepper must outlive every call. */
int vb_contact_stepper_init(vb_contact_stepper *s, const vb_integrator *method, vb_force *force,
                            const double *params, double tol, char *err, size_t errlen);
void vb_contact_stepper_free(vb_contact_stepper *s);

/* The callback: ctx is a vb_contact_stepper. */
int vb_contact_stepper_step(void *ctx, double *x, double *v, double t, double h);

#endif
