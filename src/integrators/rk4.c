/* integrators/rk4.c — classical fourth-order Runge-Kutta on y = (x, v),
 * four force evaluations a step: the high-order reference.
 *
 * Written out rather than taken from GSL: gsl_odeiv2_step_rk4 estimates its
 * error by step doubling, so one of its steps of h is two classical steps of
 * h/2 (11 evaluations), not the classical method (docs/method.md §2).  The tests check
 * that two of these steps of h/2 reproduce GSL's step of h. */
#include "xvstate.h"

static void step(void *st, vb_force *f, double t, double h)
{
    vb_xv_state *s = st;
    unsigned n = s->dim;
    double half = 0.5 * h;
    double x2[VB_MAX_DIM], v2[VB_MAX_DIM], x3[VB_MAX_DIM], v3[VB_MAX_DIM];
    double x4[VB_MAX_DIM], v4[VB_MAX_DIM];
    double a1[VB_MAX_DIM], a2[VB_MAX_DIM], a3[VB_MAX_DIM], a4[VB_MAX_DIM];

    /* stage k_j = (v_j, a_j) with x_j, v_j the stage point */
    vb_force_eval(f, t, s->x, s->v, a1);
    for (unsigned i = 0; i < n; i++) {
        x2[i] = s->x[i] + half * s->v[i];
        v2[i] = s->v[i] + half * a1[i];
    }
    vb_force_eval(f, t + half, x2, v2, a2);
    for (unsigned i = 0; i < n; i++) {
        x3[i] = s->x[i] + half * v2[i];
        v3[i] = s->v[i] + half * a2[i];
    }
    vb_force_eval(f, t + half, x3, v3, a3);
    for (unsigned i = 0; i < n; i++) {
        x4[i] = s->x[i] + h * v3[i];
        v4[i] = s->v[i] + h * a3[i];
    }
    vb_force_eval(f, t + h, x4, v4, a4);
    double sixth = h / 6.0;
    for (unsigned i = 0; i < n; i++) {
        s->x[i] += sixth * (s->v[i] + 2.0 * v2[i] + 2.0 * v3[i] + v4[i]);
        s->v[i] += sixth * (a1[i] + 2.0 * a2[i] + 2.0 * a3[i] + a4[i]);
    }
}

static void step_lanes(void *restrict st, vb_force_lanes *restrict f, const double *restrict t,
                       const double *restrict h)
{
    vb_xv_lanes *s = st;
    unsigned dim = f->dim;
    double half[VB_LANES], sixth[VB_LANES], th[VB_LANES], tf[VB_LANES];
    vb_lane_vec x2, v2, x3, v3, x4, v4, a1, a2, a3, a4;
    for (size_t i = 0; i < VB_LANES; i++) {
        half[i] = 0.5 * h[i];
        sixth[i] = h[i] / 6.0;
        th[i] = t[i] + half[i];
        tf[i] = t[i] + h[i];
    }
    vb_force_lanes_eval(f, t, s->x, s->v, a1);
    for (unsigned d = 0; d < dim; d++)
        for (size_t i = 0; i < VB_LANES; i++) {
            x2[d][i] = s->x[d][i] + half[i] * s->v[d][i];
            v2[d][i] = s->v[d][i] + half[i] * a1[d][i];
        }
    vb_force_lanes_eval(f, th, x2, v2, a2);
    for (unsigned d = 0; d < dim; d++)
        for (size_t i = 0; i < VB_LANES; i++) {
            x3[d][i] = s->x[d][i] + half[i] * v2[d][i];
            v3[d][i] = s->v[d][i] + half[i] * a2[d][i];
        }
    vb_force_lanes_eval(f, th, x3, v3, a3);
    for (unsigned d = 0; d < dim; d++)
        for (size_t i = 0; i < VB_LANES; i++) {
            x4[d][i] = s->x[d][i] + h[i] * v3[d][i];
            v4[d][i] = s->v[d][i] + h[i] * a3[d][i];
        }
    vb_force_lanes_eval(f, tf, x4, v4, a4);
    for (unsigned d = 0; d < dim; d++)
        for (size_t i = 0; i < VB_LANES; i++) {
            s->x[d][i] += sixth[i] * (s->v[d][i] + 2.0 * v2[d][i] + 2.0 * v3[d][i] + v4[d][i]);
            s->v[d][i] += sixth[i] * (a1[d][i] + 2.0 * a2[d][i] + 2.0 * a3[d][i] + a4[d][i]);
        }
}

const vb_integrator_lanes vb_integrator_rk4_lanes = {
    .state_size = sizeof(vb_xv_lanes),
    .load = vb_xv_load,
    .step = step_lanes,
    .observe = vb_xv_observe_lanes,
};

const vb_integrator vb_integrator_rk4 = {
    .name = "rk4",
    .summary = "classical Runge-Kutta 4 on (x, v); 4 force evaluations a step",
    .order = 4,
    .flags = 0,
    .state_size = sizeof(vb_xv_state),
    .start = vb_xv_start,
    .start_history = NULL,
    .step = step,
    .observe = vb_xv_observe,
    .reverse = vb_xv_reverse,
};
