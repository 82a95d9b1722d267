/* rateschart.c — the frame-rate table (gpcharts.h): what the player sees at
 * each display rate, a panel a plan: fixed frames, random frames, and the
 * case's recorded trace when it has one.
 *
 * rates: the largest error of the drawn position over the run.  Each row
 * (METHOD@LOOP) has a colour of its own, the method's point shape and a
 * dash a loop, so no two rows look alike; the lowest error at each rate is
 * ringed, so which loop and draw is best at which rate reads at a glance.
 * A row with the same errors at every rate as an earlier one (TCV's and
 * velocity Verlet's accumulators: the same physics) says "= NAME" in the
 * key, one within a line's width of an earlier one "≈ NAME", and both are
 * drawn striped over it (coincide.h).  The rates in the title are the
 * data's own, never a fixed "60 Hz".
 *
 * apex: the highest drawn height against the exact solution's highest
 * point (the jump's apex), signed, for every row; grey, the exact solution
 * seen at the same frames: what the frames alone cost. */
#include "gpcharts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apex.h"
#include "coincide.h"
#include "palette.h"
#include "ratefiles.h"

/* a colour a row, in the order of the file: ten that tell apart (Tableau's) */
static const char *const row_colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                          "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
                                          "#393b79", "#637939"};
#define N_ROW_COLOURS (sizeof row_colours / sizeof row_colours[0])

static const char *vb_rates_colour(size_t row_index)
{
    return row_colours[row_index % N_ROW_COLOURS];
}

static size_t method_len(const char *s)
{
    const char *at = strchr(s, '@');
    return at ? (size_t)(at - s) : strlen(s);
}

static const char *loop_of(const char *s)
{
    const char *at = strchr(s, '@');
    return at ? at + 1 : "";
}

/* the rows' methods and loops, each by its place of first appearance */
typedef struct {
    const char **methods; /* the method of each row, NUL-terminated copies */
    int *loop;            /* 1 + the row's loop's place among the loops */
    char **owned;
} rows_of;

static int rows_make(const char **series, size_t ns, rows_of *R)
{
    R->methods = calloc(ns + 1, sizeof *R->methods);
    R->loop = calloc(ns + 1, sizeof *R->loop);
    R->owned = calloc(ns + 1, sizeof *R->owned);
    if (!R->methods || !R->loop || !R->owned)
        return -1;
    int nl = 0;
    for (size_t s = 0; s < ns; s++) {
        R->owned[s] = strndup(series[s], method_len(series[s]));
        if (!R->owned[s])
            return -1;
        R->methods[s] = R->owned[s];
        size_t k = 0;
        while (k < s && strcmp(loop_of(series[k]), loop_of(series[s])) != 0)
            k++;
        R->loop[s] = k < s ? R->loop[k] : ++nl;
    }
    return 0;
}

static void rows_free(rows_of *R, size_t ns)
{
    for (size_t s = 0; R->owned && s < ns; s++)
        free(R->owned[s]);
    free(R->owned);
    free(R->methods);
    free(R->loop);
}

/* the rates of the data, in the order of the file ("30, 60, 144, 240") */
static void rates_text(const vb_csv *t, int cr, char *buf, size_t len, double *lo, double *hi)
{
    buf[0] = '\0';
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t r = 0; r < t->n_rows; r++) {
        double v = vb_csv_num(t, r, cr);
        if (isnan(v))
            continue;
        *lo = fmin(*lo, v);
        *hi = fmax(*hi, v);
        char one[64], padded[70];
        snprintf(one, sizeof one, "%g", v);
        snprintf(padded, sizeof padded, ", %s,", one);
        char look[4200];
        snprintf(look, sizeof look, ", %s,", buf);
        if (!strstr(look, padded) && strlen(buf) + strlen(one) + 3 < len)
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "", one);
    }
}

static const char *rates_title(const char *plan)
{
    return !strcmp(plan, "fixed")    ? "fixed frames"
           : !strcmp(plan, "random") ? "random frames (seed 1)"
           : !strcmp(plan, "trace")  ? "the case's recorded frames, scaled to a mean of 1/rate"
                                     : plan;
}

/* the rows of one plan whose errors are those of an earlier row at every
 * rate, to 9 digits: raw[p * ns + s] the earlier row's name */
