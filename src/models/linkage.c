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

/* The equations of motion in the angles, in O(n): rather than assemble the
 * dense mass matrix M (header) and factor it (O(n^3) an evaluation), solve
 * for the rods' tensions, which couple only neighbours, and read the angles'
 * accelerations off them.  With e_k = (sin theta_k, -cos theta_k) rod k's
 * direction (top to bottom), t_k = de_k/dtheta_k, T_k its tension (pulling
 * its ends together; T_n = 0) and a_-1 = 0 at the pivot, bead k obeys
 *     m_k a_k = m_k (0, -g) - T_k e_k + T_{k+1} e_{k+1},
 * and rod k's length held twice differentiated, e_k . (a_k - a_{k-1}) =
 * -l_k theta_k'^2, is, with c_jk = cos(theta_j - theta_k) = e_j . e_k,
 *     (1/m_k + 1/m_{k-1}) T_k - c_{k-1,k} T_{k-1} / m_{k-1} - c_{k,k+1} T_{k+1} / m_k
 *         = l_k theta_k'^2                                   (k >= 1),
 *     T_0 / m_0 - c_01 T_1 / m_0 = l_0 theta_0'^2 + g cos theta_0,
 * a symmetric positive definite tridiagonal system (J M^-1 J^T of the rods'
 * Jacobian), solved by its LDL^T factorisation without pivoting.  Then
 * a_k - a_{k-1} = l_k (theta_k'' t_k - theta_k'^2 e_k), and t_j . e_k =
 * sin(theta_k - theta_j) = s_jk, give
 *     l_k theta_k'' = T_{k+1} s_{k,k+1} / m_k + T_{k-1} s_{k,k-1} / m_{k-1}   (k >= 1),
 *     l_0 theta_0'' = -g sin theta_0 + T_1 s_01 / m_0.
 * The same equations as Lagrange's in the header (unit tests hold the two
 * solves together on random states).  GSL's gsl_linalg_solve_symm_tridiag
 * does this factorisation too, but allocates four work vectors a call; the
 * model is evaluated millions of times by every thread, so it is done
 * here on the stack. */
void vb_linkage_ref_accel(const void *self, double t, const double *q, const double *qd,
                          double *qdd)
{
    (void)t;
    const vb_linkage *k = self;
    size_t n = k->n;
    double s[VB_LINKAGE_MAX], c[VB_LINKAGE_MAX], im[VB_LINKAGE_MAX];
    double d[VB_LINKAGE_MAX], e[VB_LINKAGE_MAX], T[VB_LINKAGE_MAX];
    for (size_t i = 0; i < n; i++) {
        s[i] = sin(q[i]);
        c[i] = cos(q[i]);
        im[i] = 1.0 / k->m[i];
    }
    /* the system: diagonal d, off-diagonal e (row i, column i + 1), right side T */
    for (size_t i = 0; i < n; i++) {
        d[i] = i ? im[i] + im[i - 1] : im[0];
        e[i] = i + 1 < n ? -(c[i] * c[i + 1] + s[i] * s[i + 1]) * im[i] : 0.0;
        T[i] = k->l[i] * qd[i] * qd[i] + (i ? 0.0 : k->g * c[0]);
    }
    /* LDL^T: d becomes D, e becomes L's subdiagonal; forward, then back */
    for (size_t i = 1; i < n; i++) {
        double w = e[i - 1] / d[i - 1];
        d[i] -= w * e[i - 1];
        T[i] -= w * T[i - 1];
        e[i - 1] = w;
    }
    T[n - 1] /= d[n - 1];
    for (size_t i = n - 1; i-- > 0;)
        T[i] = T[i] / d[i] - e[i] * T[i + 1];
    for (size_t i = 0; i < n; i++) {
        double f = i ? 0.0 : -k->g * s[0];
        if (i + 1 < n) /* sin(theta_{i+1} - theta_i) */
            f += T[i + 1] * (s[i + 1] * c[i] - c[i + 1] * s[i]) * im[i];
        if (i) /* sin(theta_{i-1} - theta_i) */
            f += T[i - 1] * (s[i - 1] * c[i] - c[i - 1] * s[i]) * im[i - 1];
        qdd[i] = f / k->l[i];
    }
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
