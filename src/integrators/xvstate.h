/* xvstate.h — the (x, v) state of the one-step methods (euler, euler-semi,
 * rk4, yoshida4, pefrl): start, report and reverse are the same for all.
 * The state is N, then x[N], v[N], then whatever vectors of N a method adds
 * (rk4's stages, yoshida4's a): one block the harness allocates, with
 * no pointer into itself, so it may be copied. */
#ifndef VB_XVSTATE_H
#define VB_XVSTATE_H

#include "verletbench.h"

typedef struct vb_xv_state {
    size_t n;
    double data[]; /* x[n], v[n], then the method's own vectors */
} vb_xv_state;

/* vector k of the block: 0 is x, 1 is v, 2.. the method's */
static inline double *vb_xv_vec(vb_xv_state *s, size_t k) { return s->data + k * s->n; }

/* One velocity Verlet (kick-drift-kick) step of h from t on x, v and a
 * (vectors 0, 1, 2; a at x on entry and on return): each sub-step of
 * Yoshida's triple jump.  velocity_verlet.c makes the same operations in
 * the same order with the second kick deferred to the next step (why:
 * there).  The three vectors are
 * separate: restrict lets the loops vectorise (the same operations on each
 * component, the same bits). */
static inline void vb_xv_kdk(vb_xv_state *s, vb_force *f, double t, double h)
{
    double *restrict x = vb_xv_vec(s, 0), *restrict v = vb_xv_vec(s, 1),
                     *restrict a = vb_xv_vec(s, 2);
    double half = 0.5 * h;
    size_t n = s->n;
    for (size_t i = 0; i < n; i++) {
        v[i] += a[i] * half;
        x[i] += v[i] * h;
    }
    vb_force_eval(f, t + h, x, v, a);
    for (size_t i = 0; i < n; i++)
        v[i] += a[i] * half;
}

/* bytes for x, v and `extra` more vectors of n */
size_t vb_xv_size(size_t n, size_t extra);
size_t vb_xv_state_size(size_t n); /* x and v only */

/* Copies (x, v); evaluates no force. */
void vb_xv_start(void *st, vb_force *f, double t, const double *x, const double *v, double h);
void vb_xv_observe(const void *st, double *x, double *v);
/* v <- -v: a one-step method's state is just where it is and how it moves. */
void vb_xv_reverse(void *st);

#endif
