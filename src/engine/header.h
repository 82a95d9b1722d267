/* header.h — a trajectory's header line inside engine/: the run's name,
 * and a header held key by key against the run's own. */
#ifndef VB_HEADER_H
#define VB_HEADER_H

#include <stddef.h>

#include "engine.h"

/* The name of a run in requests and file names: "fixed-L0", "random-L2-S5",
 * ..., or "run" where the plan has none. */
const char *vb_engine_run_id(const vb_plan_spec *plan);

/* The first KEY=VALUE of a header line that differs from the run's, as
 * "KEY=VALUE" texts (got, want); 0 when none does. */
int vb_engine_header_differs(const char *want_line, const char *got_line, char *got, char *want,
                             size_t len);

#endif
