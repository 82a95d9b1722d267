/* contactcharts.c — the contact handlers' charts (docs/contact.md): the
 * height reached after each bounce, as stepped, against e^2n h0 on a log
 * scale (bounces.csv),
 * and the smallest speed that passes the wall against dt, with the bound
 * (w + 2r)/dt (contact.csv).  Curves that are the same to 9 digits at
 * every point are drawn once, their names together in the key ("A = B"):
 * no curve hides under another unnamed. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpcharts.h"
#include "casecharts.h"
#include "palette.h"
#include "contact_table.h"

/* one curve: an integrator's rows first..last (fixed steps) */
typedef struct {
    const char *name;
    size_t first, last;
    int same_as; /* the curve it is drawn as (equal where both have points), or -1 */
    /* its points by what the cell holds: a finite number; inf (a measure
     * that never came: no speed up to 1000 times the bound passes); none
     * (blank, or no number: not measured, which is never a finding) */
    size_t finite, infinite, missing;
    /* of the finite: speeds that are only an upper bound (contact.csv's
     * pass_at_most: an engine's ball passed at the lowest speed tried) */
    size_t at_most;
} curve;

/* the rows of the fixed plan, an integrator's together (as run writes
 * them); only rows with dt == want_dt when want_dt > 0.  Their count. */
static size_t curves_of(const vb_csv *t, int ci, int cp, int cdt, double want_dt, curve *out)
{
    size_t n = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        if (strcmp(vb_csv_str(t, r, cp), "fixed") != 0)
            continue;
        if (want_dt > 0 && vb_csv_num(t, r, cdt) != want_dt)
            continue;
        const char *name = vb_csv_str(t, r, ci);
        if (n && !strcmp(out[n - 1].name, name) && out[n - 1].last + 1 == r) {
            out[n - 1].last = r;
            continue;
        }
        out[n++] = (curve){name, r, r, -1, 0, 0, 0, 0};
    }
    return n;
}

static size_t points(const curve *c) { return c->last - c->first + 1; }

/* each curve's points counted by what column cy holds */
static void classify(const vb_csv *t, int cy, curve *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t r = c[i].first; r <= c[i].last; r++) {
            double y = vb_csv_num(t, r, cy);
            *(y != y ? &c[i].missing : isinf(y) ? &c[i].infinite : &c[i].finite) += 1;
        }
}

/* the same y (to 9 digits; inf alike, a missing value only where the
 * other's is missing too) at every point of two curves; with prefix, at
 * the points both have values at (one that ends sooner, fewer bounces,
 * or whose run ended before a top), at least one */
static int same_curve(const vb_csv *t, int cy, const curve *a, const curve *b, int prefix)
{
    size_t na = points(a), nb = points(b), both = 0;
    if (na != nb && !prefix)
        return 0;
    for (size_t k = 0; k < (na < nb ? na : nb); k++) {
        double ya = vb_csv_num(t, a->first + k, cy), yb = vb_csv_num(t, b->first + k, cy);
        if (prefix && (ya != ya || yb != yb))
            continue;
        char x[64], y[64];
        snprintf(x, sizeof x, "%.9g", ya);
        snprintf(y, sizeof y, "%.9g", yb);
        if (strcmp(x, y) != 0)
            return 0;
        both++;
    }
    return both > 0 || !prefix;
}

/* of two equal curves, the one drawn: more values, then more points */
static int draws_more(const curve *a, const curve *b)
{
    size_t va = a->finite + a->infinite, vb = b->finite + b->infinite;
    return va != vb ? va > vb : points(a) > points(b);
}

/* Curves equal to an earlier one are drawn once: the one with more
 * values of two (a curve the other ends inside would hide under it,
 * unnamed), the other, and those that followed it, keyed beside it. */
static void mark_same(const vb_csv *t, int cy, curve *c, size_t n, int prefix)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i && c[i].same_as < 0; j++) {
            if (c[j].same_as >= 0 || !same_curve(t, cy, &c[j], &c[i], prefix))
                continue;
            size_t lead = draws_more(&c[i], &c[j]) ? i : j, follow = lead == i ? j : i;
            for (size_t k = 0; k < n; k++)
                if (c[k].same_as == (int)follow)
                    c[k].same_as = (int)lead;
            c[follow].same_as = (int)lead;
        }
}

