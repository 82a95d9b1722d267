/* linkage.c — rigid rods hanging from a pivot: placement, energy, rods, and
 * the equations of motion in the rods' angles (linkage.h). */
#include "linkage.h"

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void vb_linkage_place(const void *self, const double *q, const double *qd, double *x, double *v)
{
    const vb_linkage *k = self;
    double px = 0.0, py = 0.0, vx = 0.0, vy = 0.0;
    for (size_t i = 0; i < k->n; i++) {
        double s = sin(q[i]), c = cos(q[i]);
        px += k->l[i] * s;
        py -= k->l[i] * c;
        vx += k->l[i] * qd[i] * c;
        vy += k->l[i] * qd[i] * s;
        x[2 * i] = px;
        x[2 * i + 1] = py;
        v[2 * i] = vx;
        v[2 * i + 1] = vy;
    }
}

size_t vb_linkage_size(const void *self) { return ((const vb_linkage *)self)->n; }

void vb_linkage_initial(const void *self, double *x, double *v)
{
    const vb_linkage *k = self;
    double zero[VB_LINKAGE_MAX] = {0};
    vb_linkage_place(k, k->theta0, zero, x, v);
}

void vb_linkage_gravity(const void *self, double t, const double *x, const double *v, double *a)
{
    (void)t, (void)x, (void)v;
    const vb_linkage *k = self;
    for (size_t i = 0; i < k->n; i++) {
        a[2 * i] = 0.0;
        a[2 * i + 1] = -k->g;
    }
}

double vb_linkage_energy(const void *self, const double *x, const double *v)
{
    const vb_linkage *k = self;
    double e = 0.0;
    for (size_t i = 0; i < k->n; i++) {
        const double *u = v + 2 * i;
        e += k->m[i] * (0.5 * (u[0] * u[0] + u[1] * u[1]) + k->g * (x[2 * i + 1] - k->low[i]));
    }
    return e;
}

void vb_linkage_masses(const void *self, double *m)
{
    const vb_linkage *k = self;
    for (size_t i = 0; i < k->n; i++)
        m[i] = k->m[i];
}

double vb_linkage_natural_time(const void *self) { return ((const vb_linkage *)self)->T; }

void vb_linkage_rod(const void *self, size_t i, vb_constraint *c)
{
    const vb_linkage *k = self;
    *c = (vb_constraint){.i = i, .j = i ? i - 1 : VB_PIVOT, .length = k->l[i]};
}

void vb_linkage_ref_initial(const void *self, double *q, double *qd)
{
    const vb_linkage *k = self;
    for (size_t i = 0; i < k->n; i++) {
        q[i] = k->theta0[i];
        qd[i] = 0.0;
    }
}

/* A x = b for symmetric positive definite A (n x n, row-major), in place:
 * Cholesky A = L L^T into A's lower triangle, then the two triangular
 * solves into b.  No allocation: the model is shared by every thread. */
static void cholesky_solve(double *a, double *b, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        double d = a[j * n + j];
        for (size_t p = 0; p < j; p++)
            d -= a[j * n + p] * a[j * n + p];
        d = sqrt(d);
        a[j * n + j] = d;
        for (size_t i = j + 1; i < n; i++) {
            double s = a[i * n + j];
            for (size_t p = 0; p < j; p++)
                s -= a[i * n + p] * a[j * n + p];
            a[i * n + j] = s / d;
        }
    }
    for (size_t i = 0; i < n; i++) {
        double s = b[i];
        for (size_t p = 0; p < i; p++)
            s -= a[i * n + p] * b[p];
        b[i] = s / a[i * n + i];
    }
    for (size_t i = n; i-- > 0;) {
        double s = b[i];
        for (size_t p = i + 1; p < n; p++)
            s -= a[p * n + i] * b[p];
        b[i] = s / a[i * n + i];
    }
}

