/* contactcheck.h — a case's [contact] section (contactcheck.c).  Inside casefile/ only. */
#ifndef VB_CONTACTCHECK_H
#define VB_CONTACTCHECK_H

#include "case.h"
#include "parser.h"

/* [contact], when the file has one: its keys checked (handler = project,
 * impulse, toi), the model held to having a contact, and each of the
 * case's integrators replaced by one entry a handler (composed.h),
 * METHOD+HANDLER, a method's rows together.  Call after [integrators] and
 * [loop], before [engines] (an engine handles its own contacts).  0, or
 * -1 (p->failed says why). */
int vb_case_check_contact(vb_parser *p, vb_case *c);

#endif
