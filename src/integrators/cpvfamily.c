/* cpvfamily.c — start, step, velocity and reversal of position Verlet on
 * rods (cpvfamily.h). */
#include "cpvfamily.h"
#include "constrain.h"

#include <math.h>
#include <string.h>

size_t vb_cpv_state_size(size_t n)
{
    return sizeof(vb_cpv_state) + vb_pv_state_size(n) +
           (VB_CPV_VECTORS - VB_PV_VECTORS) * n * sizeof(double);
}

static void poison(vb_pv_state *pv)
{
    double *x = vb_pv_vec(pv, VB_PV_X), *d = vb_pv_vec(pv, VB_PV_D);
    for (size_t i = 0; i < pv->n; i++)
        x[i] = d[i] = NAN;
}

/* x~ from x and d (into x and d), then its projection, whose correction
 * is added to d as well; a projection that fails says why in *why */
static int advance(vb_cpv_state *s, double r, double c, vb_cpv_project_fn *project,
                   const char **why)
{
    vb_pv_state *pv = vb_cpv_pv(s);
    double *x = vb_pv_vec(pv, VB_PV_X), *d = vb_pv_vec(pv, VB_PV_D), *a = vb_pv_vec(pv, VB_PV_A),
           *tmp = vb_pv_vec(pv, VB_CPV_SCRATCH), *old = vb_pv_vec(pv, VB_CPV_OLD);
    memcpy(old, x, pv->n * sizeof *x);
    for (size_t i = 0; i < pv->n; i++) {
        d[i] = d[i] * r + a[i] * c;
        x[i] += d[i];
    }
    if (!s->c)
        return 0;
    memcpy(tmp, x, pv->n * sizeof *x);
    if (project(s, x, old, why) != 0) {
        poison(pv);
        return -1;
    }
    for (size_t i = 0; i < pv->n; i++)
        d[i] += x[i] - tmp[i];
    return 0;
}

void vb_cpv_step_with(vb_cpv_state *s, vb_force *f, double t, double h, vb_pv_coeffs_fn *coeffs,
                      vb_cpv_project_fn *project)
{
    vb_pv_state *pv = vb_cpv_pv(s);
    double r, c;
    coeffs(h, pv->hp, &r, &c);
    const char *why = NULL;
    if (advance(s, r, c, project, &why) != 0 && why)
        f->stopped = why;
    pv->hp = h;
    vb_pv_accel(pv, f, t + h);
}

void vb_cpv_start(void *st, vb_force *f, double t, const double *x0, const double *v0, double h)
{
    vb_cpv_state *s = st;
    s->c = f->constraints;
    vb_pv_start_taylor(vb_cpv_pv(s), f, t, x0, v0, h);
}

void vb_cpv_start_history(void *st, vb_force *f, double t, const double *x0, const double *v0,
                          const double *x_prev, double h_prev, double h)
{
    vb_cpv_state *s = st;
    s->c = f->constraints;
    vb_pv_start_history(vb_cpv_pv(s), f, t, x0, v0, x_prev, h_prev, h);
}

void vb_cpv_observe(const void *st, double *x, double *v)
{
    const vb_cpv_state *s = st;
    const vb_pv_state *pv = (const vb_pv_state *)(const void *)s->pv;
    vb_pv_observe(pv, x, v);
    /* the velocity along the rods is not the rods' to have (cpvfamily.h);
     * a NaN state stays NaN */
    if (s->c)
        vb_project_velocity(s->c, pv->n / s->c->dim, x, v);
}

void vb_cpv_reverse_with(void *st, vb_cpv_project_fn *project)
{
    vb_cpv_state *s = st;
    vb_pv_state *pv = vb_cpv_pv(s);
    double *x = vb_pv_vec(pv, VB_PV_X), *d = vb_pv_vec(pv, VB_PV_D),
           *old = vb_pv_vec(pv, VB_CPV_OLD);
    /* x_next = P(x + d + a h'^2), every member's step at h = h'; then
     * d = x - x_next, and x stays */
    const char *why = NULL;
    if (advance(s, 1.0, pv->hp * pv->hp, project, &why) != 0)
        return;
    for (size_t i = 0; i < pv->n; i++) {
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
    long done = s->solver == VB_SOLVER_SWEEPS
                    ? vb_shake(s->c, x, old, s->tol, VB_CONSTRAIN_MAX_SWEEPS, NULL, 0.0)
                    : vb_shake_newton(s->c, x, old, s->tol, NULL, 0.0);
    if (done >= 0)
        return 0;
    *why = VB_SHAKE_FAILED;
    return -1;
}

const vb_param_spec vb_cpv_relax_params[VB_CPV_RELAX_PARAMS] = {
    {"sweeps", 1, 1, 100000, 0, 0, "relaxation sweeps over the rods a step, 1 to 100000",
     VB_PARAM_INTEGER},
    /* not Jakobsen's: each correction along the rod's direction before the
     * step, as SHAKE makes it, so k sweeps are k of SHAKE's; the way to
     * see what the direction alone costs (docs/constraints.md) */
    {"along_old", 0, 0, 1, 0, 0,
     "1: correct along each rod's direction before the step (SHAKE's sweeps), 0: along its "
     "current one (Jakobsen's)",
     VB_PARAM_INTEGER},
};

void vb_cpv_set_relax(void *st, const double *p)
{
    vb_cpv_state *s = st;
    s->sweeps = p[0];
    s->along_old = p[1];
}
void vb_cpv_set_tol(void *st, const double *p)
{
    vb_cpv_state *s = st;
    s->tol = p[0];
    s->solver = p[1];
}
