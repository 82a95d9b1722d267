/* adaptive.h — what the adaptive methods (rkf45, rk8pd) share: GSL's
 * gsl_odeiv2 evolve, step and control on y = (x, v), driven frame by frame.
 * Each method's file names only its GSL step type. */
#ifndef VB_ADAPTIVE_H
#define VB_ADAPTIVE_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

#include "verletbench.h"

/* A run's internal steps are capped: a tolerance the method cannot meet (a
 * singularity, round-off) would otherwise shrink its steps without end.  A
 * run that reaches the cap reports NaN, so the harness says diverged, and
 * says why (vb_force.stopped), as SHAKE does. */
#define VB_ADAPTIVE_MAX_STEPS 100000000ULL
#define VB_ADAPTIVE_CAPPED                                                                        \
    "the adaptive method reached its cap of 1e8 internal steps in one run: its tolerance "        \
    "(tol) is finer than it can reach here in that many (round-off at this scale, or a force "   \
    "this stiff); loosen tol, or shorten t_end"
#define VB_ADAPTIVE_STEP_ZERO                                                                     \
    "the adaptive method cannot meet its tolerance (tol) with a step that still moves t: tol "   \
    "is finer than round-off at this scale; loosen tol"
#define VB_ADAPTIVE_GSL_FAILED "GSL's gsl_odeiv2_evolve_apply failed (out of memory?)"

typedef struct vb_adaptive_state {
    size_t n;                 /* N: y holds 2N */
    double tol;               /* absolute and relative, as GSL's y control */
    double h_want;            /* the step the control asks for next */
    unsigned long long taken; /* accepted internal steps */
    gsl_odeiv2_step *step;    /* owned: allocated by start, freed by finish */
    gsl_odeiv2_control *control;
    gsl_odeiv2_evolve *evolve;
    double y[]; /* x[N], v[N] */
} vb_adaptive_state;

size_t vb_adaptive_state_size(size_t n);
void vb_adaptive_set_tolerance(void *st, double tol);
/* Allocate the GSL objects for type (the first start of a state; a second
 * start reuses them).  On no memory the state is NaN: the run diverges. */
void vb_adaptive_start(void *st, vb_force *f, double t, const double *x, const double *v,
                       double h, const gsl_odeiv2_step_type *type);
void vb_adaptive_step(void *st, vb_force *f, double t, double h);
void vb_adaptive_observe(const void *st, double *x, double *v);
void vb_adaptive_reverse(void *st);
void vb_adaptive_finish(void *st);

#endif
