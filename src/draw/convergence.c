/* convergence.c — error against step size, log-log, one panel per plan
 * (gpcharts.h).  The key gives each integrator's fitted order (a "*" is
 * explained under it: a trend, no single power law), or "= NAME" for a
 * curve equal to an earlier one (coincide.h).  Each panel's axes fit its own
 * data.  Short grey guides of slope p, labelled, fan out in an empty part of
 * the panel, for the orders its curves have. */
#include "gpcharts.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coincide.h"
#include "panels.h"
#include "palette.h"
#include "casecharts.h"
#include "charts.h"

/* the panels' plot areas in pixels, roughly (canvas 1000 x 470 a panel,
 * less the tics, labels and the key on the right) */
#define PANEL_H 350.0
#define LABEL_PX 46.0     /* "slope 4" at font 9 and its gap */
#define HALF_TEXT_PX 8.0
#define GAP_PX 8.0        /* between a guide and a curve (half a point symbol and some) */
#define MAX_SLOPE 8

size_t vb_stepsized(const vb_csv *t, const vb_groups *gs, const char **out)
{
    int tol = vb_csv_col(t, VB_CONV_COL(TOL)), ci = vb_csv_col(t, VB_CONV_COL(INTEGRATOR));
    size_t n = 0;
    for (size_t s = 0; s < gs->n_series; s++) {
        int adaptive = 0;
        for (size_t r = 0; tol >= 0 && r < t->n_rows && !adaptive; r++)
            adaptive = strcmp(vb_csv_str(t, r, ci), gs->series[s]) == 0 &&
                       vb_csv_num(t, r, tol) > 0;
        if (!adaptive)
            out[n++] = gs->series[s];
    }
    return n;
}

static int is_trend(const char *o)
{
    size_t l = strlen(o);
    return l > 1 && o[l - 1] == '*';
}

/* a fitted order as a number (a trend's too); NaN for exact, undetermined */
static double order_num(const char *o)
{
    if (!o[0] || !strchr("0123456789.-", o[0]))
        return (double)NAN;
    return strtod(o, NULL);
}

static void order_note(const char *o, char *buf, size_t len)
{
    if (!strcmp(o, "exact") || !strcmp(o, "undetermined") || !strcmp(o, "?"))
        snprintf(buf, len, "%s", o);
    else
        snprintf(buf, len, "p = %s", o);
}

/* one panel's points in log10 units, curve by curve */
typedef struct {
    size_t npt, nc;
    double *px, *py;
    size_t *cs, *ce; /* first and last point of each curve; cs > ce: none */
    double xlo, xhi, ylo, yhi;
} panel;

/* curve c at log10 dt = u, straight between its points (in order of
 * decreasing dt); NaN outside its range */
static double curve_at(const panel *P, size_t c, double u)
{
    for (size_t j = P->cs[c]; P->cs[c] <= P->ce[c] && j < P->ce[c]; j++)
        if (P->px[j] >= u && P->px[j + 1] <= u)
            return P->px[j] == P->px[j + 1]
                       ? P->py[j]
                       : P->py[j + 1] + (P->py[j] - P->py[j + 1]) * (u - P->px[j + 1]) /
                                            (P->px[j] - P->px[j + 1]);
    if (P->cs[c] == P->ce[c] && fabs(P->px[P->cs[c]] - u) < 1e-9)
        return P->py[P->cs[c]];
    return (double)NAN;
}

/* The fan: ns guides from a common point (xhi, anchor) at the right end of
 * the data down to the left over w decades, each labelled "slope p" at its
 * left end.  The fan and its labels must not touch a curve: each curve must
 * pass wholly above it or wholly below, which bounds the anchor to <= ca[c]
 * or >= cb[c].  Curves are straight between points, and so are the edges of
 * the fan and of the labels' box: the bounds are reached at a point of the
 * curve or where the fan or the box begins or ends, so those are the places
 * looked at.  Of the anchors allowed, the lowest that needs no more room
 * than the data's range (failing that, the one that stretches the y axis
 * least), moved off the curve it touches by a gap or two when that costs no
 * more room.  The width w of the fan keeps its labels apart at the panel's
 * scale (2.2 text heights a unit of slope), between a factor 2.5 and 16 in dt. */
