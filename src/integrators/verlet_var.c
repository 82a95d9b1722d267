/* integrators/verlet_var.c — variable-step Stormer-Verlet,
 * x_{n+1} = x_n + (x_n - x_{n-1}) h/h' + a_n h (h + h')/2.  The acceleration
 * term is what TCV's a h^2 should be: with it the method is velocity Verlet
 * written in positions, exact for constant acceleration under any steps. */
#include "pvfamily.h"

static void step(void *st, vb_force *f, double t, double h)
{
    vb_pv_step_with(st, f, t, h, vb_pv_coeffs_verlet_var);
}

const vb_integrator vb_integrator_verlet_var = {
    .name = "verlet-var",
    .summary = "variable-step Stormer-Verlet x+ = x + (x - x-) h/h' + a h (h + h')/2",
    .order = 2,
    .flags = VB_SYMPLECTIC | VB_HISTORY,
    .state_size = vb_pv_state_size,
    .start = vb_pv_start_taylor,
    .start_history = vb_pv_start_history,
    .step = step,
    .observe = vb_pv_observe,
    .reverse = vb_pv_reverse,
};
