/* test_constrain.c — the exact velocity projection (constrain.h) against
 * closed forms: the rigid motions of a rigid body, and a bead held between
 * two pivots.  The braced square and the bead between pivots have
 * redundant rods, whose system has no Cholesky factor: they test the
 * fallback on RATTLE's sweeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constrain.h"
#include "truth.h"
#include "unit.h"

/* The projection is a solve of a well-conditioned system of a few
 * unknowns (direct: round-off, ~1e-16 of |v|), or sweeps stopped at 1e-14
 * of the relative speeds (the fallback): 1e-12 of |v| covers both with two
 * orders to spare, and is eight orders below the velocity along the rods
 * the projection removes (O(|v|)). */
#define PROJECT_TOL 1e-12

/* the rigid-body part of v (2-D): the mass-weighted projection onto
 * v_cm + omega x (x - x_cm), which is what rods that make a body rigid
 * leave; omega = (angular momentum about the centre) / (moment of inertia) */
static void rigid_part(size_t n, const double *m, const double *x, const double *v, double *out)
{
    double M = 0.0, xc[2] = {0, 0}, vc[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        M += m[i];
        for (size_t a = 0; a < 2; a++) {
            xc[a] += m[i] * x[2 * i + a];
            vc[a] += m[i] * v[2 * i + a];
        }
    }
    for (size_t a = 0; a < 2; a++) {
        xc[a] /= M;
        vc[a] /= M;
    }
    double Lz = 0.0, I = 0.0;
    for (size_t i = 0; i < n; i++) {
        double rx = x[2 * i] - xc[0], ry = x[2 * i + 1] - xc[1];
        Lz += m[i] * (rx * (v[2 * i + 1] - vc[1]) - ry * (v[2 * i] - vc[0]));
        I += m[i] * (rx * rx + ry * ry);
    }
    double w = Lz / I;
    for (size_t i = 0; i < n; i++) {
        double rx = x[2 * i] - xc[0], ry = x[2 * i + 1] - xc[1];
        out[2 * i] = vc[0] - w * ry;
        out[2 * i + 1] = vc[1] + w * rx;
    }
}

/* rods between the given pairs of beads, each its length at x */
static void rods_at(vb_constraint *rod, const size_t (*pair)[2], size_t n_rods, const double *x)
{
    for (size_t k = 0; k < n_rods; k++) {
        size_t i = pair[k][0], j = pair[k][1];
        double dx = x[2 * i] - x[2 * j], dy = x[2 * i + 1] - x[2 * j + 1];
        memset(&rod[k], 0, sizeof rod[k]);
        rod[k].i = i;
        rod[k].j = j;
        rod[k].length = sqrt(dx * dx + dy * dy);
    }
}

static void check_rigid(const char *what, size_t n, const double *x, const double *m,
                        const size_t (*pair)[2], size_t n_rods)
{
    vb_constraint rod[8];
    double w[4], v[8], want[8], speed = 0.0;
    for (size_t i = 0; i < n; i++)
        w[i] = 1.0 / m[i];
    rods_at(rod, pair, n_rods, x);
    vb_constraints c = {n_rods, rod, 2, w};
    /* a velocity with parts along every rod, far from rigid */
    for (size_t i = 0; i < 2 * n; i++) {
        v[i] = sin(1.0 + 2.3 * (double)i) * (1.0 + (double)i);
        speed = max_or_nan(speed, fabs(v[i]));
    }
    rigid_part(n, m, x, v, want);
    CHECK(vb_project_velocity(&c, n, x, v) == 0, "%s: the projection failed", what);
    for (size_t i = 0; i < 2 * n; i++)
        CHECK_ABS(v[i], want[i], PROJECT_TOL * speed, what);
}

static void test_projection_rigid_triangle(void)
{
    /* three rods make a triangle rigid, none redundant: the direct solve */
    const double x[] = {0.0, 0.0, 1.3, 0.2, 0.4, 0.9}, m[] = {1.0, 2.5, 0.7};
    const size_t pair[][2] = {{0, 1}, {1, 2}, {2, 0}};
    check_rigid("triangle", 3, x, m, pair, 3);
}

