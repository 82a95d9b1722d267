/* integrators/jakobsen.c — position Verlet with Jakobsen's projection (T.
 * Jakobsen, "Advanced Character Physics", GDC 2001), what cloth, rope and
 * ragdoll code does: x~ = 2 x_n - x_{n-1} + a_n h^2 under the applied force
 * alone, then `sweeps` sweeps of relaxation over the rods (constrain.h).
 * Like plain verlet it ignores a change of step.  The velocity is implied
 * by the positions (cpvfamily.h). */
#include "constrain.h"
#include "cpvfamily.h"

#include <math.h>

static void coeffs(double h, double hp, double *r, double *c)
{
    (void)hp;
    *r = 1.0;
    *c = h * h;
}

static void step(void *st, vb_force *f, double t, double h)
{
    vb_cpv_step_with(st, f, t, h, coeffs, vb_cpv_relax);
}

static void reverse(void *st) { vb_cpv_reverse_with(st, vb_cpv_relax); }

static const vb_param_spec params[] = {
    {"sweeps", 1, 1, 100000, 0, 0, "relaxation sweeps over the rods a step, 1 to 100000",
     VB_PARAM_INTEGER},
    /* not Jakobsen's: each correction along the rod's direction before the
     * step, as SHAKE makes it, so k sweeps are k of SHAKE's; the way to
     * see what the direction alone costs (docs/constraints.md) */
    {"along_old", 0, 0, 1, 0, 0,
     "1: correct along each rod's direction before the step (SHAKE's sweeps), 0: along its "
     "current one (Jakobsen's)",
     VB_PARAM_INTEGER},
};

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
    .params = params,
    .n_params = 2,
    .set_params = vb_cpv_set_relax,
};
