/* float32.h — the splitting methods (splitting.h: euler, euler-semi,
 * velocity-verlet, yoshida4, pefrl) run in another arithmetic and about
 * another origin, for `sim --precision float32 --offset X`
 * (docs/float32.md).  The state (positions about the shifted origin,
 * velocities, accelerations) and every update are in the run's precision;
 * the force law, a double function of the plugin ABI, is given the state's
 * scene-frame positions (x - X, computed in that precision) and its result
 * is rounded to it; what the run reports is put back in the scene's frame.
 * Methods whose state is not a sum of kicks and drifts (the position-Verlet
 * family, leapfrog, beeman, rk4, the adaptive and the constrained ones) are
 * refused rather than imitated. */
#ifndef VB_FLOAT32_H
#define VB_FLOAT32_H

#include <stddef.h>

#include "precision.h"
#include "verletbench.h"

/* g made in precision p about an origin shifted by offset in every
 * coordinate: a type kept until exit (the same pointer for the same
 * arguments), named "NAME:precision=P:offset=X".  NULL with a message for
 * a method that has no such form.  float64 with offset 0 is g itself. */
const vb_integrator *vb_integrator_in_precision(const vb_integrator *g, vb_precision p,
                                                double offset, char *err, size_t errlen);

/* The float64 method about the origin that g was made from by
 * vb_integrator_in_precision; g itself if it was not made so. */
const vb_integrator *vb_integrator_base(const vb_integrator *g);

#endif
