/* constrain.h — putting positions and velocities back on a model's rods
 * (vb_constraints, verletbench.h): what the constrained integrators share
 * (docs/constraints.md).  A correction along a rod is shared out between
 * its two beads by their inverse masses (a pivot does not move), so the
 * centre of mass of the pair stays where it was.
 *
 *  - Relaxation (Jakobsen, "Advanced Character Physics", 2001): each rod in
 *    turn, its two ends moved along their current separation until it has
 *    its length; one sweep over the rods, or k.  Each rod is exact when it
 *    is done, and undone in part by its neighbours: k sweeps are k steps of
 *    nonlinear Gauss-Seidel.
 *  - SHAKE (Ryckaert, Ciccotti and Berendsen, 1977): the same sweeps, but
 *    each correction along the rod's direction before the step, the
 *    gradient of the constraint where the forces of the rods acted, until
 *    every rod has its length to a tolerance.
 *  - RATTLE's velocity stage (Andersen, 1983): the relative velocity of the
 *    two ends along each rod removed, sweeping until every rod's is
 *    within a tolerance: the velocity tangent to the constraints.
 */
#ifndef VB_CONSTRAIN_H
#define VB_CONSTRAIN_H

#include <stddef.h>

#include "verletbench.h"

/* k sweeps of Jakobsen's relaxation over the rods, in x. */
void vb_relax(const vb_constraints *c, double *x, int sweeps);

/* SHAKE: corrections along the rods' directions at x_old until every rod of
 * x has its length L to tol L (or to its round-off, a few ulps of the ends'
 * coordinates, if that is coarser).  v, when not NULL, gets each correction
 * divided by h as well (RATTLE's half-step velocity).  The sweeps it took,
 * or -1 when it did not converge in max_sweeps (or a rod was perpendicular
 * to its old direction: no correction along that can fix it); x and v are
 * then no answer (on a chain, taken in wavefronts, they are not even the
 * plain order's last sweep: the callers poison them). */
long vb_shake(const vb_constraints *c, double *x, const double *x_old, double tol,
              long max_sweeps, double *v, double h);

/* SHAKE solved directly: the same equations as vb_shake's (every rod's
 * length, the corrections along the rods' directions at x_old), by
 * Newton's iteration, each a linear solve of the rods' Jacobian, which is
 * banded: rods that share a bead are coupled, so a chain's is tridiagonal
 * (GSL's band LU).  It stops where the sweeps do, every rod within tol L
 * or its round-off, in 2 to 4 iterations for a step SHAKE can take.  A
 * system it cannot solve (redundant rods: a braced square, a bead in line
 * between two pivots; or a step too large for Newton) falls back on
 * vb_shake's sweeps from the same start.  v as for vb_shake.  The
 * iterations it took (or the sweeps), or -1 as vb_shake. */
long vb_shake_newton(const vb_constraints *c, double *x, const double *x_old, double tol,
                     double *v, double h);

/* k of SHAKE's sweeps, whatever they leave (relaxation along the rods'
 * old directions, jakobsen:along_old=1); a rod at right angles to its old
 * direction is skipped. */
void vb_shake_sweeps(const vb_constraints *c, double *x, const double *x_old, int sweeps);

/* RATTLE's velocity stage: the velocity of each rod's two ends along the
 * rod (at x) removed until it is at most tol times the largest relative
 * speed of a rod's ends (or tol times the scale given, if larger; or the
 * round-off, a few ulps of the fastest bead's speed, if larger still).  The
 * sweeps it took, or -1 when it did not converge in max_sweeps. */
long vb_rattle_velocity(const vb_constraints *c, const double *x, double *v, double tol,
                        double scale, long max_sweeps);

/* v minus its part along the rods, exactly: the mass-weighted orthogonal
 * projection onto the velocities that keep every rod's length,
 *     v <- v - M^-1 G^T mu,   (G M^-1 G^T) mu = G v,
 * G the rods' gradients at x.  The matrix couples two rods that share a
 * bead, so it is banded (a chain's is tridiagonal); it is solved by a
 * banded Cholesky of half-bandwidth b in m b^2 operations.  A singular
 * system (redundant rods: a square braced on both diagonals, two rods of
 * one bead in line to pivots) falls back on RATTLE's sweeps to 1e-14.
 * 0, or -1 out of memory or when those do not converge: v is then NaN. */
int vb_project_velocity(const vb_constraints *c, size_t particles, const double *x, double *v);

/* What a run that stopped this way says (vb_force.stopped). */
#define VB_SHAKE_FAILED                                                                            \
    "the iteration onto the rods (SHAKE's, and RATTLE's position stage) did not converge in "     \
    "100000 sweeps: a step too large for the rods, rods or beads of very unequal lengths or "     \
    "masses, or a rod at right angles to its old direction; try a smaller step"
#define VB_RATTLE_VELOCITY_FAILED                                                                  \
    "RATTLE's velocity iteration did not converge in 100000 sweeps"

/* How SHAKE's and RATTLE's stages are solved (their parameter `solver`,
 * typed as a word: shake:solver=sweeps): directly (Newton on the rods'
 * banded Jacobian for the positions, vb_project_velocity's banded
 * Cholesky for the velocities), or by the classic Gauss-Seidel sweeps,
 * what game code does, whose cost grows as N^3 a step on a chain. */
enum { VB_SOLVER_DIRECT = 0, VB_SOLVER_SWEEPS = 1 };
#define VB_CONSTRAIN_SOLVER_PARAM                                                                  \
    {"solver", VB_SOLVER_DIRECT, VB_SOLVER_DIRECT, VB_SOLVER_SWEEPS, 0, 0,                         \
     "direct: Newton on the rods' banded equations (the velocities: their banded Cholesky); "    \
     "sweeps: the classic Gauss-Seidel iteration, rod by rod; both to tol",                     \
     VB_PARAM_INTEGER}

/* The iteration limits: a method that needs more is reported diverged (its
 * state set to NaN), never as a result that quietly missed its rods. */
#define VB_CONSTRAIN_MAX_SWEEPS 100000L


#endif
