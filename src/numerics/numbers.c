/* numbers.c — numbers read from text and written back, exactly. */
#include "numbers.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int vb_parse_double(const char *text, double *out)
{
    char *end;
    while (*text == ' ' || *text == '\t')
        text++;
    if (*text == '\0')
        return -1;
    errno = 0;
    double x = strtod(text, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    /* strtod accepts "nan" and "inf", and turns 1e999 into HUGE_VAL with
     * ERANGE; it also sets ERANGE for a value below DBL_MIN, which is still
     * a number (1e-320 is a subnormal double; 1e-400 rounds to 0), so only
     * overflow is refused */
    if (*end != '\0' || !isfinite(x) || (errno == ERANGE && fabs(x) >= 1.0))
        return -1;
    *out = x;
    return 0;
}

/* x in as few digits as read back to the same double: 1/6 as
 * 0.16666666666666666, not 0.166667, so that a bound and a value just
 * outside it never print alike */
void vb_format_shortest(double x, char *buf, size_t len)
{
    /* A normal number that k < 6 digits give back prints as those at 6
     * (it is within an ulp of them), and at 6 a whole number up to 999999
     * keeps its plain form (10, not 1e+01); a subnormal one has too few
     * bits for that, and starts at one digit: 5e-324, not 4.94066e-324 */
    int from = x != 0.0 && fabs(x) < DBL_MIN ? 1 : 6;
    for (int digits = from; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}