static void same_rates(const vb_csv *t, vb_curves *C, int cy)
{
    for (size_t p = 0; p < C->np; p++)
        for (size_t s = 0; s < C->ns; s++) {
            const vb_group *b = vb_curve(C, p, s);
            for (size_t a = 0; b && a < s; a++) {
                const vb_group *g = vb_curve(C, p, a);
                if (!g || g->last - g->first != b->last - b->first)
                    continue;
                size_t k = 0;
                for (; k <= g->last - g->first; k++) {
                    char x[64], y[64];
                    snprintf(x, sizeof x, "%.9g", vb_csv_num(t, g->first + k, cy));
                    snprintf(y, sizeof y, "%.9g", vb_csv_num(t, b->first + k, cy));
                    if (strcmp(x, y) != 0)
                        break;
                }
                if (k > g->last - g->first) {
                    C->raw[p * C->ns + s] = C->series[a];
                    break;
                }
            }
        }
}

int vb_chart_rates(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen)
{
    const char *const need[] = {VB_RATES_COL(RATE_HZ), VB_RATES_COL(ERR_DRAW_MAX), NULL};
    if (vb_csv_require(t, need, err, errlen) != 0)
        return -1;
    vb_groups gs;
    if (vb_groups_make(t, &gs, err, errlen) != 0)
        return -1;
    int rc = -1;
    double *ny = malloc((t->n_rows + 1) * sizeof *ny);
    vb_curves C = {0};
    rows_of R = {0};
    if (!ny || vb_curves_init(&C, t, &gs, NULL, 0, NULL) != 0 ||
        rows_make(C.series, C.ns, &R) != 0) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        goto done;
    }
    const char **series = C.series;
    size_t ns = C.ns;
    int cr = vb_csv_col(t, need[0]), cy = vb_csv_col(t, need[1]);
    for (size_t r = 0; r < t->n_rows; r++) {
        double y = vb_csv_num(t, r, cy);
        ny[r] = isfinite(y) && y > 0 ? log10(y) : (double)NAN;
    }
    same_rates(t, &C, cy);
    vb_curves_near(&C, ny);
    char rates[4096], note[1024], key[2048];
    double rlo, rhi;
    rates_text(t, cr, rates, sizeof rates, &rlo, &rhi);
    size_t keychars = 34; /* "ringed: the lowest error at a rate" */
    for (size_t p = 0; p < C.np; p++)
        for (size_t s = 0; s < ns; s++) {
            vb_same_note(&C, p, s, note, sizeof note);
            snprintf(key, sizeof key, "%s%s", series[s], note);
            size_t l = vb_utf8_len(key);
            keychars = l > keychars ? l : keychars;
        }
    /* a long key ("≈ tcv@accumulator(1/120;last)") widens the canvas, not
     * narrows the panels */
    double width = fmax(1000.0, 90 + 450 + vb_key_px(keychars));
    FILE *f = ch->f;
    vb_gp_begin(ch, width, 430.0 * (double)C.np + 50, 11, 1.5, 1);
    fprintf(f, "set logscale xy\nset xtics (%s)\nset mxtics default\nset format y \"10^{%%L}\"\n"
               "set xlabel \"display rate (Hz)\" noenhanced\n"
               "set ylabel \"largest error of the drawn position (length units)\" noenhanced\n"
               "set key outside right top vertical noenhanced nobox width -5 samplen 2.5 font \",10\"\n",
            rates);
    vb_gp_margins(f, keychars, width);
    {
        char head[5000];
        snprintf(head, sizeof head, "%s%sdrawn-state error against display rate (%s Hz)", title,
                 title[0] ? ": " : "", rates);
        fprintf(f, "set multiplot layout %zu, 1 title ", C.np);
        vb_gp_str(f, head);
        fputs(" noenhanced font \",13\"\n", f);
    }
    /* the loops' dashes (a follower's stripes are 41 and up) */
    fputs("set dashtype 11 solid\nset dashtype 12 (8, 4)\nset dashtype 13 (2, 3)\n"
          "set dashtype 14 (8, 4, 2, 4)\nset dashtype 15 (12, 3, 2, 3, 2, 3)\n",
          f);
    for (size_t p = 0; p < C.np; p++) {
        /* the y axis fits the panel's errors with room for the rings */
        double lo = INFINITY, hi = -INFINITY;
        for (size_t s = 0; s < ns; s++) {
            const vb_group *g = vb_curve(&C, p, s);
            for (size_t r = g ? g->first : 1; g && r <= g->last; r++)
                if (!isnan(ny[r])) {
                    lo = fmin(lo, ny[r]);
                    hi = fmax(hi, ny[r]);
                }
        }
        fprintf(f, "set xrange [%.17g : %.17g]\nset autoscale y\n", rlo / 1.3, rhi * 1.3);
        if (lo <= hi) {
            double pad = fmax(0.25, 0.06 * (hi - lo));
            fprintf(f, "set yrange [%.17g : %.17g]\n", pow(10, lo - pad), pow(10, hi + pad));
        }
        fputs("set title ", f);
        vb_gp_str(f, rates_title(C.plans[p]));
        fputs(" noenhanced\n", f);
        vb_near_label(&C, p, "errors", 0.14, f);
        vb_curves_stripes(&C, p, f);
        /* the lowest error at each rate: its points, ringed */
        int first = ch->blocks + 1;
        for (size_t s = 0; s < ns; s++) {
            const vb_group *g = vb_curve(&C, p, s);
            if (!g)
                continue;
            vb_gp_block_begin(ch);
            for (size_t r = g->first; r <= g->last; r++)
                fprintf(f, "%s,%s\n", vb_csv_str(t, r, cr), vb_csv_str(t, r, cy));
            vb_gp_block_end(ch);
        }
        int best = vb_gp_block_begin(ch);
        size_t nbest = 0;
        for (size_t s = 0; s < ns; s++) {
            const vb_group *g = vb_curve(&C, p, s);
            for (size_t r = g ? g->first : 1; g && r <= g->last; r++) {
                double y = vb_csv_num(t, r, cy), rate = vb_csv_num(t, r, cr), low = INFINITY;
                if (!isfinite(y) || !(y > 0))
                    continue;
                for (size_t q = 0; q < ns; q++) {
                    const vb_group *h = vb_curve(&C, p, q);
                    for (size_t u = h ? h->first : 1; h && u <= h->last; u++) {
                        double z = vb_csv_num(t, u, cy);
                        if (vb_csv_num(t, u, cr) == rate && isfinite(z) && z > 0)
                            low = fmin(low, z);
                    }
                }
                if (y == low) {
                    fprintf(f, "%s,%s\n", vb_csv_str(t, r, cr), vb_csv_str(t, r, cy));
                    nbest++;
                }
            }
        }
        vb_gp_block_end(ch);
        const char *sep = "plot ";
        for (size_t s = 0, b = (size_t)first; s < ns; s++)
            if (vb_curve(&C, p, s)) {
                int dt = vb_curve_dt(&C, p, s);
                fprintf(f, "%s$c%zu using 1:2 with linespoints lw %g dt %d pt %d ps %g lc rgb \"%s\" "
                           "notitle",
                        sep, b++, vb_curve_lw(&C, p, s, 1.6), dt == 1 ? 10 + R.loop[s] : dt,
                        vb_palette_point(R.methods, ns, R.methods[s]), vb_curve_ps(&C, p, s, 1.1),
                        vb_rates_colour(s));
                sep = ", \\\n     ";
            }
        if (nbest)
            fprintf(f, "%s$c%d using 1:2 with points pt 6 ps 3.4 lw 1.4 lc rgb \"#333333\" notitle", sep,
                    best);
        for (size_t s = 0; s < ns; s++)
            if (vb_curve(&C, p, s)) {
                vb_same_note(&C, p, s, note, sizeof note);
                snprintf(key, sizeof key, "%s%s", series[s], note);
                fprintf(f, "%skeyentry with linespoints lw 1.6 dt %d pt %d ps 1.0 lc rgb \"%s\" title ",
                        sep, 10 + R.loop[s], vb_palette_point(R.methods, ns, R.methods[s]),
                        vb_rates_colour(s));
                vb_gp_str(f, key);
                sep = ", \\\n     ";
            }
        if (nbest)
            fprintf(f, "%skeyentry with points pt 6 ps 1.0 lw 1.4 lc rgb \"#333333\" "
                       "title \"ringed: the lowest error at a rate\"",
                    sep);
        fputc('\n', f);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    rc = 0;
done:
    free(ny);
    rows_free(&R, C.ns);
    vb_curves_free(&C);
    vb_groups_free(&gs);
    return rc;
}

