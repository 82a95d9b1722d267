/* plan.c — fixed, random and trace step plans. */
#include "plan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

const char *vb_plan_name(vb_plan_kind kind)
{
    switch (kind) {
    case VB_PLAN_FIXED:
        return "fixed";
    case VB_PLAN_RANDOM:
        return "random";
    case VB_PLAN_TRACE:
        return "trace";
    }
    return "?";
}

/* N = ceil(t_end/dt - 1e-9), at least 1 (SPEC §1) */
static double fixed_steps(const vb_plan_spec *s)
{
    double N = ceil(s->t_end / s->dt - 1e-9);
    return N < 1.0 ? 1.0 : N;
}

double vb_plan_t_end(const vb_plan_spec *s)
{
    if (s->kind == VB_PLAN_TRACE && s->t_end == 0.0)
        return s->trace->sum;
    return s->t_end;
}

double vb_plan_max_steps(const vb_plan_spec *s)
{
    switch (s->kind) {
    case VB_PLAN_FIXED:
        return fixed_steps(s);
    case VB_PLAN_RANDOM:
        return ceil(s->t_end / (s->dt * (1.0 - s->jitter))) + 1.0;
    case VB_PLAN_TRACE: {
        double scale = s->trace_scale > 0.0 ? s->trace_scale : 1.0;
        double t_end = vb_plan_t_end(s), smallest = INFINITY;
        for (size_t i = 0; i < s->trace->n; i++)
            smallest = fmin(smallest, s->trace->h[i]);
        return scale == 1.0 ? (double)s->trace->n : ceil(t_end / (smallest * scale)) + 1.0;
    }
    }
    return 0.0;
}

int vb_plan_check(const vb_plan_spec *s, char *err, size_t errlen)
{
    if (s->kind == VB_PLAN_TRACE) {
        if (!s->trace || s->trace->n == 0) {
            snprintf(err, errlen, "the trace has no steps");
            return -1;
        }
        if (!(s->t_end >= 0.0) || !isfinite(s->t_end)) {
            snprintf(err, errlen, "t_end = %g must be > 0", s->t_end);
            return -1;
        }
        double mean = s->trace->sum / (double)s->trace->n;
        if (!(s->trace_scale >= 0.0 && s->trace_scale <= 1.0)) {
            snprintf(err, errlen, "trace scale %g must be in (0, 1]", s->trace_scale);
            return -1;
        }
        if (s->trace_scale > 0.0 && s->trace_scale < 1.0)
            return 0; /* a refined trace is replayed as often as needed */
        if (s->t_end > s->trace->sum + VB_PLAN_LAND_TOL * mean) {
            snprintf(err, errlen, "the trace sums to %.17g, short of t_end = %.17g",
                     s->trace->sum, s->t_end);
            return -1;
        }
        return 0;
    }
    if (!(s->t_end > 0.0) || !isfinite(s->t_end)) {
        snprintf(err, errlen, "t_end = %g must be > 0", s->t_end);
        return -1;
    }
    if (!(s->dt > 0.0) || !isfinite(s->dt)) {
        snprintf(err, errlen, "dt = %g must be > 0", s->dt);
        return -1;
    }
    if (s->kind == VB_PLAN_RANDOM && !(s->jitter >= 0.0 && s->jitter < 1.0)) {
        snprintf(err, errlen, "jitter = %g must be in [0, 1)", s->jitter);
        return -1;
    }
    return 0;
}

int vb_plan_begin(vb_plan *p, const vb_plan_spec *spec)
{
    memset(p, 0, sizeof *p);
    p->spec = *spec;
    p->t_end = vb_plan_t_end(spec);
    switch (spec->kind) {
    case VB_PLAN_FIXED:
        p->N = (unsigned long long)fixed_steps(spec);
        p->h_fixed = spec->t_end / (double)p->N;
        break;
    case VB_PLAN_RANDOM:
        p->rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!p->rng)
            return -1;
        gsl_rng_set(p->rng, spec->seed);
        p->land_tol = VB_PLAN_LAND_TOL * spec->dt;
        break;
    case VB_PLAN_TRACE:
        if (!(p->spec.trace_scale > 0.0))
            p->spec.trace_scale = 1.0;
        p->land_tol = VB_PLAN_LAND_TOL * p->spec.trace_scale * spec->trace->sum /
                      (double)spec->trace->n;
        break;
    }
    return 0;
}

