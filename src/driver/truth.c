/* truth.c — exact solutions, and reference solutions by GSL's rk8pd. */
#include "truth.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

/* One reference: rk8pd stepping at its own pace (natural steps, chosen by
 * its error control alone), and each time asked for reached by a side step
 * from the last natural point before it.  So the trajectory does not depend
 * on the times asked for: a fine grid of a run does not force it onto tiny
 * steps, whose round-off would pile up (measured on the 64-mass chain at
 * T/10000: 9e-14, 45 times what the estimate saw, when the steps landed on
 * every time asked for). */
typedef struct {
    gsl_odeiv2_step *step, *side;
    gsl_odeiv2_control *control;
    gsl_odeiv2_evolve *evolve;
    double t0, t1, h; /* the natural step in hand: t0 -> t1; the next proposed */
    double *y0, *y1;  /* x then v at t0 and t1: 2 N each */
    double *ys, *yerr; /* a side step's result and its error estimate */
} reference;

struct vb_truth {
    const vb_model *m;
    void *work; /* the exact solution's scratch */
    int is_reference;
    /* the reference's coordinates: K of them, q then q' in y (2K); the
     * model's own (ref_dof: a linkage's angles) mapped to x, v at each time
     * asked for, or Cartesian x, v themselves (K = N) */
    size_t k;
    int own;
    double *xv; /* own coordinates: both references' x, v (4 N) */
    gsl_odeiv2_system sys;
    reference ref[2]; /* at VB_REF_TOL; and VB_REF_TOL_RATIO tighter */
    double h0;         /* the first step tried */
    double bad_force_t; /* the first t where the force was not finite, or NaN */
    double err_pos, err_vel;
};

/* y' = (v, a(t, x, v)), or (q', ref_accel(t, q, q')) */
static int rhs(double t, const double y[], double dydt[], void *params)
{
    vb_truth *tr = params;
    const vb_model *m = tr->m;
    size_t n = tr->k;
    memcpy(dydt, y + n, n * sizeof *y);
    (tr->own ? m->type->ref_accel : m->type->accel)(m->self, t, y, y + n, dydt + n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(dydt[n + i])) {
            /* a singular force: the reference stops, it does not guess;
             * and says where, which may be ahead of the run it serves */
            if (isnan(tr->bad_force_t))
                tr->bad_force_t = t;
            return GSL_EBADFUNC;
        }
    return GSL_SUCCESS;
}

/* q(0), q'(0): the model's start in the reference's coordinates */
static void initial_q(const vb_truth *tr, double *q, double *qd)
{
    if (tr->own)
        tr->m->type->ref_initial(tr->m->self, q, qd);
    else
        tr->m->type->initial(tr->m->self, q, qd);
}

static int ref_restart(vb_truth *tr, reference *r)
{
    size_t n = tr->k;
    initial_q(tr, r->y1, r->y1 + n);
    memcpy(r->y0, r->y1, 2 * n * sizeof *r->y0);
    r->t0 = r->t1 = 0.0;
    r->h = tr->h0;
    return gsl_odeiv2_evolve_reset(r->evolve) == GSL_SUCCESS &&
                   gsl_odeiv2_step_reset(r->step) == GSL_SUCCESS
               ? 0
               : -1;
}

static void ref_free(reference *r)
{
    if (r->evolve)
        gsl_odeiv2_evolve_free(r->evolve);
    if (r->control)
        gsl_odeiv2_control_free(r->control);
    if (r->step)
        gsl_odeiv2_step_free(r->step);
    if (r->side)
        gsl_odeiv2_step_free(r->side);
    free(r->y0);
}

