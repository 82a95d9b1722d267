/* pvfamily.c — start, velocity and reversal of the position-Verlet family. */
#include "pvfamily.h"

static void start(vb_pv_state *s, vb_force *f, double t, const double *x, const double *v,
                  double h, double a_weight)
{
    s->dim = f->dim;
    s->hp = h;
    vb_force_eval(f, t, x, v, s->a);
    for (unsigned i = 0; i < s->dim; i++) {
        s->x[i] = x[i];
        s->d[i] = v[i] * h - a_weight * s->a[i] * h * h;
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

void vb_pv_start_history(void *st, vb_force *f, double t, const double *x, const double *v,
                         const double *x_prev, double h_prev, double h)
{
    (void)v;
    (void)h;
    vb_pv_state *s = st;
    s->dim = f->dim;
    s->hp = h_prev;
    for (unsigned i = 0; i < s->dim; i++) {
        s->x[i] = x[i];
        s->d[i] = x[i] - x_prev[i];
    }
    vb_pv_accel(s, f, t);
}

void vb_pv_observe(const void *st, double *x, double *v)
{
    const vb_pv_state *s = st;
    for (unsigned i = 0; i < s->dim; i++) {
        x[i] = s->x[i];
        v[i] = s->d[i] / s->hp + 0.5 * s->a[i] * s->hp;
    }
}

/* The new "previous" position is the one a step of h' would reach,
 * x_n + d_n + a_n h'^2 — the same for every member, since r = 1 and
 * c = h'^2 when h = h'.  Then d/h' + a h'/2 = -v_n exactly. */
void vb_pv_reverse(void *st)
{
    vb_pv_state *s = st;
    for (unsigned i = 0; i < s->dim; i++)
        s->d[i] = -(s->d[i] + s->a[i] * s->hp * s->hp);
}

void vb_pv_load(void *lanes, size_t i, const void *scalar_state)
{
    vb_pv_lanes *l = lanes;
    const vb_pv_state *s = scalar_state;
    for (unsigned d = 0; d < s->dim; d++) {
        l->x[d][i] = s->x[d];
        l->d[d][i] = s->d[d];
        l->a[d][i] = s->a[d];
    }
    l->hp[i] = s->hp;
}

void vb_pv_observe_lanes(const void *lanes, size_t n, vb_lane_vec x, vb_lane_vec v)
{
    const vb_pv_lanes *l = lanes;
    for (unsigned d = 0; d < VB_MAX_DIM; d++)
        for (size_t i = 0; i < n; i++) {
            x[d][i] = l->x[d][i];
            v[d][i] = l->d[d][i] / l->hp[i] + 0.5 * l->a[d][i] * l->hp[i];
        }
}
