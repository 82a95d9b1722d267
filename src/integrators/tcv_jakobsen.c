/* integrators/tcv_jakobsen.c — Dummer's time-corrected Verlet with
 * Jakobsen's projection: what a game engine with variable frame times and
 * rods does.  x~ = x_n + (x_n - x_{n-1}) h/h' + a_n h^2 under the applied
 * force alone, then `sweeps` sweeps of relaxation over the rods
 * (constrain.h).  The velocity is implied by the positions (cpvfamily.h). */
#include "constrain.h"
#include "cpvfamily.h"

#include <math.h>

static void coeffs(double h, double hp, double *r, double *c)
{
    *r = h / hp;
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
    .params = params,
    .n_params = 2,
    .set_params = vb_cpv_set_relax,
};
