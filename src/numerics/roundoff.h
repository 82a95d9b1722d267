/* roundoff.h — whether two errors are the same but for round-off: how the
 * tables and charts tell two methods that compute the same positions
 * ("= NAME") from two that merely come close. */
#ifndef VB_ROUNDOFF_H
#define VB_ROUNDOFF_H

#include <stddef.h>

/* Two errors of runs of `steps` steps agree to round-off: they differ by no
 * more than VB_SAME_ULPS eps steps^1.5 scale, the floor of `check`
 * (docs/check.md: position round-off grows like N^1.5), and by no more than
 * VB_SAME_RTOL of the larger one.  The floor alone is absolute: two errors
 * both under it (a 1e-9 and a 2e-8 energy error over 63 000 steps, whose
 * floor is 5.6e-8) would be "the same" however far apart; relative to
 * their own size, two errors 2x apart never are.  VB_SAME_RTOL is check's
 * rtol: a difference check would report as a change is not "=". */
#define VB_SAME_ULPS 16.0
#define VB_SAME_RTOL 1e-3
int vb_same_to_roundoff(double a, double b, double steps, double scale);

/* No integrator: the answer "the same as none" of the relations built on
 * vb_same_to_roundoff (an index into a case's integrators otherwise). */
#define VB_SAME_NONE ((size_t)-1)

#endif
