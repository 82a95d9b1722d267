/* stepmatrix.h — the one-step matrix of a built-in method with fixed steps
 * on the linear oscillator x'' = -omega^2 x - 2 zeta omega x' (the spring at
 * zeta = 0, the damped spring), in units of omega: the state
 * (x, v/omega, a/omega^2) and z = omega h.  What the stability study's
 * theory holds the criterion's finite runs against (docs/stability.md §5). */
#ifndef VB_STEPMATRIX_H
#define VB_STEPMATRIX_H

#include "verletbench.h"

/* M with y_{n+1} = M y_n for the methods written as stages in splitting.c
 * (euler, euler-semi, velocity-verlet, yoshida4, pefrl: those stages are
 * their files' own) and rk4; 0, or -1 for a method it does not know (the
 * position-Verlet family and beeman, whose state is another, have closed
 * forms of their own: docs/stability.md §3-§4).  The third component is
 * the acceleration a method carries from one step to the next (velocity
 * Verlet's and yoshida4's); a method that carries none has a zero column
 * there, so an eigenvalue 0 beside those of its (x, v) map. */
int vb_step_matrix(const vb_integrator *g, double z, double zeta, double m[3][3]);

#endif
