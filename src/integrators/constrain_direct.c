/* constrain_direct.c — SHAKE and RATTLE's velocity stage solved directly
 * (constrain.h): Newton's iteration on the rods' banded Jacobian for the
 * positions (vb_shake_newton), and the banded Cholesky of the
 * mass-weighted projection for the velocities (vb_project_velocity); each
 * falls back on constrain.c's sweeps where its system is singular. */
#include "constrain.h"

#include <float.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "constrain_rods.h"

/* Scratch of `need` doubles: the caller's stack array of `cap` when it is
 * large enough (a step of a small system then calls no allocator), else
 * the heap; NULL when out of memory.  Given back by scratch_free. */
static double *scratch(double *stack, size_t cap, size_t need)
{
    return need <= cap ? stack : malloc(need * sizeof *stack);
}

static void scratch_free(double *stack, double *p)
{
    if (p != stack)
        free(p);
}

/* what a step's scratch holds on the stack: a chain of CHAIN_MAX rods' */
#define SCRATCH_DOUBLES 1024

/* the gradient of rod k at x: delta = x_i - x_j (or x_i - pivot); its
 * entry for particle p is +delta at i, -delta at j */
static void rod_delta(const vb_constraints *c, size_t k, const double *x, double *delta)
{
    const vb_constraint *r = &c->rod[k];
    unsigned d = c->dim;
    const double *xj = r->j == VB_PIVOT ? r->pivot : x + r->j * d;
    for (unsigned a = 0; a < d; a++)
        delta[a] = x[r->i * d + a] - xj[a];
}

/* The beads the rods reach: one past the highest index of a rod's end. */
static size_t beads_of(const vb_constraints *c)
{
    size_t n = 0;
    for (size_t k = 0; k < c->n; k++) {
        const vb_constraint *r = &c->rod[k];
        if (r->i + 1 > n)
            n = r->i + 1;
        if (r->j != VB_PIVOT && r->j + 1 > n)
            n = r->j + 1;
    }
    return n;
}

/* The half-bandwidth of the rods' coupling: the widest gap between two
 * rods of one bead (a chain's, 1); NULL work when out of memory. */
static int rod_bandwidth(const vb_constraints *c, size_t particles, size_t *b)
{
    if (is_chain(c)) { /* bead k in rods k and k + 1 only */
        *b = c->n > 1;
        return 0;
    }
    size_t *lo = malloc(2 * particles * sizeof *lo + 1), *hi = lo ? lo + particles : NULL;
    if (!lo)
        return -1;
    for (size_t p = 0; p < particles; p++) {
        lo[p] = (size_t)-1;
        hi[p] = 0;
    }
    for (size_t k = 0; k < c->n; k++) {
        size_t bead[2] = {c->rod[k].i, c->rod[k].j};
        for (int e = 0; e < 2; e++)
            if (bead[e] != VB_PIVOT) {
                if (k < lo[bead[e]])
                    lo[bead[e]] = k;
                if (k > hi[bead[e]])
                    hi[bead[e]] = k;
            }
    }
    *b = 0;
    for (size_t p = 0; p < particles; p++)
        if (lo[p] != (size_t)-1 && hi[p] - lo[p] > *b)
            *b = hi[p] - lo[p];
    free(lo);
    return 0;
}

/* How a correction along rod l moves rod k's separation: the shared
 * beads' inverse masses, + where the bead is the same end of both rods
 * (x_i - x_j moves with x_i, against x_j), - where it is opposite ends. */
static double coupling(const vb_constraints *c, const vb_constraint *r, const vb_constraint *q)
{
    double s = 0.0;
    if (q->i == r->i)
        s += c->inv_mass[r->i];
    if (q->j != VB_PIVOT && q->j == r->j)
        s += c->inv_mass[r->j];
    if (r->j != VB_PIVOT && q->i == r->j)
        s -= c->inv_mass[r->j];
    if (q->j != VB_PIVOT && q->j == r->i)
        s -= c->inv_mass[r->i];
    return s;
}

