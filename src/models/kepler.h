/* kepler.h — Kepler's equation E - e sin E = M, solved with GSL's Newton
 * root finder to full double precision for 0 <= e < 1. */
#ifndef VB_KEPLER_H
#define VB_KEPLER_H

typedef struct vb_kepler vb_kepler;

vb_kepler *vb_kepler_alloc(void);
void vb_kepler_free(vb_kepler *k);

/* M reduced to [-pi, pi] (exactly, with respect to the double nearest 2 pi). */
double vb_kepler_reduce(double M);

/* Solve for E with M in [-pi, pi]; then E is in [-pi, pi] too.  `guess` is
 * a starting value near the root (a warm start) or NAN.  On success returns
 * 0 and E with sin E and cos E (either pointer may be NULL); -1 if the
 * iteration did not converge. */
int vb_kepler_solve(vb_kepler *k, double e, double M, double guess, double *E,
                    double *sin_E, double *cos_E);

/* Iterations the last solve took (for the benchmark and the tests). */
int vb_kepler_iterations(const vb_kepler *k);

/* An elliptic orbit of semi-major axis a, eccentricity e and mean motion n
 * from periapsis on +x moving in +y: the relative position and velocity at
 * t, for calls in increasing t, each solve warm-started from the last (see
 * kepler.c).  NULL if out of memory; -1 from _at if a solve failed. */
typedef struct vb_kepler_track vb_kepler_track;
vb_kepler_track *vb_kepler_track_alloc(double a, double e, double n);
void vb_kepler_track_free(vb_kepler_track *w);
int vb_kepler_track_at(vb_kepler_track *w, double t, double *x, double *v);

#endif
