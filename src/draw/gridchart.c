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

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casecharts.h"
#include "coincide.h"
#include "panels.h"
#include "grid.h"
#include "norms.h"
#include "palette.h"

#define MAX_LABELS 16

typedef enum { VB_GRID_ORDER, VB_GRID_ERROR } vb_grid_mode;

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

/* the combinations of the keys after the first, in the order of the file */
static size_t vb_grid_rests(const vb_csv *t, char ***rests)
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

/* the rows of one combination of the other keys, as a table of their own:
 * 0, or -1 (out of memory) */
static int rows_of_rest(const vb_csv *all, const char *rest, int nk, vb_csv *sub)
{
    unsigned char *keep = calloc(all->n_rows + 1, 1);
    for (size_t r = 0; keep && r < all->n_rows; r++) {
        char *s = rest_of(all, r, nk);
        keep[r] = s && strcmp(s, rest) == 0;
        free(s);
    }
    int rc = keep && vb_csv_filter(all, keep, sub) == 0 ? 0 : -1;
    free(keep);
    return rc;
}

/* what the whole chart's axes are made of */
typedef struct {
    int cx, cnorm, crange, cord, cci, cexp, cerr; /* columns */
    int error;                 /* VB_GRID_ERROR */
    double xmin, xmax;
    int logx;
    int labels[MAX_LABELS], nl; /* the labels, for the order chart's guide lines */
    double ylo, yhi, elo, ehi;  /* the order chart's y range, the error chart's */
} grid_axes;

static int pos_row(const vb_csv *t, const grid_axes *A, size_t r)
{
    return !strcmp(vb_csv_str(t, r, A->cnorm), vb_norm_name(VB_NORM_POS_MAX));
}

/* the x range (logarithmic when positive over a factor of 20), the labels,
 * and the y ranges */
static void grid_ranges(const vb_csv *t, grid_axes *A)
{
    A->xmin = INFINITY, A->xmax = -INFINITY;
    for (size_t r = 0; r < t->n_rows; r++) {
        double x = vb_csv_num(t, r, A->cx);
        if (!isnan(x)) {
            A->xmin = fmin(A->xmin, x);
            A->xmax = fmax(A->xmax, x);
        }
    }
    A->logx = A->xmin > 0 && A->xmax / A->xmin >= 20;
    A->nl = 0;
    for (size_t r = 0; r < t->n_rows; r++) {
        double e = vb_csv_num(t, r, A->cexp);
        if (isnan(e))
            continue;
        int l = (int)e, i = 0;
        while (i < A->nl && A->labels[i] != l)
            i++;
        if (i == A->nl && A->nl < MAX_LABELS)
            A->labels[A->nl++] = l;
    }
    /* the order chart's y range: the labels and every asymptotic order,
     * with room (a flat series of 2.00 is not stretched over a hundredth); a
     * trend (*) widens it at most to two orders beyond the labels, and error
     * bars are clipped: a trend of 90 would flatten every order that means
     * something */
    A->ylo = 1e300, A->yhi = -1e300;
    for (int i = 0; i < A->nl; i++) {
        A->ylo = fmin(A->ylo, A->labels[i] - 0.75);
        A->yhi = fmax(A->yhi, A->labels[i] + 0.75);
    }
    double llo = A->ylo + 0.75, lhi = A->yhi - 0.75;
    A->elo = 1e300, A->ehi = -1e300;
    for (size_t r = 0; r < t->n_rows; r++) {
        if (!pos_row(t, A, r))
            continue;
        double o = vb_csv_num(t, r, A->cord), y = vb_csv_num(t, r, A->cerr);
        if (strcmp(vb_csv_str(t, r, A->crange), "none") != 0 && isfinite(o)) {
            if (!strcmp(vb_csv_str(t, r, A->crange), "all"))
                o = fmax(llo - 2, fmin(lhi + 2, o));
            A->ylo = fmin(A->ylo, o - 0.25);
            A->yhi = fmax(A->yhi, o + 0.25);
        }
        if (isfinite(y) && y > 0) {
            A->elo = fmin(A->elo, y);
            A->ehi = fmax(A->ehi, y);
        }
    }
}

