/* elliptic.h — Jacobi's elliptic functions and the complete integral K,
 * from the modulus k AND its complement k' = sqrt(1 - k^2), each given to
 * full relative precision.
 *
 * Why not GSL's gsl_sf_elljac_e and gsl_sf_ellint_Kcomp: they take the
 * parameter m = k^2 (or k), and near m = 1 — a pendulum started near the
 * top, k = sin(theta0/2) -> 1 — 1 - m is where all the information is and
 * m has already lost it: at theta0 = 3.14159265, k'^2 = 3e-18 and m rounds
 * to 1.  The pendulum knows k' = cos(theta0/2) to full precision, so these
 * take it.  Both use the arithmetic-geometric mean of 1 and k' (Abramowitz
 * and Stegun 16.4 and 17.6); for moderate k they agree with GSL to a few
 * ulps (tests/test_models.c). */
#ifndef VB_ELLIPTIC_H
#define VB_ELLIPTIC_H

/* K(k) = pi / (2 AGM(1, k')). */
double vb_ellint_K(double kc);

/* sn, cn, dn of (u | k), with k' = kc; 0 <= k <= 1, kc = sqrt(1 - k^2) > 0.
 * Returns 0, or -1 if the AGM did not converge (it always does for these
 * arguments; a guard, not a branch the pendulum takes). */
int vb_jacobi(double u, double k, double kc, double *sn, double *cn, double *dn);

#endif
