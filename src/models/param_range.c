/* param_range.c — a parameter's range: whether a value lies in it, and
 * how a message says it.  Apart from models.c because the rigid models'
 * table (rigid_models.c) checks its parameters by the same rule, and
 * models.c itself asks rigid_face.c for the rigid models: a file of its own
 * keeps the three from calling round in a circle. */
#include "model.h"
#include "numbers.h"

#include <math.h>
#include <stdio.h>

void vb_param_range_text(const vb_param_spec *ps, char *buf, size_t len)
{
    int lo = isfinite(ps->min), hi = isfinite(ps->max);
    const char *whole = (ps->flags & VB_PARAM_INTEGER) ? ", a whole number" : "";
    char a[32], b[32];
    vb_format_shortest(ps->min, a, sizeof a);
    vb_format_shortest(ps->max, b, sizeof b);
    if (lo && hi)
        snprintf(buf, len, "%c%s, %s%c%s", ps->min_open ? '(' : '[', a, b,
                 ps->max_open ? ')' : ']', whole);
    else if (lo)
        snprintf(buf, len, "%s %s%s", ps->min_open ? ">" : ">=", a, whole);
    else if (hi)
        snprintf(buf, len, "%s %s%s", ps->max_open ? "<" : "<=", b, whole);
    else
        snprintf(buf, len, "any finite number%s", whole);
}

int vb_param_in_range(const vb_param_spec *ps, double x)
{
    if (ps->min_open ? !(x > ps->min) : !(x >= ps->min))
        return 0;
    if (ps->max_open ? !(x < ps->max) : !(x <= ps->max))
        return 0;
    return !(ps->flags & VB_PARAM_INTEGER) || x == floor(x);
}

int vb_param_said(const vb_param_spec *ps, double x)
{
    return !(ps->flags & VB_PARAM_QUIET_DEFAULT) || x != ps->def;
}
