/* schema.h — a CSV table described once: a table of its columns, each
 * with its name, how the writer prints it, which views of the table hold
 * it, and what the regression check (check/) does with it.  The writer
 * prints the header line and every row from that table, and the reader
 * holds a file's header to it and reads each column by it: a new column
 * is a line of the table, and neither the header, the reader nor the
 * comparison can forget one.  (REBOUND keeps such a table of field
 * descriptors for its binary files, and saves, loads and compares a
 * simulation by it.)
 *
 * It lies in numerics/, under every layer that writes a table: the
 * sweep's files (output/), the benchmark's (bench/), a run's trajectory
 * (driver/), the studies' (stability/, longrun/).  It knows no table; each
 * table's schema lives beside its writer, and the readers (draw/, check/)
 * name its columns through it (vb_schema_name). */
#ifndef VB_SCHEMA_H
#define VB_SCHEMA_H

#include <stddef.h>
#include <stdio.h>

/* How a cell is printed.  The reader takes the text of these and no
 * other (check/baseline.c: vb_cell_number, vb_cell_count). */
typedef enum {
    VB_FMT_REAL,  /* %.17g: every bit of a double */
    VB_FMT_FIX6,  /* %.6f (a fitted order) */
    VB_FMT_COUNT, /* %llu */
    VB_FMT_INT,   /* %lld */
    VB_FMT_TEXT,  /* %s: a name, a word of a list */
    VB_FMT_LIST,  /* a list of numbers, blank-separated: the column's own printer */
    VB_FMT_SHORT, /* %g: a number as a case gives it (a ratio of steps) */
    VB_FMT_SCI6,  /* %.6e (a wall time in seconds) */
    VB_FMT_G4,    /* %.4g (a time a step) */
    VB_FMT_G10,   /* %.10g: chart data, far finer than a pixel, in small files */
    VB_FMT_SHORTEST, /* the shortest text that reads back to the double (numbers.h) */
    VB_FMT_FIX3,  /* %.3f (a benchmark's nanoseconds and ratios) */
    VB_FMT_FIX0,  /* %.0f (a count kept in a double) */
    VB_FMT_HEX,   /* %a: a double exactly, as C99 hex (a shard's, read back to the bit) */
    VB_FMT_QUOTED, /* text as RFC 4180 has it: in quotes, its quotes doubled, when
                    * it holds a comma, a quote or a line break */
    VB_FMT_GROUP  /* several columns, as many as the table says (a trajectory's
                   * state): names and cells printed by the column's printer */
} vb_format;

/* A cell's value as a getter gives it: blank, or the member its column's
 * format prints (x for the reals, u for a count, i for an integer, s for
 * text); a word (s) in a column of numbers is printed as it is ("exact"
 * where an order goes). */
typedef struct vb_cell {
    int blank;
    double x;
    unsigned long long u;
    long long i;
    const char *s;
} vb_cell;

static inline vb_cell vb_cell_blank(void) { return (vb_cell){.blank = 1}; }
static inline vb_cell vb_cell_x(double x) { return (vb_cell){.x = x}; }
/* NaN as a blank cell (a quantity that does not apply) */
static inline vb_cell vb_cell_x_or_blank(double x)
{
    return x != x ? vb_cell_blank() : vb_cell_x(x);
}
static inline vb_cell vb_cell_u(unsigned long long u) { return (vb_cell){.u = u}; }
static inline vb_cell vb_cell_i(long long i) { return (vb_cell){.i = i}; }
static inline vb_cell vb_cell_s(const char *s) { return (vb_cell){.s = s}; }

/* What the regression check does with a column of a table it reads back
 * (check/): every column is read and held to what the writer prints;
 * these are then compared with the run made now. */
typedef enum {
    VB_READ,   /* read and held to the writer by its own rule (check/) */
    VB_KEY,    /* part of what pairs a row with the same row made now */
    VB_METRIC, /* an error: judged step size by step size (final: listed only) */
    VB_ORDER,  /* a fitted order: judged against the baseline's */
    VB_VERDICT /* a verdict: ranked against the baseline's */
} vb_role;

/* Where a metric's cells are filled (the writer's rule, which the reader
 * holds a table to): on every row (the velocity's on every row but an
 * engine's of velocity=none), in a case with a frame loop, or where the
 * case measures it (the same for every run of the case: the first row
 * tells), or in a rigid body's case (its own view's columns). */
