/* casefile.h — case files (docs/cases.md): what a sweep runs.
 *
 *   [case]         model = orbit, its parameters (e = 0.9), t_end, description
 *   [steps]        dt, halvings, jitter, seeds, trace, tolerance
 *   [integrators]  use = all | a list
 *   [engines]      NAME = COMMAND, NAME.order = P, timeout = SECONDS (optional)
 *
 * A numeric key of [case] or [steps] may hold a grid instead of one value:
 * a list (e = 0.1, 0.5, 0.9) or a range (e = 0.1 .. 0.9 step 0.2, k = 1 ..
 * 1000 times 10).  The file is then expanded to one case per point of the
 * grid (the product of every such key's values), each checked as if the
 * file had given its values, and named NAME@KEY=VALUE[,KEY=VALUE...].
 *
 * Parsed with libinih; every mistake is reported as "FILE:LINE: key: why". */
#ifndef VB_CASEFILE_H
#define VB_CASEFILE_H

#include <stddef.h>

#include "case.h"

/* Load and check a case file: every point of it, in order (one for a file
 * without a grid), into a malloc'd array.  0, or -1 with "FILE:LINE: ..."
 * in err.  Free with vb_case_free_points. */
int vb_case_load_points(const char *path, vb_case **cases, size_t *n, char *err, size_t errlen);
void vb_case_free_points(vb_case *cases, size_t n);
/* The same for a file of one point: a grid is refused with a message. */
int vb_case_load(const char *path, vb_case *c, char *err, size_t errlen);

/* Parse a case from memory (for the fuzzer and tests); `path` names it in
 * messages and anchors a relative trace path. */
int vb_case_parse(const char *path, const char *text, size_t len, vb_case *c, char *err,
                  size_t errlen);
int vb_case_parse_points(const char *path, const char *text, size_t len, vb_case **cases,
                         size_t *n, char *err, size_t errlen);

/* The case files of a command line, each expanded to its points: every
 * point in order in `all` (the cases stay where they were loaded: plans
 * point into them). */
typedef struct vb_case_file {
    vb_case *points; /* vb_case_load_points' array */
    size_t n;
} vb_case_file;

typedef struct vb_case_set {
    vb_case_file *file;
    size_t n_files;
    vb_case **all;
    size_t n;
} vb_case_set;

/* Load one more file (set zeroed first).  0, or -1 with its message. */
int vb_case_set_add(vb_case_set *set, const char *path, char *err, size_t errlen);
/* Load every file.  0, or -1 with the first file's message. */
int vb_case_set_load(vb_case_set *set, char *const *paths, size_t n_paths, char *err,
                     size_t errlen);
/* Each case, grid point and (with grids set) grid writes its own
 * directory under out: 0, or -1 naming two that would write the same one. */
int vb_case_set_distinct(const vb_case_set *set, const char *out, int grids, char *err,
                         size_t errlen);
void vb_case_set_free(vb_case_set *set);
/* 1 when some case of the set runs a method that is not built in (a
 * plugin's, an engine's): what run --strict=mine judges. */
int vb_case_set_runs_own(const vb_case_set *set);

#endif