int vb_plan_next(vb_plan *p, double *h_out, double *t_next)
{
    if (p->done)
        return 0;
    double h;
    switch (p->spec.kind) {
    case VB_PLAN_FIXED:
        h = p->h_fixed;
        p->n++;
        /* t_n = n h rather than a running sum: no drift, and t_N = t_end */
        if (p->n >= p->N) {
            p->done = 1;
            p->t = p->t_end;
        } else {
            p->t = (double)p->n * h;
        }
        *h_out = h;
        *t_next = p->t;
        return 1;
    case VB_PLAN_RANDOM: {
        double u = 2.0 * gsl_rng_uniform(p->rng) - 1.0; /* uniform in [-1, 1) */
        h = p->spec.dt * (1.0 + p->spec.jitter * u);
        break;
    }
    case VB_PLAN_TRACE:
        if (p->spec.trace_scale == 1.0)
            h = p->n < p->spec.trace->n ? p->spec.trace->h[p->n] : p->t_end - p->t;
        else
            h = p->spec.trace->h[p->n % p->spec.trace->n] * p->spec.trace_scale;
        break;
    default:
        return 0;
    }
    p->n++;
    if (p->t + h >= p->t_end - p->land_tol) {
        h = p->t_end - p->t;
        p->t = p->t_end;
        p->done = 1;
    } else {
        p->t += h;
    }
    *h_out = h;
    *t_next = p->t;
    return 1;
}

void vb_plan_end(vb_plan *p)
{
    if (p->rng)
        gsl_rng_free(p->rng);
    p->rng = NULL;
}

/* --- traces --------------------------------------------------------------- */

void vb_trace_free(vb_trace *tr)
{
    free(tr->h);
    memset(tr, 0, sizeof *tr);
}

int vb_trace_load(const char *path, vb_trace *tr, char *err, size_t errlen)
{
    memset(tr, 0, sizeof *tr);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open trace: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 0;
    char *line = NULL;
    size_t linecap = 0;
    ssize_t len;
    unsigned long lineno = 0;
    int rc = 0;
    while ((len = getline(&line, &linecap, f)) >= 0) {
        lineno++;
        if (memchr(line, '\0', (size_t)len)) {
            snprintf(err, errlen, "%s:%lu: binary data (a NUL byte); a trace is text, one step a line",
                     path, lineno);
            rc = -1;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        char *e = s + strlen(s);
        while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        if (*s == '\0')
            continue;
        double h;
        if (vb_parse_double(s, &h) != 0 || !(h > 0.0)) {
            snprintf(err, errlen, "%s:%lu: step '%.40s' is not a positive number", path, lineno, s);
            rc = -1;
            break;
        }
        if (tr->n == cap) {
            size_t ncap = cap ? 2 * cap : 1024;
            double *nh = realloc(tr->h, ncap * sizeof *nh);
            if (!nh) {
                snprintf(err, errlen, "%s:%lu: out of memory", path, lineno);
                rc = -1;
                break;
            }
            tr->h = nh;
            cap = ncap;
        }
        tr->h[tr->n++] = h;
        tr->sum += h;
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && tr->n == 0) {
        snprintf(err, errlen, "%s: the trace has no steps (one positive number a line)", path);
        rc = -1;
    }
    if (rc == 0 && !isfinite(tr->sum)) {
        snprintf(err, errlen, "%s: the steps sum to infinity", path);
        rc = -1;
    }
    free(line);
    fclose(f);
    if (rc != 0)
        vb_trace_free(tr);
    return rc;
}
