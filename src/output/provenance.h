/* provenance.h — what every data file records of how it was made: the
 * version of verletbench and the commit it was built from, and the build's
 * own identity (docs/method.md §8). */
#ifndef VB_PROVENANCE_H
#define VB_PROVENANCE_H

#include <stdio.h>

#include "results.h"

/* The version (the VERSION file, "0.2.0"), and what the binary was built
 * from: "0.2.0 (git 0123456789ab)", "-dirty" added when the sources differed
 * from that commit, or just "0.2.0" when built without git. */
const char *vb_version(void);
const char *vb_version_text(void);
/* What makes this build distinct (16 hex digits): a hash of its sources and
 * its compile command, taken by make.  Two -dirty builds of one commit have
 * the same version text and different ids. */
const char *vb_build_id(void);

/* "# libraries: GSL 2.7.1, FFTW fftw-3.3.10-sse2-avx": the versions of the
 * numerical libraries the binary runs against, read from them at run time
 * (numerics/libraries.h); different versions may give different bits.
 * Every file with provenance lines has it second, after the version line. */
void vb_libraries_provenance(FILE *f);
/* The same in a Markdown file's first line, a comment a reader does not
 * see: "<!-- verletbench VERSION WHAT; libraries: ... -->" and a blank line. */
void vb_markdown_provenance(FILE *f, const char *what);

/* The '#' lines a sweep's file starts with: the version and what the file
 * holds of which case ("# verletbench 0.2.0 (git ...): runs of
 * cases/x.case"), the libraries, the grid point, the parameters, the integrators, and
 * how good a reference solution was. */
void vb_sweep_provenance(FILE *f, const vb_sweep *s, const char *what);

#endif
