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

#include "lanes.h"
#include "verletbench.h"

typedef struct vb_pv_state {
    unsigned dim;
    double x[VB_MAX_DIM]; /* x_n */
    double d[VB_MAX_DIM]; /* x_n - x_{n-1} */
    double a[VB_MAX_DIM]; /* a_n */
    double hp;            /* h_{n-1} */
} vb_pv_state;

/* a_n; velocity-dependent forces see the backward difference d_n / h' */
static inline void vb_pv_accel(vb_pv_state *s, vb_force *f, double t)
{
    double vb[VB_MAX_DIM];
    for (unsigned i = 0; i < s->dim; i++)
        vb[i] = s->d[i] / s->hp;
    vb_force_eval(f, t, s->x, vb, s->a);
}

/* d <- d r + a c;  x <- x + d;  then a at the new point */
static inline void vb_pv_advance(vb_pv_state *s, vb_force *f, double t, double h, double r,
                                 double c)
{
    for (unsigned i = 0; i < s->dim; i++) {
        s->d[i] = s->d[i] * r + s->a[i] * c;
        s->x[i] += s->d[i];
    }
    s->hp = h;
    vb_pv_accel(s, f, t + h);
}

/* A member's update coefficients r and c for steps h and h' (= hp). */
typedef void vb_pv_coeffs_fn(double h, double hp, double *r, double *c);

static inline void vb_pv_step_with(vb_pv_state *s, vb_force *f, double t, double h,
                                   vb_pv_coeffs_fn *coeffs)
{
    double r, c;
    coeffs(h, s->hp, &r, &c);
    vb_pv_advance(s, f, t, h, r, c);
}

/* The same in lanes (lanes.h). */
typedef struct vb_pv_lanes {
    vb_lane_vec x, d, a;
    double hp[VB_LANES];
} vb_pv_lanes;

void vb_pv_load(void *lanes, size_t i, const void *scalar_state);
void vb_pv_observe_lanes(const void *lanes, size_t n, vb_lane_vec x, vb_lane_vec v);

/* vb_pv_advance of every lane, with each lane's coefficients */
static inline void vb_pv_step_lanes_with(void *restrict st, vb_force_lanes *restrict f,
                                         const double *restrict t, const double *restrict h,
                                         vb_pv_coeffs_fn *coeffs)
{
    vb_pv_lanes *s = st;
    double r[VB_LANES], c[VB_LANES], th[VB_LANES];
    vb_lane_vec vb;
    for (size_t i = 0; i < VB_LANES; i++) {
        coeffs(h[i], s->hp[i], &r[i], &c[i]);
        th[i] = t[i] + h[i];
    }
    for (unsigned d = 0; d < f->dim; d++)
        for (size_t i = 0; i < VB_LANES; i++) {
            s->d[d][i] = s->d[d][i] * r[i] + s->a[d][i] * c[i];
            s->x[d][i] += s->d[d][i];
        }
    for (size_t i = 0; i < VB_LANES; i++)
        s->hp[i] = h[i];
    for (unsigned d = 0; d < f->dim; d++)
        for (size_t i = 0; i < VB_LANES; i++)
            vb[d][i] = s->d[d][i] / s->hp[i];
    vb_force_lanes_eval(f, th, s->x, vb, s->a);
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
