/* errcharts.c — the charts of a case's runs besides convergence (gpcharts.h):
 * the band of random steps over seeds, and work against precision in force
 * evaluations and in seconds. */
#include "gpcharts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coincide.h"
#include "panels.h"
#include "palette.h"
#include "casecharts.h"
#include "charts.h"
#include "tables.h"

static void titled(FILE *f, const char *title, const char *what)
{
    size_t n = strlen(title) + strlen(what) + 3;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", title, title[0] ? ": " : "", what);
    vb_gp_str(f, s ? s : what);
    free(s);
}

static const char *const random_title = "random steps, median of seeds";

/* ---- band ---------------------------------------------------------------- */

static int vb_chart_band(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                         size_t errlen)
{
    const char *title = spec->title;
    const char *const need[] = {VB_CONV_COL(DT), VB_CONV_COL(ERR_POS_MAX), VB_CONV_COL(P10),
                                VB_CONV_COL(P90), NULL};
    vb_panels V;
    int rc = -1;
    if (vb_panels_open(&V, ch, t, need, VB_PANELS_STEPSIZED, VB_CONV_COL(SAME_AS), err, errlen) !=
        0)
        goto done;
    const vb_curves *C = &V.C;
    const char **series = V.series;
    size_t ns = V.ns;
    size_t p = 0;
    while (p < C->np && strcmp(C->plans[p], "random") != 0)
        p++;
    if (p == C->np) {
        snprintf(err, errlen, "%s: no rows with plan \"random\": nothing to draw a band from",
                 t->path);
        goto done;
    }
    int cdt = vb_csv_col(t, need[0]), cerr = vb_csv_col(t, need[1]), c10 = vb_csv_col(t, need[2]),
        c90 = vb_csv_col(t, need[3]);
    vb_panels_log_ny(&V, cerr);
    vb_curves_near(&V.C, V.ny);
    /* the ranges: the random rows of a method of its own steps */
    double dtmin = INFINITY, dtmax = -INFINITY, emin = INFINITY, emax = -INFINITY;
    size_t finite = 0;
    for (size_t s = 0; s < ns; s++) {
        const vb_group *g = vb_curve(C, p, s);
        for (size_t r = g ? g->first : 1; g && r <= g->last; r++) {
            double x = vb_csv_num(t, r, cdt), lo, hi;
            if (!isnan(x)) {
                dtmin = fmin(dtmin, x);
                dtmax = fmax(dtmax, x);
            }
            if (vb_csv_finite(t, r, c10, &lo) && lo > 0) {
                finite++;
                emin = fmin(emin, lo);
            }
            if (vb_csv_finite(t, r, c90, &hi) && hi > 0)
                emax = fmax(emax, hi);
        }
    }
    FILE *f = ch->f;
    if (finite == 0) {
        /* every run diverged, or its truth failed: an empty chart that says so */
        vb_gp_begin(ch, 1000, 640, 11, 1.5, 1);
        fputs("set title ", f);
        titled(f, title, "random steps, median over seeds with the 10th-90th percentile band");
        fprintf(f, " noenhanced\nset logscale xy\nset xrange [%.17g : %.17g]\nset yrange [1e-3 : 1]\n"
                   "set label 21 ",
                dtmin / pow(10, 0.1), dtmax * pow(10, 0.1));
        vb_gp_str(f, VB_NO_FINITE);
        fputs(" at graph 0.5, graph 0.5 center font \",11\" tc rgb \"#555555\" noenhanced\n"
              "plot 1e300 notitle\n",
              f);
        vb_gp_end(ch);
        rc = 0;
        goto done;
    }
    char key[1024];
    size_t keychars = 10;
    for (size_t s = 0; s < ns; s++)
        if (vb_curve(C, p, s)) {
            vb_panels_key(&V, C, p, s, key, sizeof key);
            size_t l = vb_utf8_len(key);
            keychars = l > keychars ? l : keychars;
        }
    /* a modest margin: a tenth of a decade in dt (levels are 0.3 apart), 6 % of the span in error */
    double ypad = fmax(0.25, 0.06 * log10(emax / emin));
    /* a 90th percentile of inf (more than a tenth of the seeds diverged)
     * runs the band off the top of the chart */
    double ytop = emax * pow(10, ypad);
    vb_gp_begin(ch, 1000, 640, 11, 1.5, 1);
    fputs("set title ", f);
    titled(f, title, "random steps, median over seeds with the 10th-90th percentile band");
    fputs(" noenhanced\nset logscale xy\nset format x \"%.2g\"\n"
          "set xtics 2\nset format y \"10^{%L}\"\n"
          "set xlabel \"mean step size dt (time units)\" noenhanced\n"
          "set ylabel \"max position error (length units)\" noenhanced\n",
          f);
    fprintf(f, "set xrange [%.17g : %.17g]\nset yrange [%.17g : %.17g]\n", dtmin / pow(10, 0.1),
            dtmax * pow(10, 0.1), emin / pow(10, ypad), emax * pow(10, ypad));
    vb_panels_key_right(&V, -5, keychars, 1000.0);
    fputs("set style fill transparent solid 0.22 noborder\n", f);
    vb_near_label(C, p, "errors", 0.14, f);
    vb_curves_stripes(C, p, f);
    int first = ch->blocks + 1;
    for (size_t s = 0; s < ns; s++) {
        const vb_group *g = vb_curve(C, p, s);
        if (!g)
            continue;
        vb_gp_block_begin(ch);
        for (size_t r = g->first; r <= g->last; r++) {
            double hi;
            fprintf(f, "%s,%s,%s,", vb_csv_str(t, r, cdt), vb_csv_str(t, r, c10),
                    vb_csv_str(t, r, cerr));
            if (vb_csv_finite(t, r, c90, &hi) || isnan(hi))
                fprintf(f, "%s\n", vb_csv_str(t, r, c90));
            else
                fprintf(f, "%.17g\n", ytop * 10);
        }
        vb_gp_block_end(ch);
    }
    const char *sep = "plot ";
    int b = first;
    for (size_t s = 0; s < ns; s++)
        if (vb_curve(C, p, s)) {
            fprintf(f, "%s$c%d using 1:2:4 with filledcurves lc rgb \"%s\" notitle", sep, b++,
                    vb_palette_colour(series, ns, series[s]));
            sep = ", \\\n     ";
        }
    b = first;
    for (size_t s = 0; s < ns; s++)
        if (vb_curve(C, p, s)) {
            fprintf(f, "%s$c%d using 1:3 with linespoints lw %g dt %d pt %d ps %g lc rgb \"%s\" notitle",
                    sep, b++, vb_curve_lw(C, p, s, 1.6), vb_curve_dt(C, p, s),
                    vb_palette_point(series, ns, series[s]), vb_curve_ps(C, p, s, 1.0),
                    vb_palette_colour(series, ns, series[s]));
        }
    for (size_t s = 0; s < ns; s++)
        if (vb_curve(C, p, s)) {
            vb_panels_key(&V, C, p, s, key, sizeof key);
            fprintf(f, "%skeyentry with linespoints lw 1.6 pt %d ps 1.0 lc rgb \"%s\" title ", sep,
                    vb_palette_point(series, ns, series[s]), vb_palette_colour(series, ns, series[s]));
            vb_gp_str(f, key);
        }
    fputc('\n', f);
    vb_gp_end(ch);
    rc = 0;
done:
    vb_panels_close(&V);
    return rc;
}

