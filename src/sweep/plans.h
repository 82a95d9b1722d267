/* plans.h — a sweep's step plans as its runs take them: a kind (fixed,
 * random, trace), a level (the step dt / 2^level) and a seed.  Apart from
 * jobs.h so that what records a run again for the charts (series.c) takes
 * the same plan without the jobs. */
#ifndef VB_PLANS_H
#define VB_PLANS_H

#include "casefile.h"
#include "simulate.h"

/* The step of a level: dt / 2^level */
double vb_sweep_level_dt(const vb_case *c, int level);

/* The plan of a kind, level and seed, as the sweep runs it (a random
 * plan's jitter, a trace's scale, the run's name). */
vb_plan_spec vb_sweep_plan_for(const vb_case *c, vb_plan_kind kind, int level, unsigned long seed);

#endif
