/* gridchart.c — a case file's grid (gpcharts.h): what each integrator
 * measured against the grid's parameter, one panel per plan.
 *   order  the fitted order of err_pos_max at each point, its 95 % interval
 *          as an error bar; a trend (*: no single power law) as an open
 *          point without one; grey dashed lines at the labels;
 *   error  err_pos_max at each point's finest step (log scale).
 * Only the rows of err_pos_max are drawn.  A grid of several keys is drawn
 * one value of the others at a time.  x is logarithmic when the values are
 * positive and span a factor of 20 or more.  A curve equal to an earlier
 * one at every point is drawn striped over it, its key saying "= NAME"
 * (coincide.h). */
#include "gpcharts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coincide.h"
#include "grid.h"
#include "norms.h"
#include "palette.h"

#define MAX_LABELS 16

int vb_grid_keys(const vb_csv *t, int *first_key, int *n_keys)
{
    int ci = vb_csv_col(t, VB_GRID_COL(INTEGRATOR));
    if (ci < 2 || strcmp(t->head[0], VB_GRID_COL(POINT)) != 0)
        return -1;
    *first_key = 1;
    *n_keys = ci - 1;
    return 0;
}

/* the combination of the keys after the first on a row: "k2=v2,k3=v3" */
static char *rest_of(const vb_csv *t, size_t r, int n_keys)
{
    size_t len = 1;
    for (int k = 2; k <= n_keys; k++)
        len += strlen(t->head[k]) + strlen(vb_csv_str(t, r, k)) + 2;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int k = 2; k <= n_keys; k++) {
        if (k > 2)
            strcat(s, ",");
        strcat(s, t->head[k]);
        strcat(s, "=");
        strcat(s, vb_csv_str(t, r, k));
    }
    return s;
}

size_t vb_grid_rests(const vb_csv *t, char ***rests)
{
    int first, nk;
    *rests = NULL;
    if (vb_grid_keys(t, &first, &nk) != 0 || nk < 2)
        return 0;
    char **out = malloc((t->n_rows + 1) * sizeof *out);
    size_t n = 0;
    for (size_t r = 0; out && r < t->n_rows; r++) {
        char *s = rest_of(t, r, nk);
        size_t i = 0;
        while (s && i < n && strcmp(out[i], s) != 0)
            i++;
        if (s && i == n)
            out[n++] = s;
        else
            free(s);
    }
    *rests = out;
    return n;
}

