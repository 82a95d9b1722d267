/* series.c — time series and paths of a case for the charts. */
#include "series.h"

#include "parallel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "sweep.h"

/* ---- long runs: windowed maxima ------------------------------------------ */

typedef struct {
    const vb_model *model;
    vb_series_row *row;
    double E0, window; /* window length in time */
    long current;      /* the window being filled, -1 before the first */
    double t_last, pos_max, energy_max;
} window_rec;

static void window_flush(window_rec *w)
{
    if (w->current < 0)
        return;
    vb_series_row *r = w->row;
    r->t[r->n] = w->t_last;
    r->err_pos[r->n] = w->pos_max;
    r->err_energy[r->n] = w->energy_max;
    r->n++;
}

static void window_step(void *ctx, double t, const double *x, const double *v, const double *xe,
                        const double *ve)
{
    (void)ve;
    window_rec *w = ctx;
    const vb_model_type *type = w->model->type;
    if (t == 0.0) {
        if (type->energy)
            w->E0 = type->energy(w->model->self, x, v);
        return; /* the start is exact: nothing to draw on a log axis */
    }
    long k = (long)floor(t / w->window);
    if (k >= VB_SERIES_WINDOWS)
        k = VB_SERIES_WINDOWS - 1; /* t_end itself closes the last window */
    if (k != w->current) {
        window_flush(w);
        w->current = k;
        w->pos_max = 0.0;
        w->energy_max = 0.0;
    }
    double ep = vb_distance(x, xe, type->dim);
    w->pos_max = fmax(w->pos_max, ep);
    if (type->energy) {
        double ee = fabs(vb_relative_change(type->energy(w->model->self, x, v), w->E0));
        w->energy_max = fmax(w->energy_max, ee);
    } else {
        w->energy_max = NAN;
    }
    w->t_last = t;
}

static int long_run(const vb_case *c, size_t integ, vb_plan_kind kind, double t_end,
                    vb_series_row *row, char *err, size_t errlen)
{
    row->integ = integ;
    row->kind = kind;
    row->dt = c->dt;
    row->t_end = t_end;
    row->t = malloc(3 * VB_SERIES_WINDOWS * sizeof *row->t);
    if (!row->t) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    row->err_pos = row->t + VB_SERIES_WINDOWS;
    row->err_energy = row->t + 2 * VB_SERIES_WINDOWS;
    window_rec w = {.model = &c->model, .row = row, .window = t_end / VB_SERIES_WINDOWS,
                    .current = -1};
    vb_run_spec spec = {.integ = c->integ[integ], .model = &c->model,
                        .plan = {.kind = kind, .t_end = t_end, .dt = c->dt},
                        .on_step = window_step, .on_step_ctx = &w};
    if (kind == VB_PLAN_RANDOM) {
        spec.plan.jitter = c->jitter;
        spec.plan.seed = 1;
    }
    vb_run_result res;
    if (vb_simulate(&spec, &res, err, errlen) != 0)
        return -1;
    window_flush(&w);
    row->steps = res.steps;
    row->status = res.status;
    row->pos_scale = res.pos_scale;
    return 0;
}

/* rows a and b show the same errors in every window, to round-off */
static int same_windows(const vb_series_row *a, const vb_series_row *b, const double *ea,
                        const double *eb, double scale)
{
    if (a->status != VB_STATUS_OK || b->status != VB_STATUS_OK || a->n != b->n ||
        a->steps != b->steps)
        return 0;
    for (size_t k = 0; k < a->n; k++)
        if (a->t[k] != b->t[k] || !vb_same_to_roundoff(ea[k], eb[k], (double)a->steps, scale))
            return 0;
    return 1;
}

static void find_same(vb_series_set *set)
{
    for (size_t k = 0; k < set->n_series; k++) {
        vb_series_row *r = &set->series[k];
        r->same_pos_as = r->same_energy_as = VB_SAME_NONE;
        for (size_t o = 0; o < k; o++) {
            const vb_series_row *q = &set->series[o];
            if (q->kind != r->kind)
                continue;
            double sc = fmax(r->pos_scale, q->pos_scale);
            if (r->same_pos_as == VB_SAME_NONE && same_windows(r, q, r->err_pos, q->err_pos, sc))
                r->same_pos_as = q->integ;
            if (set->has_energy && r->same_energy_as == VB_SAME_NONE &&
                same_windows(r, q, r->err_energy, q->err_energy, 1.0))
                r->same_energy_as = q->integ;
        }
    }
}

/* ---- paths ---------------------------------------------------------------- */

typedef struct {
    vb_path_row *row;
    unsigned dim;
    unsigned long long every, count;
    double last_t, last_x[VB_MAX_DIM]; /* so the end is drawn even between samples */
} path_rec;

static void path_step(void *ctx, double t, const double *x, const double *v, const double *xe,
                      const double *ve)
{
    (void)v, (void)xe, (void)ve;
    path_rec *p = ctx;
    p->last_t = t;
    memcpy(p->last_x, x, p->dim * sizeof *x);
    if (p->count++ % p->every != 0 || p->row->n >= VB_PATH_POINTS + 1)
        return;
    vb_path_row *r = p->row;
    r->t[r->n] = t;
    memcpy(r->x + r->n * p->dim, x, p->dim * sizeof *x);
    r->n++;
}

