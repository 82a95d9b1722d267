/* onestep.c — the one-step (local) error of each integrator, from exact
 * data, at h = T/16, T/32, ... */
#include "onestep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "integrator.h"
#include "isolate.h"
#include "plugin.h"
#include "truth.h"
#include "vector.h"

/* One-step errors are taken at h = T/16, T/32, ... with T the model's
 * natural time (a period, the time of flight), whatever the case's dt: far
 * enough from round-off that even p = 5 shows over several halvings.  At one
 * moment the leading error term can happen to be small (an acceleration
 * passing through zero), so each error is the largest over moments spread
 * across T: still c h^p, with the largest c. */
#define ONESTEP_FIRST 16.0
#define ONESTEP_MOMENTS 5

static double onestep_moment(double T, int j) { return T * (0.11 + 0.19 * j); }

/* The truth at every time the one-step test needs, once for all the
 * integrators: for moment j, level k and ratio r, x(t - h') (which = 0),
 * (x, v)(t) (1) and (x, v)(t + h) (2).  Evaluated in increasing t, so a
 * reference solution integrates once. */
#define ONESTEP_POINTS (ONESTEP_MOMENTS * VB_ONESTEP_LEVELS * VB_ONESTEP_RATIOS * 3)

static size_t point_index(int j, int k, int r, int which)
{
    return (((size_t)j * VB_ONESTEP_LEVELS + (size_t)k) * VB_ONESTEP_RATIOS + (size_t)r) * 3 +
           (size_t)which;
}

typedef struct {
    double t;
    size_t i;
} timed;

static int by_time(const void *a, const void *b)
{
    double x = ((const timed *)a)->t, y = ((const timed *)b)->t;
    return (x > y) - (x < y);
}

/* xv[i * 2N ..]: (x, v) at point i; 0, or -1 when the truth failed */
static int onestep_truth(const vb_model *m, double T, double *xv)
{
    timed pts[ONESTEP_POINTS];
    for (int j = 0; j < ONESTEP_MOMENTS; j++)
        for (int k = 0; k < VB_ONESTEP_LEVELS; k++)
            for (int r = 0; r < VB_ONESTEP_RATIOS; r++) {
                double t = onestep_moment(T, j), h = ldexp(T / ONESTEP_FIRST, -k);
                size_t i = point_index(j, k, r, 0);
                pts[i] = (timed){t - vb_onestep_ratio[r] * h, i};
                pts[i + 1] = (timed){t, i + 1};
                pts[i + 2] = (timed){t + h, i + 2};
            }
    qsort(pts, ONESTEP_POINTS, sizeof pts[0], by_time);
    vb_truth *tr = vb_truth_alloc(m);
    if (!tr)
        return -1;
    int rc = 0;
    size_t n = m->n;
    for (size_t p = 0; p < ONESTEP_POINTS && rc == 0; p++) {
        double *x = xv + pts[p].i * 2 * n;
        rc = vb_truth_at(tr, pts[p].t, x, x + n) == 0 && vb_all_finite(x, x + n, n) ? 0 : -1;
    }
    vb_truth_free(tr);
    return rc;
}

/* one step of h from the truth at point (j, k, r); its errors */
static int onestep_error(const vb_integrator *g, const vb_model *m, const double *xv, int j,
                         int k, int r, double t, double h, double *err_pos, double *err_vel)
{
    size_t n = m->n;
    const double *xp = xv + point_index(j, k, r, 0) * 2 * n;
    const double *x = xv + point_index(j, k, r, 1) * 2 * n, *v = x + n;
    const double *x1 = xv + point_index(j, k, r, 2) * 2 * n, *v1 = x1 + n;
    void *state = calloc(1, g->state_size(n));
    double *xn = malloc(2 * n * sizeof *xn);
    if (!state || !xn) {
        free(state);
        free(xn);
        return -1;
    }
    vb_force f = vb_model_force(m);
    vb_integrator_set_params(g, state);
    if (g->start_history)
        g->start_history(state, &f, t, x, v, xp, vb_onestep_ratio[r] * h, h);
    else
        g->start(state, &f, t, x, v, h);
    g->step(state, &f, t, h);
    g->observe(state, xn, xn + n);
    *err_pos = vb_distance(xn, x1, n);
    *err_vel = vb_distance(xn + n, v1, n);
    free(state);
    free(xn);
    return 0;
}

/* What the one-step rows of a case share: T, the truth at every point
 * (xv) and the sizes the errors are measured against. */
typedef struct {
    vb_sweep *s;
    double T;
    double *xv;
    int have, truth_ok;
    double xs, vs;
    size_t *slot; /* integrator i's first row */
} onestep_ctx;

static int onestep_prepare(onestep_ctx *o)
{
    const vb_model *m = &o->s->c->model;
    size_t n = m->n;
    if (o->have)
        return 0;
    o->xv = malloc(ONESTEP_POINTS * 2 * n * sizeof *o->xv);
    if (!o->xv)
        return -1;
    o->truth_ok = onestep_truth(m, o->T, o->xv) == 0;
    /* the sizes the errors are measured against: the largest |x|, |v| at
     * the moments */
    o->xs = o->vs = 0.0;
    for (int j = 0; o->truth_ok && j < ONESTEP_MOMENTS; j++) {
        const double *x = o->xv + point_index(j, 0, 0, 1) * 2 * n;
        o->xs = fmax(o->xs, vb_magnitude(x, n));
        o->vs = fmax(o->vs, vb_magnitude(x + n, n));
    }
    o->have = 1;
    return 0;
}

