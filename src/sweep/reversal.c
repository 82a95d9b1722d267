/* reversal.c — whether a run retraces itself backwards: run to t_end,
 * reverse the velocity, run the same steps back in reverse order. */
#include "reversal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "float32.h"
#include "integrator.h"
#include "isolate.h"
#include "jobs.h"
#include "plugin.h"
#include "vector.h"

/* The steps of a plan, forwards and then backwards, in memory that grows
 * like sqrt(N) rather than N: a checkpoint of the plan every `chunk` steps
 * (a plan and its generator's 5 kB), and one chunk of steps regenerated at
 * a time on the way back.  A 1e9-step run needs ~10 MB, not 8 GB. */
typedef struct {
    vb_plan plan;
    vb_plan_checkpoint *cp;
    size_t n_cp, chunk, n;
    double *h; /* one chunk */
} step_replay;

static void replay_free(step_replay *r)
{
    for (size_t i = 0; i < r->n_cp; i++)
        vb_plan_checkpoint_free(&r->cp[i]);
    free(r->cp);
    free(r->h);
    vb_plan_end(&r->plan);
}

static int replay_begin(step_replay *r, const vb_plan_spec *spec)
{
    memset(r, 0, sizeof *r);
    double n = vb_plan_max_steps(spec);
    /* the chunk that balances checkpoints (~5 kB each) against the buffer
     * (8 bytes a step): sqrt(5000/8 N) */
    double chunk = ceil(sqrt(625.0 * n));
    r->chunk = chunk < 1024.0 ? 1024 : (size_t)chunk;
    r->h = malloc(r->chunk * sizeof *r->h);
    if (!r->h || vb_plan_begin(&r->plan, spec) != 0) {
        free(r->h);
        memset(r, 0, sizeof *r);
        return -1;
    }
    return 0;
}

/* The next step forwards, keeping a checkpoint at the start of each chunk.
 * 1, 0 at the end, -1 if out of memory. */
static int replay_next(step_replay *r, double *h)
{
    if (r->n % r->chunk == 0) {
        vb_plan_checkpoint cp;
        if (vb_plan_save(&r->plan, &cp) != 0)
            return -1;
        vb_plan_checkpoint *more = realloc(r->cp, (r->n_cp + 1) * sizeof *more);
        if (!more) {
            vb_plan_checkpoint_free(&cp);
            return -1;
        }
        r->cp = more;
        r->cp[r->n_cp++] = cp;
    }
    double t;
    if (!vb_plan_next(&r->plan, h, &t))
        return 0;
    r->n++;
    return 1;
}

/* Chunk c's steps regenerated into r->h; returns how many. */
static size_t replay_chunk(step_replay *r, size_t c)
{
    vb_plan_restore(&r->plan, &r->cp[c]);
    size_t k = 0;
    double t;
    while (k < r->chunk && c * r->chunk + k < r->n && vb_plan_next(&r->plan, &r->h[k], &t))
        k++;
    return k;
}