static void test_projection_braced_square(void)
{
    /* a square needs five rods to be rigid; with both diagonals it has six,
     * one redundant: the system is singular */
    const double x[] = {0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0}, m[] = {1.0, 3.0, 0.5, 2.0};
    const size_t pair[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {1, 3}};
    check_rigid("braced square", 4, x, m, pair, 6);
}

static void test_projection_bead_between_pivots(void)
{
    /* one bead on two rods to pivots on either side, in line: both rods
     * allow only motion across the line, and say so twice */
    vb_constraint rod[2];
    memset(rod, 0, sizeof rod);
    rod[0] = (vb_constraint){.i = 0, .j = VB_PIVOT, .length = 1.0, .pivot = {-1.0, 0.0, 0.0}};
    rod[1] = (vb_constraint){.i = 0, .j = VB_PIVOT, .length = 1.0, .pivot = {1.0, 0.0, 0.0}};
    double w[1] = {1.0}, x[2] = {0.0, 0.0}, v[2] = {0.8, -0.3};
    vb_constraints c = {2, rod, 2, w};
    CHECK(vb_project_velocity(&c, 1, x, v) == 0, "bead between pivots: the projection failed");
    CHECK_ABS(v[0], 0.0, PROJECT_TOL, "bead between pivots: no speed along the rods");
    CHECK_ABS(v[1], -0.3, PROJECT_TOL, "bead between pivots: the speed across them kept");
}

/* RATTLE's step of h from 20 exact states spread over a period of the
 * hanging chain of n rods (its reference), as rattle.c takes it: the mean
 * sweeps of the position stage (SHAKE's) and of the velocity stage, at
 * tolerance 1e-10.  docs/constraints.md's table of sweeps is these. */
static int mean_sweeps(int n, double h, double *shake, double *velocity)
{
    char N[16];
    snprintf(N, sizeof N, "N=%d", n);
    const char *sets[] = {N, NULL};
    vb_model m = test_model("hanging-chain", sets);
    vb_truth *tr = vb_truth_alloc(&m);
    size_t dof = m.n;
    double *buf = malloc(5 * dof * sizeof *buf);
    int rc = tr && buf ? 0 : -1;
    double *x = buf, *v = x + dof, *a = v + dof, *xt = a + dof, *vt = xt + dof;
    double T = m.type->natural_time(m.self), sum[2] = {0, 0};
    const int states = 20;
    for (int k = 0; rc == 0 && k < states; k++) {
        double t = T * k / states;
        rc = vb_truth_at(tr, t, x, v);
        m.type->accel(m.self, t, x, v, a);
        for (size_t i = 0; rc == 0 && i < dof; i++) {
            vt[i] = v[i] + a[i] * h / 2;
            xt[i] = x[i] + vt[i] * h;
        }
        long s1 = vb_shake(&m.cons, xt, x, 1e-10, VB_CONSTRAIN_MAX_SWEEPS, vt, h);
        m.type->accel(m.self, t + h, xt, vt, a);
        for (size_t i = 0; i < dof; i++)
            vt[i] += a[i] * h / 2;
        long s2 = vb_rattle_velocity(&m.cons, xt, vt, 1e-10, 0.0, VB_CONSTRAIN_MAX_SWEEPS);
        if (s1 < 0 || s2 < 0)
            rc = -1;
        sum[0] += (double)s1;
        sum[1] += (double)s2;
    }
    *shake = sum[0] / states;
    *velocity = sum[1] / states;
    free(buf);
    vb_truth_free(tr);
    return rc;
}

static void test_shake_sweeps_grow_as_n_squared(void)
{
    /* Gauss-Seidel on a chain's rods is Gauss-Seidel on a tridiagonal,
     * Laplacian-like system: its convergence factor is 1 - O(1/N^2) (the
     * 1-D Laplacian's cos^2(pi/(N+1))), so the sweeps to a fixed tolerance
     * grow as N^2.  Four times the rods is 16 times the sweeps, or
     * ((4N+1)/(N+1))^2 = 11.6 from 4 to 16 rods by the Laplacian's own
     * form: between 8 and 32 allows for the chain's mass weights and its
     * pivot end, and refuses a method whose cost grows as N (a direct
     * solve, or SOR at its best factor: ratio 4) or as N^3. */
    const int n[] = {2, 4, 16, 64};
    double shake[4], vel[4];
    for (int k = 0; k < 4; k++) {
        CHECK(mean_sweeps(n[k], 0.01, &shake[k], &vel[k]) == 0,
              "%d rods: an iteration did not converge", n[k]);
        unit_note("%2d rods, dt 0.01, tol 1e-10: %.0f sweeps for the positions (%.2f N^2), %.0f "
                  "for the velocities (%.2f N^2)",
                  n[k], shake[k], shake[k] / (n[k] * n[k]), vel[k], vel[k] / (n[k] * n[k]));
    }
    for (int k = 1; k < 3; k++) {
        double rs = shake[k + 1] / shake[k], rv = vel[k + 1] / vel[k];
        CHECK(rs >= 8 && rs <= 32, "SHAKE's sweeps from %d to %d rods grow %.3g times, not ~16",
              n[k], n[k + 1], rs);
        CHECK(rv >= 8 && rv <= 32, "RATTLE's velocity sweeps from %d to %d rods grow %.3g times",
              n[k], n[k + 1], rv);
    }
}

