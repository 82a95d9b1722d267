/* integrators/tcv_jakobsen.c — Dummer's time-corrected Verlet with
 * Jakobsen's projection: what a game engine with variable frame times and
 * rods does.  x~ = x_n + (x_n - x_{n-1}) h/h' + a_n h^2 under the applied
 * force alone, then `sweeps` sweeps of relaxation over the rods
 * (constrain.h).  The velocity is implied by the positions (cpvfamily.h). */
#include "cpvfamily.h"

static void step(void *st, vb_force *f, double t, double h)
{
    vb_cpv_step_with(st, f, t, h, vb_pv_coeffs_tcv, vb_cpv_relax);
}

static void reverse(void *st) { vb_cpv_reverse_with(st, vb_cpv_relax); }

const vb_integrator vb_integrator_tcv_jakobsen = {
    .name = "tcv-jakobsen",
    .summary = "time-corrected Verlet, then k sweeps of Jakobsen's relaxation "
               "(tcv-jakobsen:sweeps=k, default 1); constrained",
    .order = 2,
    .flags = VB_HISTORY | VB_CONSTRAINED,
    .state_size = vb_cpv_state_size,
    .start = vb_cpv_start,
    .start_history = vb_cpv_start_history,
    .step = step,
    .observe = vb_cpv_observe,
    .reverse = reverse,
    .params = vb_cpv_relax_params,
    .n_params = VB_CPV_RELAX_PARAMS,
    .set_params = vb_cpv_set_relax,
};
