/* integrators/shake.c — SHAKE (Ryckaert, Ciccotti and Berendsen, 1977):
 * position Verlet whose rods' forces are solved for, not relaxed.  The
 * update is variable-step Stormer-Verlet's (verlet-var),
 *     x~ = x_n + (x_n - x_{n-1}) h/h' + a_n h (h + h')/2,
 * which is the classic SHAKE step when the steps are equal; then each rod
 * is corrected along its direction at x_n until every length is within
 * tol of its L: by Newton on the rods' banded equations, or by the classic
 * sweeps, rod by rod (shake:solver=sweeps; constrain.h).  That correction
 * is h (h + h')/2 times the rods' forces, M^-1 G(x_n)^T lambda, with
 * lambda solved to tol.  The velocity is implied by the positions
 * (cpvfamily.h).  A step that does not converge in 100000 sweeps makes the
 * run diverged. */
#include "constrain.h"
#include "cpvfamily.h"

#include <math.h>

static void step(void *st, vb_force *f, double t, double h)
{
    vb_cpv_step_with(st, f, t, h, vb_pv_coeffs_verlet_var, vb_cpv_shake);
}

static void reverse(void *st) { vb_cpv_reverse_with(st, vb_cpv_shake); }

static const vb_param_spec params[] = {
    {"tol", 1e-10, 0.0, 1e-2, 1, 0,
     "relative tolerance of every rod's length, 0 < tol <= 0.01; one finer than the "
     "positions' round-off stops at that", 0},
    VB_CONSTRAIN_SOLVER_PARAM,
};

const vb_integrator vb_integrator_shake = {
    .name = "shake",
    .summary = "SHAKE: variable-step Stormer-Verlet, each rod corrected along its old "
               "direction until its length is within tol (shake:tol=t, default 1e-10), "
               "solved directly or by sweeps (shake:solver=sweeps); constrained",
    .order = 2,
    .flags = VB_SYMPLECTIC | VB_HISTORY | VB_CONSTRAINED,
    .state_size = vb_cpv_state_size,
    .start = vb_cpv_start,
    .start_history = vb_cpv_start_history,
    .step = step,
    .observe = vb_cpv_observe,
    .reverse = reverse,
    .params = params,
    .n_params = 2,
    .set_params = vb_cpv_set_tol,
};