/* The direct solve against the sweeps from the same step of the hanging
 * chain: both stop with every rod within tol L, so each bead's position
 * differs by a few tol L at most (the rods' lengths are the equations, and
 * the chain's Jacobian is well conditioned at these steps: its solution
 * moves by O(1) times what the residual does).  10 tol L allows for the
 * sum along the chain of N small rods' errors at 64 rods (each rod is
 * L/N: 64 rods of tol L/64 add to tol L) with a margin of 10.  The
 * velocities: the direct projection leaves no speed along any rod (to
 * round-off, 1e-12 of the fastest bead); RATTLE's sweeps stop where the
 * speed along each rod is within tol, and their velocity is then within
 * tol times the condition of the chain's system of the exact one: the
 * Laplacian-like matrix's 4/(pi/(N+1))^2 = 0.4 (N+1)^2, so (N+1)^2 tol
 * with a margin of 2.5.  Newton converges quadratically from a residual
 * of O(h^2) of L: at most 4 iterations, where the sweeps need hundreds. */
static void test_shake_direct_matches_sweeps(void)
{
    const int sizes[] = {2, 16, 64};
    const double tol = 1e-10, h = 0.01;
    for (int q = 0; q < 3; q++) {
        char N[16];
        snprintf(N, sizeof N, "N=%d", sizes[q]);
        const char *sets[] = {N, NULL};
        vb_model m = test_model("hanging-chain", sets);
        vb_truth *tr = vb_truth_alloc(&m);
        size_t dof = m.n;
        double *buf = malloc(8 * dof * sizeof *buf);
        CHECK(tr && buf, "out of memory");
        if (!tr || !buf)
            return;
        double *x = buf, *v = x + dof, *a = v + dof, *xd = a + dof, *vd = xd + dof, *xs = vd + dof,
               *vs = xs + dof;
        double T = m.type->natural_time(m.self), L = 0.0, worst_x = 0.0, worst_v = 0.0;
        long most = 0;
        for (size_t k = 0; k < m.cons.n; k++)
            L += m.cons.rod[k].length;
        for (int k = 0; k < 10; k++) {
            double t = T * k / 10;
            CHECK(vb_truth_at(tr, t, x, v) == 0, "N=%d: the truth", sizes[q]);
            m.type->accel(m.self, t, x, v, a);
            for (size_t i = 0; i < dof; i++) {
                vd[i] = vs[i] = v[i] + a[i] * h / 2;
                xd[i] = xs[i] = x[i] + vd[i] * h;
            }
            long it = vb_shake_newton(&m.cons, xd, x, tol, vd, h);
            long sw = vb_shake(&m.cons, xs, x, tol, VB_CONSTRAIN_MAX_SWEEPS, vs, h);
            CHECK(it > 0 && sw > 0, "N=%d: a solve failed (%ld, %ld)", sizes[q], it, sw);
            most = it > most ? it : most;
            /* every rod its length, from the positions here */
            for (size_t r = 0; r < m.cons.n; r++) {
                const vb_constraint *rod = &m.cons.rod[r];
                double d2 = 0.0;
                for (unsigned c = 0; c < 2; c++) {
                    double e = xd[rod->i * 2 + c] -
                               (rod->j == VB_PIVOT ? rod->pivot[c] : xd[rod->j * 2 + c]);
                    d2 += e * e;
                }
                CHECK_ABS(sqrt(d2), rod->length, 1.01 * tol * rod->length, "a rod's length");
            }
            double fast = 0.0;
            for (size_t i = 0; i < dof; i++) {
                worst_x = max_or_nan(worst_x, fabs(xd[i] - xs[i]));
                fast = max_or_nan(fast, fabs(vs[i]));
            }
            m.type->accel(m.self, t + h, xd, vd, a);
            for (size_t i = 0; i < dof; i++) {
                vd[i] += a[i] * h / 2;
                vs[i] += a[i] * h / 2;
            }
            CHECK(vb_project_velocity(&m.cons, dof / 2, xd, vd) == 0, "the projection");
            CHECK(vb_rattle_velocity(&m.cons, xs, vs, tol, 0.0, VB_CONSTRAIN_MAX_SWEEPS) > 0,
                  "RATTLE's sweeps");
            for (size_t i = 0; i < dof; i++)
                worst_v = max_or_nan(worst_v, fabs(vd[i] - vs[i]) / fast);
            for (size_t r = 0; r < m.cons.n; r++) {
                const vb_constraint *rod = &m.cons.rod[r];
                double along = 0.0;
                for (unsigned c = 0; c < 2; c++)
                    along += (xd[rod->i * 2 + c] -
                              (rod->j == VB_PIVOT ? rod->pivot[c] : xd[rod->j * 2 + c])) *
                             (vd[rod->i * 2 + c] - (rod->j == VB_PIVOT ? 0.0 : vd[rod->j * 2 + c]));
                CHECK_ABS(along / rod->length, 0.0, 1e-12 * fast, "speed along a rod");
            }
        }
        unit_note("%2d rods: direct and sweeps %.2g L apart in position, %.2g of the fastest "
                  "speed in velocity; Newton in at most %ld iterations",
                  sizes[q], worst_x / L, worst_v, most);
        CHECK(worst_x <= 10 * tol * L, "N=%d: positions %.3g apart, more than 10 tol L",
              sizes[q], worst_x);
        CHECK(worst_v <= tol * (sizes[q] + 1) * (sizes[q] + 1),
              "N=%d: velocities %.3g apart", sizes[q], worst_v);
        CHECK(most <= 4, "N=%d: Newton took %ld iterations, not quadratic", sizes[q], most);
        free(buf);
        vb_truth_free(tr);
    }
}