/* ---- work against precision ------------------------------------------------ */

/* The key of a work chart's curve: "= NAME" where its errors are an
 * earlier curve's at equal cost, "errors = NAME" where only its errors are;
 * none in seconds. */
static void work_key(const vb_panels *V, size_t p, size_t s, int seconds, char *key, size_t len)
{
    char note[512];
    const char *raw = V->C.raw[p * V->ns + s];
    note[0] = '\0';
    if (!seconds) {
        if (vb_same_as(&V->C, p, s)[0])
            vb_same_note(&V->C, p, s, note, sizeof note);
        else if (raw[0])
            snprintf(note, sizeof note, "  errors = %s", raw);
    }
    snprintf(key, len, "%s%s", V->series[s], note);
}

/* the longest title a note can make */
static size_t work_keychars(const vb_panels *V, int seconds)
{
    size_t keychars = 10;
    for (size_t p = 0; p < V->C.np; p++)
        for (size_t s = 0; s < V->ns; s++) {
            size_t l = vb_utf8_len(V->series[s]);
            const char *raw = V->C.raw[p * V->ns + s], *near = V->C.near[p * V->ns + s];
            if (!seconds)
                l += raw[0]    ? vb_utf8_len("  errors = ") + vb_utf8_len(raw)
                     : near[0] ? vb_utf8_len("  ≈ ") + vb_utf8_len(near)
                               : 0;
            keychars = l > keychars ? l : keychars;
        }
    return keychars;
}