/* a key's lines: a line at most this many characters, where words allow
 * (a name is never broken) */
#define KEY_LINE 40

/* a key's text, pieces that are never broken (a name, "= NAME (to bounce
 * 7)", a word of a note), and what it may still take */
typedef struct {
    char text[2048];
    size_t used, line, widest;
} key_text;

/* one more piece: on this line after a blank (none before a ':'), or on
 * a line of its own where it would make this one too long */
static void key_add(key_text *k, const char *piece)
{
    size_t w = vb_utf8_len(piece);
    int first = k->used == 0, glue = piece[0] == ':' || first;
    int wrap = !glue && k->line + 1 + w > KEY_LINE;
    int n = snprintf(k->text + k->used, sizeof k->text - k->used, "%s%s",
                     wrap ? "\n" : glue ? "" : " ", piece);
    k->used += n > 0 ? (size_t)n : 0;
    if (k->used >= sizeof k->text)
        k->used = sizeof k->text - 1;
    k->line = wrap ? w : k->line + (glue ? 0 : 1) + w;
    k->widest = k->line > k->widest ? k->line : k->widest;
}

/* the words of a note, each a piece */
static void key_add_words(key_text *k, const char *note)
{
    char word[256];
    for (const char *p = note; *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (!n)
            break;
        snprintf(word, sizeof word, "%.*s", (int)(n < 255 ? n : 255), p);
        key_add(k, word);
        p += n;
    }
}

/* the last row of a curve whose y is a value (not blank), or its first */
static size_t last_valued(const vb_csv *t, int cy, const curve *c)
{
    size_t r = c->last;
    while (r > c->first && vb_csv_num(t, r, cy) != vb_csv_num(t, r, cy))
        r--;
    return r;
}

/* Curve i's names: its own (and its note, a "(...)" that is its own
 * alone), those that equal it, "= NAME" (and a ": ..." note, which is
 * all of theirs); a name whose values end sooner says where, "(to UPTO
 * X)", X the column cx of its last row with a value. */
static void key_names(key_text *k, const vb_csv *t, const curve *c, size_t n, size_t i,
                      const char *upto, int cx, int cy, const char *note)
{
    key_add(k, c[i].name);
    if (note[0] == ' ')
        key_add_words(k, note);
    for (size_t j = 0; j < n; j++) {
        if (c[j].same_as != (int)i)
            continue;
        char piece[512];
        int m = snprintf(piece, sizeof piece, "= %s", c[j].name);
        size_t end = last_valued(t, cy, &c[j]);
        if (upto && end - c[j].first < last_valued(t, cy, &c[i]) - c[i].first && m > 0 &&
            (size_t)m < sizeof piece)
            snprintf(piece + m, sizeof piece - (size_t)m, " (to %s %s)", upto,
                     vb_csv_str(t, end, cx));
        key_add(k, piece);
    }
    if (note[0] == ':')
        key_add_words(k, note);
}

/* A key entry: the curve's style with the key's first line as its title,
 * and each further line an entry of its own with no sample (gnuplot
 * would draw a title's lines over the next entry's); what separates the
 * next */
static const char *key_entry(FILE *f, const char *sep, const char *key)
{
    const char *nl = strchr(key, '\n');
    char line[2048];
    snprintf(line, sizeof line, "%.*s", (int)(nl ? (size_t)(nl - key) : strlen(key)), key);
    fputs(" title ", f);
    vb_gp_str(f, line);
    sep = ", \\\n     ";
    while (nl) {
        const char *next = strchr(nl + 1, '\n');
        snprintf(line, sizeof line, "%.*s", (int)(next ? (size_t)(next - nl - 1) : strlen(nl + 1)),
                 nl + 1);
        fprintf(f, "%sNaN with lines lt nodraw title ", sep);
        vb_gp_str(f, line);
        nl = next;
    }
    return sep;
}

/* The margins, and the key right of the plot a little apart from it,
 * its samples left of their text (lines that continue a title align
 * with it) */
static void key_at(FILE *f, size_t keychars, double width)
{
    vb_gp_margins(f, keychars, width);
    fprintf(f,
            "set key at screen %.17g, graph 1 left top vertical Left reverse noenhanced nobox "
            "samplen 2.5 font \",10\"\n",
            1 - (vb_key_px(keychars) - 12.0) / width);
}

