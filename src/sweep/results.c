/* results.c — what a sweep holds, and the little it does itself. */
#include "results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

const double vb_onestep_ratio[VB_ONESTEP_RATIOS] = {1.0, 1.5};

vb_runner_caps vb_sweep_caps(const vb_case *c, size_t i)
{
    vb_runner_caps k = c->profile.caps[i];
    vb_runner_declared(c->integ[i], &k); /* an engine's capability line, read with a run */
    return k;
}

double vb_sweep_tolerance(const vb_case *c, int level)
{
    return c->tolerance * pow(VB_TOL_RATIO, -(double)level);
}

int vb_sweep_job_shard(const vb_sweep *s, size_t job)
{
    size_t per = s->c->n_integ ? s->n_jobs / s->c->n_integ : 1;
    return s->task_shard ? s->task_shard[job % per] : 0;
}

int vb_sweep_plugin_failed(vb_sweep *s, size_t integ, const char *what, const char *why)
{
    vb_plugin_failure *more =
        realloc(s->plugin_failed, (s->n_plugin_failed + 1) * sizeof *s->plugin_failed);
    if (!more)
        return -1;
    s->plugin_failed = more;
    vb_plugin_failure *f = &more[s->n_plugin_failed++];
    f->integ = integ;
    snprintf(f->what, sizeof f->what, "%s", what);
    snprintf(f->why, sizeof f->why, "%s", why);
    return 0;
}

void vb_sweep_free(vb_sweep *s)
{
    for (size_t k = 0; s->jobs && k < s->n_jobs; k++)
        vb_run_result_clear(&s->jobs[k].res);
    free(s->jobs);
    free(s->orders);
    free(s->bands);
    free(s->onestep);
    free(s->reverse);
    free(s->contact_orders);
    free(s->same_as);
    free(s->same_pair);
    free(s->timing);
    free(s->task_shard);
    free(s->plugin_failed);
    for (size_t k = 0; s->rates && k < s->n_rates; k++)
        free(s->rates[k].x_final);
    free(s->rates);
    vb_series_free(&s->series);
    memset(s, 0, sizeof *s);
}