/* One rod to a pivot has SHAKE's correction in closed form: x = x~ - g
 * old with |x~ - g old|^2 = L^2, the root of a quadratic nearer 0:
 *     g = (b - sqrt(b^2 - |old|^2 sigma)) / |old|^2,  b = x~ . old,
 * sigma = |x~|^2 - L^2 (pivot at the origin, unit mass).  Newton
 * reaches it to its tolerance, 1e-12 of L here. */
static void test_shake_direct_one_rod_closed_form(void)
{
    vb_constraint rod = {.i = 0, .j = VB_PIVOT, .length = 1.5, .pivot = {0, 0, 0}};
    double w[1] = {1.0}, old[2] = {1.5 * cos(0.3), -1.5 * sin(0.3)}, x[2] = {1.1, -0.9};
    vb_constraints c = {1, &rod, 2, w};
    double b = x[0] * old[0] + x[1] * old[1], o2 = old[0] * old[0] + old[1] * old[1];
    double sigma = x[0] * x[0] + x[1] * x[1] - 1.5 * 1.5;
    double g = (b - sqrt(b * b - o2 * sigma)) / o2;
    double want[2] = {x[0] - g * old[0], x[1] - g * old[1]};
    CHECK(vb_shake_newton(&c, x, old, 1e-12, NULL, 0.0) > 0, "one rod: Newton failed");
    CHECK_ABS(x[0], want[0], 1e-11, "one rod: x");
    CHECK_ABS(x[1], want[1], 1e-11, "one rod: y");
}

/* Redundant rods: the Jacobian is singular, and the direct solve falls
 * back on the sweeps.  A bead between two pivots in line, pushed along
 * the line, goes back to the middle: the one point where both rods have
 * their length.  A braced square (six rods, one redundant) stepped by a
 * rigid turn plus a small push: every rod its length to tol. */
