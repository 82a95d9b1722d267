/* series.c — time series and paths of a case for the charts. */
#include "series.h"
#include <sys/stat.h>

#include "isolate.h"
#include "plans.h"
#include "parallel.h"
#include "plugin.h"
#include "runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bodyrun.h" /* VB_BODY_PATH_WIDTH */
#include "metrics.h"
#include "rigid.h"
#include "rigid_metrics.h"
#include "roundoff.h"
#include "truth.h"

/* What a path of a case's state holds, and what errors it has of its own,
 * is its description's (driver/profile.h: every coordinate of the
 * particles, a rigid body's body-frame w and attitude error). */

/* the arrays of a long run's row, each of its windows: t, err_pos,
 * err_energy, err_constraint, err_att, err_angmom */
#define SERIES_ARRAYS 6

/* ---- long runs: windowed maxima ------------------------------------------ */

typedef struct {
    const vb_model *model;
    vb_series_row *row;
    double E0, window; /* window length in time */
    long current;      /* the window being filled, -1 before the first */
    long windows;      /* how many there are */
    double t_last, pos_max, energy_max, constraint_max;
    /* the state's own errors (vb_state_errors: a rigid body's attitude
     * error and drift of L, the numbers its run's maxima are of, so the
     * largest window is runs.csv's err_att_max), the window's largest;
     * NaN for those it has not */
    const vb_state_desc *state;
    double state_max[VB_STATE_ERRORS];
} window_rec;

static void window_flush(window_rec *w)
{
    if (w->current < 0)
        return;
    vb_series_row *r = w->row;
    r->t[r->n] = w->t_last;
    r->err_pos[r->n] = w->pos_max;
    r->err_energy[r->n] = w->energy_max;
    r->err_constraint[r->n] = w->constraint_max;
    r->err_att[r->n] = w->state_max[0];
    r->err_angmom[r->n] = w->state_max[1];
    r->n++;
}

static void window_step(void *ctx, size_t k_integ, double t, const double *x, const double *v,
                        const double *xe, const double *ve)
{
    (void)ve;
    window_rec *w = (window_rec *)ctx + k_integ;
    const vb_model_type *type = w->model->type;
    if (t == 0.0) {
        if (type->energy)
            w->E0 = type->energy(w->model->self, x, v);
        return; /* the start is exact: nothing to draw on a log axis */
    }
    long k = (long)floor(t / w->window);
    if (k >= w->windows)
        k = w->windows - 1; /* t_end itself closes the last window */
    if (k != w->current) {
        window_flush(w);
        w->current = k;
        w->pos_max = 0.0;
        w->energy_max = 0.0;
        w->constraint_max = 0.0;
        for (size_t e = 0; e < VB_STATE_ERRORS; e++)
            w->state_max[e] = e < w->state->errors ? 0.0 : (double)NAN;
    }
    double se[VB_STATE_ERRORS];
    size_t ne = v ? vb_state_errors(w->state, x, v, xe, ve, se) : 0;
    for (size_t e = 0; e < ne; e++) /* not fmax: a NaN (a run diverging) is kept, as the table's inf */
        if (!(se[e] <= w->state_max[e]))
            w->state_max[e] = se[e];
    if (vb_model_constrained(w->model)) {
        double dc = vb_constraint_drift(&w->model->cons, x);
        if (!(dc <= w->constraint_max))
            w->constraint_max = dc;
    }
    double ep = vb_distance(x, xe, w->model->n);
    w->pos_max = fmax(w->pos_max, ep);
    if (type->energy && v) { /* v NULL: a run without velocity has no energy */
        double ee = fabs(vb_relative_change(type->energy(w->model->self, x, v), w->E0));
        w->energy_max = fmax(w->energy_max, ee);
    } else {
        w->energy_max = NAN;
    }
    w->t_last = t;
}

/* the plan of a long run or a path: the coarsest dt, fixed or random (seed 1) */
static vb_plan_spec series_plan(const vb_case *c, vb_plan_kind kind, double t_end)
{
    vb_plan_spec plan = {.kind = kind, .t_end = t_end, .dt = c->dt};
    /* named for an external engine: over t_end it is the sweep's own
     * coarsest run, longer it is a run of its own */
    int own = t_end == c->t_end;
    if (kind == VB_PLAN_RANDOM) {
        plan.jitter = c->jitter;
        plan.seed = 1;
        snprintf(plan.id, sizeof plan.id, own ? "random-L0-S1" : "long-random-S1");
    } else {
        snprintf(plan.id, sizeof plan.id, own ? "fixed-L0" : "long-fixed");
    }
    return plan;
}

/* the step the charts name: a fixed plan's own, t_end / N (the article's
 * projectile steps 0.1922 where its case asks 0.2); a random plan's mean */
