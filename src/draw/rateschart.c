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
#include "casecharts.h"
#include "coincide.h"
#include "panels.h"
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

/* the table's curves (a row each, none marked from a column: same_rates
 * marks them) and each row's method and loop: 0, or -1 with a message */
static int rows_open(vb_panels *V, rows_of *R, vb_chart *ch, const vb_csv *t,
                     const char *const *need, char *err, size_t errlen)
{
    if (vb_panels_open(V, ch, t, need, VB_PANELS_EVERY, NULL, err, errlen) != 0)
        return -1;
    if (rows_make(V->series, V->ns, R) != 0) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    return 0;
}

/* the loops' dashes (a follower's stripes are 41 and up) */
static void loop_dashes(FILE *f)
{
    fputs("set dashtype 11 solid\nset dashtype 12 (8, 4)\nset dashtype 13 (2, 3)\n"
          "set dashtype 14 (8, 4, 2, 4)\nset dashtype 15 (12, 3, 2, 3, 2, 3)\n",
          f);
}

/* panel p's rows, their data from block b on: a colour a row, the shape
 * of its method, the dash of its loop (a follower's stripes its own) */
static const char *rows_curves(const vb_panels *V, const rows_of *R, size_t p, size_t b,
                               const char *sep)
{
    for (size_t s = 0; s < V->ns; s++)
        if (vb_curve(&V->C, p, s)) {
            int dt = vb_curve_dt(&V->C, p, s);
            fprintf(V->f, "%s$c%zu using 1:2 with linespoints lw %g dt %d pt %d ps %g lc rgb \"%s\" "
                          "notitle",
                    sep, b++, vb_curve_lw(&V->C, p, s, 1.6), dt == 1 ? 10 + R->loop[s] : dt,
                    vb_palette_point(R->methods, V->ns, R->methods[s]),
                    vb_curve_ps(&V->C, p, s, 1.1), vb_rates_colour(s));
            sep = ", \\\n     ";
        }
    return sep;
}

/* the key entries of panel p's rows */
static const char *rows_keys(const vb_panels *V, const rows_of *R, size_t p, const char *sep)
{
    char key[2048];
    for (size_t s = 0; s < V->ns; s++)
        if (vb_curve(&V->C, p, s)) {
            vb_panels_key(V, &V->C, p, s, key, sizeof key);
            fprintf(V->f, "%skeyentry with linespoints lw 1.6 dt %d pt %d ps 1.0 lc rgb \"%s\" title ",
                    sep, 10 + R->loop[s], vb_palette_point(R->methods, V->ns, R->methods[s]),
                    vb_rates_colour(s));
            vb_gp_str(V->f, key);
            sep = ", \\\n     ";
        }
    return sep;
}

/* the lowest error at each rate of panel p: its points, a block of their
 * own (to be ringed); how many */
static size_t lowest_block(vb_panels *V, size_t p, int cr, int cy)
{
    const vb_csv *t = V->t;
    size_t nbest = 0;
    vb_gp_block_begin(V->ch);
    for (size_t s = 0; s < V->ns; s++) {
        const vb_group *g = vb_curve(&V->C, p, s);
        for (size_t r = g ? g->first : 1; g && r <= g->last; r++) {
            double y = vb_csv_num(t, r, cy), rate = vb_csv_num(t, r, cr), low = INFINITY;
            if (!isfinite(y) || !(y > 0))
                continue;
            for (size_t q = 0; q < V->ns; q++) {
                const vb_group *h = vb_curve(&V->C, p, q);
                for (size_t u = h ? h->first : 1; h && u <= h->last; u++) {
                    double z = vb_csv_num(t, u, cy);
                    if (vb_csv_num(t, u, cr) == rate && isfinite(z) && z > 0)
                        low = fmin(low, z);
                }
            }
            if (y == low) {
                fprintf(V->f, "%s,%s\n", vb_csv_str(t, r, cr), vb_csv_str(t, r, cy));
                nbest++;
            }
        }
    }
    vb_gp_block_end(V->ch);
    return nbest;
}

