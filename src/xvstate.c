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
