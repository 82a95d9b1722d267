/* reversal.h — whether a run retraces itself backwards: to t_end, the velocity
 * reversed, the same steps back in reverse order, for a conservative force
 * that ignores v (only that is the same backwards in time). */
#ifndef VB_REVERSAL_H
#define VB_REVERSAL_H

#include "results.h"

/* The rows of every integrator that can be turned round.  0, or -1 out
 * of memory. */
int vb_sweep_reversal(vb_sweep *s);

#endif
