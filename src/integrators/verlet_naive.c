/* integrators/verlet_naive.c — position Verlet started from
 * x_{-1} = x_0 - v_0 h_0, the start Dummer (2005) warns about.  Dropping the
 * a h^2/2 term costs a whole order. */
#include "pvfamily.h"

static void step(void *st, vb_force *f, double t, double h)
{
    vb_pv_step_with(st, f, t, h, vb_pv_coeffs_verlet);
}

const vb_integrator vb_integrator_verlet_naive = {
    .name = "verlet-naive",
    .summary = "position Verlet started from x- = x0 - v0 h (the article's wrong start)",
    .order = 1,
    .flags = VB_SYMPLECTIC | VB_HISTORY,
    .state_size = vb_pv_state_size,
    .start = vb_pv_start_naive,
    .start_history = vb_pv_start_history,
    .step = step,
    .observe = vb_pv_observe,
    .reverse = vb_pv_reverse,
};
