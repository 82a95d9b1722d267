/* engine_contact.c — the tunnel's passing speed of an engine, asked of it
 * run by run (engine_contact.h). */
#include "engine_contact.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contact_metrics.h"
#include "plan.h"

typedef struct {
    const vb_engine *e;
    const vb_model *m; /* the case's tunnel */
    unsigned iv, id, iw; /* its parameters v, d and w */
    double dt;
    int level;
    unsigned long runs;
    vb_status failed; /* how the run that stopped the search failed */
    char *why;
    size_t whylen;
} pass_runs;

static int param_index(const vb_model_type *t, const char *name, unsigned *at)
{
    for (unsigned i = 0; i < t->n_params; i++)
        if (!strcmp(t->params[i].name, name)) {
            *at = i;
            return 0;
        }
    return -1;
}

/* steps fixed steps of exactly dt: t_end = steps dt, nudged by an ulp or
 * two where t_end / steps (the plan's step, plan.c) would not give dt back */
static double exact_t_end(double dt, unsigned long steps)
{
    double n = (double)steps, t_end = n * dt;
    for (int k = 0; k < 8 && t_end / n != dt; k++)
        t_end = nextafter(t_end, t_end / n < dt ? INFINITY : -INFINITY);
    return t_end;
}

/* The engine's rows of one run, to the last: 1 the ball passed (its
 * centre behind the wall's back face, x < -w), 0 not, -1 the run failed
 * (*status and why set).  A row that is not finite is a run that diverged,
 * as it is in a run of the case (simulate.c): never a pass, never a ball
 * held back, whatever the sign of its infinity. */
static int read_rows(vb_engine_run *r, const vb_plan_spec *plan, double w, vb_status *status,
                     char *why, size_t whylen)
{
    vb_plan pl;
    if (vb_plan_begin(&pl, plan) != 0) {
        *status = VB_STATUS_ENGINE_FAILED;
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    double h, t, x[1] = {0.0}, vel[1] = {0.0};
    unsigned long long evals, step = 0;
    int velocity = vb_engine_run_has_velocity(r), got = 0, finite = 1;
    while (got == 0 && finite && vb_plan_next(&pl, &h, &t)) {
        got = vb_engine_next(r, t, h, x, vel, &evals);
        step++;
        finite = got != 0 || (isfinite(x[0]) && (!velocity || isfinite(vel[0])));
    }
    vb_plan_end(&pl);
    if (got != 0 || (finite && vb_engine_finish(r) != 0)) {
        *status = VB_STATUS_ENGINE_FAILED;
        snprintf(why, whylen, "%s", vb_engine_why(r));
        return -1;
    }
    if (!finite) {
        *status = VB_STATUS_DIVERGED;
        snprintf(why, whylen, "diverged: its row %llu (t = %.17g) has x = %g, v = %g", step, t,
                 x[0], vel[0]);
        return -1;
    }
    return x[0] < -w;
}

/* the ball at v from d, a run of the engine's: read_rows' answer */
static int try_run(void *ctx, double v, double d, unsigned long steps)
{
    pass_runs *p = ctx;
    vb_model m;
    vb_model_defaults(&m, p->m->type);
    memcpy(m.p, p->m->p, sizeof m.p);
    m.p[p->iv] = v;
    m.p[p->id] = d;
    char err[256];
    if (vb_model_setup(&m, err, sizeof err) != 0) {
        p->failed = VB_STATUS_ENGINE_FAILED;
        snprintf(p->why, p->whylen, "the ball at v = %.17g from d = %.17g: %s", v, d, err);
        return -1;
    }
    vb_plan_spec plan = {.kind = VB_PLAN_FIXED, .dt = p->dt, .level = p->level};
    plan.t_end = exact_t_end(p->dt, steps);
    snprintf(plan.id, sizeof plan.id, "pass-L%d-%lu", p->level, ++p->runs);
    double w = m.p[p->iw];
    char why[768];
    vb_engine_run *r = vb_engine_start(p->e, &m, &plan, why, sizeof why);
    int passed = -1;
    if (r)
        passed = read_rows(r, &plan, w, &p->failed, why, sizeof why);
    else
        p->failed = VB_STATUS_ENGINE_FAILED;
    vb_engine_stop(r);
    vb_model_free(&m);
    if (passed < 0)
        snprintf(p->why, p->whylen,
                 "the passing speed's run '%s' (the ball at v = %.17g from d = %.17g, %lu "
                 "steps)%s%s",
                 plan.id, v, d, steps, p->failed == VB_STATUS_DIVERGED ? " " : ": ", why);
    return passed;
}

double vb_engine_pass_speed(const vb_engine *e, const vb_model *m, double dt, int level,
                            int *lowest, vb_status *failed, char *why, size_t whylen)
{
    pass_runs p = {.e = e, .m = m, .dt = dt, .level = level, .why = why, .whylen = whylen,
                   .failed = VB_STATUS_ENGINE_FAILED};
    *failed = VB_STATUS_ENGINE_FAILED; /* until the search is made */
    *lowest = 0;
    unsigned ir;
    if (param_index(m->type, "v", &p.iv) != 0 || param_index(m->type, "d", &p.id) != 0 ||
        param_index(m->type, "r", &ir) != 0 || param_index(m->type, "w", &p.iw) != 0) {
        snprintf(why, whylen, "model %s is not the tunnel (v, r, w, d)", m->type->name);
        return NAN;
    }
    double speed = vb_tunnel_pass_speed_scan(try_run, &p, m->p[ir], m->p[p.iw], dt, lowest);
    *failed = speed == speed ? VB_STATUS_OK : p.failed;
    return speed;
}
