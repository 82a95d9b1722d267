/* contactcharts.c — the contact handlers' charts (docs/contact.md): the
 * apex after each bounce against e^2n h0 on a log scale (bounces.csv),
 * and the smallest speed that passes the wall against dt, with the bound
 * (w + 2r)/dt (contact.csv).  Curves that are the same to 9 digits at
 * every point are drawn once, their names together in the key ("A = B"):
 * no curve hides under another unnamed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpcharts.h"
#include "palette.h"

/* one curve: an integrator's rows first..last (fixed steps) */
typedef struct {
    const char *name;
    size_t first, last;
    int same_as; /* the earlier curve it equals, or -1 */
    int finite;  /* points with a finite y */
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
        out[n++] = (curve){name, r, r, -1, 0};
    }
    return n;
}

/* the same y (to 9 digits, inf alike) at every point of two curves */
static int same_curve(const vb_csv *t, int cy, const curve *a, const curve *b)
{
    if (a->last - a->first != b->last - b->first)
        return 0;
    for (size_t k = 0; k <= a->last - a->first; k++) {
        char x[64], y[64];
        snprintf(x, sizeof x, "%.9g", vb_csv_num(t, a->first + k, cy));
        snprintf(y, sizeof y, "%.9g", vb_csv_num(t, b->first + k, cy));
        if (strcmp(x, y) != 0)
            return 0;
    }
    return 1;
}

static void mark_same(const vb_csv *t, int cy, curve *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i && c[i].same_as < 0; j++)
            if (c[j].same_as < 0 && same_curve(t, cy, &c[j], &c[i]))
                c[i].same_as = (int)j;
}

/* curve i's key: its name and those that equal it */
static void key_of(const curve *c, size_t n, size_t i, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s", c[i].name);
    for (size_t j = i + 1; j < n && used < len; j++)
        if (c[j].same_as == (int)i)
            used += (size_t)snprintf(buf + used, len - used, " = %s", c[j].name);
}

/* the plot's curve of each integrator (data blocks ids[i]) but those
 * that equal an earlier one, whose names its key holds, and, with
 * finite_only, those without a finite point; what separates the next */
static const char *plot_curves(FILE *f, const curve *c, size_t n, const int *ids,
                               const char **names, const char *sep, int finite_only)
{
    char key[2048];
    for (size_t i = 0; ids && i < n; i++) {
        if (c[i].same_as >= 0 || (finite_only && !c[i].finite))
            continue;
        key_of(c, n, i, key, sizeof key);
        fprintf(f, "%s$c%d using 1:2 with linespoints lc rgb \"%s\" pt %d ps 1.1 title ", sep,
                ids[i], vb_palette_colour(names, n, c[i].name),
                vb_palette_point(names, n, c[i].name));
        vb_gp_str(f, key);
        sep = ", \\\n     ";
    }
    return sep;
}

static void title_of(FILE *f, const char *title, const char *what)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s%s%s", title, title[0] ? ": " : "", what);
    vb_gp_str(f, buf);
}