static double plan_step(const vb_plan_spec *plan)
{
    return plan->kind == VB_PLAN_FIXED ? plan->t_end / vb_plan_max_steps(plan) : plan->dt;
}

/* the windows of a long run: VB_SERIES_WINDOWS, or with full as many as it
 * can take steps (each then holds one step at most: none is shorter than
 * t_end over that) */
static size_t series_windows(const vb_case *c, vb_plan_kind kind, double t_end, int full)
{
    if (!full)
        return VB_SERIES_WINDOWS;
    vb_plan_spec plan = series_plan(c, kind, t_end);
    double n = vb_plan_max_steps(&plan) + 1.0;
    return n > VB_SERIES_WINDOWS ? (size_t)n : VB_SERIES_WINDOWS;
}

/* The long runs of integrators which[0..nw) under one plan, together (the
 * truth once per step): rows[k] is integrator which[k]'s. */
static int long_runs(const vb_case *c, const size_t *which, size_t nw, vb_plan_kind kind,
                     double t_end, int full, vb_series_row **rows, char *err, size_t errlen)
{
    size_t windows = series_windows(c, kind, t_end, full);
    vb_plan_spec plan = series_plan(c, kind, t_end);
    window_rec *w = calloc(nw ? nw : 1, sizeof *w);
    vb_run_result *res = calloc(nw ? nw : 1, sizeof *res);
    const vb_integrator **integ = malloc((nw ? nw : 1) * sizeof *integ);
    int rc = -1;
    if (!w || !res || !integ) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < nw; i++) {
        vb_series_row *row = rows[i];
        integ[i] = c->integ[which[i]];
        row->integ = which[i];
        row->kind = kind;
        row->dt = plan_step(&plan);
        row->t_end = t_end;
        row->cap = windows;
        row->t = malloc(SERIES_ARRAYS * windows * sizeof *row->t);
        if (!row->t) {
            snprintf(err, errlen, "out of memory");
            goto done;
        }
        row->err_pos = row->t + windows;
        row->err_energy = row->t + 2 * windows;
        row->err_constraint = row->t + 3 * windows;
        row->err_att = row->t + 4 * windows;
        row->err_angmom = row->t + 5 * windows;
        w[i] = (window_rec){.model = &c->model, .row = row, .windows = (long)windows,
                            .window = t_end / (double)windows, .current = -1,
                            .state = &c->profile.state};
    }
    vb_grid_spec spec = {.model = &c->model, .plan = plan,
                         .integ = integ, .n_integ = nw, .on_step = window_step,
                         .on_step_ctx = w};
    if (nw && vb_simulate_grid(&spec, res, err, errlen) != 0)
        goto done;
    for (size_t i = 0; i < nw; i++) {
        window_flush(&w[i]);
        rows[i]->steps = res[i].steps;
        rows[i]->status = res[i].status;
        snprintf(rows[i]->id, sizeof rows[i]->id, "%s", spec.plan.id);
        snprintf(rows[i]->failure, sizeof rows[i]->failure, "%s", vb_run_failure(&res[i]));
        vb_run_result_clear(&res[i]);
        rows[i]->pos_scale = res[i].pos_scale;
        rows[i]->pos_signed = res[i].err_pos_signed;
        rows[i]->pos_rms = res[i].err_pos_rms;
    }
    rc = 0;
done:
    free(w);
    free(res);
    free(integ);
    return rc;
}

/* rows a and b show the same errors in every window, to round-off */
static int same_windows(vb_precision p, const vb_series_row *a, const vb_series_row *b,
                        const double *ea, const double *eb, double scale)
{
    if (a->status != VB_STATUS_OK || b->status != VB_STATUS_OK || a->n != b->n ||
        a->steps != b->steps)
        return 0;
    for (size_t k = 0; k < a->n; k++)
        if (a->t[k] != b->t[k] ||
            !vb_same_to_roundoff_in(p, ea[k], eb[k], (double)a->steps, scale))
            return 0;
    return 1;
}

/* In the case's precision, about its origin (case.h).  Curves are "the
 * same" when the runs have the same positions: their errors window by
 * window, and their signed witnesses (vb_same_signed_in), without which
 * explicit and symplectic Euler, whose errors on a projectile are equal
 * and opposite, would be keyed as one curve in both charts. */
static void find_same(const vb_case *c, vb_series_set *set)
{
    for (size_t k = 0; k < set->n_series; k++) {
        vb_series_row *r = &set->series[k];
        r->same_pos_as = r->same_energy_as = VB_SAME_NONE;
        for (size_t o = 0; o < k; o++) {
            const vb_series_row *q = &set->series[o];
            if (q->kind != r->kind)
                continue;
            double sc = vb_case_roundoff_scale(c, fmax(r->pos_scale, q->pos_scale), c->model.n);
            if (!vb_same_signed_in(c->precision, r->pos_signed, q->pos_signed, r->pos_rms,
                                   q->pos_rms, (double)r->steps, sc, c->model.n))
                continue;
            if (r->same_pos_as == VB_SAME_NONE &&
                same_windows(c->precision, r, q, r->err_pos, q->err_pos, sc))
                r->same_pos_as = q->integ;
            if (set->has_energy && r->same_energy_as == VB_SAME_NONE &&
                same_windows(c->precision, r, q, r->err_energy, q->err_energy, 1.0))
                r->same_energy_as = q->integ;
        }
    }
}