/* the axes, the key and the figure's title */
static void grid_head(const vb_panels *V, const grid_axes *A, const char *xkey, const char *title,
                      size_t keychars)
{
    FILE *f = V->f;
    fputs(A->logx ? "set logscale x\nset format x \"%g\"\n" : "unset logscale x\n", f);
    char xl[512];
    snprintf(xl, sizeof xl, "%s (the grid's parameter)", xkey);
    fputs("set xlabel ", f);
    vb_gp_str(f, xl);
    fputs(" noenhanced\n", f);
    char what[512];
    if (A->error) {
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
    vb_panels_key_right(V, -2, keychars, 1000.0);
    /* a margin of a twentieth of the range each side (a 20th of a decade,
     * on a log axis) */
    if (A->xmax > A->xmin) {
        if (A->logx) {
            double pad = pow(10, 0.05 * log10(A->xmax / A->xmin));
            fprintf(f, "set xrange [%.17g : %.17g]\n", A->xmin / pad, A->xmax * pad);
        } else {
            double pad = 0.05 * (A->xmax - A->xmin);
            fprintf(f, "set xrange [%.17g : %.17g]\n", A->xmin - pad, A->xmax + pad);
        }
    }
    vb_panels_layout(V, V->C.np, title, what);
}

/* a row of a curve: x, then the error, or the asymptotic order, its
 * interval and the trend's order */
typedef struct {
    const grid_axes *A;
} grid_rows;

static void grid_row(FILE *f, const vb_csv *t, size_t r, const void *arg)
{
    const grid_axes *A = ((const grid_rows *)arg)->A;
    int pos = pos_row(t, A, r);
    const char *range = vb_csv_str(t, r, A->crange);
    double y = vb_csv_num(t, r, A->cerr), o = vb_csv_num(t, r, A->cord), c = vb_csv_num(t, r, A->cci);
    fprintf(f, "%s,", vb_csv_str(t, r, A->cx));
    if (A->error) {
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

/* panel p: its title, y range, guides at the labels, data and curves */
static void grid_panel(vb_panels *V, const grid_axes *A, size_t p)
{
    FILE *f = V->f;
    const vb_curves *C = &V->C;
    const char **series = V->series;
    size_t ns = V->ns;
    int error = A->error;
    fputs("set title ", f);
    vb_gp_str(f, vb_plan_title(C->plans[p], "random steps, median of seeds", V->trace));
    fputs(" noenhanced\nunset arrow\nset autoscale y\n", f);
    vb_curves_stripes(C, p, f);
    if (!error)
        fprintf(f, "set yrange [%.17g : %.17g]\n", A->ylo, A->yhi);
    else if (A->elo <= A->ehi)
        fprintf(f, "set yrange [%.17g : %.17g]\n", A->elo / pow(10, 0.35), A->ehi * pow(10, 0.35));
    vb_near_label(C, p, error ? "errors" : "orders", 0.14, f);
    for (int i = 0; i < A->nl && !error; i++)
        fprintf(f, "set arrow %d from graph 0, first %d to graph 1, first %d nohead dt 2 lw 1 "
                   "lc rgb \"#999999\" back\n",
                i + 1, A->labels[i], A->labels[i]);
    const grid_rows G = {A};
    int firstb = vb_panels_blocks(V, C, p, grid_row, &G);
    const char *sep = "plot ";
    for (size_t s = 0, b = (size_t)firstb; s < ns; s++)
        if (vb_curve(C, p, s)) {
            fprintf(f, "%s$c%zu using 1:2%s with %s lw %g dt %d pt %d ps %g lc rgb \"%s\" notitle",
                    sep, b++, error ? "" : ":3", error ? "linespoints" : "yerrorlines",
                    vb_curve_lw(C, p, s, 1.6), vb_curve_dt(C, p, s),
                    vb_palette_point(series, ns, series[s]), vb_curve_ps(C, p, s, 1.1),
                    vb_palette_colour(series, ns, series[s]));
            sep = ", \\\n     ";
        }
    for (size_t s = 0, b = (size_t)firstb; s < ns && !error; s++)
        if (vb_curve(C, p, s))
            fprintf(f, "%s$c%zu using 1:4 with points pt 6 ps %g lc rgb \"%s\" notitle", sep, b++,
                    vb_curve_ps(C, p, s, 1.3), vb_palette_colour(series, ns, series[s]));
    char key[1024];
    for (size_t s = 0; s < ns; s++)
        if (vb_curve(C, p, s)) {
            vb_panels_key(V, C, p, s, key, sizeof key);
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

/* the fitted order or the finest error against the grid's first key, at
 * one combination of the others ("k2=v2,k3=v3"; NULL: all rows) */
static int vb_chart_grid(vb_chart *ch, const vb_csv *all, const char *title, vb_grid_mode mode,
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
    vb_csv sub, *t = (vb_csv *)all;
    if (rest) {
        if (rows_of_rest(all, rest, nk, &sub) != 0) {
            snprintf(err, errlen, "%s: out of memory", all->path);
            return -1;
        }
        t = &sub;
    }
    const char *const none[] = {NULL}; /* required of the whole table, above */
    vb_panels V;
    int rc = -1;
    if (vb_panels_open(&V, ch, t, none, VB_PANELS_EVERY, VB_GRID_COL(SAME_AS), err, errlen) != 0)
        goto done;
    if (V.gs.n_plans == 0) {
        snprintf(err, errlen, "%s: no rows to draw", t->path);
        goto done;
    }
    grid_axes A = {.cx = vb_csv_col(t, xkey), .cnorm = vb_csv_col(t, VB_GRID_COL(NORM)),
                   .crange = vb_csv_col(t, VB_GRID_COL(RANGE)),
                   .cord = vb_csv_col(t, VB_GRID_COL(ORDER)),
                   .cci = vb_csv_col(t, VB_GRID_COL(ORDER_CI95)),
                   .cexp = vb_csv_col(t, VB_GRID_COL(EXPECTED)),
                   .cerr = vb_csv_col(t, VB_GRID_COL(ERR_FINEST)),
                   .error = mode == VB_GRID_ERROR};
    /* a curve that would hide another is drawn over it: errors on a log
     * axis, orders (the asymptotic ones, the points with their bars) on a
     * linear one */
    for (size_t r = 0; r < t->n_rows; r++) {
        double y = vb_csv_num(t, r, A.error ? A.cerr : A.cord);
        if (!pos_row(t, &A, r) ||
            (!A.error && strcmp(vb_csv_str(t, r, A.crange), "asymptotic") != 0) || !isfinite(y))
            V.ny[r] = (double)NAN;
        else
            V.ny[r] = !A.error ? y : y > 0 ? log10(y) : (double)NAN;
    }
    vb_curves_near(&V.C, V.ny);
    grid_ranges(t, &A);
    size_t keychars = vb_panels_keychars(&V, &V.C, 12);
    vb_gp_begin(ch, 1000, 400.0 * (double)V.C.np + 60, 11, 1.5, 1);
    grid_head(&V, &A, xkey, title, keychars);
    for (size_t p = 0; p < V.C.np; p++)
        grid_panel(&V, &A, p);
    fputs("unset multiplot\n", ch->f);
    vb_gp_end(ch);
    rc = 0;
done:
    vb_panels_close(&V);
    if (rest)
        vb_csv_free(&sub);
    return rc;
}

/* ---- the entries ---------------------------------------------------------- */

static int build_order(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                       size_t errlen)
{
    return vb_chart_grid(ch, t, spec->title, VB_GRID_ORDER, spec->arg, err, errlen);
}

static int build_error(vb_chart *ch, const vb_chart_spec *spec, const vb_csv *t, char *err,
                       size_t errlen)
{
    return vb_chart_grid(ch, t, spec->title, VB_GRID_ERROR, spec->arg, err, errlen);
}

const vb_chart_kind vb_kind_grid_error = {
    .name = "grid-error",
    .table = &vb_grid_schema,
    .args = VB_CHART_ARGS_GRID,
    .build = build_error,
    /* by name alone as far as the table goes: a grid's case gets it from
     * grid-order's add, beside each order chart */
};

/* A grid's own directory: the order and the error against the first key,
 * a pair for each combination of the others, in the order of the file */
static int add(const vb_chart_case *cc, const vb_chart_kind *kind, vb_batch *b)
{
    char path[PATH_MAX * 2], err[1024];
    vb_chart_case_path(cc, kind->table, path, sizeof path);
    vb_csv t;
    int first, nk;
    if (vb_csv_read(path, &t, err, sizeof err) != 0 || vb_grid_keys(&t, &first, &nk) != 0) {
        /* drawn anyway: the chart fails, saying what is wrong with the file */
        vb_csv_free(&t);
        return vb_chart_case_add(cc, b, kind, "grid-order", NULL, NULL,
                                 "the fitted order of the position error, 95 % intervals");
    }
    const char *key = t.head[first];
    char **rests;
    size_t nr = vb_grid_rests(&t, &rests);
    char cap[1024], stem[1024], title[1024];
    int rc = 0;
    if (nr == 0) {
        snprintf(cap, sizeof cap, "the fitted order of the position error against %s, 95 %% intervals", key);
        rc |= vb_chart_case_add(cc, b, kind, "grid-order", NULL, NULL, cap);
        snprintf(cap, sizeof cap, "the position error at each point's finest step against %s", key);
        rc |= vb_chart_case_add(cc, b, &vb_kind_grid_error, "grid-error", NULL, NULL, cap);
    }
    for (size_t i = 0; i < nr; i++) {
        snprintf(title, sizeof title, "%s at %s", cc->name, rests[i]);
        snprintf(stem, sizeof stem, "grid-order@%s", rests[i]);
        snprintf(cap, sizeof cap, "the fitted order of the position error against %s at %s", key, rests[i]);
        rc |= vb_chart_case_add(cc, b, kind, stem, title, rests[i], cap);
        snprintf(stem, sizeof stem, "grid-error@%s", rests[i]);
        snprintf(cap, sizeof cap, "the position error at the finest step against %s at %s", key, rests[i]);
        rc |= vb_chart_case_add(cc, b, &vb_kind_grid_error, stem, title, rests[i], cap);
    }
    for (size_t i = 0; i < nr; i++)
        free(rests[i]);
    free(rests);
    vb_csv_free(&t);
    return rc;
}

const vb_chart_kind vb_kind_grid_order = {
    .name = "grid-order",
    .table = &vb_grid_schema,
    .args = VB_CHART_ARGS_GRID,
    .build = build_order,
    .group = VB_CHARTS_GRID,
    .add = add,
};
