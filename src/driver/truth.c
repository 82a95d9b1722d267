/* truth.c — exact solutions, and reference solutions by GSL's rk8pd. */
#include "truth.h"

#include <gsl/gsl_errno.h>
#include <pthread.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

/* One reference: rk8pd stepping at its own pace (natural steps, chosen by
 * its error control alone), and each time asked for reached by a side step
 * from the last natural point before it.  So the trajectory does not depend
 * on the times asked for: a fine grid of a run does not force it onto tiny
 * steps, whose round-off would pile up (measured on the 64-mass chain at
 * T/10000: 9e-14, 45 times what the estimate saw, when the steps landed on
 * every time asked for).  And because it does not, the natural points are
 * the same for every run of the model: a track of them can be computed
 * once and kept for all the runs of a case (vb_reference), each reaching
 * its own times by side steps of its own, bit for bit what a track of its
 * own would give. */

/* what the right-hand side reads: the model, its coordinates, and where
 * its force first failed */
typedef struct {
    const vb_model *m;
    size_t k;
    int own;
    double bad_force_t; /* the first t where the force was not finite, or NaN */
} rhs_ctx;

/* the natural points of one tolerance: t[i], y[i] (x then v, 2K each) for
 * the points first .. first + n - 1 (a private track keeps the last two,
 * a shared one all of them) */
typedef struct {
    gsl_odeiv2_step *step;
    gsl_odeiv2_control *control;
    gsl_odeiv2_evolve *evolve;
    double h; /* the next natural step proposed */
    size_t first, n, cap;
    double *t, *y;
    int failed; /* the next natural step could not be taken: none past the last */
} track;

struct vb_reference {
    const vb_model *m;
    rhs_ctx ctx;
    gsl_odeiv2_system sys;
    double h0; /* the first step tried */
    int keep;  /* 1: every point (shared); 0: the last two */
    track tr[2]; /* at VB_REF_TOL; and VB_REF_TOL_RATIO tighter */
    pthread_mutex_t lock;
};

struct vb_truth {
    const vb_model *m;
    void *work; /* the exact solution's scratch */
    int is_reference;
    /* the reference's coordinates: K of them, q then q' in y (2K); the
     * model's own (ref_dof: a linkage's angles) mapped to x, v at each time
     * asked for, or Cartesian x, v themselves (K = N) */
    size_t k;
    int own;
    double *xv; /* own coordinates: both references' x, v (4 N) */
    vb_reference *ref;
    int owns_ref;
    rhs_ctx ctx; /* the side steps' */
    gsl_odeiv2_system sys;
    gsl_odeiv2_step *side[2];
    size_t at[2];      /* where the last time asked for was found */
    double *ys, *yerr; /* a side step's result (one a track) and its error estimate */
    /* the derivative at the natural point a track's last side step started
     * from (at time k1_t[k], state k1_y[k]): the side steps of the grid
     * times between two natural points all start there, and rk8pd's first
     * stage is that derivative, so it is evaluated once for all of them */
    double *k1[2], *k1_y[2], k1_t[2];
    int k1_valid[2];
    double bad_force_t; /* the first t where the force was not finite, or NaN */
    double err_pos, err_vel;
};

/* y' = (v, a(t, x, v)), or (q', ref_accel(t, q, q')) */
static int rhs(double t, const double y[], double dydt[], void *params)
{
    rhs_ctx *c = params;
    const vb_model *m = c->m;
    size_t n = c->k;
    memcpy(dydt, y + n, n * sizeof *y);
    (c->own ? m->type->ref_accel : m->type->accel)(m->self, t, y, y + n, dydt + n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(dydt[n + i])) {
            /* a singular force: the reference stops, it does not guess;
             * and says where, which may be ahead of the run it serves */
            if (isnan(c->bad_force_t))
                c->bad_force_t = t;
            return GSL_EBADFUNC;
        }
    return GSL_SUCCESS;
}

/* q(0), q'(0): the model's start in the reference's coordinates */
static void initial_q(const rhs_ctx *c, double *q, double *qd)
{
    if (c->own)
        c->m->type->ref_initial(c->m->self, q, qd);
    else
        c->m->type->initial(c->m->self, q, qd);
}

