/* integrators/yoshida4.c — Yoshida's fourth-order "triple jump" (Yoshida
 * 1990, Phys. Lett. A 150, 262): three velocity Verlet steps of w1 h, w0 h,
 * w1 h with w1 = 1/(2 - 2^(1/3)), w0 = 1 - 2 w1 (< 0: the middle step goes
 * back in time).  A symmetric composition of a symmetric second-order
 * method, so the h^3 error terms cancel: order 4, symplectic, time-reversible.
 * The acceleration at the end of one sub-step is the start of the next
 * (first same as last): 3 force evaluations a step. */
#include "xvstate.h"

/* 2^(1/3) to 17 digits; w0 + 2 w1 = 1 exactly in the algebra, and w0 is
 * computed as 1 - 2 w1 so the three sub-steps add up to h to round-off. */
#define CBRT2 1.2599210498948731648
static const double W1 = 1.0 / (2.0 - CBRT2);

/* x, v and a (the acceleration at x, kept from one sub-step to the next) */
static size_t state_size(size_t n) { return vb_xv_size(n, 1); }

static void start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    vb_xv_state *s = st;
    vb_xv_start(s, f, t, x, v, h);
    vb_force_eval(f, t, vb_xv_vec(s, 0), vb_xv_vec(s, 1), vb_xv_vec(s, 2));
}

static void step(void *st, vb_force *f, double t, double h)
{
    vb_xv_state *s = st;
    double h1 = W1 * h, h0 = (1.0 - 2.0 * W1) * h;
    vb_xv_kdk(s, f, t, h1);
    vb_xv_kdk(s, f, t + h1, h0);
    vb_xv_kdk(s, f, t + h1 + h0, h1);
}

const vb_integrator vb_integrator_yoshida4 = {
    .name = "yoshida4",
    .summary = "Yoshida's triple jump: velocity Verlet at w1 h, w0 h, w1 h; order 4, 3 evals",
    .order = 4,
    .flags = VB_SYMPLECTIC,
    .state_size = state_size,
    .start = start,
    .start_history = NULL,
    .step = step,
    .observe = vb_xv_observe,
    .reverse = vb_xv_reverse,
};