static void test_shake_direct_redundant_rods(void)
{
    vb_constraint rod[6];
    memset(rod, 0, sizeof rod);
    rod[0] = (vb_constraint){.i = 0, .j = VB_PIVOT, .length = 1.0, .pivot = {-1.0, 0.0, 0.0}};
    rod[1] = (vb_constraint){.i = 0, .j = VB_PIVOT, .length = 1.0, .pivot = {1.0, 0.0, 0.0}};
    double w[4] = {1.0, 1.0 / 3.0, 2.0, 0.5}, old[8] = {0.0, 0.0}, x[8] = {0.05, 0.0};
    vb_constraints c = {2, rod, 2, w};
    CHECK(vb_shake_newton(&c, x, old, 1e-12, NULL, 0.0) > 0, "bead between pivots: failed");
    CHECK_ABS(x[0], 0.0, 1e-12, "bead between pivots: back in the middle");
    CHECK_ABS(x[1], 0.0, 1e-12, "bead between pivots: on the line");

    const double sq[] = {0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0};
    const size_t pair[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {1, 3}};
    rods_at(rod, pair, 6, sq);
    c = (vb_constraints){6, rod, 2, w};
    double th = 0.02;
    for (size_t i = 0; i < 4; i++) {
        x[2 * i] = cos(th) * sq[2 * i] - sin(th) * sq[2 * i + 1] + 1e-3 * sin(3.0 * (double)i);
        x[2 * i + 1] = sin(th) * sq[2 * i] + cos(th) * sq[2 * i + 1] + 1e-3 * cos(5.0 * (double)i);
    }
    CHECK(vb_shake_newton(&c, x, sq, 1e-12, NULL, 0.0) > 0, "braced square: failed");
    for (size_t k = 0; k < 6; k++) {
        double dx = x[2 * rod[k].i] - x[2 * rod[k].j], dy = x[2 * rod[k].i + 1] - x[2 * rod[k].j + 1];
        CHECK_ABS(sqrt(dx * dx + dy * dy), rod[k].length, 1.01e-12 * rod[k].length,
                  "braced square: a rod's length");
    }
}

/* Jakobsen's relaxation as his article writes it, rod after rod in their
 * order, sweep after sweep: the truth vb_relax must give bit for bit,
 * whatever order it takes the rods of a chain in (it may reorder only
 * updates that touch no common bead). */
static void relax_as_written(const vb_constraints *c, double *x, int sweeps)
{
    unsigned d = c->dim;
    for (int s = 0; s < sweeps; s++)
        for (size_t k = 0; k < c->n; k++) {
            const vb_constraint *r = &c->rod[k];
            double *xi = x + r->i * d, *xj = r->j == VB_PIVOT ? NULL : x + r->j * d;
            const double *pj = xj ? xj : r->pivot;
            double wi = c->inv_mass[r->i], wj = xj ? c->inv_mass[r->j] : 0.0;
            double delta[3], len2 = 0.0;
            for (unsigned a = 0; a < d; a++) {
                delta[a] = xi[a] - pj[a];
                len2 += delta[a] * delta[a];
            }
            double len = sqrt(len2);
            if (!(len > 0.0))
                continue;
            double diff = (len - r->length) / len, w = wi + wj;
            for (unsigned a = 0; a < d; a++) {
                xi[a] -= wi / w * diff * delta[a];
                if (xj)
                    xj[a] += wj / w * diff * delta[a];
            }
        }
}

/* SHAKE's sweeps as written (Ryckaert et al.): each rod in turn corrected
 * along its direction at x_old (and v by the correction / h, when given),
 * sweep after sweep, until one corrects no rod or `sweeps` are done.  A rod
 * is kept when |sigma| is within 2 tol L^2 or ulp L (far + L) (constrain.h's
 * test; all 0: exactly its length), skipped when at right angles to its
 * old direction.  vb_shake's count: the sweeps, or -1 when one skipped a
 * rod so (`strict`) or none came to rest. */
