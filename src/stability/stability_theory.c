/* stability_theory.c — the closed-form limits z* = omega h* of the built-in
 * integrators with fixed steps, each derived from the method's one-step
 * matrix on x'' = -omega^2 x (- 2 zeta omega x'), as its file in
 * src/integrators/ writes it: docs/stability.md §3-§5.  None for the orbit
 * (a nonlinear limit), none for a plugin's method or a method not derived. */
#include "stability_search.h"
#include "integrator.h"
#include "stepmatrix.h"

#include <gsl/gsl_complex.h>
#include <gsl/gsl_complex_math.h>
#include <gsl/gsl_poly.h>
#include <math.h>
#include <string.h>

/* methods whose fixed-step map on a linear force is Stormer-Verlet's,
 * lambda^2 - (2 - z^2) lambda + 1 (docs/stability.md §3.2) */
static const char *const verlet_family[] = {
    "euler-semi", "verlet", "verlet-naive", "tcv", "verlet-var", "velocity-verlet", "leapfrog",
};

static int in_family(const char *name)
{
    for (size_t i = 0; i < sizeof verlet_family / sizeof verlet_family[0]; i++)
        if (!strcmp(name, verlet_family[i]))
            return 1;
    return 0;
}

/* The undamped oscillator. */
static double undamped(const char *name)
{
    if (!strcmp(name, "euler"))
        return 0.0; /* |lambda|^2 = 1 + z^2 > 1 for every z > 0 */
    if (in_family(name) || !strcmp(name, "beeman"))
        return 2.0;
    if (!strcmp(name, "rk4"))
        return 2.0 * sqrt(2.0); /* |R(iz)|^2 = 1 + z^6 (z^2 - 8) / 576 */
    if (!strcmp(name, "yoshida4"))
        return 2.0 * sqrt(3.0 * (1.0 - 1.0 / cbrt(2.0))); /* A(z) = +1, §3.4 */
    if (!strcmp(name, "pefrl"))
        /* the first root of A(z) = -1, a quartic in z^2 with the decimal
         * coefficients of pefrl.c (§3.5), to 1e-19 */
        return 2.9894495459067293;
    return NAN;
}

/* The damped spring, zeta = c / (2 sqrt(k m)), z = omega0 h: §4. */
static double damped(const char *name, double zeta)
{
    if (zeta == 0.0)
        return undamped(name);
    if (!strcmp(name, "euler"))
        return 2.0 * zeta; /* h* = c / k */
    if (in_family(name))
        return 2.0 * (sqrt(1.0 + zeta * zeta) - zeta); /* h* = 4m / (c + sqrt(c^2 + 4km)) */
    if (!strcmp(name, "beeman"))
        /* h* = 6m / (5c + sqrt(25c^2 + 9km)) */
        return 2.0 * (sqrt(1.0 + 100.0 * zeta * zeta / 9.0) - 10.0 * zeta / 3.0);
    return NAN;
}

double vb_stab_theory(const vb_stab_problem *p, const vb_integrator *g)
{
    if (!vb_integrator_builtin(g) || vb_integrator_type(g) != g)
        return NAN; /* a plugin's method, or one with parameters set */
    if (p->criterion == VB_STAB_ESCAPE)
        return NAN;
    if (!strcmp(p->model->type->name, "damped-spring"))
        return damped(g->name, p->zeta);
    return undamped(g->name); /* the spring, and the chain's highest mode */
}

/* The characteristic polynomial lambda^3 + a2 lambda^2 + a1 lambda + a0 of
 * the step matrix at z: 0, or -1 for a method without one */
static int char_poly(const vb_integrator *g, double z, double zeta, double c[3])
{
    double m[3][3];
    if (vb_step_matrix(g, z, zeta, m) != 0)
        return -1;
    double tr = m[0][0] + m[1][1] + m[2][2];
    double minors = m[0][0] * m[1][1] - m[0][1] * m[1][0] + m[0][0] * m[2][2] -
                    m[0][2] * m[2][0] + m[1][1] * m[2][2] - m[1][2] * m[2][1];
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                 m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                 m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    c[2] = -tr;
    c[1] = minors;
    c[0] = -det;
    return 0;
}

