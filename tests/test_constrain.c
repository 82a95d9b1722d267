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
        speed = fmax(speed, fabs(v[i]));
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

void suite_constrain(void)
{
    RUN(test_shake_sweeps_grow_as_n_squared);
    RUN(test_projection_rigid_triangle);
    RUN(test_projection_braced_square);
    RUN(test_projection_bead_between_pivots);
}
