/* libraries.c — the GSL and FFTW a run is made with, read from the
 * libraries.  It lives in numerics/ because these are the numerical
 * libraries under the models (FFTW in models/chain.c) and the truth (GSL's
 * rk8pd in driver/truth.c): the floor below both, where output/ may read
 * it without knowing any model's internals.  os/ is what the machine gives
 * (files, processes, threads, the clock), not numbers. */
#include "libraries.h"

#include <fftw3.h>
#include <gsl/gsl_version.h>
#include <stdio.h>

int vb_library_versions(char *buf, size_t len)
{
    /* gsl_version and fftw_version are data of the shared libraries
     * (GSL_VERSION is the header's macro, fixed at compile time) */
    return snprintf(buf, len, "GSL %s, FFTW %s", gsl_version, fftw_version);
}