static long shake_as_written(const vb_constraints *c, double *x, const double *x_old, double tol,
                             double ulp, double far, int strict, double *v, double h, long sweeps)
{
    unsigned d = c->dim;
    for (long s = 1; s <= sweeps; s++) {
        int corrected = 0, degenerate = 0;
        for (size_t k = 0; k < c->n; k++) {
            const vb_constraint *r = &c->rod[k];
            double *xi = x + r->i * d, *xj = r->j == VB_PIVOT ? NULL : x + r->j * d;
            const double *pj = xj ? xj : r->pivot, *oi = x_old + r->i * d,
                         *oj = xj ? x_old + r->j * d : r->pivot;
            double wi = c->inv_mass[r->i], wj = xj ? c->inv_mass[r->j] : 0.0;
            double delta[3], old[3], len2 = 0.0, dot = 0.0, L2 = r->length * r->length;
            for (unsigned a = 0; a < d; a++) {
                delta[a] = xi[a] - pj[a];
                old[a] = oi[a] - oj[a];
                len2 += delta[a] * delta[a];
                dot += delta[a] * old[a];
            }
            double sigma = len2 - L2;
            if (fabs(sigma) <= 2.0 * tol * L2 || fabs(sigma) <= ulp * r->length * (far + r->length))
                continue;
            if (!(fabs(dot) > 1e-12 * L2)) {
                degenerate = 1;
                continue;
            }
            corrected = 1;
            double g = sigma / (2.0 * (wi + wj) * dot);
            for (unsigned a = 0; a < d; a++) {
                xi[a] -= g * wi * old[a];
                if (xj)
                    xj[a] += g * wj * old[a];
                if (v) {
                    v[r->i * d + a] -= g * wi * old[a] / h;
                    if (xj)
                        v[r->j * d + a] += g * wj * old[a] / h;
                }
            }
        }
        if (strict && degenerate)
            return -1;
        if (!corrected)
            return s;
    }
    return -1;
}

/* SHAKE to its tolerance on chains of 2 to 64 rods (the wavefront order):
 * from steps of the hanging chain at 10 of the reference's states over a
 * period, positions and velocities (RATTLE's stage) and the sweeps taken
 * the same bits as the plain order's; and a step of 0.3, too large for
 * the longer chains, where the sweeps do not come to rest in 2000, fails
 * both ways. */
static void test_shake_chain_same_bits(void)
{
    const int sizes[] = {2, 4, 16, 64};
    int failed = 0;
    for (int q = 0; q < 4; q++) {
        char N[16];
        snprintf(N, sizeof N, "N=%d", sizes[q]);
        const char *sets[] = {N, NULL};
        vb_model m = test_model("hanging-chain", sets);
        vb_truth *tr = vb_truth_alloc(&m);
        size_t dof = m.n;
        double *buf = malloc(7 * dof * sizeof *buf);
        CHECK(tr && buf, "out of memory");
        if (!tr || !buf)
            return;
        double *x = buf, *v = x + dof, *a = v + dof, *xs = a + dof, *vs = xs + dof,
               *xw = vs + dof, *vw = xw + dof;
        double T = m.type->natural_time(m.self);
        for (int k = 0; k < 10; k++) {
            double t = T * k / 10, h = k < 9 ? 0.01 : 0.3;
            long most = k < 9 ? VB_CONSTRAIN_MAX_SWEEPS : 2000;
            CHECK(vb_truth_at(tr, t, x, v) == 0, "N=%d: the truth", sizes[q]);
            m.type->accel(m.self, t, x, v, a);
            double far = 0.0;
            for (size_t i = 0; i < dof; i++) {
                vs[i] = vw[i] = v[i] + a[i] * h / 2;
                xs[i] = xw[i] = x[i] + vs[i] * h;
                far = max_or_nan(far, fabs(xs[i]));
            }
            long got = vb_shake(&m.cons, xs, x, 1e-10, most, vs, h);
            long want = shake_as_written(&m.cons, xw, x, 1e-10, 8.0 * DBL_EPSILON, far, 1, vw, h,
                                         most);
            CHECK(got == want, "N=%d, h=%g: %ld sweeps, the plain order %ld", sizes[q], h, got,
                  want);
            if (want > 0)
                CHECK(memcmp(xs, xw, dof * sizeof *x) == 0 && memcmp(vs, vw, dof * sizeof *v) == 0,
                      "N=%d: not the plain order's bits", sizes[q]);
            CHECK(k == 9 || want > 0, "N=%d, h=%g: SHAKE failed", sizes[q], h);
            failed += want < 0;
        }
        free(buf);
        vb_truth_free(tr);
    }
    CHECK(failed > 0, "no step too large: the failing path went untested");
}

