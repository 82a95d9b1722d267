/* integrators/rk4.c — classical fourth-order Runge-Kutta on y = (x, v),
 * four force evaluations a step: the high-order reference.
 *
 * Written out rather than taken from GSL: gsl_odeiv2_step_rk4 estimates its
 * error by step doubling, so one of its steps of h is two classical steps of
 * h/2 (11 evaluations), not the classical method (docs/method.md §2).  The tests check
 * that two of these steps of h/2 reproduce GSL's step of h. */
#include "xvstate.h"

/* x, v, then the stages: x2 v2 x3 v3 x4 v4 a1 a2 a3 a4 */
enum { X2 = 2, V2, X3, V3, X4, V4, A1, A2, A3, A4, N_VECTORS };

static size_t state_size(size_t n) { return vb_xv_size(n, N_VECTORS - 2); }

static void step(void *st, vb_force *f, double t, double h)
{
    vb_xv_state *s = st;
    size_t n = s->n;
    double *x = vb_xv_vec(s, 0), *v = vb_xv_vec(s, 1);
    double *x2 = vb_xv_vec(s, X2), *v2 = vb_xv_vec(s, V2), *x3 = vb_xv_vec(s, X3),
           *v3 = vb_xv_vec(s, V3), *x4 = vb_xv_vec(s, X4), *v4 = vb_xv_vec(s, V4);
    double *a1 = vb_xv_vec(s, A1), *a2 = vb_xv_vec(s, A2), *a3 = vb_xv_vec(s, A3),
           *a4 = vb_xv_vec(s, A4);
    double half = 0.5 * h;

    /* stage k_j = (v_j, a_j) with x_j, v_j the stage point */
    vb_force_eval(f, t, x, v, a1);
    for (size_t i = 0; i < n; i++) {
        x2[i] = x[i] + half * v[i];
        v2[i] = v[i] + half * a1[i];
    }
    vb_force_eval(f, t + half, x2, v2, a2);
    for (size_t i = 0; i < n; i++) {
        x3[i] = x[i] + half * v2[i];
        v3[i] = v[i] + half * a2[i];
    }
    vb_force_eval(f, t + half, x3, v3, a3);
    for (size_t i = 0; i < n; i++) {
        x4[i] = x[i] + h * v3[i];
        v4[i] = v[i] + h * a3[i];
    }
    vb_force_eval(f, t + h, x4, v4, a4);
    double sixth = h / 6.0;
    for (size_t i = 0; i < n; i++) {
        x[i] += sixth * (v[i] + 2.0 * v2[i] + 2.0 * v3[i] + v4[i]);
        v[i] += sixth * (a1[i] + 2.0 * a2[i] + 2.0 * a3[i] + a4[i]);
    }
}

const vb_integrator vb_integrator_rk4 = {
    .name = "rk4",
    .summary = "classical Runge-Kutta 4 on (x, v); 4 force evaluations a step",
    .order = 4,
    .flags = 0,
    .state_size = state_size,
    .start = vb_xv_start,
    .start_history = NULL,
    .step = step,
    .observe = vb_xv_observe,
    .reverse = vb_xv_reverse,
};
