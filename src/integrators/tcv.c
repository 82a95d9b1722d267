/* integrators/tcv.c — Dummer's time-corrected Verlet (J. Dummer, "A Simple
 * Time-Corrected Verlet Integration Method", 2005, eq. 7):
 *     x_{n+1} = x_n + (x_n - x_{n-1}) h/h' + a_n h^2. */
#include "pvfamily.h"

static void step(void *st, vb_force *f, double t, double h)
{
    vb_pv_step_with(st, f, t, h, vb_pv_coeffs_tcv);
}

const vb_integrator vb_integrator_tcv = {
    .name = "tcv",
    .summary = "Dummer's time-corrected Verlet x+ = x + (x - x-) h/h' + a h^2",
    .order = 2,
    .flags = VB_SYMPLECTIC | VB_HISTORY,
    .state_size = vb_pv_state_size,
    .start = vb_pv_start_taylor,
    .start_history = vb_pv_start_history,
    .step = step,
    .observe = vb_pv_observe,
    .reverse = vb_pv_reverse,
};
