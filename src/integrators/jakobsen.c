/* integrators/jakobsen.c — position Verlet with Jakobsen's projection (T.
 * Jakobsen, "Advanced Character Physics", GDC 2001), what cloth, rope and
 * ragdoll code does: x~ = 2 x_n - x_{n-1} + a_n h^2 under the applied force
 * alone, then `sweeps` sweeps of relaxation over the rods (constrain.h).
 * Like plain verlet it ignores a change of step.  The velocity is implied
 * by the positions (cpvfamily.h). */
#include "cpvfamily.h"

static void step(void *st, vb_force *f, double t, double h)
{
    vb_cpv_step_with(st, f, t, h, vb_pv_coeffs_verlet, vb_cpv_relax);
}

static void reverse(void *st) { vb_cpv_reverse_with(st, vb_cpv_relax); }

const vb_integrator vb_integrator_jakobsen = {
    .name = "jakobsen",
    .summary = "position Verlet, then k sweeps of Jakobsen's relaxation onto the rods "
               "(jakobsen:sweeps=k, default 1); constrained",
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
