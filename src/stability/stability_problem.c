/* stability_problem.c — what the stability search needs of a model: the
 * frequency its steps are measured in, the time a "period" is, and what
 * the criterion watches (docs/stability.md §2).  Only the models whose
 * fastest motion has a frequency in closed form are here. */
#include "stability_search.h"
#include "vector.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a parameter of the instance by name (every name used here exists) */
static double param(const vb_model *m, const char *name)
{
    for (unsigned i = 0; i < m->type->n_params; i++)
        if (strcmp(m->type->params[i].name, name) == 0)
            return m->p[i];
    return NAN;
}

const char *vb_stab_models(void) { return "spring, damped-spring, chain, orbit"; }

int vb_stab_problem_setup(const vb_model *m, vb_stab_problem *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->model = m;
    p->criterion = VB_STAB_GROWTH;
    const char *name = m->type->name;
    if (!strcmp(name, "spring") || !strcmp(name, "damped-spring")) {
        double k = param(m, "k"), mass = param(m, "m");
        p->omega = sqrt(k / mass);
        p->omega_name = "omega0";
        if (!strcmp(name, "damped-spring"))
            /* sqrt(k) sqrt(m) in effect: k m overflows at k = m = 1e200,
             * where zeta is still c / 2e200 */
            p->zeta = param(m, "c") / (2.0 * vb_sqrt_product(k, mass));
        else
            p->omega_name = "omega";
    } else if (!strcmp(name, "chain")) {
        /* K = (k/m) tridiag(-1, 2, -1): its largest eigenvalue is
         * 4 (k/m) cos^2(pi / (2 (N + 1))) */
        double n = param(m, "N"), k = param(m, "k"), mass = param(m, "m");
        p->omega = 2.0 * sqrt(k / mass) * cos(M_PI / (2.0 * (n + 1.0)));
        p->omega_name = "omega_max";
    } else if (!strcmp(name, "orbit")) {
        /* the rate at which the velocity turns at pericentre, v_p / r_p */
        double mu = param(m, "mu"), a = param(m, "a"), e = param(m, "e");
        double rp = a * (1.0 - e);
        p->omega = sqrt(mu * (1.0 + e) / (rp * rp * rp));
        p->omega_name = "omega_p";
        p->period = 2.0 * M_PI * sqrt(a * a * a / mu); /* P counts orbits */
        p->criterion = VB_STAB_ESCAPE;
        return 0;
    } else {
        snprintf(err, errlen, "model '%s' has no stability problem; the models with one: %s",
                 name, vb_stab_models());
        return -1;
    }
    p->period = 2.0 * M_PI / p->omega; /* P counts periods of omega */
    return 0;
}

int vb_stab_problem_start(const vb_stab_problem *p, char *err, size_t errlen)
{
    if (p->criterion != VB_STAB_GROWTH)
        return 0; /* escape: E >= 0, not relative to the start */
    const vb_model *m = p->model;
    double *buf = malloc(2 * m->n * sizeof *buf);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->type->initial(m->self, buf, buf + m->n);
    double e0 = vb_stab_measure(p, buf, buf + m->n);
    free(buf);
    if (!(e0 > 0.0 && isfinite(e0))) {
        snprintf(err, errlen, "the start's energy is %g: the criterion (energy past F times the "
                 "start's) needs a start that moves (a nonzero x0 or v0)", e0);
        return -1;
    }
    return 0;
}

int vb_stab_problem_scale(const vb_stab_problem *p, double z_min, double z_max, char *err,
                          size_t errlen)
{
    double lo = 0.5 * z_min / p->omega, hi = z_max / p->omega;
    if (lo >= 0x1p-500 && hi <= 0x1p500)
        return 0;
    snprintf(err, errlen, "%s = %g: the steps the search tries (%s h from %g to %g) would be "
             "h = %.3g to %.3g, outside 2^-500 to 2^500 (3e-151 to 3e150), where h^2, which the "
             "integrators form, leaves the doubles; the limit in %s h does not depend on the "
             "scale, so give parameters nearer each other", p->omega_name, p->omega,
             p->omega_name, 0.5 * z_min, z_max, lo, hi, p->omega_name);
    return -1;
}

double vb_stab_measure(const vb_stab_problem *p, const double *x, const double *v)
{
    const vb_model *m = p->model;
    if (m->type->energy)
        return m->type->energy(m->self, x, v);
    /* the damped spring: its mechanical energy per unit mass */
    double w2 = p->omega * p->omega;
    return 0.5 * (v[0] * v[0] + w2 * x[0] * x[0]);
}