/* Chains of 1 to 64 rods hung from a pivot (the wavefront order), in 2-D
 * and 3-D, unequal masses and lengths, beads pushed off their rods (and
 * two beads on one point, a rod with no direction), 1 to 100 sweeps: the
 * same bits as the article's order, Jakobsen's and SHAKE's; and a chain
 * whose rods are listed in another order (not a chain to vb_relax: the
 * plain order). */
static void test_relax_chain_same_bits(void)
{
    enum { MAX = 64 };
    static const size_t rods[] = {1, 2, 3, 4, 5, 16, 64};
    static const int sweeps[] = {1, 2, 3, 10, 100};
    vb_constraint rod[MAX];
    double w[MAX], x0[3 * MAX], x[3 * MAX], want[3 * MAX];
    for (unsigned d = 2; d <= 3; d++)
        for (size_t q = 0; q < sizeof rods / sizeof *rods; q++) {
            size_t m = rods[q];
            for (size_t k = 0; k < m; k++) {
                double u = (double)k;
                memset(&rod[k], 0, sizeof rod[k]);
                rod[k].i = k;
                rod[k].j = k ? k - 1 : VB_PIVOT;
                rod[k].length = 0.3 + 0.1 * sin(1.7 * u);
                rod[k].pivot[0] = 0.25, rod[k].pivot[1] = -0.5, rod[k].pivot[2] = 0.125;
                w[k] = 1.0 / (1.0 + 0.5 * cos(2.3 * u));
                for (unsigned a = 0; a < d; a++)
                    x0[k * d + a] = 0.3 * u * (a == 1 ? -1.0 : 0.2) + 0.05 * sin(u + 3.1 * a);
            }
            if (m >= 3) /* beads 1 and 2 on one point: rod 2 has no direction */
                memcpy(x0 + 2 * d, x0 + d, d * sizeof *x0);
            vb_constraints c = {m, rod, d, w};
            for (size_t s = 0; s < sizeof sweeps / sizeof *sweeps; s++) {
                memcpy(x, x0, m * d * sizeof *x);
                memcpy(want, x0, m * d * sizeof *x);
                vb_relax(&c, x, sweeps[s]);
                relax_as_written(&c, want, sweeps[s]);
                CHECK(memcmp(x, want, m * d * sizeof *x) == 0,
                      "%uD chain of %zu rods, %d sweeps: not the article's bits", d, m,
                      sweeps[s]);
                /* SHAKE's sweeps along the directions of x0 from x0 moved */
                for (size_t i = 0; i < m * d; i++)
                    x[i] = want[i] = x0[i] + 0.01 * cos(0.7 * (double)i);
                vb_shake_sweeps(&c, x, x0, sweeps[s]);
                shake_as_written(&c, want, x0, 0.0, 0.0, 0.0, 0, NULL, 0.0, sweeps[s]);
                CHECK(memcmp(x, want, m * d * sizeof *x) == 0,
                      "%uD chain of %zu rods, %d of SHAKE's sweeps: not their bits", d, m,
                      sweeps[s]);
            }
            if (m >= 2) { /* the last rod listed first */
                vb_constraint first = rod[m - 1];
                memmove(rod + 1, rod, (m - 1) * sizeof *rod);
                rod[0] = first;
                memcpy(x, x0, m * d * sizeof *x);
                memcpy(want, x0, m * d * sizeof *x);
                vb_relax(&c, x, 10);
                relax_as_written(&c, want, 10);
                CHECK(memcmp(x, want, m * d * sizeof *x) == 0,
                      "%uD chain of %zu rods listed out of order: not the article's bits", d, m);
            }
        }
}

/* The chain's wavefronts in pairs (vb_relax takes two rods of a wavefront
 * at once, k and k + 2, where the processor has packed doubles; SHAKE's
 * sweeps, one rod at a time, are held to the same edges): on chains in 1-D, 2-D and 3-D of 2 to 9, 16, 17 and 64 rods
 * (wavefronts of an even and of an odd number of rods, one left over),
 * beads of unequal masses, 2 to 100 sweeps, the same bits as the plain
 * order; with a rod of no length every sweep (two pinned beads on one
 * point, inverse masses 0, which no rod moves), and with a NaN coordinate
 * at the first bead or the last (its rods skipped every sweep), each the
 * lane of a pair that the others share.  Those beads must end where they
 * started, as the plain order leaves them. */
