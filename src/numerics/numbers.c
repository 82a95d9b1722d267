/* numbers.c — numbers read from text and written back, exactly. */
#include "numbers.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 0-9, whatever the locale */
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* the length of the decimal at the start of s ([+-] digits [. digits]
 * [e [+-] digits], at least one digit before the exponent), or 0 */
static size_t decimal_length(const char *s)
{
    size_t i = 0, digits = 0;
    if (s[i] == '+' || s[i] == '-')
        i++;
    while (is_digit(s[i]))
        i++, digits++;
    if (s[i] == '.')
        for (i++; is_digit(s[i]); i++)
            digits++;
    if (digits == 0)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (!is_digit(s[j]))
            return 0;
        while (is_digit(s[j]))
            j++;
        i = j;
    }
    return i;
}

int vb_parse_double(const char *text, double *out)
{
    /* the grammar first: strtod would also take blanks before the number,
     * hexadecimal, "inf" and "nan" */
    size_t n = decimal_length(text);
    if (n == 0 || text[n] != '\0')
        return -1;
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    /* strtod turns 1e999 into HUGE_VAL with ERANGE; it also sets ERANGE
     * for a value below DBL_MIN, which is still a number, so only overflow
     * is refused */
    if (end != text + n || !isfinite(x) || (errno == ERANGE && fabs(x) >= 1.0))
        return -1;
    *out = x;
    return 0;
}

const char *vb_number_refusal(const char *text)
{
    size_t n = strlen(text);
    if (n && (strchr(" \t\n\r\v\f", text[0]) || strchr(" \t\n\r\v\f", text[n - 1])))
        return "has a blank before or after it";
    const char *p = text + (text[0] == '+' || text[0] == '-');
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return "is hexadecimal: write a decimal";
    return "is not a finite number";
}

int vb_parse_whole(const char *text, unsigned long long max, unsigned long long *out)
{
    unsigned long long x = 0;
    if (!is_digit(text[0]))
        return -1;
    for (const char *p = text; *p; p++) {
        if (!is_digit(*p))
            return -1;
        unsigned d = (unsigned)(*p - '0');
        if (d > max || x > (max - d) / 10)
            return -1; /* more than max (and no wrap past ULLONG_MAX) */
        x = 10 * x + d;
    }
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