int vb_chart_grid(vb_chart *ch, const vb_csv *all, const char *title, vb_grid_mode mode,
                  const char *rest, char *err, size_t errlen)
{
    int first_key, nk;
    if (vb_grid_keys(all, &first_key, &nk) != 0) {
        snprintf(err, errlen, "%s: no point, keys and integrator columns: not a grid.csv",
                 all->path);
        return -1;
    }
    const char *xkey = all->head[first_key];
    const char *const need[] = {xkey, VB_GRID_COL(ERR_FINEST), NULL};
    if (vb_csv_require(all, need, err, errlen) != 0)
        return -1;
    /* the rows of one combination of the other keys */
    vb_csv sub, *t = (vb_csv *)all;
    int own = 0;
    if (rest) {
        unsigned char *keep = calloc(all->n_rows + 1, 1);
        for (size_t r = 0; keep && r < all->n_rows; r++) {
            char *s = rest_of(all, r, nk);
            keep[r] = s && strcmp(s, rest) == 0;
            free(s);
        }
        if (!keep || vb_csv_filter(all, keep, &sub) != 0) {
            free(keep);
            snprintf(err, errlen, "%s: out of memory", all->path);
            return -1;
        }
        free(keep);
        t = &sub;
        own = 1;
    }
    vb_groups gs;
    int rc = -1;
    double *ny = NULL;
    vb_curves C = {0};
    if (vb_groups_make(t, &gs, err, errlen) != 0)
        goto done;
    if (gs.n_plans == 0) {
        snprintf(err, errlen, "%s: no rows to draw", t->path);
        goto done;
    }
    int cx = vb_csv_col(t, xkey), cnorm = vb_csv_col(t, VB_GRID_COL(NORM)),
        crange = vb_csv_col(t, VB_GRID_COL(RANGE)), cord = vb_csv_col(t, VB_GRID_COL(ORDER)),
        cci = vb_csv_col(t, VB_GRID_COL(ORDER_CI95)), cexp = vb_csv_col(t, VB_GRID_COL(EXPECTED)),
        cerr = vb_csv_col(t, VB_GRID_COL(ERR_FINEST));
    int error = mode == VB_GRID_ERROR;
    ny = malloc((t->n_rows + 1) * sizeof *ny);
    if (!ny || vb_curves_init(&C, t, &gs, NULL, 0, VB_GRID_COL(SAME_AS)) != 0) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        goto done;
    }
    /* a curve that would hide another is drawn over it: errors on a log
     * axis, orders (the asymptotic ones, the points with their bars) on a
     * linear one */
    for (size_t r = 0; r < t->n_rows; r++) {
        int pos = !strcmp(vb_csv_str(t, r, cnorm), vb_norm_name(VB_NORM_POS_MAX));
        double y = vb_csv_num(t, r, error ? cerr : cord);
        if (!pos || (!error && strcmp(vb_csv_str(t, r, crange), "asymptotic") != 0) || !isfinite(y))
            ny[r] = (double)NAN;
        else
            ny[r] = !error ? y : y > 0 ? log10(y) : (double)NAN;
    }
    vb_curves_near(&C, ny);
    const char **series = C.series;
    size_t ns = C.ns;
    /* the x range, and whether it is logarithmic */
    double xmin = INFINITY, xmax = -INFINITY;
    for (size_t r = 0; r < t->n_rows; r++) {
        double x = vb_csv_num(t, r, cx);
        if (!isnan(x)) {
            xmin = fmin(xmin, x);
            xmax = fmax(xmax, x);
        }
    }
    int logx = xmin > 0 && xmax / xmin >= 20;
    /* the labels, for the guide lines of the order chart */
    int labels[MAX_LABELS], nl = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        double e = vb_csv_num(t, r, cexp);
        if (isnan(e))
            continue;
        int l = (int)e, i = 0;
        while (i < nl && labels[i] != l)
            i++;
        if (i == nl && nl < MAX_LABELS)
            labels[nl++] = l;
    }
    /* the order chart's y range: the labels and every asymptotic order,
     * with room (a flat series of 2.00 is not stretched over a hundredth); a
     * trend (*) widens it at most to two orders beyond the labels, and error
     * bars are clipped: a trend of 90 would flatten every order that means
     * something */
    double ylo = 1e300, yhi = -1e300;
    for (int i = 0; i < nl; i++) {
        ylo = fmin(ylo, labels[i] - 0.75);
        yhi = fmax(yhi, labels[i] + 0.75);
    }
    double llo = ylo + 0.75, lhi = yhi - 0.75, elo = 1e300, ehi = -1e300;
    for (size_t r = 0; r < t->n_rows; r++) {
        if (strcmp(vb_csv_str(t, r, cnorm), vb_norm_name(VB_NORM_POS_MAX)) != 0)
            continue;
        double o = vb_csv_num(t, r, cord), y = vb_csv_num(t, r, cerr);
        if (strcmp(vb_csv_str(t, r, crange), "none") != 0 && isfinite(o)) {
            if (!strcmp(vb_csv_str(t, r, crange), "all"))
                o = fmax(llo - 2, fmin(lhi + 2, o));
            ylo = fmin(ylo, o - 0.25);
            yhi = fmax(yhi, o + 0.25);
        }
        if (isfinite(y) && y > 0) {
            elo = fmin(elo, y);
            ehi = fmax(ehi, y);
        }
    }
    char trace[512], note[512], key[1024];
    vb_trace_title(t->comments, t->n_comments, trace, sizeof trace);
    size_t keychars = 12;
    for (size_t p = 0; p < C.np; p++)
        for (size_t s = 0; s < ns; s++) {
            vb_same_note(&C, p, s, note, sizeof note);
            snprintf(key, sizeof key, "%s%s", series[s], note);
            size_t l = vb_utf8_len(key);
            keychars = l > keychars ? l : keychars;
        }
    FILE *f = ch->f;
    vb_gp_begin(ch, 1000, 400.0 * (double)C.np + 60, 11, 1.5, 1);
    fputs(logx ? "set logscale x\nset format x \"%g\"\n" : "unset logscale x\n", f);
    {
        char xl[512];
        snprintf(xl, sizeof xl, "%s (the grid's parameter)", xkey);
        fputs("set xlabel ", f);
        vb_gp_str(f, xl);
        fputs(" noenhanced\n", f);
    }
    char what[512];
    if (error) {
        fputs("set logscale y\nset format y \"10^{%L}\"\n"
              "set ylabel \"max position error at the finest step (length units)\" noenhanced\n",
              f);
        snprintf(what, sizeof what, "max position error at each point's finest step");
    } else {
        fputs("unset logscale y\nset format y \"%.1f\"\n"
              "set ylabel \"fitted order of the max position error\" noenhanced\n",
              f);
        snprintf(what, sizeof what, "fitted order (95 %% interval) against %s", xkey);
    }
    fputs("set key outside right top vertical noenhanced nobox width -2 samplen 2.5 font \",10\"\n", f);
    vb_gp_margins(f, keychars, 1000.0);
    /* a margin of a twentieth of the range each side (a 20th of a decade,
     * on a log axis) */
    if (xmax > xmin) {
        if (logx) {
            double pad = pow(10, 0.05 * log10(xmax / xmin));
            fprintf(f, "set xrange [%.17g : %.17g]\n", xmin / pad, xmax * pad);
        } else {
            double pad = 0.05 * (xmax - xmin);
            fprintf(f, "set xrange [%.17g : %.17g]\n", xmin - pad, xmax + pad);
        }
    }
    {
        char head[1024];
        snprintf(head, sizeof head, "%s%s%s", title, title[0] ? ": " : "", what);
        fprintf(f, "set multiplot layout %zu, 1 title ", C.np);
        vb_gp_str(f, head);
        fputs(" noenhanced font \",13\"\n", f);
    }
    for (size_t p = 0; p < C.np; p++) {
        fputs("set title ", f);
        vb_gp_str(f, vb_plan_title(C.plans[p], "random steps, median of seeds", trace));
        fputs(" noenhanced\nunset arrow\nset autoscale y\n", f);
        vb_curves_stripes(&C, p, f);
        if (!error)
            fprintf(f, "set yrange [%.17g : %.17g]\n", ylo, yhi);
        else if (elo <= ehi)
            fprintf(f, "set yrange [%.17g : %.17g]\n", elo / pow(10, 0.35), ehi * pow(10, 0.35));
        vb_near_label(&C, p, error ? "errors" : "orders", 0.14, f);
        for (int i = 0; i < nl && !error; i++)
            fprintf(f, "set arrow %d from graph 0, first %d to graph 1, first %d nohead dt 2 lw 1 "
                       "lc rgb \"#999999\" back\n",
                    i + 1, labels[i], labels[i]);
        /* the data: x, then the error, or the asymptotic order, its
         * interval and the trend's order */
        int firstb = ch->blocks + 1;
        for (size_t s = 0; s < ns; s++) {
            const vb_group *g = vb_curve(&C, p, s);
            if (!g)
                continue;
            vb_gp_block_begin(ch);
            for (size_t r = g->first; r <= g->last; r++) {
                int pos = !strcmp(vb_csv_str(t, r, cnorm), vb_norm_name(VB_NORM_POS_MAX));
                const char *range = vb_csv_str(t, r, crange);
                double y = vb_csv_num(t, r, cerr), o = vb_csv_num(t, r, cord),
                       c = vb_csv_num(t, r, cci);
                fprintf(f, "%s,", vb_csv_str(t, r, cx));
                if (error) {
                    vb_gp_num(f, pos && isfinite(y) && y > 0 ? y : (double)NAN);
                } else {
                    vb_gp_num(f, pos && !strcmp(range, "asymptotic") ? o : (double)NAN);
                    fputc(',', f);
                    vb_gp_num(f, isnan(c) ? 0 : c);
                    fputc(',', f);
                    vb_gp_num(f, pos && !strcmp(range, "all") ? o : (double)NAN);
                }
                fputc('\n', f);
            }
            vb_gp_block_end(ch);
        }
        const char *sep = "plot ";
        for (size_t s = 0, b = (size_t)firstb; s < ns; s++)
            if (vb_curve(&C, p, s)) {
                fprintf(f, "%s$c%zu using 1:2%s with %s lw %g dt %d pt %d ps %g lc rgb \"%s\" notitle",
                        sep, b++, error ? "" : ":3", error ? "linespoints" : "yerrorlines",
                        vb_curve_lw(&C, p, s, 1.6), vb_curve_dt(&C, p, s),
                        vb_palette_point(series, ns, series[s]), vb_curve_ps(&C, p, s, 1.1),
                        vb_palette_colour(series, ns, series[s]));
                sep = ", \\\n     ";
            }
        for (size_t s = 0, b = (size_t)firstb; s < ns && !error; s++)
            if (vb_curve(&C, p, s))
                fprintf(f, "%s$c%zu using 1:4 with points pt 6 ps %g lc rgb \"%s\" notitle", sep, b++,
                        vb_curve_ps(&C, p, s, 1.3), vb_palette_colour(series, ns, series[s]));
        for (size_t s = 0; s < ns; s++)
            if (vb_curve(&C, p, s)) {
                vb_same_note(&C, p, s, note, sizeof note);
                snprintf(key, sizeof key, "%s%s", series[s], note);
                fprintf(f, "%skeyentry with linespoints lw 1.6 pt %d ps 1.1 lc rgb \"%s\" title ", sep,
                        vb_palette_point(series, ns, series[s]),
                        vb_palette_colour(series, ns, series[s]));
                vb_gp_str(f, key);
            }
        if (!error)
            fprintf(f, "%skeyentry with points pt 6 ps 1.3 lc rgb \"#555555\" title \"open: a trend (*)\"",
                    sep);
        fputc('\n', f);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    rc = 0;
done:
    free(ny);
    vb_curves_free(&C);
    vb_groups_free(&gs);
    if (own)
        vb_csv_free(&sub);
    return rc;
}