/* Newton's iterations before the system is taken for one it cannot solve
 * (it converges quadratically: a step within SHAKE's reach needs 2 to 4) */
#define NEWTON_MAX_ITERATIONS 50

/* One Newton solve of the rods' equations: J dl = sigma, J_kl = 2 s_kl
 * delta_k . old_l (a rod's correction along its old direction, as in the
 * sweeps), in GSL's band LU with partial pivoting (a chain's: tridiagonal,
 * GSL's tridiagonal solve), dl into sigma.  -1 when it is singular: a
 * pivot of U lost to cancellation, or not finite. */
static int newton_solve(const vb_constraints *c, size_t b, const double *dl, const double *ol,
                        double *sigma, double *work, unsigned *piv)
{
    size_t m = c->n;
    if (b == 0) { /* rods that share no bead: each alone */
        for (size_t k = 0; k < m; k++) {
            double jkk = 2.0 * coupling(c, &c->rod[k], &c->rod[k]), dot = 0.0;
            for (unsigned a = 0; a < c->dim; a++)
                dot += dl[3 * k + a] * ol[3 * k + a];
            if (!(fabs(jkk * dot) > 0.0))
                return -1;
            sigma[k] /= jkk * dot;
        }
        return 0;
    }
    size_t width = 3 * b + 1, ub = b + b; /* GSL's band form: A(i,j) at AB(j, ub + i - j) */
    double *ab = work, *rhs = ab + m * width;
    for (size_t i = 0; i < m * width; i++)
        ab[i] = 0.0;
    double largest = 0.0;
    for (size_t k = 0; k < m; k++) {
        size_t l0 = k > b ? k - b : 0, l1 = k + b < m ? k + b : m - 1;
        for (size_t l = l0; l <= l1; l++) {
            double s = coupling(c, &c->rod[k], &c->rod[l]);
            if (s == 0.0)
                continue;
            double dot = 0.0;
            for (unsigned a = 0; a < c->dim; a++)
                dot += dl[3 * k + a] * ol[3 * l + a];
            ab[l * width + ub + k - l] = 2.0 * s * dot;
        }
        largest = larger(largest, fabs(ab[k * width + ub]));
        rhs[k] = sigma[k];
    }
    gsl_matrix_view AB = gsl_matrix_view_array(ab, m, width);
    gsl_vector_view s = gsl_vector_view_array(sigma, m), r = gsl_vector_view_array(rhs, m);
    gsl_vector_uint_view pv = gsl_vector_uint_view_array(piv, m);
    if (gsl_linalg_LU_band_decomp(m, b, b, &AB.matrix, &pv.vector) != 0)
        return -1;
    int ok = 1;
    for (size_t k = 0; k < m && ok; k++) {
        double u = ab[k * width + ub];
        ok = isfinite(u) && fabs(u) > 64.0 * DBL_EPSILON * largest;
    }
    ok = ok && gsl_linalg_LU_band_solve(b, b, &AB.matrix, &pv.vector, &r.vector, &s.vector) == 0;
    return ok ? 0 : -1;
}

