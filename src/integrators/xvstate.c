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

/* every run reports every step: a loop the compiler writes inline, where
 * two calls of memcpy cost more than the copy on the small systems most
 * cases are */
void vb_xv_observe(const void *st, double *x, double *v)
{
    const vb_xv_state *s = st;
    const double *sx = s->data, *sv = s->data + s->n;
    for (size_t i = 0; i < s->n; i++) {
        x[i] = sx[i];
        v[i] = sv[i];
    }
}

void vb_xv_reverse(void *st)
{
    vb_xv_state *s = st;
    double *v = vb_xv_vec(s, 1);
    for (size_t i = 0; i < s->n; i++)
        v[i] = -v[i];
}
