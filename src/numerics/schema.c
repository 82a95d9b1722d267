/* schema.c — a CSV table's header and rows printed from the table of its
 * columns (schema.h). */
#define _POSIX_C_SOURCE 200809L /* flockfile, putc_unlocked */
#include "schema.h"

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
    switch (fmt) {
    case VB_FMT_REAL:
        fprintf(f, "%.17g", c.x);
        break;
    case VB_FMT_FIX6:
        fprintf(f, "%.6f", c.x);
        break;
    case VB_FMT_COUNT:
        fprintf(f, "%llu", c.u);
        break;
    case VB_FMT_INT:
        fprintf(f, "%lld", c.i);
        break;
    case VB_FMT_SHORT:
        fprintf(f, "%g", c.x);
        break;
    case VB_FMT_SCI6:
        fprintf(f, "%.6e", c.x);
        break;
    case VB_FMT_G4:
        fprintf(f, "%.4g", c.x);
        break;
    case VB_FMT_G10:
        fprintf(f, "%.10g", c.x);
        break;
    case VB_FMT_SHORTEST: {
        char buf[40];
        vb_format_shortest(c.x, buf, sizeof buf);
        fputs(buf, f);
        break;
    }
    case VB_FMT_FIX3:
        fprintf(f, "%.3f", c.x);
        break;
    case VB_FMT_FIX0:
        fprintf(f, "%.0f", c.x);
        break;
    case VB_FMT_HEX:
        fprintf(f, "%a", c.x);
        break;
    case VB_FMT_TEXT:   /* its text, above */
    case VB_FMT_QUOTED: /* the same */
    case VB_FMT_LIST:   /* printed by its column (vb_schema_row) */
    case VB_FMT_GROUP:
        break;
    }
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