static int alloc_path(vb_path_row *r, unsigned dim)
{
    r->t = malloc((VB_PATH_POINTS + 2) * (1 + dim) * sizeof *r->t);
    r->x = r->t + VB_PATH_POINTS + 2;
    return r->t ? 0 : -1;
}

static int path_run(const vb_case *c, size_t integ, vb_plan_kind kind, vb_path_row *row,
                    char *err, size_t errlen)
{
    unsigned dim = c->model.type->dim;
    row->integ = integ;
    row->kind = kind;
    row->dt = c->dt;
    if (alloc_path(row, dim) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    vb_plan_spec plan = {.kind = kind, .t_end = c->t_end, .dt = c->dt};
    if (kind == VB_PLAN_RANDOM) {
        plan.jitter = c->jitter;
        plan.seed = 1;
    }
    double n = vb_plan_max_steps(&plan);
    path_rec p = {.row = row, .dim = dim,
                  .every = n > VB_PATH_POINTS ? (unsigned long long)ceil(n / VB_PATH_POINTS) : 1};
    vb_run_spec spec = {.integ = c->integ[integ], .model = &c->model, .plan = plan,
                        .on_step = path_step, .on_step_ctx = &p};
    vb_run_result res;
    if (vb_simulate(&spec, &res, err, errlen) != 0)
        return -1;
    if (row->n > 0 && row->t[row->n - 1] < p.last_t) {
        row->t[row->n] = p.last_t;
        memcpy(row->x + row->n * dim, p.last_x, dim * sizeof *p.last_x);
        row->n++;
    }
    return 0;
}

static int exact_path(const vb_case *c, vb_path_row *row, char *err, size_t errlen)
{
    const vb_model_type *type = c->model.type;
    unsigned dim = type->dim;
    row->integ = VB_PATH_EXACT;
    row->kind = VB_PLAN_FIXED;
    row->dt = c->t_end / VB_PATH_POINTS;
    if (alloc_path(row, dim) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    void *work = type->work_alloc ? type->work_alloc(c->model.self) : NULL;
    if (type->work_alloc && !work) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    double v[VB_MAX_DIM];
    int rc = 0;
    for (size_t k = 0; k <= VB_PATH_POINTS; k++) {
        double t = c->t_end * (double)k / VB_PATH_POINTS;
        if (type->exact(c->model.self, work, t, row->x + row->n * dim, v) != 0) {
            snprintf(err, errlen, "the exact solution failed at t = %g", t);
            rc = -1;
            break;
        }
        row->t[row->n++] = t;
    }
    if (work)
        type->work_free(work);
    return rc;
}

/* ---- the set ---------------------------------------------------------------- */

/* One integrator and plan: its long run and its path, into their own slots. */
typedef struct {
    const vb_case *c;
    vb_series_set *set;
    int plans;
    double t_long;
    char (*err)[256];
} series_ctx;

static int series_task(void *ctx, size_t j)
{
    series_ctx *x = ctx;
    size_t i = j / (size_t)x->plans;
    vb_plan_kind kind = j % (size_t)x->plans ? VB_PLAN_RANDOM : VB_PLAN_FIXED;
    if (long_run(x->c, i, kind, x->t_long, &x->set->series[j], x->err[j], sizeof x->err[j]) != 0 ||
        path_run(x->c, i, kind, &x->set->paths[j], x->err[j], sizeof x->err[j]) != 0)
        return -1;
    return 0;
}

int vb_series_run(const vb_case *c, double max_steps, unsigned threads, vb_series_set *set,
                  char *err, size_t errlen)
{
    memset(set, 0, sizeof *set);
    int plans = c->jitter > 0.0 ? 2 : 1;
    const vb_model_type *type = c->model.type;
    set->has_energy = type->energy != NULL;

    /* as many periods as the step limit allows, up to VB_LONG_PERIODS */
    double periods = type->periodic ? VB_LONG_PERIODS : 1.0;
    vb_plan_spec one = {.kind = VB_PLAN_RANDOM, .t_end = c->t_end, .dt = c->dt,
                        .jitter = c->jitter};
    double per_period = vb_plan_max_steps(&one);
    if (periods * per_period > max_steps)
        periods = fmax(1.0, floor(max_steps / per_period));
    set->periods = periods;

    set->series = calloc(c->n_integ * (size_t)plans, sizeof *set->series);
    set->paths = calloc(c->n_integ * (size_t)plans + 1, sizeof *set->paths);
    if (!set->series || !set->paths) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t n = c->n_integ * (size_t)plans;
    series_ctx x = {c, set, plans, periods * c->t_end, calloc(n, sizeof *x.err)};
    if (!x.err) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* slots are filled in place; counted as written so vb_series_free frees them */
    set->n_series = n;
    set->n_paths = n;
    int rc = vb_parallel_for(n, NULL, threads, series_task, &x, NULL, NULL);
    if (rc != 0)
        for (size_t j = 0; j < n; j++)
            if (x.err[j][0]) {
                snprintf(err, errlen, "%s", x.err[j]);
                break;
            }
    free(x.err);
    if (rc != 0)
        return -1;
    find_same(set);
    return exact_path(c, &set->paths[set->n_paths++], err, errlen);
}

void vb_series_free(vb_series_set *set)
{
    for (size_t k = 0; k < set->n_series; k++)
        free(set->series[k].t);
    for (size_t k = 0; k < set->n_paths; k++)
        free(set->paths[k].t);
    free(set->series);
    free(set->paths);
    memset(set, 0, sizeof *set);
}