/* panel p's axes, fitted to its points: 1, or 0 and an empty panel that
 * says why */
static int work_axes(const vb_panels *V, size_t p, int cx, int cy, int seconds)
{
    FILE *f = V->f;
    double xlo = 1e300, xhi = -1e300, ylo = 1e300, yhi = -1e300;
    for (size_t s = 0; s < V->ns; s++) {
        const vb_group *g = vb_curve(&V->C, p, s);
        for (size_t r = g ? g->first : 1; g && r <= g->last; r++) {
            double x = vb_csv_num(V->t, r, cx), y = vb_csv_num(V->t, r, cy);
            if (isfinite(x) && isfinite(y) && x > 0 && y > 0) {
                xlo = fmin(xlo, log10(x));
                xhi = fmax(xhi, log10(x));
                ylo = fmin(ylo, log10(y));
                yhi = fmax(yhi, log10(y));
            }
        }
    }
    if (xlo > xhi) {
        /* nothing finite to draw (every run diverged, or its truth failed) */
        fprintf(f, "set xrange [%s]\nset yrange [1e-3 : 1]\nset label 21 ",
                seconds ? "1e-6 : 1e-2" : "1e2 : 1e4");
        vb_gp_str(f, VB_NO_FINITE);
        fputs(" at graph 0.5, graph 0.5 center font \",11\" tc rgb \"#555555\" noenhanced\n", f);
        return 0;
    }
    double xpad = seconds ? fmax(0.1, 0.04 * (xhi - xlo)) : 0.1;
    double ypad = fmax(0.25, 0.06 * (yhi - ylo));
    fprintf(f, "set xrange [%.17g : %.17g]\n", pow(10, xlo - xpad), pow(10, xhi + xpad));
    /* the force evaluations double from level to level: a tic per
     * factor of 2, on round numbers (..., 250, 500, 1k, 2k, ...) */
    if (!seconds)
        fprintf(f, "set xtics %.17g, 2\n", 1000 * pow(2, floor((xlo - 0.1 - 3) / log10(2))));
    fprintf(f, "set yrange [%.17g : %.17g]\nunset label 21\n", pow(10, ylo - ypad),
            pow(10, yhi + ypad));
    return 1;
}

/* panel p's curves from block first on, and their key entries */
static void work_plot(const vb_panels *V, size_t p, int first, int data, int seconds)
{
    FILE *f = V->f;
    const vb_curves *C = &V->C;
    const char **series = V->series;
    size_t ns = V->ns;
    char key[1024];
    const char *sep = "plot ";
    if (!data) {
        fputs("plot 1e300 notitle", f);
        sep = ", \\\n     ";
    }
    for (size_t s = 0, b = (size_t)first; s < ns && data; s++)
        if (vb_curve(C, p, s)) {
            fprintf(f, "%s$c%zu using 1:2 with linespoints lw %g dt %d pt %d ps %g lc rgb \"%s\" "
                       "notitle",
                    sep, b++, seconds ? 1.6 : vb_curve_lw(C, p, s, 1.6),
                    seconds ? 1 : vb_curve_dt(C, p, s), vb_palette_point(series, ns, series[s]),
                    seconds ? 1.0 : vb_curve_ps(C, p, s, 1.0),
                    vb_palette_colour(series, ns, series[s]));
            sep = ", \\\n     ";
        }
    for (size_t s = 0; s < ns; s++) {
        if (!vb_curve(C, p, s))
            continue;
        work_key(V, p, s, seconds, key, sizeof key);
        fprintf(f, "%skeyentry with linespoints lw 1.6 pt %d ps 1.0 lc rgb \"%s\" title ", sep,
                vb_palette_point(series, ns, series[s]), vb_palette_colour(series, ns, series[s]));
        vb_gp_str(f, key);
        sep = ", \\\n     ";
    }
    fputc('\n', f);
}

/* One panel of a work chart: x against err_pos_max, log-log, each panel's
 * axes fitted to its own data; work in force evaluations marks the curves
 * that coincide (at equal cost), work in seconds none. */