typedef struct {
    int ns, sl[MAX_SLOPE];
    double w, h, m, anchor;
} fan;

typedef struct {
    const panel *P;
    double *ca, *cb;
    double pmin, pmax, w, h, m, ylo, yhi; /* ylo, yhi: the data's range with its pad */
} fan_fit;

static void apply(fan_fit *F, size_t c, double xhi, double u, double y)
{
    double du = u - xhi;
    if (du >= -F->w - 1e-9) {
        F->ca[c] = fmin(F->ca[c], y - F->pmin * du - F->m);
        F->cb[c] = fmax(F->cb[c], y - F->pmax * du + F->m);
    }
    if (du <= -F->w + 1e-9) {
        F->ca[c] = fmin(F->ca[c], y + F->pmin * F->w - F->h - F->m);
        F->cb[c] = fmax(F->cb[c], y + F->pmax * F->w + F->h + F->m);
    }
}

static int allowed(const fan_fit *F, double a)
{
    for (size_t d = 0; d < F->P->nc; d++)
        if (!(a <= F->ca[d] + 1e-9 || a >= F->cb[d] - 1e-9))
            return 0;
    return 1;
}

static double room(const fan_fit *F, double a)
{
    return fmax(0, F->ylo - (a - F->pmax * F->w - F->h - F->m)) + fmax(0, (a + F->m) - F->yhi);
}

static void fit_fan(const panel *P, const int *hasq, double ypad, double xspan, double panel_w,
                    fan *out)
{
    out->ns = 0;
    out->anchor = (double)NAN;
    for (int q = 1; q <= MAX_SLOPE; q++)
        if (hasq[q])
            out->sl[out->ns++] = q;
    if (!out->ns)
        return;
    double dpmin = 1;
    for (int i = 1; i < out->ns; i++)
        dpmin = i == 1 ? out->sl[1] - out->sl[0] : fmin(dpmin, out->sl[i] - out->sl[i - 1]);
    fan_fit F = {.P = P, .pmin = out->sl[0], .pmax = out->sl[out->ns - 1],
                 .ylo = P->ylo - ypad, .yhi = P->yhi + ypad};
    F.ca = malloc((P->nc + 1) * sizeof *F.ca);
    F.cb = malloc((P->nc + 1) * sizeof *F.cb);
    if (!F.ca || !F.cb) {
        free(F.ca);
        free(F.cb);
        out->ns = 0;
        return;
    }
    double d = P->yhi - P->ylo + 2 * ypad;
    for (int iter = 0; iter < 2; iter++) {
        double pxd = d / PANEL_H;
        F.w = fmax(log10(2.5), 2.2 * HALF_TEXT_PX * pxd / dpmin);
        F.w = fmin(F.w, fmax(log10(2), fmin(log10(16), 0.6 * (P->xhi - P->xlo))));
        F.h = HALF_TEXT_PX * pxd;
        F.m = GAP_PX * pxd;
        double lw = LABEL_PX * xspan / panel_w;
        for (size_t c = 0; c < P->nc; c++) {
            F.ca[c] = 1e300;
            F.cb[c] = -1e300;
            for (int k = 0; k < 3; k++) {
                double u = P->xhi - (k == 0 ? 0 : k == 1 ? F.w : F.w + lw);
                double y = curve_at(P, c, u);
                if (!isnan(y))
                    apply(&F, c, P->xhi, u, y);
            }
            for (size_t j = P->cs[c]; j <= P->ce[c] && P->cs[c] <= P->ce[c]; j++)
                if (P->px[j] >= P->xhi - F.w - lw - 1e-9)
                    apply(&F, c, P->xhi, P->px[j], P->py[j]);
        }
        double best = (double)NAN, bestext = 1e300;
        for (size_t c = 0; c <= 2 * P->nc; c++) {
            double a = c == 0 ? F.ylo + F.pmax * F.w + F.h + F.m
                       : c <= P->nc ? F.ca[c - 1]
                                    : F.cb[c - P->nc - 1];
            if (fabs(a) < 1e299 && allowed(&F, a)) {
                double ext = room(&F, a);
                if (ext < bestext - 1e-9 || (fabs(ext - bestext) <= 1e-9 && a < best)) {
                    best = a;
                    bestext = ext;
                }
            }
        }
        if (!isnan(best)) {
            static const double dd[] = {2, -2, 1, -1};
            for (int i = 0; i < 4; i++) {
                double a = best + dd[i] * F.m;
                if (allowed(&F, a) && room(&F, a) <= bestext + 1e-9) {
                    best = a;
                    break;
                }
            }
        }
        out->anchor = best;
        if (!isnan(best))
            d = fmax(F.yhi, best + F.m) - fmin(F.ylo, best - F.pmax * F.w - F.h - F.m);
    }
    out->w = F.w;
    out->h = F.h;
    out->m = F.m;
    free(F.ca);
    free(F.cb);
}

