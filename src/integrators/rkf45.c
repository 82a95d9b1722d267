/* integrators/rkf45.c — Runge-Kutta-Fehlberg 4(5) (GSL's rkf45): six stages; the control
 * compares the fourth- and fifth-order solutions, and GSL carries the fifth
 * (local extrapolation).
 *
 * With the error of each step held near tol and the higher-order solution
 * carried, the global error is proportional to tol: the expected exponent
 * (`order`) is 1 against the tolerance, which a sweep divides by 10 a
 * level while the frames stay at the case's dt (docs/method.md §5). */
#include "adaptive.h"

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    vb_adaptive_start(st, f, t, x, v, h, gsl_odeiv2_step_rkf45);
}

const vb_integrator vb_integrator_rkf45 = {
    .name = "rkf45",
    .summary = "GSL rkf45, adaptive: Fehlberg 4(5) at tolerance tol (atol = rtol); error ~ tol",
    .order = 1,
    .flags = VB_ADAPTIVE,
    .state_size = vb_adaptive_state_size,
    .start = start,
    .start_history = NULL,
    .step = vb_adaptive_step,
    .observe = vb_adaptive_observe,
    .reverse = vb_adaptive_reverse,
    .set_tolerance = vb_adaptive_set_tolerance,
    .finish = vb_adaptive_finish,
};
