/* integrators/verlet.c — original position Verlet,
 * x_{n+1} = 2x_n - x_{n-1} + a_n h^2 with the Taylor start.  With varying
 * steps it still assumes h = h' (Dummer 2005). */
#include "pvfamily.h"

/* r = 1, c = h^2: the step is taken as if h' = h */
static void step(void *st, vb_force *f, double t, double h)
{
    vb_pv_step_with(st, f, t, h, vb_pv_coeffs_verlet);
}

const vb_integrator vb_integrator_verlet = {
    .name = "verlet",
    .summary = "position Verlet x+ = 2x - x- + a h^2, Taylor start; ignores step changes",
    .order = 2,
    .flags = VB_SYMPLECTIC | VB_HISTORY,
    .state_size = vb_pv_state_size,
    .start = vb_pv_start_taylor,
    .start_history = vb_pv_start_history,
    .step = step,
    .observe = vb_pv_observe,
    .reverse = vb_pv_reverse,
};
