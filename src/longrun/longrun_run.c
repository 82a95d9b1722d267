/* longrun_run.c — long runs (longrun_run.h).  Nothing grows with the run's length:
 * the state, the exact solution's work space and at most
 * VB_LONG_MAX_SAMPLES samples. */
#include "longrun_run.h"
#include "integrator.h"
#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The grid's tolerance: t = k h is a sample time t_k = T 10^(k/K) when it
 * is within this of it, as rounding leaves it (step 3000 of T/300 is
 * 9.999999999999998 T).  The fit's window is held to the same tolerance,
 * so that its first sample, the one at fit_from T, is in it. */
#define GRID_TOL 1e-12

const char *vb_long_verdict(double p)
{
    if (isnan(p))
        return "";
    if (p < 0.25)
        return "bounded";
    if (p < 0.75)
        return "random walk";
    if (p < 1.5)
        return "secular";
    return "faster";
}

void vb_long_slope(const double *x, const double *y, size_t n, double *slope, double *se)
{
    *slope = *se = NAN;
    if (n < 3)
        return;
    double mx = 0.0, my = 0.0;
    for (size_t i = 0; i < n; i++)
        mx += x[i], my += y[i];
    mx /= (double)n;
    my /= (double)n;
    double sxx = 0.0, sxy = 0.0;
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    if (!(sxx > 0.0))
        return;
    *slope = sxy / sxx;
    double rss = 0.0;
    for (size_t i = 0; i < n; i++) {
        double e = y[i] - my - *slope * (x[i] - mx);
        rss += e * e;
    }
    *se = sqrt(rss / (double)(n - 2) / sxx);
}

/* The phase error: for one particle in one dimension the angle between
 * (x, v/w) and the exact (x, v/w) in the phase plane, w = 2 pi / T; for
 * one particle in two or three, the angle between the position and the
 * exact position.  NAN for more particles. */
static double phase_error(const vb_model *m, double w, const double *x, const double *v,
                          const double *xe, const double *ve)
{
    if (m->particles != 1)
        return NAN;
    double a0, a1, b0, b1;
    if (m->type->dim == 1) {
        a0 = x[0], a1 = v[0] / w, b0 = xe[0], b1 = ve[0] / w;
    } else {
        double dot = 0.0, cross2 = 0.0;
        for (unsigned i = 0; i < m->type->dim; i++)
            dot += x[i] * xe[i];
        /* |x cross xe|: for d = 2 the z component, for d = 3 the norm */
        if (m->type->dim == 2) {
            double c = x[0] * xe[1] - x[1] * xe[0];
            cross2 = c * c;
        } else {
            double c0 = x[1] * xe[2] - x[2] * xe[1], c1 = x[2] * xe[0] - x[0] * xe[2],
                   c2 = x[0] * xe[1] - x[1] * xe[0];
            cross2 = c0 * c0 + c1 * c1 + c2 * c2;
        }
        return atan2(sqrt(cross2), dot);
    }
    return fabs(atan2(a0 * b1 - a1 * b0, a0 * b0 + a1 * b1));
}

/* the fit of log(max err) on log t over the samples at t >= from (to the
 * grid's tolerance), where the error is positive and below its limit
 * (longrun_run.h: lost_at) */
static void fit(const vb_long_result *r, double from, int phase, vb_long_fit *f)
{
    double lx[VB_LONG_MAX_SAMPLES], ly[VB_LONG_MAX_SAMPLES];
    size_t k = 0;
    f->lost_at = NAN;
    int any = 0;
    for (size_t i = 0; i < r->n; i++) {
        double e = phase ? r->s[i].phase_max : r->s[i].energy_max;
        any |= !isnan(e);
        if (!(e < 1.0)) {
            if (!isnan(e))
                f->lost_at = r->s[i].t / r->period;
            break;
        }
        if (r->s[i].t < from * (1.0 - GRID_TOL) || !(e > 0.0))
            continue;
        lx[k] = log(r->s[i].t);
        ly[k] = log(e);
        k++;
    }
    f->used = k;
    vb_long_slope(lx, ly, k, &f->p, &f->se);
    f->verdict = vb_long_verdict(f->p);
    /* an error that reached its limit was not bounded, whatever its
     * samples before did (an orbit's large swings within the first orbits
     * hide its growth until it escapes) */
    if (any && !isnan(f->lost_at) && (isnan(f->p) || f->p < 0.25))
        f->verdict = "saturated";
}

/* a sample kept; past the limit it replaces the last one, so the run's
 * end is always the last sample, and the ones lost are counted */
static void keep(vb_long_result *r, vb_long_sample s)
{
    if (r->n < VB_LONG_MAX_SAMPLES) {
        r->s[r->n++] = s;
    } else {
        r->s[VB_LONG_MAX_SAMPLES - 1] = s;
        r->dropped++;
    }
}