long vb_shake_newton(const vb_constraints *c, double *x, const double *x_old, double tol,
                     double *v, double h)
{
    size_t m = c->n;
    unsigned d = c->dim;
    size_t beads = beads_of(c), b = 0;
    if (m == 0)
        return 0;
    if (rod_bandwidth(c, beads, &b) != 0)
        return -1;
    size_t width = 3 * b + 1, n = beads * d;
    /* the rods' separations now and before the step (3 a rod), sigma,
     * the band and its right-hand side, and x~ and v~ kept for the
     * fallback */
    double stack[SCRATCH_DOUBLES];
    unsigned stack_piv[CHAIN_MAX];
    double *dl = scratch(stack, SCRATCH_DOUBLES, 6 * m + m + m * width + m + 2 * n);
    unsigned *piv = m <= CHAIN_MAX ? stack_piv : malloc(m * sizeof *piv);
    if (!dl || !piv) {
        scratch_free(stack, dl);
        if (piv != stack_piv)
            free(piv);
        return -1;
    }
    double *ol = dl + 3 * m, *sigma = ol + 3 * m, *work = sigma + m, *x0 = work + m * width + m,
           *v0 = x0 + n;
    memcpy(x0, x, n * sizeof *x);
    if (v)
        memcpy(v0, v, n * sizeof *v);
    double far = 0.0, ulp = ROUNDOFF_ULPS * DBL_EPSILON;
    for (size_t k = 0; k < m; k++) {
        ends e = ends_of(c, &c->rod[k], x);
        for (unsigned a = 0; a < d; a++)
            far = larger(far, larger(fabs(e.xi[a]), fabs(e.pj[a])));
        rod_delta(c, k, x_old, ol + 3 * k);
    }
    long result = -1;
    for (long it = 1; it <= NEWTON_MAX_ITERATIONS; it++) {
        /* sigma_k = |x_i - x_j|^2 - L^2, and the test of the sweeps */
        int done = 1;
        for (size_t k = 0; k < m; k++) {
            const vb_constraint *r = &c->rod[k];
            double len2 = 0.0, L2 = r->length * r->length;
            rod_delta(c, k, x, dl + 3 * k);
            for (unsigned a = 0; a < d; a++)
                len2 += dl[3 * k + a] * dl[3 * k + a];
            sigma[k] = len2 - L2;
            if (!(fabs(sigma[k]) <= 2.0 * tol * L2 ||
                  fabs(sigma[k]) <= ulp * r->length * (far + r->length)))
                done = 0;
        }
        if (done) {
            result = it;
            break;
        }
        if (newton_solve(c, b, dl, ol, sigma, work, piv) != 0)
            break;
        /* x -= M^-1 G(x_old)^T dl, and the same / h to v */
        for (size_t k = 0; k < m; k++) {
            const vb_constraint *r = &c->rod[k];
            double gi = sigma[k] * c->inv_mass[r->i],
                   gj = r->j == VB_PIVOT ? 0.0 : sigma[k] * c->inv_mass[r->j];
            for (unsigned a = 0; a < d; a++) {
                x[r->i * d + a] -= gi * ol[3 * k + a];
                if (r->j != VB_PIVOT)
                    x[r->j * d + a] += gj * ol[3 * k + a];
                if (v) {
                    v[r->i * d + a] -= gi * ol[3 * k + a] / h;
                    if (r->j != VB_PIVOT)
                        v[r->j * d + a] += gj * ol[3 * k + a] / h;
                }
            }
        }
    }
    if (result < 0) {
        /* a singular system (redundant rods), or one Newton could not
         * solve: SHAKE's sweeps from x~, which need no factor */
        memcpy(x, x0, n * sizeof *x);
        if (v)
            memcpy(v, v0, n * sizeof *v);
        result = vb_shake(c, x, x_old, tol, VB_CONSTRAIN_MAX_SWEEPS, v, h);
    }
    scratch_free(stack, dl);
    if (piv != stack_piv)
        free(piv);
    return result;
}

