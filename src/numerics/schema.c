/* schema.c — a CSV table's header and rows printed from the table of its
 * columns (schema.h). */
#define _POSIX_C_SOURCE 200809L /* flockfile, putc_unlocked */
#include "schema.h"

#include <stdlib.h>
#include <string.h>

#include "numbers.h"

/* text as RFC 4180 has it: quoted when it holds a comma, a quote or a
 * line break, its quotes doubled */
static void quoted(FILE *f, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* A number's cell as its format prints it, into buf (len >= 400: %.6f of
 * 1e308 is 316 characters); 0 for a format that is not a number's. */
static int number_cell(char *buf, size_t len, vb_format fmt, vb_cell c)
{
    switch (fmt) {
    case VB_FMT_REAL:
        snprintf(buf, len, "%.17g", c.x);
        return 1;
    case VB_FMT_FIX6:
        snprintf(buf, len, "%.6f", c.x);
        return 1;
    case VB_FMT_COUNT:
        snprintf(buf, len, "%llu", c.u);
        return 1;
    case VB_FMT_INT:
        snprintf(buf, len, "%lld", c.i);
        return 1;
    case VB_FMT_SHORT:
        snprintf(buf, len, "%g", c.x);
        return 1;
    case VB_FMT_SCI6:
        snprintf(buf, len, "%.6e", c.x);
        return 1;
    case VB_FMT_G4:
        snprintf(buf, len, "%.4g", c.x);
        return 1;
    case VB_FMT_G10:
        snprintf(buf, len, "%.10g", c.x);
        return 1;
    case VB_FMT_SHORTEST:
        vb_format_shortest(c.x, buf, len);
        return 1;
    case VB_FMT_FIX3:
        snprintf(buf, len, "%.3f", c.x);
        return 1;
    case VB_FMT_FIX0:
        snprintf(buf, len, "%.0f", c.x);
        return 1;
    case VB_FMT_HEX:
        snprintf(buf, len, "%a", c.x);
        return 1;
    default: /* text, a list, a group: printed by their column */
        return 0;
    }
}

void vb_cell_print(FILE *f, vb_format fmt, vb_cell c)
{
    if (c.blank)
        return;
    if (c.s) { /* text, or a word where a number goes */
        if (fmt == VB_FMT_QUOTED)
            quoted(f, c.s);
        else
            fputs(c.s, f);
        return;
    }
    char buf[400];
    if (number_cell(buf, sizeof buf, fmt, c))
        fputs(buf, f);
}

int vb_cell_printed(vb_format fmt, const char *s, double *x)
{
    char buf[400], *end;
    vb_cell c = {0};
    if (!s[0] || strlen(s) >= sizeof buf)
        return 0;
    if (fmt == VB_FMT_COUNT) {
        if (s[0] == '-')
            return 0; /* strtoull takes "-1" as the largest count */
        c.u = strtoull(s, &end, 10);
        c.x = (double)c.u;
    } else if (fmt == VB_FMT_INT) {
        c.i = strtoll(s, &end, 10);
        c.x = (double)c.i;
    } else {
        c.x = strtod(s, &end);
    }
    /* out of range, or not what the format prints: printed again, it
     * differs (strtoull's largest count, strtod's inf for "1e999") */
    if (*end != '\0' || !number_cell(buf, sizeof buf, fmt, c) || strcmp(buf, s) != 0)
        return 0;
    *x = c.x;
    return 1;
}

void vb_schema_header_of(FILE *f, const vb_schema *s, unsigned view, const void *table)
{
    int first = 1;
    for (size_t k = 0; k < s->n; k++) {
        const vb_column *c = &s->col[k];
        if (!vb_column_in(c, view))
            continue;
        if (!first)
            fputc(',', f);
        first = 0;
        if (c->fmt == VB_FMT_GROUP)
            c->print(f, c, table, NULL);
        else
            fputs(c->name, f);
    }
    fputc('\n', f);
}

void vb_schema_header(FILE *f, const vb_schema *s, unsigned view)
{
    vb_schema_header_of(f, s, view, NULL);
}

void vb_schema_header_text(char *buf, size_t len, const vb_schema *s, unsigned view)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t k = 0; k < s->n && used < len; k++)
        if (vb_column_in(&s->col[k], view)) {
            int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "", s->col[k].name);
            used += w > 0 ? (size_t)w : 0;
        }
}

void vb_schema_row(FILE *f, const vb_schema *s, unsigned view, const void *table,
                   const void *row)
{
    /* the stream held for the row: a cell's printf then takes the lock it
     * already has (chart data at --full-chart-data is millions of rows) */
    flockfile(f);
    int first = 1;
    for (size_t k = 0; k < s->n; k++) {
        const vb_column *c = &s->col[k];
        if (!vb_column_in(c, view))
            continue;
        if (!first)
            putc_unlocked(',', f);
        first = 0;
        if (c->fmt == VB_FMT_LIST || c->fmt == VB_FMT_GROUP)
            c->print(f, c, table, row);
        else
            vb_cell_print(f, c->fmt, c->get(c, table, row));
    }
    putc_unlocked('\n', f);
    funlockfile(f);
}

long vb_schema_find(const vb_schema *s, const char *name)
{
    for (size_t k = 0; k < s->n; k++)
        if (!strcmp(s->col[k].name, name))
            return (long)k;
    return -1;
}

size_t vb_schema_count(const vb_schema *s, vb_role role)
{
    size_t n = 0;
    for (size_t k = 0; k < s->n; k++)
        n += s->col[k].role == role;
    return n;
}

const vb_column *vb_schema_nth(const vb_schema *s, vb_role role, size_t k)
{
    for (size_t j = 0; j < s->n; j++)
        if (s->col[j].role == role && k-- == 0)
            return &s->col[j];
    return NULL;
}

/* ---- getters of a field of the row ---- */

vb_cell vb_get_real(const vb_column *col, const void *table, const void *row)
{
    (void)table;
    double x;
    memcpy(&x, (const char *)row + col->at, sizeof x);
    return vb_cell_x_or_blank(x);
}

vb_cell vb_get_int(const vb_column *col, const void *table, const void *row)
{
    (void)table;
    int x;
    memcpy(&x, (const char *)row + col->at, sizeof x);
    return vb_cell_i(x);
}

vb_cell vb_get_count(const vb_column *col, const void *table, const void *row)
{
    (void)table;
    unsigned long long x;
    memcpy(&x, (const char *)row + col->at, sizeof x);
    return vb_cell_u(x);
}

vb_cell vb_get_text(const vb_column *col, const void *table, const void *row)
{
    (void)table;
    const char *x;
    memcpy(&x, (const char *)row + col->at, sizeof x);
    return vb_cell_s(x);
}

vb_cell vb_get_real_always(const vb_column *col, const void *table, const void *row)
{
    (void)table;
    double x;
    memcpy(&x, (const char *)row + col->at, sizeof x);
    return vb_cell_x(x);
}
