/* stability_search.c — the search for the largest stable step
 * (stability_search.h): one verdict is one run under the criterion, the
 * search a scan and a bisection of verdicts.  Every verdict with the same
 * seed replays the same sequence u_n of the random plan, scaled by its dt,
 * so the verdict is a deterministic function of z and the search is
 * reproducible. */
#include "stability_search.h"
#include "integrator.h"
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

vb_stab_opts vb_stab_opts_default(const vb_stab_problem *p)
{
    vb_stab_opts o = {
        .factor = 1e6,
        .periods = p->criterion == VB_STAB_ESCAPE ? 1e2 : 1e4,
        .rtol = 1e-10,
        .z_start = 0.05,
        .z_min = 1e-3,
        .z_max = 20.0,
        .scan_ratio = 1.05,
        .jitter = 0.0,
        .seed = 1,
        .max_steps = 1e9,
    };
    return o;
}

const char *vb_stab_status_name(vb_stab_status s)
{
    switch (s) {
    case VB_STAB_LIMIT:
        return "limit";
    case VB_STAB_UNSTABLE:
        return "unstable";
    case VB_STAB_STABLE:
        return "stable";
    }
    return "?";
}

/* past the criterion's threshold, or not a number */
static int failed(const vb_stab_problem *p, const vb_stab_opts *o, double e, double e0)
{
    if (!isfinite(e))
        return 1;
    if (p->criterion == VB_STAB_ESCAPE)
        return e >= 0.0;
    return e > o->factor * e0;
}

int vb_stab_verdict(const vb_stab_problem *p, const vb_integrator *g, const vb_stab_opts *o,
                    double z, double *evals_per_step, double *steps, char *err, size_t errlen)
{
    const vb_model *m = p->model;
    size_t n = m->n;
    double dt = z / p->omega;
    double n_steps = ceil(o->periods * p->period / dt);
    if (n_steps > o->max_steps) {
        snprintf(err, errlen, "%s at %s h = %.6g would take %.3g steps, over the limit of %.3g "
                 "(fewer periods, or a larger --max-steps)", g->name, p->omega_name, z, n_steps,
                 o->max_steps);
        return -2; /* the options' limit: a usage error, not a failure */
    }
    void *state = calloc(1, g->state_size(n) + 16);
    double *buf = malloc(4 * n * sizeof *buf);
    if (!state || !buf) {
        free(state);
        free(buf);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    double *x = buf, *v = buf + n;
    m->type->initial(m->self, x, v);
    double e0 = vb_stab_measure(p, x, v);
    vb_plan_spec spec = {
        .kind = o->jitter > 0.0 ? VB_PLAN_RANDOM : VB_PLAN_FIXED,
        .t_end = n_steps * dt,
        .dt = dt,
        .jitter = o->jitter,
        .seed = o->seed,
    };
    vb_plan plan;
    if (vb_plan_begin(&plan, &spec) != 0) {
        free(state);
        free(buf);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    vb_force f = vb_model_force(m);
    vb_integrator_set_params(g, state);
    double h, t_next, t = 0.0;
    int stable = 1;
    unsigned long long taken = 0, evals0 = 0;
    int started = 0;
    while (vb_plan_next(&plan, &h, &t_next)) {
        if (!started) { /* start is told the first step (a multistep method's history) */
            g->start(state, &f, 0.0, x, v, h);
            evals0 = f.evals;
            started = 1;
        }
        g->step(state, &f, t, h);
        t = t_next;
        taken++;
        g->observe(state, x, v);
        if (failed(p, o, vb_stab_measure(p, x, v), e0)) {
            stable = 0;
            break;
        }
    }
    vb_plan_end(&plan);
    if (g->finish && started)
        g->finish(state);
    if (evals_per_step && taken)
        *evals_per_step = (double)(f.evals - evals0) / (double)taken;
    if (steps)
        *steps += (double)taken;
    free(state);
    free(buf);
    return stable;
}

int vb_stab_search(const vb_stab_problem *p, const vb_integrator *g, const vb_stab_opts *o,
                   vb_stab_result *r, char *err, size_t errlen)
{
    r->status = VB_STAB_LIMIT;
    r->z_lo = r->z_hi = r->z_scan = NAN;
    r->evals_per_step = NAN;
    r->verdicts = 0;
    r->steps = 0.0;
#define VERDICT(zz)                                                                                \
    (r->verdicts++, vb_stab_verdict(p, g, o, (zz), &eps, &r->steps, err, errlen))
    double eps = NAN;
    double z = o->z_start;
    int s = VERDICT(z);
    if (s < 0)
        return s;
    /* down to a stable step */
    while (s == 0) {
        if (z / 2.0 < o->z_min) {
            r->status = VB_STAB_UNSTABLE;
            r->z_lo = 0.0;
            r->z_hi = z;
            r->evals_per_step = eps;
            return 0;
        }
        z /= 2.0;
        if ((s = VERDICT(z)) < 0)
            return s;
    }
    double lo = z, hi;
    r->z_scan = z;
    r->evals_per_step = eps;
    /* up to the first unstable one */
    for (;;) {
        hi = lo * o->scan_ratio;
        if (hi > o->z_max) {
            r->status = VB_STAB_STABLE;
            r->z_lo = lo;
            r->z_hi = INFINITY;
            return 0;
        }
        if ((s = VERDICT(hi)) < 0)
            return s;
        if (s == 0)
            break;
        lo = hi;
        r->evals_per_step = eps;
    }
    /* and the bracket halved to rtol */
    while (hi - lo > o->rtol * lo) {
        double mid = 0.5 * (lo + hi);
        if ((s = VERDICT(mid)) < 0)
            return s;
        if (s) {
            lo = mid;
            r->evals_per_step = eps;
        } else {
            hi = mid;
        }
    }
    r->z_lo = lo;
    r->z_hi = hi;
    /* The criterion's own floor: a method that grows at every z, by
     * exp(c P z) over P periods (euler on the spring: (1 + z^2)^(N/2) with
     * N = 2 pi P / z, so e^(pi P z) in amplitude), crosses F at
     * z = ln F / (c P) and would look stable below it.  A true limit does
     * not move with P: the run at half the z for four times the periods
     * stays stable, where a floor's growth is F^2 there.  A run over
     * max_steps is not made; the limit then stands untested. */
    if (p->criterion == VB_STAB_GROWTH) {
        vb_stab_opts longer = *o;
        longer.periods = 4.0 * o->periods;
        double z_check = 0.5 * lo;
        if (ceil(longer.periods * p->period * p->omega / z_check) <= o->max_steps) {
            r->verdicts++;
            s = vb_stab_verdict(p, g, &longer, z_check, NULL, &r->steps, err, errlen);
            if (s < 0)
                return s;
            if (s == 0) {
                r->status = VB_STAB_UNSTABLE;
                r->z_lo = 0.0;
                r->z_hi = z_check;
            }
        }
    }
#undef VERDICT
    return 0;
}
