/* pvfamily.c — start, velocity and reversal of the position-Verlet family. */
#include "pvfamily.h"

#include <string.h>

size_t vb_pv_state_size(size_t n)
{
    return sizeof(vb_pv_state) + VB_PV_VECTORS * n * sizeof(double);
}

static void start(vb_pv_state *s, vb_force *f, double t, const double *x0, const double *v0,
                  double h, double a_weight)
{
    s->n = f->n;
    s->hp = h;
    double *x = vb_pv_vec(s, VB_PV_X), *d = vb_pv_vec(s, VB_PV_D), *a = vb_pv_vec(s, VB_PV_A);
    vb_force_eval(f, t, x0, v0, a);
    for (size_t i = 0; i < s->n; i++) {
        x[i] = x0[i];
        d[i] = v0[i] * h - a_weight * a[i] * h * h;
    }
}

void vb_pv_start_taylor(void *st, vb_force *f, double t, const double *x, const double *v,
                        double h)
{
    start(st, f, t, x, v, h, 0.5);
}

void vb_pv_start_naive(void *st, vb_force *f, double t, const double *x, const double *v,
                       double h)
{
    start(st, f, t, x, v, h, 0.0);
}

void vb_pv_start_history(void *st, vb_force *f, double t, const double *x0, const double *v0,
                         const double *x_prev, double h_prev, double h)
{
    (void)v0;
    (void)h;
    vb_pv_state *s = st;
    s->n = f->n;
    s->hp = h_prev;
    double *x = vb_pv_vec(s, VB_PV_X), *d = vb_pv_vec(s, VB_PV_D);
    for (size_t i = 0; i < s->n; i++) {
        x[i] = x0[i];
        d[i] = x0[i] - x_prev[i];
    }
    vb_pv_accel(s, f, t);
}

void vb_pv_observe(const void *st, double *x, double *v)
{
    const vb_pv_state *s = st;
    const double *sx = s->data, *d = s->data + s->n, *a = s->data + 2 * s->n;
    for (size_t i = 0; i < s->n; i++) {
        x[i] = sx[i];
        v[i] = d[i] / s->hp + 0.5 * a[i] * s->hp;
    }
}

/* The new "previous" position is the one a step of h' would reach,
 * x_n + d_n + a_n h'^2 — the same for every member, since r = 1 and
 * c = h'^2 when h = h'.  Then d/h' + a h'/2 = -v_n exactly. */
void vb_pv_reverse(void *st)
{
    vb_pv_state *s = st;
    double *d = vb_pv_vec(s, VB_PV_D), *a = vb_pv_vec(s, VB_PV_A);
    for (size_t i = 0; i < s->n; i++)
        d[i] = -(d[i] + a[i] * s->hp * s->hp);
}
