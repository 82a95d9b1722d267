/* numbers.h — a number as the user writes it, and as verletbench writes one
 * back: read only when the whole text is one finite number, and written in
 * as few digits as read back to the same double.
 *
 * One rule for every number read from the command line, the environment
 * and a case file: the text is the number and nothing else.  A decimal
 * ("1", "-0.5", ".5", "1e5", "2.5E-3", a '+' or '-' in front); no blank
 * before or after it (a list's blanks round its commas are the list's,
 * cut by its reader), and none of strtod's other forms: hexadecimal
 * ("0x10", "0x1p3"), "inf", "infinity", "nan" or "nan(...)". */
#ifndef VB_NUMBERS_H
#define VB_NUMBERS_H

#include <stddef.h>

/* Parse a finite double from the whole of `text`, a decimal as above (a
 * value that overflows is refused; one below DBL_MIN is still a number:
 * 1e-320 is a subnormal double, 1e-400 rounds to 0).  0 or -1. */
int vb_parse_double(const char *text, double *out);

/* Why vb_parse_double refuses text, in words that follow it in a message
 * ("'0x10' is hexadecimal: write a decimal"): "has a blank before or after
 * it", "is hexadecimal: write a decimal", or "is not a finite number". */
const char *vb_number_refusal(const char *text);

/* Parse a whole number from the whole of `text`: decimal digits alone (no
 * sign, no blank), at most max.  0 or -1. */
int vb_parse_whole(const char *text, unsigned long long max, unsigned long long *out);

/* x in as few digits as read back to the same double */
void vb_format_shortest(double x, char *buf, size_t len);

#endif