static int vb_chart_rates(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                          size_t errlen)
{
    const char *title = spec->title;
    const char *const need[] = {VB_RATES_COL(RATE_HZ), VB_RATES_COL(ERR_DRAW_MAX), NULL};
    vb_panels V;
    rows_of R = {0};
    int rc = -1;
    if (rows_open(&V, &R, ch, t, need, err, errlen) != 0)
        goto done;
    vb_curves *C = &V.C;
    int cr = vb_csv_col(t, need[0]), cy = vb_csv_col(t, need[1]);
    vb_panels_log_ny(&V, cy);
    same_rates(t, C, cy);
    vb_curves_near(C, V.ny);
    char rates[4096];
    double rlo, rhi;
    rates_text(t, cr, rates, sizeof rates, &rlo, &rhi);
    size_t keychars = vb_panels_keychars(&V, C, 34); /* "ringed: the lowest error at a rate" */
    /* a long key ("≈ tcv@accumulator(1/120;last)") widens the canvas, not
     * narrows the panels */
    double width = fmax(1000.0, 90 + 450 + vb_key_px(keychars));
    FILE *f = ch->f;
    vb_gp_begin(ch, width, 430.0 * (double)C->np + 50, 11, 1.5, 1);
    fprintf(f, "set logscale xy\nset xtics (%s)\nset mxtics default\nset format y \"10^{%%L}\"\n"
               "set xlabel \"display rate (Hz)\" noenhanced\n"
               "set ylabel \"largest error of the drawn position (length units)\" noenhanced\n",
            rates);
    vb_panels_key_right(&V, -5, keychars, width);
    {
        char what[5000];
        snprintf(what, sizeof what, "drawn-state error against display rate (%s Hz)", rates);
        vb_panels_layout(&V, C->np, title, what);
    }
    loop_dashes(f);
    for (size_t p = 0; p < C->np; p++) {
        /* the y axis fits the panel's errors with room for the rings */
        double lo, hi;
        fprintf(f, "set xrange [%.17g : %.17g]\nset autoscale y\n", rlo / 1.3, rhi * 1.3);
        if (vb_panels_ny_range(&V, C, V.ny, p, &lo, &hi) == 0) {
            double pad = fmax(0.25, 0.06 * (hi - lo));
            fprintf(f, "set yrange [%.17g : %.17g]\n", pow(10, lo - pad), pow(10, hi + pad));
        }
        vb_panels_title(&V, rates_title(C->plans[p]));
        vb_near_label(C, p, "errors", 0.14, f);
        vb_curves_stripes(C, p, f);
        const int xy[2] = {cr, cy};
        int first = vb_panels_blocks(&V, C, p, vb_panels_row_xy, xy);
        int best = ch->blocks + 1;
        size_t nbest = lowest_block(&V, p, cr, cy);
        const char *sep = rows_curves(&V, &R, p, (size_t)first, "plot ");
        if (nbest)
            fprintf(f, "%s$c%d using 1:2 with points pt 6 ps 3.4 lw 1.4 lc rgb \"#333333\" notitle", sep,
                    best);
        sep = rows_keys(&V, &R, p, sep);
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
    rows_free(&R, V.ns);
    vb_panels_close(&V);
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

/* the height the table names ("the height is y") */
static const char *height_of(const vb_csv *t)
{
    const char *height = "y";
    for (size_t i = 0; i < t->n_comments; i++) {
        const char *h = strstr(t->comments[i], "the height is ");
        if (h && (h[14] == 'x' || h[14] == 'y' || h[14] == 'z'))
            height = h[14] == 'x' ? "x" : h[14] == 'y' ? "y" : "z";
    }
    return height;
}

/* the axes of the apex chart, its key and its title */
static void apex_axes(const vb_panels *V, const char *title, const char *rates, int exact,
                      double apex, size_t keychars, double width)
{
    FILE *f = V->f;
    fprintf(f, "set logscale x\nset xtics (%s)\nset mxtics default\n"
               "set xlabel \"display rate (Hz)\" noenhanced\nset ylabel ",
            rates);
    char yl[256];
    const char *height = height_of(V->t);
    if (exact)
        snprintf(yl, sizeof yl, "highest drawn %s - the exact apex, %.6g (length units)", height,
                 apex);
    else
        snprintf(yl, sizeof yl, "highest drawn %s - the exact one at the same frames (length units)",
                 height);
    vb_gp_str(f, yl);
    fputs(" noenhanced\nset format y \"%g\"\n", f);
    vb_panels_key_right(V, -5, keychars, width);
    char what[5000];
    snprintf(what, sizeof what, "the drawn apex against %s, by display rate (%s Hz)",
             exact ? "the exact one" : "the exact one at the same frames", rates);
    vb_panels_layout(V, V->C.np, title, what);
    loop_dashes(f);
}

/* panel p's y range: its values, with a tenth of their span (or of their
 * size) each side, zero (the exact apex) always in it */
static void apex_yrange(const vb_panels *V, size_t p, const double *val, int ce, int exact,
                        double apex, double *lo, double *hi)
{
    double plo = 0, phi = 0;
    for (size_t s = 0; s < V->ns; s++) {
        const vb_group *g = vb_curve(&V->C, p, s);
        for (size_t r = g ? g->first : 1; g && r <= g->last; r++)
            if (isfinite(val[r])) {
                plo = fmin(plo, val[r]);
                phi = fmax(phi, val[r]);
                if (exact) {
                    double e = vb_csv_num(V->t, r, ce) - apex;
                    plo = isfinite(e) ? fmin(plo, e) : plo;
                }
            }
    }
    double pad = 0.1 * (phi > plo ? phi - plo : fmax(fabs(phi), 1e-300));
    *lo = plo - pad;
    *hi = phi + pad;
}

/* a row of the apex chart: the rate and the drawn apex's distance (arg:
 * the columns' values, val[r]) */
typedef struct {
    int cr;
    const double *val;
} apex_rows;

static void apex_row(FILE *f, const vb_csv *t, size_t r, const void *arg)
{
    const apex_rows *A = arg;
    fprintf(f, "%s,", vb_csv_str(t, r, A->cr));
    vb_gp_num(f, A->val[r]);
    fputc('\n', f);
}

/* the exact solution at the frames of panel p's first row (its block
 * empty when the apex is the exact one's highest point): that row's group */
static const vb_group *exact_block(vb_panels *V, size_t p, int cr, int ce, int exact, double apex)
{
    const vb_group *g0 = NULL;
    for (size_t s = 0; s < V->ns && !g0; s++)
        g0 = vb_curve(&V->C, p, s);
    vb_gp_block_begin(V->ch);
    for (size_t r = g0 ? g0->first : 1; exact && g0 && r <= g0->last; r++) {
        fprintf(V->f, "%s,", vb_csv_str(V->t, r, cr));
        vb_gp_num(V->f, vb_csv_num(V->t, r, ce) - apex);
        fputc('\n', V->f);
    }
    vb_gp_block_end(V->ch);
    return g0;
}

static int vb_chart_apex(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                         size_t errlen)
{
    const char *title = spec->title;
    const char *const need[] = {VB_RATES_COL(RATE_HZ), VB_RATES_COL(Y_MAX),
                                VB_RATES_COL(Y_MAX_EXACT), NULL};
    vb_panels V;
    rows_of R = {0};
    int rc = -1;
    double *val = NULL;
    if (rows_open(&V, &R, ch, t, need, err, errlen) != 0)
        goto done;
    val = malloc((t->n_rows + 1) * sizeof *val);
    if (!val) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        goto done;
    }
    vb_curves *C = &V.C;
    int cr = vb_csv_col(t, need[0]), cy = vb_csv_col(t, need[1]), ce = vb_csv_col(t, need[2]);
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
    /* rows that coincide: the same height to 9 digits at every rate ("="
     * (the heights themselves: their differences from the apex are
     * round-off where a frame meets it), or within a line's width, 1.2 %
     * of the axis ("≈") */
    double scale = hi > lo ? hi - lo : 1;
    for (size_t r = 0; r < t->n_rows; r++)
        V.ny[r] = isfinite(val[r]) ? val[r] / scale : (double)NAN;
    same_rates(t, C, cy);
    vb_curves_near(C, V.ny);
    char rates[4096];
    double rlo, rhi;
    rates_text(t, cr, rates, sizeof rates, &rlo, &rhi);
    size_t keychars = vb_panels_keychars(&V, C, 34); /* "the exact solution at the same frames" */
    double width = fmax(1000.0, 90 + 450 + vb_key_px(keychars));
    FILE *f = ch->f;
    vb_gp_begin(ch, width, 430.0 * (double)C->np + 50, 11, 1.5, 1);
    apex_axes(&V, title, rates, exact, apex, keychars, width);
    for (size_t p = 0; p < C->np; p++) {
        double plo, phi;
        apex_yrange(&V, p, val, ce, exact, apex, &plo, &phi);
        fprintf(f, "set xrange [%.17g : %.17g]\nset yrange [%.17g : %.17g]\n", rlo / 1.3,
                rhi * 1.3, plo, phi);
        vb_panels_title(&V, rates_title(C->plans[p]));
        vb_near_label(C, p, "apex", 0.14, f);
        /* zero: the exact apex */
        fputs("set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lw 1 lc rgb \"#555555\" "
              "back\n",
              f);
        vb_curves_stripes(C, p, f);
        int first = ch->blocks + 1;
        const vb_group *g0 = exact_block(&V, p, cr, ce, exact, apex);
        const apex_rows A = {cr, val};
        vb_panels_blocks(&V, C, p, apex_row, &A);
        const char *sep = "plot ";
        if (exact && g0) {
            fprintf(f, "plot $c%d using 1:2 with linespoints lw 5 pt 7 ps 0.9 lc rgb \"#c8c8c8\" notitle",
                    first);
            sep = ", \\\n     ";
        }
        sep = rows_curves(&V, &R, p, (size_t)first + 1, sep);
        if (exact && g0)
            fprintf(f, "%skeyentry with linespoints lw 5 pt 7 ps 0.9 lc rgb \"#c8c8c8\" "
                       "title \"the exact solution at the same frames\"",
                    sep);
        rows_keys(&V, &R, p, sep);
        fputc('\n', f);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    rc = 0;
done:
    free(val);
    rows_free(&R, V.ns);
    vb_panels_close(&V);
    return rc;
}

const vb_chart_kind vb_kind_rates = {
    .name = "rates",
    .table = &vb_rates_schema,
    .build = vb_chart_rates,
    .group = VB_CHARTS_PARTICLES,
    .applies = vb_chart_case_has_its, /* a [loop] of rates */
    .caption = "the drawn state's largest error against display rate, each loop x integrator",
};

/* a sweep's rates.csv with a y_max column and a row */
static int has_apex(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    int rows;
    return vb_chart_case_has_its(cc, kind) &&
           vb_chart_case_header(cc, kind->table, VB_RATES_COL(Y_MAX), &rows) && rows;
}

const vb_chart_kind vb_kind_apex = {
    .name = "apex",
    .table = &vb_rates_schema,
    .build = vb_chart_apex,
    .group = VB_CHARTS_PARTICLES,
    .applies = has_apex,
    .caption = "the highest drawn point against the exact apex, each loop x integrator",
};