int vb_project_velocity(const vb_constraints *c, size_t particles, const double *x, double *v)
{
    size_t m = c->n;
    unsigned d = c->dim;
    /* the half-bandwidth: the widest gap between two rods of one bead */
    size_t b = 0;
    if (rod_bandwidth(c, particles, &b) != 0)
        goto fail;
    /* A in band form: A[k][l], l in k-b .. k, at band[k (b+1) + l - k + b] */
    size_t w = b + 1;
    double stack[SCRATCH_DOUBLES];
    size_t need = m * w + m + (size_t)m * 3;
    double *band = scratch(stack, SCRATCH_DOUBLES, need);
    if (!band)
        goto fail;
    memset(band, 0, need * sizeof *band);
    double *mu = band + m * w, *dl = mu + m; /* the rods' deltas, 3 a rod */
    for (size_t k = 0; k < m; k++)
        rod_delta(c, k, x, dl + 3 * k);
#define A(k, l) band[(k) * w + (l) + b - (k)]
    for (size_t k = 0; k < m; k++) {
        const vb_constraint *r = &c->rod[k];
        const double *dk = dl + 3 * k;
        const double *vj = r->j == VB_PIVOT ? NULL : v + r->j * d;
        double wi = c->inv_mass[r->i], wj = r->j == VB_PIVOT ? 0.0 : c->inv_mass[r->j];
        double gv = 0.0, dd = 0.0;
        for (unsigned a = 0; a < d; a++) {
            gv += dk[a] * (v[r->i * d + a] - (vj ? vj[a] : 0.0));
            dd += dk[a] * dk[a];
        }
        mu[k] = gv;
        A(k, k) = dd * (wi + wj);
        /* the rods before k in the band that share a bead with it */
        for (size_t l = k > b ? k - b : 0; l < k; l++) {
            const vb_constraint *q = &c->rod[l];
            const double *dq = dl + 3 * l;
            double dot = 0.0;
            for (unsigned a = 0; a < d; a++)
                dot += dk[a] * dq[a];
            A(k, l) = coupling(c, r, q) * dot;
        }
    }
    /* banded Cholesky A = L L^T in place, then L y = G v, L^T mu = y */
    int ok = 1;
    for (size_t j = 0; j < m && ok; j++) {
        size_t j0 = j > b ? j - b : 0;
        double s = A(j, j), diag = s;
        for (size_t p = j0; p < j; p++)
            s -= A(j, p) * A(j, p);
        /* a pivot lost to cancellation is a singular system that round-off
         * disguised: its factor would be noise, so it is refused like one */
        ok = s > 64.0 * DBL_EPSILON * diag && isfinite(s);
        double dj = sqrt(s);
        A(j, j) = dj;
        for (size_t i = j + 1; ok && i < m && i <= j + b; i++) {
            size_t i0 = i > b ? i - b : 0;
            double t = A(i, j);
            for (size_t p = (i0 > j0 ? i0 : j0); p < j; p++)
                t -= A(i, p) * A(j, p);
            A(i, j) = t / dj;
        }
    }
    if (ok) {
        for (size_t i = 0; i < m; i++) {
            size_t i0 = i > b ? i - b : 0;
            double s = mu[i];
            for (size_t p = i0; p < i; p++)
                s -= A(i, p) * mu[p];
            mu[i] = s / A(i, i);
        }
        for (size_t i = m; i-- > 0;) {
            double s = mu[i];
            for (size_t p = i + 1; p < m && p <= i + b; p++)
                s -= A(p, i) * mu[p];
            mu[i] = s / A(i, i);
        }
        /* v -= M^-1 G^T mu */
        for (size_t k = 0; k < m; k++) {
            const vb_constraint *r = &c->rod[k];
            const double *dk = dl + 3 * k;
            double wi = c->inv_mass[r->i];
            for (unsigned a = 0; a < d; a++) {
                v[r->i * d + a] -= wi * dk[a] * mu[k];
                if (r->j != VB_PIVOT)
                    v[r->j * d + a] += c->inv_mass[r->j] * dk[a] * mu[k];
            }
        }
    }
#undef A
    scratch_free(stack, band);
    /* A singular (redundant rods: a closed loop of them, say, whose
     * constraints are dependent) has no Cholesky factor, but G v = 0 is
     * still consistent: RATTLE's sweeps, which are Gauss-Seidel on the same
     * system, reach it, to a tolerance near round-off.  v is untouched
     * when the factorisation failed. */
    if (ok || vb_rattle_velocity(c, x, v, 1e-14, 0.0, VB_CONSTRAIN_MAX_SWEEPS) >= 0)
        return 0;
fail:
    for (size_t i = 0; i < particles * d; i++)
        v[i] = NAN;
    return -1;
}
