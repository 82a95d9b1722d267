/* plans.c — a sweep's step plans (plans.h). */
#include "plans.h"

#include <math.h>
#include <stdio.h>

double vb_sweep_level_dt(const vb_case *c, int level) { return ldexp(c->dt, -level); }

vb_plan_spec vb_sweep_plan_for(const vb_case *c, vb_plan_kind kind, int level, unsigned long seed)
{
    vb_plan_spec p = {.kind = kind, .t_end = c->t_end, .dt = vb_sweep_level_dt(c, level),
                      .level = level};
    if (kind == VB_PLAN_RANDOM) {
        p.jitter = c->jitter;
        p.seed = seed;
        snprintf(p.id, sizeof p.id, "random-L%d-S%lu", level, seed);
    } else if (kind == VB_PLAN_TRACE) {
        p.trace = &c->trace;
        p.trace_scale = ldexp(1.0, -level);
        snprintf(p.id, sizeof p.id, "trace-L%d", level);
    } else {
        snprintf(p.id, sizeof p.id, "fixed-L%d", level);
    }
    return p;
}