static int work_chart(vb_chart *ch, const vb_csv *t, const char *title, int seconds, char *err,
                      size_t errlen)
{
    /* timing.csv's seconds, or convergence.csv's force evaluations */
    const char *xcol = seconds ? VB_TIMING_COL(SECONDS) : VB_CONV_COL(FORCE_EVALS);
    const char *const need[] = {xcol, seconds ? VB_TIMING_COL(ERR_POS_MAX) : VB_CONV_COL(ERR_POS_MAX),
                                NULL};
    vb_panels V;
    if (vb_panels_open(&V, ch, t, need, VB_PANELS_EVERY, seconds ? NULL : VB_CONV_COL(SAME_AS),
                       err, errlen) != 0) {
        vb_panels_close(&V);
        return -1;
    }
    vb_curves *C = &V.C;
    int cx = vb_csv_col(t, xcol), cy = vb_csv_col(t, need[1]);
    vb_panels_log_ny(&V, cy);
    if (!seconds) {
        vb_curves_near(C, V.ny);
        /* the force evaluations of each curve's first row, to 6 digits */
        for (size_t p = 0; p < C->np; p++)
            for (size_t s = 0; s < V.ns; s++) {
                const vb_group *g = vb_curve(C, p, s);
                char six[64];
                snprintf(six, sizeof six, "%.6g", g ? vb_csv_num(t, g->first, cx) : (double)NAN);
                C->cost[p * V.ns + s] = g ? strtod(six, NULL) : (double)NAN;
            }
        C->by_cost = 1;
    }
    size_t keychars = work_keychars(&V, seconds);
    FILE *f = ch->f;
    vb_gp_begin(ch, 1000, 430.0 * (double)C->np + 50, 11, 1.5, 1);
    fprintf(f, "set logscale xy\nset format x \"%s\"\nset format y \"10^{%%L}\"\n",
            seconds ? "10^{%L}" : "%.0s%c");
    fputs(seconds ? "set xlabel \"wall time of the run (seconds, median of repeats, this machine)\" "
                    "noenhanced\n"
                  : "set xlabel \"force evaluations over the run (count)\" noenhanced\n",
          f);
    fputs("set ylabel \"max position error (length units)\" noenhanced\n", f);
    vb_panels_key_right(&V, -5, keychars, 1000.0);
    vb_panels_layout(&V, C->np, title,
                     seconds ? "work against precision, in seconds" : "work against precision");
    for (size_t p = 0; p < C->np; p++) {
        int data = work_axes(&V, p, cx, cy, seconds);
        vb_panels_plan_title(&V, C, p, random_title);
        if (!seconds) {
            vb_near_label(C, p, "errors", 0.14, f);
            vb_curves_stripes(C, p, f);
        }
        const int xy[2] = {cx, cy};
        int first = data ? vb_panels_blocks(&V, C, p, vb_panels_row_xy, xy) : ch->blocks + 1;
        work_plot(&V, p, first, data, seconds);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    vb_panels_close(&V);
    return 0;
}

static int vb_chart_work(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                         size_t errlen)
{
    return work_chart(ch, t, spec->title, 0, err, errlen);
}

static int vb_chart_work_time(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                              size_t errlen)
{
    return work_chart(ch, t, spec->title, 1, err, errlen);
}

/* a sweep whose table has a row of random steps of a method of its own
 * step size */
static int has_random(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    (void)kind;
    return vb_conv_stepsized(cc, "random") == 1;
}

const vb_chart_kind vb_kind_band = {
    .name = "band",
    .table = &vb_conv_schema,
    .build = vb_chart_band,
    .group = VB_CHARTS_PARTICLES,
    .applies = has_random,
    .caption = "random steps: median over seeds, 10th-90th percentile shaded",
};

const vb_chart_kind vb_kind_work = {
    .name = "work",
    .table = &vb_conv_schema,
    .build = vb_chart_work,
    .group = VB_CHARTS_PARTICLES,
    .caption = "error against force evaluations",
};

/* a sweep run with --timing: its timing.csv has rows */
static int timed(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    int rows;
    return vb_chart_case_has_its(cc, kind) &&
           (vb_chart_case_header(cc, kind->table, NULL, &rows), rows);
}

const vb_chart_kind vb_kind_work_time = {
    .name = "work-time",
    .table = &vb_timing_schema,
    .build = vb_chart_work_time,
    .group = VB_CHARTS_PARTICLES,
    .applies = timed,
    .caption = "error against wall time (run --timing, this machine)",
};
