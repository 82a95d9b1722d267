/* onestep.h — one step of each integrator from exact data (x(t), v(t) and, for
 * multistep methods, x(t - h')) at h = T/16, T/32, ... (T the model's
 * natural time): the exponent of the one-step error, beside the global
 * order.  A plugin's integrator steps in a worker process (isolate.h). */
#ifndef VB_ONESTEP_H
#define VB_ONESTEP_H

#include "results.h"

/* The rows of every integrator but an engine's or an adaptive one's.  0,
 * or -1 out of memory. */
int vb_sweep_onestep(vb_sweep *s);

#endif