int vb_long_model_check(const vb_model *m, char *err, size_t errlen)
{
    const vb_model_type *mt = m->type;
    if (!mt->energy || !mt->exact) {
        snprintf(err, errlen, "model '%s' %s: a long run measures the drift of a conserved "
                 "energy and the phase against the exact solution", mt->name,
                 !mt->energy ? "conserves no energy" : "has no exact solution");
        return -1;
    }
    double *buf = malloc(2 * m->n * sizeof *buf);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    mt->initial(m->self, buf, buf + m->n);
    double e0 = mt->energy(m->self, buf, buf + m->n);
    free(buf);
    if (!(isfinite(e0) && e0 != 0.0)) {
        snprintf(err, errlen, "the start's energy E0 is %g: the energy error (E - E0)/|E0| is "
                 "relative to it, so give a start with E0 != 0 (a nonzero x0 or v0)", e0);
        return -1;
    }
    return 0;
}

int vb_long_step_check(const vb_model *m, const vb_long_opts *o, char *err, size_t errlen)
{
    double h = m->type->natural_time(m->self) / o->steps_per_period;
    if (h >= 0x1p-500 && h <= 0x1p500)
        return 0;
    snprintf(err, errlen, "the step h = T/%g = %.3g is outside 2^-500 to 2^500 (3e-151 to "
             "3e150), where h^2, which the integrators form, leaves the doubles; the errors in "
             "periods do not depend on the scale, so give parameters nearer each other",
             o->steps_per_period, h);
    return -1;
}

int vb_long_run(const vb_model *m, const vb_integrator *g, const vb_long_opts *o,
                vb_long_result *r, char *err, size_t errlen)
{
    const vb_model_type *mt = m->type;
    if (vb_long_model_check(m, err, errlen) != 0)
        return -1;
    memset(r, 0, sizeof *r);
    size_t n = m->n;
    r->period = mt->natural_time(m->self);
    r->h = r->period / o->steps_per_period;
    r->t_end = o->periods * r->period;
    unsigned long long n_steps = (unsigned long long)ceil(o->periods * o->steps_per_period - 1e-9);
    void *state = calloc(1, g->state_size(n) + 16);
    double *buf = malloc(4 * n * sizeof *buf);
    void *work = mt->work_alloc ? mt->work_alloc(m->self) : NULL;
    if (!state || !buf || (mt->work_alloc && !work)) {
        free(state);
        free(buf);
        if (work)
            mt->work_free(work);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    double *x = buf, *v = buf + n, *xe = buf + 2 * n, *ve = buf + 3 * n;
    mt->initial(m->self, x, v);
    double e0 = mt->energy(m->self, x, v), w = 2.0 * M_PI / r->period;
    vb_force f = vb_model_force(m);
    vb_integrator_set_params(g, state);
    g->start(state, &f, 0.0, x, v, r->h);
    double next = r->period, ratio = pow(10.0, 1.0 / o->per_decade);
    double emax = 0.0, pmax = 0.0;
    int rc = 0;
    /* t = k h exactly, not a sum of h: no drift of the clock over 1e9 steps */
    for (unsigned long long k = 1; k <= n_steps; k++) {
        double t = (double)(k - 1) * r->h;
        g->step(state, &f, t, r->h);
        t = (double)k * r->h;
        int last = k == n_steps;
        if (t < next * (1.0 - GRID_TOL) && !last)
            continue;
        /* a sample: the errors at this step */
        g->observe(state, x, v);
        double e = (mt->energy(m->self, x, v) - e0) / fabs(e0);
        if (!isfinite(e)) {
            r->diverged = 1;
            r->steps = (double)k;
            keep(r, (vb_long_sample){t, e, INFINITY, NAN, NAN}); /* lost there */
            break;
        }
        if (mt->exact(m->self, work, t, xe, ve) != 0) {
            snprintf(err, errlen, "the exact solution of %s could not be computed at t = %.17g",
                     mt->name, t);
            rc = -1;
            break;
        }
        double ph = phase_error(m, w, x, v, xe, ve);
        emax = fmax(emax, fabs(e));
        pmax = fmax(pmax, ph);
        keep(r, (vb_long_sample){t, e, emax, ph, isnan(ph) ? (double)NAN : pmax});
        while (next <= t * (1.0 + GRID_TOL))
            next *= ratio;
        r->steps = (double)k;
    }
    if (g->finish)
        g->finish(state);
    free(state);
    free(buf);
    if (work)
        mt->work_free(work);
    if (rc != 0)
        return rc;
    fit(r, o->fit_from * r->period, 0, &r->energy);
    fit(r, o->fit_from * r->period, 1, &r->phase);
    /* the drift, as molecular dynamics reports it: the slope of E - E0 on
     * t; none for a run that diverged (no slope fits a blow-up) */
    double tt[VB_LONG_MAX_SAMPLES], ee[VB_LONG_MAX_SAMPLES], se;
    for (size_t i = 0; i < r->n; i++)
        tt[i] = r->s[i].t, ee[i] = r->s[i].energy * fabs(e0);
    r->drift = NAN;
    if (!r->diverged)
        vb_long_slope(tt, ee, r->n, &r->drift, &se);
    /* the bodies of its state (profile.h: a rigid body is one, whatever
     * the doubles its state is packed in) */
    r->drift_per_particle = r->drift / (double)vb_state_desc_of(m).bodies;
    return 0;
}