/* the plot's curve of each integrator (data blocks ids[i]) but those
 * that equal an earlier one, whose names its key holds, and those without
 * a finite point; what separates the next */
static const char *plot_curves(FILE *f, const curve *c, size_t n, const int *ids,
                               const char **names, char *const *keys, const char *sep)
{
    for (size_t i = 0; ids && i < n; i++) {
        if (c[i].same_as >= 0 || !c[i].finite)
            continue;
        fprintf(f, "%s$c%d using 1:2 with linespoints lc rgb \"%s\" pt %d ps 1.1", sep, ids[i],
                vb_palette_colour(names, n, c[i].name), vb_palette_point(names, n, c[i].name));
        sep = key_entry(f, sep, keys[i]);
    }
    return sep;
}

static void title_of(FILE *f, const char *title, const char *what)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s%s%s", title, title[0] ? ": " : "", what);
    vb_gp_str(f, buf);
}

/* What a curve's key adds to its names: what its cells hold where they
 * hold no finite number.  note: the measure ("passing speed"), what inf
 * says ("never passes"), how far that was tried, and what a point is
 * ("steps"). */
static void key_note(const curve *c, const char *const note[4], char *buf, size_t len)
{
    size_t all = points(c);
    const char *what = note[0], *never = note[1], *why = note[2], *unit = note[3];
    buf[0] = '\0';
    if (!c->finite && !c->missing && c->infinite)
        snprintf(buf, len, ": %s %s", never, why);
    else if (!c->finite && c->missing && !c->infinite)
        snprintf(buf, len, ": no %s (blank: not measured)", what);
    else if (!c->finite)
        snprintf(buf, len, ": %s at %zu of %zu %s %s, no %s (blank) at %zu", never, c->infinite,
                 all, unit, why, what, c->missing);
    else if (c->infinite && c->missing)
        snprintf(buf, len, " (%s at %zu of %zu %s, no %s at %zu)", never, c->infinite, all, unit,
                 what, c->missing);
    else if (c->infinite)
        snprintf(buf, len, " (%s at %zu of %zu %s)", never, c->infinite, all, unit);
    else if (c->missing)
        snprintf(buf, len, " (no %s at %zu of %zu %s: blank)", what, c->missing, all, unit);
    size_t used = strlen(buf);
    if (c->at_most && used < len) /* drawn where they are, and no measure */
        snprintf(buf + used, len - used,
                 " (an upper bound at %zu of %zu %s: the lowest speed tried passed)", c->at_most,
                 all, unit);
}

/* Each drawn curve's key (NULL for a curve keyed beside another), its
 * note after its names; the widest key line's characters (at least
 * `least`).  0, or -1 out of memory. */
static int make_keys(const vb_csv *t, const curve *c, size_t n, const char *upto, int cx,
                     int cy, const char *const note[4], char **keys, size_t *keychars,
                     size_t least)
{
    *keychars = least;
    for (size_t i = 0; i < n; i++) {
        keys[i] = NULL;
        if (c[i].same_as >= 0)
            continue;
        key_text k = {.used = 0};
        char text[256];
        key_note(&c[i], note, text, sizeof text);
        key_names(&k, t, c, n, i, upto, cx, cy, text);
        if (!(keys[i] = strdup(k.text)))
            return -1;
        *keychars = k.widest > *keychars ? k.widest : *keychars;
    }
    return 0;
}

static void free_keys(char **keys, size_t n)
{
    for (size_t i = 0; keys && i < n; i++)
        free(keys[i]);
    free(keys);
}

/* the key entries of the curves with no finite point: their symbol and
 * what their key says they hold, nothing drawn in the plot */
static const char *plot_absent(FILE *f, const curve *c, size_t n, const char **names,
                               char *const *keys, const char *sep)
{
    for (size_t i = 0; i < n; i++) {
        if (c[i].same_as >= 0 || c[i].finite)
            continue;
        fprintf(f, "%sNaN with points lc rgb \"%s\" pt %d ps 1.1", sep,
                vb_palette_colour(names, n, c[i].name), vb_palette_point(names, n, c[i].name));
        sep = key_entry(f, sep, keys[i]);
    }
    return sep;
}

