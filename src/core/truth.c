/* truth.c — exact solutions, and reference solutions by GSL's rk8pd. */
#include "truth.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

typedef struct {
    gsl_odeiv2_driver *driver;
    double t;
    double *y; /* x then v: 2 N */
} reference;

struct vb_truth {
    const vb_model *m;
    void *work; /* the exact solution's scratch */
    int is_reference;
    gsl_odeiv2_system sys;
    reference ref[2]; /* at VB_REF_TOL; and tighter, landing at midpoints too */
    double err_pos, err_vel;
};

/* y' = (v, a(t, x, v)) */
static int rhs(double t, const double y[], double dydt[], void *params)
{
    const vb_model *m = params;
    size_t n = m->n;
    memcpy(dydt, y + n, n * sizeof *y);
    m->type->accel(m->self, t, y, y + n, dydt + n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(dydt[n + i]))
            return GSL_EBADFUNC; /* a singular force: the reference stops, it does not guess */
    return GSL_SUCCESS;
}

static int ref_restart(vb_truth *tr, reference *r)
{
    size_t n = tr->m->n;
    tr->m->type->initial(tr->m->self, r->y, r->y + n);
    r->t = 0.0;
    return gsl_odeiv2_driver_reset(r->driver) == GSL_SUCCESS ? 0 : -1;
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
    size_t n = m->n;
    tr->sys = (gsl_odeiv2_system){rhs, NULL, 2 * n, (void *)m};
    /* the absolute tolerance in units of the initial state's size */
    double *y0 = malloc(2 * n * sizeof *y0);
    if (!y0) {
        free(tr);
        return NULL;
    }
    type->initial(m->self, y0, y0 + n);
    double size = fmax(vb_magnitude(y0, n), vb_magnitude(y0 + n, n));
    free(y0);
    if (!(size > 0.0))
        size = 1.0;
    double h0 = type->natural_time(m->self) * 1e-3;
    for (int k = 0; k < 2; k++) {
        double tol = k ? VB_REF_TOL / VB_REF_TOL_RATIO : VB_REF_TOL;
        reference *r = &tr->ref[k];
        r->driver = gsl_odeiv2_driver_alloc_y_new(&tr->sys, gsl_odeiv2_step_rk8pd, h0,
                                                  tol * size, tol);
        r->y = malloc(2 * n * sizeof *r->y);
        if (!r->driver || !r->y || ref_restart(tr, r) != 0) {
            vb_truth_free(tr);
            return NULL;
        }
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
    for (int k = 0; k < 2; k++) {
        if (tr->ref[k].driver)
            gsl_odeiv2_driver_free(tr->ref[k].driver);
        free(tr->ref[k].y);
    }
    free(tr);
}

int vb_truth_is_reference(const vb_truth *tr) { return tr->is_reference; }

/* on to t; the second reference by way of the midpoint */
static int ref_at(vb_truth *tr, reference *r, double t, int midpoint)
{
    if (t < r->t && ref_restart(tr, r) != 0)
        return -1;
    if (t == r->t)
        return 0;
    double mid = r->t + 0.5 * (t - r->t);
    if (midpoint && mid > r->t && mid < t &&
        gsl_odeiv2_driver_apply(r->driver, &r->t, mid, r->y) != GSL_SUCCESS)
        return -1;
    return gsl_odeiv2_driver_apply(r->driver, &r->t, t, r->y) == GSL_SUCCESS ? 0 : -1;
}

int vb_truth_at(vb_truth *tr, double t, double *x, double *v)
{
    const vb_model *m = tr->m;
    if (!tr->is_reference)
        return m->type->exact(m->self, tr->work, t, x, v);
    size_t n = m->n;
    if (ref_at(tr, &tr->ref[0], t, 0) != 0 || ref_at(tr, &tr->ref[1], t, 1) != 0)
        return -1;
    const double *y = tr->ref[0].y, *z = tr->ref[1].y;
    tr->err_pos = fmax(tr->err_pos, vb_distance(y, z, n));
    tr->err_vel = fmax(tr->err_vel, vb_distance(y + n, z + n, n));
    memcpy(x, y, n * sizeof *x);
    memcpy(v, y + n, n * sizeof *v);
    return 0;
}

double vb_truth_err_pos(const vb_truth *tr) { return tr->err_pos; }
double vb_truth_err_vel(const vb_truth *tr) { return tr->err_vel; }
