/* integrator_verlet_naive.c — position Verlet started from
 * x_{-1} = x_0 - v_0 h_0, the start seed 002 warns about.  Dropping the
 * a h^2/2 term costs a whole order. */
#include "pvfamily.h"

static void step(void *st, vb_force *f, double t, double h)
{
    vb_pv_advance(st, f, t, h, 1.0, h * h);
}

const vb_integrator vb_integrator_verlet_naive = {
    .name = "verlet-naive",
    .summary = "position Verlet started from x- = x0 - v0 h (the article's wrong start)",
    .order = 1,
    .flags = VB_SYMPLECTIC | VB_HISTORY,
    .state_size = sizeof(vb_pv_state),
    .start = vb_pv_start_naive,
    .start_history = vb_pv_start_history,
    .step = step,
    .observe = vb_pv_observe,
    .reverse = vb_pv_reverse,
};