/* ---- paths ---------------------------------------------------------------- */

/* One path being recorded: every step while there are at most
 * VB_PATH_POINTS; past that the "M4" reduction of each of VB_PATH_COLUMNS
 * windows (all a chart can show of a pixel column): its first and last
 * step and the steps where a tracked
 * coordinate is lowest and highest, so every extreme stays visible.  A
 * candidate is a whole state: the rows hold every body at shared times. */
typedef struct {
    vb_path_row *row;   /* the reduced path */
    vb_path_row all;    /* every step, until there are more than cap */
    size_t n;           /* components */
    size_t m;           /* tracked components */
    const size_t *track;
    int full;           /* every step, however many */
    size_t from;        /* where in the state x[N], v[N] the path's numbers start */
    /* or the path read from the state (profile.h's path_read) into read[n] */
    void (*path_read)(const vb_rigid_body *b, const double *x, const double *v, double *out);
    const vb_rigid_body *body;
    double read[VB_PATH_READ_MAX];
    size_t state_n;     /* N */
    size_t cap;         /* every step is kept while there are no more */
    double window;      /* in time */
    long current;       /* the window being filled, -1 before the first */
    size_t k;           /* candidates: 2 + 2 m slots */
    unsigned long long step;
    unsigned long long *at; /* the step of each slot, 0 for none */
    double *slot;           /* each slot: t, then x[n] */
} path_rec;

static int path_room(vb_path_row *r, size_t n, size_t want)
{
    if (want <= r->cap)
        return 0;
    size_t cap = r->cap ? r->cap : 256;
    while (cap < want)
        cap *= 2;
    double *t = realloc(r->t, cap * sizeof *t);
    if (!t)
        return -1;
    r->t = t;
    double *x = realloc(r->x, cap * n * sizeof *x);
    if (!x)
        return -1;
    r->x = x;
    r->cap = cap;
    return 0;
}

static void append(vb_path_row *r, size_t n, double t, const double *x)
{
    if (path_room(r, n, r->n + 1) != 0)
        return; /* out of memory: the path is shorter, never wrong */
    r->t[r->n] = t;
    memcpy(r->x + r->n * n, x, n * sizeof *x);
    r->n++;
}

static void path_append(path_rec *p, double t, const double *x) { append(p->row, p->n, t, x); }

_Static_assert(VB_BODY_PATH_WIDTH <= VB_PATH_READ_MAX, "a body's path wider than a read one");

/* the current window's candidates, in the order of their steps, once each */
static void path_flush(path_rec *p)
{
    size_t per = 1 + p->n;
    for (;;) {
        size_t best = p->k;
        for (size_t i = 0; i < p->k; i++)
            if (p->at[i] && (best == p->k || p->at[i] < p->at[best]))
                best = i;
        if (best == p->k)
            return;
        unsigned long long step = p->at[best];
        path_append(p, p->slot[best * per], p->slot + best * per + 1);
        for (size_t i = 0; i < p->k; i++)
            if (p->at[i] == step)
                p->at[i] = 0;
    }
}

static void path_keep(path_rec *p, size_t i, double t, const double *x)
{
    size_t per = 1 + p->n;
    p->at[i] = p->step;
    p->slot[i * per] = t;
    memcpy(p->slot + i * per + 1, x, p->n * sizeof *x);
}

static void path_step(void *ctx, size_t k_integ, double t, const double *x, const double *v,
                      const double *xe, const double *ve)
{
    (void)xe, (void)ve;
    path_rec *p = (path_rec *)ctx + k_integ;
    if (p->path_read) { /* a body at a contact: read in its incline's frame */
        if (!v)
            return;
        p->path_read(p->body, x, v, p->read);
        x = p->read;
    } else if (p->from >= p->state_n) { /* a path of velocities (a rigid body's w) */
        if (!v)
            return;
        x = v + (p->from - p->state_n);
    } else {
        x += p->from;
    }
    p->step++;
    if (p->full) {
        path_append(p, t, x);
        return;
    }
    if (p->step <= p->cap)
        append(&p->all, p->n, t, x);
    long w = (long)floor(t / p->window);
    if (w >= VB_PATH_COLUMNS)
        w = VB_PATH_COLUMNS - 1; /* t_end itself closes the last window */
    if (w != p->current) {
        path_flush(p);
        p->current = w;
        path_keep(p, 0, t, x); /* the first */
        for (size_t c = 0; c < p->m; c++) {
            path_keep(p, 2 + 2 * c, t, x);
            path_keep(p, 3 + 2 * c, t, x);
        }
    }
    path_keep(p, 1, t, x); /* the last, so far */
    size_t per = 1 + p->n;
    for (size_t c = 0; c < p->m; c++) {
        size_t j = p->track[c];
        if (x[j] < p->slot[(2 + 2 * c) * per + 1 + j])
            path_keep(p, 2 + 2 * c, t, x);
        if (x[j] > p->slot[(3 + 2 * c) * per + 1 + j])
            path_keep(p, 3 + 2 * c, t, x);
    }
}

