/* numbers.h — a number as the user writes it, and as verletbench writes one
 * back: read only when the whole text is one finite number, and written in
 * as few digits as read back to the same double. */
#ifndef VB_NUMBERS_H
#define VB_NUMBERS_H

#include <stddef.h>

/* Parse a finite double from the whole of `text` (blanks around it
 * allowed).  0 or -1. */
int vb_parse_double(const char *text, double *out);

/* x in as few digits as read back to the same double */
void vb_format_shortest(double x, char *buf, size_t len);

#endif