/* the track back at its start: one point, (0, y(0)) */
static int track_restart(vb_reference *r, track *k)
{
    size_t n = r->ctx.k;
    k->first = 0;
    k->n = 1;
    k->t[0] = 0.0;
    initial_q(&r->ctx, k->y, k->y + n);
    k->h = r->h0;
    k->failed = 0;
    return gsl_odeiv2_evolve_reset(k->evolve) == GSL_SUCCESS &&
                   gsl_odeiv2_step_reset(k->step) == GSL_SUCCESS
               ? 0
               : -1;
}

/* natural steps never aim at a time asked for: their only bound is this */
#define HORIZON 1e300

/* one more natural point at the end of the track: 0, or -1 (out of
 * memory, or the step failed: the track then ends where it is) */
static int track_extend(vb_reference *r, track *k)
{
    size_t dim = 2 * r->ctx.k;
    if (k->failed)
        return -1;
    if (!r->keep && k->n == 2) { /* a private track keeps the last two */
        k->t[0] = k->t[1];
        memcpy(k->y, k->y + dim, dim * sizeof *k->y);
        k->first++;
        k->n = 1;
    }
    if (k->n == k->cap) {
        size_t cap = 2 * k->cap;
        double *t = realloc(k->t, cap * sizeof *t);
        if (t)
            k->t = t;
        double *y = t ? realloc(k->y, cap * dim * sizeof *y) : NULL;
        if (!y)
            return -1;
        k->y = y;
        k->cap = cap;
    }
    double t = k->t[k->n - 1], *y = k->y + k->n * dim;
    memcpy(y, y - dim, dim * sizeof *y);
    if (gsl_odeiv2_evolve_apply(k->evolve, k->control, k->step, &r->sys, &t, HORIZON, &k->h, y) !=
            GSL_SUCCESS ||
        !(t > k->t[k->n - 1])) {
        k->failed = 1;
        return -1;
    }
    k->t[k->n++] = t;
    return 0;
}

static void track_free(track *k)
{
    if (k->evolve)
        gsl_odeiv2_evolve_free(k->evolve);
    if (k->control)
        gsl_odeiv2_control_free(k->control);
    if (k->step)
        gsl_odeiv2_step_free(k->step);
    free(k->t);
    free(k->y);
}

void vb_reference_free(vb_reference *r)
{
    if (!r)
        return;
    for (int k = 0; k < 2; k++)
        track_free(&r->tr[k]);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

static vb_reference *reference_alloc(const vb_model *m, int keep)
{
    vb_reference *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    const vb_model_type *type = m->type;
    r->m = m;
    r->keep = keep;
    r->ctx = (rhs_ctx){m, type->ref_dof ? type->ref_dof(m->self) : m->n, type->ref_dof != NULL,
                       NAN};
    size_t n = r->ctx.k, dim = 2 * n;
    r->sys = (gsl_odeiv2_system){rhs, NULL, dim, &r->ctx};
    if (pthread_mutex_init(&r->lock, NULL) != 0) {
        free(r);
        return NULL;
    }
    /* The absolute tolerance of each component in units of its kind's size:
     * positions by the initial positions, velocities by the initial
     * velocities, each at least what the other gives over the natural time
     * (a chain released from rest has no velocity to measure by, yet moves
     * at about amp 2 pi / T). */
    double *y0 = malloc(dim * sizeof *y0), *scale = malloc(dim * sizeof *scale);
    int ok = y0 && scale;
    if (ok) {
        initial_q(&r->ctx, y0, y0 + n);
        double T = type->natural_time(m->self), w = 2.0 * M_PI / T;
        double size_x = vb_magnitude(y0, n), size_v = vb_magnitude(y0 + n, n);
        double sx = fmax(size_x, size_v / w), sv = fmax(size_v, size_x * w);
        if (!(sx > 0.0 && isfinite(sx)) || !(sv > 0.0 && isfinite(sv)))
            sx = sv = 1.0;
        for (size_t i = 0; i < n; i++) {
            scale[i] = sx;
            scale[n + i] = sv;
        }
        r->h0 = T * 1e-3;
    }
    for (int k = 0; k < 2 && ok; k++) {
        double tol = k ? VB_REF_TOL / VB_REF_TOL_RATIO : VB_REF_TOL;
        track *t = &r->tr[k];
        t->step = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, dim);
        t->control = gsl_odeiv2_control_scaled_new(tol, tol, 1.0, 0.0, scale, dim);
        t->evolve = gsl_odeiv2_evolve_alloc(dim);
        t->cap = keep ? 64 : 2;
        t->t = malloc(t->cap * sizeof *t->t);
        t->y = malloc(t->cap * dim * sizeof *t->y);
        ok = t->step && t->control && t->evolve && t->t && t->y && track_restart(r, t) == 0;
    }
    free(y0);
    free(scale);
    if (!ok) {
        vb_reference_free(r);
        return NULL;
    }
    return r;
}