static vb_truth *alloc(const vb_model *m, int force_reference)
{
    vb_truth *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    tr->m = m;
    const vb_model_type *type = m->type;
    if (type->exact && !force_reference) {
        if (type->work_alloc && !(tr->work = type->work_alloc(m->self))) {
            free(tr);
            return NULL;
        }
        return tr;
    }
    tr->is_reference = 1;
    tr->own = type->ref_dof != NULL;
    tr->k = tr->own ? type->ref_dof(m->self) : m->n;
    if (tr->own && !(tr->xv = malloc(4 * m->n * sizeof *tr->xv))) {
        free(tr);
        return NULL;
    }
    size_t n = tr->k, dim = 2 * n;
    tr->sys = (gsl_odeiv2_system){rhs, NULL, dim, tr};
    tr->bad_force_t = NAN;
    /* The absolute tolerance of each component in units of its kind's size:
     * positions by the initial positions, velocities by the initial
     * velocities, each at least what the other gives over the natural time
     * (a chain released from rest has no velocity to measure by, yet moves
     * at about amp 2 pi / T). */
    double *y0 = malloc(dim * sizeof *y0), *scale = malloc(dim * sizeof *scale);
    if (!y0 || !scale) {
        free(y0);
        free(scale);
        free(tr->xv);
        free(tr);
        return NULL;
    }
    initial_q(tr, y0, y0 + n);
    double T = type->natural_time(m->self), w = 2.0 * M_PI / T;
    double size_x = vb_magnitude(y0, n), size_v = vb_magnitude(y0 + n, n);
    double sx = fmax(size_x, size_v / w), sv = fmax(size_v, size_x * w);
    if (!(sx > 0.0 && isfinite(sx)) || !(sv > 0.0 && isfinite(sv)))
        sx = sv = 1.0;
    for (size_t i = 0; i < n; i++) {
        scale[i] = sx;
        scale[n + i] = sv;
    }
    free(y0);
    tr->h0 = T * 1e-3;
    int ok = 1;
    for (int k = 0; k < 2 && ok; k++) {
        double tol = k ? VB_REF_TOL / VB_REF_TOL_RATIO : VB_REF_TOL;
        reference *r = &tr->ref[k];
        r->step = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, dim);
        r->side = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, dim);
        r->control = gsl_odeiv2_control_scaled_new(tol, tol, 1.0, 0.0, scale, dim);
        r->evolve = gsl_odeiv2_evolve_alloc(dim);
        r->y0 = malloc(4 * dim * sizeof *r->y0);
        ok = r->step && r->side && r->control && r->evolve && r->y0;
        if (ok) {
            r->y1 = r->y0 + dim;
            r->ys = r->y1 + dim;
            r->yerr = r->ys + dim;
            ok = ref_restart(tr, r) == 0;
        }
    }
    free(scale);
    if (!ok) {
        vb_truth_free(tr);
        return NULL;
    }
    return tr;
}

vb_truth *vb_truth_alloc(const vb_model *m) { return alloc(m, 0); }
vb_truth *vb_truth_alloc_reference(const vb_model *m) { return alloc(m, 1); }

void vb_truth_free(vb_truth *tr)
{
    if (!tr)
        return;
    if (tr->work)
        tr->m->type->work_free(tr->work);
    for (int k = 0; k < 2; k++)
        ref_free(&tr->ref[k]);
    free(tr->xv);
    free(tr);
}

int vb_truth_is_reference(const vb_truth *tr) { return tr->is_reference; }

/* natural steps never aim at a time asked for: their only bound is this */
#define HORIZON 1e300

/* The solution at t into *y: natural steps on until one passes t, then a
 * side step from its start.  A side step is shorter than the natural step
 * the control accepted from the same point, so its error is smaller. */
static int ref_at(vb_truth *tr, reference *r, double t, const double **y)
{
    size_t dim = 2 * tr->k;
    if (t < r->t0 && ref_restart(tr, r) != 0)
        return -1;
    while (t > r->t1) {
        memcpy(r->y0, r->y1, dim * sizeof *r->y0);
        r->t0 = r->t1;
        if (gsl_odeiv2_evolve_apply(r->evolve, r->control, r->step, &tr->sys, &r->t1, HORIZON,
                                    &r->h, r->y1) != GSL_SUCCESS ||
            !(r->t1 > r->t0))
            return -1;
    }
    if (t == r->t1) {
        *y = r->y1;
        return 0;
    }
    if (t == r->t0) {
        *y = r->y0;
        return 0;
    }
    memcpy(r->ys, r->y0, dim * sizeof *r->ys);
    if (gsl_odeiv2_step_apply(r->side, r->t0, t - r->t0, r->ys, r->yerr, NULL, NULL, &tr->sys) !=
        GSL_SUCCESS)
        return -1;
    *y = r->ys;
    return 0;
}

int vb_truth_at(vb_truth *tr, double t, double *x, double *v)
{
    const vb_model *m = tr->m;
    if (!tr->is_reference)
        return m->type->exact(m->self, tr->work, t, x, v);
    size_t n = m->n;
    const double *y, *z;
    if (ref_at(tr, &tr->ref[0], t, &y) != 0 || ref_at(tr, &tr->ref[1], t, &z) != 0)
        return -1;
    if (tr->own) {
        /* both to x, v: their distance is the reference's error there */
        size_t k = tr->k;
        m->type->ref_state(m->self, y, y + k, tr->xv, tr->xv + n);
        m->type->ref_state(m->self, z, z + k, tr->xv + 2 * n, tr->xv + 3 * n);
        y = tr->xv;
        z = tr->xv + 2 * n;
    }
    tr->err_pos = fmax(tr->err_pos, vb_distance(y, z, n));
    tr->err_vel = fmax(tr->err_vel, vb_distance(y + n, z + n, n));
    memcpy(x, y, n * sizeof *x);
    memcpy(v, y + n, n * sizeof *v);
    return 0;
}

double vb_truth_err_pos(const vb_truth *tr) { return tr->err_pos; }
double vb_truth_bad_force_time(const vb_truth *tr)
{
    return tr->is_reference ? tr->bad_force_t : (double)NAN;
}
double vb_truth_err_vel(const vb_truth *tr) { return tr->err_vel; }