/* a curve's key: its name and fitted order, or "= NAME" */
static void conv_key(const vb_panels *P, size_t p, size_t s, int cord, char *key, size_t len)
{
    const vb_group *g = vb_curve(&P->C, p, s);
    char note[512], onote[128];
    vb_same_note(&P->C, p, s, note, sizeof note);
    order_note(cord >= 0 ? vb_csv_str(P->t, g->first, cord) : "?", onote, sizeof onote);
    if (P->C.raw[p * P->ns + s][0])
        snprintf(key, len, "%s%s", P->series[s], note);
    else
        snprintf(key, len, "%s  %s%s", P->series[s], onote, note);
}

/* panel p's points (log10 dt, log10 error) into P, the slopes its curves
 * have into hasq; 1 when some order is a trend (*) */
static int panel_points(const vb_panels *V, size_t p, int cdt, int cerr, int cord, panel *P,
                        int *hasq)
{
    const vb_csv *t = V->t;
    int starred = 0;
    P->npt = P->nc = 0;
    P->xlo = P->ylo = 1e300;
    P->xhi = P->yhi = -1e300;
    for (size_t s = 0; s < V->ns; s++) {
        const vb_group *g = vb_curve(&V->C, p, s);
        if (!g)
            continue;
        P->cs[P->nc] = P->npt;
        for (size_t r = g->first; r <= g->last; r++) {
            double x = vb_csv_num(t, r, cdt), y = vb_csv_num(t, r, cerr);
            if (isfinite(x) && isfinite(y) && x > 0 && y > 0) {
                P->px[P->npt] = log10(x);
                P->py[P->npt] = log10(y);
                P->xlo = fmin(P->xlo, P->px[P->npt]);
                P->xhi = fmax(P->xhi, P->px[P->npt]);
                P->ylo = fmin(P->ylo, P->py[P->npt]);
                P->yhi = fmax(P->yhi, P->py[P->npt]);
                P->npt++;
            }
        }
        /* an empty curve: cs > ce */
        P->ce[P->nc] = P->npt ? P->npt - 1 : 0;
        if (P->npt == P->cs[P->nc])
            P->cs[P->nc] = P->ce[P->nc] + 1;
        P->nc++;
        /* a slope-p guide is drawn only when some curve of the panel has
         * order p, rounded to the nearest integer from its fitted order
         * (a trend "*" included: its guide shows how far it is from a
         * power law; "exact" and "undetermined" have none, nor does an
         * order below 1/2).  The fitted order rather than the expected
         * one: a guide is for comparing with the slopes drawn, and a
         * method that falls short of its order (verlet with random
         * steps) has no line of that slope to compare with. */
        const char *o = vb_csv_str(t, g->first, cord);
        double v = order_num(o); /* a trend's "*" ends the number */
        if (!isnan(v) && v >= 0.5 && v < MAX_SLOPE + 0.5)
            hasq[(int)(v + 0.5)] = 1;
        starred |= is_trend(o);
    }
    return starred;
}

/* panel p's axes: fitted to its points with the fan of slope guides, or an
 * empty panel that says why */
