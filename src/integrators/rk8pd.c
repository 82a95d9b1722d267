/* integrators/rk8pd.c — Prince-Dormand 8(7) (GSL's rk8pd): thirteen stages; the control
 * compares the seventh- and eighth-order solutions, and GSL carries the
 * eighth (local extrapolation).
 *
 * With the error of each step held near tol and the higher-order solution
 * carried, the global error is proportional to tol: the expected exponent
 * (`order`) is 1 against the tolerance, which a sweep divides by 10 a
 * level while the frames stay at the case's dt (docs/method.md §5). */
#include "adaptive.h"

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    vb_adaptive_start(st, f, t, x, v, h, gsl_odeiv2_step_rk8pd);
}

const vb_integrator vb_integrator_rk8pd = {
    .name = "rk8pd",
    .summary = "GSL rk8pd, adaptive: Prince-Dormand 8(7) at tolerance tol (atol = rtol); error ~ tol",
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