size_t vb_path_bodies(size_t particles, int full, size_t *out)
{
    if (full || particles <= VB_PATH_SHOWN_MAX) {
        for (size_t b = 0; out && b < particles && b < VB_PATH_SHOWN_MAX; b++)
            out[b] = b;
        return particles;
    }
    for (size_t k = 0; out && k < VB_PATH_SHOWN_MANY; k++)
        out[k] = (size_t)floor((double)(particles - 1) * (double)k / (VB_PATH_SHOWN_MANY - 1.0) +
                               0.5);
    return VB_PATH_SHOWN_MANY;
}

/* The coordinates whose extremes a path keeps: those of the bodies it
 * keeps.  Their number. */
static size_t tracked(const vb_case *c, size_t *out)
{
    const vb_state_desc *st = &c->profile.state;
    size_t dim = st->path_dim, bodies[VB_PATH_SHOWN_MAX], m = 0;
    size_t nb = vb_path_bodies(st->bodies, 0, bodies);
    for (size_t k = 0; k < nb; k++)
        for (size_t d = 0; d < dim; d++)
            out[m++] = bodies[k] * dim + d;
    return m;
}

/* the plan of a path: the coarsest dt, fixed or random (seed 1), or a
 * finer level's fixed plan as the sweep runs it (a rigid body's, whose w
 * the charts draw at any step of the sweep) */
static vb_plan_spec path_plan(const vb_case *c, vb_plan_kind kind, int level)
{
    return level ? vb_sweep_plan_for(c, VB_PLAN_FIXED, level, 0) : series_plan(c, kind, c->t_end);
}

/* the most points a path row may hold: every step with full, else every
 * step up to VB_PATH_POINTS, or a window's candidates in each window */
static double path_cap(const vb_case *c, vb_plan_kind kind, int level, int full)
{
    if (full) {
        vb_plan_spec plan = path_plan(c, kind, level);
        return vb_plan_max_steps(&plan) + 2.0;
    }
    size_t track[VB_PATH_SHOWN_MAX * 3];
    return fmax(VB_PATH_POINTS, (double)VB_PATH_COLUMNS * (double)(2 + 2 * tracked(c, track)));
}

/* The paths of integrators which[0..nw) under one plan (a level of it),
 * together: rows[k] is integrator which[k]'s. */
static int paths(const vb_case *c, const size_t *which, size_t nw, vb_plan_kind kind, int level,
                 int full, vb_path_row **rows, char *err, size_t errlen)
{
    size_t n = c->profile.state.path_width, track[VB_PATH_SHOWN_MAX * 3], m = tracked(c, track);
    path_rec *p = calloc(nw ? nw : 1, sizeof *p);
    vb_run_result *res = calloc(nw ? nw : 1, sizeof *res);
    const vb_integrator **integ = malloc((nw ? nw : 1) * sizeof *integ);
    int rc = -1;
    if (!p || !res || !integ) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    vb_plan_spec plan = path_plan(c, kind, level);
    for (size_t i = 0; i < nw; i++) {
        vb_path_row *row = rows[i];
        integ[i] = c->integ[which[i]];
        row->integ = which[i];
        row->kind = kind;
        row->level = level;
        row->dt = plan_step(&plan);
        size_t k = 2 + 2 * m;
        p[i] = (path_rec){.row = row, .n = n, .m = m, .track = track, .full = full,
                          .from = c->profile.state.path_at, .state_n = c->model.n,
                          .path_read = c->profile.state.path_read,
                          .body = c->profile.state.body,
                          .cap = VB_PATH_POINTS,
                          .window = c->t_end / VB_PATH_COLUMNS, .current = -1, .k = k,
                          .at = calloc(k, sizeof *p[i].at),
                          .slot = malloc(k * (1 + n) * sizeof *p[i].slot)};
        if (!p[i].at || !p[i].slot || path_room(row, n, 256) != 0 ||
            path_room(&p[i].all, n, 256) != 0) {
            snprintf(err, errlen, "out of memory");
            goto done;
        }
    }
    vb_grid_spec spec = {.model = &c->model, .plan = plan, .integ = integ,
                         .n_integ = nw, .on_step = path_step, .on_step_ctx = p};
    if (nw && vb_simulate_grid(&spec, res, err, errlen) != 0)
        goto done;
    for (size_t i = 0; i < nw; i++) {
        path_flush(&p[i]);
        vb_run_result_clear(&res[i]);
        if (!full && p[i].step <= p[i].cap) {
            /* few enough: every step, not the reduction */
            vb_path_row *row = rows[i];
            free(row->t);
            free(row->x);
            row->t = p[i].all.t, row->x = p[i].all.x;
            row->n = p[i].all.n, row->cap = p[i].all.cap;
            p[i].all.t = p[i].all.x = NULL;
        }
    }
    rc = 0;
done:
    for (size_t i = 0; p && i < nw; i++) {
        free(p[i].at);
        free(p[i].slot);
        free(p[i].all.t);
        free(p[i].all.x);
    }
    free(p);
    free(res);
    free(integ);
    return rc;
}