static void panel_axes(FILE *f, const panel *P, const int *hasq, double panel_w)
{
    if (P->npt > 0) {
        /* a modest margin: a tenth of a decade in dt (levels are 0.3
         * apart), 6 % of the span in error */
        double xpad = 0.1, xspan = P->xhi - P->xlo + 2 * xpad;
        double ypad = fmax(0.25, 0.06 * (P->yhi - P->ylo));
        fan F;
        fit_fan(P, hasq, ypad, xspan, panel_w, &F);
        double y0 = P->ylo - ypad, y1 = P->yhi + ypad;
        if (F.ns > 0 && !isnan(F.anchor)) {
            y0 = fmin(y0, F.anchor - F.sl[F.ns - 1] * F.w - F.h - F.m);
            y1 = fmax(y1, F.anchor + F.m);
            for (int i = 0; i < F.ns; i++) {
                double xa = pow(10, P->xhi - F.w), ya = pow(10, F.anchor - F.sl[i] * F.w);
                fprintf(f, "set arrow %d from %.17g, %.17g to %.17g, %.17g nohead back lw 1.2 "
                           "lc rgb \"#7a7a7a\"\n",
                        i + 1, xa, ya, pow(10, P->xhi), pow(10, F.anchor));
                fprintf(f, "set label %d \"slope %d\" at %.17g, %.17g right offset -0.4, 0 "
                           "font \",9\" tc rgb \"#555555\" noenhanced\n",
                        i + 1, F.sl[i], xa, ya);
            }
        }
        fprintf(f, "set xrange [%.17g : %.17g]\n", pow(10, P->xlo - xpad), pow(10, P->xhi + xpad));
        /* dt halves from level to level: a tic per factor of 2, from a power of 10 */
        fprintf(f, "set xtics %.17g, 2\n", pow(10, floor(P->xlo - xpad)));
        fprintf(f, "set yrange [%.17g : %.17g]\n", pow(10, y0), pow(10, y1));
    } else {
        /* every run of the panel diverged, or its truth could not be
         * computed: an empty panel that says so, not a failed chart */
        fputs("set xrange [1e-3 : 1]\nset yrange [1e-3 : 1]\nset label 21 ", f);
        vb_gp_str(f, VB_NO_FINITE);
        fputs(" at graph 0.5, graph 0.5 center font \",11\" tc rgb \"#555555\" noenhanced\n", f);
    }
}

/* panel p's curves, then their key entries (a plain sample for each,
 * whatever the width and point size of its curve) */
static void panel_plot(const vb_panels *V, size_t p, int first_block, int empty, int cord)
{
    FILE *f = V->f;
    const vb_curves *C = &V->C;
    const char **series = V->series;
    size_t ns = V->ns;
    char key[1024];
    fputs("plot ", f);
    int block = first_block, any = 0;
    if (empty) {
        fputs("1e300 notitle", f);
        any = 1;
    } else
        for (size_t s = 0; s < ns; s++) {
            if (!vb_curve(C, p, s))
                continue;
            fprintf(f, "%s$c%d using 1:2 with linespoints lw %g dt %d pt %d ps %g lc rgb \"%s\" "
                       "notitle",
                    any ? ", \\\n     " : "", block++, vb_curve_lw(C, p, s, 1.6),
                    vb_curve_dt(C, p, s), vb_palette_point(series, ns, series[s]),
                    vb_curve_ps(C, p, s, 1.1), vb_palette_colour(series, ns, series[s]));
            any = 1;
        }
    for (size_t s = 0; s < ns; s++) {
        if (!vb_curve(C, p, s))
            continue;
        conv_key(V, p, s, cord, key, sizeof key);
        fprintf(f, ", \\\n     keyentry with linespoints lw 1.6 pt %d ps 1.1 lc rgb \"%s\" title ",
                vb_palette_point(series, ns, series[s]), vb_palette_colour(series, ns, series[s]));
        vb_gp_str(f, key);
    }
    fputc('\n', f);
}