static int reversal(const vb_integrator *g, const vb_model *m, const vb_plan_spec *plan,
                    vb_reverse_row *row)
{
    step_replay r;
    size_t n = m->n;
    void *state = calloc(1, g->state_size(n));
    double *buf = malloc(4 * n * sizeof *buf);
    if (!state || !buf || replay_begin(&r, plan) != 0) {
        free(state);
        free(buf);
        return -1;
    }
    vb_force f = vb_model_force(m);
    double *x0 = buf, *v0 = buf + n, *x = buf + 2 * n, *v = buf + 3 * n, t = 0.0, h;
    m->type->initial(m->self, x0, v0);
    row->scale = vb_magnitude(x0, n);
    int got, rc = 0;
    for (int first = 1; (got = replay_next(&r, &h)) == 1; first = 0) {
        if (first) {
            vb_integrator_set_params(g, state);
            g->start(state, &f, t, x0, v0, h);
        }
        g->step(state, &f, t, h);
        t += h;
        g->observe(state, x, v);
        row->scale = fmax(row->scale, vb_magnitude(x, n));
    }
    if (got < 0) {
        rc = -1;
        goto done;
    }
    g->reverse(state);
    /* the system is autonomous: the clock of the way back only counts up */
    for (size_t c = r.n_cp; c-- > 0;) {
        size_t k = replay_chunk(&r, c);
        while (k-- > 0) {
            g->step(state, &f, t, r.h[k]);
            t += r.h[k];
        }
    }
    g->observe(state, x, v);
    for (size_t i = 0; i < n; i++)
        v0[i] = -v0[i];
    row->steps = r.n;
    row->err_pos = vb_distance(x, x0, n);
    row->err_vel = vb_distance(v, v0, n);
    /* diverged there or back: a run that did not finish has infinite
     * errors (docs/method.md §4), never NaN */
    if (!vb_all_finite(x, v, n) || !isfinite(row->err_pos) || !isfinite(row->err_vel))
        row->err_pos = row->err_vel = INFINITY;
done:
    replay_free(&r);
    free(state);
    free(buf);
    return rc;
}

/* the plans integrator i is run there and back under: every kind the
 * case has, none for an engine (it cannot be turned round mid-run) or an
 * adaptive method (its steps back are not its steps out) */
static int reversal_kinds(const vb_case *c, size_t i, vb_plan_kind *kinds)
{
    int n = 0;
    for (int kind = 0; kind < VB_N_PLANS; kind++)
        if (!((kind == VB_PLAN_RANDOM && !(c->jitter > 0.0)) ||
              (kind == VB_PLAN_TRACE && !c->trace_path) || !vb_sweep_caps(c, i).reverses))
            kinds[n++] = (vb_plan_kind)kind;
    return n;
}

/* integrator i's rows, one a kind of plan; 0, or -1 out of memory */
static int reversal_rows(const vb_case *c, size_t i, vb_reverse_row *rows)
{
    vb_plan_kind kinds[VB_N_PLANS];
    int nk = reversal_kinds(c, i, kinds);
    for (int k = 0; k < nk; k++) {
        vb_reverse_row *row = &rows[k];
        vb_plan_spec plan = vb_sweep_plan_for(c, kinds[k], 0, 1);
        row->integ = i;
        row->kind = kinds[k];
        row->dt = plan.dt;
        if (reversal(c->integ[i], &c->model, &plan, row) != 0)
            return -1;
        /* Round-off: docs/method.md §5's floor of 1e3 eps scale, grown as a random
         * walk over the 2N steps there and back (measured: velocity
         * Verlet misses by ~0.5 sqrt(2N) eps scale).  Anything a method
         * does wrong shows at its truncation error, orders above. */
        row->floor = vb_roundoff_floor(c->precision,
                                       vb_case_roundoff_scale(c, row->scale, c->model.n)) *
                     sqrt(2.0 * (double)row->steps);
        if (kinds[k] == VB_PLAN_TRACE)
            row->dt = c->t_end / (double)row->steps;
        row->reversible = row->err_pos <= row->floor ? VB_REVERSIBLE_YES : VB_REVERSIBLE_NO;
        /* float32 or a shifted origin: a floor that large can swamp what
         * the method does wrong (euler's return error is its truncation
         * error, 0.87 at dt = 0.1 on the spring, below float32's floor at
         * offset 1e3).  The same method in float64 about the origin says
         * whether there is something to hide. */
        const vb_integrator *base = vb_integrator_base(c->integ[i]);
        if (row->reversible == VB_REVERSIBLE_YES && base != c->integ[i]) {
            vb_reverse_row twin = *row;
            if (reversal(base, &c->model, &plan, &twin) != 0)
                return -1;
            double floor64 = vb_roundoff_floor(VB_FLOAT64, twin.scale) *
                             sqrt(2.0 * (double)twin.steps);
            if (!(twin.err_pos <= floor64))
                row->reversible = VB_REVERSIBLE_BELOW_RESOLUTION;
        }
    }
    return 0;
}