int vb_rates_have_apex(const vb_csv *t)
{
    int c = vb_csv_col(t, VB_RATES_COL(Y_MAX));
    for (size_t r = 0; c >= 0 && r < t->n_rows; r++)
        if (vb_csv_finite(t, r, c, NULL))
            return 1;
    return 0;
}

int vb_chart_apex(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen)
{
    const char *const need[] = {VB_RATES_COL(RATE_HZ), VB_RATES_COL(Y_MAX),
                                VB_RATES_COL(Y_MAX_EXACT), NULL};
    if (vb_csv_require(t, need, err, errlen) != 0)
        return -1;
    vb_groups gs;
    if (vb_groups_make(t, &gs, err, errlen) != 0)
        return -1;
    int rc = -1;
    rows_of R = {0};
    vb_curves C = {0};
    double *val = malloc((t->n_rows + 1) * sizeof *val), *ny = malloc((t->n_rows + 1) * sizeof *ny);
    if (!val || !ny || vb_curves_init(&C, t, &gs, NULL, 0, NULL) != 0 ||
        rows_make(C.series, C.ns, &R) != 0) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        goto done;
    }
    const char **series = C.series;
    size_t ns = C.ns;
    int cr = vb_csv_col(t, need[0]), cy = vb_csv_col(t, need[1]), ce = vb_csv_col(t, need[2]);
    /* the height the table names ("the height is y") */
    const char *height = "y";
    for (size_t i = 0; i < t->n_comments; i++) {
        const char *h = strstr(t->comments[i], "the height is ");
        if (h && (h[14] == 'x' || h[14] == 'y' || h[14] == 'z'))
            height = h[14] == 'x' ? "x" : h[14] == 'y' ? "y" : "z";
    }
    /* against the exact solution's highest point; a model without one
     * (or not built in) is held to the exact solution at the same frames */
    double apex = 0;
    int exact = vb_exact_apex(t->comments, t->n_comments, &apex) == 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t r = 0; r < t->n_rows; r++) {
        val[r] = vb_csv_num(t, r, cy) - (exact ? apex : vb_csv_num(t, r, ce));
        if (isfinite(val[r])) {
            lo = fmin(lo, val[r]);
            hi = fmax(hi, val[r]);
        }
    }
    /* rows that coincide: the same height to 9 digits at every rate ("="),
     * or within a line's width, 1.2 % of the axis ("≈") */
    double scale = hi > lo ? hi - lo : 1;
    for (size_t r = 0; r < t->n_rows; r++)
        ny[r] = isfinite(val[r]) ? val[r] / scale : (double)NAN;
    for (size_t p = 0; p < C.np; p++)
        for (size_t s = 0; s < ns; s++) {
            const vb_group *b = vb_curve(&C, p, s);
            for (size_t a = 0; b && a < s; a++) {
                const vb_group *g = vb_curve(&C, p, a);
                if (!g || g->last - g->first != b->last - b->first)
                    continue;
                size_t k = 0;
                /* the heights themselves to 9 digits: their differences
                 * from the apex are round-off where a frame meets it */
                for (; k <= g->last - g->first; k++) {
                    char x[64], y[64];
                    snprintf(x, sizeof x, "%.9g", vb_csv_num(t, g->first + k, cy));
                    snprintf(y, sizeof y, "%.9g", vb_csv_num(t, b->first + k, cy));
                    if (strcmp(x, y) != 0)
                        break;
                }
                if (k > g->last - g->first) {
                    C.raw[p * ns + s] = series[a];
                    break;
                }
            }
        }
    vb_curves_near(&C, ny);
    char rates[4096], note[1024], key[2048];
    double rlo, rhi;
    rates_text(t, cr, rates, sizeof rates, &rlo, &rhi);
    size_t keychars = 34; /* "the exact solution at the same frames" */
    for (size_t p = 0; p < C.np; p++)
        for (size_t s = 0; s < ns; s++) {
            vb_same_note(&C, p, s, note, sizeof note);
            snprintf(key, sizeof key, "%s%s", series[s], note);
            size_t l = vb_utf8_len(key);
            keychars = l > keychars ? l : keychars;
        }
    double width = fmax(1000.0, 90 + 450 + vb_key_px(keychars));
    FILE *f = ch->f;
    vb_gp_begin(ch, width, 430.0 * (double)C.np + 50, 11, 1.5, 1);
    fprintf(f, "set logscale x\nset xtics (%s)\nset mxtics default\n"
               "set xlabel \"display rate (Hz)\" noenhanced\nset ylabel ",
            rates);
    {
        char yl[256];
        if (exact)
            snprintf(yl, sizeof yl, "highest drawn %s - the exact apex, %.6g (length units)", height,
                     apex);
        else
            snprintf(yl, sizeof yl, "highest drawn %s - the exact one at the same frames (length units)",
                     height);
        vb_gp_str(f, yl);
    }
    fputs(" noenhanced\nset format y \"%g\"\n"
          "set key outside right top vertical noenhanced nobox width -5 samplen 2.5 font \",10\"\n",
          f);
    vb_gp_margins(f, keychars, width);
    {
        char head[5000];
        snprintf(head, sizeof head, "%s%sthe drawn apex against %s, by display rate (%s Hz)", title,
                 title[0] ? ": " : "", exact ? "the exact one" : "the exact one at the same frames",
                 rates);
        fprintf(f, "set multiplot layout %zu, 1 title ", C.np);
        vb_gp_str(f, head);
        fputs(" noenhanced font \",13\"\n", f);
    }
    fputs("set dashtype 11 solid\nset dashtype 12 (8, 4)\nset dashtype 13 (2, 3)\n"
          "set dashtype 14 (8, 4, 2, 4)\nset dashtype 15 (12, 3, 2, 3, 2, 3)\n",
          f);
    for (size_t p = 0; p < C.np; p++) {
        /* the y axis: this panel's values, with a tenth of their span (or
         * of their size) each side, zero (the exact apex) always in it */
        double plo = 0, phi = 0;
        for (size_t s = 0; s < ns; s++) {
            const vb_group *g = vb_curve(&C, p, s);
            for (size_t r = g ? g->first : 1; g && r <= g->last; r++)
                if (isfinite(val[r])) {
                    plo = fmin(plo, val[r]);
                    phi = fmax(phi, val[r]);
                    if (exact) {
                        double e = vb_csv_num(t, r, ce) - apex;
                        plo = isfinite(e) ? fmin(plo, e) : plo;
                    }
                }
        }
        double pad = 0.1 * (phi > plo ? phi - plo : fmax(fabs(phi), 1e-300));
        fprintf(f, "set xrange [%.17g : %.17g]\nset yrange [%.17g : %.17g]\nset title ", rlo / 1.3,
                rhi * 1.3, plo - pad, phi + pad);
        vb_gp_str(f, rates_title(C.plans[p]));
        fputs(" noenhanced\n", f);
        vb_near_label(&C, p, "apex", 0.14, f);
        /* zero: the exact apex */
        fputs("set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lw 1 lc rgb \"#555555\" "
              "back\n",
              f);
        vb_curves_stripes(&C, p, f);
        int first = ch->blocks + 1;
        /* the exact solution at the frames of the panel's first row */
        const vb_group *g0 = NULL;
        for (size_t s = 0; s < ns && !g0; s++)
            g0 = vb_curve(&C, p, s);
        vb_gp_block_begin(ch);
        for (size_t r = g0 ? g0->first : 1; exact && g0 && r <= g0->last; r++) {
            fprintf(f, "%s,", vb_csv_str(t, r, cr));
            vb_gp_num(f, vb_csv_num(t, r, ce) - apex);
            fputc('\n', f);
        }
        vb_gp_block_end(ch);
        for (size_t s = 0; s < ns; s++) {
            const vb_group *g = vb_curve(&C, p, s);
            if (!g)
                continue;
            vb_gp_block_begin(ch);
            for (size_t r = g->first; r <= g->last; r++) {
                fprintf(f, "%s,", vb_csv_str(t, r, cr));
                vb_gp_num(f, val[r]);
                fputc('\n', f);
            }
            vb_gp_block_end(ch);
        }
        const char *sep = "plot ";
        if (exact && g0) {
            fprintf(f, "plot $c%d using 1:2 with linespoints lw 5 pt 7 ps 0.9 lc rgb \"#c8c8c8\" notitle",
                    first);
            sep = ", \\\n     ";
        }
        for (size_t s = 0, b = (size_t)first + 1; s < ns; s++)
            if (vb_curve(&C, p, s)) {
                int dt = vb_curve_dt(&C, p, s);
                fprintf(f, "%s$c%zu using 1:2 with linespoints lw %g dt %d pt %d ps %g lc rgb \"%s\" "
                           "notitle",
                        sep, b++, vb_curve_lw(&C, p, s, 1.6), dt == 1 ? 10 + R.loop[s] : dt,
                        vb_palette_point(R.methods, ns, R.methods[s]), vb_curve_ps(&C, p, s, 1.1),
                        vb_rates_colour(s));
                sep = ", \\\n     ";
            }
        if (exact && g0)
            fprintf(f, "%skeyentry with linespoints lw 5 pt 7 ps 0.9 lc rgb \"#c8c8c8\" "
                       "title \"the exact solution at the same frames\"",
                    sep);
        for (size_t s = 0; s < ns; s++)
            if (vb_curve(&C, p, s)) {
                vb_same_note(&C, p, s, note, sizeof note);
                snprintf(key, sizeof key, "%s%s", series[s], note);
                fprintf(f, "%skeyentry with linespoints lw 1.6 dt %d pt %d ps 1.0 lc rgb \"%s\" title ",
                        sep, 10 + R.loop[s], vb_palette_point(R.methods, ns, R.methods[s]),
                        vb_rates_colour(s));
                vb_gp_str(f, key);
            }
        fputc('\n', f);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    rc = 0;
done:
    free(val);
    free(ny);
    rows_free(&R, C.ns);
    vb_curves_free(&C);
    vb_groups_free(&gs);
    return rc;
}
