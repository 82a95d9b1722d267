/* pvfamily.h — what the position-Verlet family (verlet, verlet-naive, tcv,
 * verlet-var) shares: its state and its start, velocity and reversal rules
 * (docs/method.md §2).  Each member's own file supplies only its update.
 *
 * The state keeps x_n and the last displacement d_n = x_n - x_{n-1} rather
 * than x_{n-1}.  In exact arithmetic the update
 *     x_{n+1} = x_n + (x_n - x_{n-1}) r + a_n c      (r, c per method)
 * is the same either way; in floating point the summed form
 *     d_{n+1} = d_n r + a_n c,   x_{n+1} = x_n + d_{n+1}
 * never subtracts two nearly equal positions, so round-off grows like
 * sqrt(N) eps instead of N^1.5 eps, and the reported velocity d/h' loses no
 * digits to cancellation (Hairer, Lubich and Wanner, Geometric Numerical
 * Integration, VIII.5).  The harness measures the method's truncation
 * error, not the round-off of one way of writing it.
 */
#ifndef VB_PVFAMILY_H
#define VB_PVFAMILY_H

#include "verletbench.h"

/* N, h_{n-1}, then x_n, d_n = x_n - x_{n-1}, a_n, and room for the
 * backward-difference velocity a velocity-dependent force is given */
typedef struct vb_pv_state {
    size_t n;
    double hp;
    double data[];
} vb_pv_state;

enum { VB_PV_X, VB_PV_D, VB_PV_A, VB_PV_VB, VB_PV_VECTORS };

static inline double *vb_pv_vec(vb_pv_state *s, int k) { return s->data + (size_t)k * s->n; }

size_t vb_pv_state_size(size_t n);

/* a_n; velocity-dependent forces see the backward difference d_n / h' */
static inline void vb_pv_accel(vb_pv_state *s, vb_force *f, double t)
{
    double *x = vb_pv_vec(s, VB_PV_X), *d = vb_pv_vec(s, VB_PV_D), *vb = vb_pv_vec(s, VB_PV_VB);
    for (size_t i = 0; i < s->n; i++)
        vb[i] = d[i] / s->hp;
    vb_force_eval(f, t, x, vb, vb_pv_vec(s, VB_PV_A));
}

/* d <- d r + a c;  x <- x + d;  then a at the new point */
static inline void vb_pv_advance(vb_pv_state *s, vb_force *f, double t, double h, double r,
                                 double c)
{
    double *x = vb_pv_vec(s, VB_PV_X), *d = vb_pv_vec(s, VB_PV_D), *a = vb_pv_vec(s, VB_PV_A);
    for (size_t i = 0; i < s->n; i++) {
        d[i] = d[i] * r + a[i] * c;
        x[i] += d[i];
    }
    s->hp = h;
    vb_pv_accel(s, f, t + h);
}

/* A member's update coefficients r and c for steps h and h' (= hp). */
typedef void vb_pv_coeffs_fn(double h, double hp, double *r, double *c);

/* The members' coefficients, shared with their constrained versions
 * (cpvfamily.h); inline, so a lane loop that takes one compiles it in. */
/* verlet, verlet-naive: x+ = 2x - x- + a h^2, blind to a change of step */
static inline void vb_pv_coeffs_verlet(double h, double hp, double *r, double *c)
{
    (void)hp;
    *r = 1.0;
    *c = h * h;
}

/* tcv (Dummer 2005, eq. 7): x+ = x + (x - x-) h/h' + a h^2 */
static inline void vb_pv_coeffs_tcv(double h, double hp, double *r, double *c)
{
    *r = h / hp;
    *c = h * h;
}

/* verlet-var, variable-step Stormer-Verlet: x+ = x + (x - x-) h/h' + a h (h + h')/2 */
static inline void vb_pv_coeffs_verlet_var(double h, double hp, double *r, double *c)
{
    *r = h / hp;
    *c = h * (h + hp) * 0.5;
}

static inline void vb_pv_step_with(vb_pv_state *s, vb_force *f, double t, double h,
                                   vb_pv_coeffs_fn *coeffs)
{
    double r, c;
    coeffs(h, s->hp, &r, &c);
    vb_pv_advance(s, f, t, h, r, c);
}

/* The Taylor start (Dummer 2005, eq. 2): x_{-1} = x_0 - v_0 h + a_0 h^2/2, so the
 * first step is x_1 = x_0 + v_0 h + a_0 h^2/2; h_{-1} := h_0. */
void vb_pv_start_taylor(void *st, vb_force *f, double t, const double *x, const double *v,
                        double h);
/* The naive start x_{-1} = x_0 - v_0 h. */
void vb_pv_start_naive(void *st, vb_force *f, double t, const double *x, const double *v,
                       double h);
/* From exact history x(t - h_prev), x(t), for one-step errors. */
void vb_pv_start_history(void *st, vb_force *f, double t, const double *x, const double *v,
                         const double *x_prev, double h_prev, double h);
/* v_n = (x_n - x_{n-1})/h' + a_n h'/2 (docs/method.md §2) */
void vb_pv_observe(const void *st, double *x, double *v);
/* Swap past and future; the reported velocity becomes -v_n. */
void vb_pv_reverse(void *st);

#endif
