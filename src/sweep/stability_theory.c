/* stability_theory.c — the closed-form limits z* = omega h* of the built-in
 * integrators with fixed steps, each derived from the method's one-step
 * matrix on x'' = -omega^2 x (- 2 zeta omega x'), as its file in
 * src/integrators/ writes it: docs/stability.md §3-§5.  None for the orbit
 * (a nonlinear limit), none for a plugin's method or a method not derived. */
#include "stability.h"
#include "integrator.h"

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