typedef struct {
    vb_sweep *s;
    size_t *slot; /* integrator i's first row */
} reversal_ctx;

/* in a worker: the rows of integrators whose steps call a plugin's code */
static int iso_reversal(void *ctx, const size_t *units, size_t n, vb_isolate_out *out, char *err,
                        size_t errlen)
{
    const reversal_ctx *o = ctx;
    vb_plan_kind kinds[VB_N_PLANS];
    for (size_t k = 0; k < n; k++) {
        vb_reverse_row rows[VB_N_PLANS];
        memset(rows, 0, sizeof rows);
        int nk = reversal_kinds(o->s->c, units[k], kinds);
        if (reversal_rows(o->s->c, units[k], rows) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (vb_isolate_put(out, units[k], rows, (size_t)nk * sizeof *rows) != 0) {
            snprintf(err, errlen, "cannot send a result to verletbench");
            return -1;
        }
    }
    return 0;
}

static int iso_reversal_done(void *ctx, size_t i, const void *bytes, size_t len, const char *why)
{
    const reversal_ctx *o = ctx;
    vb_plan_kind kinds[VB_N_PLANS];
    size_t nk = (size_t)reversal_kinds(o->s->c, i, kinds);
    vb_reverse_row *rows = &o->s->reverse[o->slot[i]];
    if (bytes && len == nk * sizeof *rows) {
        memcpy(rows, bytes, len);
        return 0;
    }
    for (size_t k = 0; k < nk; k++)
        rows[k].integ = VB_SAME_NONE; /* no rows: said, then left out */
    return vb_sweep_plugin_failed(o->s, i, "its reversal test", bytes ? "a worker's result of "
                                  "the wrong size" : why);
}

int vb_sweep_reversal(vb_sweep *s)
{
    const vb_case *c = s->c;
    const vb_model_type *type = c->model.type;
    /* only a conservative force that ignores v is the same backwards in time */
    if (!type->energy || (type->flags & VB_VELOCITY_DEPENDENT))
        return 0;
    s->reverse = calloc(c->n_integ * VB_N_PLANS, sizeof *s->reverse);
    size_t room = c->n_integ ? c->n_integ : 1, n_rows = 0, n_here = 0;
    reversal_ctx o = {s, calloc(room, sizeof *o.slot)};
    size_t *rows = malloc(room * sizeof *rows), *here = malloc(room * sizeof *here);
    size_t *iso = malloc(room * sizeof *iso), n_iso = 0;
    int rc = s->reverse && o.slot && rows && here && iso ? 0 : -1;
    vb_plan_kind kinds[VB_N_PLANS];
    for (size_t i = 0; rc == 0 && i < c->n_integ; i++) {
        int nk = reversal_kinds(c, i, kinds);
        if (!nk)
            continue;
        o.slot[i] = s->n_reverse;
        s->n_reverse += (size_t)nk;
        rows[n_rows++] = i;
    }
    /* a plugin's in a worker, below */
    if (rc == 0)
        n_iso = vb_profile_split(&c->profile, rows, NULL, n_rows, here, &n_here, iso);
    for (size_t k = 0; rc == 0 && k < n_here; k++)
        rc = reversal_rows(c, here[k], &s->reverse[o.slot[here[k]]]);
    char err[256];
    if (rc == 0 && n_iso)
        rc = vb_isolate_units(iso, n_iso, vb_plugin_timeout(), iso_reversal, iso_reversal_done,
                              NULL, &o, err, sizeof err);
    /* the rows of a plugin that failed, left out */
    size_t kept = 0;
    for (size_t r = 0; rc == 0 && r < s->n_reverse; r++)
        if (s->reverse[r].integ != VB_SAME_NONE)
            s->reverse[kept++] = s->reverse[r];
    if (rc == 0)
        s->n_reverse = kept;
    free(o.slot);
    free(rows);
    free(here);
    free(iso);
    return rc;
}
