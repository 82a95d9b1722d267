/* checks.h — a case from the entries of its file (checks.c). */
#ifndef VB_CHECKS_H
#define VB_CHECKS_H

#include "case.h"
#include "parser.h"

/* Check the entries into c and name it.  0 or -1 (p->failed says why).
 * shared: the trace the grid's first point loaded, borrowed by the others
 * (the same file: a grid never varies it), or NULL. */
int vb_case_from_entries(vb_parser *p, vb_case *c, const vb_trace *shared);

#endif