static void test_chain_pairs_same_bits(void)
{
    enum { MAX = 64 };
    static const size_t rods[] = {2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 64};
    static const int sweeps[] = {2, 3, 7, 100};
    static const char *const edge[] = {"no edge", "a rod of no length", "a NaN at the first bead",
                                       "a NaN at the last bead"};
    vb_constraint rod[MAX];
    double w[MAX], x0[3 * MAX], start[3 * MAX], x[3 * MAX], want[3 * MAX];
    for (unsigned d = 1; d <= 3; d++)
        for (size_t q = 0; q < sizeof rods / sizeof *rods; q++)
            for (int e = 0; e < 4; e++) {
                size_t m = rods[q], z = m / 2, nan_at = e == 2 ? 0 : m - 1;
                if (e == 1 && m < 4)
                    continue; /* beads z - 1 and z pinned: z >= 2 keeps rod 0 free */
                for (size_t k = 0; k < m; k++) {
                    double u = (double)k;
                    memset(&rod[k], 0, sizeof rod[k]);
                    rod[k].i = k;
                    rod[k].j = k ? k - 1 : VB_PIVOT;
                    rod[k].length = 0.3 + 0.1 * sin(1.3 * u);
                    rod[k].pivot[0] = -0.25, rod[k].pivot[1] = 0.5, rod[k].pivot[2] = 0.75;
                    w[k] = 1.0 / (1.0 + 0.6 * sin(0.9 * u + 0.4));
                    for (unsigned a = 0; a < d; a++)
                        x0[k * d + a] = 0.28 * u * (a == 1 ? -1.0 : 0.3) + 0.07 * cos(u + 2.1 * a);
                }
                if (e == 1) {
                    w[z - 1] = w[z] = 0.0;
                    memcpy(x0 + z * d, x0 + (z - 1) * d, d * sizeof *x0);
                }
                if (e >= 2)
                    x0[nan_at * d + d - 1] = NAN;
                vb_constraints c = {m, rod, d, w};
                for (size_t s = 0; s < sizeof sweeps / sizeof *sweeps; s++)
                    for (int shake = 0; shake <= 1; shake++) {
                        /* SHAKE's along the directions of x0, from the free
                         * beads of x0 moved */
                        for (size_t i = 0; i < m * d; i++)
                            x[i] = want[i] = start[i] =
                                x0[i] + (shake && w[i / d] != 0.0 ? 0.02 * cos(0.7 * (double)i) : 0.0);
                        if (shake) {
                            vb_shake_sweeps(&c, x, x0, sweeps[s]);
                            shake_as_written(&c, want, x0, 0.0, 0.0, 0.0, 0, NULL, 0.0, sweeps[s]);
                        } else {
                            vb_relax(&c, x, sweeps[s]);
                            relax_as_written(&c, want, sweeps[s]);
                        }
                        CHECK(memcmp(x, want, m * d * sizeof *x) == 0,
                              "%uD chain of %zu rods, %s, %d of %s sweeps: not the plain order's bits",
                              d, m, edge[e], sweeps[s], shake ? "SHAKE's" : "Jakobsen's");
                        if (e == 1)
                            CHECK(memcmp(x + (z - 1) * d, start + (z - 1) * d, 2 * d * sizeof *x) == 0,
                                  "%uD chain of %zu rods: the pinned beads moved", d, m);
                        if (e >= 2)
                            CHECK(isnan(x[nan_at * d + d - 1]) &&
                                      (d == 1 || memcmp(x + nan_at * d, start + nan_at * d,
                                                        (d - 1) * sizeof *x) == 0),
                                  "%uD chain of %zu rods: the NaN bead moved", d, m);
                    }
            }
}

void suite_constrain(void)
{
    RUN(test_relax_chain_same_bits);
    RUN(test_chain_pairs_same_bits);
    RUN(test_shake_chain_same_bits);
    RUN(test_shake_direct_matches_sweeps);
    RUN(test_shake_direct_one_rod_closed_form);
    RUN(test_shake_direct_redundant_rods);
    RUN(test_shake_sweeps_grow_as_n_squared);
    RUN(test_projection_rigid_triangle);
    RUN(test_projection_braced_square);
    RUN(test_projection_bead_between_pivots);
}
