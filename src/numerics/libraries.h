/* libraries.h — the numerical libraries a run's numbers depend on, as the
 * binary finds them at run time: GSL (the reference solutions' rk8pd) and
 * FFTW (the chain's exact solution, whose plan is the same bits for one
 * FFTW build only).  Asked of the libraries themselves, not of the headers
 * the binary was compiled with: a shared library can be upgraded under an
 * installed binary, and its numbers with it. */
#ifndef VB_LIBRARIES_H
#define VB_LIBRARIES_H

#include <stddef.h>

/* "GSL 2.7.1, FFTW fftw-3.3.10-sse2-avx" (gsl_version and fftw_version, as
 * they are) into buf, cut to len - 1 characters; returns the length of the
 * whole text, as snprintf does. */
int vb_library_versions(char *buf, size_t len);

#endif
