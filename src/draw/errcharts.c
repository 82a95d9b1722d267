/* errcharts.c — the charts of a case's runs besides convergence (gpcharts.h):
 * the band of random steps over seeds, and work against precision in force
 * evaluations and in seconds. */
#include "gpcharts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coincide.h"
#include "palette.h"
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

int vb_chart_band(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen)
{
    const char *const need[] = {VB_CONV_COL(DT), VB_CONV_COL(ERR_POS_MAX), VB_CONV_COL(P10),
                                VB_CONV_COL(P90), NULL};
    if (vb_csv_require(t, need, err, errlen) != 0)
        return -1;
    vb_groups gs;
    if (vb_groups_make(t, &gs, err, errlen) != 0)
        return -1;
    int rc = -1;
    const char **series = malloc((gs.n_series + 1) * sizeof *series);
    double *ny = malloc((t->n_rows + 1) * sizeof *ny);
    vb_curves C = {0};
    size_t ns = series ? vb_stepsized(t, &gs, series) : 0;
    if (!series || !ny || vb_curves_init(&C, t, &gs, series, ns, VB_CONV_COL(SAME_AS)) != 0) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        goto done;
    }
    size_t p = 0;
    while (p < C.np && strcmp(C.plans[p], "random") != 0)
        p++;
    if (p == C.np) {
        snprintf(err, errlen, "%s: no rows with plan \"random\": nothing to draw a band from",
                 t->path);
        goto done;
    }
    int cdt = vb_csv_col(t, need[0]), cerr = vb_csv_col(t, need[1]), c10 = vb_csv_col(t, need[2]),
        c90 = vb_csv_col(t, need[3]);
    for (size_t r = 0; r < t->n_rows; r++) {
        double y = vb_csv_num(t, r, cerr);
        ny[r] = isfinite(y) && y > 0 ? log10(y) : (double)NAN;
    }
    vb_curves_near(&C, ny);
    /* the ranges: the random rows of a method of its own steps */
    double dtmin = INFINITY, dtmax = -INFINITY, emin = INFINITY, emax = -INFINITY;
    size_t finite = 0;
    for (size_t s = 0; s < ns; s++) {
        const vb_group *g = vb_curve(&C, p, s);
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
    char note[512], key[1024];
    size_t keychars = 10;
    for (size_t s = 0; s < ns; s++)
        if (vb_curve(&C, p, s)) {
            vb_same_note(&C, p, s, note, sizeof note);
            snprintf(key, sizeof key, "%s%s", series[s], note);
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
    fputs("set key outside right top vertical noenhanced nobox width -5 samplen 2.5 font \",10\"\n", f);
    vb_gp_margins(f, keychars, 1000.0);
    fputs("set style fill transparent solid 0.22 noborder\n", f);
    vb_near_label(&C, p, "errors", 0.14, f);
    vb_curves_stripes(&C, p, f);
    int first = ch->blocks + 1;
    for (size_t s = 0; s < ns; s++) {
        const vb_group *g = vb_curve(&C, p, s);
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
        if (vb_curve(&C, p, s)) {
            fprintf(f, "%s$c%d using 1:2:4 with filledcurves lc rgb \"%s\" notitle", sep, b++,
                    vb_palette_colour(series, ns, series[s]));
            sep = ", \\\n     ";
        }
    b = first;
    for (size_t s = 0; s < ns; s++)
        if (vb_curve(&C, p, s)) {
            fprintf(f, "%s$c%d using 1:3 with linespoints lw %g dt %d pt %d ps %g lc rgb \"%s\" notitle",
                    sep, b++, vb_curve_lw(&C, p, s, 1.6), vb_curve_dt(&C, p, s),
                    vb_palette_point(series, ns, series[s]), vb_curve_ps(&C, p, s, 1.0),
                    vb_palette_colour(series, ns, series[s]));
        }
    for (size_t s = 0; s < ns; s++)
        if (vb_curve(&C, p, s)) {
            vb_same_note(&C, p, s, note, sizeof note);
            snprintf(key, sizeof key, "%s%s", series[s], note);
            fprintf(f, "%skeyentry with linespoints lw 1.6 pt %d ps 1.0 lc rgb \"%s\" title ", sep,
                    vb_palette_point(series, ns, series[s]), vb_palette_colour(series, ns, series[s]));
            vb_gp_str(f, key);
        }
    fputc('\n', f);
    vb_gp_end(ch);
    rc = 0;
done:
    free(series);
    free(ny);
    vb_curves_free(&C);
    vb_groups_free(&gs);
    return rc;
}

/* ---- work against precision ------------------------------------------------ */

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
    if (vb_csv_require(t, need, err, errlen) != 0)
        return -1;
    vb_groups gs;
    if (vb_groups_make(t, &gs, err, errlen) != 0)
        return -1;
    int rc = -1;
    double *ny = malloc((t->n_rows + 1) * sizeof *ny);
    vb_curves C = {0};
    if (!ny || vb_curves_init(&C, t, &gs, NULL, 0, seconds ? NULL : VB_CONV_COL(SAME_AS)) != 0) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        goto done;
    }
    const char **series = C.series;
    size_t ns = C.ns;
    int cx = vb_csv_col(t, xcol), cy = vb_csv_col(t, need[1]);
    for (size_t r = 0; r < t->n_rows; r++) {
        double y = vb_csv_num(t, r, cy);
        ny[r] = isfinite(y) && y > 0 ? log10(y) : (double)NAN;
    }
    if (!seconds) {
        vb_curves_near(&C, ny);
        /* the force evaluations of each curve's first row, to 6 digits */
        for (size_t p = 0; p < C.np; p++)
            for (size_t s = 0; s < ns; s++) {
                const vb_group *g = vb_curve(&C, p, s);
                char six[64];
                snprintf(six, sizeof six, "%.6g", g ? vb_csv_num(t, g->first, cx) : (double)NAN);
                C.cost[p * ns + s] = g ? strtod(six, NULL) : (double)NAN;
            }
        C.by_cost = 1;
    }
    char trace[512], note[512], key[1024];
    vb_trace_title(t->comments, t->n_comments, trace, sizeof trace);
    /* the key's width: the longest title a note can make */
    size_t keychars = 10;
    for (size_t p = 0; p < C.np; p++)
        for (size_t s = 0; s < ns; s++) {
            size_t l = vb_utf8_len(series[s]);
            const char *raw = C.raw[p * ns + s], *near = C.near[p * ns + s];
            if (!seconds)
                l += raw[0]    ? vb_utf8_len("  errors = ") + vb_utf8_len(raw)
                     : near[0] ? vb_utf8_len("  ≈ ") + vb_utf8_len(near)
                               : 0;
            keychars = l > keychars ? l : keychars;
        }
    FILE *f = ch->f;
    vb_gp_begin(ch, 1000, 430.0 * (double)C.np + 50, 11, 1.5, 1);
    fprintf(f, "set logscale xy\nset format x \"%s\"\nset format y \"10^{%%L}\"\n",
            seconds ? "10^{%L}" : "%.0s%c");
    fputs(seconds ? "set xlabel \"wall time of the run (seconds, median of repeats, this machine)\" "
                    "noenhanced\n"
                  : "set xlabel \"force evaluations over the run (count)\" noenhanced\n",
          f);
    fputs("set ylabel \"max position error (length units)\" noenhanced\n"
          "set key outside right top vertical noenhanced nobox width -5 samplen 2.5 font \",10\"\n",
          f);
    vb_gp_margins(f, keychars, 1000.0);
    fprintf(f, "set multiplot layout %zu, 1 title ", C.np);
    titled(f, title, seconds ? "work against precision, in seconds" : "work against precision");
    fputs(" noenhanced font \",13\"\n", f);
    for (size_t p = 0; p < C.np; p++) {
        double xlo = 1e300, xhi = -1e300, ylo = 1e300, yhi = -1e300;
        for (size_t s = 0; s < ns; s++) {
            const vb_group *g = vb_curve(&C, p, s);
            for (size_t r = g ? g->first : 1; g && r <= g->last; r++) {
                double x = vb_csv_num(t, r, cx), y = vb_csv_num(t, r, cy);
                if (isfinite(x) && isfinite(y) && x > 0 && y > 0) {
                    xlo = fmin(xlo, log10(x));
                    xhi = fmax(xhi, log10(x));
                    ylo = fmin(ylo, log10(y));
                    yhi = fmax(yhi, log10(y));
                }
            }
        }
        int data = xlo <= xhi;
        if (data) {
            double xpad = seconds ? fmax(0.1, 0.04 * (xhi - xlo)) : 0.1;
            double ypad = fmax(0.25, 0.06 * (yhi - ylo));
            fprintf(f, "set xrange [%.17g : %.17g]\n", pow(10, xlo - xpad), pow(10, xhi + xpad));
            /* the force evaluations double from level to level: a tic per
             * factor of 2, on round numbers (..., 250, 500, 1k, 2k, ...) */
            if (!seconds)
                fprintf(f, "set xtics %.17g, 2\n",
                        1000 * pow(2, floor((xlo - 0.1 - 3) / log10(2))));
            fprintf(f, "set yrange [%.17g : %.17g]\nunset label 21\n", pow(10, ylo - ypad),
                    pow(10, yhi + ypad));
        } else {
            /* nothing finite to draw (every run diverged, or its truth failed) */
            fprintf(f, "set xrange [%s]\nset yrange [1e-3 : 1]\nset label 21 ",
                    seconds ? "1e-6 : 1e-2" : "1e2 : 1e4");
            vb_gp_str(f, VB_NO_FINITE);
            fputs(" at graph 0.5, graph 0.5 center font \",11\" tc rgb \"#555555\" noenhanced\n", f);
        }
        fputs("set title ", f);
        vb_gp_str(f, vb_plan_title(C.plans[p], random_title, trace));
        fputs(" noenhanced\n", f);
        if (!seconds) {
            vb_near_label(&C, p, "errors", 0.14, f);
            vb_curves_stripes(&C, p, f);
        }
        int first = ch->blocks + 1;
        for (size_t s = 0; s < ns && data; s++) {
            const vb_group *g = vb_curve(&C, p, s);
            if (!g)
                continue;
            vb_gp_block_begin(ch);
            for (size_t r = g->first; r <= g->last; r++)
                fprintf(f, "%s,%s\n", vb_csv_str(t, r, cx), vb_csv_str(t, r, cy));
            vb_gp_block_end(ch);
        }
        const char *sep = "plot ";
        if (!data) {
            fputs("plot 1e300 notitle", f);
            sep = ", \\\n     ";
        }
        for (size_t s = 0, b = (size_t)first; s < ns && data; s++)
            if (vb_curve(&C, p, s)) {
                fprintf(f, "%s$c%zu using 1:2 with linespoints lw %g dt %d pt %d ps %g lc rgb \"%s\" "
                           "notitle",
                        sep, b++, seconds ? 1.6 : vb_curve_lw(&C, p, s, 1.6),
                        seconds ? 1 : vb_curve_dt(&C, p, s), vb_palette_point(series, ns, series[s]),
                        seconds ? 1.0 : vb_curve_ps(&C, p, s, 1.0),
                        vb_palette_colour(series, ns, series[s]));
                sep = ", \\\n     ";
            }
        for (size_t s = 0; s < ns; s++) {
            if (!vb_curve(&C, p, s))
                continue;
            const char *raw = C.raw[p * ns + s];
            note[0] = '\0';
            if (!seconds) {
                if (vb_same_as(&C, p, s)[0])
                    vb_same_note(&C, p, s, note, sizeof note);
                else if (raw[0])
                    snprintf(note, sizeof note, "  errors = %s", raw);
            }
            snprintf(key, sizeof key, "%s%s", series[s], note);
            fprintf(f, "%skeyentry with linespoints lw 1.6 pt %d ps 1.0 lc rgb \"%s\" title ", sep,
                    vb_palette_point(series, ns, series[s]), vb_palette_colour(series, ns, series[s]));
            vb_gp_str(f, key);
            sep = ", \\\n     ";
        }
        fputc('\n', f);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    rc = 0;
done:
    free(ny);
    vb_curves_free(&C);
    vb_groups_free(&gs);
    return rc;
}

int vb_chart_work(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen)
{
    return work_chart(ch, t, title, 0, err, errlen);
}

int vb_chart_work_time(vb_chart *ch, const vb_csv *t, const char *title, char *err, size_t errlen)
{
    return work_chart(ch, t, title, 1, err, errlen);
}
