/* casedirs.h — a case's directory of a results directory held against
 * another: a case rerun now against the baseline's (check), two runs'
 * (compare).  Each: 0, or VB_COMPARE_BAD or VB_COMPARE_OOM with err. */
#ifndef VB_CASEDIRS_H
#define VB_CASEDIRS_H

#include <stddef.h>
#include <stdio.h>

#include "casefile.h"
#include "casetables.h"
#include "results.h"

/* One case's fresh sweep against BASE/NAME/{runs,orders}.csv. */
int vb_check_case(const char *base, const vb_case *c, const vb_sweep *s,
                  const vb_tolerance *tol, vb_changes *changes, char *err, size_t errlen);

/* The points the baseline holds of the case files given that they run no
 * more (the grid narrowed from k = 1, 2, 3 to k = 1, 2, or one key
 * swapped for another): BASE/NAME@... directories of a file NAME that are
 * none of its points now.  Each of their runs is missing, as a dropped
 * integrator's are; each such point said on report (NULL: quiet). */
int vb_check_gone_points(const char *base, const vb_case_set *set, FILE *report,
                         vb_changes *changes, char *err, size_t errlen);

/* DIR/NAME/runs.csv is a regular file: NAME is a case of DIR */
int vb_results_has_case(const char *dir, const char *name);
/* The case directories of OLD and NEW together, sorted, each once
 * (malloc'd, *n of them; NULL when out of memory or none). */
char **vb_results_cases(const char *old, const char *new_dir, size_t *n);
/* One case of OLD and NEW, on both sides or on one, by compare's rules
 * (the step sizes both sides have). */
int vb_compare_case(const char *old, const char *new_dir, const char *name,
                    const vb_tolerance *tol, vb_changes *changes, char *err, size_t errlen);

#endif