/* integrator i's rows, one a ratio */
static int onestep_rows(onestep_ctx *o, size_t i, vb_onestep_row *rows)
{
    const vb_case *c = o->s->c;
    const vb_model *m = &c->model;
    double T = o->T;
    if (onestep_prepare(o) != 0)
        return -1;
    for (int r = 0; r < VB_ONESTEP_RATIOS; r++) {
        vb_onestep_row *row = &rows[r];
        double sc_pos[VB_ONESTEP_LEVELS], sc_vel[VB_ONESTEP_LEVELS];
        row->integ = i;
        row->ratio = r;
        for (int k = 0; k < VB_ONESTEP_LEVELS; k++) {
            double h = ldexp(T / ONESTEP_FIRST, -k);
            row->h[k] = h;
            row->err_pos[k] = row->err_vel[k] = 0.0;
            for (int j = 0; j < ONESTEP_MOMENTS; j++) {
                double ep = NAN, ev = NAN;
                if (o->truth_ok && onestep_error(c->integ[i], m, o->xv, j, k, r,
                                                 onestep_moment(T, j), h, &ep, &ev) != 0)
                    return -1;
                if (!(ep <= row->err_pos[k]))
                    row->err_pos[k] = ep;
                if (!(ev <= row->err_vel[k]))
                    row->err_vel[k] = ev;
            }
            sc_pos[k] = o->xs;
            sc_vel[k] = o->vs;
        }
        vb_fit_order(row->h, row->err_pos, sc_pos, NULL, NULL, VB_ONESTEP_LEVELS, &row->fit_pos);
        vb_fit_order(row->h, row->err_vel, sc_vel, NULL, NULL, VB_ONESTEP_LEVELS, &row->fit_vel);
    }
    return 0;
}

/* in a worker: the rows of integrators whose steps call a plugin's code */
static int iso_onestep(void *ctx, const size_t *units, size_t n, vb_isolate_out *out, char *err,
                       size_t errlen)
{
    onestep_ctx *o = ctx;
    vb_onestep_row rows[VB_ONESTEP_RATIOS];
    for (size_t k = 0; k < n; k++) {
        memset(rows, 0, sizeof rows);
        if (onestep_rows(o, units[k], rows) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (vb_isolate_put(out, units[k], rows, sizeof rows) != 0) {
            snprintf(err, errlen, "cannot send a result to verletbench");
            return -1;
        }
    }
    return 0;
}

static int iso_onestep_done(void *ctx, size_t i, const void *bytes, size_t len, const char *why)
{
    onestep_ctx *o = ctx;
    vb_onestep_row *rows = &o->s->onestep[o->slot[i]];
    if (bytes && len == VB_ONESTEP_RATIOS * sizeof *rows) {
        memcpy(rows, bytes, len);
        return 0;
    }
    rows[0].integ = VB_SAME_NONE; /* no rows: said, then left out */
    return vb_sweep_plugin_failed(o->s, i, "its one-step errors", bytes ? "a worker's result "
                                  "of the wrong size" : why);
}

int vb_sweep_onestep(vb_sweep *s)
{
    const vb_case *c = s->c;
    const vb_model *m = &c->model;
    onestep_ctx o = {.s = s, .T = m->type->natural_time(m->self)};
    s->onestep_T = o.T;
    s->onestep = calloc(c->n_integ * VB_ONESTEP_RATIOS, sizeof *s->onestep);
    size_t room = c->n_integ ? c->n_integ : 1, n_rows = 0, n_here = 0;
    o.slot = calloc(room, sizeof *o.slot);
    size_t *rows = malloc(room * sizeof *rows), *here = malloc(room * sizeof *here);
    size_t *iso = malloc(room * sizeof *iso), n_iso = 0;
    int rc = s->onestep && o.slot && rows && here && iso ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < c->n_integ; i++) {
        /* one step from an exact state is a call an external engine
         * has no protocol for: it has no row; nor has an adaptive
         * method, whose one step of h is as many as its control wants;
         * nor a frame loop, whose step is its integrator's */
        if (!vb_sweep_caps(c, i).one_step)
            continue;
        o.slot[i] = s->n_onestep;
        s->n_onestep += VB_ONESTEP_RATIOS;
        rows[n_rows++] = i;
    }
    /* a plugin's in a worker, below */
    if (rc == 0)
        n_iso = vb_profile_split(&c->profile, rows, NULL, n_rows, here, &n_here, iso);
    for (size_t k = 0; rc == 0 && k < n_here; k++)
        rc = onestep_rows(&o, here[k], &s->onestep[o.slot[here[k]]]);
    char err[256];
    if (rc == 0 && n_iso)
        rc = vb_isolate_units(iso, n_iso, vb_plugin_timeout(), iso_onestep, iso_onestep_done,
                              NULL, &o, err, sizeof err);
    /* the rows of a plugin that failed, left out */
    size_t kept = 0;
    for (size_t r = 0; rc == 0 && r < s->n_onestep; r += VB_ONESTEP_RATIOS)
        if (s->onestep[r].integ != VB_SAME_NONE) {
            memmove(&s->onestep[kept], &s->onestep[r], VB_ONESTEP_RATIOS * sizeof *s->onestep);
            kept += VB_ONESTEP_RATIOS;
        }
    if (rc == 0)
        s->n_onestep = kept;
    free(o.xv);
    free(o.slot);
    free(rows);
    free(here);
    free(iso);
    return rc;
}