vb_reference *vb_reference_alloc(const vb_model *m)
{
    return m->type->exact ? NULL : reference_alloc(m, 1);
}

static vb_truth *alloc(const vb_model *m, int force_reference, vb_reference *shared)
{
    vb_truth *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    tr->m = m;
    const vb_model_type *type = m->type;
    if (type->exact && !force_reference) {
        if (type->work_alloc && !(tr->work = type->work_alloc(m->self))) {
            free(tr);
            return NULL;
        }
        return tr;
    }
    tr->is_reference = 1;
    tr->bad_force_t = NAN;
    tr->ref = shared ? shared : reference_alloc(m, 0);
    tr->owns_ref = !shared;
    if (!tr->ref) {
        free(tr);
        return NULL;
    }
    tr->own = tr->ref->ctx.own;
    tr->k = tr->ref->ctx.k;
    size_t dim = 2 * tr->k;
    tr->ctx = tr->ref->ctx;
    tr->ctx.bad_force_t = NAN;
    tr->sys = (gsl_odeiv2_system){rhs, NULL, dim, &tr->ctx};
    tr->ys = malloc(7 * dim * sizeof *tr->ys);
    tr->yerr = tr->ys ? tr->ys + 2 * dim : NULL;
    for (int k = 0; k < 2 && tr->ys; k++) {
        tr->k1[k] = tr->ys + (size_t)(3 + 2 * k) * dim;
        tr->k1_y[k] = tr->k1[k] + dim;
    }
    int ok = tr->ys && (!tr->own || (tr->xv = malloc(4 * m->n * sizeof *tr->xv)));
    for (int k = 0; k < 2 && ok; k++)
        ok = (tr->side[k] = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, dim)) != NULL;
    if (!ok) {
        vb_truth_free(tr);
        return NULL;
    }
    return tr;
}

vb_truth *vb_truth_alloc(const vb_model *m) { return alloc(m, 0, NULL); }
vb_truth *vb_truth_alloc_reference(const vb_model *m) { return alloc(m, 1, NULL); }
vb_truth *vb_truth_alloc_shared(const vb_model *m, vb_reference *shared)
{
    return alloc(m, 0, m->type->exact ? NULL : shared);
}

void vb_truth_free(vb_truth *tr)
{
    if (!tr)
        return;
    if (tr->work)
        tr->m->type->work_free(tr->work);
    for (int k = 0; k < 2; k++)
        if (tr->side[k])
            gsl_odeiv2_step_free(tr->side[k]);
    if (tr->owns_ref)
        vb_reference_free(tr->ref);
    free(tr->ys);
    free(tr->xv);
    free(tr);
}

int vb_truth_is_reference(const vb_truth *tr) { return tr->is_reference; }

/* The derivative at (t0, y), the natural point a side step of track k
 * starts from: the one kept if it is that point, else evaluated (as rk8pd
 * would: the same function of the same numbers) and kept; NULL when the
 * force is not finite there. */