void vb_linkage_ref_accel(const void *self, double t, const double *q, const double *qd,
                          double *qdd)
{
    (void)t;
    const vb_linkage *k = self;
    size_t n = k->n;
    double s[VB_LINKAGE_MAX], c[VB_LINKAGE_MAX], M[VB_LINKAGE_MAX * VB_LINKAGE_MAX];
    for (size_t i = 0; i < n; i++) {
        s[i] = sin(q[i]);
        c[i] = cos(q[i]);
    }
    for (size_t i = 0; i < n; i++) {
        double f = -k->g * k->l[i] * k->mu[i] * s[i];
        for (size_t j = 0; j < n; j++) {
            double w = k->l[i] * k->l[j] * k->mu[i > j ? i : j];
            /* cos and sin of theta_i - theta_j by the angle formulas: n
             * sines and cosines an evaluation, not n^2 */
            M[i * n + j] = w * (c[i] * c[j] + s[i] * s[j]);
            f -= w * (s[i] * c[j] - c[i] * s[j]) * qd[j] * qd[j];
        }
        qdd[i] = f;
    }
    cholesky_solve(M, qdd, n);
}

int vb_linkage_init(vb_linkage *k, size_t n, double g, const double *l, const double *m,
                    const double *theta0, char *err, size_t errlen)
{
    memset(k, 0, sizeof *k);
    /* the mass matrix holds products l_i l_j mu and the stiffness g l mu:
     * lengths and masses in range keep them normal doubles */
    for (size_t i = 0; i < n; i++)
        if (!(l[i] >= 1e-150 && l[i] <= 1e150) || !(m[i] >= 1e-150 && m[i] <= 1e150)) {
            snprintf(err, errlen, "linkage of %zu rods: rod %zu has length %g and bead mass %g: "
                                  "lengths and masses from 1e-150 to 1e150 can be held (choose "
                                  "units that bring them into range)",
                     n, i + 1, l[i], m[i]);
            return -1;
        }
    k->n = n;
    k->g = g;
    double below = 0.0, depth = 0.0;
    for (size_t i = n; i-- > 0;) {
        below += m[i];
        k->mu[i] = below;
    }
    for (size_t i = 0; i < n; i++) {
        k->l[i] = l[i];
        k->m[i] = m[i];
        k->theta0[i] = theta0[i];
        depth -= l[i];
        k->low[i] = depth;
    }
    /* the slowest small oscillation: K v = w^2 M0 v, the equations above
     * linearised about hanging straight down (M0 = M at theta = 0, K =
     * diag(g l_i mu_i)) */
    gsl_matrix *A = gsl_matrix_alloc(n, n), *B = gsl_matrix_alloc(n, n);
    gsl_vector *w2 = gsl_vector_alloc(n);
    gsl_eigen_gensymm_workspace *ws = gsl_eigen_gensymm_alloc(n);
    int rc = -1;
    if (A && B && w2 && ws) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                gsl_matrix_set(A, i, j, i == j ? g * l[i] * k->mu[i] : 0.0);
                gsl_matrix_set(B, i, j, l[i] * l[j] * k->mu[i > j ? i : j]);
            }
        if (gsl_eigen_gensymm(A, B, w2, ws) == GSL_SUCCESS) {
            double lo = gsl_vector_get(w2, 0);
            for (size_t i = 1; i < n; i++)
                lo = fmin(lo, gsl_vector_get(w2, i));
            k->T = 2.0 * M_PI / sqrt(lo);
            rc = isfinite(k->T) && k->T > 0.0 ? 0 : -1;
        }
    }
    if (rc != 0)
        snprintf(err, errlen, "linkage of %zu rods: its small oscillations could not be found "
                              "(out of memory, or a degenerate mass matrix: lengths or masses too unequal)",
                 n);
    gsl_eigen_gensymm_free(ws);
    gsl_vector_free(w2);
    gsl_matrix_free(A);
    gsl_matrix_free(B);
    return rc;
}