static int exact_path(const vb_case *c, vb_series_set *set, vb_path_row *row, char *err,
                      size_t errlen)
{
    const vb_state_desc *st = &c->profile.state;
    size_t n = c->model.n, width = st->path_width;
    row->integ = VB_PATH_EXACT;
    row->kind = VB_PLAN_FIXED;
    /* VB_PATH_POINTS, fewer past VB_PATH_VALUES times the bodies kept */
    size_t kept = vb_path_bodies(st->bodies, 0, NULL);
    size_t points = VB_PATH_VALUES / kept < VB_PATH_POINTS ? VB_PATH_VALUES / kept : VB_PATH_POINTS;
    /* a path that repeats is drawn over one period (a rigid body's
     * polhode is closed: one period of w(t) draws it all, at 2000 points;
     * spin-major-1's 3600 s hold 570 periods) */
    double span = c->t_end;
    set->w_period = st->path_period;
    if (st->path_period < span)
        span = st->path_period;
    row->dt = span / (double)points;
    double *xv = malloc(2 * n * sizeof *xv);
    vb_truth *tr = vb_truth_alloc(&c->model);
    if (!xv || !tr || path_room(row, width, points + 2) != 0) {
        free(xv);
        vb_truth_free(tr);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    double *x = xv, *v = xv + n;
    (void)err, (void)errlen;
    for (size_t k = 0; k <= points; k++) {
        double t = span * (double)k / (double)points;
        /* where the truth cannot be computed (a force that turns NaN), the
         * path ends, as the runs do (status exact-failed): a result of the
         * case, not a failure of the whole run */
        if (vb_truth_at(tr, t, x, v) != 0 || !vb_all_finite(x, v, n))
            break;
        if (st->path_read)
            st->path_read(st->body, x, v, row->x + row->n * width);
        else
            memcpy(row->x + row->n * width, xv + st->path_at, width * sizeof *x);
        row->t[row->n++] = t;
    }
    free(xv);
    vb_truth_free(tr);
    return 0;
}

/* ---- the set ---------------------------------------------------------------- */

/* Task j < 2 plans: plan p = j / 2 (fixed, random), its long runs (j even)
 * or its paths at the coarsest step; task 2 plans + l - 1: the fixed plan's
 * paths at level l (a rigid body's).  Each writes only its own rows:
 * integrator i's long run at i * plans + p, its path at i * path_slots +
 * the slot of the plan and level (series.h). */
typedef struct {
    const vb_case *c;
    vb_series_set *set;
    size_t plans, tasks;
    double t_long;
    char (*err)[256];
    /* a case whose runs call a plugin's code: its runs go to workers
     * first (isolate.h); here[unit]: handed back, to be run here */
    int iso;
    unsigned char *here;
} series_ctx;

/* what task j runs */
typedef struct {
    int path;          /* paths, else long runs */
    size_t p;          /* the plan's index: 0 fixed, 1 random */
    vb_plan_kind kind;
    int level;         /* a path's level */
    size_t slot;       /* a path's slot among an integrator's */
} series_task_spec;

static series_task_spec task_spec(const series_ctx *x, size_t j)
{
    if (j < 2 * x->plans) {
        size_t p = j / 2;
        /* the slots: fixed at each level, then random */
        return (series_task_spec){j % 2, p, p ? VB_PLAN_RANDOM : VB_PLAN_FIXED, 0,
                                  p ? (size_t)x->set->path_levels : 0};
    }
    size_t l = j - 2 * x->plans + 1;
    return (series_task_spec){1, 0, VB_PLAN_FIXED, (int)l, l};
}

static vb_path_row *path_row(const series_ctx *x, size_t i, const series_task_spec *t)
{
    return &x->set->paths[i * x->set->path_slots + t->slot];
}

/* Task j's runs of integrators which[0..nw) into their rows (a finer
 * level's paths: of those whose sweep refines dt) */
static int series_part(series_ctx *x, size_t j, const size_t *which, size_t nw, char *err,
                       size_t errlen)
{
    series_task_spec t = task_spec(x, j);
    void **rows = malloc((nw ? nw : 1) * sizeof *rows);
    size_t *kept = malloc((nw ? nw : 1) * sizeof *kept), nk = 0;
    if (!rows || !kept) {
        free(rows);
        free(kept);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t k = 0; k < nw; k++) {
        if (t.level > 0 && !x->c->profile.halves[which[k]])
            continue;
        kept[nk] = which[k];
        rows[nk++] = t.path ? (void *)path_row(x, which[k], &t)
                            : (void *)&x->set->series[which[k] * x->plans + t.p];
    }
    int rc = !t.path ? long_runs(x->c, kept, nk, t.kind, x->t_long, x->set->full,
                                 (vb_series_row **)rows, err, errlen)
                     : paths(x->c, kept, nk, t.kind, t.level, x->set->full, (vb_path_row **)rows,
                             err, errlen);
    free(rows);
    free(kept);
    return rc;
}

/* a row as bytes: its fields, then its points (a worker's result) */
static size_t row_bytes(const series_ctx *x, size_t j, size_t i, void **out)
{
    series_task_spec t = task_spec(x, j);
    size_t dim = x->set->path_width;
    if (!t.path) {
        const vb_series_row *r = &x->set->series[i * x->plans + t.p];
        size_t len = sizeof *r + SERIES_ARRAYS * r->n * sizeof(double);
        char *b = *out = malloc(len);
        if (!b)
            return 0;
        memcpy(b, r, sizeof *r);
        double *d = (double *)(void *)(b + sizeof *r);
        for (int a = 0; a < SERIES_ARRAYS; a++)
            memcpy(d + (size_t)a * r->n, r->t + (size_t)a * r->cap, r->n * sizeof *d);
        return len;
    }
    const vb_path_row *r = path_row(x, i, &t);
    size_t len = sizeof *r + r->n * (1 + dim) * sizeof(double);
    char *b = *out = malloc(len);
    if (!b)
        return 0;
    memcpy(b, r, sizeof *r);
    memcpy(b + sizeof *r, r->t, r->n * sizeof(double));
    memcpy(b + sizeof *r + r->n * sizeof(double), r->x, r->n * dim * sizeof(double));
    return len;
}

/* Units of a worker: task j's run of integrator i is unit j * n_integ + i. */

/* in a worker: the long runs or paths of one task's integrators, each
 * row sent as it is */
static int iso_series(void *ctx, const size_t *units, size_t n, vb_isolate_out *out, char *err,
                      size_t errlen)
{
    series_ctx *x = ctx;
    size_t ni = x->c->n_integ, j = n ? units[0] / ni : 0;
    size_t *which = malloc((n ? n : 1) * sizeof *which);
    if (!which) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        which[k] = units[k] % ni;
    int rc = n ? series_part(x, j, which, n, err, errlen) : 0;
    for (size_t k = 0; rc == 0 && k < n; k++) {
        void *b = NULL;
        size_t len = row_bytes(x, j, which[k], &b);
        rc = !len ? -1 : vb_isolate_put(out, units[k], b, len);
        free(b);
        if (rc != 0)
            snprintf(err, errlen, "cannot send a result to verletbench");
    }
    free(which);
    return rc;
}

/* in this process: a row, or why its worker failed it (the row then says
 * so, and has no points: the chart leaves the curve out), or (both NULL)
 * handed back to be run here */
static int iso_series_done(void *ctx, size_t unit, const void *bytes, size_t len,
                           const char *why)
{
    series_ctx *x = ctx;
    size_t ni = x->c->n_integ, j = unit / ni, i = unit % ni, dim = x->set->path_width;
    series_task_spec ts = task_spec(x, j);
    vb_plan_kind kind = ts.kind;
    if (!bytes && !why) {
        x->here[unit] = 1;
        return 0;
    }
    if (!ts.path) {
        vb_series_row *r = &x->set->series[i * x->plans + ts.p];
        vb_series_row got = {0};
        if (bytes && len >= sizeof got)
            memcpy(&got, bytes, sizeof got);
        size_t windows = series_windows(x->c, kind, x->t_long, x->set->full);
        if (bytes && (len < sizeof got || got.n > windows ||
                      len != sizeof got + SERIES_ARRAYS * got.n * sizeof(double)))
            bytes = NULL, why = "a worker's result of the wrong size";
        double *t = malloc(SERIES_ARRAYS * windows * sizeof *t);
        if (!t)
            return -1;
        vb_plan_spec plan = series_plan(x->c, kind, x->t_long);
        if (bytes) {
            *r = got;
            const double *d = (const double *)(const void *)((const char *)bytes + sizeof got);
            for (int a = 0; a < SERIES_ARRAYS; a++)
                memcpy(t + (size_t)a * windows, d + (size_t)a * got.n, got.n * sizeof *d);
        } else {
            *r = (vb_series_row){.integ = i, .kind = kind, .dt = plan_step(&plan),
                                 .t_end = x->t_long, .status = VB_STATUS_PLUGIN_FAILED};
            snprintf(r->id, sizeof r->id, "%s", plan.id);
            snprintf(r->failure, sizeof r->failure, "%s", why);
        }
        r->cap = windows;
        r->t = t;
        r->err_pos = t + windows;
        r->err_energy = t + 2 * windows;
        r->err_constraint = t + 3 * windows;
        r->err_att = t + 4 * windows;
        r->err_angmom = t + 5 * windows;
        return 0;
    }
    vb_path_row *r = path_row(x, i, &ts);
    vb_path_row got = {0};
    if (bytes && len >= sizeof got)
        memcpy(&got, bytes, sizeof got);
    if (bytes && (len < sizeof got || (double)got.n > path_cap(x->c, kind, ts.level, x->set->full) ||
                  len != sizeof got + got.n * (1 + dim) * sizeof(double)))
        bytes = NULL, why = "a worker's result of the wrong size";
    vb_plan_spec plan = path_plan(x->c, kind, ts.level);
    *r = (vb_path_row){.integ = i, .kind = kind, .level = ts.level, .dt = plan_step(&plan)};
    if (path_room(r, dim, bytes ? got.n + 1 : 1) != 0)
        return -1;
    if (bytes) {
        r->n = got.n;
        memcpy(r->t, (const char *)bytes + sizeof got, got.n * sizeof(double));
        memcpy(r->x, (const char *)bytes + sizeof got + got.n * sizeof(double),
               got.n * dim * sizeof(double));
    } else {
        snprintf(r->failure, sizeof r->failure, "%s", why);
    }
    return 0;
}

/* integrator i's runs call a plugin's code (profile.h): its own, its
 * model's, or, a frame loop's entry, the method's inside it */
static int iso_series_foreign(void *ctx, size_t unit)
{
    const series_ctx *x = ctx;
    return x->c->profile.plugin[unit % x->c->n_integ];
}

/* Task j's runs here: every integrator's under its plan, together; in a
 * case whose runs went to workers first, those they handed back and
 * those never sent (an engine's).  The rows are the same either way. */
static int series_task(void *ctx, size_t j)
{
    series_ctx *x = ctx;
    const vb_case *c = x->c;
    size_t ni = c->n_integ, n = 0;
    size_t *idx = malloc((ni ? ni : 1) * sizeof *idx);
    if (!idx) {
        snprintf(x->err[j], sizeof x->err[j], "out of memory");
        return -1;
    }
    for (size_t i = 0; i < ni; i++)
        if (x->here[j * ni + i])
            idx[n++] = i;
    int rc = series_part(x, j, idx, n, x->err[j], sizeof x->err[j]);
    free(idx);
    return rc;
}

/* The long run's length in periods: VB_LONG_PERIODS for a periodic model,
 * as many as the step limit allows; else one. */
static double long_periods(const vb_case *c, double max_steps)
{
    double periods = (c->model.type->flags & VB_PERIODIC) ? VB_LONG_PERIODS : 1.0;
    vb_plan_spec one = {.kind = VB_PLAN_RANDOM, .t_end = c->t_end, .dt = c->dt,
                        .jitter = c->jitter};
    double frames = vb_plan_max_steps(&one), per_period = frames;
    /* a frame loop's physics steps, as the sweep counts them (a substeps
     * loop of 1000 takes 1000 a frame): the step limit holds them too */
    for (size_t i = 0; i < c->n_integ; i++)
        per_period = fmax(per_period, vb_runner_bound(c->integ[i], frames, 0.0, c->t_end, 0).steps);
    if (periods * per_period > max_steps)
        periods = fmax(1.0, floor(max_steps / per_period));
    return periods;
}

static int has_long_runs(const vb_case *c, const char *dir, size_t plans)
{
    for (size_t k = 0; k < plans; k++) {
        vb_plan_spec p = series_plan(c, k ? VB_PLAN_RANDOM : VB_PLAN_FIXED, 2.0 * c->t_end);
        char path[4096];
        struct stat st;
        if (snprintf(path, sizeof path, "%s/%s.csv", dir, p.id) >= (int)sizeof path ||
            stat(path, &st) != 0)
            return 0;
    }
    return 1;
}

size_t vb_series_plans(const vb_case *c, double max_steps, vb_plan_spec out[2])
{
    double periods = long_periods(c, max_steps);
    if (!(periods > 1.0))
        return 0; /* the sweep's own coarsest runs serve */
    size_t plans = c->jitter > 0.0 ? 2 : 1;
    for (size_t k = 0; k < plans; k++)
        out[k] = series_plan(c, k ? VB_PLAN_RANDOM : VB_PLAN_FIXED, periods * c->t_end);
    return plans;
}

int vb_series_run(const vb_case *c, double max_steps, unsigned threads, int full,
                  vb_series_set *set, char *err, size_t errlen)
{
    memset(set, 0, sizeof *set);
    set->full = full;
    size_t plans = c->jitter > 0.0 ? 2 : 1;
    const vb_model_type *type = c->model.type;
    set->has_energy = type->energy != NULL;
    set->has_constraint = vb_model_constrained(&c->model);
    const vb_state_desc *st = &c->profile.state;
    set->path_width = st->path_width;

    double periods = long_periods(c, max_steps);
    /* trajectories read from files: the long runs when the directory has
     * them (verletbench problem asks for them), else the long run is the
     * sweep's coarsest one, over t_end */
    for (size_t i = 0; i < c->n_integ && periods > 1.0; i++) {
        const char *dir = vb_runner_recorded(c->integ[i]);
        if (dir && !has_long_runs(c, dir, plans))
            periods = 1.0;
    }
    set->periods = periods;

    size_t n = c->n_integ * plans;
    /* a path the charts draw at any step (a rigid body's w: draw --dt)
     * at every fixed step of at most VB_PATH_LEVEL_STEPS steps, else at
     * the coarsest alone */
    set->path_levels = 1;
    while (st->path_every_step && set->path_levels < c->halvings) {
        vb_plan_spec finer = vb_sweep_plan_for(c, VB_PLAN_FIXED, set->path_levels, 0);
        if (vb_plan_max_steps(&finer) > VB_PATH_LEVEL_STEPS)
            break;
        set->path_levels++;
    }
    set->path_slots = plans + (size_t)set->path_levels - 1;
    size_t np = c->n_integ * set->path_slots, tasks = 2 * plans + (size_t)set->path_levels - 1;
    set->series = calloc(n ? n : 1, sizeof *set->series);
    set->paths = calloc(np + 1, sizeof *set->paths);
    /* the runs of the entries the case sends to workers go there first
     * (profile.h; a frame loop's entry calls the code of the method inside
     * it); every other run, and those handed back, here */
    const vb_profile *p = &c->profile;
    size_t ni = c->n_integ, *units = NULL, *at = NULL;
    series_ctx x = {c, set, plans, tasks, periods * c->t_end, calloc(tasks, sizeof *x.err),
                    p->n_in_workers > 0, malloc(tasks * (ni ? ni : 1))};
    if (x.iso) {
        units = malloc(tasks * (ni ? ni : 1) * sizeof *units);
        at = malloc((tasks + 1) * sizeof *at);
    }
    if (x.here) {
        memset(x.here, 1, tasks * ni);
        for (size_t j = 0; j < tasks; j++)
            for (size_t k = 0; k < p->n_in_workers; k++)
                x.here[j * ni + p->in_workers[k]] = 0;
    }
    if (!set->series || !set->paths || !x.err || !x.here || (x.iso && (!units || !at))) {
        free(x.err);
        free(x.here);
        free(units);
        free(at);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* slots are filled in place; counted as written so vb_series_free frees them */
    set->n_series = n;
    set->n_paths = np;
    int rc = 0;
    if (x.iso) {
        /* each task one worker's group: the runs of the entries sent;
         * then here what the workers handed back, and the others (no
         * thread runs while workers are forked) */
        size_t u = 0;
        for (size_t j = 0; j < tasks; j++) {
            at[j] = u;
            for (size_t k = 0; k < p->n_in_workers; k++)
                units[u++] = j * ni + p->in_workers[k];
        }
        at[tasks] = u;
        rc = vb_isolate_groups(units, at, tasks, threads, vb_plugin_timeout(), iso_series,
                               iso_series_done, iso_series_foreign, NULL, &x, x.err[0],
                               sizeof x.err[0]);
    }
    free(units);
    free(at);
    if (rc == 0)
        rc = vb_parallel_for(tasks, NULL, threads, series_task, &x, NULL, NULL);
    free(x.here);
    if (rc != 0) {
        snprintf(err, errlen, "out of memory");
        for (size_t j = 0; j < tasks; j++)
            if (x.err[j][0]) {
                snprintf(err, errlen, "%s", x.err[j]);
                break;
            }
    }
    free(x.err);
    if (rc != 0)
        return -1;
    find_same(c, set);
    return exact_path(c, set, &set->paths[set->n_paths++], err, errlen);
}

void vb_series_free(vb_series_set *set)
{
    for (size_t k = 0; k < set->n_series; k++)
        free(set->series[k].t);
    for (size_t k = 0; k < set->n_paths; k++) {
        free(set->paths[k].t);
        free(set->paths[k].x);
    }
    free(set->series);
    free(set->paths);
    memset(set, 0, sizeof *set);
}
