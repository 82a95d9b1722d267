/* compensated.h — the symplectic splitting methods with Kahan-compensated
 * position and velocity updates (docs/longrun.md §3): the same kicks and
 * drifts, in the same order, as euler-semi, velocity-verlet, yoshida4 and
 * pefrl, with each x += dx and v += dv carried with its rounding error, so
 * round-off no longer accumulates in the sums.  Not in the table of
 * integrators: asked for through `longrun --kahan`. */
#ifndef VB_COMPENSATED_H
#define VB_COMPENSATED_H

#include "verletbench.h"

/* The compensated form of g, or NULL for a method without one. */
const vb_integrator *vb_integrator_compensated(const vb_integrator *g);
/* "euler-semi, velocity-verlet, yoshida4, pefrl" */
const char *vb_integrator_compensated_names(void);

#endif
