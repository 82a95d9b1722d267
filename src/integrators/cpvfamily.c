/* cpvfamily.c — start, step, velocity and reversal of position Verlet on
 * rods (cpvfamily.h). */
#include "cpvfamily.h"
#include "constrain.h"

#include <math.h>
#include <string.h>

size_t vb_cpv_state_size(size_t n)
{
    return sizeof(vb_cpv_state) + VB_CPV_VECTORS * n * sizeof(double);
}

/* a_n; velocity-dependent forces see the backward difference d_n / h' */
static void accel(vb_cpv_state *s, vb_force *f, double t)
{
    double *x = vb_cpv_vec(s, VB_CPV_X), *d = vb_cpv_vec(s, VB_CPV_D),
           *vb = vb_cpv_vec(s, VB_CPV_VB);
    for (size_t i = 0; i < s->n; i++)
        vb[i] = d[i] / s->hp;
    vb_force_eval(f, t, x, vb, vb_cpv_vec(s, VB_CPV_A));
}

static void poison(vb_cpv_state *s)
{
    double *x = vb_cpv_vec(s, VB_CPV_X), *d = vb_cpv_vec(s, VB_CPV_D);
    for (size_t i = 0; i < s->n; i++)
        x[i] = d[i] = NAN;
}

/* x~ from x and d (into x and d), then its projection, whose correction
 * is added to d as well; a projection that fails says why in *why */
static int advance(vb_cpv_state *s, double r, double c, vb_cpv_project_fn *project,
                   const char **why)
{
    double *x = vb_cpv_vec(s, VB_CPV_X), *d = vb_cpv_vec(s, VB_CPV_D),
           *a = vb_cpv_vec(s, VB_CPV_A), *tmp = vb_cpv_vec(s, VB_CPV_SCRATCH),
           *old = vb_cpv_vec(s, VB_CPV_OLD);
    memcpy(old, x, s->n * sizeof *x);
    for (size_t i = 0; i < s->n; i++) {
        d[i] = d[i] * r + a[i] * c;
        x[i] += d[i];
    }
    if (!s->c)
        return 0;
    memcpy(tmp, x, s->n * sizeof *x);
    if (project(s, x, old, why) != 0) {
        poison(s);
        return -1;
    }
    for (size_t i = 0; i < s->n; i++)
        d[i] += x[i] - tmp[i];
    return 0;
}

void vb_cpv_step_with(vb_cpv_state *s, vb_force *f, double t, double h, vb_cpv_coeffs_fn *coeffs,
                      vb_cpv_project_fn *project)
{
    double r, c;
    coeffs(h, s->hp, &r, &c);
    const char *why = NULL;
    if (advance(s, r, c, project, &why) != 0 && why)
        f->stopped = why;
    s->hp = h;
    accel(s, f, t + h);
}

void vb_cpv_start(void *st, vb_force *f, double t, const double *x0, const double *v0, double h)
{
    vb_cpv_state *s = st;
    s->n = f->n;
    s->hp = h;
    s->c = f->constraints;
    double *x = vb_cpv_vec(s, VB_CPV_X), *d = vb_cpv_vec(s, VB_CPV_D), *a = vb_cpv_vec(s, VB_CPV_A);
    vb_force_eval(f, t, x0, v0, a);
    for (size_t i = 0; i < s->n; i++) {
        x[i] = x0[i];
        d[i] = v0[i] * h - 0.5 * a[i] * h * h;
    }
}

void vb_cpv_start_history(void *st, vb_force *f, double t, const double *x0, const double *v0,
                          const double *x_prev, double h_prev, double h)
{
    (void)v0;
    (void)h;
    vb_cpv_state *s = st;
    s->n = f->n;
    s->hp = h_prev;
    s->c = f->constraints;
    double *x = vb_cpv_vec(s, VB_CPV_X), *d = vb_cpv_vec(s, VB_CPV_D);
    for (size_t i = 0; i < s->n; i++) {
        x[i] = x0[i];
        d[i] = x0[i] - x_prev[i];
    }
    accel(s, f, t);
}

void vb_cpv_observe(const void *st, double *x, double *v)
{
    const vb_cpv_state *s = st;
    const double *sx = s->data, *d = s->data + s->n, *a = s->data + 2 * s->n;
    for (size_t i = 0; i < s->n; i++) {
        x[i] = sx[i];
        v[i] = d[i] / s->hp + 0.5 * a[i] * s->hp;
    }
    /* the velocity along the rods is not the rods' to have (cpvfamily.h);
     * a NaN state stays NaN */
    if (s->c)
        vb_project_velocity(s->c, s->n / s->c->dim, x, v);
}

void vb_cpv_reverse_with(void *st, vb_cpv_project_fn *project)
{
    vb_cpv_state *s = st;
    double *x = vb_cpv_vec(s, VB_CPV_X), *d = vb_cpv_vec(s, VB_CPV_D),
           *old = vb_cpv_vec(s, VB_CPV_OLD);
    /* x_next = P(x + d + a h'^2), every member's step at h = h'; then
     * d = x - x_next, and x stays */
    const char *why = NULL;
    if (advance(s, 1.0, s->hp * s->hp, project, &why) != 0)
        return;
    for (size_t i = 0; i < s->n; i++) {
        x[i] = old[i];
        d[i] = -d[i];
    }
}

int vb_cpv_relax(vb_cpv_state *s, double *x, const double *old, const char **why)
{
    (void)why;
    if (s->along_old == 0.0)
        vb_relax(s->c, x, (int)s->sweeps);
    else /* SHAKE's sweeps, as many as asked and no more (converged or not) */
        vb_shake_sweeps(s->c, x, old, (int)s->sweeps);
    return 0;
}

int vb_cpv_shake(vb_cpv_state *s, double *x, const double *old, const char **why)
{
    if (vb_shake(s->c, x, old, s->tol, VB_CONSTRAIN_MAX_SWEEPS, NULL, 0.0) >= 0)
        return 0;
    *why = VB_SHAKE_FAILED;
    return -1;
}

void vb_cpv_set_relax(void *st, const double *p)
{
    vb_cpv_state *s = st;
    s->sweeps = p[0];
    s->along_old = p[1];
}
void vb_cpv_set_tol(void *st, const double *p) { ((vb_cpv_state *)st)->tol = p[0]; }
