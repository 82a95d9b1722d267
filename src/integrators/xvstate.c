/* xvstate.c — start, report and reverse of the one-step methods. */
#include "xvstate.h"

#include <string.h>

size_t vb_xv_size(size_t n, size_t extra)
{
    return sizeof(vb_xv_state) + (2 + extra) * n * sizeof(double);
}

size_t vb_xv_state_size(size_t n) { return vb_xv_size(n, 0); }

void vb_xv_start(void *st, vb_force *f, double t, const double *x, const double *v, double h)
{
    (void)t;
    (void)h;
    vb_xv_state *s = st;
    s->n = f->n;
    memcpy(vb_xv_vec(s, 0), x, s->n * sizeof *x);
    memcpy(vb_xv_vec(s, 1), v, s->n * sizeof *v);
}

void vb_xv_observe(const void *st, double *x, double *v)
{
    const vb_xv_state *s = st;
    memcpy(x, s->data, s->n * sizeof *x);
    memcpy(v, s->data + s->n, s->n * sizeof *v);
}

void vb_xv_reverse(void *st)
{
    vb_xv_state *s = st;
    double *v = vb_xv_vec(s, 1);
    for (size_t i = 0; i < s->n; i++)
        v[i] = -v[i];
}

size_t vb_xv_lanes_size(size_t n, size_t extra)
{
    return sizeof(vb_xv_lanes) + (2 + extra) * n * sizeof(vb_lane_row);
}

size_t vb_xv_lanes_state_size(size_t n) { return vb_xv_lanes_size(n, 0); }

void vb_xv_load_extra(void *lanes, size_t i, const void *scalar_state, size_t extra)
{
    vb_xv_lanes *l = lanes;
    const vb_xv_state *s = scalar_state;
    l->n = s->n;
    for (size_t k = 0; k < 2 + extra; k++) {
        vb_lane_row *row = vb_xv_rows(l, k);
        const double *src = s->data + k * s->n;
        for (size_t c = 0; c < s->n; c++)
            row[c][i] = src[c];
    }
}

void vb_xv_load(void *lanes, size_t i, const void *scalar_state)
{
    vb_xv_load_extra(lanes, i, scalar_state, 0);
}

void vb_xv_observe_lanes(const void *lanes, size_t used, vb_lane_row *x, vb_lane_row *v)
{
    const vb_xv_lanes *l = lanes;
    const vb_lane_row *lx = l->rows, *lv = l->rows + l->n;
    for (size_t c = 0; c < l->n; c++)
        for (size_t i = 0; i < used; i++) {
            x[c][i] = lx[c][i];
            v[c][i] = lv[c][i];
        }
}
