/* xvstate.c — start, report and reverse of the one-step methods. */
#include "xvstate.h"

void vb_xv_start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    (void)t;
    (void)h;
    vb_xv_state *s = st;
    s->dim = f->dim;
    for (unsigned i = 0; i < s->dim; i++) {
        s->x[i] = x[i];
        s->v[i] = v[i];
    }
}

void vb_xv_observe(const void *st, double *x, double *v)
{
    const vb_xv_state *s = st;
    for (unsigned i = 0; i < s->dim; i++) {
        x[i] = s->x[i];
        v[i] = s->v[i];
    }
}

void vb_xv_reverse(void *st)
{
    vb_xv_state *s = st;
    for (unsigned i = 0; i < s->dim; i++)
        s->v[i] = -s->v[i];
}

void vb_xv_load(void *lanes, size_t i, const void *scalar_state)
{
    vb_xv_lanes *l = lanes;
    const vb_xv_state *s = scalar_state;
    for (unsigned d = 0; d < s->dim; d++) {
        l->x[d][i] = s->x[d];
        l->v[d][i] = s->v[d];
    }
}

void vb_xv_observe_lanes(const void *lanes, size_t n, vb_lane_vec x, vb_lane_vec v)
{
    const vb_xv_lanes *l = lanes;
    for (unsigned d = 0; d < VB_MAX_DIM; d++)
        for (size_t i = 0; i < n; i++) {
            x[d][i] = l->x[d][i];
            v[d][i] = l->v[d][i];
        }
}