/* the curves and their names (palette), or -1 with the message */
static int alloc_curves(const vb_csv *t, curve **c, const char ***names, char ***keys, char *err,
                        size_t errlen)
{
    *c = malloc((t->n_rows + 1) * sizeof **c);
    *names = malloc((t->n_rows + 1) * sizeof **names);
    *keys = calloc(t->n_rows + 1, sizeof **keys);
    if (*c && *names && *keys)
        return 0;
    free(*c);
    free(*names);
    free(*keys);
    snprintf(err, errlen, "%s: out of memory", t->path);
    return -1;
}

static int vb_chart_bounces(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                            size_t errlen)
{
    const char *title = spec->title;
    const char *const need[] = {VB_BOUNCES_COL(DT), VB_BOUNCES_COL(BOUNCE), VB_BOUNCES_COL(HEIGHT),
                                NULL};
    if (vb_csv_require(t, need, err, errlen) != 0 ||
        vb_csv_has(t, VB_BOUNCES_COL(INTEGRATOR), err, errlen) ||
        vb_csv_has(t, VB_BOUNCES_COL(PLAN), err, errlen))
        return -1;
    int ci = vb_csv_col(t, VB_BOUNCES_COL(INTEGRATOR)), cp = vb_csv_col(t, VB_BOUNCES_COL(PLAN)),
        cdt = vb_csv_col(t, need[0]), cn = vb_csv_col(t, need[1]), cy = vb_csv_col(t, need[2]),
        ce = vb_csv_col(t, VB_BOUNCES_COL(HEIGHT_EXACT));
    /* the coarsest step: where the handlers differ most */
    double dt = 0;
    for (size_t r = 0; r < t->n_rows; r++)
        dt = fmax(dt, vb_csv_num(t, r, cdt));
    if (!(dt > 0)) {
        snprintf(err, errlen, "%s: no bounces to draw", t->path);
        return -1;
    }
    curve *c;
    const char **names;
    char **keys;
    if (alloc_curves(t, &c, &names, &keys, err, errlen) != 0)
        return -1;
    size_t n = curves_of(t, ci, cp, cdt, dt, c), keychars;
    classify(t, cy, c, n);
    mark_same(t, cy, c, n, 1);
    for (size_t i = 0; i < n; i++)
        names[i] = c[i].name;
    /* a blank height: the run ended while the ball still rose */
    static const char *const note[4] = {"height", "inf", "", "bounces"};
    if (make_keys(t, c, n, "bounce", cn, cy, note, keys, &keychars, 20) != 0) {
        free(c), free(names), free_keys(keys, n);
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    /* the exact heights of the longest curve's bounces */
    size_t longest = 0;
    for (size_t i = 1; i < n; i++)
        if (points(&c[i]) > points(&c[longest]))
            longest = i;
    int exact = ce >= 0 && n && vb_csv_finite(t, c[longest].first, ce, NULL);
    FILE *f = ch->f;
    double width = fmax(1000.0, 90 + 560 + vb_key_px(keychars));
    vb_gp_begin(ch, width, 600, 11, 1.5, 0);
    char what[256];
    snprintf(what, sizeof what,
             "the height reached after each bounce, as stepped, fixed steps of dt = %.6g", dt);
    fputs("set title ", f);
    title_of(f, title, what);
    fputs(" noenhanced\nset xlabel \"bounce n\"\n"
          "set ylabel \"the flight's highest sample after bounce n (m)\" "
          "noenhanced\nset logscale y\nset xtics 1\n",
          f);
    key_at(f, keychars, width);
    size_t drawn = 0;
    for (size_t i = 0; i < n; i++)
        drawn += c[i].same_as < 0 && c[i].finite;
    if (!drawn)
        fprintf(f, "set label 1 \"%s\" at graph 0.5, 0.5 center\n", VB_NO_FINITE);
    /* the data blocks first, then one plot command */
    int exact_id = 0, *ids = calloc(n + 1, sizeof *ids);
    if (exact) {
        exact_id = vb_gp_block_begin(ch);
        for (size_t r = c[longest].first; r <= c[longest].last; r++)
            fprintf(f, "%s,%s\n", vb_csv_str(t, r, cn), vb_csv_str(t, r, ce));
        vb_gp_block_end(ch);
    }
    for (size_t i = 0; ids && i < n; i++) {
        if (c[i].same_as >= 0 || !c[i].finite)
            continue;
        ids[i] = vb_gp_block_begin(ch);
        for (size_t r = c[i].first; r <= c[i].last; r++)
            fprintf(f, "%s,%s\n", vb_csv_str(t, r, cn), vb_csv_str(t, r, cy));
        vb_gp_block_end(ch);
    }
    const char *sep = "plot ";
    if (exact) {
        fprintf(f, "%s$c%d using 1:2 with lines lw 3 lc rgb \"%s\" title \"exact e^{2n} h_0\" "
                   "enhanced",
                sep, exact_id, VB_EXACT_COLOUR);
        sep = ", \\\n     ";
    }
    sep = plot_curves(f, c, n, ids, names, keys, sep);
    sep = plot_absent(f, c, n, names, keys, sep);
    free(ids);
    if (!strcmp(sep, "plot "))
        fputs("plot NaN notitle", f);
    fputc('\n', f);
    vb_gp_end(ch);
    free(c);
    free(names);
    free_keys(keys, n);
    return 0;
}

/* The rows' bound (w + 2r)/dt, where finite: the first curve's rows (every
 * row of one dt has the same); 0 when none is. */
static int bound_block(vb_chart *ch, const vb_csv *t, const curve *c, size_t n, int cdt, int cb)
{
    size_t have = 0;
    for (size_t r = n ? c[0].first : 1; n && r <= c[0].last; r++)
        have += vb_csv_finite(t, r, cb, NULL) != 0;
    if (!have)
        return 0;
    int id = vb_gp_block_begin(ch);
    for (size_t r = c[0].first; r <= c[0].last; r++)
        if (vb_csv_finite(t, r, cb, NULL))
            fprintf(ch->f, "%s,%s\n", vb_csv_str(t, r, cdt), vb_csv_str(t, r, cb));
    vb_gp_block_end(ch);
    return id;
}

static int vb_chart_tunnel(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                           size_t errlen)
{
    const char *title = spec->title;
    const char *const need[] = {VB_CONTACT_COL(DT), VB_CONTACT_COL(PASS_BOUND), NULL};
    if (t->n_rows == 0) { /* run writes a row a handler's run: none is damage */
        snprintf(err, errlen, "%s: no rows, only a header: no passing speed to draw", t->path);
        return -1;
    }
    if (vb_csv_require(t, need, err, errlen) != 0 ||
        vb_csv_has(t, VB_CONTACT_COL(INTEGRATOR), err, errlen) ||
        vb_csv_has(t, VB_CONTACT_COL(PLAN), err, errlen) ||
        vb_csv_has(t, VB_CONTACT_COL(PASS_SPEED), err, errlen))
        return -1;
    int ci = vb_csv_col(t, VB_CONTACT_COL(INTEGRATOR)), cp = vb_csv_col(t, VB_CONTACT_COL(PLAN)),
        cdt = vb_csv_col(t, need[0]), cy = vb_csv_col(t, VB_CONTACT_COL(PASS_SPEED)),
        cb = vb_csv_col(t, need[1]);
    curve *c;
    const char **names;
    char **keys;
    if (alloc_curves(t, &c, &names, &keys, err, errlen) != 0)
        return -1;
    size_t n = curves_of(t, ci, cp, cdt, 0.0, c), keychars;
    if (n == 0) {
        free(c), free(names), free(keys);
        snprintf(err, errlen, "%s: no rows with fixed steps: no passing speed to draw", t->path);
        return -1;
    }
    classify(t, cy, c, n);
    int cm = vb_csv_col(t, VB_CONTACT_COL(PASS_AT_MOST)); /* none in a table older than it */
    for (size_t i = 0; i < n; i++)
        for (size_t r = c[i].first; r <= c[i].last; r++)
            c[i].at_most += vb_csv_finite(t, r, cy, NULL) && vb_csv_num(t, r, cm) == 1.0;
    mark_same(t, cy, c, n, 0);
    size_t drawn = 0, measured = 0;
    for (size_t i = 0; i < n; i++) {
        names[i] = c[i].name;
        drawn += c[i].same_as < 0 && c[i].finite;
        measured += c[i].finite + c[i].infinite;
    }
    static const char *const note[4] = {"passing speed", "never passes",
                                        "(none up to 100 times the bound, or more)", "steps"};
    if (make_keys(t, c, n, NULL, -1, cy, note, keys, &keychars, 20) != 0) {
        free(c), free(names), free_keys(keys, n);
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    FILE *f = ch->f;
    double width = fmax(1000.0, 90 + 560 + vb_key_px(keychars));
    vb_gp_begin(ch, width, 600, 11, 1.5, 0);
    fputs("set title ", f);
    title_of(f, title, "the smallest speed that passes the wall, fixed steps");
    fputs(" noenhanced\nset xlabel \"dt (s)\"\n"
          "set ylabel \"smallest passing speed (m/s), from the worst start phase\" "
          "noenhanced\nset logscale xy\n",
          f);
    key_at(f, keychars, width);
    if (!measured)
        fputs("set label 1 \"no passing speed in the table: every cell blank (not "
              "measured)\" at graph 0.5, 0.06 center front\n",
              f);
    /* the data blocks first, then one plot command */
    int bound_id = bound_block(ch, t, c, n, cdt, cb), *ids = calloc(n + 1, sizeof *ids);
    for (size_t i = 0; ids && i < n; i++) {
        if (c[i].same_as >= 0 || !c[i].finite)
            continue;
        ids[i] = vb_gp_block_begin(ch);
        /* a step without a finite speed breaks the line: nothing is
         * drawn across it as if measured */
        for (size_t r = c[i].first; r <= c[i].last; r++)
            if (vb_csv_finite(t, r, cy, NULL))
                fprintf(f, "%s,%s\n", vb_csv_str(t, r, cdt), vb_csv_str(t, r, cy));
            else
                fputc('\n', f);
        vb_gp_block_end(ch);
    }
    if (!bound_id && !drawn) /* nothing on the axes: a range for them to show */
        fputs("set xrange [0.001:0.1]\nset yrange [1:100]\n", f);
    const char *sep = "plot ";
    if (bound_id) {
        fprintf(f, "%s$c%d using 1:2 with lines lw 2 dt 2 lc rgb \"#000000\" title "
                   "\"bound (w + 2r)/dt\"",
                sep, bound_id);
        sep = ", \\\n     ";
    }
    sep = plot_curves(f, c, n, ids, names, keys, sep);
    sep = plot_absent(f, c, n, names, keys, sep);
    free(ids);
    fputc('\n', f);
    vb_gp_end(ch);
    free(c);
    free(names);
    free_keys(keys, n);
    return 0;
}

const vb_chart_kind vb_kind_bounces = {
    .name = "bounces",
    .table = &vb_bounces_schema,
    .build = vb_chart_bounces,
    .group = VB_CHARTS_PARTICLES,
    .applies = vb_chart_case_has_its,
    .caption = "the height reached after each bounce, as stepped, against e^2n h0, each handler "
               "round each method at the coarsest step; curves the same to 9 digits at every "
               "bounce both have share a key, A = B",
};

/* contact.csv is a tunnel's: it measures a passing speed, a pass_bound
 * filled (driver/contactrun.c fills it for every tunnel run and for no
 * other: the table's data says what it measures, not its model's name);
 * or it has no rows, which its chart then says (a contact.csv without
 * rows, a run never writes, drew nothing and said nothing) */
static int has_tunnel(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    if (!vb_chart_case_has_its(cc, kind))
        return 0;
    char path[PATH_MAX * 2], err[256];
    vb_chart_case_path(cc, kind->table, path, sizeof path);
    vb_csv t;
    if (vb_csv_read(path, &t, err, sizeof err) != 0)
        return 1; /* drawn anyway: the chart fails, saying what is wrong with the file */
    int cb = vb_csv_col(&t, VB_CONTACT_COL(PASS_BOUND)), any = t.n_rows == 0;
    for (size_t r = 0; r < t.n_rows && !any; r++)
        any = vb_csv_finite(&t, r, cb, NULL);
    vb_csv_free(&t);
    return any;
}

const vb_chart_kind vb_kind_tunnel = {
    .name = "tunnel",
    .table = &vb_contact_schema,
    .build = vb_chart_tunnel,
    .group = VB_CHARTS_PARTICLES,
    .applies = has_tunnel,
    .caption = "the smallest speed that passes the wall against dt, with the bound (w + 2r)/dt; "
               "curves the same to 9 digits at every dt share a key, A = B",
};