typedef enum { VB_FILLED_EVERY, VB_FILLED_DRAWN, VB_FILLED_MEASURED, VB_FILLED_RIGID } vb_filled;

/* What a metric's error is relative to: the exact solution's size of the
 * position or of the velocity, or nothing (a relative error). */
typedef enum { VB_SCALE_POS, VB_SCALE_VEL, VB_SCALE_NONE } vb_scale;

typedef struct vb_column vb_column;

/* The cell of a row: table is what every row of the table shares (a
 * sweep), row the row itself. */
typedef vb_cell vb_getter(const vb_column *col, const void *table, const void *row);
/* A cell of many numbers, printed by the column itself (a list); or a
 * group of columns (VB_FMT_GROUP): given a row, its cells, given none
 * (NULL), its names, either separated by commas. */
typedef void vb_printer(FILE *f, const vb_column *col, const void *table, const void *row);

struct vb_column {
    const char *name;
    vb_format fmt;
    /* the writer: the value printed; at and when are the getter's own (an
     * offset of a field of the row and of the flag that says it is
     * filled) */
    vb_getter *get;
    size_t at, when;
    /* or, for a cell of a list's format (VB_FMT_LIST) or a group
     * (VB_FMT_GROUP), what prints it */
    vb_printer *print;
    /* the views of the table that hold it (a bit mask of the table's own;
     * 0: every view) */
    unsigned in;
    /* check's */
    vb_role role;
    /* a metric's: its error at t_end (listed, never judged: it oscillates
     * with where the run's phase error leaves it), its scale, computed from
     * the velocity (blank for an engine that reports none), where filled */
    int final;
    vb_scale scale;
    int velocity;
    vb_filled filled;
};

/* A table: its file's name and its columns, in their order. */
typedef struct vb_schema {
    const char *file;
    const vb_column *col;
    size_t n;
} vb_schema;

#define VB_SCHEMA(file_, cols_) {(file_), (cols_), sizeof(cols_) / sizeof((cols_)[0])}
/* the most columns a table on a schema has (a reader's arrays) */
#define VB_SCHEMA_MAX_COLUMNS 128

/* Whether view (a bit mask of the table's) holds column c. */
static inline int vb_column_in(const vb_column *c, unsigned view)
{
    return (c->in & view) == c->in;
}

/* The name of column k (an enum of the table's: VB_RUNS_DT), for the
 * readers: draw/ and check/ name a column through its schema, never by a
 * string of their own. */
static inline const char *vb_schema_name(const vb_schema *s, size_t k)
{
    return s->col[k].name;
}

/* The header line, and a row: the columns view holds, each as the schema
 * says; both end the line.  A table with a group of columns has its
 * header printed by vb_schema_header_of, which gives the group its table. */
void vb_schema_header(FILE *f, const vb_schema *s, unsigned view);
void vb_schema_header_of(FILE *f, const vb_schema *s, unsigned view, const void *table);
/* The header's names, separated by commas, into buf (truncated to len). */
void vb_schema_header_text(char *buf, size_t len, const vb_schema *s, unsigned view);
void vb_schema_row(FILE *f, const vb_schema *s, unsigned view, const void *table,
                   const void *row);
/* One cell as its column prints it (nothing for a blank). */
void vb_cell_print(FILE *f, vb_format fmt, vb_cell c);
/* The reader's side: 1 when s is what vb_cell_print prints for some
 * number in a column of format fmt (read back and printed again, the same
 * text: "1e30", "3.50", " 1" or "0x10" are no cell of %.17g, "1e+30" and
 * "-0" are; "-0" is none of %.6f, "-0.000000" is), with *x its value; 0 for any other text, and for a format that is
 * not a number's.  inf and nan are printed as printf spells them: the
 * caller says whether its column holds them. */
int vb_cell_printed(vb_format fmt, const char *s, double *x);

/* Getters of a field of the row at col->at: a double (NaN printed as a
 * blank cell), an int, an unsigned long long, a string (const char *); a
 * double printed whatever it is, NaN too. */
vb_getter vb_get_real, vb_get_int, vb_get_count, vb_get_text, vb_get_real_always;

/* The column of that name, or -1. */
long vb_schema_find(const vb_schema *s, const char *name);
/* The number of columns of that role, and the k-th of them (NULL past the
 * last). */
size_t vb_schema_count(const vb_schema *s, vb_role role);
const vb_column *vb_schema_nth(const vb_schema *s, vb_role role, size_t k);

#endif
