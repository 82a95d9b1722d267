/* plan.c — fixed, random and trace step plans. */
#include "plan.h"
#include "infile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"

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

/* N = ceil(t_end/dt - 1e-9), at least 1 (docs/method.md §1) */
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
        /* whole passes of the trace (replayed when scaled), then the part of
         * one that reaches t_end (+1 for rounding in the running sum) */
        double t_end = vb_plan_t_end(s), pass = s->trace->sum * scale;
        double passes = floor(t_end / pass), rest = t_end - passes * pass, t = 0.0;
        size_t k = 0;
        while (k < s->trace->n && t < rest)
            t += s->trace->h[k++] * scale;
        return passes * (double)s->trace->n + (double)k + 1.0;
    }
    }
    return 0.0;
}

/* The hard limit on any run (plan.h), after the other checks passed. */
static int check_count(const vb_plan_spec *s, char *err, size_t errlen)
{
    double n = vb_plan_max_steps(s);
    if (!(n <= VB_PLAN_MAX_STEPS)) {
        snprintf(err, errlen,
                 "the run needs %.3g steps; no run may take more than 2^50 = %.4g (step counts "
                 "and times stay exact below it)",
                 n, VB_PLAN_MAX_STEPS);
        return -1;
    }
    return 0;
}

static int check_spec(const vb_plan_spec *s, char *err, size_t errlen);

int vb_plan_check(const vb_plan_spec *s, char *err, size_t errlen)
{
    return check_spec(s, err, errlen) != 0 ? -1 : check_count(s, err, errlen);
}

static int check_spec(const vb_plan_spec *s, char *err, size_t errlen)
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
        /* a sweep refines a trace (scale 2^-k); the frame-rate table
         * stretches one to a slower display rate too (scale > 1) */
        if (!(s->trace_scale >= 0.0 && isfinite(s->trace_scale))) {
            snprintf(err, errlen, "trace scale %g must be > 0", s->trace_scale);
            return -1;
        }
        if (s->trace_scale > 0.0 && s->trace_scale != 1.0)
            return 0; /* a scaled trace is replayed as often as needed */
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

int vb_plan_save(const vb_plan *p, vb_plan_checkpoint *cp)
{
    cp->at = *p;
    cp->at.rng = NULL;
    cp->rng_state = NULL;
    if (!p->rng)
        return 0;
    size_t n = gsl_rng_size(p->rng);
    if (!(cp->rng_state = malloc(n)))
        return -1;
    memcpy(cp->rng_state, gsl_rng_state(p->rng), n);
    return 0;
}

void vb_plan_restore(vb_plan *p, const vb_plan_checkpoint *cp)
{
    gsl_rng *rng = p->rng;
    *p = cp->at;
    p->rng = rng;
    if (rng && cp->rng_state)
        memcpy(gsl_rng_state(rng), cp->rng_state, gsl_rng_size(rng));
}

void vb_plan_checkpoint_free(vb_plan_checkpoint *cp)
{
    free(cp->rng_state);
    cp->rng_state = NULL;
}

/* --- traces --------------------------------------------------------------- */

void vb_trace_free(vb_trace *tr)
{
    free(tr->h);
    free(tr->path);
    memset(tr, 0, sizeof *tr);
}

/* One line of a trace (NUL-terminated, its newline cut): a step, a blank,
 * or a comment.  0, or -1 with the message. */
static int trace_line(vb_trace *tr, size_t *cap, char *line, const char *path,
                      unsigned long lineno, int quote, char *err, size_t errlen)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
        *--e = '\0';
    if (*s == '\0')
        return 0;
    double h;
    if (vb_parse_double(s, &h) != 0 || !(h > 0.0)) {
        if (quote)
            snprintf(err, errlen, "%s:%lu: step '%.40s' is not a positive number", path, lineno,
                     s);
        else
            snprintf(err, errlen, "%s:%lu: not a trace (a step is a positive number alone on "
                                  "its line)", path, lineno);
        return -1;
    }
    if (tr->n == *cap) {
        size_t ncap = *cap ? 2 * *cap : 1024;
        double *nh = realloc(tr->h, ncap * sizeof *nh);
        if (!nh) {
            snprintf(err, errlen, "%s:%lu: out of memory", path, lineno);
            return -1;
        }
        tr->h = nh;
        *cap = ncap;
    }
    tr->h[tr->n++] = h;
    tr->sum += h;
    return 0;
}

static int trace_load(const char *path, vb_trace *tr, int quote, char *err, size_t errlen)
{
    memset(tr, 0, sizeof *tr);
    FILE *f = vb_open_input(path, "a trace", err, errlen);
    if (!f)
        return -1;
    /* read in bounded pieces: a wrong file (a device, a FIFO that never
     * ends, a line without end) stops at the limits of plan.h */
    char line[VB_TRACE_MAX_LINE + 2];
    size_t cap = 0, used = 0, total = 0;
    unsigned long lineno = 0;
    int rc = 0, c;
    while (rc == 0 && (c = getc(f)) != EOF) {
        if (++total > VB_TRACE_MAX_BYTES) {
            snprintf(err, errlen, "%s: larger than %u bytes: not a trace (one step a line; a "
                                  "recorded hour at 60 Hz is ~2 MB)",
                     path, VB_TRACE_MAX_BYTES);
            rc = -1;
        } else if (c == '\0') {
            snprintf(err, errlen, "%s:%lu: binary data (a NUL byte); a trace is text, one step a "
                                  "line", path, lineno + 1);
            rc = -1;
        } else if (c == '\n') {
            line[used] = '\0';
            rc = trace_line(tr, &cap, line, path, ++lineno, quote, err, errlen);
            used = 0;
        } else if (used == VB_TRACE_MAX_LINE) {
            snprintf(err, errlen, "%s:%lu: a line longer than %d characters: not a trace", path,
                     lineno + 1, VB_TRACE_MAX_LINE);
            rc = -1;
        } else {
            line[used++] = (char)c;
            /* a byte-order mark an editor may have written, as case files allow */
            if (total == 3 && used == 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
                used = 0;
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && used > 0) { /* a last line without a newline */
        line[used] = '\0';
        rc = trace_line(tr, &cap, line, path, ++lineno, quote, err, errlen);
    }
    if (rc == 0 && tr->n == 0) {
        snprintf(err, errlen, "%s: the trace has no steps (one positive number a line)", path);
        rc = -1;
    }
    if (rc == 0 && !isfinite(tr->sum)) {
        snprintf(err, errlen, "%s: the steps sum to infinity", path);
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && !(tr->path = strdup(path))) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = -1;
    }
    if (rc != 0)
        vb_trace_free(tr);
    return rc;
}

int vb_trace_load(const char *path, vb_trace *tr, char *err, size_t errlen)
{
    return trace_load(path, tr, 1, err, errlen);
}

int vb_trace_load_unquoted(const char *path, vb_trace *tr, char *err, size_t errlen)
{
    return trace_load(path, tr, 0, err, errlen);
}