/* Every root strictly inside the unit circle, by the Schur-Cohn (Jury)
 * conditions for a monic cubic (as §4 uses them for quadratics): p(1) > 0,
 * -p(-1) > 0, |a0| < 1, |1 - a0^2| > |a1 - a0 a2|.  No root is computed,
 * so a double root near the circle costs no accuracy; damped (zeta > 0),
 * a stable step's roots are inside, not on, the circle. */
static int schur_stable(const double c[3])
{
    double a0 = c[0], a1 = c[1], a2 = c[2];
    return 1.0 + a2 + a1 + a0 > 0.0 && 1.0 - a2 + a1 - a0 > 0.0 && fabs(a0) < 1.0 &&
           fabs(1.0 - a0 * a0) > fabs(a1 - a0 * a2);
}

static int stable_at(const vb_integrator *g, double z, double zeta)
{
    double c[3];
    return char_poly(g, z, zeta, c) == 0 && schur_stable(c);
}

/* the spectral radius at z (GSL's cubic roots) */
static double radius(const vb_integrator *g, double z, double zeta)
{
    double c[3];
    if (char_poly(g, z, zeta, c) != 0)
        return NAN;
    gsl_complex r[3];
    gsl_poly_complex_solve_cubic(c[2], c[1], c[0], &r[0], &r[1], &r[2]);
    return fmax(gsl_complex_abs(r[0]), fmax(gsl_complex_abs(r[1]), gsl_complex_abs(r[2])));
}

/* the edge between a (stable_at(a) == sa) and b (the other), to 1e-12 */
static double edge(const vb_integrator *g, double zeta, double a, double b, int sa)
{
    while (fabs(b - a) > 1e-12 * fabs(a)) {
        double mid = 0.5 * (a + b);
        if (stable_at(g, mid, zeta) == sa)
            a = mid;
        else
            b = mid;
    }
    return 0.5 * (a + b);
}

int vb_stab_gap_below(const vb_stab_problem *p, const vb_integrator *g, const vb_stab_opts *o,
                      double z_from, double z_below, vb_stab_gap *gap)
{
    gap->lo = gap->hi = gap->periods = NAN;
    const char *model = p->model->type->name;
    if (p->criterion != VB_STAB_GROWTH || !(p->zeta > 0.0) ||
        (strcmp(model, "spring") != 0 && strcmp(model, "damped-spring") != 0))
        return 0;
    if (!vb_integrator_builtin(g) || vb_integrator_type(g) != g)
        return 0;
    double c[3];
    if (char_poly(g, z_from, p->zeta, c) != 0)
        return 0;
    const double ratio = 1.001;
    double z = z_from, lo = NAN;
    int was = stable_at(g, z, p->zeta);
    for (double next = z * ratio; next < z_below; z = next, next *= ratio) {
        int now = stable_at(g, next, p->zeta);
        if (was && !now && isnan(lo)) {
            lo = edge(g, p->zeta, z, next, 1);
        } else if (!was && now && !isnan(lo)) {
            gap->lo = lo;
            gap->hi = edge(g, p->zeta, next, z, 1);
            break;
        }
        was = now;
    }
    if (isnan(gap->hi)) {
        gap->lo = NAN;
        return 0; /* stable to z_below, or unstable from lo on: the limit's own boundary */
    }
    /* the energy at z grows as rho^(2N), N = 2 pi P / z: past F when
     * P >= z ln F / (4 pi ln rho); the least over the gap */
    double least = INFINITY;
    for (int k = 1; k < 1000; k++) {
        double zk = gap->lo + (gap->hi - gap->lo) * k / 1000.0, r = radius(g, zk, p->zeta);
        if (r > 1.0)
            least = fmin(least, zk * log(o->factor) / (4.0 * M_PI * log(r)));
    }
    gap->periods = least;
    return 1;
}