static const double *start_derivative(vb_truth *tr, int k, double t0, const double *y)
{
    size_t dim = 2 * tr->k;
    if (tr->k1_valid[k] && tr->k1_t[k] == t0 && memcmp(tr->k1_y[k], y, dim * sizeof *y) == 0)
        return tr->k1[k];
    tr->k1_valid[k] = 0;
    if (rhs(t0, y, tr->k1[k], &tr->ctx) != GSL_SUCCESS)
        return NULL;
    memcpy(tr->k1_y[k], y, dim * sizeof *y);
    tr->k1_t[k] = t0;
    tr->k1_valid[k] = 1;
    return tr->k1[k];
}

/* Track k's solution at t into ys: natural steps on until one reaches t,
 * then, unless it lands on t, a side step from the natural point before
 * it.  A side step is shorter than the natural step the control accepted
 * from the same point, so its error is smaller. */
static int ref_at(vb_truth *tr, int k, double t, double *ys)
{
    vb_reference *r = tr->ref;
    track *K = &r->tr[k];
    size_t dim = 2 * tr->k;
    int rc = 0;
    pthread_mutex_lock(&r->lock);
    /* a private track only goes forward: an earlier time starts it again */
    if (!r->keep && t < K->t[0] && track_restart(r, K) != 0)
        rc = -1;
    while (rc == 0 && t > K->t[K->n - 1])
        if (track_extend(r, K) != 0) {
            rc = -1;
            /* the force failed on the way: this run's reference stops there */
            if (isnan(tr->bad_force_t))
                tr->bad_force_t = r->ctx.bad_force_t;
        }
    /* the first point at or after t, from where the last time was found */
    size_t j = tr->at[k] > K->first ? tr->at[k] - K->first : 0;
    if (rc == 0) {
        if (j >= K->n || (j > 0 && !(K->t[j - 1] < t)))
            j = 0;
        while (K->t[j] < t)
            j++;
        tr->at[k] = K->first + j;
        memcpy(ys, K->y + (K->t[j] == t ? j : j - 1) * dim, dim * sizeof *ys);
    }
    double t0 = rc == 0 && K->t[j] != t ? K->t[j - 1] : t;
    pthread_mutex_unlock(&r->lock);
    if (rc != 0)
        return -1;
    const double *dydt = t0 != t ? start_derivative(tr, k, t0, ys) : NULL;
    if (t0 != t &&
        (!dydt || gsl_odeiv2_step_apply(tr->side[k], t0, t - t0, ys, tr->yerr, dydt, NULL,
                                        &tr->sys) != GSL_SUCCESS)) {
        if (isnan(tr->bad_force_t))
            tr->bad_force_t = tr->ctx.bad_force_t;
        return -1;
    }
    return 0;
}

int vb_truth_at(vb_truth *tr, double t, double *x, double *v)
{
    const vb_model *m = tr->m;
    if (!tr->is_reference)
        return m->type->exact(m->self, tr->work, t, x, v);
    size_t n = m->n, dim = 2 * tr->k;
    const double *y = tr->ys, *z = tr->ys + dim;
    if (ref_at(tr, 0, t, tr->ys) != 0 || ref_at(tr, 1, t, tr->ys + dim) != 0)
        return -1;
    if (tr->own) {
        /* both to x, v: their distance is the reference's error there */
        size_t k = tr->k;
        m->type->ref_state(m->self, y, y + k, tr->xv, tr->xv + n);
        m->type->ref_state(m->self, z, z + k, tr->xv + 2 * n, tr->xv + 3 * n);
        y = tr->xv;
        z = tr->xv + 2 * n;
    }
    tr->err_pos = fmax(tr->err_pos, vb_distance(y, z, n));
    tr->err_vel = fmax(tr->err_vel, vb_distance(y + n, z + n, n));
    memcpy(x, y, n * sizeof *x);
    memcpy(v, y + n, n * sizeof *v);
    return 0;
}

double vb_truth_err_pos(const vb_truth *tr) { return tr->err_pos; }
double vb_truth_bad_force_time(const vb_truth *tr)
{
    return tr->is_reference ? tr->bad_force_t : (double)NAN;
}
double vb_truth_err_vel(const vb_truth *tr) { return tr->err_vel; }
