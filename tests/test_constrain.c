/* test_constrain.c — the exact velocity projection (constrain.h) against
 * closed forms: the rigid motions of a rigid body, and a bead held between
 * two pivots.  The braced square and the bead between pivots have
 * redundant rods, whose system has no Cholesky factor: they test the
 * fallback on RATTLE's sweeps. */
#include <string.h>

#include "constrain.h"
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

void suite_constrain(void)
{
    RUN(test_projection_rigid_triangle);
    RUN(test_projection_braced_square);
    RUN(test_projection_bead_between_pivots);
}