int vb_chart_bounces(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen)
{
    static const char *const need[] = {"dt", "bounce", "apex", NULL};
    if (vb_csv_require(t, need, err, errlen) != 0 || vb_csv_has(t, "integrator", err, errlen) ||
        vb_csv_has(t, "plan", err, errlen))
        return -1;
    int ci = vb_csv_col(t, "integrator"), cp = vb_csv_col(t, "plan"), cdt = vb_csv_col(t, "dt"),
        cn = vb_csv_col(t, "bounce"), cy = vb_csv_col(t, "apex"),
        ce = vb_csv_col(t, "apex_exact");
    /* the coarsest step: where the handlers differ most */
    double dt = 0;
    for (size_t r = 0; r < t->n_rows; r++)
        dt = fmax(dt, vb_csv_num(t, r, cdt));
    if (!(dt > 0)) {
        snprintf(err, errlen, "%s: no bounces to draw", t->path);
        return -1;
    }
    curve *c = malloc((t->n_rows + 1) * sizeof *c);
    const char **names = malloc((t->n_rows + 1) * sizeof *names);
    if (!c || !names) {
        free(c);
        free(names);
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    size_t n = curves_of(t, ci, cp, cdt, dt, c);
    mark_same(t, cy, c, n);
    for (size_t i = 0; i < n; i++)
        names[i] = c[i].name;
    /* the exact apexes of the longest curve's bounces */
    size_t longest = 0;
    for (size_t i = 1; i < n; i++)
        if (c[i].last - c[i].first > c[longest].last - c[longest].first)
            longest = i;
    int exact = ce >= 0 && n && vb_csv_finite(t, c[longest].first, ce, NULL);
    size_t keychars = 20;
    char key[2048];
    for (size_t i = 0; i < n; i++) {
        key_of(c, n, i, key, sizeof key);
        size_t l = vb_utf8_len(key);
        keychars = l > keychars ? l : keychars;
    }
    FILE *f = ch->f;
    double width = fmax(1000.0, 90 + 560 + vb_key_px(keychars));
    vb_gp_begin(ch, width, 600, 11, 1.5, 0);
    char what[256];
    snprintf(what, sizeof what, "the apex after each bounce, fixed steps of dt = %.6g", dt);
    fputs("set title ", f);
    title_of(f, title, what);
    fputs(" noenhanced\nset xlabel \"bounce n\"\n"
          "set ylabel \"apex E/g after bounce n (the flight energy u^2/2 + g y over g)\" "
          "noenhanced\nset logscale y\nset xtics 1\n"
          "set key outside right top vertical noenhanced nobox samplen 2.5 font \",10\"\n",
          f);
    vb_gp_margins(f, keychars, width);
    /* the data blocks first, then one plot command */
    int exact_id = 0, *ids = calloc(n + 1, sizeof *ids);
    if (exact) {
        exact_id = vb_gp_block_begin(ch);
        for (size_t r = c[longest].first; r <= c[longest].last; r++)
            fprintf(f, "%s,%s\n", vb_csv_str(t, r, cn), vb_csv_str(t, r, ce));
        vb_gp_block_end(ch);
    }
    for (size_t i = 0; ids && i < n; i++) {
        if (c[i].same_as >= 0)
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
    sep = plot_curves(f, c, n, ids, names, sep, 0);
    free(ids);
    if (!strcmp(sep, "plot "))
        fprintf(f, "set label 1 \"%s\" at graph 0.5, 0.5 center\nplot NaN notitle", VB_NO_FINITE);
    fputc('\n', f);
    vb_gp_end(ch);
    free(c);
    free(names);
    return 0;
}

int vb_chart_tunnel(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen)
{
    static const char *const need[] = {"dt", "pass_bound", NULL};
    if (vb_csv_require(t, need, err, errlen) != 0 || vb_csv_has(t, "integrator", err, errlen) ||
        vb_csv_has(t, "plan", err, errlen) || vb_csv_has(t, "pass_speed", err, errlen))
        return -1;
    int ci = vb_csv_col(t, "integrator"), cp = vb_csv_col(t, "plan"), cdt = vb_csv_col(t, "dt"),
        cy = vb_csv_col(t, "pass_speed"), cb = vb_csv_col(t, "pass_bound");
    curve *c = malloc((t->n_rows + 1) * sizeof *c);
    const char **names = malloc((t->n_rows + 1) * sizeof *names);
    if (!c || !names) {
        free(c);
        free(names);
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    size_t n = curves_of(t, ci, cp, cdt, 0.0, c);
    mark_same(t, cy, c, n);
    for (size_t i = 0; i < n; i++) {
        names[i] = c[i].name;
        for (size_t r = c[i].first; r <= c[i].last; r++)
            c[i].finite += vb_csv_finite(t, r, cy, NULL);
    }
    char key[2048], never[2048] = "";
    size_t keychars = 26, used = 0; /* "bound (w + 2r)/dt" and its words */
    for (size_t i = 0; i < n; i++) {
        if (c[i].same_as >= 0)
            continue;
        key_of(c, n, i, key, sizeof key);
        if (!c[i].finite) { /* passes at no speed tried: named, not drawn */
            used += (size_t)snprintf(never + used, used < sizeof never ? sizeof never - used : 0,
                                     "%s%s", used ? "\\n" : "", key);
            continue;
        }
        size_t l = vb_utf8_len(key);
        keychars = l > keychars ? l : keychars;
    }
    FILE *f = ch->f;
    double width = fmax(1000.0, 90 + 560 + vb_key_px(keychars));
    vb_gp_begin(ch, width, 600, 11, 1.5, 0);
    fputs("set title ", f);
    title_of(f, title, "the smallest speed that passes the wall, fixed steps");
    fputs(" noenhanced\nset xlabel \"dt (s)\"\n"
          "set ylabel \"smallest passing speed (m/s), from the worst start phase\" "
          "noenhanced\nset logscale xy\n"
          "set key outside right top vertical noenhanced nobox samplen 2.5 font \",10\"\n",
          f);
    vb_gp_margins(f, keychars, width);
    if (never[0]) {
        fputs("set label 1 ", f);
        char lab[2300];
        /* a handler's speeds were tried up to 1000 times the bound, an
         * engine's up to 100 (contact_metrics.h) */
        snprintf(lab, sizeof lab, "never pass (up to 100 times the bound or more):\n%s", never);
        /* never[] holds "\n" as two characters: the label's line breaks */
        for (char *p = lab; (p = strstr(p, "\\n"));)
            memmove(p + 1, p + 2, strlen(p + 2) + 1), *p = '\n';
        vb_gp_str(f, lab);
        fputs(" at graph 0.03, graph 0.95 left front noenhanced font \",10\"\n", f);
    }
    /* the data blocks first, then one plot command; the bound from the
     * first integrator's rows (every row of one dt has the same) */
    int bound_id = 0, *ids = calloc(n + 1, sizeof *ids);
    if (n) {
        bound_id = vb_gp_block_begin(ch);
        for (size_t r = c[0].first; r <= c[0].last; r++)
            fprintf(f, "%s,%s\n", vb_csv_str(t, r, cdt), vb_csv_str(t, r, cb));
        vb_gp_block_end(ch);
    }
    for (size_t i = 0; ids && i < n; i++) {
        if (c[i].same_as >= 0 || !c[i].finite)
            continue;
        ids[i] = vb_gp_block_begin(ch);
        for (size_t r = c[i].first; r <= c[i].last; r++)
            if (vb_csv_finite(t, r, cy, NULL))
                fprintf(f, "%s,%s\n", vb_csv_str(t, r, cdt), vb_csv_str(t, r, cy));
        vb_gp_block_end(ch);
    }
    const char *sep = "plot ";
    if (n) {
        fprintf(f, "%s$c%d using 1:2 with lines lw 2 dt 2 lc rgb \"#000000\" title "
                   "\"bound (w + 2r)/dt\"",
                sep, bound_id);
        sep = ", \\\n     ";
    }
    sep = plot_curves(f, c, n, ids, names, sep, 1);
    free(ids);
    if (!strcmp(sep, "plot "))
        fputs("plot NaN notitle", f);
    fputc('\n', f);
    vb_gp_end(ch);
    free(c);
    free(names);
    return 0;
}
