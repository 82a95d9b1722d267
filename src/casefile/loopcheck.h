/* loopcheck.h — a case's [loop] section (loopcheck.c).  Inside casefile/ only. */
#ifndef VB_LOOPCHECK_H
#define VB_LOOPCHECK_H

#include "case.h"
#include "parser.h"

/* [loop], when the file has one: its keys checked, and each of the case's
 * integrators replaced by one entry a loop (loop.h), in the order of the
 * kind list.  Call after [integrators], before [engines] (an engine runs
 * its own loop).  0, or -1 (p->failed says why). */
int vb_case_check_loop(vb_parser *p, vb_case *c);

#endif