static int vb_chart_convergence(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                                size_t errlen)
{
    const char *title = spec->title;
    const char *const need[] = {VB_CONV_COL(DT), VB_CONV_COL(ERR_POS_MAX), NULL};
    vb_panels V;
    panel P = {0};
    int rc = -1;
    if (vb_panels_open(&V, ch, t, need, VB_PANELS_STEPSIZED, VB_CONV_COL(SAME_AS), err,
                       errlen) != 0)
        goto done;
    P.px = malloc((t->n_rows + 1) * sizeof *P.px);
    P.py = malloc((t->n_rows + 1) * sizeof *P.py);
    P.cs = malloc((V.gs.n_series + 1) * sizeof *P.cs);
    P.ce = malloc((V.gs.n_series + 1) * sizeof *P.ce);
    if (!P.px || !P.py || !P.cs || !P.ce) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        goto done;
    }
    int cdt = vb_csv_col(t, VB_CONV_COL(DT)), cerr = vb_csv_col(t, VB_CONV_COL(ERR_POS_MAX)),
        cord = vb_csv_col(t, VB_CONV_COL(ORDER));
    vb_panels_log_ny(&V, cerr);
    vb_curves_near(&V.C, V.ny);

    /* the key's width: the longest title */
    char key[1024];
    size_t keychars = 10;
    for (size_t p = 0; p < V.C.np; p++)
        for (size_t s = 0; s < V.ns; s++) {
            if (!vb_curve(&V.C, p, s))
                continue;
            conv_key(&V, p, s, cord, key, sizeof key);
            size_t l = vb_utf8_len(key);
            keychars = l > keychars ? l : keychars;
        }
    const double width = 1000.0;
    double panel_w = width - 90 - vb_key_px(keychars);

    FILE *f = ch->f;
    vb_gp_begin(ch, 1000, 470.0 * (double)V.C.np + 40, 11, 1.5, 1);
    fputs("set logscale xy\nset format x \"%.2g\"\nset format y \"10^{%L}\"\n"
          "set xlabel \"step size dt (time units)\" noenhanced\n"
          "set ylabel \"max position error (length units)\" noenhanced\n",
          f);
    vb_panels_key_right(&V, -4, keychars, width);
    vb_panels_layout(&V, V.C.np, title, NULL);
    for (size_t p = 0; p < V.C.np; p++) {
        int hasq[MAX_SLOPE + 1] = {0};
        int starred = panel_points(&V, p, cdt, cerr, cord, &P, hasq);
        fputs("unset arrow\nunset label\n", f);
        panel_axes(f, &P, hasq, panel_w);
        if (starred)
            fputs("set label 20 \"* a trend over all points:\\nno single power law\" at graph 1.04, "
                  "graph 0.04 left font \",9\" tc rgb \"#333333\" noenhanced\n",
                  f);
        vb_near_label(&V.C, p, "errors", starred ? 0.27 : 0.14, f);
        vb_panels_plan_title(&V, &V.C, p, "random steps, median of seeds");
        vb_curves_stripes(&V.C, p, f);
        /* the curves' data */
        const int xy[2] = {cdt, cerr};
        int first_block = vb_panels_blocks(&V, &V.C, p, vb_panels_row_xy, xy);
        panel_plot(&V, p, first_block, P.npt == 0, cord);
    }
    fputs("unset multiplot\n", f);
    vb_gp_end(ch);
    rc = 0;
done:
    free(P.px);
    free(P.py);
    free(P.cs);
    free(P.ce);
    vb_panels_close(&V);
    return rc;
}

int vb_conv_stepsized(const vb_chart_case *cc, const char *plan)
{
    char path[PATH_MAX * 2], err[1024];
    vb_chart_case_path(cc, &vb_conv_schema, path, sizeof path);
    vb_csv t;
    if (vb_csv_read(path, &t, err, sizeof err) != 0) {
        vb_csv_free(&t);
        return -1;
    }
    int tol = vb_csv_col(&t, VB_CONV_COL(TOL)), cp = vb_csv_col(&t, VB_CONV_COL(PLAN)), found = 0;
    for (size_t r = 0; r < t.n_rows && !found; r++)
        found = (tol < 0 || vb_csv_num(&t, r, tol) == 0) &&
                (!plan || !strcmp(vb_csv_str(&t, r, cp), plan));
    vb_csv_free(&t);
    return found;
}

/* a sweep's, unless its only methods are adaptive (their x is a tolerance:
 * the work chart holds them); drawn when the table cannot be read, the
 * chart then saying why */
static int applies(const vb_chart_case *cc, const vb_chart_kind *kind)
{
    (void)kind;
    return vb_conv_stepsized(cc, NULL) != 0;
}

const vb_chart_kind vb_kind_convergence = {
    .name = "convergence",
    .table = &vb_conv_schema,
    .build = vb_chart_convergence,
    .group = VB_CHARTS_PARTICLES,
    .applies = applies,
    .caption = "error against step size; legend: fitted order",
};
